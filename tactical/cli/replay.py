"""`tactical replay SAVE [--step] [--json] [--view SIDE]`: a saved game's log, step by step.

The save is replayed through its rule system from the starting map (each
step's own dice; the recorded rolls are checked), then each step's log
entries are printed in order: step 0 is the start of the game. `--step`
waits for Enter between steps (end of input runs to the end).

`--view SIDE` shows the game as that side saw it (`session.views`): what the rules hid
from it (a cloaked ship's moves) reads as hidden until they revealed it, where the whole
record appears; `--view both` (the default) shows everything.

Text: the log's one-line-per-entry format (`tactical.session.log`). JSON
(stable keys): without `--step` one document

    {"rules": id, "title": str, "seed": n, "steps": [
        {"step": n, "turn": n, "phase": name, "phase_spec_id": id|null,
         "side": side to act after the step, "entries": [log entries]}]}

and with `--step` one such step object per line.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from tactical.cli.declare import JSON_OUTPUT, command

if TYPE_CHECKING:
    from tactical.session.replay import ReplayFrame


def add_parser(subparsers: Any) -> None:
    command(
        subparsers,
        "replay",
        run,
        (
            ("save", {"metavar": "SAVE", "help": "saved game (JSON)"}),
            (
                "--step",
                {
                    "action": "store_true",
                    "help": "wait for Enter between steps (EOF runs to the end)",
                },
            ),
            JSON_OUTPUT,
            (
                "--view",
                {
                    "metavar": "SIDE",
                    "default": "both",
                    "help": "show the game as one side saw it (what the rules hid from it stays "
                    "hidden until revealed), or 'both' (the default: everything)",
                },
            ),
        ),
        help="print a saved game's log step by step",
        description="Replay a saved game (JSON) and print each step's log entries.",
    )


def frame_dict(frame: ReplayFrame) -> dict[str, Any]:
    """One step of the replay as JSON-ready data (the keys of the module docstring)."""
    game = frame.game
    return {
        "step": frame.step,
        "turn": game.turn,
        "phase": game.phase_name,
        "phase_spec_id": game.phase_spec_id,
        "side": game.side_to_act,
        "entries": [_plain(entry.as_dict()) for entry in frame.entries],
    }


def run(args: argparse.Namespace) -> int:
    # here, not at the top: `tactical --help` lists this command without loading them
    from tactical.session.replay import Replay

    replay = Replay.open(args.save, None if args.view == "both" else args.view)
    frames = replay.frames()
    if args.json and not args.step:
        first = replay.frame(0).game
        document = {
            "rules": first.rules,
            "title": first.initial.title,
            "seed": first.seed,
            "steps": [frame_dict(frame) for frame in frames],
        }
        print(json.dumps(document, indent=1, ensure_ascii=False))
        return 0
    waiting = args.step
    for frame in frames:
        if frame.step > 0 and waiting:
            waiting = _wait()
        if args.json:
            print(json.dumps(frame_dict(frame), ensure_ascii=False), flush=True)
        else:
            for entry in frame.entries:
                print(entry.text())
            sys.stdout.flush()
    return 0


def _wait() -> bool:
    """Wait for Enter; False once the input has ended (the rest runs without waiting)."""
    if sys.stdin.isatty():
        print("-- Enter for the next step --", file=sys.stderr, end="", flush=True)
    return bool(sys.stdin.readline())


def _plain(value: Any) -> Any:
    from tactical.session.log import plain

    return plain(value)
