"""The computer player decides from its own side's view (R001.29), never the true state:
with the cloaked Kronos truly behind the Enterprise but last seen ahead of it, the
Federation's computer fires as the view says, not as the truth would have it."""

from __future__ import annotations

from cloak_game import FED, KRONOS, movement, played_turns

from tactical.agents import GreedyPlayer
from tactical.agents.sight import decide_seeing
from tactical.geometry.shapes import Pose
from tactical.session.game import Game
from tactical.session.views import viewed

LAST_SEEN = Pose(52.0, 24.0, 270.0)
BEHIND = Pose(8.0, 24.0, 90.0)  # 12" astern of the Enterprise (at 20, 24 heading 90)


class Watching(GreedyPlayer):
    """A greedy player that keeps every game it was asked to decide on."""

    def __init__(self, seed: int = 1) -> None:
        super().__init__(seed)
        self.asked: list[Game] = []

    def decide(self, game: Game):
        self.asked.append(game)
        return super().decide(game)


def federation_to_fire() -> Game:
    """Turn 2's fire, the Federation to act, the cloaked Kronos truly astern of it."""
    game = movement(played_turns(1)[-1], 2, stop="Target selection / fire")
    assert game.side_to_act == FED
    state = game.state.replace_unit(game.state.unit(KRONOS).moved_to(BEHIND))
    return game.resumed(state, game.position, game.steps)


def test_the_computer_fires_as_its_view_says_not_as_the_truth_would():
    game = federation_to_fire()
    truth = GreedyPlayer(1).decide(game).action  # what knowing the truth would choose
    player = Watching(1)
    decision = decide_seeing(player, game)
    assert decision.action == GreedyPlayer(1).decide(viewed(game, FED)).action
    assert decision.action != truth
    assert truth.params["weapon"] == "phasers"  # the fore photon cannot bear astern
    assert decision.action.params["weapon"] == "photon-1"  # ahead, where it was seen
    # the choice is played on the true game, where the rules run
    assert decision.after.steps[-1].action == decision.action
    assert decision.after.state.unit(KRONOS).pose == BEHIND


def test_the_computer_never_receives_the_cloaked_ships_pose():
    game = federation_to_fire()
    player = Watching(1)
    decide_seeing(player, game)
    assert player.asked
    assert all(asked.state.unit(KRONOS).pose == LAST_SEEN for asked in player.asked)
    assert all(
        "hidden movement" in step.title
        for asked in player.asked
        for step in asked.steps
        if step.side != FED and step.phase.name == "Reaction movement" and step.before.turn == 2
    )
