"""An adjustment by hand never wedges a game: it is refused with the reason, or the game goes
on and its save reopens, in every rule system.

Dystopian Wars accepted `delete ruler` while the Ruler Class Battleship was activating: after
that every step raised and the save could not be reopened."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.rules.base import Action
from tactical.session import adjust
from tactical.session.autoplay import next_game
from tactical.session.controller import Session
from tactical.session.forced import settle
from tactical.session.game import Game
from tactical.session.saving import history_from_saved, save_game, saved_game

MAPS = ("battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital")
SEED = 7
PLAYED_ON = 8  # steps played after the adjustment


@pytest.fixture(scope="module")
def starts() -> dict[str, Game]:
    return {name: Game.new(load_map(builtin_map(name)), SEED) for name in MAPS}


def _activating_ruler(start: Game) -> Game:
    """Dystopian Wars a few steps in: the Ruler's squadron has just been activated."""
    game = start
    while not (game.steps and game.steps[-1].action.kind == "activate"):
        game = next_game(game)
        assert game.step_number < 40
    assert game.state.rule_state["activation"]["squadron"] == "A:battle-line"
    return game


def test_deleting_the_activating_ruler_is_refused_with_the_reason(starts):
    game = _activating_ruler(starts["dystopian-wars"])
    with pytest.raises(UserError) as refused:
        game.apply(adjust.delete("ruler"))
    assert refused.value.message == (
        "adjust: Ruler Class Battleship removed is refused: the Ruler Class Battleship is "
        "activating: finish or undo its activation first"
    )


def test_moving_the_activating_ruler_by_hand_is_still_allowed(starts):
    game = _activating_ruler(starts["dystopian-wars"])
    ruler = game.state.unit("ruler")
    moved = game.apply(adjust.move_unit("ruler", ruler.pose.x + 1, ruler.pose.y))
    _goes_on(moved)


def _goes_on(game: Game) -> Game:
    """The game after `PLAYED_ON` more steps: each time something is offered (or the game is
    over) and the stand-in's step applies."""
    for _ in range(PLAYED_ON):
        if game.over:
            break
        assert game.choices(), f"nothing offered at step {game.step_number}"
        game = settle(next_game(game))
    return game


KINDS = ("delete", "move", "side", "status", "add")


def _adjustment(game: Game, kind: str, pick: int) -> Action:
    """An adjustment of the table of `game` of `kind`: a unit (the `pick`th, round the
    table's units) deleted, moved, given to the other side, a status value set, or a copy
    added; `pick` also chooses where and what value."""
    state = game.state
    unit = state.units[pick % len(state.units)]
    if kind == "delete":
        return adjust.delete(unit.id)
    if kind == "move":
        x = (pick * 7.31) % state.board.width
        y = (pick * 3.17) % state.board.height
        return adjust.move_unit(unit.id, x, y, 90 * (pick % 4))
    if kind == "side":
        others = [side for side in game.sides if side != unit.side]
        return adjust.set_unit(unit.id, side=others[pick % len(others)])
    if kind == "status":
        fields = game.system.status_fields(state, unit)
        if not fields:
            return adjust.delete(unit.id)
        spec = fields[pick % len(fields)]
        if spec.kind == "bool":
            value = not spec.default
        elif spec.kind == "int" and spec.low is not None and spec.high is not None:
            value = int(spec.low) + pick % (int(spec.high) - int(spec.low) + 1)
        elif spec.choices:
            value = spec.choices[pick % len(spec.choices)]
        else:
            value = spec.default
        return adjust.set_status(unit.id, {spec.name: value})
    table = adjust.unit_table(unit) | {"id": adjust.free_id(state, unit.id)}
    return adjust.add_unit(table)


@pytest.mark.parametrize("name", MAPS)
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    before=st.integers(0, 30),
    kind=st.sampled_from(KINDS),
    pick=st.integers(0, 10_000),
)
@example(before=5, kind="delete", pick=0)  # Dystopian Wars: the Ruler to command
@example(before=6, kind="side", pick=0)
def test_an_adjustment_mid_game_never_wedges_it(name, starts, before, kind, pick, tmp_path):
    game = starts[name]
    for _ in range(before):  # one step at a time, as with Auto off: no step taken for us
        if game.over:
            break
        game = next_game(game)
    action = _adjustment(game, kind, pick)
    try:
        adjusted = game.apply(action)
    except UserError as refused:
        assert refused.message.strip() and "Traceback" not in refused.message
        return
    played = _goes_on(adjusted)
    replayed = history_from_saved(saved_game(played), "adjusted.json").game
    assert replayed.state == played.state
    path = tmp_path / f"game-{before}-{kind}-{pick}.json"
    save_game(adjusted, path)
    reopened = Session.open(path)  # takes the steps the game takes by itself, as play does
    assert reopened.game.over or reopened.choices()
