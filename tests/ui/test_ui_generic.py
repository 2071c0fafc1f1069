"""Issue 6: "nothing in ui/ names a particular rule system".

The play screen must work for a rule system registered later without a change:
so no string in tactical/ui (docstrings and comments aside, which cite what
they draw) may be a SPEC id, a registered rule system's id or its title.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tactical.ui
from tactical.rules import registry

UI = Path(tactical.ui.__file__).parent
SPEC_ID = re.compile(r"\b(?:R|T|X|A|G|GEO)\d{3}\.\d+")


def docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def ui_strings() -> list[tuple[str, int, str]]:
    strings = []
    for path in sorted(UI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = docstring_nodes(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
            ):
                strings.append((path.name, node.lineno, node.value))
    return strings


def test_no_spec_id_in_ui_code():
    named = [(f, line, s) for f, line, s in ui_strings() if SPEC_ID.search(s)]
    assert named == []


def test_no_rule_system_named_in_ui_code():
    systems = [registry.get(rules_id) for rules_id in registry.rule_ids()]
    assert len(systems) >= 5
    words = {s.id.lower() for s in systems} | {s.title.lower() for s in systems}
    named = [(f, line, s) for f, line, s in ui_strings() if s.strip().lower() in words]
    named += [
        (f, line, s) for f, line, s in ui_strings() for w in words if len(w) > 6 and w in s.lower()
    ]
    assert named == []


def test_the_check_can_fail():
    assert SPEC_ID.search("refused (R002.30)")
    tree = ast.parse('"""doc R002.1"""\nx = "R000.4"\n')
    docs = docstring_nodes(tree)
    values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in docs]
    assert values == ["R000.4"]
