"""Issue h20a, part 2: units that share a name read with a number, everywhere.

`unit_name` (and `GameState.shown_names`, which the screen reads) gives a unit's own
name when no other unit of the game has it, and "name 1", "name 2"... in the map's
order when several do; a unit keeps its number when a sibling is destroyed (removed
from the table), through a save and its replay.
"""

from __future__ import annotations

from dataclasses import replace

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import CircleBase, GameState, Pose, Unit
from tactical.model.board import Board
from tactical.rules.base import unit_name
from tactical.session import adjust, autoplay
from tactical.session.controller import Session
from tactical.session.saving import load_game, save_game


def _unit(unit_id: str, name: str) -> Unit:
    return Unit(unit_id, name, "A", Pose(10, 10, 0), CircleBase(0.5))


def _table(*units: Unit) -> GameState:
    return GameState(rules="none", board=Board(30, 30), units=units)


def test_a_unique_name_reads_unchanged_and_shared_names_are_numbered_in_map_order():
    state = _table(
        _unit("ruler", "Ruler Class Battleship"),
        _unit("attacker-3", "Attacker Class Frigate"),
        _unit("attacker-1", "Attacker Class Frigate"),
        _unit("attacker-2", "Attacker Class Frigate"),
        _unit("plain", ""),
    )
    assert unit_name(state, "ruler") == "Ruler Class Battleship"
    # by the map's order, not the ids' spelling
    assert unit_name(state, "attacker-3") == "Attacker Class Frigate 1"
    assert unit_name(state, "attacker-1") == "Attacker Class Frigate 2"
    assert unit_name(state, "attacker-2") == "Attacker Class Frigate 3"
    assert unit_name(state, "plain") == "plain"  # no name: its id
    assert unit_name(state, "nobody") == "nobody"


def test_a_number_never_reads_as_another_units_own_name():
    state = _table(_unit("a", "Raider"), _unit("b", "Raider 2"), _unit("c", "Raider"))
    assert [unit_name(state, u) for u in "abc"] == ["Raider 1", "Raider 2", "Raider 3"]


def test_a_number_stays_when_a_sibling_is_destroyed_and_the_last_keeps_its_number():
    state = _table(
        _unit("a", "Cylon Raider"), _unit("b", "Cylon Raider"), _unit("c", "Cylon Raider")
    )
    first = state.without_unit("a")
    assert unit_name(first, "b") == "Cylon Raider 2"
    assert unit_name(first, "c") == "Cylon Raider 3"
    assert unit_name(first, "a") == "Cylon Raider 1"  # a log line about it still names it
    last = first.without_unit("b")
    assert unit_name(last, "c") == "Cylon Raider 3"  # alone now, still the third
    # a unit put on the table in play comes after the roster
    launched = replace(last, units=(*last.units, _unit("d", "Cylon Raider")))
    assert unit_name(launched, "d") == "Cylon Raider 4"
    assert unit_name(launched.without_unit("c"), "d") == "Cylon Raider 4"


def test_numbers_in_a_game_survive_destruction_save_and_replay(tmp_path):
    """Dystopian Wars' built-in map: three Attacker Class Frigates, numbered in the map's
    order in the offered choices; played on until a model sharing a name is removed
    from the table (a Fighter Plane shot down), every model keeps its name, and the
    save's replay reads the same."""
    state = load_map(builtin_map("dystopian-wars"))
    frigates = [u.id for u in state.units if u.name == "Attacker Class Frigate"]
    assert [unit_name(state, f) for f in frigates] == [
        f"Attacker Class Frigate {n}" for n in (1, 2, 3)
    ]
    assert unit_name(state, "ruler") == "Ruler Class Battleship"
    game = Session.new(state, 7).game
    titles = {c.title for c in game.choices()}
    assert not any(t.startswith("Attacker Class Frigate:") for t in titles)
    start = dict(state.shown_names)
    shared = {u.id for u in state.units if start[u.id] != u.name}
    for _ in range(600):
        game = autoplay.next_game(game)
        gone = shared - {u.id for u in game.state.units}
        if gone:
            break
    else:
        raise AssertionError("no model sharing a name was removed in 600 steps")
    for unit in game.state.units:
        if unit.id in start:  # (a wing launched in play is new)
            assert unit_name(game.state, unit.id) == start[unit.id], unit.id
    for unit_id in gone:  # the destroyed model is still named as it was
        assert unit_name(game.state, unit_id) == start[unit_id]
    save_game(game, tmp_path / "game.json")
    again = load_game(tmp_path / "game.json").game
    assert again.state.shown_names == game.state.shown_names


def test_a_unit_struck_off_by_hand_leaves_the_roster_and_the_numbers_close_up():
    """A unit deleted by hand is a correction, not a loss (`GameState.struck_off`): before
    or after a loss in play, it leaves the roster, its siblings number as if it had never
    been there; the unit destroyed in play keeps its number."""
    three = _table(_unit("a", "Frigate"), _unit("b", "Frigate"), _unit("c", "Frigate"))
    corrected = three.struck_off("b")
    assert [unit_name(corrected, u) for u in "ac"] == ["Frigate 1", "Frigate 2"]
    assert "b" not in corrected.shown_names
    lost = three.without_unit("a")  # destroyed in play: the roster keeps it
    after = lost.struck_off("b")
    assert after.roster == (("a", "Frigate"), ("c", "Frigate"))
    assert unit_name(after, "a") == "Frigate 1" and unit_name(after, "c") == "Frigate 2"
    alone = three.struck_off("a").struck_off("b")
    assert unit_name(alone, "c") == "Frigate"  # the only frigate ever: no number


def test_a_unit_renamed_by_hand_reads_its_new_name_after_a_loss_in_play():
    state = _table(_unit("a", "Raider"), _unit("b", "Raider"), _unit("c", "Raider"))
    lost = state.without_unit("a")
    renamed = lost.replace_unit(replace(lost.unit("c"), name="Heavy Raider"))
    assert unit_name(renamed, "c") == "Heavy Raider"
    assert unit_name(renamed, "b") == "Raider 2"  # the lost one keeps 1
    assert unit_name(renamed.without_unit("c"), "c") == "Heavy Raider"


def test_in_a_game_a_frigate_deleted_by_hand_closes_the_numbers_a_loss_does_not(tmp_path):
    """Through the session: three Attacker Class Frigates, the second deleted by hand in
    adjust mode (`session.adjust.delete`): the others read Frigate 1 and 2, also after a
    save and its replay; then played on until a Fighter Plane is shot down, its siblings
    keep their numbers."""
    state = load_map(builtin_map("dystopian-wars"))
    session = Session.new(state, 7)
    session.apply(adjust.delete("attacker-2"))
    game = session.game
    assert not game.state.has_unit("attacker-2")
    assert [unit_name(game.state, f"attacker-{n}") for n in (1, 3)] == [
        "Attacker Class Frigate 1",
        "Attacker Class Frigate 2",
    ]
    assert "attacker-2" not in game.state.shown_names
    fighters = ("fighter-1", "fighter-2", "fighter-3")
    before = {f: unit_name(game.state, f) for f in fighters}
    assert list(before.values()) == [f"Fighter Plane {n}" for n in (1, 2, 3)]
    for _ in range(600):
        game = autoplay.next_game(game)
        gone = [f for f in fighters if not game.state.has_unit(f)]
        if gone:
            break
    else:
        raise AssertionError("no Fighter Plane was shot down in 600 steps")
    assert {f: unit_name(game.state, f) for f in fighters} == before
    assert unit_name(game.state, "attacker-3") == "Attacker Class Frigate 2"
    save_game(game, tmp_path / "game.json")
    again = load_game(tmp_path / "game.json").game
    assert again.state.shown_names == game.state.shown_names


def test_in_the_map_editor_a_unit_deleted_by_hand_leaves_no_gap():
    """File → New (a `TableDraft`, no game yet): three frigates typed in, the first deleted
    by hand; the others read 1 and 2, and undoing the deletion brings the three back."""
    from tactical.session.adjust import TableDraft

    draft = TableDraft.of(load_map(builtin_map("dystopian-wars")))
    draft = draft.apply(adjust.delete("attacker-1"))
    assert [unit_name(draft.state, f"attacker-{n}") for n in (2, 3)] == [
        "Attacker Class Frigate 1",
        "Attacker Class Frigate 2",
    ]
    assert unit_name(draft.undo().state, "attacker-3") == "Attacker Class Frigate 3"


def test_a_shared_name_ending_in_a_number_takes_its_own_in_brackets():
    """Two units named "Ship 1" read "Ship 1 (1)" and "Ship 1 (2)", not "Ship 1 2" (two
    numbers in a row read as one); "Ship 2" alone keeps its name."""
    state = _table(_unit("a", "Ship 1"), _unit("b", "Ship 1"), _unit("c", "Ship 2"))
    assert [unit_name(state, u) for u in "abc"] == ["Ship 1 (1)", "Ship 1 (2)", "Ship 2"]
