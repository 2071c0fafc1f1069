"""`tactical threat MAP --side B [--unit ID] [--json] [--png FILE]`: the danger before a move.

For side B: how many enemy weapons could bear on a unit of B (the `--unit`, else B's first
unit: its base and heading) at each point of a 0.5" grid (arc x range band x line of sight,
under the map's rule system, and the rule system's consent to the attack); with `--unit`
also the expected damage to that unit from the exact odds, its reach (every legal end
position this activation) and move advice (candidate ends ranked by damage dealt next
against damage taken). `--png` draws it over the table. Nothing is changed.

JSON keys (stable): {"rules", "side", "target", "grid": {"step", "columns", "rows"},
"measure", "count": rows of ints from the bottom row (y = 0) up, "damage": rows of
numbers or null, "blocked_by_models": the names of the models whose bases cut an enemy's
line of sight (R002.41), "weapons": [{"attacker", "weapon", "cells", "damage"}], "reach":
{"ends", "area"} or null, "advice": [{"path", "x", "y", "heading", "dealt", "taken"}]}.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tactical.cli.declare import JSON_KEYS, MAP, command, existing_map


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "threat",
        run,
        (
            MAP,
            ("--side", {"required": True, "help": "the side under threat (e.g. B)"}),
            ("--unit", {"metavar": "ID", "help": "a unit of that side: damage, reach, advice"}),
            JSON_KEYS,
            ("--png", {"metavar": "FILE", "help": "also draw it over the table as a PNG"}),
        ),
        help="threat map, reach and move advice for a side",
        description="How many enemy weapons could bear at each point of the table on a unit "
        "of SIDE; with --unit the expected damage to it, its reach and move advice.",
    )


def run(args: argparse.Namespace) -> int:
    from tactical.io.maps import load_map
    from tactical.threat.advice import move_advice
    from tactical.threat.damage import DamageCache
    from tactical.threat.heatmap import check_table_size, threat_map
    from tactical.threat.reach import reach

    if args.png is not None:
        from tactical.ui.render import checked_png_path

        checked_png_path(args.png)  # before any work: nothing is written on a mistake
    existing_map(args.map)
    state = load_map(args.map)
    check_table_size(state)  # before any work: the work grows with the square of the units
    cache = DamageCache()
    threat = threat_map(state, args.side, args.unit, cache=cache)
    found = advice = None
    if args.unit is not None:
        found = reach(state, args.unit)
        advice = move_advice(state, args.unit, cache=cache, threat=threat, found=found)
    if args.png is not None:
        written = _png(state, threat, found, advice or (), args.png)
    if args.json:
        print(json.dumps(_document(state, threat, found, advice or ()), ensure_ascii=False))
    else:
        _text(state, threat, found, advice or ())
    if args.png is not None:
        print(f"wrote {written}")
    return 0


def _document(state, threat, found, advice) -> dict:
    return {
        "rules": state.rules,
        "side": threat.side,
        "target": threat.target,
        "grid": {
            "step": threat.grid.step,
            "columns": len(threat.grid.xs),
            "rows": len(threat.grid.ys),
        },
        "measure": threat.measure or None,
        "count": threat.count.tolist(),
        "damage": None if threat.damage is None else [
            [round(float(v), 6) for v in row] for row in threat.damage
        ],
        "blocked_by_models": list(threat.blocking_models),
        "weapons": [
            {"attacker": w.attacker, "weapon": w.weapon, "cells": w.cells,
             "damage": None if w.damage is None else round(w.damage, 6)}
            for w in threat.weapons
        ],
        "reach": None if found is None else {
            "ends": len(found), "area": round(found.region.area, 4),
        },
        "advice": [
            {"path": a.path, "x": round(a.pose.x, 4), "y": round(a.pose.y, 4),
             "heading": round(a.pose.heading, 4), "dealt": round(a.dealt, 6),
             "taken": round(a.taken, 6)}
            for a in advice
        ],
    }  # fmt: skip


def _text(state, threat, found, advice) -> None:
    grid = threat.grid
    top = int(threat.count.max())
    row, column = divmod(int(threat.count.argmax()), len(grid.xs))
    names = state.shown_names  # units by the names a player reads, never their ids
    target = names.get(threat.target, threat.target)
    print(
        f"Threat to side {threat.side} ({state.rules}), as {target} would stand: "
        f'{len(threat.weapons)} enemy weapons can bear somewhere; on a {grid.step:g}" grid of '
        f"{len(grid.xs)} x {len(grid.ys)} points"
    )
    print(
        f"  most weapons at one point: {top}, at ({grid.xs[column]:.2f}, {grid.ys[row]:.2f}); "
        f"points no enemy weapon reaches: {int((threat.count == 0).sum())}"
    )
    if threat.damage is not None:
        worst = float(threat.damage.max())
        row, column = divmod(int(threat.damage.argmax()), len(grid.xs))
        print(
            f"  expected damage to {target} ({threat.measure or 'none'}): up to "
            f"{worst:.3f}, at ({grid.xs[column]:.2f}, {grid.ys[row]:.2f})"
        )
        here = threat.at(state.unit(threat.target).x, state.unit(threat.target).y)
        print(f"  where it stands now: {here[0]} weapons, expected damage {here[1]:.3f}")
    if threat.blocking_models:
        print("  lines of sight cut by the models " + ", ".join(threat.blocking_models))
    for share in threat.weapons:
        damage = "" if share.damage is None else f", up to {share.damage:.3f}"
        attacker = names.get(share.attacker, share.attacker)
        print(f"    {attacker}'s {share.weapon}: bears on {share.cells} points{damage}")
    if found is not None:
        limit = "" if found.limited else ' (no movement limit: shown to 24")'
        print(
            f"  reach of {names.get(found.unit_id, found.unit_id)}: {len(found)} legal end "
            "positions, "
            f"{found.region.area:.2f} square inches{limit}"
        )
    for rank, move in enumerate(advice, start=1):
        print(
            f"  advice {rank}: {move.path} -> ({move.pose.x:.2f}, {move.pose.y:.2f}) heading "
            f"{move.pose.heading:.0f}°: deals {move.dealt:.3f}, takes {move.taken:.3f}"
        )


def _png(state, threat, found, advice, path: str):
    from tactical.ui.fonts import shared_fonts
    from tactical.ui.layers import draw_units
    from tactical.ui.render import render_state, save_png
    from tactical.ui.scene import SceneRenderer
    from tactical.ui.threat_layer import draw_advice, draw_reach, draw_threat, threat_legend

    fonts = shared_fonts()
    renderer = SceneRenderer(fonts)
    unit = state.unit(threat.target)

    def overlay(surface, camera) -> None:
        draw_threat(surface, camera, state.board, threat, damage=threat.damage is not None)
        if found is not None:
            draw_reach(surface, camera, found)
        # the units again over the heat, so their side colours read true
        draw_units(surface, camera, renderer.unit_shapes(state), fonts, selected=unit.id)
        if advice:
            left, top, _, _ = camera.screen_rect(state.board.bounds)
            draw_advice(
                surface,
                camera,
                unit,
                advice,
                fonts,
                list_at=(left + 8, top + 8),
                name=state.shown_names[unit.id],
            )

    legend = threat_legend(threat, threat.damage is not None, found, advice)
    surface = render_state(
        state, sight_lines=False, overlay=overlay, legend=legend, renderer=renderer
    )
    return save_png(surface, Path(path))
