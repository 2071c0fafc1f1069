"""What a results file shows: per variant, who wins, how long games last, what dies.

Games are grouped by scenario (the map's content, by its digest: two maps with one
title are two scenarios; its rule system, its two sides, the AI players and the
terrain) and within it by variant (the options in force), across every run in the
file: runs of the same variant with other seeds add up. Per variant:

- each side's win rate with its Wilson 95% interval, the draws, and the exact binomial
  test of the decisive games against an even split ("is this variant fair?");
- game length (turns) and each side's score, share of its strength lost, units lost,
  damage dealt and damage per turn; the mean cumulative damage by the end of each turn
  (a game that ended earlier keeps its final figure);
- per unit class and side (a group: every unit of the class together; a unit whose
  stats name no class goes by its name): how often it was lost, and how often its
  side won;
- per unit (one unit of the map, named as the play screen names it,
  `GameState.shown_names`: "Attacker Class Frigate 2"): the same figures;
- how games ended (the outcome's reason), and the code versions that played them.

Between two variants of a scenario: the difference of each side's win rate, its
Newcombe 95% interval and the two-proportion z test (`stats`).
"""

from __future__ import annotations

import functools
import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tactical.errors import UserError
from tactical.io.maps import loads_map
from tactical.lab.plan import map_digest
from tactical.lab.stats import binomial_test, proportion, two_proportion_test
from tactical.lab.store import Store

SIGNIFICANCE = 0.05
PLACES = 4


@dataclass(frozen=True)
class GameRow:
    id: int
    scenario: tuple[str, ...]
    variant_key: str
    label: str
    winner: str | None
    reason: str
    turns: int
    sides: tuple[str, str]
    score: tuple[float, float]
    losses: tuple[float, float]
    damage: tuple[float, float]
    units_lost: tuple[int, int]
    damage_by_turn: tuple[tuple[float, ...], tuple[float, ...]]
    seat: int
    code_version: str


def load_rows(store: Store) -> list[GameRow]:
    found = []
    for row in store.report_games():
        by_turn = json.loads(row["damage_by_turn"])
        found.append(
            GameRow(
                id=int(row["id"]),
                scenario=(
                    map_digest(row["map_text"]),
                    row["map_source"],
                    row["title"],
                    row["rules"],
                    row["side_a"],
                    row["side_b"],
                    row["player_1"],
                    row["player_2"],
                    row["terrain"],
                ),
                variant_key=row["options"],
                label=row["label"],
                winner=row["winner"],
                reason=row["reason"],
                turns=int(row["turns"]),
                sides=(row["side_a"], row["side_b"]),
                score=(float(row["score_a"]), float(row["score_b"])),
                losses=(float(row["losses_a"]), float(row["losses_b"])),
                damage=(float(row["damage_a"]), float(row["damage_b"])),
                units_lost=(int(row["units_lost_a"]), int(row["units_lost_b"])),
                damage_by_turn=(tuple(by_turn[0]), tuple(by_turn[1])),
                seat=int(row["seat"]),
                code_version=row["code_version"],
            )
        )
    return found


@dataclass(frozen=True, slots=True)
class UnitRow:
    """How one unit ended one game: its id, its name as the play screen shows it, its
    class (what the report groups it by), its side, and whether it was lost."""

    unit_id: str
    name: str
    unit_class: str
    side: str
    lost: bool


def unit_rows(store: Store) -> dict[int, list[UnitRow]]:
    """Per game id, each unit's `UnitRow`, in the map's order."""
    found: dict[int, list[UnitRow]] = defaultdict(list)
    for row in store.report_units():
        names = shown_names(row["map_text"], row["map_source"])
        found[int(row["game_id"])].append(
            UnitRow(
                row["unit_id"],
                names.get(row["unit_id"], row["unit_id"]),
                row["unit_class"],
                row["side"],
                bool(row["lost"]),
            )
        )
    return found


@functools.lru_cache(maxsize=16)
def shown_names(map_text: str, source: str) -> dict[str, str]:
    """The units of a run's map by id, named as the play screen names them (numbered where
    they share a name); none when the map no longer loads (its rule system changed since):
    the units then read by their ids."""
    try:
        return loads_map(map_text, source).shown_names
    except UserError:
        return {}


def build_report(store: Store) -> dict[str, Any]:
    """The report as JSON-ready data (the keys `tactical lab report --json` prints)."""
    rows = load_rows(store)
    units = unit_rows(store)
    scenarios: dict[tuple[str, ...], dict[str, list[GameRow]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for row in rows:
        scenarios[row.scenario][row.variant_key].append(row)
    found = [_scenario(key, variants, units) for key, variants in scenarios.items()]
    titles = Counter(scenario["title"] for scenario in found)
    for scenario in found:
        # two maps of one title are told apart by their file and content
        scenario["heading"] = (
            scenario["title"]
            if titles[scenario["title"]] == 1
            else f"{scenario['title']} from {scenario['map']}, version {scenario['map_digest'][:8]}"
        )
    return {"db": str(store.path), "games": len(rows), "scenarios": found}


def _scenario(
    key: tuple[str, ...], variants: dict[str, list[GameRow]], units: dict[int, list]
) -> dict[str, Any]:
    digest, source, title, rules, side_a, side_b, player_1, player_2, terrain = key
    sides = (side_a, side_b)
    summaries = [_variant(games, sides, units) for games in variants.values()]
    comparisons = []
    first = variants[next(iter(variants))]
    for other_key in list(variants)[1:]:
        other = variants[other_key]
        for side in sides:
            wins_1 = sum(1 for g in first if g.winner == side)
            wins_2 = sum(1 for g in other if g.winner == side)
            test = two_proportion_test(wins_1, len(first), wins_2, len(other))
            comparisons.append(
                {
                    "side": side,
                    "variant": other[0].label,
                    "against": first[0].label,
                    "win_rate": _round(wins_2 / len(other)),
                    "against_win_rate": _round(wins_1 / len(first)),
                    "difference": _round(test.difference),
                    "interval": [_round(test.interval.low), _round(test.interval.high)],
                    "z": _round(test.z),
                    "p_value": _significant(test.p_value),
                    "significant": bool(test.p_value < SIGNIFICANCE),
                    "test": "two-proportion z test (pooled), two-sided; Newcombe 95% interval",
                }
            )
    return {
        "title": title,
        "map": source,
        "map_digest": digest,
        "rules": rules,
        "sides": list(sides),
        "players": [player_1, player_2],
        "terrain": terrain,
        "variants": summaries,
        "comparisons": comparisons,
    }


def _variant(
    games: Sequence[GameRow], sides: tuple[str, str], units: dict[int, list]
) -> dict[str, Any]:
    count = len(games)
    turns = [g.turns for g in games]
    draws = sum(1 for g in games if g.winner is None)
    wins = {side: sum(1 for g in games if g.winner == side) for side in sides}
    decisive = wins[sides[0]] + wins[sides[1]]
    longest = max(max(len(g.damage_by_turn[0]), len(g.damage_by_turn[1])) for g in games)
    per_side = {}
    for index, side in enumerate(sides):
        share = proportion(wins[side], count)
        per_side[side] = {
            "wins": wins[side],
            "win_rate": _round(share.rate),
            "interval": [_round(share.interval.low), _round(share.interval.high)],
            "score_mean": _round(statistics.fmean(g.score[index] for g in games)),
            "strength_lost_mean": _round(statistics.fmean(g.losses[index] for g in games)),
            "units_lost_mean": _round(statistics.fmean(g.units_lost[index] for g in games)),
            "damage_mean": _round(statistics.fmean(g.damage[index] for g in games)),
            "damage_per_turn": _round(
                statistics.fmean(g.damage[index] / max(1, g.turns) for g in games)
            ),
            "damage_by_turn": [
                _round(statistics.fmean(_at_turn(g.damage_by_turn[index], t) for g in games))
                for t in range(longest)
            ],
            "wins_as_first_player": sum(
                1 for g in games if g.winner == side and (g.seat == 0) == (index == 0)
            ),
        }
    return {
        "label": games[0].label,
        "options": json.loads(games[0].variant_key),
        "games": count,
        "draws": draws,
        "draw_rate": _round(draws / count),
        "sides": per_side,
        "fairness": {
            "decisive_games": decisive,
            "p_value": _significant(binomial_test(wins[sides[0]], decisive)),
            "test": "exact binomial test of the decisive games against an even split",
        },
        "turns": {
            "mean": _round(statistics.fmean(turns)),
            "median": statistics.median(turns),
            "min": min(turns),
            "max": max(turns),
            "counts": {str(k): v for k, v in sorted(Counter(turns).items())},
        },
        "reasons": dict(Counter(g.reason for g in games).most_common()),
        "unit_classes": _classes(games, units),
        "units": _units(games, units),
        "code_versions": sorted({g.code_version for g in games}),
    }


def _classes(games: Sequence[GameRow], units: dict[int, list[UnitRow]]) -> list[dict[str, Any]]:
    """Per unit class and side, a group (every unit of the class in every game together;
    a unit whose stats name no class goes by its plain name): `_fates`."""
    fielded: Counter[tuple[str, str]] = Counter()
    lost: Counter[tuple[str, str]] = Counter()
    won: Counter[tuple[str, str]] = Counter()
    for game in games:
        for unit in units.get(game.id, ()):
            key = (unit.unit_class, unit.side)
            fielded[key] += 1
            lost[key] += int(unit.lost)
            won[key] += int(game.winner == unit.side)
    found = []
    for (unit_class, side), count in sorted(fielded.items(), key=lambda item: item[0]):
        key = (unit_class, side)
        found.append({"class": unit_class, "side": side, **_fates(count, lost[key], won[key])})
    return found


def _units(games: Sequence[GameRow], units: dict[int, list[UnitRow]]) -> list[dict[str, Any]]:
    """Per unit of the map (one unit, not a group), in the map's order: its name as the
    play screen shows it, its class and side, and the figures of `_classes`."""
    rows: dict[tuple[str, str, str], UnitRow] = {}
    fielded: Counter[tuple[str, str, str]] = Counter()
    lost: Counter[tuple[str, str, str]] = Counter()
    won: Counter[tuple[str, str, str]] = Counter()
    for game in games:
        for unit in units.get(game.id, ()):
            key = (unit.unit_id, unit.name, unit.side)
            rows.setdefault(key, unit)
            fielded[key] += 1
            lost[key] += int(unit.lost)
            won[key] += int(game.winner == unit.side)
    return [
        {
            "unit": unit.name,
            "id": unit.unit_id,
            "class": unit.unit_class,
            "side": unit.side,
            **_fates(fielded[key], lost[key], won[key]),
        }
        for key, unit in rows.items()
    ]


def _fates(fielded: int, lost: int, side_won: int) -> dict[str, Any]:
    """How often a unit (or a class) was lost, with its Wilson interval, and how often its
    side won, of the `fielded` times it played."""
    share = proportion(lost, fielded)
    return {
        "fielded": fielded,
        "lost": lost,
        "loss_rate": _round(share.rate),
        "loss_interval": [_round(share.interval.low), _round(share.interval.high)],
        "side_won": side_won,
        "side_win_rate": _round(side_won / fielded),
    }


def _at_turn(series: Sequence[float], turn: int) -> float:
    if not series:
        return 0.0
    return series[turn] if turn < len(series) else series[-1]


def _significant(value: float, digits: int = 4) -> float:
    """A p-value to `digits` significant digits (a tiny one stays tiny, not 0)."""
    return float(f"{value:.{digits}g}")


def _round(value: float, places: int = PLACES) -> float:
    return round(float(value), places)
