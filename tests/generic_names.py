"""Strings in a package's code (docstrings aside) that name a rule system or a SPEC id.

Shared by the checks that a layer works for any rule system (tests/ui, tests/agents):
docstrings and comments may cite what they implement, code may not name it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tactical.rules import registry

SPEC_ID = re.compile(r"\b(?:R|T|X|A|G|GEO)\d{3}\.\d+")


def docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def code_strings(folder: Path) -> list[tuple[str, int, str]]:
    """(file, line, string) for every string constant of the folder's modules but docstrings."""
    strings = []
    for path in sorted(folder.glob("*.py")):
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


def spec_ids_named(folder: Path) -> list[tuple[str, int, str]]:
    return [(f, line, s) for f, line, s in code_strings(folder) if SPEC_ID.search(s)]


def rule_systems_named(folder: Path) -> list[tuple[str, int, str]]:
    """Strings equal to a registered rule system's id or title, or holding a long one."""
    systems = [registry.get(rules_id) for rules_id in registry.rule_ids()]
    assert len(systems) >= 5
    words = {s.id.lower() for s in systems} | {s.title.lower() for s in systems}
    strings = code_strings(folder)
    named = [(f, line, s) for f, line, s in strings if s.strip().lower() in words]
    long_words = [w for w in words if len(w) > 6]
    named += [(f, line, s) for f, line, s in strings for w in long_words if w in s.lower()]
    return named
