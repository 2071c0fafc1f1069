"""The Initiative Phase: R004.11-R004.14, and its exact odds."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from swd6_builders import ISD, NOWHERE, SYSTEM, condition, scripted, ship, table

from tactical.dice import enumerate_outcomes
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.sw_d6_capital import ledger, sequence
from tactical.rules.sw_d6_capital.initiative import (
    Entry,
    _round_key,
    contest_odds,
    contest_round,
    next_bonuses,
    ordered,
    resolve_contest,
    round_odds,
    top_outcomes,
)


def test_R004_11_draws_reroll_until_resolved():
    entries = (Entry("a", 3, 0), Entry("b", 3, 0))
    contest = resolve_contest(entries, scripted(4, 4, 2, 2, 6, 1))
    assert contest.order == ("a", "b")
    assert [e.kind for e in contest.events].count("draw") == 2
    assert contest.winner_total == 6 and contest.runner_up == 1
    assert dict(contest.totals) == {"a": 4, "b": 4}  # the first round's totals


def test_R004_11_lower_draws_only_decide_the_order():
    entries = (Entry("a", 3, 0), Entry("b", 3, 0), Entry("c", 3, 0))
    contest = resolve_contest(entries, scripted(6, 3, 3, 1, 5))
    assert contest.order == ("a", "c", "b")
    assert contest.margin == 3  # 6 against the best other first-round total


def test_R004_11_a_draw_without_dice_stands_in_table_order():
    entries = (Entry("a", 2, 0), Entry("b", 2, 0))
    contest = resolve_contest(entries, scripted())
    assert contest.order == ("a", "b") and contest.margin == 0
    assert contest.events[-1].kind == "draw-stands"
    assert contest_odds(entries).as_dict() == {("a", False): 1}


def test_R004_12_bonus_is_the_winning_streak():
    bonuses = {"nowhere": 0, "isd": 0}
    bonuses = next_bonuses(bonuses, "nowhere")
    assert bonuses == {"nowhere": 1, "isd": 0}
    bonuses = next_bonuses(bonuses, "nowhere")
    assert bonuses == {"nowhere": 2, "isd": 0}
    assert next_bonuses(bonuses, "isd") == {"nowhere": 0, "isd": 1}


def test_R004_13_masterstroke_on_a_margin_of_ten():
    entries = (Entry("a", 9, 0), Entry("b", 3, 0))
    assert resolve_contest(entries, scripted(6, 6, 6, 6)).masterstroke  # 18 vs 6
    assert not resolve_contest(entries, scripted(6, 6, 3, 6)).masterstroke  # 15 vs 6
    assert resolve_contest(entries, scripted(5, 5, 5, 5)).margin == 10


def test_R004_13_masterstroke_against_the_second_highest_of_three_A004_4():
    entries = (Entry("a", 9, 0), Entry("b", 3, 0), Entry("c", 3, 0))
    contest = resolve_contest(entries, scripted(6, 6, 6, 2, 2, 3, 1))  # b and c draw below
    assert contest.margin == 16 and contest.order == ("a", "b", "c")
    contest = resolve_contest(entries, scripted(5, 5, 5, 6, 1))
    assert contest.margin == 9 and not contest.masterstroke


def test_R004_13_a_force_point_activates_a_masterstroke():
    state = SYSTEM.setup(
        table(
            ship("nowhere", 20, 10, "Rebels", force_points=1, **NOWHERE),
            ship("isd", 20, 40, "Empire", 180, **ISD),
        )
    )
    state = SYSTEM.apply(state, Action("initiative", "Rebels"), scripted(*[3] * 9)).state
    assert ledger.initiative_info(state)["winner"] == "nowhere"
    choices = SYSTEM.actions(state, TurnPosition(1, 0, 0, 0), "Rebels")
    assert [c.kind for c in choices] == ["force-point"]
    assert SYSTEM.actions(state, TurnPosition(1, 0, 1, 0), "Empire") == ()
    spent = SYSTEM.apply(state, Action("force-point", "nowhere"), scripted())
    assert ledger.initiative_info(spent.state)["masterstroke"] is True
    assert condition(spent.state, "nowhere").force_points == 0
    with pytest.raises(UserError) as error:
        SYSTEM.apply(spent.state, Action("force-point", "nowhere"), scripted())
    assert error.value.spec_id == "R004.13"
    with pytest.raises(UserError):
        SYSTEM.apply(state, Action("force-point", "isd"), scripted())


def test_R004_14_orderings():
    order = ("a", "b", "c")
    assert ordered(order, "highest-first") == ("a", "b", "c")
    assert ordered(order, "lowest-first") == ("c", "b", "a")


def test_R004_10_a_turn_begins_with_the_initiative_roll():
    state = SYSTEM.setup(table(ship("a", 10, 10, "A", initiative="1D"), ship("b", 10, 30, "B")))
    choices = SYSTEM.actions(state, TurnPosition(1, 2, 0, 0), "A")
    assert [c.kind for c in choices] == ["initiative"]  # whatever phase: turn 1 not begun
    started = SYSTEM.apply(state, Action("initiative", "A"), scripted(6, 1, 1))
    assert ledger.turn_of(started.state) == 1
    assert started.events[0].kind == "turn" and started.events[0].spec_id == "R004.10"
    assert SYSTEM.actions(started.state, TurnPosition(1, 0, 0, 0), "A") == ()


# --------------------------------------------------------------------------- exact odds


@pytest.mark.parametrize(
    "entries",
    [
        (Entry("a", 7, 1), Entry("b", 6, 0), Entry("c", 5, 2)),
        # a captain without dice, and totals that meet at the top and below it
        (Entry("a", 2, 3), Entry("b", 6, 0), Entry("c", 0, 9), Entry("d", 4, 1)),
        (Entry("a", 7, 1), Entry("b", 6, 0), Entry("c", 5, 2), Entry("d", 3, 0)),
    ],
)
def test_initiative_odds_compose_exactly_what_the_round_enumerates(entries):
    """Every (top, leaders, best below) with its exact probability, in the order the
    enumeration of `contest_round` reaches them."""
    brute = enumerate_outcomes(lambda dice: contest_round(entries, dice), key=_round_key)
    assert [(_round_key(r), p) for r, p in brute] == list(round_odds(entries).items())


def test_initiative_odds_of_a_rerolled_draw():
    """1D against 1D+1: P(b wins) = P(b + 1 > a) / (1 - P(draw)) = (21/36) / (31/36)."""
    odds = contest_odds((Entry("a", 3, 0), Entry("b", 3, 1)))
    assert odds.probability(("b", False)) == Fraction(21, 31)
    assert odds.probability(("a", False)) == Fraction(10, 31)
    even = contest_odds((Entry("a", 6, 0), Entry("b", 6, 0)))
    assert even.where(lambda outcome: outcome[0] == "a") == Fraction(1, 2)
    assert even.probability(("a", True)) == Fraction(1, 1150)


def test_initiative_odds_of_alike_captains_are_shared_under_each_ones_name():
    """Captains with the same code and bonus contest alike (R004.11): their tied groups'
    re-rolls are worked out once and named after the captains of each group, so the odds
    are the same whichever order the captains are listed in, and alike captains' alike."""
    entries = (Entry("a", 6, 0), Entry("b", 3, 0), Entry("c", 6, 0), Entry("d", 3, 0))
    entries += (Entry("e", 4, 1),)
    odds = top_outcomes(entries)
    assert sum(odds.values()) == 1
    listed = top_outcomes(tuple(reversed(entries)))
    assert listed == odds
    swap = {"a": "c", "c": "a", "b": "d", "d": "b", "e": "e"}
    assert {(swap[w], final, beat): p for (w, final, beat), p in odds.items()} == odds
    wins = contest_odds(entries).map(lambda outcome: outcome[0]).as_dict()
    assert wins["a"] == wins["c"] > wins["e"] > wins["b"] == wins["d"] > 0


def test_initiative_odds_without_draws_equal_the_enumerated_resolver():
    """A 0D+1 captain against a 1D+3 one can never draw, so the renewal plays no part and
    the odds must be the plain enumeration of `resolve_contest` itself."""
    entries = (Entry("a", 3, 3), Entry("b", 1, 0))
    brute = enumerate_outcomes(lambda dice: _summary(resolve_contest(entries, dice)))
    assert contest_odds(entries).as_dict() == brute.as_dict() == {("a", False): 1}
    entries = (Entry("a", 6, 0), Entry("b", 3, 0))
    composed = contest_odds(entries)
    # 2D beats 1D by 10+ on (11, 1), (12, 1), (12, 2): 4/216; draws (15/216) are re-rolled
    assert composed.probability(("a", True)) == Fraction(4, 216) / (1 - Fraction(15, 216))


def _summary(contest):
    return contest.winner, contest.masterstroke


def test_initiative_action_odds_sum_to_one():
    state = SYSTEM.setup(
        table(
            ship("nowhere", 20, 10, "Rebels", **NOWHERE),
            ship("isd", 20, 40, "Empire", 180, **ISD),
        )
    )
    report = SYSTEM.action_odds(state, Action("initiative", "Rebels", FrozenMap()))
    winner = report.section("winner").distribution
    assert winner.total == 1 and winner.probability("nowhere") > Fraction(1, 2)
    masterstroke = report.section("masterstroke").distribution
    assert masterstroke.probability(True) == Fraction(report.facts["masterstroke_probability"])
    captains = report.facts["captains"]  # by name, Initiative and bonus: no field names
    names = [state.shown_names[ship] for ship in ("nowhere", "isd")]
    assert [c.split(",")[0].rsplit(" ", 1)[0] for c in captains] == names
    assert all(re.fullmatch(r"[\w ()-]+ \d+D(\+\d)?(, bonus [+-]\d+)?", c) for c in captains)
    assert sequence.contest_entries(state)[0].pips == 15
