"""A replayed save, step by step, as a list of digests: what the test of saves made before
a rules revision compares (the units' poses and tables, and the side to act, after each
step). Written once by the code the saves were made with; the test recomputes it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tactical.io.maps import unit_table
from tactical.session.replay import Replay


def replay_digests(path: str | Path) -> list[str]:
    """One digest per frame of the save's replay (frame 0 is the start)."""
    digests = []
    for frame in Replay.open(path).frames():
        state = frame.state
        units = sorted(
            (unit.id, json.dumps(unit_table(unit), sort_keys=True, default=str))
            for unit in state.units
        )
        text = json.dumps([frame.game.side_to_act, units], sort_keys=True)
        digests.append(hashlib.sha256(text.encode()).hexdigest()[:16])
    return digests


if __name__ == "__main__":  # python tests/replay_digest.py SAVE...: print the digests
    import sys

    for name in sys.argv[1:]:
        print(json.dumps({"save": Path(name).name, "digests": replay_digests(name)}))
