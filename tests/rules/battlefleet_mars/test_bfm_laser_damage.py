"""Battlefleet Mars A000.11 (revised): L1-L4 against a ship or base lower its current laser
strength, and every later to-hit, damage and CIWS roll of that unit uses the lowered value;
option `laser_damage` (before: false) keeps the earlier reading for recorded games."""

from __future__ import annotations

from fractions import Fraction

import pytest
from bfm_builders import duel, table, unit

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.base import Action
from tactical.rules.battlefleet_mars.units import OPTION_FIELDS
from tactical.rules.schema import earlier_readings
from tactical.session.game import Game

BFM = registry.get("battlefleet-mars")
# a transport (LS 3) at range 0 scores T = d2 + 3 on T000.2
GUN = {"type": "transport"}


def _fire(state, attacker="a", target="t", rolls=(), **params):
    weapon = "laser" if not params else "missiles"
    attack = BFM.declare_attack(state, attacker, weapon, target, params)
    return BFM.resolve_attack(state, attack, ScriptedDice(list(rolls)))


def _lowering(resolution):
    return next((e for e in resolution.events if e.kind == "laser-damage"), None)


@pytest.mark.parametrize(
    ("distance", "d2", "result", "left"),
    [(3, 0, "L1", 4), (0, 2, "L2", 3), (0, 4, "L3", 2), (0, 6, "L4", 1)],
)
def test_A000_11_an_L_result_lowers_a_ships_current_laser_strength(distance, d2, result, left):
    """A transport (LS 3): T = d2 + 3 - floor(R/3) -> 2 L1, 5 L2, 7 L3, 9 L4 (T000.2); the
    ship's LS 5 falls by the L number, its printed 5 kept."""
    state = duel(GUN, {"type": "ship", "laser_strength": 5}, distance)
    resolution = _fire(state, rolls=[9, d2])
    assert next(e for e in resolution.events if e.kind == "lookup").get("result") == result
    stats = resolution.state.unit("t").stats
    assert (stats["laser_strength"], stats["printed_laser_strength"]) == (left, 5)
    lowered = _lowering(resolution)
    assert (lowered.spec_id, lowered.get("laser_strength"), lowered.get("lowered_to")) == (
        "A000.11",
        5,
        left,
    )
    # the result is still recorded for the game-end reading (A000.E1)
    assert resolution.state.rule_state["hits"] == {"t": (result,)}


def test_A000_11_a_base_loses_strength_from_its_own_column():
    """v. Base: T 10 -> L4 (LS 6 -> 2); T 5 -> L1 (-> 5)."""
    state = duel(GUN, {"type": "base"})
    assert _fire(state, rolls=[9, 7]).state.unit("t").stats["laser_strength"] == 2
    assert _fire(state, rolls=[9, 2]).state.unit("t").stats["laser_strength"] == 5


def test_A000_11_B_iL_and_R_leave_the_lasers_alone():
    state = duel(GUN, {"type": "ship", "laser_strength": 5})
    for d2, result in ((0, "iL"), (1, "R"), (3, "B2")):
        resolution = _fire(state, rolls=[9, d2])
        assert resolution.summary == result
        assert resolution.state.units == state.units
        assert _lowering(resolution) is None


def test_A000_11_never_below_0():
    """A miner (LS 2) taking L4 is at 0, not -2; its card reads 0/2, CIWS strength 0."""
    state = duel(GUN, {"type": "miner"})
    resolution = _fire(state, rolls=[9, 6])  # T 9 -> L4
    target = resolution.state.unit("t")
    assert target.stats["laser_strength"] == 0
    assert _lowering(resolution).get("lowered_to") == 0
    values = {v.label: v.text for v in BFM.unit_status(resolution.state, target).values}
    assert values["Laser strength"] == "0/2"
    again = _fire(resolution.state, rolls=[9, 2])  # L2 on 0: stays 0, nothing logged
    assert again.state.unit("t").stats["laser_strength"] == 0
    assert _lowering(again) is None


def test_A000_11_R000_5_a_lowered_ship_fires_in_its_new_column():
    """A catapult (LS 4) hit by L2 fires at LS 2: at range 9 it needs 9, not 8 (T000.1);
    its hit chance falls from 1/5 to 1/10, and range 10 is now out of reach (R000.6)."""
    shooter = unit("cat", 10, 10, "A", type="catapult")
    victim = unit("gun", 10, 11, "B", **GUN)
    prey = unit("far", 19, 10, "B", type="ship", laser_strength=5)
    beyond = unit("beyond", 10, 20, "B", type="ship", laser_strength=5)
    state = table(shooter, victim, prey, beyond)

    def hit_chance(s):
        report = BFM.attack_odds(s, BFM.declare_attack(s, "cat", "laser", "far"))
        return report.facts["needed"], 1 - report.section("result").distribution.probability("miss")

    assert hit_chance(state) == (8, Fraction(1, 5))
    hurt = _fire(state, attacker="gun", target="cat", rolls=[9, 2]).state  # T 5 -> L2
    assert hurt.unit("cat").stats["laser_strength"] == 2
    assert hit_chance(hurt) == (9, Fraction(1, 10))
    BFM.declare_attack(state, "cat", "laser", "beyond")  # LS 4 reaches 10
    with pytest.raises(UserError) as refused:
        BFM.declare_attack(hurt, "cat", "laser", "beyond")
    assert refused.value.spec_id == "R000.6"
    assert "beyond 9 for laser strength 2" in refused.value.message
    assert BFM.range_band(hurt.unit("cat"), 10.0, hurt.options) is None
    assert BFM.range_band(state.unit("cat"), 10.0, state.options) == "R10"


def test_A000_11_R000_8_a_lowered_ship_adds_its_lowered_strength_to_damage():
    """LS 5 lowered by L3 to 2: d2 5 at range 0 totals 7 (L3), not 10 (B4)."""
    state = table(
        unit("s", 10, 10, "A", type="ship", laser_strength=5), unit("gun", 10, 10, "B", **GUN)
    )
    hurt = _fire(state, attacker="gun", target="s", rolls=[9, 4]).state  # T 7 -> L3
    shot = _fire(hurt, attacker="s", target="gun", rolls=[9, 5])
    total = next(e for e in shot.events if e.kind == "damage-total")
    assert (total.get("laser_strength"), total.get("total")) == (2, 7)
    assert shot.summary == "L3"
    before = _fire(state, attacker="s", target="gun", rolls=[9, 5])
    assert before.summary == "B4"


def test_A000_11_R000_20_ciws_uses_the_lowered_strength():
    """A base (CS 6) lowered by L4 to 2: one missile is destroyed on 0-5 (3/5), not 0-9."""
    state = table(
        unit("base", 10, 10, "A", type="base"),
        unit("gun", 10, 10, "B", **GUN),
        unit("salvo", 10, 10, "B", type="missile", count=2),
    )

    def ciws(s):
        attack = BFM.declare_attack(s, "salvo", "missiles", "base", {"missiles": 1})
        report = BFM.attack_odds(s, attack)
        destroyed = report.section("ciws_destroyed").distribution.probability(1)
        return report.facts["ciws_strength"], report.facts["ciws_thresholds"], destroyed

    assert ciws(state) == (6, (9,), Fraction(1))
    hurt = _fire(state, attacker="gun", target="base", rolls=[9, 7]).state  # T 10 -> L4
    assert ciws(hurt) == (2, (5,), Fraction(3, 5))
    # a salvo's own L results lower the lasers after its CIWS (R000.24): 2 missiles, both
    # through (CS 2: 9 > 5, 9 > 4), damage 4 + 1 = 5 -> L1 and 6 + 1 = 7 -> L2 v. Base
    resolution = _fire(hurt, attacker="salvo", target="base", rolls=[9, 9, 4, 6], missiles=2)
    assert [e.get("threshold") for e in resolution.events if e.kind == "ciws"] == [5, 4]
    assert resolution.state.unit("base").stats["laser_strength"] == 0
    said = BFM.describe_resolution(hurt, _action("salvo", "missiles", "base"), resolution.events)
    assert said.endswith("results L1 L2")  # the card change the session adds says the rest


def _action(actor, weapon, target):
    return Action("attack", actor, FrozenMap(weapon=weapon, target=target))


def test_A000_11_the_card_shows_current_over_printed():
    state = duel(GUN, {"type": "ship", "laser_strength": 5})
    fresh = {v.label: v.text for v in BFM.unit_status(state, state.unit("t")).values}
    assert fresh["Laser strength"] == "5/5"
    resolution = _fire(state, rolls=[9, 4])  # L3
    target = resolution.state.unit("t")
    status = BFM.unit_status(resolution.state, target)
    shown = {v.label: v for v in status.values}
    assert shown["Laser strength"].text == "2/5"
    assert shown["Laser strength"].spec_id == "A000.11"
    laser = next(w for w in status.weapons if w.name == "Laser")
    assert (laser.ranges, laser.attack) == ("0-9 range units", "strength 2/5")


def test_A000_11_the_log_line_says_what_the_card_lost():
    """A played attack on the built-in map: the step's words end with the card's change."""
    game = Game.new(load_map(builtin_map("battlefleet-mars")), 4)
    while game.phase_name != "Tactical combat":
        game = game.pass_go()
    game = game.apply(game.declare("attack", "deimos-base", weapon="laser", target="ares-cruiser"))
    assert game.last_step.words.endswith(
        "result L4 — Ares cruiser Nemesis: Laser strength 5/5 → 1/5"
    )
    assert game.state.unit("ares-cruiser").stats["laser_strength"] == 1


def test_A000_11_option_off_plays_the_earlier_reading_exactly():
    """`laser_damage = false` (the value a game recorded before the revision replays with):
    the L code goes to the base game only, as before; later fire uses the printed LS."""
    assert earlier_readings(OPTION_FIELDS, {}) == {"laser_damage": False}
    assert BFM.options({})["laser_damage"] is True
    old = duel(GUN, {"type": "ship", "laser_strength": 5}, laser_damage=False)
    resolution = _fire(old, rolls=[9, 4])  # L3
    assert resolution.summary == "L3"
    assert resolution.state.units == old.units
    assert [e.kind for e in resolution.events][-1] == "outcome"
    assert resolution.state.rule_state["hits"] == {"t": ("L3",)}
    said = BFM.describe_resolution(old, _action("a", "laser", "t"), resolution.events)
    assert said == "a's laser at t: hit (rolled 9, any roll hits), result L3"
    new = _fire(table(*old.units), rolls=[9, 4])
    assert new.state.unit("t").stats["laser_strength"] == 2
    # same events up to the outcome: only the lowering is new
    assert new.events[: len(resolution.events)] == resolution.events


def test_A000_11_adjust_mode_sets_the_current_strength_and_keeps_the_printed():
    state = duel(GUN, {"type": "ship", "laser_strength": 5})
    ship = state.unit("t")
    field = next(f for f in BFM.status_fields(state, ship) if f.name == "laser_strength")
    assert (field.default, field.low, field.high) == (5, 0, 6)
    edited = BFM.set_status(state, ship, {"laser_strength": 2})
    assert edited.unit("t").stats["laser_strength"] == 2
    shown = {v.label: v.text for v in BFM.unit_status(edited, edited.unit("t")).values}
    assert shown["Laser strength"] == "2/5"
    again = BFM.set_status(edited, edited.unit("t"), {"laser_strength": 4})
    assert {v.label: v.text for v in BFM.unit_status(again, again.unit("t")).values}[
        "Laser strength"
    ] == "4/5"
    # the earlier reading edits the stat alone, as before
    old = duel(GUN, {"type": "ship", "laser_strength": 5}, laser_damage=False)
    assert BFM.set_status(old, old.unit("t"), {"laser_strength": 2}).unit("t").stats == {
        "type": "ship",
        "laser_strength": 2,
    }


def test_A000_11_a_map_cannot_print_less_than_the_current_strength():
    problems = BFM.check_stats({"type": "ship", "laser_strength": 5, "printed_laser_strength": 3})
    assert [(p.key, p.spec_id) for p in problems] == [("laser_strength", "A000.11")]
    assert "at most the printed laser strength 3" in problems[0].expected
    assert not BFM.check_stats({"type": "ship", "laser_strength": 2, "printed_laser_strength": 5})
    assert BFM.check_stats({"type": "missile", "printed_laser_strength": 2})
    # a base's strength left out is its nominal 6, more than a printed 3
    assert BFM.check_stats({"type": "base", "printed_laser_strength": 3})
