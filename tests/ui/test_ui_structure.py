"""The house around it: the ui's modules are of one size and import one way.

No module of tactical/ui is over about 800 lines, no two of them import each
other (directly or round a longer loop), and no mode imports the `App` that
holds it: modes reach the window through `tactical.ui.services.Services`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tactical.ui

UI = Path(tactical.ui.__file__).parent
MAX_LINES = 800


def ui_imports() -> dict[str, set[str]]:
    """Each ui module's imports of other ui modules, type-checking imports included."""
    graph: dict[str, set[str]] = {}
    for path in sorted(UI.glob("*.py")):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("tactical.ui."):
                    found.add(node.module.split(".")[2])
                elif node.module == "tactical.ui":
                    found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("tactical.ui."):
                        found.add(alias.name.split(".")[2])
        graph[name] = found - {name}
    return graph


def test_no_ui_module_is_over_800_lines():
    long = {
        path.name: n
        for path in UI.glob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def find_cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """Every import loop, each once (from its smallest module name)."""
    cycles: list[tuple[str, ...]] = []

    def visit(node: str, trail: tuple[str, ...]) -> None:
        for nxt in graph.get(node, ()):
            if nxt == trail[0]:
                cycles.append((*trail, nxt))
            elif nxt not in trail and nxt > trail[0]:
                visit(nxt, (*trail, nxt))

    for start in graph:
        visit(start, (start,))
    return cycles


def test_no_import_cycle_among_ui_modules():
    assert find_cycles(ui_imports()) == []


def test_only_the_app_imports_the_app_and_modes_do_not_import_each_other():
    graph = ui_imports()
    assert {name for name, imports in graph.items() if "app" in imports} == set()
    assert "setup_mode" not in graph["play_mode"]
    assert "play_mode" not in graph["setup_mode"]


def test_the_cycle_check_sees_loops():
    """The checker itself finds a loop of two and one of three (the test above can fail)."""
    assert find_cycles({"a": {"b"}, "b": {"a"}}) == [("a", "b", "a")]
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [("a", "b", "c", "a")]
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_free_file_name_is_defined_once_and_skips_names_taken(tmp_path, monkeypatch):
    """One `free_name` for every file the screen writes without asking (log, view, card):
    no ui module defines its own copy, and the name it gives is the first one not taken."""
    from tactical.ui import files

    defined = sorted(
        path.stem
        for path in UI.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name.lstrip("_") == "free_name"
    )
    assert defined == ["files"]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tactical-log-1.txt").write_text("taken", encoding="utf-8")
    assert files.free_name("tactical-log", ".txt") == tmp_path / "tactical-log-2.txt"
