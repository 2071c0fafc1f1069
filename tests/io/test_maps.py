"""Map files: loading, validation messages, atomic saving, exact round trips (docs/maps.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.io import MapError, dumps_map, load_map, loads_map, save_map
from tactical.io.paths import default_map_path, maps_dir
from tactical.model import CircleBase, GameState, Pose, RectBase, SizeClass, Unit

BAD = Path(__file__).parent.parent / "data" / "bad"

# file -> (line or None, the key named, words the expectation must contain)
BAD_MAPS = {
    "empty.toml": (None, None, "empty"),
    "missing-rules.toml": (None, "rules", "required"),
    "unknown-rules.toml": (1, "rules", "known rule system id"),
    "missing-board.toml": (None, "board", "required"),
    "board-width-string.toml": (3, "board.width", "finite number"),
    "board-negative.toml": (4, "board.height", "greater than 0"),
    "unknown-key-board.toml": (7, "board.colour", "known key"),
    "unknown-top-key.toml": (2, "victory", "known key"),
    "self-intersecting.toml": (11, "terrain[0].polygon", "self-intersection at (5, 5)"),
    "terrain-bad-kind.toml": (9, "terrain[0].kind", "'soft', 'dense', 'obstructing'"),
    "terrain-two-shapes.toml": (7, "terrain[0]", "exactly one of 'polygon' or 'circle'"),
    "terrain-bad-height.toml": (10, "terrain[0].height", "'tiny'"),
    "unit-off-table.toml": (10, "unit[0].x", "whole base on the 72x48 table"),
    "duplicate-ids.toml": (15, "unit[1].id", "unique id"),
    "unit-missing-x.toml": (7, "unit[0].x", "required"),
    "unit-bad-base.toml": (12, "unit[0].base.shape", "'rect', 'circle'"),
    "stat-out-of-bounds.toml": (15, "unit[0].stats.move", "from 0 to 60"),
    "unknown-stat.toml": (15, "unit[0].stats.speed", "known key"),
    "bad-option.toml": (8, "options.range_band_inches", "from 1 to 48"),
    "broken-toml.toml": (2, None, "valid TOML"),
    "not-utf8.toml": (2, None, "UTF-8"),
    "heading-bool.toml": (12, "unit[0].heading", "finite number"),
    "polygon-too-few.toml": (11, "terrain[0].polygon", "at least 3"),
    "unit-bad-movement.toml": (12, "unit[0].movement", "'naval'"),
}


def test_every_bad_map_is_listed():
    assert sorted(p.name for p in BAD.glob("*.toml")) == sorted(BAD_MAPS)
    assert len(BAD_MAPS) >= 15


@pytest.mark.parametrize("name", sorted(BAD_MAPS))
def test_bad_map_gives_one_clear_line(name):
    line, key, words = BAD_MAPS[name]
    with pytest.raises(MapError) as caught:
        load_map(BAD / name)
    error = caught.value
    message = error.describe()
    assert "\n" not in message
    assert message.startswith(str(BAD / name))
    assert error.line == line
    assert error.key == key
    assert words in message


def test_missing_file_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        load_map(tmp_path / "nowhere.toml")


def test_directory_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="not a directory"):
        load_map(tmp_path)


@pytest.mark.parametrize("path", sorted(maps_dir().glob("*.toml")), ids=lambda p: p.name)
def test_shipped_maps_round_trip_exactly(path):
    state = load_map(path)
    text = dumps_map(state)
    again = loads_map(text, "<saved>")
    assert again == state
    assert dumps_map(again) == text


def test_default_map_is_a_six_by_four_table():
    state = load_map(default_map_path())
    assert (state.board.width, state.board.height) == (72.0, 48.0)
    assert state.rules == "dystopian-wars"
    assert len(state.units) >= 6 and len(state.terrain) >= 5
    assert state.unit("ruler").base == RectBase(1.5, 4.0)


def test_stress_map_has_200_units_and_40_terrain_pieces():
    state = load_map(maps_dir() / "stress-200.toml")
    assert (len(state.units), len(state.terrain)) == (200, 40)


def test_defaults_come_from_the_rule_system():
    state = loads_map(
        'rules = "sw-d6-capital"\n[board]\nwidth = 48\nheight = 48\n'
        '[[unit]]\nid = "isd"\nside = "A"\nx = 5\ny = 5\n'
        'base = { shape = "circle", diameter = 2 }\n'
    )
    unit = state.unit("isd")
    assert unit.movement.value == "space"
    assert unit.name == "isd"
    assert unit.pose == Pose(5, 5, 0)


def test_closed_ring_is_the_same_polygon():
    text = (
        'rules = "dystopian-wars"\n[board]\nwidth = 24\nheight = 24\n'
        '[[terrain]]\nid = "t"\nkind = "dense"\nheight = "small"\n'
        "polygon = [[1, 1], [5, 1], [5, 5], [1, 1]]\n"
    )
    assert len(loads_map(text).terrain_piece("t").polygon) == 3


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path):
    state = load_map(default_map_path())
    target = tmp_path / "copy.toml"
    save_map(state, target)
    save_map(state, target)  # overwriting goes through a rename too
    assert load_map(target) == state
    assert [p.name for p in tmp_path.iterdir()] == ["copy.toml"]


def test_save_into_missing_folder_is_a_user_error(tmp_path):
    state = load_map(default_map_path())
    with pytest.raises(UserError, match="does not exist"):
        save_map(state, tmp_path / "no" / "such.toml")


finite = st.floats(min_value=2.0, max_value=40.0, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(
    x=finite,
    y=finite,
    heading=st.floats(min_value=-720, max_value=720, allow_nan=False),
    round_base=st.booleans(),
    name=st.text(min_size=1, max_size=20).filter(lambda s: s.strip()),
)
def test_any_valid_unit_round_trips(x, y, heading, round_base, name):
    base = CircleBase(1.0) if round_base else RectBase(1.0, 2.0)
    unit = Unit("u-1", name, "A", Pose(x, y, heading), base, size=SizeClass.SMALL)
    from tactical.model import Board

    state = GameState(rules="dystopian-wars", board=Board(48, 48), units=(unit,))
    text = dumps_map(state)
    assert loads_map(text) == state
    assert dumps_map(loads_map(text)) == text


def teston_board_is_the_tables_cover_of_the_shape():
    """`on_board` by bounds answers as shapely's `covers` of the table (with its tolerance)
    for shapes inside, across and just past every edge."""
    import numpy as np
    import shapely

    from tactical.io.maps import EDGE_TOLERANCE, on_board
    from tactical.model import Board

    board = Board(72.0, 48.0)
    table = shapely.box(
        -EDGE_TOLERANCE, -EDGE_TOLERANCE, board.width + EDGE_TOLERANCE,
        board.height + EDGE_TOLERANCE,
    )  # fmt: skip
    rng = np.random.default_rng(18)
    answers = []
    for _ in range(400):
        x, y = rng.choice([0.0, 72.0, 36.0]), rng.choice([0.0, 48.0, 24.0])
        x += rng.choice([-1e-6, 0.0, 1e-6, 2e-6, -2e-6, rng.uniform(-3, 3)])
        y += rng.choice([-1e-6, 0.0, 1e-6, 2e-6, -2e-6, rng.uniform(-3, 3)])
        r = rng.uniform(0.1, 2.0)
        for shape in (shapely.Point(x, y).buffer(r), shapely.box(x - r, y - r, x, y)):
            answers.append(on_board(shape, board))
            assert answers[-1] == table.covers(shape)
    assert not on_board(shapely.Polygon(), board)
    assert any(answers) and not all(answers)
