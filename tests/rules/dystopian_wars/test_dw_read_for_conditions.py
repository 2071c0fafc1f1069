"""G.5 / R002.10: an attack read for its units' conditions alone (`read_for_conditions`, the
computer players' material value) merges the outcomes that leave every condition the same
(which Critical Hit, the Fleet Commodore's offers); the odds of the conditions stay those of
every outcome apart, outcome by outcome, and the same bounds refuse the same attacks."""

from __future__ import annotations

from conditions_reading import assert_rolled_the_same, conditions_odds, least_bound
from dw_builders import ACK_ACK, DW, GUNS, SHIELDED, duel, flyer, table, unit

from tactical.dice import enumerate_outcomes
from tactical.rules.dystopian_wars import combat, resolving
from tactical.rules.dystopian_wars.chance import AttackRollOf, ByCondition

CASES = {
    # a Critical Hit that does not sink it: outcomes differ in which critical, not condition
    "guns on a ship": (
        duel({"weapons": [GUNS]}, {"damage_rating": 1, "critical_rating": 2}, distance=4.0),
        ("a", "Guns", "t"),
    ),
    # a Fleet Commodore beside the firer: the critical's offers differ too (R002.10)
    "guns near a commodore": (
        table(
            unit("a", 20, 10, "A", weapons=[GUNS]),
            unit("fc", 26, 10, "A", fleet_commodore=True),
            unit("t", 20, 14.5, "B", 90.0, damage_rating=1, critical_rating=2),
        ),
        ("a", "Guns", "t"),
    ),
    # a Wing of Tiny Flyers: the Tiny Flyers lost and the Abort are its conditions
    "ack-ack on a wing": (
        table(
            unit("a", 20, 10, "A", weapons=[ACK_ACK]),
            *(flyer(f"w{i}", 20 + i, 14, "B", squadron="w") for i in range(3)),
        ),
        ("a", "Ack Ack", "w0"),
    ),
}


def _conditions_odds(state, attack, *, merged: bool):
    """The odds of every starting model's condition after the attack, and the replays."""
    return conditions_odds(DW, state, attack, resolving.resolve, merged=merged)


def test_G_5_merged_outcomes_leave_the_odds_of_every_condition_the_same():
    fewer = {}
    for name, (state, (attacker, weapon, target)) in CASES.items():
        attack = combat.declare(state, attacker, weapon, target)
        apart, apart_runs = _conditions_odds(state, attack, merged=False)
        merged, merged_runs = _conditions_odds(state, attack, merged=True)
        assert merged.pairs == apart.pairs, name  # the same outcomes, order and odds
        assert len(apart.pairs) > 1, name  # the attack can change a condition
        assert merged_runs <= apart_runs, name
        fewer[name] = merged_runs < apart_runs
    # Critical Hits (and offers) merged away; a Wing's outcomes were conditions already
    assert fewer == {
        "guns on a ship": True,
        "guns near a commodore": True,
        "ack-ack on a wing": False,
    }


def test_G_5_a_roll_read_for_conditions_keys_what_the_conditions_read():
    plain = AttackRollOf(SHIELDED, worded=False)
    merged = ByCondition(plain)  # rolled through the plain roll (its outcomes remembered)
    apart = enumerate_outcomes(plain, key=plain.key)
    together = enumerate_outcomes(merged, key=merged.key)
    by_condition = apart.map(lambda rolled: rolled.summary.condition)
    assert together.map(lambda rolled: rolled.summary.condition) == by_condition
    assert len(together) == len(by_condition) < len(apart)
    assert {rolled.summary.condition for rolled, _ in together} == {
        (0, False, 0, False),
        (1, False, 0, False),
        (2, False, 0, False),
    }


def test_G_5_a_rolled_attack_is_the_same_read_for_conditions():
    """Only an enumeration merges: rolled dice make the same state and summary."""
    state, (attacker, weapon, target) = CASES["guns near a commodore"]
    attack = combat.declare(state, attacker, weapon, target)
    assert_rolled_the_same(resolving.resolve, state, attack, range(6))


def test_G_5_merged_outcomes_are_refused_by_the_same_bounds():
    """The roll's own replays are counted as before (and the merged outcomes are fewer
    than them): a computer player's bound refuses the same attacks."""
    for name in ("guns on a ship", "guns near a commodore"):
        state, (attacker, weapon, target) = CASES[name]
        attack = combat.declare(state, attacker, weapon, target)
        least = least_bound(DW, state, attack, resolving.resolve, merged=False)
        assert least > 10, name
        assert least_bound(DW, state, attack, resolving.resolve, merged=True) == least, name
