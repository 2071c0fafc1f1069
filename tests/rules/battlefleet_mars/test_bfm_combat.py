"""Battlefleet Mars resolvers and odds, one test per rule R000.1-R000.27 (SPEC §1.2)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from bfm_builders import duel, table, unit

from tactical.dice import D10Z, Distribution, ScriptedDice, SeededDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.rules import registry
from tactical.rules.base import Attack
from tactical.rules.battlefleet_mars.chance import ciws_fire
from tactical.rules.battlefleet_mars.combat import (
    SalvoSummary,
    all_pair_odds,
    laser_shot,
    missile_salvo,
    resolve,
    settings,
)
from tactical.rules.battlefleet_mars.tables import (
    ciws_threshold,
    damage_result,
    laser_damage_total,
    to_hit_threshold,
)

BFM = registry.get("battlefleet-mars")


def _resolve(state, weapon, dice, **params):
    attack = BFM.declare_attack(state, "a", weapon, "t", params)
    return BFM.resolve_attack(state, attack, ScriptedDice(dice))


def _kinds(resolution):
    return [e.kind for e in resolution.events]


def _brute_laser(ls: int, range_r: int, column: str) -> Distribution[str]:
    """A second, independent computation of the laser odds over all 100 dice pairs."""
    needed = to_hit_threshold(range_r, ls)
    weights = []
    for d1, d2 in itertools.product(range(10), repeat=2):
        if needed is None or d1 < needed:
            weights.append(("miss", 1))
        else:
            weights.append((damage_result(laser_damage_total(d2, ls, range_r), column), 1))
    return Distribution.from_weights(weights)


def test_R000_1_every_roll_is_a_d10_read_0_to_9():
    state = duel({"type": "missile", "count": 3}, {"type": "base"})
    dice = SeededDice(3)
    BFM.resolve_attack(state, BFM.declare_attack(state, "a", "missiles", "t"), dice)
    assert dice.rolls and all(r.die == "d10z" and r.faces == 10 for r in dice.rolls)
    assert all(0 <= r.result <= 9 for r in dice.rolls)


def test_R000_2_laser_strength_is_0_to_6():
    assert BFM.check_stats({"type": "ship", "laser_strength": 7})
    assert BFM.check_stats({"type": "ship", "laser_strength": -1})
    assert BFM.check_stats({"type": "ship"})  # a generic ship must state it
    assert not BFM.check_stats({"type": "ship", "laser_strength": 6})
    assert not BFM.check_stats({"type": "base"})  # nominal 6 from the column label
    problem = BFM.check_stats({"type": "ship", "laser_strength": 9})[0]
    assert (problem.key, problem.spec_id) == ("laser_strength", "R000.2")


def test_R000_3_each_unit_resolves_its_own_attack():
    """No fire groups: two attackers against one target are two separate attacks."""
    state = table(
        unit("a", 10, 10, "A", type="base"),
        unit("b", 11, 10, "A", type="base"),
        unit("t", 15, 10, "B", type="ship", laser_strength=2),
    )
    first = BFM.resolve_attack(state, Attack("a", "laser", "t"), ScriptedDice([9, 0]))
    assert [e.get("attacker") for e in first.events if e.kind == "declare"] == ["a"]
    assert sum(1 for e in first.events if e.kind == "to-hit") == 1
    assert first.events[0].spec_id == "R000.3"


def test_R000_4_hit_iff_roll_exceeds_range_minus_half_strength():
    # LS 5 at range 6: d > 6 - 3 = 3
    state = duel({"type": "ship", "laser_strength": 5}, {"type": "base"}, distance=6)
    assert _resolve(state, "laser", [3]).summary == "miss"
    assert _resolve(state, "laser", [4, 0]).summary != "miss"


def test_R000_5_threshold_event_and_skip_when_impossible():
    state = duel({"type": "miner"}, {"type": "base"}, distance=9)
    resolution = _resolve(state, "laser", [9, 0])
    threshold = next(e for e in resolution.events if e.kind == "threshold")
    assert (threshold.spec_id, threshold.get("needed")) == ("R000.5", 9)


def test_R000_6_beyond_max_range_cannot_be_declared():
    state = duel({"type": "miner"}, {"type": "base"}, distance=10)
    with pytest.raises(UserError, match=r"R000\.6") as caught:
        BFM.declare_attack(state, "a", "laser", "t")
    assert "beyond 9" in caught.value.message


def test_R000_7_column_by_current_strength_not_type_A000_2():
    """A catapult reduced to LS 2 uses the 2/Mnr column."""
    damaged = duel({"type": "catapult", "laser_strength": 2}, {"type": "base"}, distance=9)
    needed = next(e for e in _resolve(damaged, "laser", [9, 0]).events if e.kind == "threshold")
    assert needed.get("needed") == 9 == to_hit_threshold(9, 2)
    with pytest.raises(UserError, match=r"R000\.6"):
        BFM.declare_attack(
            duel({"type": "catapult", "laser_strength": 2}, {"type": "base"}, distance=10),
            "a",
            "laser",
            "t",
        )


def test_R000_8_damage_total_uses_firer_strength_and_range_bracket():
    state = duel({"type": "ship", "laser_strength": 4}, {"type": "ship", "laser_strength": 1}, 7)
    resolution = _resolve(state, "laser", [9, 6])
    total = next(e for e in resolution.events if e.kind == "damage-total")
    assert (total.get("total"), total.get("range_term"), total.spec_id) == (8, 2, "R000.8")
    assert resolution.summary == "B3"


def test_R000_9_base_column_for_bases_ship_column_for_the_rest():
    for kind, expected in (
        ("base", "L1"),
        ("transport", "L2"),
        ("fighter", "L2"),
        ("missile", "L2"),
    ):
        state = duel({"type": "ship", "laser_strength": 5}, {"type": kind})
        assert _resolve(state, "laser", [0, 0]).summary == expected, kind


def test_R000_10_fighters_die_to_iL_R_D_only():
    state = duel({"type": "ship", "laser_strength": 4}, {"type": "fighter", "count": 3})
    killed = _resolve(state, "laser", [0, 0])  # total 4 -> R
    assert killed.summary == "R"
    assert killed.state.unit("t").stats["count"] == 2
    outcome = next(e for e in killed.events if e.kind == "outcome")
    assert (outcome.spec_id, outcome.get("destroyed")) == ("R000.10", True)
    spared = _resolve(state, "laser", [0, 2])  # total 6 -> B2
    assert spared.state == state


def test_R000_11_missiles_die_to_any_L_result():
    state = duel({"type": "ship", "laser_strength": 4}, {"type": "missile", "count": 1})
    killed = _resolve(state, "laser", [0, 3])  # total 7 -> L3
    assert killed.summary == "L3" and not killed.state.has_unit("t")
    spared = _resolve(state, "laser", [0, 4])  # total 8 -> B3
    assert spared.state.has_unit("t")


def test_R000_12_ship_and_base_codes_go_to_the_base_game_unchanged():
    """B, iL, R and D stay base-game codes; an L code also lowers the lasers (A000.11, its
    own tests): with `laser_damage` off the ship is left as it was."""
    state = duel({"type": "base"}, {"type": "ship", "laser_strength": 3}, laser_damage=False)
    resolution = _resolve(state, "laser", [0, 1])  # total 7 -> L3
    outcome = next(e for e in resolution.events if e.kind == "outcome")
    assert (outcome.spec_id, outcome.get("result")) == ("R000.12", "L3")
    assert resolution.state.units == state.units
    # the code is only recorded against the ship, for the score of the game (A000.E1)
    assert resolution.state.rule_state["hits"] == {"t": ("L3",)}
    shaken = _resolve(table(*state.units), "laser", [0, 0])  # total 6 -> B2
    assert shaken.state.units == state.units
    assert shaken.state.rule_state["hits"] == {"t": ("B2",)}


def test_R000_13_missile_damage_is_d_plus_1_whatever_the_range_or_launcher():
    near = duel({"type": "missile"}, {"type": "ship", "laser_strength": 3}, distance=0)
    far = duel({"type": "missile"}, {"type": "ship", "laser_strength": 3}, distance=40)
    for state in (near, far):
        resolution = _resolve(state, "missiles", [5], ciws=False)
        total = next(e for e in resolution.events if e.kind == "damage-total")
        assert (total.get("total"), total.spec_id) == (6, "R000.13")


def test_A000_9_launcher_laser_strength_is_not_added_to_missile_damage():
    """A000.9: "ADD 1" replaces LS: a base (LS 6) launching at range 6 still does T = d + 1."""
    state = duel(
        {"type": "base", "launch_capacity": 1, "missiles": 2},
        {"type": "ship", "laser_strength": 3},
        distance=6,
    )
    resolution = _resolve(state, "missiles", [2], missiles=1, ciws=False)
    total = next(e for e in resolution.events if e.kind == "damage-total")
    assert total.get("total") == 3  # not 2 + 6 (launcher LS) nor 2 + 1 - 2 (range term)
    assert resolution.events[-1].get("results") == ("iL",)


def test_R000_14_survivors_hit_automatically_or_roll_with_the_A000_8_option():
    state = duel({"type": "missile"}, {"type": "ship", "laser_strength": 3})
    auto = _resolve(state, "missiles", [0], ciws=False)
    assert "to-hit" not in _kinds(auto)
    rolled = duel(
        {"type": "missile"},
        {"type": "ship", "laser_strength": 3},
        missile_to_hit="roll",
        missile_to_hit_score=5,
    )
    missed = _resolve(rolled, "missiles", [4], ciws=False)
    assert missed.events[-1].get("results") == ("miss",)
    hit = _resolve(rolled, "missiles", [5, 0], ciws=False)
    assert hit.events[-1].get("results") == ("B1",)


def test_R000_15_lp_cost_is_applied_to_purchases():
    from tactical.rules.battlefleet_mars.logistics import Purchase, resolve_purchase

    state = table(unit("b", 5, 5, type="base"))
    resolution = resolve_purchase(state, [Purchase("b", fighters=4, missiles=1)])
    assert resolution.summary == 3
    assert resolution.events[0].spec_id == "R000.15"


def test_R000_16_fighter_missile_budget_is_separate():
    from tactical.rules.battlefleet_mars.logistics import Purchase, resolve_purchase

    state = table(unit("b", 5, 5, type="base"), lp_limit=2)
    assert resolve_purchase(state, [Purchase("b", missiles=12)], other_lp=2).summary == 2
    with pytest.raises(UserError, match=r"R000\.16"):
        resolve_purchase(state, [Purchase("b", missiles=12)], other_lp=3)


def test_R000_17_launch_twice_capacity_counting_earlier_launches():
    state = duel(
        {"type": "base", "launch_capacity": 1, "missiles": 9, "launched": 1},
        {"type": "ship", "laser_strength": 3},
    )
    with pytest.raises(UserError, match=r"R000\.17"):
        BFM.declare_attack(state, "a", "missiles", "t", {"missiles": 2})
    attack = BFM.declare_attack(state, "a", "missiles", "t")
    assert attack.params["missiles"] == 1
    after = BFM.resolve_attack(state, attack, ScriptedDice([9, 0])).state.unit("a").stats
    assert (after["missiles"], after["launched"]) == (8, 2)


def test_R000_18_declaration_fixes_n_before_any_roll():
    state = duel({"type": "missile", "count": 5}, {"type": "base"})
    resolution = _resolve(state, "missiles", [0, 0, 0], missiles=3)
    assert resolution.events[0].kind == "declare" and resolution.events[0].get("missiles") == 3
    assert resolution.state.unit("a").stats["count"] == 2  # declared missiles are spent
    for bad in (0, -1, 6, True, "3"):
        with pytest.raises(UserError):
            BFM.declare_attack(state, "a", "missiles", "t", {"missiles": bad})


def test_R000_19_only_the_target_fires_ciws_at_the_declared_missiles():
    state = table(
        unit("a", 10, 10, "A", type="missile", count=2),
        unit("t", 12, 10, "B", type="transport"),
        unit("escort", 12, 11, "B", type="base"),
    )
    resolution = BFM.resolve_attack(
        state, BFM.declare_attack(state, "a", "missiles", "t"), ScriptedDice([9, 9, 0, 0])
    )
    ciws = [e for e in resolution.events if e.kind == "ciws"]
    assert len(ciws) == 2
    rolls = [e for e in resolution.events if e.kind == "roll" and "CIWS" in e.get("what")]
    assert {e.get("who") for e in rolls} == {"t"}
    declared = next(e for e in resolution.events if e.kind == "ciws-declared")
    assert declared.spec_id == "R000.19" and declared.get("ciws_strength") == 3
    skipped = _resolve(duel({"type": "missile"}, {"type": "base"}), "missiles", [9], ciws=False)
    assert "ciws" not in _kinds(skipped)


def test_R000_20_ciws_strength_is_current_laser_strength():
    state = duel({"type": "missile"}, {"type": "catapult", "laser_strength": 1})
    resolution = _resolve(state, "missiles", [4])
    assert next(e for e in resolution.events if e.kind == "ciws").get("threshold") == 4


def test_R000_21_GEO000_3_ciws_ignores_range():
    for distance in (0, 30):
        state = duel({"type": "missile", "count": 2}, {"type": "base"}, distance=distance)
        resolution = _resolve(state, "missiles", [9, 9, 0])
        thresholds = [e.get("threshold") for e in resolution.events if e.kind == "ciws"]
        assert thresholds == [9, 8]


def test_R000_22_kth_missile_threshold_and_any_hit_destroys():
    volley = ciws_fire(6, 4, ScriptedDice([9, 8, 8, 6]))
    assert [e.get("threshold") for e in volley.events if e.kind == "ciws"] == [9, 8, 7, 6]
    assert volley.survivors == (3,)


def test_R000_23_count_every_declared_missile_and_restart_per_declaration():
    """A000.7: destroyed missiles still advance k; a new declaration restarts at the 1st."""
    state = duel({"type": "missile", "count": 4}, {"type": "base"})
    first = _resolve(state, "missiles", [0, 9, 9, 0], missiles=2)
    second = BFM.resolve_attack(
        first.state,
        BFM.declare_attack(first.state, "a", "missiles", "t", {"missiles": 2}),
        ScriptedDice([9, 9, 0, 0]),
    )
    assert [e.get("missile") for e in second.events if e.kind == "ciws"] == [1, 2]
    # the first salvo's L4 left the base CS 2 (A000.11): thresholds 2+3, then one less
    assert [e.get("threshold") for e in second.events if e.kind == "ciws"] == [5, 4]


def test_R000_24_all_ciws_rolls_before_any_damage():
    state = duel({"type": "missile", "count": 4}, {"type": "transport"})
    resolution = _resolve(state, "missiles", [9, 9, 9, 9, 1, 2, 3, 4])
    kinds = [e.kind for e in resolution.events if e.kind in ("ciws", "damage-total")]
    assert kinds == ["ciws"] * 4 + ["damage-total"] * 4


def test_R000_25_fighters_have_no_ciws():
    state = duel({"type": "missile"}, {"type": "fighter"})
    attack = BFM.declare_attack(state, "a", "missiles", "t")
    assert attack.params["ciws"] is False
    with pytest.raises(UserError, match=r"R000\.25"):
        BFM.declare_attack(state, "a", "missiles", "t", {"ciws": True})


def test_A000_15_ciws_is_used_by_default_and_the_option_turns_it_off():
    used = BFM.declare_attack(duel({"type": "missile"}, {"type": "base"}), "a", "missiles", "t")
    assert used.params["ciws"] is True
    state = duel({"type": "missile"}, {"type": "base"}, ciws_default=False)
    assert BFM.declare_attack(state, "a", "missiles", "t").params["ciws"] is False
    assert BFM.declare_attack(state, "a", "missiles", "t", {"ciws": True}).params["ciws"] is True


def test_R000_26_missiles_remain_laser_targets():
    state = duel({"type": "fighter"}, {"type": "missile", "count": 2}, distance=2)
    assert "laser" in BFM.weapons(state.unit("a"), {})
    resolution = _resolve(state, "laser", [9, 9])  # LS 0, R 2: total 9 - 0 = 9 -> L4
    assert resolution.summary == "L4"
    assert resolution.state.unit("t").stats["count"] == 1


def test_A000_14_fighters_fire_lasers_at_strength_0():
    """A000.14: a fighter fires at LS 0 (the "0/Ftr" column) in both to-hit and damage."""
    state = duel({"type": "fighter"}, {"type": "ship", "laser_strength": 3}, distance=3)
    missed = _resolve(state, "laser", [3])  # N = 3 - 0 + 1 = 4
    assert missed.summary == "miss"
    threshold = next(e for e in missed.events if e.kind == "threshold")
    assert (threshold.get("laser_strength"), threshold.get("needed")) == (0, 4)
    hit = _resolve(state, "laser", [4, 5])  # T = 5 + 0 - floor(3/3) = 4 -> R
    assert next(e for e in hit.events if e.kind == "damage-total").get("total") == 4
    assert hit.summary == "R"
    # and a map cannot arm a fighter otherwise
    problems = BFM.check_stats({"type": "fighter", "laser_strength": 3})
    assert [(p.key, p.spec_id) for p in problems] == [("laser_strength", "A000.14")]
    assert BFM.check_stats({"type": "fighter", "laser_strength": 0}) == []


def test_R000_27_bases_shrug_off_salvos_better_than_transports():
    """Non-normative intent: CIWS makes bases stronger. Checked on exact expected survivors."""
    base = BFM.attack_odds(*_odds_args({"type": "base"}))
    transport = BFM.attack_odds(*_odds_args({"type": "transport"}))
    assert Fraction(base.facts["expected_survivors"]) < Fraction(
        transport.facts["expected_survivors"]
    )


def _odds_args(target):
    state = duel({"type": "missile", "count": 6}, target)
    return state, BFM.declare_attack(state, "a", "missiles", "t")


# --------------------------------------------------------------------------- exact odds


@pytest.mark.parametrize(
    ("ls", "distance", "target"),
    [(6, 11, "ship"), (4, 4, "base"), (0, 0.5, "fighter"), (3, 7.5, "missile"), (6, 1, "base")],
)
def test_laser_odds_equal_brute_force(ls, distance, target):
    target_stats = {"type": target} if target != "ship" else {"type": "ship", "laser_strength": 2}
    state = duel({"type": "ship", "laser_strength": ls}, target_stats, distance)
    report = BFM.attack_odds(state, BFM.declare_attack(state, "a", "laser", "t"))
    result = report.section("result").distribution
    column = "base" if target == "base" else "ship"
    assert result.as_dict() == _brute_laser(ls, int(distance), column).as_dict()
    assert result.total == 1
    needed = to_hit_threshold(int(distance), ls)
    assert Fraction(report.facts["hit_probability"]) == Fraction(10 - needed, 10)


def test_salvo_odds_equal_brute_force_product_enumeration():
    """4 missiles at CS 2: all 10^4 CIWS roll tuples counted by hand."""
    state = duel({"type": "missile", "count": 4}, {"type": "miner"})
    report = BFM.attack_odds(state, BFM.declare_attack(state, "a", "missiles", "t"))
    counted = Distribution.from_weights(
        (sum(d <= ciws_threshold(2, k) for k, d in enumerate(rolls, 1)), 1)
        for rolls in itertools.product(range(10), repeat=4)
    )
    assert report.section("ciws_destroyed").distribution.as_dict() == counted.as_dict()
    assert report.section("survivor_damage").distribution.as_dict() == {
        damage_result(d + 1, "ship"): Fraction(1, 10) for d in range(10)
    }


def test_salvo_against_fighter_destroyed_probability():
    """Two missiles, no CIWS: only iL and R (T 3, 4) kill, so it survives both at (8/10)^2."""
    state = duel({"type": "missile", "count": 2}, {"type": "fighter"})
    report = BFM.attack_odds(state, BFM.declare_attack(state, "a", "missiles", "t"))
    destroyed = report.section("target_destroyed").distribution
    assert destroyed.probability(False) == Fraction(16, 25)
    assert report.facts["ciws"] is False


def test_nine_missile_salvo_matches_poisson_binomial():
    state = duel({"type": "missile", "count": 9}, {"type": "base"})
    report = BFM.attack_odds(state, BFM.declare_attack(state, "a", "missiles", "t"))
    expected = {0: Fraction(1)}
    for k in range(1, 10):
        p = Fraction(ciws_threshold(6, k) + 1, 10)
        following: dict[int, Fraction] = {}
        for count, weight in expected.items():
            following[count + 1] = following.get(count + 1, Fraction(0)) + weight * p
            following[count] = following.get(count, Fraction(0)) + weight * (1 - p)
        expected = following
    got = report.section("ciws_destroyed").distribution.as_dict()
    assert got == {k: v for k, v in expected.items() if v}
    assert list(report.facts["ciws_thresholds"]) == [9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_odds_run_the_resolver_itself():
    """The summary distribution of enumerate(resolve) is what the report shows."""
    state = duel({"type": "ship", "laser_strength": 2}, {"type": "fighter"}, distance=3)
    attack = BFM.declare_attack(state, "a", "laser", "t")
    direct = enumerate_outcomes(lambda dice: resolve(state, attack, dice).summary)
    assert (
        BFM.attack_odds(state, attack).section("result").distribution.as_dict() == direct.as_dict()
    )


def test_laser_shot_and_salvo_are_plain_functions_of_numbers():
    shot = laser_shot(6, 11, "ship", ScriptedDice([9, 9]))
    assert (shot.hit, shot.result) == (True, damage_result(9 + 6 - 3, "ship"))
    salvo = missile_salvo(
        2, 0, "ship", "ship", settings(duel({}, {"type": "base"})), ScriptedDice([0, 9, 9])
    )
    assert salvo.summary == SalvoSummary(2, 1, None)
    assert salvo.strikes.results == ("B4",)
    assert D10Z.values[0] == 0


def test_all_pair_odds_agree_with_single_odds():
    state = table(
        unit("base", 10, 10, "A", type="base", launch_capacity=2, missiles=3),
        unit("ftr", 14, 10, "A", type="fighter", count=2),
        unit("cat", 16, 14, "B", type="catapult", laser_strength=3),
        unit("msl", 12, 12, "B", type="missile", count=4),
        unit("far", 60, 40, "B", type="miner"),
    )
    every = all_pair_odds(state)
    assert ("base", "laser", "far") not in every
    assert ("msl", "missiles", "far") in every  # missiles ignore range (R000.13)
    for (attacker, weapon, target), distribution in every.items():
        report = BFM.attack_odds(state, BFM.declare_attack(state, attacker, weapon, target))
        if weapon == "laser":
            assert distribution.as_dict() == report.section("result").distribution.as_dict()
        else:
            ciws = distribution.map(lambda s: s.ciws_destroyed)
            assert ciws.as_dict() == report.section("ciws_destroyed").distribution.as_dict()


# --------------------------------------------------------------------------- bad input


def test_bad_declarations_are_user_errors_and_change_nothing():
    state = duel({"type": "base", "missiles": 2, "launch_capacity": 1}, {"type": "miner"}, 3)
    cases = [
        (("zz", "laser", "t", {}), "unknown attacking unit"),
        (("a", "laser", "zz", {}), "unknown target unit"),
        (("a", "laser", "a", {}), "itself"),
        (("a", "phaser", "t", {}), "unknown weapon"),
        (("a", "laser", "t", {"missiles": 2}), "takes no missiles"),
        (("a", "missiles", "t", {"speed": 1}), "takes no speed"),
        (("a", "missiles", "t", {"ciws": "yes"}), "true or false"),
    ]
    for (attacker, weapon, target, params), message in cases:
        with pytest.raises(UserError, match=message):
            BFM.declare_attack(state, attacker, weapon, target, params)
    missile_state = duel({"type": "miner"}, {"type": "base"})
    with pytest.raises(UserError, match="it can attack with laser"):
        BFM.declare_attack(missile_state, "a", "missiles", "t")
    empty = duel({"type": "base", "launch_capacity": 1}, {"type": "miner"})
    with pytest.raises(UserError, match="carries none"):
        BFM.declare_attack(empty, "a", "missiles", "t")
    spent = duel(
        {"type": "base", "launch_capacity": 1, "missiles": 5, "launched": 2}, {"type": "miner"}
    )
    with pytest.raises(UserError, match=r"used up \(R000\.17\)"):
        BFM.declare_attack(spent, "a", "missiles", "t")
    group = duel({"type": "missile"}, {"type": "base"})
    with pytest.raises(UserError, match="can attack with missiles"):
        BFM.declare_attack(group, "a", "laser", "t")


def test_bad_options_name_the_key():
    state = duel({"type": "base"}, {"type": "miner"}, range_rounding="up")
    with pytest.raises(UserError, match="range_rounding"):
        BFM.declare_attack(state, "a", "laser", "t")


def test_scripted_dice_running_out_is_reported():
    state = duel({"type": "base"}, {"type": "miner"})
    with pytest.raises(UserError, match="exhausted"):
        BFM.resolve_attack(state, BFM.declare_attack(state, "a", "laser", "t"), ScriptedDice([9]))
