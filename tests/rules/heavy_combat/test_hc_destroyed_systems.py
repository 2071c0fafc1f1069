"""R001.38 / A001.27: a damage-chart category whose boxes are all destroyed stops its systems.

Phasers / Photons (T001.5): no phasers, no photons; Armor / Cloak / Disruptors / Photons
(T001.6): no disruptors, no photons, no cloak (a cloaked ship decloaks at the end of the
turn); Fire Control / Bridge: every attack by the direction procedure of R001.32;
Batteries: no effect. A repaired box brings the category back. Option `system_failure`
(default "last-box", "first-box", and "off", the reading before R001.38, with which a game
recorded without the option replays).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hc_builders import HC, act, duel, events_of, ship_state, with_ship

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.heavy_combat import RULE_SYSTEM
from tactical.rules.heavy_combat.ships import OPTION_FIELDS
from tactical.rules.schema import earlier_readings
from tactical.session.adjust import set_status
from tactical.session.autoplay import next_game
from tactical.session.game import Game

KLINGON = {"race": "klingon", "disruptors": True, "cloak": True, "photon_launchers": 1}
WEAPONS_GONE = (0, 0, 4, 0, 0, 0)  # every box of the chart's third row (4 of 4)
BRIDGE_GONE = (4, 0, 0, 0, 0, 0)
FIRE = TurnPosition(1, 3, 0, 0)  # Target selection / fire, side A to act


def powered(state, a=(6, 6), b=(6, 6)):
    state = act(state, "roll_power", "a", list(a)).state
    return act(state, "roll_power", "b", list(b)).state


def refusal(state, kind, actor, **params) -> UserError:
    with pytest.raises(UserError) as error:
        act(state, kind, actor, **params)
    return error.value


def fire_now(state, weapon, dice, **params):
    attack = HC.declare_attack(state, "a", weapon, "b", params)
    return HC.resolve_attack(state, attack, ScriptedDice(dice))


# --------------------------------------------------------------------------- the option


def test_A001_27_the_option_defaults_to_last_box_and_old_games_replay_with_off():
    field = next(f for f in OPTION_FIELDS if f.name == "system_failure")
    assert (field.default, field.before, field.choices) == (
        "last-box",
        "off",
        ("last-box", "first-box", "off"),
    )
    assert RULE_SYSTEM.options({})["system_failure"] == "last-box"
    assert earlier_readings(OPTION_FIELDS, {})["system_failure"] == "off"
    assert earlier_readings(OPTION_FIELDS, {"system_failure": "first-box"}) == {
        "system_failure": "first-box"
    }
    problems = RULE_SYSTEM.check_options({"system_failure": "never"})
    assert [(p.key, p.spec_id) for p in problems] == [("system_failure", "A001.27")]


# --------------------------------------------------------------------------- Phasers / Photons


def test_R001_38_phasers_photons_destroyed_stops_phasers_and_photons():
    state = with_ship(powered(duel(distance=30.0)), "a", destroyed=WEAPONS_GONE)
    for weapon, words in (("phasers", "phasers"), ("photon-1", "photon torpedoes")):
        error = refusal(state, "fire", "a", weapon=weapon, target="b", power=1)
        assert error.spec_id == "R001.38"
        assert error.message == (
            f"'a' cannot fire {words}: every Phasers / Photons box is destroyed"
        )
        with pytest.raises(UserError) as odds:  # the odds ask the same check
            HC.declare_attack(state, "a", weapon, "b", {})
        assert odds.value.spec_id == "R001.38"
    romulan = {"race": "romulan", "phasers": False, "romulan_disruptors": True}
    state = with_ship(powered(duel(romulan, distance=18.0)), "a", destroyed=WEAPONS_GONE)
    error = refusal(state, "fire", "a", weapon="romulan-disruptors", target="b", power=1)
    assert (error.spec_id, error.message) == (
        "R001.38",
        "'a' cannot fire Romulan disruptors: every Phasers / Photons box is destroyed",
    )


def test_R001_38_a_category_with_a_box_left_still_works_unless_first_box():
    """A001.27: "last-box" needs every box gone; "first-box" stops it at the first."""
    three = (0, 0, 3, 0, 0, 0)
    state = with_ship(powered(duel(distance=18.0)), "a", destroyed=three)
    declared = act(state, "fire", "a", weapon="phasers", target="b", power=2)
    assert ship_state(declared.state, "a").spent == 2
    first = with_ship(
        powered(duel(distance=18.0, system_failure="first-box")), "a", destroyed=(0, 0, 1, 0, 0, 0)
    )
    error = refusal(first, "fire", "a", weapon="phasers", target="b", power=2)
    assert (error.spec_id, error.message) == (
        "R001.38",
        "'a' cannot fire phasers: a Phasers / Photons box is destroyed",
    )


def test_R001_38_the_option_off_plays_the_old_reading_the_default_the_new_one():
    """The same declarations and dice: with `system_failure = "off"` (what an old save
    replays with) the phasers of a ship without its Phasers / Photons row still fire and
    hit for 4; under the default the declaration is refused."""
    old = with_ship(powered(duel(distance=18.0, system_failure="off")), "a", destroyed=WEAPONS_GONE)
    old = act(old, "fire", "a", weapon="phasers", target="b", power=2).state
    result = act(old, "resolve", "A")
    assert result.summary.damage == (("a", 0, 0), ("b", 4, 0))
    new = with_ship(powered(duel(distance=18.0)), "a", destroyed=WEAPONS_GONE)
    assert refusal(new, "fire", "a", weapon="phasers", target="b", power=2).spec_id == "R001.38"
    assert act(new, "resolve", "A").summary.damage == (("a", 0, 0), ("b", 0, 0))


def test_R001_38_a_stopped_weapon_is_not_offered_and_shows_greyed_with_its_reason():
    state = with_ship(powered(duel(distance=18.0)), "a", destroyed=WEAPONS_GONE)
    offered = {c.title for c in HC.actions(state, FIRE, "A")}
    assert "phasers: fire from a" not in offered and "photon-1: fire from a" not in offered
    assert "flash-detect the cloaked enemy (10 points): a" not in offered  # not cloaked
    refused = {u.title: (u.reason, u.spec_id) for u in HC.unavailable(state, FIRE, "A")}
    assert refused["phasers: fire from a"] == (
        "a cannot fire phasers: every Phasers / Photons box is destroyed",
        "R001.38",
    )
    assert refused["photon-2: fire from a"] == (
        "a cannot fire photon torpedoes: every Phasers / Photons box is destroyed",
        "R001.38",
    )
    before = with_ship(
        powered(duel(distance=18.0, system_failure="off")), "a", destroyed=WEAPONS_GONE
    )
    assert "phasers: fire from a" in {c.title for c in HC.actions(before, FIRE, "A")}


def test_R001_38_the_refusal_names_the_ship_on_the_built_in_map():
    game = Game.new(load_map(builtin_map("heavy-combat")), 1)
    game = game.apply(set_status("enterprise", {"weapons": 0}))  # adjust mode
    while game.phase_name != "Target selection / fire":
        game = next_game(game)
    refused = {
        r.title: (r.reason, r.spec_id)
        for r in game.system.unavailable(game.state, game.position, "Federation")
    }
    assert refused["phasers: fire from USS Enterprise (Fed CA)"] == (
        "USS Enterprise (Fed CA) cannot fire phasers: every Phasers / Photons box is destroyed",
        "R001.38",
    )


def test_R001_38_the_card_shows_the_weapons_out_of_action():
    state = with_ship(duel(distance=18.0), "a", destroyed=WEAPONS_GONE)
    status = HC.unit_status(state, state.unit("a"))
    assert "weapons down" in status.marks
    assert [w.shots for w in status.weapons] == [
        "out of action",
        "20 torpedoes, out of action",
        "20 torpedoes, out of action",
    ]
    off = with_ship(duel(distance=18.0, system_failure="off"), "a", destroyed=WEAPONS_GONE)
    status = HC.unit_status(off, off.unit("a"))
    assert "weapons down" not in status.marks
    assert [w.shots for w in status.weapons] == ["", "20 torpedoes", "20 torpedoes"]


# --------------------------------------------------------------------------- Klingon row


def test_R001_38_klingon_row_destroyed_stops_disruptors_photons_and_cloak_not_phasers():
    state = with_ship(powered(duel(KLINGON, distance=18.0)), "a", destroyed=WEAPONS_GONE)
    row = "every Armor / Cloak / Disruptors / Photons box is destroyed"
    for weapon, words in (("disruptors", "disruptors"), ("photon-1", "photon torpedoes")):
        error = refusal(state, "fire", "a", weapon=weapon, target="b")
        assert (error.spec_id, error.message) == ("R001.38", f"'a' cannot fire {words}: {row}")
    error = refusal(state, "cloak", "a")
    assert (error.spec_id, error.message) == ("R001.38", f"'a' cannot engage its cloak: {row}")
    # Armor has no effect of its own, and the Klingon row does not name phasers
    declared = act(state, "fire", "a", weapon="phasers", target="b", power=2)
    assert ship_state(declared.state, "a").spent == 2


def test_R001_38_a_cloaked_ship_whose_row_is_destroyed_decloaks_at_the_end_of_the_turn():
    """R001.38 with R001.29: the cloak drops at the end of the turn, and the next turn has
    no shields and no weapons; the option off keeps it on."""
    state = with_ship(powered(duel({}, KLINGON, distance=18.0)), "b", cloak="on")
    state = with_ship(state, "b", destroyed=WEAPONS_GONE)
    result = act(state, "resolve", "A")
    cloak = events_of(result, "cloak")
    assert [(e.spec_id, e.get("state")) for e in cloak] == [("R001.38", "disengaging")]
    b = ship_state(result.state, "b")
    assert (b.cloak, b.cloak_turns) == ("disengaging", 1)
    after = powered(result.state)
    assert refusal(after, "reinforce", "b", facing="fore", power=2).spec_id == "R001.29"
    assert ship_state(act(after, "resolve", "A").state, "b").cloak == "off"
    old = with_ship(
        powered(duel({}, KLINGON, distance=18.0, system_failure="off")), "b", cloak="on"
    )
    old = with_ship(old, "b", destroyed=WEAPONS_GONE)
    assert ship_state(act(old, "resolve", "A").state, "b").cloak == "on"


def test_R001_38_the_last_box_lost_in_the_result_drops_the_cloak_that_turn():
    """A flash-detected hit on the cloaked ship destroys its last Armor / Cloak / Disruptors
    / Photons box (straight to the internals, R001.33): the cloak drops at that Result."""
    state = with_ship(powered(duel({}, KLINGON, distance=18.0)), "b", cloak="on")
    state = with_ship(state, "b", destroyed=(0, 0, 3, 0, 0, 0))
    state = act(state, "flash_detect", "a", predicted="none").state
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    result = act(state, "resolve", "A", [3, 5])  # 2 points: weapons (the last), batteries
    assert ship_state(result.state, "b").destroyed[2] == 4
    assert ship_state(result.state, "b").cloak == "disengaging"
    assert events_of(result, "cloak")[0].spec_id == "R001.38"


def test_R001_38_a_cloak_engaging_when_its_row_is_lost_never_engages():
    state = powered(duel({}, KLINGON, distance=18.0))
    state = act(state, "cloak", "b").state
    state = with_ship(state, "b", destroyed=WEAPONS_GONE)
    result = act(state, "resolve", "A")
    assert ship_state(result.state, "b").cloak == "off"
    assert [(e.spec_id, e.get("state")) for e in events_of(result, "cloak")] == [("R001.38", "off")]


# --------------------------------------------------------------------------- Fire Control / Bridge


def test_R001_38_fire_control_destroyed_fires_by_the_direction_procedure():
    """As with the sensors fully lost (R001.32): 1d6 on T001.4, a hit iff the rolled
    direction is the target's true direction (fore here); damage to the shields."""
    state = with_ship(duel(distance=18.0), "a", destroyed=BRIDGE_GONE)
    hit = fire_now(state, "phasers", [1], power=2)
    assert hit.summary.hit and hit.summary.shield_damage == 4
    to_hit = events_of(hit, "to-hit")[0]
    assert (to_hit.spec_id, to_hit.get("procedure"), to_hit.get("nominated")) == (
        "R001.38",
        "direction",
        "fore",
    )
    assert events_of(hit, "roll")[0].spec_id == "R001.38"
    assert fire_now(state, "phasers", [5], power=2).summary.hit is False
    old = with_ship(duel(distance=18.0, system_failure="off"), "a", destroyed=BRIDGE_GONE)
    automatic = fire_now(old, "phasers", [], power=2)  # no roll at all
    assert automatic.summary.hit and events_of(automatic, "to-hit")[0].get("automatic")


def test_R001_38_fire_control_odds_are_the_direction_procedures_one_in_six():
    state = with_ship(duel(distance=18.0), "a", destroyed=BRIDGE_GONE)
    report = HC.attack_odds(state, HC.declare_attack(state, "a", "phasers", "b", {"power": 2}))
    assert report.section("hit").distribution.probability(True) == Fraction(1, 6)
    assert report.facts["procedure"] == "direction"
    half = with_ship(state, "a", destroyed=(4, 2, 0, 0, 0, 0))  # half the sensors too
    report = HC.attack_odds(half, HC.declare_attack(half, "a", "phasers", "b", {"power": 2}))
    assert report.section("hit").distribution.probability(True) == Fraction(1, 6)
    old = with_ship(duel(distance=18.0, system_failure="off"), "a", destroyed=BRIDGE_GONE)
    report = HC.attack_odds(old, HC.declare_attack(old, "a", "phasers", "b", {"power": 2}))
    assert report.section("hit").distribution.probability(True) == Fraction(1)


def test_R001_38_sensors_lost_keep_citing_R001_32_with_the_bridge_gone_too():
    state = with_ship(duel(distance=18.0), "a", destroyed=(4, 4, 0, 0, 0, 0))
    assert events_of(fire_now(state, "phasers", [1], power=2), "to-hit")[0].spec_id == "R001.32"


# --------------------------------------------------------------------------- no effect


def test_R001_38_batteries_destroyed_have_no_effect():
    state = with_ship(duel(distance=18.0), "a", destroyed=(0, 0, 0, 0, 4, 0))
    shot = fire_now(state, "phasers", [], power=2)  # automatic, no roll
    assert shot.summary.hit and shot.summary.shield_damage == 4
    status = HC.unit_status(state, state.unit("a"))
    assert not {"weapons down", "fire control down"} & set(status.marks)


# --------------------------------------------------------------------------- repair


def test_R001_38_R001_36_a_repaired_box_brings_the_category_back():
    state = with_ship(powered(duel(distance=18.0)), "a", destroyed=WEAPONS_GONE)
    state = act(state, "repair", "a", system="weapons", power=2).state
    state = powered(act(state, "resolve", "A").state)
    assert refusal(state, "fire", "a", weapon="phasers", target="b", power=1).spec_id == ("R001.38")
    state = act(state, "repair", "a", system="weapons", power=1).state
    result = act(state, "resolve", "A")
    assert ship_state(result.state, "a").destroyed == (0, 0, 3, 0, 0, 0)
    state = powered(result.state)
    declared = act(state, "fire", "a", weapon="phasers", target="b", power=2)
    assert ship_state(declared.state, "a").spent == 2


# --------------------------------------------------------------------------- exact odds


def test_R001_38_the_odds_name_the_bridge_and_weapons_rows_they_can_destroy():
    """With R001.38 the odds keep the rows with an effect apart: one point through a bare
    shield finds each of the six rows 1/6; with the option off, bridge, weapons and
    batteries are merged as "other" (1/2)."""
    state = duel({}, {"shields": {"fore": 0}}, distance=30.0)  # range 3: 1 point
    report = HC.attack_odds(state, HC.declare_attack(state, "a", "phasers", "b", {"power": 1}))
    systems = report.section("systems").distribution.as_dict()
    sixth = Fraction(1, 6)
    assert systems == {
        "bridge:1": sixth,
        "sensors:1": sixth,
        "weapons:1": sixth,
        "impulse:1": sixth,
        "warp:1": sixth,
        "other:1": sixth,
    }
    old = duel({}, {"shields": {"fore": 0}}, distance=30.0, system_failure="off")
    report = HC.attack_odds(old, HC.declare_attack(old, "a", "phasers", "b", {"power": 1}))
    assert report.section("systems").distribution.as_dict() == {
        "sensors:1": sixth,
        "impulse:1": sixth,
        "warp:1": sixth,
        "other:1": Fraction(1, 2),
    }


def test_R001_38_the_result_step_enumerates_the_rows_apart():
    """The Result's own fold (`result.fire_phase`) under R001.38: the bridge and weapons
    rows are states of their own, not merged with batteries (1/6 each for one point)."""
    from tactical.dice import enumerate_outcomes
    from tactical.rules.heavy_combat import duel_state, result
    from tactical.rules.heavy_combat.internals import effect_categories, effect_losses

    state = powered(duel({}, {"shields": {"fore": 0}}, distance=30.0))
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    state, current = duel_state.current(state)
    table = duel_state.Table(state, current)
    contexts = result.fire_contexts(table)
    effects = effect_categories("last-box")
    odds = enumerate_outcomes(
        lambda dice: effect_losses(
            result.fire_phase(current, contexts, table.cards, dice, effects=effects)
            .duel.ship("b")
            .destroyed,
            effects,
        )
    )
    sixth = Fraction(1, 6)
    assert odds.as_dict() == {
        (1, 0, 0, 0, 0): sixth,
        (0, 1, 0, 0, 0): sixth,
        (0, 0, 1, 0, 0): sixth,
        (0, 0, 0, 1, 0): sixth,
        (0, 0, 0, 0, 1): sixth,
        (0, 0, 0, 0, 0): sixth,  # batteries
    }
    report = HC.action_odds(state, Action("resolve", "A", FrozenMap({})))
    assert report.section("b internals").distribution.as_dict() == {1: 1}
