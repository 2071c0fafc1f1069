"""Loading a map scans its lines for key positions only when a message needs one: a map
that loads (nearly every map) skips that scan of every line, a good part of loading a
table of 1,000 ships."""

from __future__ import annotations

import pytest

from tactical.io import MapError, loads_map
from tactical.io.maps import read_toml_document
from tactical.io.paths import default_map_path


def test_a_map_that_loads_never_scans_its_lines():
    text = default_map_path().read_text()
    document, reader = read_toml_document(text, "default.toml")
    assert loads_map(text, "default.toml").units  # the same text loads
    assert document["unit"]
    assert "_scan" not in vars(reader.lines) and "lines" not in vars(reader.lines)


def test_a_bad_value_still_names_its_line_after_the_scan_was_put_off():
    lines = default_map_path().read_text().splitlines()
    second = [k for k, line in enumerate(lines) if line.startswith("x = ")][1]
    lines[second] = 'x = "far"'
    with pytest.raises(MapError) as raised:
        loads_map("\n".join(lines) + "\n", "default.toml")
    assert raised.value.line == second + 1
    assert "unit[1].x" in str(raised.value)
