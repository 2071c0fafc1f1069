"""`tactical check` of a scenario reads how its rule system measures and nothing more: neither
the system's turn nor its combat is imported (a tenth of a second or more of start-up a
person waits for), nor the dice where the system's measures need none, and the report is
the one the whole system gives."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

# One interpreter checks each scenario in turn and reports, after each, the modules it has
# loaded so far (rule systems never import each other: each package's count is its own).
SCRIPT = """
import contextlib, io, sys
from tactical.cli import main
for name in {maps!r}:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", name])
    first = out.getvalue().splitlines()[0]
    modules = (
        m for m in sys.modules
        if m.startswith("tactical.") or m in ("importlib.resources", "numpy.random")
    )
    print(code, "|", first, "|", " ".join(modules))
"""

# each built-in scenario, by its system: the system's package, the modules of it `check`
# may not load (its turn and its combat), the title its report names, whether its
# measures read no dice (the first ones checked: a module stays loaded)
SYSTEMS = {
    "battlefleet-mars": (
        "battlefleet_mars",
        ("play", "combat", "status", "by_hand", "logistics"),
        "Battlefleet Mars: Tactical Game Changes",
        True,
    ),
    "dystopian-wars": (
        "dystopian_wars",
        ("play", "combat", "resolving", "odds_report", "sequence", "status", "by_hand"),
        "Dystopian Wars 1.1",
        True,
    ),
    "heavy-combat": (
        "heavy_combat",
        ("turn", "attacks", "status", "by_hand", "result", "declarations", "combat"),
        "Revised Rules for Heavy Combat",
        False,
    ),
    "cortex-space": (
        "cortex_space",
        ("choices", "combat", "play", "odds", "status", "by_hand"),
        "Cortex / Battlestar Galactica space rules",
        False,
    ),
    "sw-d6-capital": (
        "sw_d6_capital",
        ("play", "combat", "status", "by_hand", "maneuver"),
        "Star Wars D6 Capital Ship Combat",
        False,
    ),
}


def test_check_of_each_scenario_loads_neither_the_turn_nor_the_combat():
    # the first map given as a file: no package data looked up (importlib.resources)
    first = str(Path(__file__).parents[2] / "maps" / "battlefleet-mars.toml")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(maps=[first, *list(SYSTEMS)[1:]])],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stdout.strip().splitlines()
    assert len(lines) == len(SYSTEMS)
    for line, (rules, expected) in zip(lines, SYSTEMS.items(), strict=True):
        package, unread, title, no_dice = expected
        code, first, modules = (part.strip() for part in line.split("|"))
        loaded = set(modules.split())
        assert code == "0", rules
        assert f"{title} ({rules})" in first  # the system was read
        assert f"tactical.rules.{package}" in loaded
        found = {name for name in unread if f"tactical.rules.{package}.{name}" in loaded}
        assert found == set(), (rules, found)
        assert "tactical.agents" not in loaded
        # (23 modules and about 10 ms: nothing in a check draws random numbers)
        assert "numpy.random" not in loaded, rules
        if no_dice:
            assert "tactical.dice" not in loaded, rules
        if rules == "battlefleet-mars":
            assert "importlib.resources" not in loaded


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt")
def test_the_allocator_is_tuned_without_a_child_process(monkeypatch):
    """`tune_allocator` finds the C library by glibc's name: `find_library` would run
    `ldconfig -p` in a child process at every start-up."""
    import ctypes.util

    from tactical.geometry import measure

    def refused(name):
        raise AssertionError(f"find_library({name!r}) runs a child process")

    monkeypatch.setattr(ctypes.util, "find_library", refused)
    assert callable(measure._libc().mallopt)
    assert measure.tune_allocator() is True
