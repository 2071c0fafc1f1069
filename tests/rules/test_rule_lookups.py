"""The lookups several rule systems share: a unit on the table by id, an attack's two
parties, the first event of a kind, and dice that roll nothing for a dry run."""

from __future__ import annotations

import pytest

from tactical.dice import D6, Die
from tactical.errors import UserError
from tactical.model import CircleBase, GameState, Pose, Unit
from tactical.model.board import Board
from tactical.rules.base import Event
from tactical.rules.fixed_dice import FIRST_FACE, FixedDice
from tactical.rules.lookups import attack_parties, first_event, table_unit


def _table(*ids: str) -> GameState:
    units = tuple(Unit(i, i.title(), "A", Pose(5, 5, 0), CircleBase(0.5)) for i in ids)
    return GameState(rules="none", board=Board(30, 30), units=units)


def test_a_unit_is_found_by_id_and_a_missing_one_names_the_units_there():
    state = _table("kronos", "ares")
    assert table_unit(state, "ares", "target").id == "ares"
    with pytest.raises(UserError) as caught:
        table_unit(state, "zeus", "attacking")
    said = "unknown attacking unit 'zeus': units on this map are kronos, ares"
    assert caught.value.message == said
    with pytest.raises(UserError, match="units on this map are none"):
        table_unit(_table(), "zeus", "target")


def test_an_attack_has_two_parties_and_none_attacks_itself():
    state = _table("kronos", "ares")
    attacker, target = attack_parties(state, "kronos", "ares", "R000.3")
    assert (attacker.id, target.id) == ("kronos", "ares")
    with pytest.raises(UserError, match="unknown target unit 'zeus'"):
        attack_parties(state, "kronos", "zeus", "R000.3")
    with pytest.raises(UserError, match="cannot attack itself") as caught:
        attack_parties(state, "ares", "ares", "R003.7")
    assert caught.value.spec_id == "R003.7"


def test_the_first_event_of_a_kind_or_none():
    events = (
        Event.of("roll", "G.1", result=3),
        Event.of("outcome", "R000.9", hit=False),
        Event.of("outcome", "R000.9", hit=True),
    )
    assert first_event(events, "outcome") is events[1]
    assert first_event(events, "lookup") is None
    assert first_event((), "roll") is None


def test_fixed_dice_show_the_chosen_face_fold_in_order_and_run_a_chance_once():
    odd = Die("odd", (5, 1, 3))
    assert FIRST_FACE.roll(odd) == 5
    assert FIRST_FACE.roll(D6) == 1
    assert FixedDice(lambda die: die.high).roll(odd, who="a", what="b") == 5
    assert FixedDice(lambda die: die.low).roll(odd) == 1
    steps = (
        lambda state, dice: (*state, dice.roll(odd)),
        lambda state, dice: (*state, len(state)),
    )
    assert FIRST_FACE.fold((), steps) == (5, 1)
    assert FIRST_FACE.fold("start", ()) == "start"
    assert FIRST_FACE.chance(lambda dice: dice.roll(D6) + dice.roll(odd)) == 6
