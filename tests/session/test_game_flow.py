"""The game flow over the generic protocol: turn position, choices, apply, odds, dice.

Battlefleet Mars is the reference system (phases Logistics and Launch plain, the
tactical combat sequence alternating, R000.18); Dystopian Wars shows a system that
brings its own movement.
"""

from __future__ import annotations

import random

import pytest

from tactical.dice import D10Z
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.base import Action, TurnPosition
from tactical.session.game import (
    MOVE,
    PASS,
    SIDE_ORDER_KEY,
    Game,
    offers_table_moves,
    step_dice,
    step_seed,
)
from tactical.session.movement import plan_move

SEED = 4242


@pytest.fixture(scope="module")
def bfm_map():
    return load_map(builtin_map("battlefleet-mars"))


@pytest.fixture
def game(bfm_map) -> Game:
    return Game.new(bfm_map, SEED)


def to_combat(game: Game) -> Game:
    """Pass through the plain phases to the alternating tactical combat sequence (R000.18)."""
    while not game.phase.alternating:
        game = game.pass_go()
    return game


def laser(actor: str, target: str) -> Action:
    return Action("attack", actor, FrozenMap(weapon="laser", target=target))


def test_a_new_game_starts_at_the_first_phase_with_the_first_side(game):
    assert game.position == TurnPosition(1, 0, 0, 0)
    assert game.sides == ("Mars", "Ares")
    assert (game.phase_name, game.phase_spec_id) == ("Logistics", "R000.16")
    assert game.side_to_act == "Mars"
    assert game.steps == () and game.step_number == 0
    assert game.state == registry.get("battlefleet-mars").setup(game.initial)


def test_choices_are_the_rule_systems_then_the_sessions(game):
    """The rule system's own first; then the session's free table moves and, where the
    system offers no pass of its own, the session's pass citing the phase's rule."""
    system = registry.get("battlefleet-mars")
    own = system.actions(game.state, game.position, "Mars")
    assert [c.kind for c in own] == ["purchase", PASS]  # Logistics: BFM's own pass (R000.16)
    choices = game.choices()
    assert choices[: len(own)] == own
    extra = choices[len(own) :]
    assert [c.kind for c in extra] == [MOVE] * len(extra)
    assert {c.actor for c in extra} == {u.id for u in game.state.units if u.side == "Mars"}
    combat = to_combat(game)
    own = system.actions(combat.state, combat.position, "Mars")
    assert PASS not in {c.kind for c in own}
    extra = combat.choices()[len(own) :]
    assert {c.actor for c in extra if c.kind == MOVE} == {
        u.id for u in combat.state.units if u.side == "Mars"
    }
    assert extra[-1].kind == PASS and extra[-1].actor == "Mars"
    assert extra[-1].spec_id == "R000.18"


def test_a_system_with_its_own_movement_gets_no_table_moves():
    """DW moves its models itself (R002.30): the session adds no free `move` of its own."""
    assert offers_table_moves(registry.get("battlefleet-mars"))
    assert not offers_table_moves(registry.get("dystopian-wars"))
    dw = Game.new(load_map(builtin_map("dystopian-wars")), SEED)
    # no pass either: the fleet rolls its Field Order first (R002.20, `pass_refused`)
    assert [c.kind for c in dw.session_choices()] == []
    for kind in ("field-order", "field-order", "initiative"):
        dw = dw.apply(Action(kind, dw.side_to_act))
    assert dw.rule_choices() == ()  # the other side has nothing to roll: only its pass
    assert [c.kind for c in dw.session_choices()] == [PASS]


def test_only_a_system_without_movement_rules_gets_free_table_moves():
    """Each registered system declares it: BFM counters move freely (it has no movement
    rules), Cortex vessels too within their Speed (no action of the seed moves them, GEO003.7;
    the play screen moves them so); the others move their models by their own
    actions."""
    offered = {
        rules_id: offers_table_moves(registry.get(rules_id)) for rules_id in registry.rule_ids()
    }
    assert offered == {
        "battlefleet-mars": True,
        "dystopian-wars": False,
        "sw-d6-capital": False,
        "cortex-space": True,
        "heavy-combat": False,
    }


def test_R000_18_alternating_phase_passes_the_go_after_each_action(game):
    game = to_combat(game)
    assert game.phase_spec_id == "R000.18" and game.side_to_act == "Mars"
    after = game.apply(laser("deimos-base", "ares-cruiser"))
    assert after.position == TurnPosition(1, 2, 1, 0)
    assert after.side_to_act == "Ares"
    step = after.last_step
    assert step.before == game.position and step.after == after.position
    assert (step.side, step.next_side) == ("Mars", "Ares")
    assert step.events and step.events == tuple(
        registry.get("battlefleet-mars")
        .apply(game.state, step.action, step_dice(SEED, step.number))
        .events
    )


def test_R000_18_the_sequence_ends_when_both_sides_pass_in_a_row(game):
    game = to_combat(game)
    once = game.pass_go()
    assert once.position == TurnPosition(1, 2, 1, 1)
    twice = once.pass_go()
    assert twice.position == TurnPosition(2, 0, 0, 0)
    assert twice.phase_name == "Logistics"


def test_R000_16_plain_phase_gives_each_side_one_go(game):
    first = game.apply(Action("purchase", "Mars"))
    assert first.position == TurnPosition(1, 0, 1, 0)
    second = first.pass_go()
    assert second.position == TurnPosition(1, 1, 0, 0)
    assert second.phase_name == "Launch"


def test_a_table_move_keeps_the_go_and_moves_the_unit(game):
    moved = game.apply(Action(MOVE, "mars-fighters", FrozenMap(path="C90 F5")))
    assert moved.position == game.position
    plan = plan_move(game.state, "mars-fighters", "C90 F5")
    assert moved.state.unit("mars-fighters").pose == plan.final
    (event,) = moved.last_step.events
    assert event.kind == "move" and event.get("distance") == 5.0
    assert moved.last_step.by_session and not moved.last_step.is_pass


def test_a_ram_is_in_the_move_events(game):
    game = game.pass_go()  # Ares' go
    rammed = game.apply(Action(MOVE, "ares-fighters", FrozenMap(path="F10")))
    kinds = [e.kind for e in rammed.last_step.events]
    assert kinds[:2] == ["move", "ram"]
    ram = rammed.last_step.events[1]
    assert (ram.get("obstacle"), ram.spec_id) == ("deimos-base", "R002.35")


def test_an_illegal_move_is_refused_with_its_rule_and_changes_nothing(game):
    before = game.state
    with pytest.raises(UserError) as error:
        game.apply(Action(MOVE, "mars-transport", FrozenMap(path="C180 F10")))
    assert error.value.spec_id == "R002.59"
    assert "mars-transport" in error.value.message
    assert game.state is before and game.steps == ()


def test_preview_move_is_plan_move(game):
    preview = game.preview_move("ares-fighters", "F10")
    assert preview == plan_move(game.state, "ares-fighters", "F10")
    assert preview.collision is not None


def test_an_action_out_of_turn_is_refused_citing_the_phase(game):
    with pytest.raises(UserError) as error:
        game.apply(laser("ares-cruiser", "deimos-base"))
    assert error.value.spec_id == "R000.16"
    assert "not offered now" in error.value.message and "Mars to act" in error.value.message
    with pytest.raises(UserError, match="not offered now"):
        game.apply(Action("dance", "deimos-base"))


def test_a_parameter_outside_the_choice_is_refused(game):
    game = to_combat(game)
    with pytest.raises(UserError, match="target: expected one of"):
        game.apply(laser("deimos-base", "mars-miner"))  # own side: not a listed target
    with pytest.raises(UserError, match="path"):
        game.apply(Action(MOVE, "mars-fighters"))  # the path is required


def test_the_rules_refusing_an_action_is_a_user_error_with_its_rule(game):
    game = to_combat(game)
    with pytest.raises(UserError) as error:
        game.apply(laser("mars-miner", "ares-miner"))  # 28" away: beyond LS 2 (R000.6)
    assert error.value.spec_id == "R000.6"


def test_defaults_of_the_choice_are_filled_in(game):
    game = to_combat(game)
    after = game.apply(Action("attack", "deimos-base", FrozenMap(target="ares-cruiser")))
    assert dict(after.last_step.action.params) == {"target": "ares-cruiser", "weapon": "laser"}
    assert after.last_step.title == "Deimos Base: laser"


def test_odds_come_from_the_rule_systems_resolver(game):
    game = to_combat(game)
    system = registry.get("battlefleet-mars")
    action = laser("deimos-base", "ares-cruiser")
    report = game.odds(action)
    assert report is not None
    assert report.as_dict() == system.action_odds(game.state, action).as_dict()
    assert game.odds(action) is report  # cached for this game value
    assert game.odds(Action("attack", "deimos-base", FrozenMap(target="ares-cruiser"))) == report
    assert game.odds(Action(PASS, "Mars")) is None
    assert game.odds(Action(MOVE, "mars-fighters", FrozenMap(path="F1"))) is None


def test_odds_fill_in_the_defaults_of_the_choice_the_declaration_fits():
    """One ship is offered a choice per weapon, each with its own fields: the odds of a
    photon torpedo take the torpedo's defaults, not the phasers' `power` (R001.5)."""
    game = Game.new(load_map(builtin_map("heavy-combat")), 0)
    for _ in range(40):
        if any(c.kind == "fire" for c in game.choices()):
            break
        actor = next((c.actor for c in game.choices() if c.kind == "roll_power"), None)
        if actor is not None:
            game = game.apply(game.declare("roll_power", actor))
        else:
            game = game.apply(game.declare("pass", game.side_to_act))
    fires = [c for c in game.choices() if c.kind == "fire"]
    actor = fires[0].actor
    torpedo = next(c for c in fires if c.actor == actor and "photon" in c.title.lower())
    assert fires[0] is not torpedo  # the phasers come first
    weapon = next(f.default for f in torpedo.fields if f.name == "weapon")
    action = Action("fire", actor, FrozenMap(weapon=weapon))
    completed, _ = game.completed(action)
    report = game.odds(action)
    assert report is not None
    assert report.as_dict() == game.system.action_odds(game.state, completed).as_dict()


def test_odds_of_an_illegal_declaration_raise_every_time(game):
    action = laser("mars-miner", "ares-miner")
    for _ in range(2):
        with pytest.raises(UserError) as error:
            game.odds(action)
        assert error.value.spec_id == "R000.6"


def test_each_step_rolls_its_own_seeded_dice(game):
    game = to_combat(game)
    after = game.apply(laser("deimos-base", "ares-cruiser"))
    step = after.last_step
    assert step.number == 5
    first = step.rolls[0]
    expected = D10Z.values[random.Random(step_seed(SEED, 5)).randrange(10)]
    assert (first.die, first.faces, first.result) == ("d10z", 10, expected)
    assert step.results == tuple(r.result for r in step.rolls)


def test_step_seeds_depend_on_seed_and_step_only():
    assert step_seed(1, 2) == step_seed(1, 2)
    seeds = {step_seed(seed, step) for seed in range(5) for step in range(1, 50)}
    assert len(seeds) == 5 * 49


def test_a_different_earlier_action_never_shifts_the_rolls_of_a_later_step(game):
    """Undo step 5 and do something else: step 6 still rolls the same dice."""
    game = to_combat(game)
    one = game.apply(laser("deimos-base", "ares-cruiser"))
    other = game.apply(
        Action("attack", "deimos-base", FrozenMap(weapon="missiles", target="ares-cruiser"))
    )
    assert len(other.last_step.rolls) > len(one.last_step.rolls)
    reply = laser("ares-catapult", "mars-fighters")
    first = one.apply(reply).last_step.rolls
    second = other.apply(reply).last_step.rolls
    assert first[0] == second[0]


def test_game_seed_must_be_a_whole_number(bfm_map):
    for bad in (-1, 1.5, "7", True):
        with pytest.raises(UserError, match="seed"):
            Game.new(bfm_map, bad)


def test_side_order_in_rule_state_decides_who_acts(bfm_map):
    ordered = Game.new(bfm_map.with_rule_state(**{SIDE_ORDER_KEY: ("Ares", "Mars")}), SEED)
    assert ordered.order == ("Ares", "Mars") and ordered.side_to_act == "Ares"
    assert ordered.pass_go().side_to_act == "Mars"
    partial = Game.new(bfm_map.with_rule_state(**{SIDE_ORDER_KEY: ("Ares",)}), SEED)
    assert partial.order == ("Mars", "Ares")


def test_sides_stay_fixed_when_a_side_loses_every_unit(bfm_map):
    game = Game.new(bfm_map, SEED)
    gone = game.state
    for unit in [u for u in gone.units if u.side == "Ares"]:
        gone = gone.without_unit(unit.id)
    emptied = Game(game.initial, SEED, gone, TurnPosition(1, 0, 1, 0), game.sides)
    assert emptied.side_to_act == "Ares"
    assert [c.kind for c in emptied.choices()] == [PASS]


def test_no_units_no_game(bfm_map):
    from dataclasses import replace

    with pytest.raises(UserError, match="no units"):
        Game.new(replace(bfm_map, units=()), SEED)


def test_the_stand_in_fills_open_fields_from_their_choices(game):
    from tactical.session.autoplay import candidate_params, next_game

    game = to_combat(game)
    laser_choice = next(c for c in game.rule_choices() if c.title == "Deimos Base: laser")
    tried = list(candidate_params(laser_choice))
    targets = next(f for f in laser_choice.fields if f.name == "target").choices
    assert [p["target"] for p in tried] == list(targets)
    assert all(p["weapon"] == "laser" for p in tried)
    after = next_game(game)
    assert after.last_step.action.kind == "attack" and after.last_step.action.actor == "deimos-base"
    # the first target in reach, not merely the first listed (R000.6)
    system = registry.get("battlefleet-mars")
    for earlier in targets[: targets.index(after.last_step.action.params["target"])]:
        with pytest.raises(UserError):
            system.action_odds(game.state, laser("deimos-base", earlier))


def test_the_stand_in_passes_when_nothing_applies(bfm_map):
    from tactical.session.autoplay import next_game

    lone = bfm_map
    for unit in [u for u in bfm_map.units if u.id not in ("mars-miner", "ares-miner")]:
        lone = lone.without_unit(unit.id)
    # the miner's laser (LS 2) reaches nobody (R000.6)
    game = to_combat(Game.new(lone, SEED))
    after = next_game(game)
    assert after.last_step.action == Action(PASS, "Mars") and after.last_step.is_pass


def test_a_table_move_passes_its_activation_to_the_turning_rules(game):
    """`activation` reaches the rule system as options["activation"] (session.movement)."""
    action = Action(MOVE, "mars-fighters", FrozenMap(path="F2", activation={"speed": "high"}))
    moved = game.apply(action)
    assert moved.last_step.action.params["activation"] == {"speed": "high"}
    with pytest.raises(UserError, match="activation: expected a table"):
        game.apply(Action(MOVE, "mars-fighters", FrozenMap(path="F2", activation=3)))
