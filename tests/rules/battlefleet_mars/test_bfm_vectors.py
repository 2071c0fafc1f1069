"""The SPEC's test vectors X000.1-X000.12, each through the real resolvers where it can be."""

from __future__ import annotations

import pytest
from bfm_builders import duel, table, unit

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.rules import registry
from tactical.rules.battlefleet_mars.logistics import (
    Purchase,
    check_budget,
    resolve_launch,
    resolve_purchase,
)
from tactical.rules.battlefleet_mars.tables import damage_result

BFM = registry.get("battlefleet-mars")


def _laser(state, dice):
    attack = BFM.declare_attack(state, "a", "laser", "t")
    return BFM.resolve_attack(state, attack, ScriptedDice(dice))


def _salvo(state, dice, **params):
    attack = BFM.declare_attack(state, "a", "missiles", "t", params)
    return BFM.resolve_attack(state, attack, ScriptedDice(dice))


def _events(resolution, kind):
    return [e for e in resolution.events if e.kind == kind]


def test_X000_1_separate_lp_budgets_R000_16():
    check_budget(4, 4, 4)
    with pytest.raises(UserError, match=r"R000\.16"):
        check_budget(4, 5, 4)
    state = table(unit("phobos", 5, 5, type="base"), lp_limit=4)
    legal = resolve_purchase(state, [Purchase("phobos", fighters=6, missiles=12)], other_lp=4)
    assert legal.summary == 4
    assert legal.state.unit("phobos").stats["missiles"] == 12
    with pytest.raises(UserError, match=r"R000\.16"):
        resolve_purchase(state, [Purchase("phobos", fighters=6, missiles=13)], other_lp=4)


def test_X000_2_base_at_range_11():
    state = duel({"type": "base"}, {"type": "ship", "laser_strength": 3}, distance=11)
    hit = _laser(state, [9, 5])
    assert _events(hit, "threshold")[0].get("needed") == 9
    assert _events(hit, "to-hit")[0].get("hit") is True
    miss = _laser(state, [8])
    assert miss.summary == "miss"


def test_X000_3_strength_4_cannot_reach_range_11():
    state = duel({"type": "catapult"}, {"type": "base"}, distance=11)
    with pytest.raises(UserError, match=r"R000\.6"):
        BFM.declare_attack(state, "a", "laser", "t")


def test_X000_4_fighter_at_range_0():
    state = duel({"type": "fighter"}, {"type": "fighter"}, distance=0.5)
    assert _laser(state, [0]).summary == "miss"
    assert _events(_laser(state, [0]), "threshold")[0].get("needed") == 1
    assert _laser(state, [1, 0]).summary != "miss"


def test_X000_5_negative_threshold_is_clamped_to_zero():
    state = duel({"type": "base"}, {"type": "ship", "laser_strength": 2}, distance=1)
    resolution = _laser(state, [0, 0])
    assert _events(resolution, "threshold")[0].get("needed") == 0
    assert resolution.summary != "miss"


def test_X000_6_total_11_is_destroyed_vs_ship_and_base():
    # LS 6 at range 0: d2 = 5 gives 5 + 6 - 0 = 11
    versus_ship = _laser(duel({"type": "base"}, {"type": "ship", "laser_strength": 1}), [0, 5])
    versus_base = _laser(duel({"type": "base"}, {"type": "base"}), [0, 5])
    assert _events(versus_ship, "damage-total")[0].get("total") == 11
    assert (versus_ship.summary, versus_base.summary) == ("D", "D")


def test_X000_7_results_against_fighters_and_missiles():
    # LS 3 at range 0: total = d2 + 3
    fighter = duel({"type": "transport"}, {"type": "fighter"})
    il = _laser(fighter, [5, 0])
    assert il.summary == "iL" and not il.state.has_unit("t")
    l2 = _laser(fighter, [5, 2])
    assert l2.summary == "L2" and l2.state.has_unit("t")
    missile = duel({"type": "transport"}, {"type": "missile"})
    killed = _laser(missile, [5, 2])
    assert killed.summary == "L2" and not killed.state.has_unit("t")


def test_X000_8_missile_damage_d9_is_B4_vs_ship_L4_vs_base():
    versus_ship = duel({"type": "missile"}, {"type": "ship", "laser_strength": 4})
    versus_base = duel({"type": "missile"}, {"type": "base"})
    ship = _salvo(versus_ship, [9], missiles=1, ciws=False)
    base = _salvo(versus_base, [9], missiles=1, ciws=False)
    assert _events(ship, "damage-total")[0].get("total") == 10
    assert _events(ship, "lookup")[0].get("result") == "B4"
    assert _events(base, "lookup")[0].get("result") == "L4"
    assert damage_result(10, "ship") == "B4"


def test_X000_9_base_always_stops_the_first_missile():
    state = duel({"type": "missile"}, {"type": "base"})
    resolution = _salvo(state, [9], missiles=1)
    ciws = _events(resolution, "ciws")[0]
    assert (ciws.get("threshold"), ciws.get("destroyed")) == (9, True)
    assert resolution.summary.ciws_destroyed == 1
    assert not _events(resolution, "damage-total")


def test_X000_10_lasers_destroyed_still_have_ciws_zero():
    state = duel({"type": "missile"}, {"type": "ship", "laser_strength": 0})
    stopped = _salvo(state, [3], missiles=1)
    assert _events(stopped, "ciws-declared")[0].get("ciws_strength") == 0
    assert _events(stopped, "ciws")[0].get("threshold") == 3
    assert stopped.summary.ciws_destroyed == 1
    through = _salvo(state, [4, 0], missiles=1)
    assert through.summary.ciws_destroyed == 0
    assert _events(through, "lookup")[0].get("result") == "B1"


def test_X000_11_tenth_missile_against_cs_6():
    state = duel({"type": "missile", "count": 10}, {"type": "base"})
    # missiles 1-9 roll 9 (only the 1st is stopped), the 10th rolls 0 (T10 = 0: destroyed)
    ciws_rolls = [9] * 9 + [0]
    resolution = _salvo(state, ciws_rolls + [0] * 8, missiles=10)
    tenth = _events(resolution, "ciws")[9]
    assert (tenth.get("missile"), tenth.get("threshold"), tenth.get("destroyed")) == (10, 0, True)
    survives = _salvo(state, [9] * 9 + [1] + [0] * 9, missiles=10)
    assert _events(survives, "ciws")[9].get("destroyed") is False


def test_X000_12_launch_capacity_2_launches_up_to_4_missiles():
    state = duel(
        {"type": "ship", "laser_strength": 3, "launch_capacity": 2, "missiles": 10},
        {"type": "ship", "laser_strength": 3},
    )
    attack = BFM.declare_attack(state, "a", "missiles", "t", {"missiles": 4})
    assert attack.params["missiles"] == 4
    with pytest.raises(UserError, match=r"R000\.17"):
        BFM.declare_attack(state, "a", "missiles", "t", {"missiles": 5})
    launched = resolve_launch(state, "a", missiles=4)
    assert launched.state.unit("a").stats["launched"] == 4
    with pytest.raises(UserError, match=r"R000\.17"):
        resolve_launch(state, "a", missiles=5)
