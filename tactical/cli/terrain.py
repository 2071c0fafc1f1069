"""`tactical terrain [--seed N] [--width W --height H] [-o MAP] [--png F] [--sheet F] [--json]`,
`tactical terrain --score MAP`, `tactical terrain --fair [--tries N]`.

Randomized battlefield setup by the 2'x2' area procedure (R002.9): every
area's rolls for both sides, the pieces placed (from the terrain library in
tactical/assets, or `--library FILE`), then optionally the map written
(`-o`, rules `--rules`, default dystopian-wars), a PNG of it (`--png`) and a
Markdown placement sheet to lay the pieces out by hand (`--sheet`).
`--deployment EDGE` keeps the pieces out of the zones on that edge and the
opposite one (8" deep, R002.17). Without `--seed` a seed is drawn from the
operating system and printed, so any layout can be made again.

JSON (fixed keys): `{"seed", "board": {"width", "height"}, "areas": [{"area",
"rolls": {"A", "B"}, "pieces": [ids]}], "terrain": [{"id", "kind", "height",
"polygon": [[x, y], ...]}]}` (circles as polygons; extras: an area's
`unplaced` count, a piece's `name`; `written` lists the files written).

`--score MAP` scores the map's terrain for its two sides (`threat.fairness`: visibility,
cover from the enemy's first strike, lanes, symmetry and the fairness figure; JSON
`{"map", "rules", "score": {...}}`). `--fair` draws `--tries` layouts by R002.9, each
with its own seed (the run's seed, then the next ones), scores each against the fleets of
`--fleets MAP` (default: the rule system's built-in scenario) and keeps the fairest: its
seed remakes it with `--seed`. The zones are the first side's on `--deployment EDGE`
(default: the edge its units stand nearest) and the other side's opposite (R002.17).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tactical.cli.declare import JSON_KEYS, command
from tactical.errors import UserError

if TYPE_CHECKING:
    from tactical.model import Board, GameState
    from tactical.session.terrain_setup import TerrainSetup
    from tactical.threat.fairness import FairnessScore

# The parser's choices and defaults as plain values: `tactical --help` builds every
# command's parser, and importing the zones (shapely) or the fairness score (numpy, the
# rules) for them would cost every command a tenth of a second. A test keeps them equal
# to `geometry.zones.EDGE_NAMES` and `threat.fairness.GRID_STEP`.
EDGE_NAMES = ("bottom", "top", "left", "right")
GRID_STEP = 2.0  # inches between the observers of the fairness score

MAX_SIDE = 480.0  # inches: 40 feet is no longer a table
DEFAULT_TRIES = 20
MAX_TRIES = 1000  # layouts --fair draws at most (each takes a fraction of a second)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    command(
        subparsers,
        "terrain",
        run,
        (
            ("--seed", {"type": int, "help": "seed for the dice and the placement"}),
            ("--width", {"type": float, "default": 72.0, "help": 'table width in inches (72")'}),
            ("--height", {"type": float, "default": 48.0, "help": 'table depth in inches (48")'}),
            ("-o", "--output", {"metavar": "MAP", "help": "write the map (TOML) here"}),
            ("--png", {"metavar": "FILE", "help": "draw the table to this PNG"}),
            ("--sheet", {"metavar": "FILE", "help": "write the placement sheet (Markdown)"}),
            ("--rules", {"default": "dystopian-wars", "help": "rule system of the map"}),
            ("--title", {"help": "title of the map"}),
            ("--library", {"metavar": "FILE", "help": "terrain library TOML"}),
            (
                "--deployment",
                {
                    "metavar": "EDGE",
                    "choices": EDGE_NAMES,
                    "help": "keep pieces out of the deployment zones on this edge and the "
                    "opposite one; with --score and --fair the first side's zone "
                    "(default: the edge its units stand nearest)",
                },
            ),
            (
                "--score",
                {
                    "metavar": "MAP",
                    "help": "score the map's terrain for its two sides (visibility, cover, lanes, "
                    "symmetry)",
                },
            ),
            (
                "--fair",
                {
                    "action": "store_true",
                    "help": "draw --tries layouts by R002.9 and keep the fairest "
                    "(its seed remakes it)",
                },
            ),
            (
                "--tries",
                {
                    "type": int,
                    "default": DEFAULT_TRIES,
                    "help": f"layouts --fair draws (default {DEFAULT_TRIES})",
                },
            ),
            (
                "--fleets",
                {
                    "metavar": "MAP",
                    "help": "the fleets --fair scores against (default: the rule system's "
                    "built-in scenario)",
                },
            ),
            (
                "--grid",
                {
                    "type": float,
                    "default": GRID_STEP,
                    "help": f'inches between the observers of the score (default {GRID_STEP:g}")',
                },
            ),
            JSON_KEYS,
        ),
        help="randomized terrain setup by 2'x2' areas (R002.9), reproducible by seed",
        description="Roll for every 2'x2' area (each side 1D6, a 5 or 6 places a piece), "
        "place pieces from the terrain library, and write the map, a picture and a "
        "placement sheet. --score MAP scores a table's fairness for its two sides; --fair "
        "keeps the fairest of --tries tables (docs/fairness.md).",
    )


def run(args: argparse.Namespace) -> int:
    # here, not at the top: the parser of every command is built for `tactical --help`
    from tactical.geometry.zones import deployment_zone, opposite_edge
    from tactical.io import save_map
    from tactical.io.files import check_outputs
    from tactical.model import Board, GameState
    from tactical.rules import registry
    from tactical.session.terrain_setup import load_library, placement_sheet, seeded_setup
    from tactical.threat.fairness import fairest, score_markdown

    if args.score is not None:
        if args.fair:
            raise UserError("--score MAP and --fair: give one of the two")
        return run_score(args)
    for name in ("width", "height"):
        value = getattr(args, name)
        if not 0 < value <= MAX_SIDE:
            raise UserError(f"--{name} {value:g}: expected inches from more than 0 to {MAX_SIDE:g}")
    system = registry.get(args.rules)
    if args.seed is None:
        import secrets  # only for a layout without a seed

        seed = secrets.randbelow(2**31)
    else:
        seed = args.seed
    if seed < 0:
        raise UserError(f"--seed {seed}: expected a whole number >= 0")
    board = Board(args.width, args.height)
    library = load_library(args.library) if args.library else None
    avoid = ()
    if args.deployment:
        avoid = tuple(
            deployment_zone(board.width, board.height, edge)
            for edge in (args.deployment, opposite_edge(args.deployment))
        )
    score: FairnessScore | None = None
    tries: tuple[tuple[int, float], ...] = ()
    if args.fair:
        if not 1 <= args.tries <= MAX_TRIES:
            raise UserError(f"--tries {args.tries}: expected a whole number from 1 to {MAX_TRIES}")
        fleets = _fleets(args, system.id, board)
        seeds = range(seed, seed + args.tries)  # each layout its own seed, all recorded
        kept = fairest(fleets, seeds, args.deployment, step=args.grid, library=library, avoid=avoid)
        seed, setup, score, tries = kept.seed, kept.setup, kept.score, kept.tries
    else:
        setup = seeded_setup(board, seed, library, avoid)
    state = GameState(
        rules=system.id,
        board=board,
        title=args.title or f"Random terrain, seed {seed}",
        terrain=setup.terrain,
    )
    if args.png and Path(args.png).suffix.lower() != ".png":
        raise UserError(f"--png {args.png!r}: expected a .png file")
    check_outputs(args.output, args.sheet, args.png)  # every one before writing any
    written = []
    if args.output:
        save_map(state, args.output)
        written.append(args.output)
    if args.sheet:
        sheet = placement_sheet(setup)
        if score is not None:
            sheet += "\n" + score_markdown(score)
        _write_text(Path(args.sheet), sheet)
        written.append(args.sheet)
    if args.png:
        from tactical.ui.render import render_png

        render_png(state, args.png)
        written.append(args.png)
    if args.json:
        document = {**setup.as_dict(), "written": written}
        if score is not None:
            document["score"] = score.as_dict()
            document["tries"] = [{"seed": s, "fairness": round(f, 4)} for s, f in tries]
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
    else:
        text = summary(setup, written)
        if score is not None:
            text += "\n" + fair_summary(args, seed, score, len(tries))
        sys.stdout.write(text + "\n")
    return 0


def _fleets(args: argparse.Namespace, rules: str, board: Board) -> GameState:
    """The units --fair scores against: --fleets MAP's, else the rule system's scenario's,
    on this table."""
    from tactical.io import load_map
    from tactical.io.paths import builtin_map, find_map
    from tactical.model import GameState

    if args.fleets is not None:
        state = load_map(find_map(args.fleets))
        if state.rules != rules:
            raise UserError(
                f"--fleets {args.fleets}: a {state.rules} map, but the terrain is for {rules} "
                "(--rules)"
            )
    else:
        state = load_map(builtin_map(rules))
    return GameState(
        rules=state.rules,
        board=board,
        title=state.title,
        units=state.units,
        options=state.options,
    )


def fair_summary(args: argparse.Namespace, seed: int, score: FairnessScore, tries: int) -> str:
    """The kept layout's seed and score, and the command that makes it again."""
    again = ["tactical terrain", f"--seed {seed}"]
    if args.width != 72.0 or args.height != 48.0:
        again.append(f"--width {args.width:g} --height {args.height:g}")
    if args.deployment:
        again.append(f"--deployment {args.deployment}")
    if args.library:
        again.append(f"--library {args.library}")
    lines = [
        f"Fairest of {tries} layouts (of those with at least the median terrain): seed {seed}, "
        f"{score.summary()}"
    ]
    from tactical.threat.fairness import score_lines

    lines += [f"  {line}" for line in score_lines(score)]
    lines.append(f"  make it again: {' '.join(again)}")
    return "\n".join(lines)


def run_score(args: argparse.Namespace) -> int:
    """`--score MAP`: the map's terrain scored for its two sides."""
    from tactical.io import load_map
    from tactical.io.paths import find_map
    from tactical.threat.fairness import score_layout, score_lines

    path = find_map(args.score)
    state = load_map(path)
    score = score_layout(state, args.deployment, step=args.grid)
    if args.json:
        document = {"map": str(path), "rules": state.rules, "score": score.as_dict()}
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
        return 0
    lines = [f"{state.title}: {score.summary()}"]
    lines += [f"  {line}" for line in score_lines(score)]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _write_text(path: Path, text: str) -> None:
    """Atomic (temp file + rename) like the maps; UserError naming the file on failure."""
    from tactical.io.files import write_text_atomic

    write_text_atomic(path, text)


def summary(setup: TerrainSetup, written: list[str]) -> str:
    board = setup.board
    lines = [f'Terrain for a {board.width:g}" x {board.height:g}" table, seed {setup.seed}']
    for area in setup.areas:
        rolls = ", ".join(f"{side} {roll}" for side, roll in area.rolls.items())
        pieces = ", ".join(area.pieces) or "no terrain"
        extra = f" ({area.unplaced} found no room)" if area.unplaced else ""
        lines.append(f"  {area.area}: rolls {rolls} -> {pieces}{extra}")
    for piece in setup.terrain:
        x0, y0, x1, y1 = piece.geometry.bounds
        lines.append(
            f"  {piece.id}: {piece.kind}, {piece.height.value}, "
            f"x {x0:.1f}..{x1:.1f}, y {y0:.1f}..{y1:.1f}"
        )
    for path in written:
        lines.append(f"  wrote {path}")
    return "\n".join(lines)
