"""Adjusting the table by hand, at any time: session.adjust and Game.apply."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.io.maps import unit_table
from tactical.session import adjust
from tactical.session.autoplay import next_game, play_turns
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.session.history import History
from tactical.session.log import game_log
from tactical.session.saving import load_game, save_game

SEED = 1414


@pytest.fixture(scope="module")
def dw_map():
    return load_map(builtin_map("dystopian-wars"))


@pytest.fixture(scope="module")
def mid_game(dw_map) -> Game:
    """Five steps into a Dystopian Wars game."""
    game = Game.new(dw_map, SEED)
    for _ in range(5):
        game = next_game(game)
    return game


def test_move_is_logged_in_words_and_keeps_the_go(mid_game):
    ruler = mid_game.state.unit("ruler")
    game = mid_game.apply(adjust.move_unit("ruler", ruler.x + 0.5, ruler.y + 0.2, 10))
    assert game.state.unit("ruler").pose.heading == 10
    assert (game.position, game.side_to_act) == (mid_game.position, mid_game.side_to_act)
    step = game.last_step
    assert step.rolls == () and step.by_session and not step.is_pass
    # the unit by the name a player reads, not its id
    sentence = (
        f"Ruler Class Battleship moved ({ruler.x:.2f}, {ruler.y:.2f}, 0°) to "
        f"({ruler.x + 0.5:.2f}, {ruler.y + 0.2:.2f}, 10°)"
    )
    assert step.title == f"adjust: {sentence}"
    # the game log: the step in words (not its parameters), then what changed
    phase = mid_game.phase.name
    assert game_log(game).text().splitlines()[-2:] == [
        f"#{step.number} Table adjusted by hand (turn {game.turn}, {phase})",
        f"#{step.number}   {sentence}",
    ]
    # the JSON log keeps the action's own values
    entry = game_log(game).for_step(step.number)[0].as_dict()
    assert (entry["kind"], entry["actor"], entry["params"]["op"]) == ("adjust", "ruler", "move")
    assert entry["params"]["heading"] == 10


def test_adjust_mid_game_undo_save_reload_replay(mid_game, tmp_path):
    history = History((mid_game,), 0)
    ruler = mid_game.state.unit("ruler")
    history = history.apply(adjust.move_unit("ruler", ruler.x + 1, ruler.y, 45))
    history = history.apply(adjust.delete("tribal-1"))
    history = history.undo()
    assert history.game.state.has_unit("tribal-1")
    assert history.game.state.unit("ruler").heading == 45
    history = history.redo()
    assert not history.game.state.has_unit("tribal-1")
    game = play_turns(history.game, history.game.turn + 1)
    save_game(game, tmp_path / "game.json")
    reloaded = load_game(tmp_path / "game.json")
    assert reloaded.game.state == game.state
    assert game_log(reloaded.game).text() == game_log(game).text()


def test_session_adjust_and_undo(dw_map):
    session = Session.new(dw_map, SEED)
    before = session.state
    session.apply(adjust.set_unit("ruler", name="HMS Ruler"))
    assert session.state.unit("ruler").name == "HMS Ruler"
    assert (
        session.last_step.title
        == "adjust: Ruler Class Battleship changed: name Ruler Class Battleship to HMS Ruler"
    )
    session.undo()
    assert session.state == before


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (adjust.move_unit("ruler", 200, 10, 0), "whole base on the 72x36 table"),
        (adjust.move_unit("nobody", 1, 1, 0), "no unit or terrain piece 'nobody'"),
        (adjust.set_unit("ruler", stats={"hull": -3}), "ruler.stats.hull"),
        (adjust.reshape("island", [[10, 10], [20, 20], [20, 10], [10, 20]]), "crossing"),
        (adjust.set_unit("ruler", side="Martians"), "side Martians is not playing"),
    ],
)
def test_bad_adjustment_is_one_message_and_changes_nothing(mid_game, action, words):
    if action.actor == "island":
        action = adjust.reshape(
            mid_game.state.terrain[0].id, [[10, 10], [20, 20], [20, 10], [10, 20]]
        )
    with pytest.raises(UserError) as caught:
        mid_game.apply(action)
    assert words in caught.value.describe()
    assert "\n" not in caught.value.describe()
    assert len(mid_game.steps) == 5  # the game value is untouched


def test_a_duel_keeps_two_ships_a001_22():
    """A001.22 (a Heavy Combat duel is two ships on two sides): a third ship is refused."""
    game = Game.new(load_map(builtin_map("heavy-combat")), SEED)
    table = unit_table(game.state.units[0]) | {"id": "third"}
    with pytest.raises(UserError) as caught:
        game.apply(adjust.add_unit(table))
    assert caught.value.spec_id == "A001.22"


@pytest.mark.parametrize(
    "name", ["battlefleet-mars", "cortex-space", "sw-d6-capital", "dystopian-wars"]
)
def test_units_added_and_removed_mid_game_play_on(name):
    """The rule state follows the table (RuleSystem.adjusted): a removed unit's entries go,
    an added one is set up, and the stand-in plays on without error."""
    game = Game.new(load_map(builtin_map(name)), SEED)
    for _ in range(3):
        game = next_game(game)
    first, second = game.state.units[0], game.state.units[1]
    game = game.apply(adjust.delete(second.id))
    if name != "dystopian-wars":  # its fleets are at their points value (R002.4)
        game = game.apply(adjust.add_unit(unit_table(first) | {"id": "newcomer"}))
        assert game.state.has_unit("newcomer")
    try:
        game = play_turns(game, game.turn + 1)
    except UserError as error:  # the rules may end the game (a side left unable to fight)
        assert "the game is over" in error.message
    assert not game.state.has_unit(second.id)


def test_terrain_move_turn_and_vertices(dw_map):
    draft = adjust.TableDraft.of(dw_map)
    draft = draft.apply(
        adjust.add_terrain(adjust.rectangle_table("box", "dense", "small", (10, 10), (14, 12)))
    )
    draft = draft.apply(adjust.move_terrain("box", dx=1, dy=2, turn=90))
    points = sorted((round(x, 6), round(y, 6)) for x, y in draft.state.terrain_piece("box").polygon)
    # centre (12, 11) + (1, 2); 4 wide, 2 deep turned a quarter: 2 wide, 4 deep
    assert points == [(12.0, 11.0), (12.0, 15.0), (14.0, 11.0), (14.0, 15.0)]
    # vertex 0 is (12, 15), vertex 1 (12, 11): a vertex on that edge, then pulled out of it
    draft = draft.apply(adjust.insert_vertex(draft.state, "box", 0, 12, 13))
    assert len(draft.state.terrain_piece("box").polygon) == 5
    draft = draft.apply(adjust.move_vertex(draft.state, "box", 1, 11, 13))
    assert draft.state.terrain_piece("box").polygon[1] == (11.0, 13.0)
    draft = draft.apply(adjust.remove_vertex(draft.state, "box", 1))
    assert len(draft.state.terrain_piece("box").polygon) == 4
    # a piece with no name of its own by its kind in words, never its id
    assert draft.log_lines()[-1] == "adjust: Dense terrain reshaped from 5 vertices to 4 vertices"
    with pytest.raises(UserError, match="3 vertices"):
        tri = draft.apply(adjust.remove_vertex(draft.state, "box", 0))
        tri.apply(adjust.remove_vertex(tri.state, "box", 0))


def test_each_sentence_names_what_it_changed_as_a_player_reads_it(dw_map):
    """Units by `GameState.shown_names` (a removed unit by its name before it went, an added
    one numbered among its namesakes once it is there), pieces by `shown_terrain_names`."""
    draft = adjust.TableDraft.of(dw_map)
    tribal = unit_table(dw_map.unit("tribal-1"))
    assert dw_map.shown_names["tribal-2"] == "Tribal Class Cruiser 2"
    changes = [
        (adjust.delete("tribal-2"), "Tribal Class Cruiser 2 removed"),
        (
            adjust.add_unit(tribal | {"id": "tribal-9", "x": 20.0, "y": 4.0, "heading": 0.0}),
            "Tribal Class Cruiser 2 added for A at (20.00, 4.00, 0°)",
        ),
        (
            adjust.set_unit("tribal-9", name="Cossack", side="B"),
            "Tribal Class Cruiser 2 changed: name Tribal Class Cruiser to Cossack, side A to B",
        ),
        (
            adjust.set_unit("ruler", stats={"hull_points": 5}),
            "Ruler Class Battleship changed: hull points 8 to 5",
        ),
        (adjust.delete("heligoland"), "Rocky island removed"),
        (adjust.move_terrain("fog-bank", dx=1), "Fog bank moved by (1.00, 0.00)"),
        (
            adjust.add_terrain(
                adjust.rectangle_table("reef", "obstructing", "small", (30, 10), (32, 12))
                | {"name": "Dogger reef"}
            ),
            "Dogger reef added (obstructing terrain, 4 vertices)",
        ),
        (
            adjust.add_terrain(adjust.circle_table("rock", "dense", "small", (40, 20), (41, 20))),
            'Dense terrain added (circle at (40.00, 20.00), radius 1.00")',
        ),
    ]
    for action, sentence in changes:
        draft = draft.apply(action)
        assert draft.log_lines()[-1] == f"adjust: {sentence}"


def test_circle_by_drag_and_draft_undo():
    draft = adjust.TableDraft.empty("dystopian-wars", 48, 48)
    draft = draft.apply(
        adjust.add_terrain(adjust.circle_table("rock", "obstructing", "large", (20, 20), (23, 24)))
    )
    assert draft.state.terrain_piece("rock").circle.radius == 5
    draft = draft.undo()
    assert draft.state.terrain == () and draft.can_redo
    assert draft.redo().state.terrain_piece("rock").circle.x == 20


def test_circle_off_the_table_is_refused():
    draft = adjust.TableDraft.empty("dystopian-wars", 48, 48)
    with pytest.raises(UserError, match="lying on the 48x48 table"):
        draft.apply(
            adjust.add_terrain(adjust.circle_table("rock", "dense", "large", (2, 2), (6, 2)))
        )


@given(x=st.floats(-10, 90), y=st.floats(-10, 46), heading=st.floats(-720, 720))
def test_a_move_lands_exactly_or_changes_nothing(dw_map, x, y, heading):
    draft = adjust.TableDraft.of(dw_map)
    try:
        moved = draft.apply(adjust.move_unit("ruler", x, y, heading))
    except UserError as error:
        assert "whole base on the 72x36 table" in error.message
        assert draft.state == dw_map
        return
    unit = moved.state.unit("ruler")
    assert (unit.x, unit.y) == (x, y)
    assert unit.footprint.bounds[0] >= -1e-6 and unit.footprint.bounds[2] <= 72 + 1e-6


def test_a_damage_state_set_by_hand_mid_game_takes_hold_r004_18():
    """R004.18 (a capital ship's damage level): set in its stats mid-game, the rule system
    reads the ship anew (RuleSystem.adjusted), and the other ships keep their state."""
    game = Game.new(load_map(builtin_map("sw-d6-capital")), SEED)
    for _ in range(6):
        game = next_game(game)
    ships = game.state.rule_state["ships"]
    game = game.apply(adjust.set_unit("corvette", stats={"damage": "heavy"}))
    after = game.state.rule_state["ships"]
    assert after["corvette"] != ships["corvette"]
    assert "heavy" in str(after["corvette"])
    assert all(after[ship] == ships[ship] for ship in ships if ship != "corvette")
    assert game.last_step.title == "adjust: Corellian Corvette changed: damage set to heavy"
    play_turns(game, game.turn + 1)
