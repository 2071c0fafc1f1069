"""`tactical check` of a scenario reads how its rule system measures and nothing more: neither
the system's turn nor its combat, nor the dice, is imported (a tenth of a second or more of
start-up a person waits for), and the report is the one the loaded system gives."""

from __future__ import annotations

import subprocess
import sys

# one interpreter: the check, then which of the modules it loaded
SCRIPT = """
import contextlib, io, sys
from tactical.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(["check", {map!r}])
print(code, " ".join(sorted(m for m in sys.modules if m.startswith("tactical."))))
print(out.getvalue(), end="")
"""

# each system's package, the modules of it `check` may not load (its turn and its combat)
# and the title its report names
UNREAD = {
    "dystopian-wars": (
        "tactical.rules.dystopian_wars",
        ("play", "combat", "resolving", "odds_report", "sequence", "status"),
        "Dystopian Wars 1.1",
    ),
}


def _checked(name: str) -> tuple[int, set[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(map=name)],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    first, _, report = done.stdout.partition("\n")
    code, _, modules = first.partition(" ")
    return int(code), set(modules.split()), report


def test_check_of_a_scenario_loads_neither_the_turn_nor_the_combat_nor_the_dice():
    for rules, (package, unread, title) in UNREAD.items():
        code, modules, report = _checked(rules)
        assert code == 0, rules
        assert f"{package}.declaration" in modules  # the system was read
        loaded = {name for name in unread if f"{package}.{name}" in modules}
        assert loaded == set(), (rules, loaded)
        assert "tactical.dice" not in modules and "tactical.agents" not in modules
        assert f"{title} ({rules})" in report.splitlines()[0]
        assert len(report.splitlines()) > 3  # the pairs
