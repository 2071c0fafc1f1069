"""Does the fairness score predict games? (`tactical lab fairness`, docs/fairness.md)

The map's first fleet is put on both sides (`agents.mirrored`: the copy turned half a
circle about the table's centre), so the fleets are equal and whatever still leans a
game one way is the table's and the dice's. Layout `k` is a random table by R002.9 with
the terrain seed `derived_seed("fairness-layout", run seed, k)`, laid around the units
as `lab run --terrain random` lays it; each layout is a normal lab run of its own (the
map's text holds the table), so its games are stored, resumed and replayed like any
other run, and its score is worked out again from that text.

Per layout the seat imbalance is the first side's score (a win 1, a draw 1/2, a loss 0)
over its games, less 1/2. The report gives Spearman's rank correlation between the
score's predicted edge and that imbalance, between the unfairness (1 - fairness) and
the imbalance's size, and between each component's signed difference and the
imbalance, each with its 95% interval (Fisher's z with the Bonett-Wright variance,
(1 + r^2/2) / (n - 3)).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from tactical.agents import mirrored
from tactical.errors import UserError
from tactical.io.maps import dumps_map, loads_map
from tactical.lab.games import unit_keepouts
from tactical.lab.plan import RunSpec, derived_seed
from tactical.lab.specs import read_map_text, two_sides
from tactical.lab.stats import Z95
from tactical.lab.store import Store
from tactical.lab.variants import build_variants
from tactical.rules import registry
from tactical.session.terrain_setup import seeded_setup
from tactical.threat.fairness import FairnessScore, nearest_edge, possessive, score_layout

MAX_LAYOUTS = 10_000
MAX_GAMES = 100_000
PREDICTORS = ("edge", "cover", "visibility", "lanes")


@dataclass(frozen=True)
class Layout:
    """One generated table: its number, its terrain seed and the run that plays it."""

    number: int
    terrain_seed: int
    spec: RunSpec


def layouts(
    map_path: str, count: int, games: int, players: tuple[str, str], seed: int
) -> list[Layout]:
    """The run's layouts, each a lab run of `games` games (see the module doc)."""
    if not 1 <= count <= MAX_LAYOUTS:
        raise UserError(f"--layouts {count}: expected a whole number from 1 to {MAX_LAYOUTS}")
    if not 2 <= games <= MAX_GAMES:
        raise UserError(f"--games {games}: expected a whole number from 2 to {MAX_GAMES}")
    if seed < 0 or seed >= 2**62:
        raise UserError(f"--seed {seed}: expected a whole number from 0 to 2^62 - 1")
    text = read_map_text(map_path)
    state = loads_map(text, str(map_path))
    sides = two_sides(state, str(map_path))
    even = mirrored(state, sides[0])
    system = registry.get(state.rules)
    variants = build_variants(system, dict(state.options), (), ())
    source = Path(map_path).name
    found = []
    for number in range(count):
        terrain_seed = derived_seed("fairness-layout", seed, number)
        setup = seeded_setup(even.board, terrain_seed, avoid=unit_keepouts(even))
        table = replace(
            even.with_terrain(setup.terrain),
            # a map's title is short (80 characters): the seed is in the source and the report
            title=f"{even.title[:50]}, table {number + 1}",
        )
        spec = RunSpec(
            map_text=dumps_map(table),
            map_source=f"{source}, layout {number + 1} (terrain seed {terrain_seed})",
            rules=state.rules,
            title=table.title,
            sides=sides,
            variants=variants,
            players=players,
            terrain="map",
            seed=seed,
            games=games,
        )
        found.append(Layout(number + 1, terrain_seed, spec))
    return found


def layout_score(spec: RunSpec, edge: str | None = None) -> FairnessScore:
    """A layout's score, from its map's text (the table its games were played on)."""
    state = loads_map(spec.map_text, spec.map_source)
    return score_layout(state, edge or nearest_edge(state, spec.sides[0]))


# --------------------------------------------------------------------------- statistics


def ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks from 1, ties sharing their mean rank."""
    data = np.asarray(values, dtype=float)
    order = np.argsort(data, kind="mergesort")
    ranked = np.empty(len(data))
    ranked[order] = np.arange(1, len(data) + 1)
    for value in np.unique(data):
        same = data == value
        if same.sum() > 1:
            ranked[same] = ranked[same].mean()
    return ranked


def spearman(x: Sequence[float], y: Sequence[float]) -> dict[str, Any]:
    """Spearman's rho with its 95% interval (Fisher z, Bonett-Wright variance); None
    where it is undefined (fewer than 4 layouts, or a constant series)."""
    n = len(x)
    rx, ry = ranks(x), ranks(y)
    if n < 4 or rx.std() == 0 or ry.std() == 0:
        return {"rho": None, "interval": None, "n": n}
    rho = float(np.corrcoef(rx, ry)[0, 1])
    rho = max(-0.999999, min(0.999999, rho))
    spread = math.sqrt((1 + rho * rho / 2) / (n - 3))
    z = math.atanh(rho)
    return {
        "rho": rho,
        "interval": [math.tanh(z - Z95 * spread), math.tanh(z + Z95 * spread)],
        "n": n,
    }


# --------------------------------------------------------------------------- the report


def fairness_report(store: Store, found: Sequence[Layout]) -> dict[str, Any]:
    """Per layout its score and games; the correlations (see the module doc)."""
    rows = []
    for layout in found:
        run = store.run_id(layout.spec.key)
        if run is None:
            continue
        first = layout.spec.sides[0]
        # a win 1, a draw a half, a loss 0
        scores = [
            0.5 if winner is None else float(winner == first) for winner in store.winners(run)
        ]
        if not scores:
            continue
        score = layout_score(layout.spec)
        differences = score.differences()
        rows.append(
            {
                "layout": layout.number,
                "terrain_seed": layout.terrain_seed,
                "run": run,
                "games": len(scores),
                "first_score": sum(scores) / len(scores),
                "imbalance": sum(scores) / len(scores) - 0.5,
                "fairness": score.fairness,
                "edge": score.edge,
                "cover": differences["cover"],
                "visibility": differences["visibility"],
                "lanes": differences["lanes"],
                "symmetry": score.symmetry,
                "pieces": len(loads_map(layout.spec.map_text).terrain),
            }
        )
    imbalance = [r["imbalance"] for r in rows]
    correlations = {name: spearman([r[name] for r in rows], imbalance) for name in PREDICTORS}
    correlations["unfairness"] = spearman(
        [1 - r["fairness"] for r in rows], [abs(v) for v in imbalance]
    )
    correlations["symmetry"] = spearman([r["symmetry"] for r in rows], [abs(v) for v in imbalance])
    spec = found[0].spec if found else None
    return {
        "map": spec.map_source.split(", layout ")[0] if spec else "",
        "rules": spec.rules if spec else "",
        "sides": list(spec.sides) if spec else [],
        "players": list(spec.players) if spec else [],
        "layouts": rows,
        "games": sum(r["games"] for r in rows),
        "correlations": correlations,
        "verdict": verdict(correlations),
    }


PREDICTOR_WORDS = {
    "edge": "the score's predicted edge against the first side's result",
    "unfairness": "1 - fairness against the size of the imbalance",
    "cover": "the cover difference against the first side's result",
    "visibility": "the visibility difference against the first side's result",
    "lanes": "the lanes difference against the first side's result",
    "symmetry": "the distance from symmetry against the size of the imbalance",
}


def _rho_text(found: dict[str, Any]) -> str:
    if found["rho"] is None:
        return "undefined (too few layouts, or a figure that never changes)"
    low, high = found["interval"]
    return f"{found['rho']:+.2f} (95% {low:+.2f} to {high:+.2f})"


PART_WORDS = {
    "cover": "cover from the first strike",
    "visibility": "visibility",
    "lanes": "lanes",
    "symmetry": "symmetry",
}


def verdict(correlations: dict[str, dict[str, Any]]) -> str:
    """Whether the score predicts the games, and which component does, in words: a
    correlation predicts when its 95% interval lies wholly above 0."""
    telling = [
        name
        for name, found in correlations.items()
        if found["rho"] is not None and found["interval"][0] > 0
    ]
    parts = [PART_WORDS[name] for name in telling if name in PART_WORDS]
    if "edge" in telling or "unfairness" in telling:
        extra = f"; of its parts, {', '.join(parts)}" if parts else ""
        return f"the score predicts the games (a 95% interval above 0){extra}"
    if parts:
        return (
            "the fairness figure does not predict the games, but "
            + " and ".join(parts)
            + " does (a 95% interval above 0)"
        )
    return "nothing in the score predicts the games: every 95% interval takes in 0"


def text_report(report: dict[str, Any]) -> str:
    lines = [
        f"{report['map']} ({report['rules']}): {len(report['layouts'])} layouts, "
        f"{report['games']} games, {' against '.join(report['players'])}, "
        f"the first fleet on both sides",
        f"  {'layout':>6} {'games':>5} {report['sides'][0] if report['sides'] else '':>8} "
        f"{'fairness':>8} {'edge':>7} {'cover':>7} {'visib.':>7} {'lanes':>7}",
    ]
    for row in report["layouts"]:
        lines.append(
            f"  {row['layout']:>6} {row['games']:>5} {row['first_score']:>8.0%} "
            f"{row['fairness']:>8.3f} {row['edge']:>+7.3f} {row['cover']:>+7.3f} "
            f"{row['visibility']:>+7.3f} {row['lanes']:>+7.3f}"
        )
    lines.append("  Spearman's rank correlation:")
    for name in ("edge", "unfairness", "cover", "visibility", "lanes", "symmetry"):
        lines.append(f"    {PREDICTOR_WORDS[name]}: {_rho_text(report['correlations'][name])}")
    lines.append(f"  {report['verdict']}")
    return "\n".join(lines)


def scatter_png(report: dict[str, Any]) -> bytes:
    """The scatter plot: each layout's predicted edge (and its cover difference) against
    the first side's score, each with a normal 95% interval of its games' mean (the spread
    of a score taken as at least that of a coin's, so a layout of all wins gets one too)."""
    from tactical.lab.plots import DPI, HEIGHT, SIDE_COLOURS, WIDTH, plt, png_bytes

    figure, axes = plt.subplots(1, 2, figsize=(WIDTH * 1.3, HEIGHT), dpi=DPI)
    rows = report["layouts"]
    first = report["sides"][0] if report["sides"] else "first side"
    # beside the score's edge, the part that predicts best (by |rho|; cover where none can)
    parts = [
        (abs(report["correlations"][name]["rho"]), name)
        for name in ("cover", "visibility", "lanes")
        if report["correlations"][name]["rho"] is not None
    ]
    part = max(parts)[1] if parts else "cover"
    for axis, name, label in (
        (axes[0], "edge", "score's predicted edge for " + first),
        (axes[1], part, f"{part} difference ({possessive(first)} favour)"),
    ):
        xs = [r[name] for r in rows]
        ys = [r["first_score"] for r in rows]
        errors = [
            Z95 * math.sqrt(max(y * (1 - y), 0.0625) / max(r["games"], 1))
            for y, r in zip(ys, rows, strict=True)
        ]
        axis.errorbar(xs, ys, yerr=errors, fmt="o", color=SIDE_COLOURS[0], alpha=0.7, capsize=3)
        axis.axhline(0.5, color="#444444", linewidth=0.8, linestyle=":")
        axis.axvline(0.0, color="#444444", linewidth=0.8, linestyle=":")
        axis.set_xlabel(label)
        axis.set_ylabel(f"{possessive(first)} score (a win 1, a draw 1/2)")
        found = report["correlations"][name]
        axis.set_title(f"Spearman {_rho_text(found)}", fontsize=9)
        axis.set_ylim(0, 1)
        axis.grid(alpha=0.3)
    figure.suptitle(f"{report['map']}: does the table's score predict the games?")
    figure.tight_layout()
    return png_bytes(figure)


def html_page(report: dict[str, Any], plot_name: str) -> str:
    from html import escape

    rows = "".join(
        f"<tr><td>{r['layout']}</td><td>{r['terrain_seed']}</td><td>{r['games']}</td>"
        f"<td>{r['first_score']:.0%}</td><td>{r['fairness']:.3f}</td><td>{r['edge']:+.3f}</td>"
        f"<td>{r['cover']:+.3f}</td><td>{r['visibility']:+.3f}</td><td>{r['lanes']:+.3f}</td>"
        f"<td>{r['symmetry']:.2f}</td></tr>"
        for r in report["layouts"]
    )
    first = escape(possessive(report["sides"][0])) if report["sides"] else "the first side's"
    correlations = "".join(
        f"<li>{escape(PREDICTOR_WORDS[name])}: {escape(_rho_text(found))}</li>"
        for name, found in report["correlations"].items()
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>Fair tables: {escape(report['map'])}</title></head><body>"
        f"<h1>Fair tables: {escape(report['map'])} ({escape(report['rules'])})</h1>"
        f"<p>{len(report['layouts'])} layouts, {report['games']} games, "
        f"{escape(' against '.join(report['players']))}, the first fleet on both sides.</p>"
        f"<p><b>{escape(report['verdict'])}</b></p><ul>{correlations}</ul>"
        f"<img src='{escape(plot_name)}' alt='scatter of the score against the games'>"
        "<table border='1' cellpadding='3'><tr><th>layout</th><th>terrain seed</th>"
        f"<th>games</th><th>{first} score</th><th>fairness</th><th>edge</th><th>cover</th>"
        f"<th>visibility</th><th>lanes</th><th>symmetry</th></tr>{rows}</table>"
        "</body></html>\n"
    )
