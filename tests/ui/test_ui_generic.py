"""Nothing in ui/ names a particular rule system.

The play screen must work for a rule system registered later without a change:
so no string in tactical/ui (docstrings and comments aside, which cite what
they draw) may be a SPEC id, a registered rule system's id or its title.
"""

from __future__ import annotations

import ast
from pathlib import Path

from generic_names import SPEC_ID, docstring_nodes, rule_systems_named, spec_ids_named

import tactical.ui

UI = Path(tactical.ui.__file__).parent


def test_no_spec_id_in_ui_code():
    assert spec_ids_named(UI) == []


def test_no_rule_system_named_in_ui_code():
    assert rule_systems_named(UI) == []


def test_the_check_can_fail():
    assert SPEC_ID.search("refused (R002.30)")
    tree = ast.parse('"""doc R002.1"""\nx = "R000.4"\n')
    docs = docstring_nodes(tree)
    values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in docs]
    assert values == ["R000.4"]
