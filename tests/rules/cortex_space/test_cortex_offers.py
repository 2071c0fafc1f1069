"""Cortex offers only what applies: every choice `actions` lists, `apply` accepts.

The scenario is played by the session's stand-in for two turns; at every go each offered
choice is applied with its defaults and first listed choices, and again with each value
listed for each of its fields. Then the cases that used to be offered and refused, one
by one.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cortex_builders import BATTLESTAR, RAIDER, VIPER, table, unit, with_stats
from offers import refusals_over_two_turns

from tactical.dice import ScriptedDice, SeededDice
from tactical.errors import UserError
from tactical.io import load_map
from tactical.model import FrozenMap, SizeClass, Terrain
from tactical.rules.base import Action, ActionChoice, TurnPosition
from tactical.rules.cortex_space import RULE_SYSTEM, tracker
from tactical.session.game import Game

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "maps" / "cortex-space.toml"
ACTIONS = TurnPosition(1, 1, 0, 0)
CREW_A = [
    {"station": "co", "name": "Adama", "attribute": "d10", "skill": "d8"},
    {"station": "pilot", "name": "Hoshi", "skill": "d8"},
    {"station": "tactical", "name": "Gaeta", "skill": "d10"},
]


def test_every_offered_choice_applies_over_two_stand_in_turns():
    game = Game.new(load_map(MAP), 20260611)
    refused, applied, _ = refusals_over_two_turns(game)
    assert refused == []
    assert applied > 500


def offered(state, side: str, kind: str, actor: str | None = None) -> list[ActionChoice]:
    return [
        c
        for c in RULE_SYSTEM.actions(state, ACTIONS, side)
        if c.kind == kind and (actor is None or c.actor == actor)
    ]


def field(choice: ActionChoice, name: str):
    return next(f for f in choice.fields if f.name == name)


def act(state, kind: str, actor: str, **params):
    return RULE_SYSTEM.apply(state, Action(kind, actor, FrozenMap(params)), SeededDice(2))


def test_R003_11_a_vessel_wrecked_by_one_acting_with_it_may_only_end():
    """Both act at once (A003.6) so it keeps its place, but out of action it can do
    nothing but end its activation (or its side's pass, which ends it): no lock for a
    disabled Raider."""
    state = table(
        unit("viper", 10, 10, "A", **VIPER),
        unit("raider", 18, 10, "B", **with_stats(RAIDER, stun=8, wound=6)),
    )
    state = tracker.put(state, tracker.INITIATIVE, "viper", 9)
    state = tracker.put(state, tracker.INITIATIVE, "raider", 9)
    state = tracker.put(state, tracker.WRECKED, "raider", 9)
    assert [c.kind for c in RULE_SYSTEM.actions(state, ACTIONS, "B")] == ["end", "pass"]
    with pytest.raises(UserError) as error:
        act(state, "lock-missile", "raider", weapon="missiles", target="viper")
    assert error.value.spec_id == "R003.7"
    assert act(state, "end", "raider").summary == "ended"


def test_R003_29_a_launcher_out_of_action_locks_nothing():
    weapons = [dict(w) for w in RAIDER["weapons"]]
    weapons[1]["disabled"] = 1
    state = table(
        unit("raider", 10, 10, "B", **with_stats(RAIDER, weapons=weapons)),
        unit("viper", 30, 10, "A", **VIPER),
    )
    assert offered(state, "B", "lock-missile") == []
    with pytest.raises(UserError) as error:
        act(state, "lock-missile", "raider", weapon="missiles", target="viper")
    assert error.value.spec_id == "R003.29"
    intact = table(unit("raider", 10, 10, "B", **RAIDER), unit("viper", 30, 10, "A", **VIPER))
    assert [c.actor for c in offered(intact, "B", "lock-missile")] == ["raider"]


def test_R003_38_a_lock_without_a_missile_left_is_not_fired():
    weapons = [dict(w) for w in RAIDER["weapons"]]
    weapons[1]["missiles"] = 0
    state = table(
        unit("raider", 10, 10, "B", **with_stats(RAIDER, weapons=weapons)),
        unit("viper", 30, 10, "A", **VIPER),
    )
    state = state.with_rule_state(**{tracker.LOCKS: (("raider", "missiles", "viper"),)})
    assert offered(state, "B", "fire-missile") == []
    with pytest.raises(UserError) as error:
        act(state, "fire-missile", "raider", weapon="missiles", target="viper")
    assert error.value.spec_id == "R003.38"


def test_R003_30_no_joining_a_disabled_fighter():
    state = table(
        unit("apollo", 10, 10, "A", **VIPER),
        unit("starbuck", 10.5, 10, "A", **with_stats(VIPER, stun=10, wound=4)),
        unit("raider", 60, 40, "B", **RAIDER),
    )
    assert offered(state, "A", "join-wing", "apollo") == []
    with pytest.raises(UserError) as error:
        act(state, "join-wing", "apollo", wing="starbuck")
    assert error.value.spec_id == "R003.7"
    healthy = table(
        unit("apollo", 10, 10, "A", **VIPER),
        unit("starbuck", 10.5, 10, "A", **VIPER),
        unit("raider", 60, 40, "B", **RAIDER),
    )
    (join,) = offered(healthy, "A", "join-wing", "apollo")
    assert field(join, "wing").choices == ("starbuck",)


def test_R003_67_only_a_vessel_in_action_spots_for_a_bombardment():
    city = Terrain(
        "city", "large-city", SizeClass.LARGE, polygon=((40, 0), (44, 0), (44, 4), (40, 4))
    )
    state = table(
        unit("basestar", 40, 20, "B", **BATTLESTAR),
        unit("raider-1", 30, 10, "B", **with_stats(RAIDER, wound=14)),
        unit("raider-2", 32, 10, "B", **RAIDER),
        unit("viper", 60, 40, "A", **VIPER),
        terrain=(city,),
    )
    (bombard,) = offered(state, "B", "bombard", "basestar")
    assert field(bombard, "spotter").choices == ("", "raider-2")
    with pytest.raises(UserError) as error:
        act(state, "bombard", "basestar", weapon="railguns", target="city", spotter="raider-1")
    assert error.value.spec_id == "R003.7"


def crewed(variant: str = "A"):
    ship = with_stats(BATTLESTAR, agility="d6", crew=CREW_A)
    return table(
        unit("galactica", 10, 24, "A", **ship),
        unit("raider", 30, 24, "B", **RAIDER),
        crew_variant=variant,
    )


def test_R003_47_no_agility_defense_after_an_offensive_manoeuvre():
    state = crewed()
    assert offered(state, "A", "agility-defense")
    state = tracker.put(state, tracker.FULL_TURN, "galactica", "offensive-manoeuvre")
    assert offered(state, "A", "agility-defense") == []
    with pytest.raises(UserError) as error:
        act(state, "agility-defense", "galactica")
    assert error.value.spec_id == "R003.47"


def test_R003_47_a_full_turn_manoeuvre_only_for_a_pilot_yet_to_act():
    state = crewed()
    assert offered(state, "A", "evasive-manoeuvre") and offered(state, "A", "offensive-manoeuvre")
    acted = tracker.count_action(state, tracker.character_key("galactica", "Hoshi"))
    assert offered(acted, "A", "evasive-manoeuvre") == []
    assert offered(acted, "A", "offensive-manoeuvre") == []
    for kind in ("evasive-manoeuvre", "offensive-manoeuvre"):
        with pytest.raises(UserError) as error:
            act(acted, kind, "galactica")
        assert error.value.spec_id == "R003.47"
    # variant B's evasive manoeuvre is a helm roll, not a full turn (R003.54)
    assert offered(tracker.count_action(crewed("B"), "galactica/Hoshi"), "A", "evasive-manoeuvre")


def test_R003_32_a_wing_fires_as_one_fighter_without_the_wing_rules():
    wing = with_stats(VIPER, members=[{"id": "apollo"}, {"id": "starbuck"}])
    state = table(
        unit("wing", 10, 10, "A", **wing),
        unit("raider", 14, 10, "B", **RAIDER),
        fighter_wings=False,
    )
    (attack,) = offered(state, "A", "attack", "wing")
    fighters = field(attack, "fighters")
    assert (fighters.high, fighters.default) == (1, 1)
    fired = act(state, "attack", "wing", weapon="autocannons", target="raider", fighters=1)
    assert fired.events
    with pytest.raises(UserError) as error:
        act(state, "attack", "wing", weapon="autocannons", target="raider", fighters=2)
    assert error.value.spec_id == "R003.30"


def test_R003_38_two_locks_and_one_missile_offer_one_shot():
    """Locks on two Vipers with one missile aboard: after the first shot the other lock
    stays, but nothing is left to fire at it."""
    weapons = [dict(w) for w in RAIDER["weapons"]]
    weapons[1]["missiles"] = 1
    state = table(
        unit("raider", 10, 10, "B", **with_stats(RAIDER, weapons=weapons)),
        unit("v1", 24, 10, "A", **VIPER),
        unit("v2", 24, 14, "A", **VIPER),
    )
    dice = ScriptedDice([12] * 40)
    for target in ("v1", "v2"):
        (lock,) = offered(state, "B", "lock-missile")
        assert field(lock, "target").default == target
        action = Action("lock-missile", "raider", FrozenMap(weapon="missiles", target=target))
        state = RULE_SYSTEM.apply(state, action, dice).state
    assert [field(c, "target").default for c in offered(state, "B", "fire-missile")] == [
        "v1",
        "v2",
    ]
    # the title names the target as a player reads it, not by its id
    named = state.replace_unit(replace(state.unit("v1"), name="Viper (Apollo)"))
    shot = next(c for c in offered(named, "B", "fire-missile") if "v1" in str(c.fields))
    assert shot.title.endswith(": at Viper (Apollo), fire missiles")
    state = act(state, "fire-missile", "raider", weapon="missiles", target="v1").state
    assert ("raider", "missiles", "v2") in tracker.get(state, tracker.LOCKS)
    assert offered(state, "B", "fire-missile") == []


def test_R003_11_a_pass_ends_the_group_acting_not_the_phase_before_later_vessels_act():
    """Vessels act in order of their results (R003.11): the side waiting for an enemy
    vessel has only a pass to make, so the acting side's pass ends its vessels' activation
    and the turn goes on to the next group; two session passes in a row ended the Actions
    phase there, and the Raider later in the order never acted."""
    state = table(unit("viper", 10, 10, "A", **VIPER), unit("raider", 18, 10, "B", **RAIDER))
    state = tracker.put(state, tracker.INITIATIVE, "viper", 12)
    state = tracker.put(state, tracker.INITIATIVE, "raider", 5)
    game = Game(state, 1, state, TurnPosition(1, 1, 1, 0), ("A", "B"), ())
    assert not game.rule_choices()  # B waits for the Viper: the session's pass (or a move)
    game = game.pass_go()
    passing = [c for c in game.rule_choices() if c.kind == "pass"]
    assert [(c.actor, c.title) for c in passing] == [("A", "Pass: end the activation of viper")]
    game = game.pass_go()
    assert (game.turn, game.position.phase, game.side_to_act) == (1, 1, "B")
    assert tracker.is_done(game.state, "viper")
    assert "attack" in {c.kind for c in game.rule_choices() if c.actor == "raider"}
    # once every vessel has ended its activation, two passes end the phase as before
    game = game.pass_go()
    assert not game.rule_choices() or all(c.kind != "pass" for c in game.rule_choices())
    game = game.pass_go().pass_go()
    assert (game.turn, game.position.phase) == (2, 0)
