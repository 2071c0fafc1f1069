"""Every X vector of seed 001 (SPEC §2.10) as its own test."""

from __future__ import annotations

import pytest
from hc_builders import HC, act, duel, events_of, run, ship_state, the_duel, with_ship

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.rules.heavy_combat.engagement import engagement
from tactical.rules.heavy_combat.internals import internal_damage
from tactical.rules.heavy_combat.ships import profile, settings
from tactical.rules.heavy_combat.tables import catastrophic_losses, catastrophic_threshold

VENTRAL = 5  # FACINGS index of ventral


def _example_round(**options):
    """X001.1's start: range 2; A presents Port to B (B off A's port side), B Ventral."""
    return duel({}, {"elevation": "ventral"}, distance=18.0, a_heading=180.0, **options)


@pytest.mark.parametrize("geometry", ["table", "categorical"])
def test_X001_1_example_round(geometry):
    """R001.4-R001.9, R001.15, R001.22, R001.24, R001.26, R001.28: the source's round.

    A001.25: "[A Port to Starboard to B Ventral]" = A turns its Port->Starboard to B, B Ventral."""
    state = _example_round(geometry=geometry)
    view = engagement(state, the_duel(state), settings(state.options))
    assert (view.range, view.facing("a"), view.facing("b")) == (2, "port", "ventral")
    state, _ = run(
        state,
        ("roll_power", "a", [6, 6], {}),
        ("roll_power", "b", [4, 5], {}),
        ("rotate", "a", [], {"to": "starboard", "via": "dorsal"}),  # "Begin roll to Starboard"
        ("retreat", "b", [], {}),  # "1 Point Withdraw to Range 3"
        ("reinforce", "a", [], {"facing": "starboard", "power": 4}),
        ("reinforce", "b", [], {"facing": "ventral", "power": 8}),
        ("fire", "a", [], {"weapon": "phasers", "target": "b", "power": 8}),
    )
    a, b = ship_state(state, "a"), ship_state(state, "b")
    assert (a.power, a.spent) == (12, 12)  # 4 + 8 = 12 <= 12, rotation free
    assert (b.power, b.spent) == (9, 9)  # 1 + 8 = 9 <= 9
    with pytest.raises(UserError) as moved:
        act(state, "fire", "b", weapon="phasers", target="a", power=1)
    assert moved.value.spec_id == "R001.9"

    result = act(state, "resolve", "A")
    state = result.state
    damage = events_of(result, "damage")[0]
    assert (damage.get("points"), damage.get("multiplier"), damage.get("raw")) == (8, 2, 16)
    halved = events_of(result, "halved")[0]
    assert (halved.get("raw"), halved.get("delivered")) == (16, 8)
    absorbed = events_of(result, "reinforcement")[0]
    assert (absorbed.get("facing"), absorbed.get("absorbed"), absorbed.get("left")) == (
        "ventral",
        4,
        4,
    )
    shield = events_of(result, "shield")[0]
    assert (shield.get("facing"), shield.get("total"), shield.get("capacity")) == (
        "ventral",
        4,
        27,
    )  # "4/27 points damage to B Ventral shield"
    a, b = ship_state(state, "a"), ship_state(state, "b")
    assert b.shield_damage[VENTRAL] == 4
    assert sum(a.shield_damage) == 0 and a.destroyed_total == 0  # A takes 0
    assert engagement(state, the_duel(state), settings(state.options)).range == 3
    assert [(r.facing, r.points, r.turn) for r in a.reinforcement] == [("starboard", 2, 1)]
    assert b.reinforcement == ()  # used (4 absorbed) and expired
    assert result.summary.damage == (("a", 0, 0), ("b", 4, 0))


def test_X001_2_closing_ship_cannot_fire_and_fire_uses_the_old_range():
    """R001.8, R001.9: A closes 3 -> 2; B's phasers use range 3 (x1); next turn range 2."""
    state = duel(distance=30.0)
    state, _ = run(
        state,
        ("roll_power", "a", [3, 3], {}),
        ("roll_power", "b", [3, 3], {}),
        ("close", "a", [], {}),
        ("fire", "b", [], {"weapon": "phasers", "target": "a", "power": 5}),
    )
    with pytest.raises(UserError) as refused:
        act(state, "fire", "a", weapon="phasers", target="b", power=2)
    assert refused.value.spec_id == "R001.9"
    result = act(state, "resolve", "A")
    damage = events_of(result, "damage")[0]
    assert (damage.get("multiplier"), damage.get("raw")) == (1, 5)  # D = p
    assert events_of(result, "range")[0].get("after") == 2
    view = engagement(result.state, the_duel(result.state), settings(result.state.options))
    assert view.range == 2


def test_X001_3_fed_ca_catastrophic_threshold_is_17():
    """R001.35: 3/4 x 23 = 17.25 -> 17; the 17th internal hit invokes the catastrophic rule."""
    assert catastrophic_threshold(23) == 17
    state = duel({"internals": 23}, {"internals": 23})
    card = profile(state.unit("b"))
    ship = ship_state(state, "b")
    sixteen = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]  # 4 boxes each (23 -> 4,4,4,4,4,3)
    before = internal_damage(card, ship, 16, ScriptedDice(sixteen), who="a")
    assert sum(before.destroyed) == 16 and not before.catastrophic
    dice = ScriptedDice([*sixteen, 5, 6, 5])  # 17th hit, catastrophic roll 6, one more hit
    after = internal_damage(card, ship, 17, dice, who="a")
    assert after.catastrophic and sum(after.destroyed) == 18
    catastrophic = [e for e in after.events if e.kind == "catastrophic"]
    assert [(e.get("destroyed"), e.get("threshold")) for e in catastrophic] == [(17, 17)]


@pytest.mark.parametrize(("roll", "additional"), [(1, 6), (6, 1)])
def test_X001_4_catastrophic_roll(roll, additional):
    """T001.7: a catastrophic roll of 1 / 6 loses 6 / 1 additional internals."""
    assert catastrophic_losses(roll) == additional
    state = duel({}, {"internals": 23})
    state = with_ship(state, "b", destroyed=(4, 4, 4, 4, 0, 0))  # 16 destroyed
    card, ship = profile(state.unit("b")), ship_state(state, "b")
    extra_hits = [5, 5, 5, 6, 6, 6][:additional]
    result = internal_damage(card, ship, 1, ScriptedDice([5, roll, *extra_hits]), who="a")
    assert sum(result.destroyed) == 17 + additional


@pytest.mark.parametrize(
    ("start_heading", "to", "via", "turns"),
    [(90.0, "port", None, 2), (180.0, "starboard", "dorsal", 4)],
)
def test_X001_5_rotation_takes_two_turns_per_facing(start_heading, to, via, turns):
    """R001.11: one facing takes 2 turns; Port -> Starboard (opposite) takes 4."""
    state = duel(a_heading=start_heading)
    params = {"to": to} | ({"via": via} if via else {})
    state = act(state, "rotate", "a", **params).state
    facings = []
    for _ in range(turns):
        state = act(state, "resolve", "A").state
        facings.append(engagement(state, the_duel(state), settings(state.options)).facing("a"))
    assert facings[-1] == to
    assert all(f != to for f in facings[:-1])
    assert ship_state(state, "a").turning is None


@pytest.mark.parametrize(("power", "points"), [(4, 2), (8, 4)])
def test_X001_6_reinforcement_points(power, points):
    """R001.5, R001.26: 4 power buy 2 reinforcement points, 8 buy 4."""
    state = act(duel(), "roll_power", "a", [6, 6]).state
    state = act(state, "reinforce", "a", facing="fore", power=power).state
    assert ship_state(state, "a").reinforcement_on("fore") == points


@pytest.mark.parametrize(("roll", "hit"), [(3, True), (2, False)])
def test_X001_7_photon_at_range_3(roll, hit):
    """R001.17: at range 3 a photon needs 3-6: 3 hits, 2 misses."""
    state = duel(distance=30.0)
    attack = HC.declare_attack(state, "a", "photon-1", "b")
    result = HC.resolve_attack(state, attack, ScriptedDice([roll, 4] if hit else [roll]))
    assert result.summary.hit is hit
    assert events_of(result, "to-hit")[0].get("needed") == 3


@pytest.mark.parametrize(("roll", "hit"), [(2, True), (1, False)])
def test_X001_8_disruptor_at_range_3(roll, hit):
    """R001.19: at range 3 Klingon disruptors need 2-6: 2 hits, 1 misses."""
    state = duel({"race": "klingon", "disruptors": True}, distance=30.0)
    attack = HC.declare_attack(state, "a", "disruptors", "b")
    result = HC.resolve_attack(state, attack, ScriptedDice([roll, 4] if hit else [roll]))
    assert result.summary.hit is hit
    assert events_of(result, "to-hit")[0].get("needed") == 2


def test_X001_9_specific_system_on_2d6_rerolls_12_and_7_does_nothing():
    """R001.37, T001.3: 12 -> reroll; 7 -> result 6 -> no damage (success only on 1)."""
    state = duel(specific_system_die="2d6")
    attack = HC.declare_attack(
        state, "a", "phasers", "b", {"power": 4, "mode": "specific", "system": "warp"}
    )
    result = HC.resolve_attack(state, attack, ScriptedDice([12, 7]))
    assert [e.get("result") for e in events_of(result, "roll")] == [12, 7]
    assert len(events_of(result, "reroll")) == 1
    specific = events_of(result, "specific")[0]
    assert (specific.get("roll"), specific.get("result"), specific.get("success")) == (7, 6, False)
    assert result.summary.specific is False
    assert ship_state(result.state, "b").destroyed_total == 0


def test_X001_10_internal_hit_on_destroyed_sensors_is_rerolled():
    """R001.34: Fed ship, Sensors destroyed: a 2 is rerolled; the 4 hits Impulse."""
    state = duel({}, {"race": "federation"})
    state = with_ship(state, "b", destroyed=(0, 4, 0, 0, 0, 0))  # all 4 sensor boxes gone
    card, ship = profile(state.unit("b")), ship_state(state, "b")
    dice = ScriptedDice([2, 4])
    result = internal_damage(card, ship, 1, dice, who="a")
    assert [r.result for r in dice.rolls] == [2, 4]
    assert result.destroyed == (0, 4, 0, 1, 0, 0)
    kinds = [e.kind for e in result.events]
    assert kinds.index("reroll") < kinds.index("internal")
    lookup = next(e for e in result.events if e.kind == "lookup")
    assert (lookup.spec_id, lookup.get("system")) == ("T001.5", "impulse")


def test_G1_R001_34_destroyed_category_rolled_twice_in_a_row_replays():
    """G.1, R001.34: a reroll consumes the next die of the sequence, the whole d6: 2 (Sensors
    destroyed), 2 again, then 4 hits Impulse; every physical roll is recorded."""
    state = duel({}, {"race": "federation"})
    state = with_ship(state, "b", destroyed=(0, 4, 0, 0, 0, 0))
    card, ship = profile(state.unit("b")), ship_state(state, "b")
    dice = ScriptedDice([2, 2, 2, 4])
    result = internal_damage(card, ship, 1, dice, who="a")
    assert [r.result for r in dice.rolls] == [2, 2, 2, 4]
    assert result.destroyed == (0, 4, 0, 1, 0, 0)


def test_G1_R001_34_exact_odds_of_a_reroll_stay_one_in_five():
    """R001.34: with Sensors destroyed each of the five other categories is 1/5, exactly (the
    categories without an effect are merged: bridge, weapons and batteries together 3/5)."""
    from fractions import Fraction

    from tactical.dice import enumerate_outcomes

    state = duel({}, {"race": "federation"})
    state = with_ship(state, "b", destroyed=(0, 4, 0, 0, 0, 0))
    card, ship = profile(state.unit("b")), ship_state(state, "b")
    odds = enumerate_outcomes(
        lambda dice: internal_damage(card, ship, 1, dice, who="a").destroyed
    ).as_dict()
    assert odds[(0, 4, 0, 1, 0, 0)] == odds[(0, 4, 0, 0, 0, 1)] == Fraction(1, 5)
    assert sum(odds.values()) == 1 and all(destroyed[1] == 4 for destroyed in odds)


def test_G1_T001_3_twelve_twice_in_a_row_replays():
    """G.1, T001.3: 12, 12 (rerolled with the whole 2d6 each time), then 2 -> result 1: hit."""
    state = duel(specific_system_die="2d6")
    attack = HC.declare_attack(
        state, "a", "phasers", "b", {"power": 4, "mode": "specific", "system": "warp"}
    )
    dice = ScriptedDice([12, 12, 2])
    result = HC.resolve_attack(state, attack, dice)
    assert [r.result for r in dice.rolls] == [12, 12, 2]
    specific = events_of(result, "specific")[0]
    assert (specific.get("roll"), specific.get("result"), specific.get("success")) == (2, 1, True)
