"""Logistics: LP purchases (R000.15, A000.10), separate budget (R000.16), launches (R000.17)."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import pytest
from bfm_builders import table, unit

from tactical.errors import UserError
from tactical.rules.battlefleet_mars.logistics import (
    Purchase,
    resolve_launch,
    resolve_purchase,
    start_turn,
)


def _base(**stats):
    return table(unit("b", 20, 20, "Mars", type="base", **stats), unit("f", 5, 5, type="fighter"))


def test_R000_15_whole_lp_single_kind_by_default_A000_10():
    resolution = resolve_purchase(_base(), [Purchase("b", fighters=1, missiles=1)])
    assert resolution.summary == 2
    lp = resolution.events[0]
    assert (lp.get("lp"), lp.get("granularity")) == ("2", "whole")


def test_R000_15_fractional_option_A000_10():
    state = table(unit("b", 20, 20, type="base"), lp_granularity="fractional")
    resolution = resolve_purchase(state, [Purchase("b", fighters=1, missiles=1)])
    assert resolution.summary == Fraction(1, 2)


def test_R000_16_budget_uses_the_lp_limit_option_or_an_explicit_limit():
    state = _base()
    assert resolve_purchase(state, [Purchase("b", missiles=24)], other_lp=4).summary == 4
    with pytest.raises(UserError, match=r"R000\.16"):
        resolve_purchase(state, [Purchase("b", missiles=25)])
    with pytest.raises(UserError, match="other things"):
        resolve_purchase(state, [Purchase("b", missiles=6)], other_lp=5)
    assert resolve_purchase(state, [Purchase("b", missiles=30)], limit=5).summary == 5


def test_purchases_go_to_ships_and_bases_only():
    with pytest.raises(UserError, match="only ships and bases"):
        resolve_purchase(_base(), [Purchase("f", missiles=6)])
    with pytest.raises(UserError, match="unknown unit"):
        resolve_purchase(_base(), [Purchase("zz", missiles=6)])
    with pytest.raises(UserError, match="negative"):
        resolve_purchase(_base(), [Purchase("b", missiles=-6)])


def test_R000_17_launch_creates_a_missile_group_and_counts_the_turn():
    state = _base(launch_capacity=2, missiles=10, fighters=3)
    first = resolve_launch(state, "b", missiles=3, fighters=2)
    launcher = first.state.unit("b").stats
    assert (launcher["missiles"], launcher["launched"], launcher["fighters"]) == (7, 3, 1)
    groups = {u.id: u for u in first.state.units if u.id.startswith("b-")}
    assert groups["b-missiles-1"].stats["count"] == 3
    assert groups["b-missiles-1"].pose == state.unit("b").pose
    assert groups["b-fighters-1"].stats["type"] == "fighter"
    second = resolve_launch(first.state, "b", missiles=1)
    assert second.state.has_unit("b-missiles-2")
    with pytest.raises(UserError, match=r"R000\.17"):
        resolve_launch(second.state, "b", missiles=1)
    fresh = start_turn(second.state)
    assert fresh.unit("b").stats["launched"] == 0
    assert resolve_launch(fresh, "b", missiles=4).state.unit("b").stats["launched"] == 4


def test_A000_13_fighters_keep_the_base_launch_rate():
    state = _base(launch_capacity=2, fighters=6)
    with pytest.raises(UserError, match=r"A000\.13"):
        resolve_launch(state, "b", fighters=3)


def test_launch_needs_stores_and_a_carrier():
    with pytest.raises(UserError, match="carries"):
        resolve_launch(_base(launch_capacity=3, missiles=1), "b", missiles=2)
    with pytest.raises(UserError, match="only ships and bases launch"):
        resolve_launch(_base(), "f", missiles=1)
    with pytest.raises(UserError, match="positive"):
        resolve_launch(_base(launch_capacity=1), "b")


def test_R000_17_launched_groups_number_after_their_kind_never_after_the_launcher():
    """Two catapults sharing a name ("Mars catapult 1" and "2"), the first launching twice:
    each group reads what it is, its number among its launcher's and whose ("Missiles 2
    from Mars catapult 1"), never a second number after the launcher's ("... 1 2"); no
    count in the name, which combat lowers. A destroyed group's id is given again (saved
    games name their groups by it), and so its name: the roster's entry reads the same."""
    catapult = {"type": "catapult", "launch_capacity": 2, "missiles": 6}
    state = table(
        replace(unit("c1", 20, 20, "Mars", **catapult), name="Mars catapult"),
        replace(unit("c2", 30, 20, "Mars", **catapult), name="Mars catapult"),
        unit("f", 5, 5, type="fighter"),
    )
    state = resolve_launch(state, "c1", missiles=2).state
    state = resolve_launch(state, "c1", missiles=1).state
    state = resolve_launch(state, "c2", missiles=1).state
    names = state.shown_names
    assert names["c1"] == "Mars catapult 1"
    assert names["c1-missiles-1"] == "Missiles 1 from Mars catapult 1"
    assert names["c1-missiles-2"] == "Missiles 2 from Mars catapult 1"
    assert names["c2-missiles-1"] == "Missiles 1 from Mars catapult 2"
    assert not any(re.search(r"\d \d", name) for name in names.values()), names
    later = resolve_launch(start_turn(state.without_unit("c1-missiles-1")), "c1", missiles=1)
    assert later.state.has_unit("c1-missiles-1") and not later.state.has_unit("c1-missiles-3")
    assert later.state.shown_names["c1-missiles-1"] == "Missiles 1 from Mars catapult 1"
