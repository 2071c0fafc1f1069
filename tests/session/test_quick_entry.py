"""The quick entry line and a table built from nothing."""

from __future__ import annotations

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.io.catalogue import builtin_catalogue
from tactical.io.map_save import save_map_as
from tactical.rules import registry
from tactical.session.adjust import TableDraft
from tactical.session.game import Game
from tactical.session.quick_entry import parse_quick_entry

# a 6'x4' Dystopian Wars table as a player reads it off the real one: 6 pieces, 10 ships
TABLE_LINES = (
    "rect 20 20 26 24 dense large",
    "circle 36 24 3 obstructing medium",
    "rect 50 10 54 16 soft tiny",
    "circle 12 34 2 dense small",
    "rect 60 30 66 33 dense massive",
    "circle 44 40 2.5 soft small",
    "ruler 30 4 0",
    "tribal 38 4 0",
    "tribal 42 4 0",
    "attacker 46 3 0",
    "avenger 24 4 0",
    "markgraf 30 44 180 B",
    "stralsund 38 44 180",
    "stralsund 42 44 180",
    "blucher 46 45 180",
    "wachter 24 44 180",
)


def build(lines, draft):
    catalogue = builtin_catalogue(draft.state.rules)
    for line in lines:
        draft = draft.apply(parse_quick_entry(line, draft.state, catalogue).action)
    return draft


def test_a_ten_ship_six_piece_table_from_nothing(tmp_path):
    """File → New (1 action), 16 typed lines, Save map as (1 action): 18 actions, under five
    minutes at ten seconds a line; the saved map reloads identically and starts a game."""
    draft = TableDraft.empty("dystopian-wars", 72, 48, "Copied from the club table")
    draft = build(TABLE_LINES, draft)
    actions = 1 + len(TABLE_LINES) + 1
    assert actions == 18 and actions * 10 < 5 * 60
    state = draft.state
    assert len(state.units) == 10 and len(state.terrain) == 6
    assert [u.id for u in state.units][:3] == ["ruler-1", "tribal-1", "tribal-2"]
    assert state.unit("markgraf-1").side == "B" and state.unit("markgraf-1").heading == 180
    save_map_as(state, tmp_path / "club.toml")
    assert load_map(tmp_path / "club.toml") == state
    Game.new(state, 1)  # a playable table


def test_typing_a_units_id_moves_it():
    draft = build(["ruler 30 4 0"], TableDraft.empty("dystopian-wars", 72, 48))
    catalogue = builtin_catalogue("dystopian-wars")
    moved = draft.apply(parse_quick_entry("ruler-1 12 6 0", draft.state, catalogue).action)
    assert (moved.state.unit("ruler-1").x, moved.state.unit("ruler-1").y) == (12, 6)
    assert moved.log_lines()[-1] == (
        "adjust: Ruler Class Battleship moved (30.00, 4.00, 0°) to (12.00, 6.00, 0°)"
    )
    # a scenario's unit whose id is also a class name is moved, not added
    game_table = TableDraft.of(load_map(builtin_map("dystopian-wars")))
    entry = parse_quick_entry("ruler 12 6 0", game_table.state, catalogue)
    assert entry.action.params["op"] == "move"


def test_delete_and_sides_of_a_game():
    draft = build(["ruler 30 4 0"], TableDraft.empty("dystopian-wars", 72, 48))
    catalogue = builtin_catalogue("dystopian-wars")
    gone = draft.apply(parse_quick_entry("delete ruler-1", draft.state, catalogue).action)
    assert not gone.state.units
    # a class is placed for its own side, else (not playing) for the side chosen on screen
    entry = parse_quick_entry("markgraf 30 40 180", draft.state, catalogue, "A", ("A", "B"))
    assert entry.action.params["unit"]["side"] == "B"
    entry = parse_quick_entry("markgraf 30 40 180", draft.state, catalogue, "Reds", ("Reds",))
    assert entry.action.params["unit"]["side"] == "Reds"
    with pytest.raises(UserError, match="side C is not playing"):
        parse_quick_entry("markgraf 30 40 180 C", draft.state, catalogue, "A", ("A", "B"))


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("", "nothing typed"),
        ("dreadnought 1 2", "neither a unit on the table nor a class"),
        ("ruler twelve 6", "'twelve' is not a number"),
        ("ruler 12", "needs x and y"),
        ("rect 1 2 3", "rect needs 4 numbers"),
        ("circle 5 5 2 lava", "terrain kind 'lava' is not one of"),
        ("ruler 12 6 0 A extra", "too many values"),
    ],
)
def test_bad_lines_say_what_to_type(line, words):
    draft = TableDraft.empty("dystopian-wars", 72, 48)
    with pytest.raises(UserError) as caught:
        parse_quick_entry(line, draft.state, builtin_catalogue("dystopian-wars"))
    assert words in caught.value.describe()


def test_a_unit_off_the_table_is_refused_and_nothing_changes():
    draft = TableDraft.empty("dystopian-wars", 72, 48)
    entry = parse_quick_entry("ruler 71 47 0", draft.state, builtin_catalogue("dystopian-wars"))
    with pytest.raises(UserError, match="whole base on the 72x48 table"):
        draft.apply(entry.action)
    assert draft.state.units == ()


def test_set_a_stat_by_typing_it():
    """A unit's stats (its damage state where the rule system keeps it there): typed,
    checked against the rule system's schema, logged in words."""
    draft = build(["ruler 30 4 0"], TableDraft.empty("dystopian-wars", 72, 48))
    catalogue = builtin_catalogue("dystopian-wars")
    entry = parse_quick_entry("set ruler-1 hull points 5", draft.state, catalogue)
    hit = draft.apply(entry.action)
    assert hit.state.unit("ruler-1").stats["hull_points"] == 5
    assert hit.log_lines()[-1] == "adjust: Ruler Class Battleship changed: hull points 8 to 5"
    named = hit.apply(parse_quick_entry("set ruler-1 name HMS Ruler", hit.state, catalogue).action)
    assert named.state.unit("ruler-1").name == "HMS Ruler"
    bad = parse_quick_entry("set ruler-1 hull_points lots", hit.state, catalogue)
    with pytest.raises(UserError, match="hull_points"):
        hit.apply(bad.action)


@pytest.mark.parametrize(
    "rules", ["battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital"]
)
def test_every_catalogue_builds_a_playable_table_from_nothing(rules):
    """A class of each side, typed onto an empty table, starts a game that plays a turn."""
    from tactical.session.autoplay import play_turns

    catalogue = builtin_catalogue(rules)
    draft = TableDraft.empty(rules, 72, 48)
    for index, side in enumerate(catalogue.sides()):
        first = catalogue.by_side(side)[0]
        y, heading = (6, 0) if index == 0 else (42, 180)
        line = f"{first.id} 36 {y} {heading}"
        draft = draft.apply(parse_quick_entry(line, draft.state, catalogue).action)
    assert len(draft.state.sides) == 2
    play_turns(Game.new(draft.state, 5), 1)


def test_a_unit_is_named_by_its_id_its_name_or_the_class_word_it_was_placed_with():
    """`set ruler hull 3` on a table built from the palette (the id is ruler-1): the class
    word, the name and the name the table shows all find it; so does a move by name."""
    draft = build(["ruler 30 4 0", "tribal 38 4 0", "tribal 42 4 0"], empty())
    catalogue = builtin_catalogue("dystopian-wars")
    for line in (
        "set ruler hull points 3",
        "set ruler-1 hull points 3",
        "set Ruler Class Battleship hull points 3",
        "set ruler class battleship hull_points 3",
    ):
        entry = parse_quick_entry(line, draft.state, catalogue)
        assert entry.action.actor == "ruler-1", line
        assert draft.apply(entry.action).state.unit("ruler-1").stats["hull_points"] == 3
    second = parse_quick_entry("set Tribal Class Cruiser 2 hull points 1", draft.state, catalogue)
    assert second.action.actor == "tribal-2"
    renamed = draft.apply(
        parse_quick_entry("set ruler name HMS Ruler", draft.state, catalogue).action
    )
    moved = parse_quick_entry("HMS Ruler 12 6 90", renamed.state, catalogue)
    assert moved.action.actor == "ruler-1" and moved.summary == "move HMS Ruler"
    assert parse_quick_entry("delete hms ruler", renamed.state, catalogue).action.actor == (
        "ruler-1"
    )
    # the class word followed by a place still places another of the class
    again = parse_quick_entry("tribal 50 4 0", draft.state, catalogue)
    assert again.action.params["op"] == "add"


def test_a_name_two_units_answer_to_is_one_message_naming_both():
    draft = build(["tribal 38 4 0", "tribal 42 4 0"], empty())
    catalogue = builtin_catalogue("dystopian-wars")
    for line in ("set tribal hull points 1", "delete tribal", "Tribal Class Cruiser 12 6"):
        with pytest.raises(UserError) as caught:
            parse_quick_entry(line, draft.state, catalogue)
        message = caught.value.describe()
        assert "could be Tribal Class Cruiser 1 or Tribal Class Cruiser 2" in message, line
        assert "tribal-1" not in message and "\n" not in message


def test_a_polygon_typed_corner_by_corner():
    """`poly` takes corners in inches, then the kind and height words, as rect and circle."""
    draft = empty()
    catalogue = builtin_catalogue("dystopian-wars")
    line = "poly 10 10 16 10 18 13 16 15 10 14 dense large"
    made = draft.apply(parse_quick_entry(line, draft.state, catalogue).action)
    piece = made.state.terrain[-1]
    assert piece.polygon == ((10, 10), (16, 10), (18, 13), (16, 15), (10, 14))
    assert (piece.kind, piece.height.value) == ("dense", "large")
    plain = parse_quick_entry("poly 10 10 16 10 16 15", draft.state, catalogue)
    kinds = registry.get("dystopian-wars").terrain_kinds
    assert plain.action.params["terrain"]["kind"] == kinds[0]  # the first kind, as rect


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("poly 10 10 16 10 dense", "at least 3 corners"),
        ("poly 10 10 16 10 16", "one number is alone"),
        ("poly 10 10 16 16 16 10 10 16", "edges cross"),
        ("poly 10 10 80 10 16 15", "reaches off the 72x48 table"),
        ("poly 10 10 16 10 16 15 lava", "terrain kind 'lava' is not one of"),
    ],
)
def test_a_bad_polygon_is_one_message(line, words):
    draft = empty()
    with pytest.raises(UserError) as caught:
        parse_quick_entry(line, draft.state, builtin_catalogue("dystopian-wars"))
    message = caught.value.describe()
    assert words in message and "\n" not in message


def empty():
    return TableDraft.empty("dystopian-wars", 72, 48)


def test_a_status_value_of_several_words_by_the_units_name():
    """`set Deimos Base results B2 iL`: the unit by its name, the value by its label, the
    value's words kept together."""
    from tactical.session.game import Game

    game = Game.new(load_map(builtin_map("battlefleet-mars")), 1)
    catalogue = builtin_catalogue("battlefleet-mars")
    line = "set Deimos Base results B2 iL"
    entry = parse_quick_entry(line, game.state, catalogue, sides=game.sides)
    assert entry.action.actor == "deimos-base"
    assert dict(entry.action.params["values"]) == {"results": "B2 iL"}
    assert entry.summary == "Deimos Base: Results scored B2 iL"
