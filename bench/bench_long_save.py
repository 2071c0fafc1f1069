"""Long saves: opening, autosaving and replaying a game in time and memory linear in its
length. The save is the one the problem was found with, made longer: one unit of
maps/battlefleet-mars.toml moved by hand (`adjust` move) 100,000 times, to and fro.

| row | budget |
|---|---|
| open a 100,000-step save (read, check, replay every step), child process | <= 10 s, 500 MB |
| one autosave of that game (the whole save written again, atomically) | measured |
| `tactical replay` of a 16,000-step save, to /dev/null | measured |

Before (a game held a tuple of every earlier step, so the steps held were the square of the
length, and a history a game per step): the 16,000-step save took 6.6 s and 1.33 GB to open,
the 8,000-step one 2.0 s and 384 MB; 100,000 steps would need about 40 GB.

Run: .venv/bin/python -m pytest bench/bench_long_save.py -p no:cacheprovider -s
The time budget is on the child's CPU seconds (user + system): the machine is shared, and
wall time waits for a core; both are printed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import BUDGETS, FIGURES, is_quick, quick

from tactical.io import builtin_map, load_map
from tactical.io.saves import SavedAction, SavedGame, write_save
from tactical.model import FrozenMap

PYTHON = sys.executable
LONG = quick(100_000, 4_000)
MEDIUM = quick(16_000, 1_000)
OPEN_BUDGET = 10.0
OPEN_MEMORY = 500 * 2**20

OPEN = """
import sys
from tactical.session.saving import load_game
history = load_game(sys.argv[1])
assert history.length == int(sys.argv[2]), history.length
"""

AUTOSAVE = """
import sys, time
from tactical.session.saving import load_game, save_game
history = load_game(sys.argv[1])
started = time.perf_counter()
save_game(history, sys.argv[1] + ".again.json")
print(time.perf_counter() - started)
"""


def adjust_moves(count: int) -> SavedGame:
    """`count` hand moves of the map's first unit, to and fro along x."""
    state = load_map(builtin_map("battlefleet-mars"))
    unit = state.units[0]
    moves = tuple(
        SavedAction(
            "adjust",
            unit.id,
            FrozenMap(op="move", x=unit.pose.x + 0.01 * (k % 50), y=unit.pose.y, heading=0.0),
        )
        for k in range(count)
    )
    return SavedGame(state, 1, moves, count)


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("long-saves")
    paths = {}
    for count in (MEDIUM, LONG):
        paths[count] = folder / f"adjust-{count}.json"
        write_save(adjust_moves(count), paths[count])
    return paths


def _measured(args: list[str]) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds and peak resident bytes of one child process, and what it
    printed."""
    started = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = child.stdout.read().decode()
    _, status, usage = os.wait4(child.pid, 0)
    errors = child.stderr.read().decode()
    child.stdout.close()
    child.stderr.close()
    assert os.waitstatus_to_exitcode(status) == 0, errors
    wall = time.perf_counter() - started
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, out


def test_open_a_100000_step_save(saves):
    wall, cpu, peak, _ = _measured([PYTHON, "-c", OPEN, str(saves[LONG]), str(LONG)])
    print(f"\nopen {LONG:,} steps: {wall:.2f} s wall, {cpu:.2f} s CPU, {peak / 2**20:.0f} MB")
    FIGURES[f"open {LONG:,}-step save (CPU s)"] = cpu
    BUDGETS[f"open {LONG:,}-step save (CPU s)"] = OPEN_BUDGET
    assert is_quick() or (cpu <= OPEN_BUDGET and peak <= OPEN_MEMORY)


def test_open_is_linear(saves):
    """16,000 steps and 100,000: the time per step stays within a factor of 2."""
    short = _measured([PYTHON, "-c", OPEN, str(saves[MEDIUM]), str(MEDIUM)])
    long = _measured([PYTHON, "-c", OPEN, str(saves[LONG]), str(LONG)])
    print(f"\nopen {MEDIUM:,}: {short[1]:.2f} s CPU, {short[2] / 2**20:.0f} MB; "
          f"{LONG:,}: {long[1]:.2f} s CPU, {long[2] / 2**20:.0f} MB")  # fmt: skip
    assert long[1] / LONG <= 2 * short[1] / MEDIUM


def test_one_autosave_of_a_100000_step_game(saves):
    _, _, _, out = _measured([PYTHON, "-c", AUTOSAVE, str(saves[LONG])])
    seconds = float(out.strip())
    print(f"\nautosave of {LONG:,} steps: {seconds:.2f} s")
    FIGURES[f"autosave {LONG:,}-step game (s)"] = seconds


def test_replay_a_16000_step_save(saves):
    wall, cpu, peak, _ = _measured([PYTHON, "-m", "tactical", "replay", str(saves[MEDIUM])])
    print(f"\nreplay {MEDIUM:,} steps: {wall:.2f} s wall, {cpu:.2f} s CPU, {peak / 2**20:.0f} MB")
    FIGURES[f"replay {MEDIUM:,}-step save (CPU s)"] = cpu
