"""Readings revised or fixed (SPEC 0.4): a to-hit roll must beat its Difficulty while every
other roll meets it (R004.5, A004.5), and every captain rolls Initiative each turn (R004.10,
R004.11). Each keeps the reading it replaced reachable through its option's `before` value,
so games recorded before the change replay as they were played."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from swd6_builders import ISD, NOWHERE, SYSTEM, condition, duel, faces_for, ship, table
from swd6_builders import with_condition as changed

from tactical.cli import main
from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.io import load_map
from tactical.io.maps import map_document
from tactical.io.saves import loads_save, save_document
from tactical.model import Circle, FrozenMap, GameState, SizeClass, Terrain
from tactical.rules.base import Action
from tactical.rules.schema import earlier_readings
from tactical.rules.sw_d6_capital import ledger
from tactical.rules.sw_d6_capital.condition import Effect
from tactical.rules.sw_d6_capital.options import OPTION_FIELDS, tie_succeeds
from tactical.session.game import Game
from tactical.session.saving import history_from_saved, saved_game

MAP = Path(__file__).resolve().parents[3] / "maps" / "sw-d6-capital.toml"

NEW = {}  # the defaults: the readings as the SPEC now has them
OLD = earlier_readings(OPTION_FIELDS, {})  # a game recorded before the revision
STRICT_EVERYWHERE = {"meet_or_beat": False, "meet_or_beat_scope": "every-roll"}


def _with_options(state: GameState, **options) -> GameState:
    return replace(state, options=FrozenMap({**state.options, **options}))


# --------------------------------------------------------------------------- R004.5, A004.5


def test_A004_5_options_before_the_revision():
    """A game recorded before the revision names none of these keys: it replays with ties
    succeeding on every roll and a pass allowed before the Initiative roll."""
    assert OLD == {
        "meet_or_beat": True,
        "meet_or_beat_scope": "every-roll",
        "initiative_pass": True,
        "command_pass": True,
    }
    assert SYSTEM.options({})["meet_or_beat"] is False
    assert SYSTEM.options({})["meet_or_beat_scope"] == "to-hit"
    assert SYSTEM.options({})["initiative_pass"] is False
    # an old map that chose the strict reading kept it for every roll
    assert earlier_readings(OPTION_FIELDS, {"meet_or_beat": False}) == {
        **STRICT_EVERYWHERE,
        "initiative_pass": True,
        "command_pass": True,
    }
    problem = SYSTEM.check_options({"meet_or_beat_scope": "gunnery"})[0]
    assert problem.spec_id == "A004.5" and "'to-hit', 'every-roll'" in problem.expected


def settings(**options):
    return SYSTEM.options(options)


def test_R004_5_which_rolls_a_tie_wins():
    assert not tie_succeeds(settings(), to_hit=True)
    assert tie_succeeds(settings(), to_hit=False)
    assert tie_succeeds(settings(meet_or_beat=True), to_hit=True)
    assert tie_succeeds(settings(**OLD), to_hit=True)
    assert tie_succeeds(settings(**OLD), to_hit=False)
    assert not tie_succeeds(settings(**STRICT_EVERYWHERE), to_hit=False)
    assert tie_succeeds(settings(meet_or_beat=False, meet_or_beat_scope="to-hit"), to_hit=False)


def _6d_over(difficulty: int, tie: bool) -> Fraction:
    rolls = [sum(faces) for faces in itertools.product(range(1, 7), repeat=6)]
    return Fraction(sum(1 for r in rolls if r > difficulty or (tie and r == difficulty)), 6**6)


def test_R004_5_quad_turbolasers_must_beat_20_on_the_scenario_map(capsys):
    """`tactical odds maps/sw-d6-capital.toml nowhere "Quad Turbolasers" raider`: 6D against
    20 hits on 21 or more, 4249/7776; before the revision (a tie hits) 9905/15552."""
    code = main(["odds", str(MAP), "nowhere", "Quad Turbolasers", "raider", "--json"])
    assert code == 0
    facts = json.loads(capsys.readouterr().out)["facts"]
    assert (facts["gunnery"], facts["difficulty"]) == ("6D", 20)
    assert Fraction(facts["hit_probability"]) == Fraction(4249, 7776) == _6d_over(20, tie=False)
    state = load_map(MAP)
    for options, expected in ((OLD, Fraction(9905, 15552)), (NEW, Fraction(4249, 7776))):
        played = SYSTEM.setup(_with_options(state, **options))
        attack = SYSTEM.declare_attack(played, "nowhere", "Quad Turbolasers", "raider")
        report = SYSTEM.attack_odds(played, attack)
        assert Fraction(report.facts["hit_probability"]) == expected
        assert 1 - report.section("result").distribution.probability("miss") == expected
    assert Fraction(9905, 15552) == _6d_over(20, tie=True)


def test_R004_5_a_gunnery_roll_on_the_difficulty_misses():
    """ISD turbolasers 8D against 15 at medium range: a roll of exactly 15 misses now, and
    hit before the revision (or with meet_or_beat)."""
    exact = [2, 2, 2, 2, 2, 2, 2, 1]
    results = {}
    for name, options in (("new", NEW), ("old", OLD), ("meet", {"meet_or_beat": True})):
        state = duel(ISD, NOWHERE, 20, **options)
        action = Action("attack", "a", FrozenMap(weapon="front-turbolasers", target="t"))
        dice = exact if name == "new" else exact + [1] * 11
        resolution = SYSTEM.apply(state, action, ScriptedDice(dice))
        hit = next(e for e in resolution.events if e.kind == "to-hit")
        assert (hit.get("roll"), hit.get("difficulty")) == (15, 15)
        results[name] = resolution.summary.result
    assert results == {"new": "miss", "old": "no-effect", "meet": "no-effect"}


def _damage_control(**options):
    """The ISD Lightly Damaged: CSO 5D+1 - 1D = 4D+1 against 10, rolling exactly 10."""
    state = duel({**ISD, "damage": "light"}, NOWHERE, 20, **options)
    action = Action("damage-control", "a")
    odds = SYSTEM.action_odds(state, action).section("outcome").distribution
    done = SYSTEM.apply(state, action, ScriptedDice(faces_for(9, 4)))
    roll = next(e for e in done.events if e.kind == "roll")
    assert (roll.get("code"), roll.get("total")) == ("4D+1", 10)
    return done.summary, condition(done.state, "a").level, odds


def test_A004_5_damage_control_succeeds_on_its_difficulty_whatever_meet_or_beat_says():
    """R004.23 "roll 30+": a Damage Control roll equal to its Difficulty repairs, even with
    meet_or_beat false; before the revision that option judged this roll too."""
    new = _damage_control(meet_or_beat=False)
    assert new[:2] == ("repaired", "none")
    assert _damage_control()[:2] == ("repaired", "none")
    old = _damage_control(**STRICT_EVERYWHERE)
    assert old[:2] == ("one-step", "none")
    assert _damage_control(**OLD)[:2] == ("repaired", "none")
    # the odds come from the same resolver: a tie's share moves from one-step to repaired
    tie = new[2].probability("repaired") - old[2].probability("repaired")
    assert tie == old[2].probability("one-step") - new[2].probability("one-step") > 0


def test_A004_5_repairs_and_piloting_succeed_on_their_difficulty():
    """The astromech's and the reactor shutdown's Easy repair rolls (R004.53, T004.9), a
    fighter's Shields roll (A004.36) and a Piloting check (R004.50, GEO004.7) are not to-hit
    rolls: a tie succeeds, save under the old every-roll scope with meet_or_beat false."""
    outcomes = {}
    for name, options in (("new", {"meet_or_beat": False}), ("old", STRICT_EVERYWHERE)):
        fighter = {
            "scale": "starfighter",
            "shields": "1D",
            "shields_skill": "2D",
            "astromech": "2D",
            "weapons": [{"name": "Lasers"}],
        }
        damaged = duel({**fighter, "damage": "light"}, NOWHERE, 20, **options)
        damaged = changed(damaged, "a", light_results=1)
        # the astromech's 2D and the Shields skill's 2D against Easy (10)
        astromech = SYSTEM.apply(damaged, Action("astromech", "a"), ScriptedDice([5, 5]))
        arcs = FrozenMap(front="1D", right="0D", rear="0D", left="0D")
        state = duel(fighter, NOWHERE, 20, **options)
        shields = SYSTEM.apply(state, Action("angle-shields", "a", arcs), ScriptedDice([5, 5]))
        severe = duel({**ISD, "damage": "severe"}, NOWHERE, 20, **options)
        severe = changed(
            severe, "a", reactor_countdown=2, effects=(Effect("overloaded-reactor", "severe"),)
        )
        # CSO 5D+1 - 3D = 2D+1 against Easy (10)
        shutdown = SYSTEM.apply(severe, Action("reactor-shutdown", "a"), ScriptedDice([5, 4]))
        outcomes[name] = (
            astromech.summary,
            condition(shields.state, "a").shield_arcs,
            shutdown.summary,
            _piloting(options),
        )
    assert outcomes == {
        "new": (True, (3, 0, 0, 0), True, "moved"),
        "old": (False, (1, 1, 1, 0), False, "halted"),
    }


def _piloting(options) -> str:
    """The ISD (CSO 5D+1) through rocks at Difficulty 15, rolling exactly 15."""
    rocks = Terrain("rocks", "dense", SizeClass.LARGE, circle=Circle(30, 14, 1))
    state = SYSTEM.setup(
        table(ship("isd", 30, 10, "A", 0, **ISD), ship("enemy", 60, 40, "B", 180, **NOWHERE))
    )
    state = _with_options(state, **options).with_terrain((rocks,))
    state = state.with_rule_state(
        turn=1, initiative={"order": ("enemy", "isd"), "winner": "enemy", "masterstroke": False}
    )
    moved = SYSTEM.apply(state, Action("move", "isd"), ScriptedDice(faces_for(14, 5)))
    check = next(e for e in moved.events if e.kind == "piloting")
    assert (check.get("roll"), check.get("difficulty")) == (15, 15)
    return moved.summary


# --------------------------------------------------------------------------- R004.10, R004.11


def _game(**options) -> Game:
    return Game.new(_with_options(load_map(MAP), **options), 1)


def _kinds(game: Game) -> list[str]:
    return [choice.kind for choice in game.choices()]


def test_R004_11_no_side_passes_before_every_captain_rolls_initiative():
    game = _game()
    assert (game.turn, game.phase_name) == (1, "Initiative")
    assert _kinds(game) == ["initiative"]
    assert [c.title for c in game.choices()] == ["Turn 1: every captain rolls Initiative"]
    refusal = game.pass_refusal()
    assert refusal.spec_id == "R004.11"
    assert refusal.reason == "every captain rolls Initiative at the start of each turn"
    with pytest.raises(UserError) as error:
        game.pass_go()
    assert error.value.spec_id == "R004.11"
    assert "Rebels cannot pass now: every captain rolls Initiative" in str(error.value)
    rolled = game.apply(game.declare("initiative", game.side_to_act))
    assert ledger.turn_of(rolled.state) == 1 and rolled.pass_refusal() is None
    assert "pass" in _kinds(rolled)


def test_R004_10_each_turn_begins_with_the_initiative_roll():
    """Passing everything after the roll, turn 2's Initiative phase again offers only the
    roll, and the Command phase never offers it (the Command phase's own rolls and orders
    are left out here: `command_pass`)."""
    game = _game(command_pass=True)
    game = game.apply(game.declare("initiative", game.side_to_act))
    seen = set()
    for _ in range(60):
        if game.turn == 2:
            break
        seen.add((game.phase_name, tuple(_kinds(game))))
        game = game.pass_go()
    assert game.turn == 2 and game.phase_name == "Initiative"
    assert not any("initiative" in kinds for _, kinds in seen)
    assert _kinds(game) == ["initiative"] and game.pass_refusal().spec_id == "R004.11"
    rolled = game.apply(game.declare("initiative", game.side_to_act))
    assert ledger.turn_of(rolled.state) == 2


def test_R004_11_games_recorded_before_the_fix_may_still_pass_the_roll():
    """initiative_pass true (the before value): the sides may pass the Initiative phase, and
    the roll is then offered in the Command phase, as such games were played."""
    game = _game(initiative_pass=True)
    assert game.pass_refusal() is None and _kinds(game) == ["initiative", "pass"]
    game = game.pass_go().pass_go()
    assert game.phase_name == "Command" and ledger.turn_of(game.state) == 0
    assert _kinds(game) == ["initiative", "pass"]
    rolled = game.apply(game.declare("initiative", game.side_to_act))
    assert ledger.turn_of(rolled.state) == 1
    old = _game(**OLD)
    assert old.pass_refusal() is None and "pass" in _kinds(old)


def _to_command_phase(**options) -> Game:
    game = _game(**options)
    game = game.apply(game.declare("initiative", game.side_to_act))
    while game.phase_name != "Command":
        game = _first_choice_or_pass(game)
    return game


def test_R004_15_R004_17_no_side_passes_command_before_its_rolls_and_orders():
    """Every captain makes a Command roll and gives orders: while a side has either open to
    it, its pass is refused with the rule; once its captains are done, it may pass."""
    game = _to_command_phase()
    side = game.side_to_act
    assert "command" in _kinds(game)
    refusal = game.pass_refusal()
    assert (refusal.spec_id, refusal.reason) == (
        "R004.15",
        "every captain makes a Command roll and gives orders for the turn",
    )
    with pytest.raises(UserError) as error:
        game.pass_go()
    assert error.value.spec_id == "R004.15"
    for _ in range(40):
        if game.phase_name != "Command":
            break
        kinds = _kinds(game)
        if kinds == ["pass"] or game.pass_refusal() is None:
            assert not {"command", "orders"} & set(kinds)
            game = game.pass_go()
            continue
        if "command" not in kinds:  # only orders left: the refusal names R004.17
            assert game.pass_refusal().spec_id == "R004.17"
            assert game.pass_refusal().reason == "every captain gives orders for the turn"
        game = _first_choice_or_pass(game)
    assert game.phase_name != "Command"
    # every captain of the side rolled Command and gave orders before the phase ended
    rolled = [u.id for u in game.state.units if ledger.condition(game.state, u.id).command_rolled]
    ordered = [
        u.id for u in game.state.units if ledger.condition(game.state, u.id).order is not None
    ]
    assert rolled and ordered
    assert [u for u in rolled if game.state.unit(u).side == side]


def test_R004_15_games_recorded_before_the_fix_may_pass_the_command_phase():
    game = _to_command_phase(command_pass=True)
    assert "command" in _kinds(game) and game.pass_refusal() is None
    passed = game.pass_go()
    assert passed.step_number == game.step_number + 1
    assert _to_command_phase(**OLD).pass_refusal() is None


def _first_choice_or_pass(game: Game) -> Game:
    for choice in game.choices():
        if choice.kind == "pass":
            continue
        params = {f.name: f.default for f in choice.fields if f.default is not None}
        try:
            return game.apply(game.declare(choice.kind, choice.actor, **params))
        except UserError:
            continue
    return game.pass_go()


def test_R004_11_A004_5_a_save_from_before_the_change_replays_as_it_was_played():
    """A version 1 save of the scenario as it was (the map set meet_or_beat true; no scope,
    no initiative_pass): both sides passed the Initiative phase and rolled it in Command.
    Loading fills the missing options with their before values, so every step applies and
    rolls what it rolled; today's defaults refuse its first pass."""
    before = _with_options(load_map(MAP), meet_or_beat=True)
    game = Game.new(_with_options(before, **OLD), 9)
    game = game.pass_go().pass_go()
    assert game.phase_name == "Command" and _kinds(game)[0] == "initiative"
    while game.turn < 2:
        game = _first_choice_or_pass(game)
    kinds = [step.action.kind for step in game.steps]
    assert kinds[:3] == ["pass", "pass", "initiative"] and "attack" in kinds
    document = save_document(saved_game(game))
    document.update(version=1, map=map_document(before))
    del document["defaults"]
    document.pop("digest", None)  # a version 1 save recorded no digest
    loaded = loads_save(json.dumps(document))
    assert dict(loaded.initial.options) == dict(game.initial.options)
    replayed = history_from_saved(loaded).game
    assert [s.results for s in replayed.steps] == [s.results for s in game.steps]
    assert replayed.state == game.state
    with pytest.raises(UserError) as error:
        Game.new(load_map(MAP), 9).pass_go()
    assert error.value.spec_id == "R004.11"
