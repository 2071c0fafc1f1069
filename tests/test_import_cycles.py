"""No import cycle inside `tactical/` beyond the known ones listed here.

A cycle makes the order modules load in matter and hides which part builds on which (a rule
system's modules importing their package, which imports them back, was one). grimp reads
every import statement, those inside functions and under `TYPE_CHECKING` too, so a cycle
cannot hide behind an import moved into a function.
"""

from __future__ import annotations

from itertools import pairwise

import grimp
import pytest

PACKAGE = "tactical"

# The one cycle left: the session's game, its step tables (they replay steps to rebuild a
# table) and the check after an adjustment by hand (it asks a game what it offers) need one
# another. Listed so that no other cycle can appear and this one cannot grow.
KNOWN = {
    frozenset({"tactical.session.game", "tactical.session.going_on", "tactical.session.steps"}),
}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(PACKAGE, cache_dir=None)


def strongly_connected(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def import_graph(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    imports = graph.find_modules_directly_imported_by
    return {module: set(imports(module)) for module in graph.modules}


def one_cycle(graph: grimp.ImportGraph, component: frozenset[str]) -> str:
    """One cycle through `component`, each import with its line: "a:12 -> b:30 -> a"."""
    start = min(component)
    following = min(m for m in graph.find_modules_directly_imported_by(start) if m in component)
    chain = (start, *graph.find_shortest_chain(importer=following, imported=start))
    steps = []
    for importer, imported in pairwise(chain):
        details = graph.get_import_details(importer=importer, imported=imported)
        line = details[0]["line_number"] if details else "?"
        steps.append(f"{importer}:{line}")
    return " -> ".join([*steps, start])


def test_strongly_connected_finds_cycles_and_only_cycles():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert strongly_connected(edges) == [frozenset({"a", "b", "c"})]


def test_no_import_cycle_inside_tactical_but_the_known_ones(graph):
    found = set(strongly_connected(import_graph(graph)))
    new = sorted(found - KNOWN, key=min)
    assert not new, "import cycles in tactical/:\n" + "\n".join(
        f"{len(c)} modules: {one_cycle(graph, c)}\n  ({', '.join(sorted(c))})" for c in new
    )
    left = sorted(map(sorted, found))
    assert found == KNOWN, f"a known cycle is gone or changed: list only these in KNOWN: {left}"


def test_no_rule_system_module_imports_its_package(graph):
    """The rule system object is assembled last (its `system` module, or the package itself):
    none of the package's modules imports the package."""
    offenders = []
    for package in sorted(graph.find_children("tactical.rules")):
        for module in sorted(graph.find_descendants(package)):
            if graph.direct_import_exists(importer=module, imported=package):
                offenders.append(f"{module} imports {package}")
    assert not offenders, "\n".join(offenders)
