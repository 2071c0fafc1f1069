"""One test (at least) per numbered rule of seed 001 (R001.1-R001.37), SPEC id in each name."""

from __future__ import annotations

import pytest
from hc_builders import HC, act, duel, events_of, run, ship_state, the_duel, with_ship

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.rules.base import Phase
from tactical.rules.heavy_combat.duel import Turning
from tactical.rules.heavy_combat.engagement import engagement
from tactical.rules.heavy_combat.ships import settings

FORE, AFT, PORT, STARBOARD, DORSAL, VENTRAL = range(6)


def fire_now(state, weapon, dice, attacker="a", target="b", **params):
    attack = HC.declare_attack(state, attacker, weapon, target, params)
    return HC.resolve_attack(state, attack, ScriptedDice(dice))


def view(state):
    return engagement(state, the_duel(state), settings(state.options))


def refused(spec_id, state, kind, actor, dice=None, **params):
    with pytest.raises(UserError) as error:
        act(state, kind, actor, dice, **params)
    assert error.value.spec_id == spec_id, str(error.value)
    return error.value


def powered(state, a=(6, 6), b=(6, 6)):
    state = act(state, "roll_power", "a", list(a)).state
    return act(state, "roll_power", "b", list(b)).state


# --------------------------------------------------------------------------- dice, power


def test_R001_1_single_rolls_are_d6_and_the_specific_roll_a_d10_read_1_to_10():
    state = duel(distance=30.0)
    photon = fire_now(state, "photon-1", [4, 5])
    assert [e.get("die") for e in events_of(photon, "roll")] == ["d6", "d6"]
    specific = fire_now(state, "phasers", [10], power=1, mode="specific", system="warp")
    assert [(e.get("die"), e.get("result")) for e in events_of(specific, "roll")] == [("d10", 10)]
    with pytest.raises(UserError):
        fire_now(state, "phasers", [0], power=1, mode="specific", system="warp")  # no face 0


def test_R001_3_turn_sequence_and_one_simultaneous_result():
    sequence = HC.turn_sequence()
    assert [(p.name, p.spec_id, p.alternating) for p in sequence.phases] == [
        ("Roll power", "R001.4", False),
        ("Reaction movement", "R001.3", True),
        ("Countermeasures / reinforce", "R001.3", True),
        ("Target selection / fire", "R001.37", True),
        ("Result", "R001.3", False),
    ]
    assert all(isinstance(p, Phase) for p in sequence.phases)
    state = powered(duel())
    state, _ = run(
        state,
        ("fire", "a", [], {"weapon": "phasers", "target": "b", "power": 3}),
        ("fire", "b", [], {"weapon": "phasers", "target": "a", "power": 2}),
    )
    # nothing happens until the Result, which applies both sides' fire
    assert sum(ship_state(state, "b").shield_damage) == 0
    result = act(state, "resolve", "A")
    assert [e.get("firer") for e in events_of(result, "fire")] == ["a", "b"]
    assert result.summary.damage == (("a", 4, 0), ("b", 6, 0))
    assert the_duel(result.state).turn == 2


def test_R001_3_fire_uses_the_statuses_at_the_start_of_the_result():
    """Simultaneous: A's fire destroying B's last sensors does not change B's own fire."""
    state = duel({}, {"boxes": {c: 4 for c in CATS}, "shields": {"fore": 0}})
    state = with_ship(state, "b", destroyed=(0, 1, 0, 0, 0, 0))
    state = powered(state)
    state, _ = run(
        state,
        ("fire", "a", [], {"weapon": "phasers", "target": "b", "power": 1}),  # 2 internals
        ("fire", "b", [], {"weapon": "phasers", "target": "a", "power": 1}),
    )
    result = act(state, "resolve", "A", [2, 2])  # both internal hits on sensors
    assert ship_state(result.state, "b").destroyed == (0, 3, 0, 0, 0, 0)
    b_to_hit = [e for e in events_of(result, "to-hit")][1]
    assert b_to_hit.get("automatic") is True  # B still fired with 1 of 4 sensors lost


CATS = ("bridge", "sensors", "weapons", "impulse", "batteries", "warp")


def test_R001_4_power_budget():
    state = duel()
    refused("R001.4", state, "close", "a")  # no power rolled yet
    state = act(state, "roll_power", "a", [2, 3]).state
    assert (ship_state(state, "a").power, ship_state(state, "a").spent) == (5, 0)
    refused("R001.4", state, "roll_power", "a", [1, 1])  # once a turn
    state = act(state, "fire", "a", weapon="phasers", target="b", power=5).state
    refused("R001.4", state, "fire", "a", weapon="photon-1", target="b")
    refused("R001.4", state, "reinforce", "a", facing="fore", power=2)
    state = act(state, "resolve", "A", []).state
    assert ship_state(state, "a").power is None  # unspent power is lost


def test_A001_1_power_dice_count_is_a_ship_parameter():
    state = duel({"power_dice": 3})
    result = act(state, "roll_power", "a", [1, 2, 3])
    assert result.summary == 6 and len(events_of(result, "roll")) == 3
    odds = HC.action_odds(state, act_action("roll_power", "a"))
    assert odds.section("power").distribution.probability(3) == pytest.approx(1 / 216)


def act_action(kind, actor, **params):
    from tactical.model import FrozenMap
    from tactical.rules.base import Action

    return Action(kind, actor, FrozenMap(params))


@pytest.mark.parametrize(
    ("kind", "params", "cost"),
    [
        ("rotate", {"to": "port"}, 0),
        ("close", {}, 1),
        ("retreat", {}, 1),
        ("lateral", {"engage": "port"}, 2),
        ("reinforce", {"facing": "fore", "power": 6}, 6),
        ("countermeasures", {"power": 4}, 4),
        ("fire", {"weapon": "phasers", "target": "b", "power": 7}, 7),
        ("fire", {"weapon": "photon-1", "target": "b"}, 1),
    ],
)
def test_R001_5_costs(kind, params, cost):
    state = powered(duel())
    after = act(state, kind, "a", **params).state
    assert ship_state(after, "a").spent == cost


def test_R001_5_cloak_flash_detection_disruptors_and_repair_costs():
    state = powered(duel({"cloak": True, "race": "klingon", "disruptors": True}))
    assert ship_state(act(state, "cloak", "a").state, "a").spent == 1
    fired = act(state, "fire", "a", weapon="disruptors", target="b").state
    assert ship_state(fired, "a").spent == 1
    damaged = with_ship(state, "a", destroyed=(1, 0, 0, 0, 0, 0))
    assert ship_state(act(damaged, "repair", "a", system="bridge", power=2).state, "a").spent == 2
    cloaked = with_ship(state, "b", cloak="on")
    flashed = act(cloaked, "flash_detect", "a", predicted="none").state
    assert ship_state(flashed, "a").spent == 10


def test_R001_6_reinforcement_and_countermeasures_convert_at_half_an_odd_point_wasted():
    state = powered(duel())
    result = act(state, "reinforce", "a", facing="port", power=5)
    convert = events_of(result, "convert")[0]
    assert (convert.get("points"), convert.get("wasted")) == (2, 1)
    assert ship_state(result.state, "a").spent == 5
    result = act(state, "countermeasures", "a", power=3)
    assert ship_state(result.state, "a").countermeasure_points == 1
    refused("R001.6", state, "reinforce", "a", facing="port", power=1)


# --------------------------------------------------------------------------- range, movement


@pytest.mark.parametrize(("distance", "band", "raw"), [(6.0, 1, 12), (18.0, 2, 8), (30.0, 3, 4)])
def test_R001_7_range_band_multiplier(distance, band, raw):
    state = duel(distance=distance)
    assert view(state).range == band
    result = fire_now(state, "phasers", [], power=4)
    assert events_of(result, "damage")[0].get("raw") == raw


def test_R001_8_all_fire_uses_the_range_at_the_start_of_the_turn():
    state = powered(duel(distance=30.0))
    state, _ = run(
        state,
        ("close", "a", [], {}),
        ("fire", "b", [], {"weapon": "phasers", "target": "a", "power": 3}),
    )
    result = act(state, "resolve", "A")
    assert events_of(result, "fire")[0].get("range") == 3
    assert view(result.state).range == 2
    state = powered(result.state)
    result = act(
        act(state, "fire", "b", weapon="phasers", target="a", power=3).state, "resolve", "A"
    )
    assert events_of(result, "damage")[0].get("multiplier") == 2  # the new range next turn


def test_R001_9_close_retreat_sum_then_clamp_and_no_fire():
    state = powered(duel(distance=30.0))
    both_close = run(state, ("close", "a", [], {}), ("close", "b", [], {}))[0]
    result = act(both_close, "resolve", "A")
    assert events_of(result, "range")[0].values == {
        "before": 3,
        "declared": -2,
        "after": 1,
        "clamped": False,
    }
    assert view(result.state).range == 1
    cancel = run(powered(duel(distance=18.0)), ("close", "a", [], {}), ("retreat", "b", [], {}))[0]
    assert view(act(cancel, "resolve", "A").state).range == 2
    closing = act(state, "close", "a").state
    refused("R001.9", closing, "fire", "a", weapon="phasers", target="b", power=1)
    refused("R001.9", closing, "close", "a")
    firing = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    refused("R001.9", firing, "close", "a")


def test_A001_18_range_is_clamped_1_to_3():
    refused("A001.18", powered(duel(distance=6.0)), "close", "a")
    refused("A001.18", powered(duel(distance=30.0)), "retreat", "a")
    state = powered(duel(distance=18.0))
    state = run(state, ("close", "a", [], {}), ("close", "b", [], {}))[0]
    result = act(powered(act(state, "resolve", "A").state), "resolve", "A")
    assert view(result.state).range == 1
    clamped = powered(duel(distance=18.0))
    clamped = run(clamped, ("retreat", "a", [], {}), ("retreat", "b", [], {}))[0]
    result = act(clamped, "resolve", "A")
    assert events_of(result, "range")[0].get("after") == 3
    assert events_of(result, "range")[0].get("clamped") is True


def test_A001_18_disengagement_when_the_scenario_allows_it():
    state = powered(duel(distance=30.0, allow_disengage=True))
    state = act(state, "retreat", "b").state
    result = act(state, "resolve", "A")
    assert ship_state(result.state, "b").out == "disengaged"
    assert events_of(result, "disengage")[0].get("ship") == "b"
    from tactical.rules.base import TurnPosition

    assert HC.actions(result.state, TurnPosition(2, 0, 0, 0), "A") == ()


def test_R001_10_lateral_move():
    """A001.24: any fire a lateral mover receives hits its shield facing the enemy."""
    state = powered(duel(distance=18.0))
    # A moves laterally to engage B's port side; B presents fore now
    moved = act(state, "lateral", "a", engage="port").state
    refused("R001.10", moved, "fire", "a", weapon="phasers", target="b", power=1)
    refused("R001.10", state, "lateral", "a", engage="aft")  # not next to B's fore
    # fire A receives this turn hits its facing toward B, even while it rotates
    rotating = act(moved, "rotate", "a", to="port").state
    rotating = act(rotating, "fire", "b", weapon="photon-1", target="a").state
    result = act(rotating, "resolve", "B", [4])
    assert events_of(result, "split") == []
    assert events_of(result, "shield")[0].get("facing") == "fore"
    after = view(result.state)
    assert after.facing("b") == "port" and after.facing("a") == "fore"
    assert after.range == 2
    # once every two turns
    next_turn = powered(result.state)
    refused("R001.10", next_turn, "lateral", "a", engage="fore")
    two_later = powered(act(next_turn, "resolve", "A").state)
    assert ship_state(act(two_later, "lateral", "a", engage="fore").state, "a").spent == 2


def test_R001_11_rotation_two_turns_a_step_free_and_one_at_a_time():
    state = duel()
    state = act(state, "rotate", "a", to="dorsal").state
    assert ship_state(state, "a").spent == 0
    refused("R001.11", state, "rotate", "a", to="port")
    refused("R001.11", duel(), "rotate", "a", to="fore")
    refused("R001.11", duel(), "rotate", "a", to="aft", via="port2")
    refused("R001.11", duel(), "rotate", "a", to="port", via="dorsal")
    state = act(state, "resolve", "A").state
    assert view(state).facing("a") == "fore"
    assert ship_state(state, "a").turning == Turning(("fore", "dorsal"), 0, 1)
    state = act(state, "resolve", "A").state
    assert view(state).facing("a") == "dorsal" and ship_state(state, "a").turning is None


def test_R001_12_impulse_lost_or_halved():
    """A001.26: with half impulse every manoeuvre (close/retreat, rotation) takes twice as long."""
    lost = with_ship(powered(duel()), "a", destroyed=(0, 0, 0, 4, 0, 0))
    refused("R001.12", lost, "rotate", "a", to="port")
    refused("R001.12", lost, "close", "a")
    half = with_ship(powered(duel(distance=30.0)), "a", destroyed=(0, 0, 0, 2, 0, 0))
    state = act(half, "close", "a").state
    state = act(state, "rotate", "a", to="port").state
    result = act(state, "resolve", "A")
    assert events_of(result, "range") == []  # the close takes effect at the end of turn 2
    state = powered(result.state)
    refused("R001.9", state, "fire", "a", weapon="phasers", target="b", power=1)
    result = act(state, "resolve", "A")
    assert events_of(result, "range")[0].get("after") == 2
    for _ in range(2):
        assert view(result.state).facing("a") == "fore"  # 4 turns for the step
        result = act(result.state, "resolve", "A")
    assert view(result.state).facing("a") == "port"


def test_R001_13_warp_lost_allows_only_one_repair_point():
    state = with_ship(powered(duel()), "a", destroyed=(1, 0, 0, 0, 0, 3))
    refused("R001.13", state, "fire", "a", weapon="phasers", target="b", power=1)
    refused("R001.13", state, "reinforce", "a", facing="fore", power=2)
    refused("R001.13", state, "rotate", "a", to="port")
    refused("R001.13", state, "repair", "a", system="warp", power=2)
    after = act(state, "repair", "a", system="warp", power=1).state
    assert ship_state(after, "a").orders.repair == (("warp", 1),)


# --------------------------------------------------------------------------- weapons


def test_R001_14_directed_energy_is_halved_by_rotation_tracking_is_not():
    state = act(duel(distance=18.0), "rotate", "a", to="port").state
    phasers = fire_now(state, "phasers", [], power=4)
    assert events_of(phasers, "halved")[0].get("delivered") == 4
    photon = fire_now(state, "photon-1", [5])
    assert events_of(photon, "halved") == []
    romulan = act(duel({"romulan_disruptors": True}), "rotate", "a", to="port").state
    assert events_of(fire_now(romulan, "romulan-disruptors", [], power=3), "halved")


def test_R001_15_phasers_are_omnidirectional_automatic_p_times_m():
    state = duel(distance=18.0, a_heading=270.0)  # B is off A's aft
    assert view(state).facing("a") == "aft"
    result = fire_now(state, "phasers", [], power=5)
    assert events_of(result, "to-hit")[0].get("automatic") is True
    assert events_of(result, "damage")[0].get("raw") == 10
    assert result.summary.shield_damage == 10


def test_R001_16_romulan_disruptors_are_phasers_with_sheet_arcs():
    """A001.16: Romulan disruptors use the phaser mechanics (automatic, points x multiplier)."""
    state = duel({"race": "romulan", "romulan_disruptors": True, "phasers": False})
    result = fire_now(state, "romulan-disruptors", [], power=3)
    assert events_of(result, "damage")[0].get("raw") == 6
    narrow = duel(
        {"romulan_disruptors": True, "romulan_disruptor_arcs": {"fore": False}}, distance=18.0
    )
    with pytest.raises(UserError) as error:
        HC.declare_attack(narrow, "a", "romulan-disruptors", "b", {"power": 2})
    assert error.value.spec_id == "R001.16"


def test_R001_17_photon_rate_stock_range_1_and_backlash():
    state = powered(duel(distance=6.0))
    fired = act(state, "fire", "a", weapon="photon-1", target="b").state
    refused("R001.17", fired, "fire", "a", weapon="photon-1", target="b")
    result = act(fired, "resolve", "A", [6])  # range 1: always hits, damage 6 x 3
    assert events_of(result, "damage")[0].get("raw") == 18
    backlash = events_of(result, "backlash")[0]
    assert (backlash.get("points"), backlash.get("facing")) == (5, "fore")  # 18/4 = 4.5 -> 5
    a = ship_state(result.state, "a")
    assert a.shield_damage[FORE] == 5 and a.torpedoes == 19 and a.launchers[0] == 1
    next_turn = powered(result.state)
    refused("R001.17", next_turn, "fire", "a", weapon="photon-1", target="b")
    third = powered(act(next_turn, "resolve", "A").state)
    assert act(third, "fire", "a", weapon="photon-1", target="b").summary == ("fire", "photon-1")
    empty = with_ship(state, "a", torpedoes=0)
    refused("R001.17", empty, "fire", "a", weapon="photon-1", target="b")


def test_A001_8_backlash_is_reduced_by_the_firers_reinforcement():
    state = powered(duel(distance=6.0))
    state = act(state, "reinforce", "a", facing="fore", power=4).state
    result = act(act(state, "fire", "a", weapon="photon-1", target="b").state, "resolve", "A", [4])
    assert events_of(result, "backlash")[0].get("points") == 3  # 12 / 4
    assert ship_state(result.state, "a").shield_damage[FORE] == 1  # 3 - 2 reinforcement


def test_A001_23_photon_rate_is_per_launcher_and_the_stock_comes_from_the_sheet():
    """A001.23: "every other turn" per launcher; a class's magazine is its sheet's stock."""
    state = powered(duel({"torpedoes": 2, "elevation": "dorsal"}, distance=18.0))
    assert ship_state(state, "a").torpedoes == 2  # not the CA's 20
    fired = act(state, "fire", "a", weapon="photon-1", target="b").state
    state = powered(act(fired, "resolve", "A", [4]).state)
    refused("R001.17", state, "fire", "a", weapon="photon-1", target="b")
    state = act(state, "fire", "a", weapon="photon-2", target="b").state  # the other launcher
    state = powered(act(state, "resolve", "A", [4]).state)
    assert ship_state(state, "a").torpedoes == 0
    assert ship_state(state, "a").launchers == (1, 2)
    refused("R001.17", state, "fire", "a", weapon="photon-1", target="b")  # ready, but empty


def test_R001_18_photon_launcher_arcs():
    ahead = duel(distance=18.0)
    behind = duel(distance=18.0, a_heading=270.0)
    assert HC.declare_attack(ahead, "a", "photon-1", "b").weapon == "photon-1"
    with pytest.raises(UserError) as error:
        HC.declare_attack(ahead, "a", "photon-2", "b")
    assert error.value.spec_id == "R001.18"
    assert HC.declare_attack(behind, "a", "photon-2", "b").weapon == "photon-2"
    with pytest.raises(UserError):
        HC.declare_attack(behind, "a", "photon-1", "b")
    above = duel({"elevation": "dorsal"}, distance=18.0, a_heading=270.0)
    assert {HC.declare_attack(above, "a", w, "b").weapon for w in ("photon-1", "photon-2")} == {
        "photon-1",
        "photon-2",
    }
    single = duel({"photon_launchers": 1}, distance=18.0)
    assert HC.weapons(single.unit("a"), {}) == ("phasers", "photon-1")


def test_R001_19_klingon_disruptors():
    klingon = {"race": "klingon", "disruptors": True}
    state = powered(duel(klingon, distance=6.0))
    result = act(
        act(state, "fire", "a", weapon="disruptors", target="b").state, "resolve", "A", [2]
    )
    assert events_of(result, "to-hit")[0].get("automatic") is True  # range 1 (A001.7)
    assert events_of(result, "damage")[0].get("raw") == 6
    assert events_of(result, "backlash") == []
    # fired in turn 1: refused in 2 and 3, allowed in 4
    state = powered(duel(klingon, distance=6.0))
    state = act(
        act(state, "fire", "a", weapon="disruptors", target="b").state, "resolve", "A", [2]
    ).state
    for _ in (2, 3):
        state = powered(state)
        refused("R001.19", state, "fire", "a", weapon="disruptors", target="b")
        state = act(state, "resolve", "A").state
    state = powered(state)
    assert act(state, "fire", "a", weapon="disruptors", target="b").summary == (
        "fire",
        "disruptors",
    )
    behind = duel(klingon, distance=18.0, a_heading=270.0)
    with pytest.raises(UserError) as error:
        HC.declare_attack(behind, "a", "disruptors", "b")
    assert error.value.spec_id == "R001.19"


def test_R001_20_each_launch_rolls_its_own_to_hit_and_damage():
    state = powered(duel(distance=30.0, a_heading=0.0, b_heading=0.0), a=(6, 6))
    state = with_ship(state, "a", elevation="dorsal")  # both launchers track dorsal
    state, _ = run(
        state,
        ("fire", "a", [], {"weapon": "photon-1", "target": "b"}),
        ("fire", "a", [], {"weapon": "photon-2", "target": "b"}),
    )
    result = act(state, "resolve", "A", [3, 5, 2])
    rolls = [(e.get("what"), e.get("result")) for e in events_of(result, "roll")]
    assert rolls == [
        ("photon-1 to-hit", 3),
        ("photon-1 damage", 5),
        ("photon-2 to-hit", 2),
    ]


def test_R001_21_no_fire_beyond_range_3():
    state = duel(distance=40.0)
    assert view(state).range is None and view(state).band == 4
    with pytest.raises(UserError) as error:
        HC.declare_attack(state, "a", "phasers", "b", {"power": 1})
    assert error.value.spec_id == "R001.21"


# --------------------------------------------------------------------------- rotation, damage


def test_R001_22_firer_rotating_halves_directed_energy_rounding_up():
    state = act(duel(distance=6.0), "rotate", "a", to="port").state
    result = fire_now(state, "phasers", [], power=3)  # 9 -> 4.5 -> 5
    assert events_of(result, "halved")[0].values == {"raw": 9, "delivered": 5}
    assert result.summary.shield_damage == 5


@pytest.mark.parametrize(
    ("turn_of_step", "weapon", "dice", "portions"),
    [
        (0, "phasers", [], [("fore", 8)]),
        (0, "photon-1", [4], [("fore", 4), ("port", 4)]),
        (1, "phasers", [], [("fore", 4), ("port", 4)]),
        (1, "photon-1", [5], [("fore", 5), ("port", 5)]),
    ],
)
def test_R001_23_target_rotation_splits(turn_of_step, weapon, dice, portions):
    """A001.3: the "first / second phase" is the 1st / 2nd turn of the target's rotation step."""
    state = duel(distance=18.0)
    state = with_ship(state, "b", turning=Turning(("fore", "port"), 0, turn_of_step))
    result = fire_now(state, weapon, dice, power=4) if weapon == "phasers" else None
    if result is None:
        result = fire_now(state, weapon, dice)
    assert [(e.get("facing"), e.get("points")) for e in events_of(result, "shield")] == portions


def test_R001_23_split_gives_the_odd_point_to_the_first_facing():
    state = with_ship(duel(distance=6.0), "b", turning=Turning(("fore", "dorsal"), 0, 1))
    result = fire_now(state, "phasers", [], power=3)  # 9 -> 5 fore, 4 dorsal
    assert [(e.get("facing"), e.get("points")) for e in events_of(result, "shield")] == [
        ("fore", 5),
        ("dorsal", 4),
    ]


def test_A001_4_directed_energy_halved_in_both_turns_tracking_split_only_by_the_target():
    """A001.4: a rotating firer loses half its directed energy in either turn of a step and
    nothing of its tracking fire; tracking fire is split only when the target rotates."""
    firing = with_ship(duel(distance=18.0), "a", turning=Turning(("fore", "port"), 0, 1))
    phasers = fire_now(firing, "phasers", [], power=4)  # 8 -> 4, second turn of A's step
    assert [(e.get("facing"), e.get("points")) for e in events_of(phasers, "shield")] == [
        ("fore", 4)
    ]
    photon = fire_now(firing, "photon-1", [5])  # 10, neither halved nor split
    assert [(e.get("facing"), e.get("points")) for e in events_of(photon, "shield")] == [
        ("fore", 10)
    ]
    target = with_ship(duel(distance=18.0), "b", turning=Turning(("fore", "port"), 0, 0))
    split = fire_now(target, "photon-1", [5])
    assert [(e.get("facing"), e.get("points")) for e in events_of(split, "shield")] == [
        ("fore", 5),
        ("port", 5),
    ]


def test_R001_24_pipeline_order():
    """raw -> firer halving -> target split -> reinforcement -> countermeasures -> shield."""
    state = powered(duel(distance=6.0))
    state = act(state, "rotate", "a", to="port").state
    state = with_ship(state, "b", turning=Turning(("fore", "dorsal"), 0, 1))
    state = act(state, "reinforce", "b", facing="fore", power=4).state  # 2 points
    state = act(state, "countermeasures", "b", power=2).state  # 1 point
    result = act(
        act(state, "fire", "a", weapon="phasers", target="b", power=4).state, "resolve", "A"
    )
    kinds = [e.kind for e in result.events]
    order = [
        kinds.index(k)
        for k in ("damage", "halved", "split", "reinforcement", "countermeasures", "shield")
    ]
    assert order == sorted(order)
    # 12 -> 6 -> fore 3 / dorsal 3 -> fore 3-2 = 1 -> countermeasures 1 -> 0; dorsal 3
    shields = [(e.get("facing"), e.get("points")) for e in events_of(result, "shield")]
    assert shields == [("fore", 0), ("dorsal", 3)]


def test_R001_25_shield_overflow_destroys_one_internal_box_per_point():
    """A001.15: each point of shield overflow destroys one internal box."""
    state = duel({}, {"shields": {"fore": 5}}, distance=18.0)
    result = fire_now(state, "phasers", [3, 4, 5], power=4)  # 8: 5 on the shield, 3 inside
    assert result.summary.shield_damage == 5 and result.summary.internals_total == 3
    assert ship_state(result.state, "b").destroyed == (0, 0, 1, 1, 1, 0)
    assert [e.get("system") for e in events_of(result, "internal")] == [
        "weapons",
        "impulse",
        "batteries",
    ]


def test_R001_26_reinforcement_carries_one_turn_if_not_fired_on():
    """A001.20: "not fired on" is per facing; the carry-over lasts one extra turn at most."""
    state = powered(duel(distance=18.0))
    state = act(state, "reinforce", "b", facing="port", power=4).state
    state = act(state, "reinforce", "b", facing="fore", power=6).state
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    result = act(state, "resolve", "A")  # 2 of fore's 3 points absorb the phasers
    b = ship_state(result.state, "b")
    assert [(r.facing, r.points, r.turn) for r in b.reinforcement] == [("port", 2, 1)]
    assert {e.kind for e in events_of(result, "reinforcement-expired")} == {"reinforcement-expired"}
    result = act(powered(result.state), "resolve", "A")
    assert ship_state(result.state, "b").reinforcement == ()  # then shield levels return


def test_R001_27_countermeasures_negate_after_reinforcement_and_carry():
    state = powered(duel(distance=18.0))
    state = act(state, "countermeasures", "b", power=6).state  # 3 points
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state  # 2 damage
    result = act(state, "resolve", "A")
    assert events_of(result, "countermeasures")[0].get("negated") == 2
    assert ship_state(result.state, "b").countermeasures == ()  # fired at: expires
    quiet = act(act(powered(duel()), "countermeasures", "b", power=4).state, "resolve", "A")
    assert ship_state(quiet.state, "b").countermeasure_points == 2  # carried
    none = powered(duel(distance=18.0, countermeasures="none"))
    none = act(
        act(none, "countermeasures", "b", power=6).state,
        "fire",
        "a",
        weapon="phasers",
        target="b",
        power=1,
    ).state
    assert events_of(act(none, "resolve", "A"), "countermeasures") == []


def test_R001_28_shield_damage_is_cumulative_x_of_y():
    """A001.13: "X/Y" is the facing's running damage total / the facing's capacity."""
    state = duel(distance=18.0)
    first = fire_now(state, "phasers", [], power=2)
    second = HC.resolve_attack(
        first.state,
        HC.declare_attack(first.state, "a", "phasers", "b", {"power": 3}),
        ScriptedDice([]),
    )
    shield = events_of(second, "shield")[0]
    assert (shield.get("points"), shield.get("total"), shield.get("capacity")) == (6, 10, 27)
    assert ship_state(second.state, "b").shield_damage[FORE] == 10


# --------------------------------------------------------------------------- cloak, sensors


def test_R001_29_cloak_cycle():
    klingon = {"race": "klingon", "cloak": True}
    state = powered(duel({}, klingon, distance=18.0))
    refused("R001.29", state, "cloak", "a")  # no cloaking device
    state = act(state, "cloak", "b").state
    refused("R001.29", state, "fire", "b", weapon="phasers", target="a", power=1)
    refused("R001.29", state, "reinforce", "b", facing="fore", power=2)
    assert ship_state(act(state, "countermeasures", "b", power=2).state, "b").spent == 3
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    result = act(state, "resolve", "A", [4, 5])  # no shields: 2 internals
    assert result.summary.damage[1] == ("b", 0, 2)
    b = ship_state(result.state, "b")
    assert b.cloak == "on"
    state = powered(result.state)
    assert ship_state(state, "b").spent == 1  # upkeep
    refused("R001.29", state, "fire", "b", weapon="phasers", target="a", power=1)
    state = act(state, "decloak", "b").state
    state = act(state, "resolve", "A").state
    assert ship_state(state, "b").cloak == "disengaging" and ship_state(state, "b").cloak_turns == 1
    state = powered(state)
    refused("R001.29", state, "fire", "b", weapon="phasers", target="a", power=1)
    state = act(state, "resolve", "A").state
    assert ship_state(state, "b").cloak == "off"
    limit = with_ship(powered(duel({}, klingon)), "b", cloak="on", cloak_turns=9)
    assert ship_state(act(limit, "resolve", "A").state, "b").cloak == "disengaging"
    spent = with_ship(powered(duel({}, klingon)), "b", cloak_turns=10)
    refused("R001.29", spent, "cloak", "b")


def test_A001_11_no_shields_or_weapons_the_turn_after_the_cloak_drops():
    """A001.11: the transition turns are the one before engaging and the one after
    disengaging (not the first cloaked turn)."""
    klingon = {"race": "klingon", "cloak": True}
    state = with_ship(powered(duel({}, klingon, distance=18.0)), "b", cloak="on")
    state = powered(act(act(state, "decloak", "b").state, "resolve", "A").state)
    assert ship_state(state, "b").cloak == "disengaging"
    refused("R001.29", state, "fire", "b", weapon="phasers", target="a", power=1)
    refused("R001.29", state, "reinforce", "b", facing="fore", power=2)
    state = act(state, "fire", "a", weapon="phasers", target="b", power=1).state
    result = act(state, "resolve", "A", [4, 5])  # 2 points, no shields: 2 internals
    assert result.summary.damage[1] == ("b", 0, 2)
    after = act(powered(result.state), "fire", "b", weapon="phasers", target="a", power=1)
    assert ship_state(after.state, "b").spent == 1  # cloak off: B fires again


def test_R001_30_firing_at_a_cloaked_ship():
    state = with_ship(duel(distance=18.0), "b", cloak="on")
    miss = fire_now(state, "phasers", [2], power=2)  # rolled Aft, B is off A's fore
    assert miss.summary.hit is False
    lookup = events_of(miss, "lookup")[0]
    assert (lookup.spec_id, lookup.get("direction")) == ("T001.4", "aft")
    hit = fire_now(state, "phasers", [1, 3, 5, 6, 3], power=2)  # Fore: 4 straight to internals
    assert hit.summary.hit and hit.summary.shield_damage == 0 and hit.summary.internals_total == 4
    nominate = with_ship(duel(distance=18.0, cloaked_direction="declare"), "b", cloak="on")
    declared = fire_now(nominate, "phasers", [1, 2, 3, 4], power=2, direction="fore")
    assert declared.summary.hit
    with pytest.raises(UserError) as error:
        HC.declare_attack(nominate, "a", "phasers", "b", {"power": 2})
    assert error.value.spec_id == "R001.30"


def test_R001_31_half_the_sensors_lost_hits_on_1_to_3():
    """A001.21: the 1-3 roll replaces every to-hit rule, automatic hits included."""
    state = with_ship(duel(distance=18.0), "a", destroyed=(0, 2, 0, 0, 0, 0))
    assert fire_now(state, "phasers", [3], power=2).summary.hit
    miss = fire_now(state, "phasers", [4], power=2)  # replaces even the automatic hit
    assert miss.summary.hit is False
    assert events_of(miss, "to-hit")[0].spec_id == "R001.31"


def test_R001_32_no_sensors_uses_the_direction_table_damage_to_shields():
    state = with_ship(duel(distance=18.0), "a", destroyed=(0, 4, 0, 0, 0, 0))
    hit = fire_now(state, "phasers", [1], power=2)
    assert hit.summary.hit and hit.summary.shield_damage == 4
    assert events_of(hit, "to-hit")[0].spec_id == "R001.32"
    assert fire_now(state, "phasers", [5], power=2).summary.hit is False


def test_R001_33_flash_detection():
    state = with_ship(powered(duel(distance=18.0), a=(6, 6)), "b", cloak="on")
    refused("R001.33", with_ship(state, "b", cloak="off"), "flash_detect", "a", predicted="none")
    refused("R001.33", state, "flash_detect", "a", predicted="warp")
    right = act(state, "flash_detect", "a", predicted="close").state
    right = act(right, "close", "b").state
    right = act(right, "fire", "a", weapon="phasers", target="b", power=1).state
    result = act(right, "resolve", "A", [3, 4])
    to_hit = events_of(result, "to-hit")[0]
    assert (to_hit.spec_id, to_hit.get("hit")) == ("R001.33", True)
    assert result.summary.damage[1] == ("b", 0, 2)  # straight to internals
    wrong = act(state, "flash_detect", "a", predicted="rotate").state
    wrong = act(wrong, "fire", "a", weapon="phasers", target="b", power=1).state
    assert events_of(act(wrong, "resolve", "A"), "to-hit")[0].get("hit") is False


# --------------------------------------------------------------------------- internals, repair


def test_R001_34_a_wreck_rolls_no_more():
    state = with_ship(duel({}, {"shields": {"fore": 0}}), "b", destroyed=(4, 4, 4, 4, 4, 2))
    state = with_ship(state, "b", catastrophic=True)
    result = fire_now(state, "phasers", [6], power=1)  # 2 points: the last box, then nothing
    kinds = [e.kind for e in result.events]
    assert kinds.count("internal") == 1 and "wreck" in kinds
    assert ship_state(result.state, "b").out == "wreck"
    from tactical.rules.base import TurnPosition

    assert HC.actions(result.state, TurnPosition(1, 0, 0, 0), "A") == ()


def test_R001_35_catastrophic_roll_is_made_once():
    """A001.19: the catastrophic roll is made once, when the threshold is first reached."""
    state = with_ship(duel({}, {"shields": {"fore": 0}}), "b", destroyed=(4, 4, 4, 4, 0, 0))
    first = fire_now(state, "phasers", [5, 6, 6, 5], power=1)  # 17th box -> 6 -> +1, then 1
    assert first.summary.catastrophic and ship_state(first.state, "b").catastrophic
    again = HC.resolve_attack(
        first.state,
        HC.declare_attack(first.state, "a", "phasers", "b", {"power": 1}),
        ScriptedDice([5, 5]),
    )
    assert "catastrophic" not in [e.kind for e in again.events]


def test_R001_36_repair_three_points_restore_a_box():
    state = with_ship(powered(duel()), "a", destroyed=(0, 0, 0, 2, 0, 0))
    refused("R001.36", state, "repair", "a", system="warp", power=1)  # not damaged
    refused("R001.36", state, "repair", "a", system="impulse", power=3)
    state = act(state, "repair", "a", system="impulse", power=2).state
    refused("R001.36", state, "repair", "a", system="impulse", power=1)
    state = act(state, "resolve", "A").state
    assert ship_state(state, "a").repair_points[3] == 2
    state = act(powered(state), "repair", "a", system="impulse", power=1).state
    result = act(state, "resolve", "A")
    assert ship_state(result.state, "a").destroyed == (0, 0, 0, 1, 0, 0)
    assert events_of(result, "repaired")[0].get("system") == "impulse"


def test_A001_14_two_points_a_turn_repair_two_systems_over_three_turns():
    """A001.14: at most 2 repair points a turn; 3 points repair a system."""
    state = with_ship(powered(duel()), "a", destroyed=(0, 1, 0, 1, 0, 0))
    refused("R001.36", state, "repair", "a", system="impulse", power=3)
    plan = ((("impulse", 2),), (("impulse", 1), ("sensors", 1)), (("sensors", 2),))
    destroyed = []
    for orders in plan:
        for system, power in orders:
            state = act(state, "repair", "a", system=system, power=power).state
        state = act(state, "resolve", "A").state
        destroyed.append(ship_state(state, "a").destroyed)
        state = powered(state)
    assert destroyed == [(0, 1, 0, 1, 0, 0), (0, 1, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0)]


def test_A001_10_each_weapon_fires_general_or_specific_a_specific_hit_is_one_point():
    """A001.10: general or specific is chosen per weapon; a specific hit does its 1 point
    and none of the weapon's normal damage."""
    state = powered(duel(distance=18.0))
    specific = {"weapon": "phasers", "target": "b", "power": 5, "mode": "specific"}
    state, _ = run(
        state,
        ("fire", "a", [], {**specific, "system": "warp"}),
        ("fire", "a", [], {"weapon": "photon-1", "target": "b"}),
    )
    result = act(state, "resolve", "A", [1, 4])  # d10 1: warp hit; photon 4 x 2 on fore
    b = ship_state(result.state, "b")
    assert b.destroyed == (0, 0, 0, 0, 0, 1)
    assert b.shield_damage == (8, 0, 0, 0, 0, 0)  # the phasers' 10 points are not applied


def test_R001_37_specific_system_shot():
    state = duel(distance=18.0)
    hit = fire_now(state, "phasers", [1], power=3, mode="specific", system="warp")
    assert hit.summary.specific is True and hit.summary.shield_damage == 0
    assert ship_state(hit.state, "b").destroyed == (0, 0, 0, 0, 0, 1)
    miss = fire_now(state, "phasers", [2], power=3, mode="specific", system="warp")
    assert miss.summary.specific is False and ship_state(miss.state, "b").destroyed_total == 0
    with pytest.raises(UserError) as error:
        HC.declare_attack(state, "a", "phasers", "b", {"mode": "specific", "system": "hull"})
    assert error.value.spec_id == "R001.37"
    with pytest.raises(UserError) as error:
        HC.declare_attack(state, "a", "phasers", "b", {"system": "warp"})
    assert error.value.spec_id == "R001.37"


# --------------------------------------------------------------------------- configurable readings


def test_A001_6_tracking_damage_die_is_configurable():
    default = fire_now(duel(distance=18.0), "photon-1", [4])
    assert events_of(default, "damage")[0].get("raw") == 8  # 1d6 x 2
    two_dice = duel(distance=18.0, tracking_damage_die="2d6")
    result = fire_now(two_dice, "photon-1", [11])
    roll = events_of(result, "roll")[0]
    assert (roll.get("die"), roll.get("result")) == ("2d6", 11)
    assert events_of(result, "damage")[0].get("raw") == 22
    report = HC.attack_odds(two_dice, HC.declare_attack(two_dice, "a", "photon-1", "b"))
    shields = report.section("shield_damage").distribution
    assert shields.probability(4) == pytest.approx(1 / 36)  # 2d6 = 2 -> 4 points


def test_A001_9_specific_shot_odds_d10_and_2d6():
    state = duel(distance=18.0)
    params = {"power": 1, "mode": "specific", "system": "sensors"}
    d10 = HC.attack_odds(state, HC.declare_attack(state, "a", "phasers", "b", params))
    assert d10.section("system_hit").distribution.probability(True) == pytest.approx(1 / 10)
    chart = duel(distance=18.0, specific_system_die="2d6")
    odds = HC.attack_odds(chart, HC.declare_attack(chart, "a", "phasers", "b", params))
    from fractions import Fraction

    assert odds.section("system_hit").distribution.probability(True) == Fraction(1, 35)


def test_R001_30_declared_direction_is_a_panel_field():
    from tactical.rules.base import TurnPosition

    state = with_ship(powered(duel(distance=18.0, cloaked_direction="declare")), "b", cloak="on")
    fire = [c for c in HC.actions(state, TurnPosition(1, 3, 0, 0), "A") if c.kind == "fire"]
    direction = next(f for f in fire[0].fields if f.name == "direction")
    assert direction.required and direction.choices == (
        "fore",
        "aft",
        "port",
        "starboard",
        "dorsal",
        "ventral",
    )
