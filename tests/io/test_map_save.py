"""Saving a map safely: never inside the package, never over a file unasked,
comments kept."""

from __future__ import annotations

import contextlib
import re
import shutil
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.io import builtin_map, load_map, loads_map
from tactical.io.map_numbers import rounded_table
from tactical.io.map_save import MapExistsError, map_text, save_map_as
from tactical.io.paths import maps_dir
from tactical.model import Pose
from tactical.session import adjust


@pytest.mark.parametrize("path", sorted(maps_dir().glob("*.toml")), ids=lambda p: p.stem)
def test_an_unchanged_map_saves_to_the_very_same_text(path):
    text = path.read_text(encoding="utf-8")
    assert map_text(load_map(path), text) == (
        text,
        True,
        "saved, with the loaded file's comments and layout kept",
    )


def test_an_adjusted_map_keeps_its_comments_and_reloads_identically(tmp_path):
    source = builtin_map("dystopian-wars")
    text = source.read_text(encoding="utf-8")
    draft = adjust.TableDraft.of(load_map(source))
    draft = draft.apply(adjust.move_unit("ruler", 31, 5.5, 33))
    draft = draft.apply(adjust.delete("tribal-1"))
    markgraf = draft.state.unit("markgraf")  # heading 180 in the file: 0 must be written
    draft = draft.apply(adjust.move_unit("markgraf", markgraf.x, markgraf.y, 0))
    draft = draft.apply(adjust.move_terrain("heligoland", 0.5, 0.5, 10))
    draft = draft.apply(adjust.reshape("sea-stack", [[10, 10], [14, 10], [12, 14]]))
    draft = draft.apply(
        adjust.add_terrain(adjust.circle_table("rock", "dense", "small", (3, 3), (4, 3)))
    )
    saved = save_map_as(draft.state, tmp_path / "dogger.toml", original=text)
    assert saved.comments_kept
    written = (tmp_path / "dogger.toml").read_text(encoding="utf-8")
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    assert comments == [line for line in written.splitlines() if line.lstrip().startswith("#")]
    # the turned island's corners are written to a hundredth: the same table otherwise
    assert load_map(tmp_path / "dogger.toml") == rounded_table(draft.state)
    assert "44.17" in written and "44.1701" not in written


def test_builtin_maps_are_never_written():
    target = builtin_map("default")
    before = target.read_bytes()
    state = load_map(target)
    with pytest.raises(UserError, match="built-in map inside the installed program"):
        save_map_as(state, target, overwrite=True)
    assert target.read_bytes() == before


def test_an_existing_file_is_overwritten_only_when_asked(tmp_path):
    target = tmp_path / "mine.toml"
    shutil.copy(builtin_map("default"), target)
    state = adjust.TableDraft.empty("dystopian-wars", 48, 48).state
    with pytest.raises(MapExistsError, match="already exists"):
        save_map_as(state, target)
    assert load_map(target).units  # untouched
    saved = save_map_as(state, target, overwrite=True)
    assert not saved.comments_kept and "standard layout" in saved.note
    assert load_map(target) == state


def test_a_map_file_name_ends_in_toml(tmp_path):
    state = adjust.TableDraft.empty("dystopian-wars", 48, 48).state
    with pytest.raises(UserError, match=r"ends in \.toml"):
        save_map_as(state, tmp_path / "mine.json")


@settings(max_examples=15, deadline=None)
@given(
    moves=st.lists(
        st.tuples(
            st.integers(0, 18),
            st.floats(3, 69, allow_nan=False),
            st.floats(3, 33, allow_nan=False),
            st.floats(0, 359),
        ),
        max_size=4,
    ),
    dropped=st.sets(st.integers(0, 18), max_size=3),
)
def test_any_adjusted_table_saves_over_its_file_and_reloads_identically(moves, dropped):
    """Whatever is moved and deleted, the map written over the loaded file's text (comments
    kept, or the standard layout when they cannot be) loads back as the very same table,
    its numbers to a hundredth."""
    source = builtin_map("dystopian-wars")
    text = source.read_text(encoding="utf-8")
    draft = adjust.TableDraft.of(load_map(source))
    ids = [unit.id for unit in draft.state.units]
    for index, x, y, heading in moves:
        try:
            draft = draft.apply(adjust.move_unit(ids[index % len(ids)], x, y, heading))
        except UserError:
            continue  # a base over the edge: refused, the table unchanged
    for index in dropped:
        unit_id = ids[index % len(ids)]
        if draft.state.has_unit(unit_id):
            draft = draft.apply(adjust.delete(unit_id))
    written, kept, _ = map_text(draft.state, text)
    assert kept
    assert loads_map(written, "saved") == rounded_table(draft.state)


@settings(max_examples=40, deadline=None)
@given(
    x=st.floats(0, 72, allow_nan=False),
    y=st.floats(0, 48, allow_nan=False),
    heading=st.floats(-720, 720, allow_nan=False),
    turn=st.floats(-180, 180, allow_nan=False),
)
def test_a_saved_map_reads_to_a_hundredth_and_never_leaves_the_table(
    tmp_path_factory, x, y, heading, turn
):
    """Places, headings and corners are written to 0.01 (a drag or a turned piece leaves
    23.094010767585...), every item within 0.005 of where it was; an item rounding would put
    off the table (a base touching its edge) keeps its exact numbers: the map always loads."""
    draft = adjust.TableDraft.of(load_map(builtin_map("dystopian-wars")))
    with contextlib.suppress(UserError):  # a base over the edge: refused
        draft = draft.apply(adjust.move_unit("ruler", x, y, heading))
    draft = draft.apply(adjust.move_terrain("heligoland", turn=turn))
    target = tmp_path_factory.mktemp("maps") / "rounded.toml"
    save_map_as(draft.state, target)
    saved = load_map(target)
    for unit in saved.units:
        before = draft.state.unit(unit.id)
        assert (unit.x, unit.y) == pytest.approx((before.x, before.y), abs=0.005)
        on_table = unit.footprint.bounds
        assert on_table[0] >= -1e-6 and on_table[2] <= 72 + 1e-6
    for piece, before in zip(saved.terrain, draft.state.terrain, strict=True):
        if piece.polygon is not None:
            flat = [c for corner in piece.polygon for c in corner]
            exact = [c for corner in before.polygon for c in corner]
            assert flat == pytest.approx(exact, abs=0.005)
    text = target.read_text(encoding="utf-8")
    numbers = re.findall(r"-?\d+\.\d+", text)
    assert numbers and all(len(number.split(".")[1]) <= 2 for number in numbers)


def test_a_base_touching_the_edge_keeps_its_exact_place():
    """A 25 mm base (0.984") touching the left edge: 0.4921 would round to 0.49 and put the
    base 0.002" off the table, so that unit is written exactly."""
    from tactical.model import CircleBase

    draft = adjust.TableDraft.empty("dystopian-wars", 48, 48)
    state = draft.state
    ruler = load_map(builtin_map("dystopian-wars")).unit("ruler")
    edge = replace(ruler, pose=Pose(0.4921, 10.123, 0.0), base=CircleBase(0.9842))
    state = replace(state, units=(edge,))
    kept = rounded_table(state).units[0]
    assert kept.pose.x == 0.4921 and kept.pose.y == 10.123  # exact: rounding would be off
