"""`tactical move MAP UNIT PATH [--boost kinetic=4|tesla=2] [--speed SPEED] [--json]`.

Plans a move without changing the map (docs/architecture.md "Command line"). PATH tokens:
`F3` forward 3", `B1.5` backwards, `P45` / `S30` turn to port / starboard with
the unit's turning rule, `C90` / `C-90` rotate about the centre (clockwise
positive); one argument ("F3 P45 F2") or several.

JSON (fixed keys): `x`, `y`, `heading` (where the unit ends), `distance`
(inches moved), `legal`, `violations` ([{"rule", "message", "step"}]),
`snaking` (true when the path snakes, R002.34) and `collision` (null, or
{"kind": "terrain" | "ram", "id", "x", "y", "heading", "step", "token"}: what
stopped the unit and where). Extras: `treacherous_tests` ([{"step", "token",
"rule"}]: the turns that need a Treacherous Terrain test), `unit`, `path`, `left_board`, `lost`,
`notes`, `disengage`, `planned` (where the whole path would end), `steps`
(pose after each step made) and `swept_bounds`.

Exit code 0 for a planned move, legal or not (`legal` says which); 2 with one
line on stderr for bad input (a path that does not parse, an unknown unit, a
bad boost).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from tactical.cli.declare import JSON_KEYS, command
from tactical.errors import UserError

if TYPE_CHECKING:
    from tactical.model import GameState
    from tactical.session.movement import MovePlan


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "move",
        run,
        (
            ("map", {"help": "map file (TOML)"}),
            ("unit", {"help": "id of the unit to move"}),
            ("path", {"nargs": "+", "help": 'path, e.g. "F3 P45 F2"'}),
            (
                "--boost",
                {
                    "metavar": "KIND=ROLL",
                    "help": "a generator boost rolled before moving: kinetic=1..6 (R002.48) "
                    "or tesla=1..3 (R002.45)",
                },
            ),
            ("--speed", {"help": "declared speed for this move (SW D6: cautious, ...)"}),
            JSON_KEYS,
        ),
        help="plan a move: where it ends, what it hits, which rules it breaks",
        description="Plan a unit's move along a path without changing the map. "
        'PATH tokens: F3 forward 3", B1.5 backwards, P45/S30 turn to port/starboard '
        "with the unit's turning rule, C90/C-90 rotate about the centre.",
    )


def parse_boost(text: str) -> dict[str, int]:
    """'kinetic=4' -> {"kinetic": 4}."""
    kind, sep, value = text.partition("=")
    kind = kind.strip().lower()
    if not sep or not kind:
        raise UserError(f"--boost {text!r}: expected KIND=ROLL, e.g. kinetic=4 or tesla=2")
    try:
        roll = int(value)
    except ValueError:
        raise UserError(f"--boost {text!r}: the roll must be a whole number") from None
    return {kind: roll}


def run(args: argparse.Namespace) -> int:
    # here, not at the top: `tactical --help` lists this command without loading them
    from tactical.io import load_map
    from tactical.session.movement import plan_move

    state = load_map(args.map)
    activation: dict[str, object] = {}
    if args.boost:
        boost = parse_boost(args.boost)
        if set(boost) - {"kinetic", "tesla"}:
            raise UserError(f"--boost {args.boost!r}: the kind is kinetic or tesla")
        activation.update(boost)
    if args.speed:
        activation["speed"] = args.speed.lower()
    plan = plan_move(state, args.unit, args.path, activation or None)
    if args.json:
        sys.stdout.write(json.dumps(plan.as_dict(state), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(summary(plan, state) + "\n")
    return 0


def summary(plan: MovePlan, state: GameState) -> str:
    """A readable account of the plan: units and terrain by the names a player reads (the
    JSON keeps the ids)."""
    data = plan.as_dict()
    units, terrain = state.shown_names, state.shown_terrain_names
    name = units.get(plan.unit_id, plan.unit_id)
    lines = [
        f"{name}: {data['path']} — {'legal' if plan.legal else 'ILLEGAL'}",
        f'  ends at x {data["x"]:.2f}", y {data["y"]:.2f}", heading {data["heading"]:.1f}° '
        f'after {data["distance"]:.2f}"',
    ]
    for violation in plan.violations:
        where = f" (step {violation.step + 1})" if violation.step is not None else ""
        lines.append(f"  ✗ {violation.rule}{where}: {violation.message}")
    collision = data["collision"]
    if collision:
        ram = collision["kind"] == "ram"
        what = "rams" if ram else "collides with"
        hit = (units if ram else terrain).get(collision["id"], collision["id"])
        lines.append(
            f"  stops: {what} {hit} during {collision['token']} at "
            f'x {collision["x"]:.2f}", y {collision["y"]:.2f}", heading {collision["heading"]:.1f}°'
            " (R002.35)"
        )
    left = data["left_board"]
    if left:
        fate = "and is lost (R002.59)" if left["lost"] else "(not allowed)"
        lines.append(f'  leaves the table at x {left["x"]:.2f}", y {left["y"]:.2f}" {fate}')
    tests = data["treacherous_tests"]
    if tests:
        turns = ", ".join(f"{t['token']} (step {t['step'] + 1})" for t in tests)
        lines.append(f"  Snaking: Treacherous Terrain test for each of {turns} (R002.34)")
    for note in data["notes"]:
        lines.append(f"  note {note['rule']}: {note['message']}")
    if data["disengage"]:
        lines.append("  disengaging: rotation about the centre as the whole move (R002.32)")
    return "\n".join(lines)
