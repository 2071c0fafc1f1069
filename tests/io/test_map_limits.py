"""Map errors point at the right place and every number has a limit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tactical.cli import main
from tactical.io import MapError, loads_map
from tactical.io.paths import builtin_map

BAD = Path(__file__).parent.parent / "data" / "bad"

TABLE = """rules = "battlefleet-mars"
[board]
width = 48
height = {height}
area = {area}
"""

UNIT = """
[[unit]]
id = "u"
side = "A"
x = 10
y = {y}
base = {{ shape = "circle", diameter = 1 }}
"""


def _error(text: str) -> MapError:
    with pytest.raises(MapError) as caught:
        loads_map(text, "m.toml")
    return caught.value


def test_every_value_of_a_map_with_weapon_blocks_is_reported_on_its_own_line():
    """Each value line of the SW D6 scenario ([[unit.stats.weapons]] in four units) set to
    an impossible number is reported on that very line (it named a weapon block of another
    unit: line 90 for 139)."""
    lines = builtin_map("sw-d6-capital").read_text().splitlines()
    checked = 0
    for index, raw in enumerate(lines):
        found = re.match(r"^(\s*[A-Za-z0-9_\-]+\s*=\s*)(.*)$", raw)
        if not found or found.group(2).startswith(("[", "{")):
            continue
        text = "\n".join([*lines[:index], found.group(1) + "-1e9", *lines[index + 1 :]])
        try:
            loads_map(text, "m.toml")
        except MapError as error:
            assert error.line == index + 1, (index + 1, str(error))
            checked += 1
    assert checked > 100


def test_a_unit_off_the_table_in_y_is_named_by_y():
    """It was reported as unit[0].x."""
    text = (BAD / "unit-off-table.toml").read_text().replace("x = 100", "x = 10")
    error = _error(text.replace("y = 10", "y = 60"))
    assert error.key == "unit[0].y" and error.line == 11
    assert _error(text.replace("x = 10", "x = -3")).key == "unit[0].x"


def test_a_toml_error_at_the_end_of_the_document_has_its_line():
    error = _error('rules = "heavy-combat"\n[board]\nwidth = 3\nheight = [1,\n')
    assert error.line == 4 and "end of document" not in str(error)


@pytest.mark.parametrize(
    ("height", "area", "key", "words"),
    [
        ("1000000", "24", "board.height", 'from 1" to 480"'),
        ("36", "0.001", "board.area", "at least 1"),
        ("36", "0.5", "board.area", "at least 1"),
        ("nan", "24", "board.height", "finite"),
        ("inf", "24", "board.height", "finite"),
        ("1e308", "24", "board.height", 'to 480"'),
    ],
)
def test_board_sizes_have_limits_a_real_table_never_reaches(height, area, key, words):
    error = _error(TABLE.format(height=height, area=area))
    assert error.key == key and words in str(error)


@pytest.mark.parametrize("value", ["1e308", "-1e308", "nan", "inf", "20000"])
def test_every_number_has_a_limit_and_no_library_warning_reaches_stderr(tmp_path, capfd, value):
    """A base of 1e308 printed shapely RuntimeWarnings before the message: one line only."""
    text = TABLE.format(height=36, area=24) + UNIT.format(y=10).replace(
        "diameter = 1", f"diameter = {value}"
    )
    path = tmp_path / "m.toml"
    path.write_text(text)
    assert main(["check", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "unit[0].base.diameter" in err


def test_a_huge_circle_is_one_message_without_warnings(tmp_path, capfd):
    path = tmp_path / "m.toml"
    path.write_text(
        TABLE.format(height=36, area=24)
        + '[[terrain]]\nid = "r"\nkind = "soft"\nheight = "small"\n'
        + "circle = { x = 10, y = 10, radius = 9999 }\n"
    )
    assert main(["check", str(path)]) == 2
    assert capfd.readouterr().err.count("\n") == 1


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 500 + "]" * 500 + "\n",
        "a = " + "{b=" * 300 + "1" + "}" * 300 + "\n",
    ],
)
def test_deeply_nested_toml_is_a_clear_message_not_a_recursion_error(tmp_path, capfd, text):
    path = tmp_path / "deep.toml"
    path.write_text(text)
    assert main(["check", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "nested no more than 32 levels" in err


def test_an_error_in_an_inline_array_element_names_that_elements_line():
    """Cortex writes weapons = [ {...}, {...} ] over several lines: each element's line."""
    lines = builtin_map("cortex-space").read_text().splitlines()
    checked = 0
    for index, raw in enumerate(lines):
        element = raw.lstrip().startswith("{") or "weapons = [{" in raw
        if not (element and re.search(r'damage = "[^"]*"', raw)):
            continue
        bad = re.sub(r'damage = "[^"]*"', 'damage = "banana"', raw, count=1)
        text = "\n".join([*lines[:index], bad, *lines[index + 1 :]])
        error = _error(text)
        assert error.line == index + 1 and "damage" in error.key, (index + 1, str(error))
        checked += 1
    assert checked >= 8


def test_an_option_inside_an_array_names_its_line():
    """options.structures[0].population was reported on the [options] header (line 12)."""
    text = builtin_map("cortex-space").read_text()
    text = text.replace("population = 2000000", "population = -5")
    error = _error(text)
    assert error.key == "options.structures[0].population"
    assert "population = -5" in text.splitlines()[error.line - 1]
