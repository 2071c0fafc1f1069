"""Dystopian Wars: when a fleet may pass its go (`RuleSystem.pass_refused`).

A fleet with a squadron left to activate activates one and passes only once it has none
left (R002.28, R002.18 style), an activation under way plays its segments to the end
(R002.28, T002.5), the End Phase's steps are taken in order (R002.19): otherwise one
fleet's pass ends the Squadron Activation Sequence for both, and nothing is fought."""

from __future__ import annotations

import pytest
from dw_builders import DW, table, unit

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.dystopian_wars import cards, sequence, tracking
from tactical.session.game import PASS, Game

ACTIVATION = TurnPosition(1, 2, 0)
END_PHASE = TurnPosition(1, 3, 0)


def two_fleets():
    state = DW.setup(
        table(
            unit("ruler", 20, 10, "A", name="Ruler", squadron="line"),
            unit("markgraf", 20, 40, "B", 180, name="Markgraf", squadron="line"),
        )
    )
    won = DW.apply(state, Action("initiative", "A", FrozenMap()), ScriptedDice([5, 2]))
    return won.state  # A won the initiative


def refusal(state, side, position=ACTIVATION):
    found = DW.pass_refused(state, position, side)
    return None if found is None else (found.reason, found.spec_id)


def test_R002_28_a_fleet_with_a_squadron_left_to_activate_cannot_pass():
    state = two_fleets()
    assert refusal(state, "A") == (
        "A still has squadrons to activate (line): a fleet passes only when it has none left",
        "R002.28",
    )
    # B waits for the initiative winner: it has nothing to do, so it may pass (G.5)
    assert refusal(state, "B") is None


def test_R002_28_an_activation_under_way_is_played_to_the_end():
    state = DW.apply(
        two_fleets(), Action("activate", "A", FrozenMap(squadron="A:line")), ScriptedDice([])
    ).state
    assert refusal(state, "A") == (
        "the activation of the line is under way: its segments are played in order to the end",
        "R002.28",
    )
    assert refusal(state, "B") is None  # not targeted: nothing is offered it
    state = tracking.put(state, activated=("A:line",), activation=None)
    assert refusal(state, "A") is None  # none left: A passes, B goes on
    assert refusal(state, "B")[1] == "R002.28"


def test_R002_19_the_end_phase_steps_are_taken_in_order():
    state = two_fleets()
    assert refusal(state, "A", END_PHASE) == (
        "End Phase: check for End of Game: the End Phase's steps are taken in order",
        "R002.19",
    )


def lazy_turn(seed: int) -> tuple[Game, tuple[str, ...]]:
    """Turn 1 of the scenario with both fleets passing whenever a pass is offered (else the
    first step offered, with its defaults); the squadrons activated when the End Phase began."""
    game = Game.new(load_map(builtin_map("dystopian-wars")), seed)
    while game.phase_name != sequence.END_PHASE:
        offered = game.choices()
        # a pass is refused exactly when the rules offer a step of the sequence (an offer
        # of the Fleet Commodore's re-roll aside)
        steps = [c for c in game.rule_choices() if c.kind != "commodore-reroll"]
        assert (game.pass_refusal() is not None) == bool(steps), (game.turn, game.phase_name)
        if any(c.kind == PASS for c in offered):
            game = game.pass_go()
            continue
        with pytest.raises(UserError, match="cannot pass now") as refused:
            game.pass_go()
        assert refused.value.spec_id in ("R002.20", "G.5", "R002.28")
        game = game.apply(Action(offered[0].kind, offered[0].actor))
        activated = tracking.get(game.state, "activated", ())
    return game, activated


def test_R002_28_one_fleet_passing_does_not_end_the_activations_of_both():
    game, activated = lazy_turn(3)
    start = game.initial
    everyone = {key for side in start.sides for key in cards.squadrons(start, side)}
    assert len(everyone) == 11
    assert set(activated) >= everyone  # and a Wing launched this turn waits (R002.61)
    assert not any(sequence.activatable(game.state, side) for side in game.sides)
