"""Command-line budgets: a short command (`--help`, `terrain --help`, `roll`, `odds`, `check`
of a scenario) <= 0.25 s from process start to exit, and `tactical check` of the default
map <= 0.5 s.

Measured as whole processes, the way a person runs them: the wall time on the parent's
clock from start to exit, and the child's own CPU time (user + system, from wait4), against
the bare interpreter start-up and the import of numpy and shapely (what any command that
reads a map needs) in the same run. The budgets are held on CPU time, which a loaded
machine does not inflate the way it inflates wall time; the wall times are reported.
Each command runs with its modules' bytecode written (a scratch PYTHONPYCACHEPREFIX), as
an installed program starts: this machine sets PYTHONDONTWRITEBYTECODE. The check command
must not import pygame at all.

Run: .venv/bin/python -m pytest bench/bench_cli.py -p no:cacheprovider -s
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import BUDGETS, FIGURES, RATIOS, is_quick, quick

from tactical.io.paths import default_map_path

PYTHON = sys.executable
START_BUDGET = 0.25  # seconds, a short command from start to exit
CHECK_BUDGET = 0.5  # seconds, `check --json` of the default map

SHORT = {
    "tactical --help": ["--help"],
    "tactical terrain --help": ["terrain", "--help"],
    "tactical roll 2d6": ["roll", "2d6", "--seed", "1"],
    "tactical odds (Heavy Combat scenario)": [
        "odds", "heavy-combat", "enterprise", "phasers", "kronos",
    ],
    "tactical check (Heavy Combat scenario)": ["check", "heavy-combat"],
}  # fmt: skip
BASELINES = {
    "bare interpreter": ["-c", "pass"],
    "import numpy, shapely": ["-c", "import numpy, shapely"],
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, str]:
    """The environment of an installed program: bytecode written once, then read."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp_path_factory.mktemp("pycache")))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for args in (*SHORT.values(), ["check", str(default_map_path()), "--json"]):
        _launch(["-m", "tactical", *args], env)  # writes the bytecode
    return env


def _launch(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds (the parent's clock, start to exit) and CPU seconds of the child."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [PYTHON, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    errors = child.stderr.read().decode()
    child.stderr.close()
    assert os.waitstatus_to_exitcode(status) == 0, errors
    return wall, usage.ru_utime + usage.ru_stime


def _measure(name: str, args: list[str], env: dict[str, str], budget: float | None = None):
    runs = [_launch(args, env) for _ in range(quick(7, 1))]
    wall = float(np.median([w for w, _ in runs]))
    cpu = float(np.median([c for _, c in runs]))
    FIGURES[f"{name} (wall)"] = wall
    FIGURES[f"{name} (CPU)"] = cpu
    if budget is not None:
        BUDGETS[f"{name} (CPU)"] = budget
    print(f"\n{name}: wall {wall * 1e3:.0f} ms (min {min(w for w, _ in runs) * 1e3:.0f}), "
          f"CPU {cpu * 1e3:.0f} ms, load {os.getloadavg()[0]:.1f}")  # fmt: skip
    return wall, cpu


@pytest.mark.benchmark
@pytest.mark.parametrize("name", list(SHORT))
def test_short_command_start_to_exit(name, compiled):
    _, cpu = _measure(name, ["-m", "tactical", *SHORT[name]], compiled, START_BUDGET)
    RATIOS.append((f"{name} vs bare interpreter", f"{name} (wall)", "bare interpreter (wall)", 1))
    assert is_quick() or cpu <= START_BUDGET


@pytest.mark.benchmark
def test_check_default_map_json(compiled):
    args = ["-m", "tactical", "check", str(default_map_path()), "--json"]
    _, cpu = _measure("tactical check --json (default map)", args, compiled, CHECK_BUDGET)
    assert is_quick() or cpu <= CHECK_BUDGET


@pytest.mark.benchmark
@pytest.mark.parametrize("name", list(BASELINES))
def test_baseline_start(name, compiled):
    _measure(name, BASELINES[name], compiled)


def test_check_does_not_import_pygame():
    code = (
        "import sys; from tactical.cli import main; "
        f"main(['check', {str(default_map_path())!r}, '--json']); "
        "assert 'pygame' not in sys.modules, sorted(m for m in sys.modules if 'pygame' in m)"
    )
    subprocess.run([PYTHON, "-c", code], check=True, capture_output=True)


def test_roll_loads_no_map_reader():
    """A command that reads no map (`roll`) loads neither numpy nor the rules."""
    for args in (["roll", "2d6", "--seed", "1"],):
        code = (
            "import sys\nfrom tactical.cli import main\n"
            f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\n"  # --help exits
            "print(sorted(m for m in ('numpy', 'shapely', 'tactical.rules', 'tactical.model')"
            " if m in sys.modules))"
        )
        done = subprocess.run([PYTHON, "-c", code], check=True, capture_output=True, text=True)
        assert done.stdout.strip().splitlines()[-1] == "[]", (args, done.stdout[-300:])
