"""docs/maps.md and docs/saves.md against the code: the stats and options tables
are the schemas', the examples load, and the README links only to files of the repository."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from tactical.io.format_docs import BEGIN, END, documented_section, schema_section, with_section
from tactical.io.maps import loads_map
from tactical.rules import registry

ROOT = Path(__file__).resolve().parents[2]
MAPS_DOC = ROOT / "docs" / "maps.md"


def test_the_stats_and_options_tables_are_the_schemas():
    """Fails when a rule system's schema changes and docs/maps.md was not regenerated
    (`python -m tactical.io.format_docs docs/maps.md`)."""
    document = MAPS_DOC.read_text(encoding="utf-8")
    assert documented_section(document).strip() == schema_section().strip()
    assert with_section(document) == document


def test_every_stats_and_option_key_is_in_the_document():
    document = MAPS_DOC.read_text(encoding="utf-8")
    for rules_id in registry.rule_ids():
        system = registry.get(rules_id)
        for field in (*system.stats_fields, *system.option_fields):
            assert f"| `{field.name}` |" in document, (rules_id, field.name)


def test_the_schema_tables_change_when_a_schema_does(monkeypatch):
    system = registry.get("battlefleet-mars")
    before = schema_section()
    first, *rest = system.stats_fields
    widened = replace(system, stats_fields=(replace(first, doc="changed"), *rest))
    monkeypatch.setitem(registry._loaded, "battlefleet-mars", widened)
    assert schema_section() != before


def test_the_map_example_loads():
    document = MAPS_DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", document.split(BEGIN)[0], re.S)
    maps = [block for block in blocks if block.startswith("title")]
    assert maps
    for block in maps:
        assert loads_map(block, "docs/maps.md").units


def test_the_markers_are_in_order():
    document = MAPS_DOC.read_text(encoding="utf-8")
    assert document.index(BEGIN) < document.index(END)


def test_readme_links_only_to_files_in_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if re.match(r"[a-z]+://", target):
            continue
        assert (ROOT / target).exists(), target
    assert "docs/maps.md" in readme and "docs/saves.md" in readme


def test_list_defaults_read_as_toml_arrays():
    """A default the map file would write as an array reads as one, not as Python's
    tuple: an empty weapons list is `[]`."""
    text = MAPS_DOC.read_text(encoding="utf-8")
    assert "| `weapons` | array of tables |  | [] |" in text
    assert "| () |" not in text
