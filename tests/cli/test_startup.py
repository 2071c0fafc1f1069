"""A short command loads only what it needs: `tactical --help` and every command's help list
the commands without numpy, shapely or pygame, `roll` rolls without them (or the rules),
and `check` / `odds` of a scenario read a map without pygame (each a tenth of a second or
more of start-up a person waits for)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("numpy", "shapely", "pygame", "tactical.rules", "tactical.io.maps")

# One interpreter runs the commands from the leanest up and reports, after each, which of
# HEAVY it has loaded so far (a module stays loaded: the order makes each report count).
SCRIPT = """
import contextlib, io, sys
from tactical.cli import main
heavy = {heavy!r}
for argv in {commands!r}:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as done:  # --help exits
            code = done.code
    print(" ".join(argv), "|", code, "|", ",".join(m for m in heavy if m in sys.modules))
"""

LEAN = (
    ["--help"],
    ["terrain", "--help"],
    ["check", "--help"],
    ["odds", "--help"],
    ["roll", "--help"],
    ["roll", "2d6", "--seed", "1"],
)
MAP_READERS = (
    ["check", "heavy-combat"],
    ["odds", "heavy-combat", "enterprise", "phasers", "kronos"],
)


def _loaded(commands) -> dict[str, tuple[int, set[str]]]:
    code = SCRIPT.format(heavy=HEAVY, commands=[list(c) for c in commands])
    done = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=60
    )
    found = {}
    for line in done.stdout.strip().splitlines():
        argv, status, modules = (part.strip() for part in line.split("|"))
        found[argv] = (int(status), set(filter(None, modules.split(","))))
    return found


def test_help_and_roll_load_no_numpy_shapely_pygame_or_rules_and_maps_load_no_pygame():
    found = _loaded((*LEAN, *MAP_READERS))
    for argv in LEAN:
        status, modules = found[" ".join(argv)]
        assert status == 0, argv
        assert modules == set(), (argv, modules)
    for argv in MAP_READERS:
        status, modules = found[" ".join(argv)]
        assert status == 0, argv
        assert "pygame" not in modules and {"numpy", "tactical.rules"} <= modules, (argv, modules)


def test_terrain_parser_values_are_the_libraries():
    """The terrain command names the table edges and the score's grid step without importing
    the zones or the fairness score: the same values as theirs."""
    from tactical.cli import terrain
    from tactical.geometry.zones import EDGE_NAMES
    from tactical.threat.fairness import GRID_STEP

    assert terrain.EDGE_NAMES == EDGE_NAMES
    assert terrain.GRID_STEP == GRID_STEP
