"""Sizes a reader can hold in mind: no module in `tactical/` over 800 lines, no class over 30
methods.

A module past 800 lines or a class past 30 methods is split along a seam that can be named
(parts that own their own state, composed as objects). Exempt: value types (frozen
dataclasses and NamedTuples), whose methods are views of one value, and the rule-system
protocol, whose methods are the hooks every rule system may declare. Read with `ast` only:
nothing is imported, so this is quick. (No import cycle: tests/test_import_cycles.py.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tactical"
MAX_LINES = 800
MAX_METHODS = 30
PROTOCOL = ("tactical/rules/protocol.py", "RuleSystem")


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def _name(node: ast.expr) -> str:
    """`dataclass`, `dataclasses.dataclass`, `NamedTuple`, `typing.NamedTuple` -> the last name."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def is_value_type(node: ast.ClassDef) -> bool:
    """A frozen dataclass or a NamedTuple: an immutable value."""
    if any(_name(base) == "NamedTuple" for base in node.bases):
        return True
    for decorator in node.decorator_list:
        if _name(decorator) != "dataclass" or not isinstance(decorator, ast.Call):
            continue
        for keyword in decorator.keywords:
            if keyword.arg == "frozen" and isinstance(keyword.value, ast.Constant):
                return bool(keyword.value.value)
    return False


def method_count(node: ast.ClassDef) -> int:
    """The functions defined in the class's own body (properties and static ones too)."""
    return sum(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in node.body)


def classes(tree: ast.Module) -> Iterator[ast.ClassDef]:
    return (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef))


def big_classes(source: str, path: str) -> list[str]:
    """'path Class: n methods' for each class over MAX_METHODS that is neither a value type
    nor the rule-system protocol."""
    found = []
    for node in classes(ast.parse(source)):
        count = method_count(node)
        exempt = is_value_type(node) or (path, node.name) == PROTOCOL
        if count > MAX_METHODS and not exempt:
            found.append(f"{path} {node.name}: {count} methods")
    return found


def test_the_count_sees_methods_and_exempts_only_value_types():
    methods = "".join(f"    def m{i}(self): ...\n" for i in range(MAX_METHODS + 1))
    plain = f"class Big:\n{methods}"
    frozen = f"@dataclass(frozen=True)\nclass Value:\n{methods}"
    thawed = f"@dataclasses.dataclass(frozen=False)\nclass Mutable:\n{methods}"
    named = f"class Row(typing.NamedTuple):\n{methods}"
    nested = "def f():\n    class Inner:\n" + "".join(
        f"        def m{i}(self): ...\n" for i in range(MAX_METHODS + 1)
    )
    assert big_classes(plain, "x.py") == [f"x.py Big: {MAX_METHODS + 1} methods"]
    assert big_classes(frozen, "x.py") == []
    assert big_classes(named, "x.py") == []
    assert big_classes(thawed, "x.py") == [f"x.py Mutable: {MAX_METHODS + 1} methods"]
    assert big_classes(nested, "x.py") == [f"x.py Inner: {MAX_METHODS + 1} methods"]
    assert big_classes(plain.replace("Big", "RuleSystem"), PROTOCOL[0]) == []
    assert big_classes(plain, PROTOCOL[0]) != []
    at_most = "class Small:\n" + "".join(f"    def m{i}(self): ...\n" for i in range(MAX_METHODS))
    assert big_classes(at_most, "x.py") == []


def test_the_protocol_is_where_the_exemption_says():
    source = (PACKAGE.parent / PROTOCOL[0]).read_text(encoding="utf-8")
    assert PROTOCOL[1] in {node.name for node in classes(ast.parse(source))}


def test_no_module_in_tactical_is_over_800_lines():
    assert modules(), "no modules found"
    long = [
        f"{relative(path)}: {lines} lines"
        for path in modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert not long, "split these along a seam that can be named:\n" + "\n".join(long)


def test_no_class_in_tactical_has_over_30_methods():
    sources = ((path, path.read_text(encoding="utf-8")) for path in modules())
    big = [
        line
        for path, source in sources
        if source.count("def ") > MAX_METHODS  # fewer: no class there can be too big (quick)
        for line in big_classes(source, relative(path))
    ]
    assert not big, f"classes over {MAX_METHODS} methods (split into parts):\n" + "\n".join(big)
