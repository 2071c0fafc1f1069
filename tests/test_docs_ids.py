"""Every rule id the project cites is defined in docs/rules/, and every module it names exists.

Code, tests, messages and docs cite the rules by id (R002.9, A004.5, GEO003.7, G.4);
docs/rules/ is where a reader looks them up, so an id cited but defined nowhere is a
dead end.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tactical.rules import registry

ROOT = Path(__file__).resolve().parents[1]
RULES_DOCS = ROOT / "docs" / "rules"

# R/T/GEO/X/A, three digits naming the game, then the entry: 12, 2a, 15b, or E1 (the
# project's own game-end readings); G.n are the conventions shared by all five.
ID = r"(?:(?:R|T|GEO|X|A)\d{3}\.(?:\d+[a-z]?|E\d+)|G\.\d+)"
CITED = re.compile(rf"(?<![\w.])({ID})(?![\w.]*\w)")
DEFINED_ROW = re.compile(rf"^\| \*\*({ID})\*\* \| (.*) \| (.*) \|$")
MODULE = re.compile(r"`([\w/]+\.py)`")

# Where the project cites ids: its code, its tests, its docs, its scripts and benchmarks.
CITING = ("tactical", "tests", "docs", "scripts", "bench")
SUFFIXES = {".py", ".toml", ".md", ".txt", ".sh"}


def _systems() -> dict[str, tuple[str, str]]:
    """page name -> (the game's number, its package) for every registered rule system: each
    has a page named by its id, holding its own ids and naming modules within its package."""
    return {
        f"{rules_id}.md": (registry.get(rules_id).seed, registry.KNOWN[rules_id].rsplit(".", 1)[1])
        for rules_id in registry.rule_ids()
    }


def _definitions() -> dict[str, tuple[str, str, str]]:
    """id -> (page, what it says, where), from the tables of docs/rules/."""
    found: dict[str, tuple[str, str, str]] = {}
    for page in sorted(RULES_DOCS.glob("*.md")):
        for line in page.read_text(encoding="utf-8").splitlines():
            row = DEFINED_ROW.match(line)
            if row is not None:
                rule, what, where = row.groups()
                assert rule not in found, f"{rule} is defined twice: {found[rule][0]}, {page.name}"
                found[rule] = (page.name, what, where)
    return found


def _citations() -> dict[str, str]:
    """id -> the first file citing it."""
    cited: dict[str, str] = {}
    files = [ROOT / "README.md"]
    for folder in CITING:
        files += (p for p in (ROOT / folder).rglob("*") if p.suffix in SUFFIXES)
    for path in files:
        if not path.is_file() or "mutants" in path.parts:
            continue
        for rule in CITED.findall(path.read_text(encoding="utf-8", errors="replace")):
            cited.setdefault(rule, str(path.relative_to(ROOT)))
    return cited


@pytest.fixture(scope="module")
def definitions():
    return _definitions()


def test_every_cited_id_is_defined(definitions):
    cited = _citations()
    missing = {rule: where for rule, where in cited.items() if rule not in definitions}
    assert not missing, "cited but not defined in docs/rules/: " + ", ".join(
        f"{rule} ({where})" for rule, where in sorted(missing.items())
    )
    # The scan itself must see the citations: the most cited ids of each kind.
    assert {"R002.9", "A004.5", "GEO003.7", "X001.1", "T000.2", "G.5", "A000.E1"} <= set(cited)


def test_every_entry_says_what_and_where(definitions):
    # Five systems' R, T, GEO, X and A entries, the shared conventions, the game ends.
    assert len(definitions) > 550
    for rule, (page, what, where) in definitions.items():
        assert len(what.split()) >= 4, f"{rule} ({page}) says too little: {what!r}"
        assert where.strip(), f"{rule} ({page}) has no where"


def test_every_named_module_exists(definitions):
    packages = {page: package for page, (_, package) in _systems().items()}
    absent = []
    for rule, (page, _, where) in definitions.items():
        package = ROOT / "tactical" / "rules" / packages.get(page, "")
        for module in MODULE.findall(where):
            if not any((base / module).is_file() for base in (package, ROOT / "tactical", ROOT)):
                absent.append(f"{rule} ({page}): {module}")
    assert not absent, "modules named in docs/rules/ that do not exist: " + ", ".join(absent)


def test_each_system_has_its_page_and_its_ids_are_on_it(definitions):
    pages = {seed: page for page, (seed, _) in _systems().items()}
    assert len(pages) == len(registry.rule_ids()), "two rule systems share a number"
    for page in pages.values():
        assert (RULES_DOCS / page).is_file(), f"no docs/rules/{page} for a registered system"
    for rule, (page, _, _) in definitions.items():
        game = re.search(r"\d{3}", rule)
        expected = pages[game.group()] if game else "README.md"
        assert page == expected, f"{rule} is on {page}, expected {expected}"
