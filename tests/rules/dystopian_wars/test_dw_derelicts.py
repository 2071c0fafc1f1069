"""Derelict models (R002.19): made Derelict by hand, they Drift in the End Phase as Prizes
do, do not move in their activation, and their card says so."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dw_builders import DW, refused, table, unit

from tactical.dice import ScriptedDice
from tactical.io import builtin_map, load_map
from tactical.io.catalogue import builtin_catalogue
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.dystopian_wars import combat, end_phase, play, sequence, tracking
from tactical.session.game import Game
from tactical.session.quick_entry import parse_quick_entry

ACTIVATION = TurnPosition(1, 2, 0)
END_PHASE = TurnPosition(1, 3, 0)


def _run(state, *steps):
    for kind, actor, params, dice in steps:
        state = DW.apply(state, Action(kind, actor, FrozenMap(params)), ScriptedDice(dice)).state
    return state


def _card(state, unit_id):
    status = DW.unit_status(state, state.unit(unit_id))
    return {value.label: value.text for value in status.values}, status.marks


def _derelict(state, unit_id):
    return DW.set_status(state, state.unit(unit_id), {"derelict": True})


def test_R002_19_set_derelict_by_hand_the_card_says_derelict():
    """`set markgraf derelict yes` in adjust mode: the card reads "Derelict"."""
    game = Game.new(load_map(builtin_map("dystopian-wars")), 7)
    catalogue = builtin_catalogue("dystopian-wars")
    entry = parse_quick_entry("set markgraf derelict yes", game.state, catalogue, sides=("A", "B"))
    assert entry.action.params["values"] == {"derelict": True}
    before, _ = _card(game.state, "markgraf")
    assert "Derelict" not in before
    game = game.apply(entry.action)
    values, marks = _card(game.state, "markgraf")
    assert values["Derelict"] == "yes"
    help_text = next(
        v.help
        for v in DW.unit_status(game.state, game.state.unit("markgraf")).values
        if v.label == "Derelict"
    )
    assert help_text == 'does not move; drifts 1D6" straight ahead in each End Phase'
    assert "derelict" in marks
    assert tracking.is_derelict(game.state, "markgraf")
    field = next(
        f for f in DW.status_fields(game.state, game.state.unit("markgraf")) if f.name == "derelict"
    )
    assert (field.label, field.default, field.spec_id) == ("Derelict", True, "R002.19")
    back = DW.set_status(game.state, game.state.unit("markgraf"), {"derelict": False})
    assert not tracking.is_derelict(back, "markgraf")
    assert "Derelict" not in _card(back, "markgraf")[0]
    # a Tiny Flyer is Lost or Lands, it never drifts: nothing to mark
    fighter = game.state.unit("fighter-1")
    assert "derelict" not in [f.name for f in DW.status_fields(game.state, fighter)]


def test_R002_19_a_derelict_drifts_in_the_end_phase_as_a_prize_does():
    state = play.setup(
        table(
            unit("a", 30, 10, squadron="a"),
            unit("hulk", 50, 20, "B", heading=90, squadron="h"),
            unit("b", 30, 30, "B", squadron="b"),
        )
    )
    state = _derelict(state, "hulk")
    state = _run(state, ("end-phase", "A", {}, []))
    # its own fleet drifts it (a Prize is drifted by its captor)
    assert [u.id for u in end_phase.drifting(state, "B")] == ["hulk"]
    assert end_phase.drifting(state, "A") == ()
    assert [(c.kind, c.actor) for c in DW.actions(state, END_PHASE, "B")] == [("drift", "hulk")]
    with refused("R002.19", "first"):
        _run(state, ("end-turn", "A", {}, []))
    odds = DW.action_odds(state, Action("drift", "hulk")).section("outcome").distribution
    assert odds.as_dict() == {inches: Fraction(1, 6) for inches in range(1, 7)}
    drifted = _run(state, ("drift", "hulk", {}, [4]))
    assert drifted.unit("hulk").x == pytest.approx(54.0)  # 1D6" straight ahead
    assert end_phase.drifting(drifted, "B") == ()
    assert [c.kind for c in DW.actions(drifted, END_PHASE, "A")] == ["end-turn"]


def test_R002_19_a_derelict_does_not_move_in_its_activation():
    state = play.setup(
        table(
            unit("m1", 30, 10, squadron="sq"),
            unit("m2", 34, 10, squadron="sq"),
            unit("b", 30, 40, "B", squadron="b"),
        )
    )
    state = _derelict(state, "m1")
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "sq"}, []),
        ("command", "A", {}, []),
    )
    offered = [(c.kind, c.actor) for c in DW.actions(state, ACTIVATION, "A")]
    assert ("move", "m2") in offered and ("move", "m1") not in offered
    with refused("R002.19", "m1 is Derelict: it does not move, it drifts in the End Phase"):
        _run(state, ("move", "m1", {"path": "F4"}, []))
    # a squadron with nothing but Derelicts has nothing to activate
    alone = play.setup(table(unit("m1", 30, 10, squadron="sq"), unit("b", 30, 40, "B")))
    assert sequence.activatable(_derelict(alone, "m1"), "A") == ()


def test_R002_19_a_derelict_does_not_attack_but_can_be_fired_on():
    """A Derelict drifts with no crew at its guns: no weapon of it is offered, a declaration
    by it is refused by name, and it can still be a target."""
    state = play.setup(
        table(
            unit("a", 30, 10, squadron="sq"),
            unit("hulk", 30, 16, "B", squadron="h"),
            unit("b", 36, 16, "B", squadron="b"),
        )
    )
    derelict = _derelict(state, "hulk")
    with refused("R002.19", "hulk is Derelict: it drifts and does not attack"):
        combat.declare(derelict, "hulk", "Guns", "a")
    assert combat.declare(state, "hulk", "Guns", "a").attacker == "hulk"  # not Derelict: fires
    assert combat.declare(derelict, "a", "Guns", "hulk").target == "hulk"
