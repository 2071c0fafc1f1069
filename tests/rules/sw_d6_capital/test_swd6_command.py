"""The Command Phase: R004.15-R004.17 (and the MAP rules they feed, R004.28)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from swd6_builders import (
    ISD,
    NOWHERE,
    SYSTEM,
    condition,
    duel,
    scripted,
    ship,
    table,
    with_condition,
)

from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.sw_d6_capital import combat, command, maneuver, repair, sequence
from tactical.rules.sw_d6_capital.condition import Effect
from tactical.rules.sw_d6_capital.deck import deck_of


def test_R004_15_command_roll_against_the_deck_difficulty():
    state = duel({**ISD, "command": "2D"}, NOWHERE, 20)
    result = SYSTEM.apply(state, Action("command", "a"), scripted(6, 6))
    event = next(e for e in result.events if e.kind == "command")
    assert (event.get("roll"), event.get("difficulty"), event.get("margin")) == (12, 17, -5)
    assert event.get("band") == "difficult"
    assert condition(result.state, "a").command_rolled
    with pytest.raises(UserError) as error:
        SYSTEM.apply(result.state, Action("command", "a"), scripted(1, 1))
    assert error.value.spec_id == "R004.15"


def test_R004_15_bridge_smashed_costs_the_command_roll_3D():
    state = duel(ISD, NOWHERE, 20)
    bridge = Effect("controls-damaged", "severe", pips=9)
    state = with_condition(state, "a", effects=(bridge,), level="severe")
    deck = deck_of(state.unit("a"))
    assert command.command_code(deck, condition(state, "a")) == deck.command.pips - 9


def test_R004_16_tracker_reaches_every_skill_roll_but_not_initiative_or_damage():
    state = duel({**ISD, "damage": "light"}, NOWHERE, 20)
    state = with_condition(state, "a", command_mod=4)
    deck, cond = deck_of(state.unit("a")), condition(state, "a")
    facts = combat.fire_facts(state, "a", "front-turbolasers", "t", {})
    assert dict(facts.gfc_terms)["command"] == 4
    assert "command" not in dict(facts.damage_terms)
    assert dict(repair.repair_plan("a", deck, cond, 1, {}).terms)["command"] == 4
    assert maneuver.piloting_code(deck, cond, 1) == deck.cso.pips - 3 + 4
    assert sequence.contest_entries(state)[0].pips == deck.initiative_code().pips


def test_R004_16_tracker_odds_are_exact():
    odds = command.tracker_odds(3, 4)  # 1D against 4: a 1 is -3 -> -1 pip, else 0
    assert odds.as_dict() == {-1: Fraction(1, 6), 0: Fraction(5, 6)}
    state = duel(ISD, NOWHERE, 20)
    report = SYSTEM.action_odds(state, Action("command", "a"))
    assert report.section("tracker").distribution.total == 1
    assert report.facts["difficulty"] == 17


def test_R004_17_orders_and_their_penalties():
    state = duel(ISD, NOWHERE, 20)
    given = SYSTEM.apply(
        state, Action("orders", "a", FrozenMap(order="evasive", speed="cautious")), scripted()
    )
    assert condition(given.state, "a").order == "evasive"
    assert given.state.unit("a").stats["speed"] == "cautious"
    assert given.events[0].get("title") == "Evasive Action"
    facts = combat.fire_facts(given.state, "a", "front-turbolasers", "t", {})
    assert dict(facts.gfc_terms)["order_map"] == -3
    with pytest.raises(UserError) as error:
        SYSTEM.apply(given.state, Action("orders", "a", FrozenMap(order="steady")), scripted())
    assert error.value.spec_id == "R004.17"
    with pytest.raises(UserError) as error:
        SYSTEM.apply(state, Action("orders", "a", FrozenMap(order="ramming-speed")), scripted())
    assert error.value.spec_id == "R004.17"


def test_R004_17_fighters_fly_casual():
    state = duel({"scale": "starfighter"}, NOWHERE, 20)
    given = SYSTEM.apply(state, Action("orders", "a", FrozenMap(order="steady")), scripted())
    assert given.events[0].get("title") == "Fly Casual"


def test_R004_17_incoming_difficulty_by_the_targets_order():
    state = duel(ISD, NOWHERE, 25)  # medium: Range Difficulty 15; Nowhere's SD 6D+2 -> 14
    difficulties = []
    for order in ("steady", "evasive", "full-evasion"):
        ordered = with_condition(state, "t", order=order)
        difficulties.append(
            combat.fire_facts(ordered, "a", "front-turbolasers", "t", {}).difficulty
        )
    assert difficulties == [15, 29, 39]


def test_R004_14_orders_go_from_the_lowest_initiative():
    state = SYSTEM.setup(
        table(
            ship("nowhere", 20, 10, "Rebels", **NOWHERE),
            ship("isd", 20, 40, "Empire", 180, **ISD),
        )
    )
    state = SYSTEM.apply(state, Action("initiative", "Rebels"), scripted(*[4] * 5, *[1] * 4)).state
    rebels = SYSTEM.actions(state, TurnPosition(1, 1, 0, 0), "Rebels")
    empire = SYSTEM.actions(state, TurnPosition(1, 1, 1, 0), "Empire")
    assert [c.kind for c in rebels] == ["command"]
    assert [c.kind for c in empire] == ["command", "orders"]  # the ISD lost: it orders first
    # the Empire passes: the Rebels' captain gives his orders meanwhile (R004.14 holds)
    assert "orders" in [c.kind for c in SYSTEM.actions(state, TurnPosition(1, 1, 0, 1), "Rebels")]
    orders = next(c for c in empire if c.kind == "orders")
    assert next(f for f in orders.fields if f.name == "order").choices == (
        "steady",
        "evasive",
        "full-evasion",
    )
