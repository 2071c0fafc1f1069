"""Cortex dice conventions R003.1-R003.9: step dice, pools, outcomes, opposed rolls, damage."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.dice import ScriptedDice, SeededDice, StepDie, enumerate_outcomes
from tactical.errors import UserError
from tactical.rules.cortex_space.rolls import (
    ComplexAction,
    Pool,
    PoolDie,
    attack_hits,
    basic_damage,
    is_extraordinary_hit,
    multi_action_steps,
    opposed,
    outcome,
    parse_damage,
    parse_step_die,
    pool_die,
    roll_damage,
    roll_pool,
    skill_pool,
)


def test_R003_1_step_die_text_and_ladder():
    assert parse_step_die("d8") == StepDie(4)
    assert parse_step_die("d12+d4") == StepDie(8)
    assert parse_step_die("d12+d12+d2") == StepDie(13)
    assert parse_step_die("") == parse_step_die("none") == StepDie(0)
    assert StepDie(0).dice == ()
    for bad in ("d7", "2d6", "d4+d12", "x"):
        with pytest.raises(UserError, match=r"R003\.1"):
            parse_step_die(bad)


def test_R003_1_damage_text():
    assert parse_damage("d12+d2").step == StepDie(7)
    warhead = parse_damage("4d6")
    assert (warhead.step, warhead.count, warhead.sides, warhead.name) == (None, 4, 6, "4d6")
    assert warhead.up(2) == warhead  # warhead dice do not step
    assert parse_damage("1d8").step == StepDie(4)


def test_R003_2_steps_go_to_the_skill_die():
    pool = skill_pool(("agility", StepDie(5)), ("pilot", StepDie(3)), None, 2)
    assert [(d.role, d.die.name) for d in pool.dice] == [("attribute", "d10"), ("skill", "d10")]
    assert pool.steps == 2
    down = skill_pool(("agility", StepDie(5)), ("pilot", StepDie(3)), None, -4)
    assert [d.die.step for d in down.dice] == [5, -1]  # stepped below d2: no skill die
    assert down.text == "d10"


def test_A003_32_steps_without_a_skill_die_go_to_the_attribute():
    pool = skill_pool(("agility", StepDie(4)), None, None, 1)
    assert [d.die.name for d in pool.dice] == ["d10"]
    untrained = skill_pool(("agility", StepDie(4)), ("pilot", StepDie(0)), None, -1)
    assert [d.die.name for d in untrained.dice] == ["d6"]


def test_R003_3_skill_roll_is_the_sum_of_every_die():
    pool = skill_pool(("agility", StepDie(3)), ("pilot", StepDie(2)), ("DOGFIGHTING", StepDie(1)))
    assert pool.text == "d6 + d4 + d2"
    distribution = enumerate_outcomes(lambda dice: roll_pool(pool, dice).total)
    brute: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), range(1, 5), range(1, 3)):
        brute[sum(faces)] = brute.get(sum(faces), 0) + 1
    assert distribution.as_dict() == {total: Fraction(n, 48) for total, n in brute.items()}


def test_R003_3_composite_die_lists_every_combination():
    die = pool_die((12, 4))
    assert die is not None and die.name == "d12+d4" and die.sides == 48
    assert sorted(die.values) == sorted(a + b for a in range(1, 13) for b in range(1, 5))
    assert pool_die((12,) * 6) is None  # too many faces: rolled die by die


def test_R003_3_large_pools_roll_die_by_die_with_the_same_totals():
    pool = Pool(tuple(PoolDie("attribute", f"a{i}", StepDie(6)) for i in range(6)))
    seeded = SeededDice(4)
    roll = roll_pool(pool, seeded, who="x", what="big")
    assert len(seeded.rolls) == 6 and roll.total == sum(r.result for r in seeded.rolls)
    scripted = roll_pool(pool, ScriptedDice([1] * 6))
    assert (scripted.total, scripted.botch) == (6, True)


def test_R003_4_difficulty_ladder_is_T003_2():
    from tactical.rules.cortex_space.tables import DIFFICULTIES

    assert list(DIFFICULTIES.values()) == [3, 7, 11, 15, 19, 23]


def test_R003_5_outcomes_against_a_difficulty():
    assert outcome(2, True, 11) == "botch"
    assert outcome(3, False, 11) == "failure"
    assert outcome(10, False, 11) == "failure"
    assert outcome(11, False, 11) == "success"
    assert outcome(17, False, 11) == "success"
    assert outcome(18, False, 11) == "extraordinary"
    assert outcome(30, True, 3) == "botch"  # the botch takes precedence


def test_R003_5_botch_is_every_die_a_one():
    pool = skill_pool(("agility", StepDie(4)), ("pilot", StepDie(3)))
    botches = enumerate_outcomes(lambda dice: roll_pool(pool, dice).botch)
    assert botches.probability(True) == Fraction(1, 48)
    roll = roll_pool(pool, ScriptedDice([2]))
    assert (roll.total, roll.botch) == (2, True)
    assert roll_pool(pool, ScriptedDice([3])).botch is False


def test_R003_6_opposed_rolls():
    assert opposed(20, 7) == opposed(20, 7)
    assert (opposed(20, 7).winner, opposed(20, 7).extraordinary) == (0, True)
    assert (opposed(12, 6).winner, opposed(12, 6).extraordinary) == (0, False)
    assert (opposed(6, 13).winner, opposed(6, 13).extraordinary) == (1, True)
    assert opposed(9, 9).winner is None  # A003.6


def test_R003_7_attacks_hit_on_meet_or_beat_and_split_basic_damage():
    assert attack_hits(7, False, 7)  # A003.6: a tie hits with 0 Basic damage
    assert not attack_hits(6, False, 7)
    assert not attack_hits(2, True, 1)  # a botched attack misses (R003.5)
    assert basic_damage(8) == basic_damage(8)
    assert (basic_damage(8).stun, basic_damage(8).wound) == (4, 4)
    assert (basic_damage(7).stun, basic_damage(7).wound) == (4, 3)  # A003.5: odd point to Stun
    assert (basic_damage(0).stun, basic_damage(0).wound) == (0, 0)
    assert (basic_damage(-3).stun, basic_damage(-3).wound) == (0, 0)
    assert is_extraordinary_hit(13, 6) and not is_extraordinary_hit(12, 6)


def test_R003_7_damage_die_total():
    roll = roll_damage(parse_damage("4d2"), ScriptedDice([7]))
    assert roll.total == 7
    distribution = enumerate_outcomes(lambda dice: roll_damage(parse_damage("4d2"), dice).total)
    assert distribution.probability(6) == Fraction(6, 16)


def test_R003_8_and_A003_27_multiple_actions():
    assert [multi_action_steps(k) for k in (1, 2, 3, 4)] == [0, -1, -2, -3]
    with pytest.raises(UserError, match=r"R003\.8"):
        multi_action_steps(0)


def test_R003_9_complex_action_threshold():
    action = ComplexAction(15)
    action = action.add(8)
    assert not action.reached and action.total == 8
    assert action.add(7).reached


@given(
    st.lists(st.integers(min_value=1, max_value=13), min_size=1, max_size=3),
    st.integers(min_value=-6, max_value=6),
)
def test_R003_2_property_steps_never_add_dice(steps_list, modifier):
    attribute = ("agility", StepDie(steps_list[0]))
    skill = ("skill", StepDie(steps_list[1])) if len(steps_list) > 1 else None
    pool = skill_pool(attribute, skill, None, modifier)
    base = skill_pool(attribute, skill)
    assert sum(d.die.step for d in pool.dice) == sum(d.die.step for d in base.dice) + modifier
