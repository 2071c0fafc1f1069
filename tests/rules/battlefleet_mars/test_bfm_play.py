"""Battlefleet Mars through the generic protocol: each phase's choices and `apply`.

Logistics offers the side's purchase (R000.15, R000.16), Launch its launches (R000.17,
A000.13), the tactical combat sequence one attack per unit a turn (R000.3, R000.18),
with CIWS declared against ships and bases only (R000.19, R000.25).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bfm_builders import table, unit
from offers import refusals_over_two_turns

from tactical.dice import ScriptedDice, SeededDice
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action, ActionChoice, Event, TurnPosition
from tactical.rules.battlefleet_mars import RULE_SYSTEM, play
from tactical.rules.battlefleet_mars.status import describe
from tactical.session.game import MOVE, Game

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "maps" / "battlefleet-mars.toml"
LOGISTICS, LAUNCH, COMBAT = TurnPosition(1, 0), TurnPosition(1, 1), TurnPosition(1, 2)


@pytest.fixture(scope="module")
def deimos():
    return RULE_SYSTEM.setup(load_map(MAP))


def only(choices: tuple[ActionChoice, ...], kind: str, actor: str | None = None) -> ActionChoice:
    found = [c for c in choices if c.kind == kind and (actor is None or c.actor == actor)]
    assert len(found) == 1, found
    return found[0]


def fields(choice: ActionChoice) -> dict:
    return {f.name: f for f in choice.fields}


def apply(state, kind: str, actor: str, dice=None, **params):
    return RULE_SYSTEM.apply(state, Action(kind, actor, FrozenMap(params)), dice or SeededDice(1))


def two_carriers(**options):
    """A base with fighters and missiles on side A, a ship and a fighter group on side B."""
    return RULE_SYSTEM.setup(
        table(
            unit("base", 10, 10, "A", type="base", launch_capacity=3, missiles=12, fighters=6),
            unit("miner", 12, 10, "A", type="miner"),
            unit("ship", 14, 10, "B", type="ship", laser_strength=4, launch_capacity=2),
            unit("wing", 30, 10, "B", type="fighter", count=3),
            **options,
        )
    )


# --------------------------------------------------------------------------- Logistics


def test_R000_16_logistics_offers_the_sides_purchase_and_its_own_pass(deimos):
    choices = RULE_SYSTEM.actions(deimos, LOGISTICS, "Mars")
    assert [c.kind for c in choices] == ["purchase", "pass"]
    purchase = only(choices, "purchase")
    assert purchase.actor == "Mars" and purchase.spec_id == "R000.16"
    schema = fields(purchase)
    # only the ships and bases that can launch what is bought (launch capacity > 0)
    assert list(schema) == [
        "deimos-base.fighters",
        "deimos-base.missiles",
        "mars-catapult.fighters",
        "mars-catapult.missiles",
        "other_lp",
    ]
    assert (schema["deimos-base.fighters"].low, schema["deimos-base.fighters"].high) == (0, 12)
    assert (schema["deimos-base.missiles"].low, schema["deimos-base.missiles"].high) == (0, 24)
    assert (schema["other_lp"].high, schema["other_lp"].spec_id) == (4, "R000.16")
    for spec in purchase.fields:
        assert spec.doc and spec.spec_id and spec.default == 0 and spec.kind == "int"
    assert [c.kind for c in RULE_SYSTEM.actions(deimos, LAUNCH, "Mars")] == ["launch"]


def test_R000_15_a_purchase_delivers_to_the_named_carriers(deimos):
    after = apply(deimos, "purchase", "Mars", **{"deimos-base.fighters": 4, "other_lp": 2})
    base = after.state.unit("deimos-base")
    assert (base.stats["fighters"], base.stats["missiles"]) == (10, 12)
    cost = next(e for e in after.events if e.kind == "lp-cost")
    assert (cost.spec_id, cost.get("fighters"), cost.get("lp")) == ("R000.15", 4, "2")
    assert play.lp_spent(after.state, "Mars") == (2, 2)
    assert after.state.rule_state["logistics_done"] == ("Mars",)


def test_X000_1_each_budget_is_checked_against_the_limit_on_its_own(deimos):
    legal = apply(deimos, "purchase", "Mars", **{"mars-catapult.missiles": 24, "other_lp": 4})
    assert next(e for e in legal.events if e.kind == "budget").get("legal") is True
    with pytest.raises(UserError) as error:
        apply(deimos, "purchase", "Mars", **{"deimos-base.fighters": 15})  # 5 LP
    assert error.value.spec_id == "R000.16"
    assert "5 LP on fighters and missiles exceeds the limit of 4" in error.value.message


def test_R000_16_a_purchase_names_only_the_sides_carriers(deimos):
    with pytest.raises(UserError) as error:
        apply(deimos, "purchase", "Mars", **{"ares-cruiser.missiles": 6})
    assert error.value.spec_id == "R000.15"
    with pytest.raises(UserError, match="takes no colour"):
        apply(deimos, "purchase", "Mars", colour="red")
    with pytest.raises(UserError, match="declared by a side"):
        apply(deimos, "purchase", "deimos-base")
    with pytest.raises(UserError) as error:
        apply(deimos, "purchase", "Mars", other_lp=-1)
    assert error.value.spec_id == "R000.16"


def test_R000_16_a_side_without_ships_or_bases_may_only_pass():
    state = RULE_SYSTEM.setup(table(unit("wing", 1, 1, "A", type="fighter")))
    assert [c.kind for c in RULE_SYSTEM.actions(state, LOGISTICS, "A")] == ["pass"]
    passed = apply(state, "pass", "A")
    assert passed.summary == "pass" and passed.state.rule_state["stage"] == "logistics"
    assert all(e.spec_id == "R000.16" for e in passed.events)


# --------------------------------------------------------------------------- Launch


def test_R000_17_launch_counts_are_bounded_by_twice_the_capacity_and_A000_13(deimos):
    launch = only(RULE_SYSTEM.actions(deimos, LAUNCH, "Mars"), "launch")
    schema = fields(launch)
    assert list(schema) == [
        "deimos-base.missiles",
        "deimos-base.fighters",
        "mars-catapult.missiles",
    ]
    # base: capacity 3 -> 6 missiles (R000.17) and 3 fighters (A000.13); catapult: 2 -> 4
    assert [(f.low, f.high, f.default) for f in launch.fields] == [(0, 6, 0), (0, 3, 0), (0, 4, 0)]
    assert [f.spec_id for f in launch.fields] == ["R000.17", "A000.13", "R000.17"]


def test_R000_17_a_launch_puts_groups_on_the_table(deimos):
    after = apply(
        deimos, "launch", "Mars", **{"deimos-base.missiles": 6, "deimos-base.fighters": 3}
    )
    base = after.state.unit("deimos-base")
    assert (base.stats["launched"], base.stats["fighters_launched"]) == (6, 3)
    missiles = after.state.unit("deimos-base-missiles-1")
    fighters = after.state.unit("deimos-base-fighters-1")
    assert (missiles.stats["count"], fighters.stats["count"]) == (6, 3)
    assert after.state.rule_state["stage"] == "launch"
    left = only(RULE_SYSTEM.actions(after.state, LAUNCH, "Mars"), "launch")
    assert list(fields(left)) == ["mars-catapult.missiles"]  # the base's launches are used up


def test_X000_12_a_launch_beyond_twice_the_capacity_is_refused(deimos):
    with pytest.raises(UserError) as error:
        apply(deimos, "launch", "Mars", **{"mars-catapult.missiles": 5})
    assert error.value.spec_id == "R000.17"
    with pytest.raises(UserError) as error:
        apply(deimos, "launch", "Mars", **{"deimos-base.fighters": 4})
    assert error.value.spec_id == "A000.13"


def test_R000_17_no_launch_once_the_combat_sequence_has_begun(deimos):
    fought = apply(
        deimos, "attack", "deimos-base", ScriptedDice([0]), weapon="laser", target="ares-cruiser"
    )
    assert RULE_SYSTEM.actions(fought.state, LAUNCH, "Mars") == ()
    with pytest.raises(UserError) as error:
        apply(fought.state, "launch", "Mars", **{"deimos-base.missiles": 1})
    assert error.value.spec_id == "R000.17"


# --------------------------------------------------------------------------- combat


def test_R000_6_laser_choices_list_only_the_enemies_in_reach():
    state = two_carriers()
    choices = RULE_SYSTEM.actions(state, COMBAT, "A")
    miner_laser = only(choices, "attack", "miner")
    # LS 2 reaches range 9 (T000.4): the ship at 2" is, the wing at 18" is not
    assert fields(miner_laser)["target"].choices == ("ship",)
    assert fields(miner_laser)["target"].spec_id == "R000.6"


def test_R000_19_R000_25_ciws_is_declared_against_ships_and_bases_only():
    state = two_carriers(ciws_default=False)
    salvos = [c for c in RULE_SYSTEM.actions(state, COMBAT, "A") if "missiles" in c.title]
    against_hulls, against_groups = salvos
    hull_fields, group_fields = fields(against_hulls), fields(against_groups)
    assert hull_fields["target"].choices == ("ship",)
    assert hull_fields["ciws"].default is False and hull_fields["ciws"].spec_id == "R000.19"
    assert group_fields["target"].choices == ("wing",) and "ciws" not in group_fields
    assert group_fields["target"].spec_id == "R000.25"
    declared = hull_fields["missiles"]  # 12 carried, 6 a turn: the launch limit decides
    assert (declared.low, declared.high, declared.default, declared.spec_id) == (
        1,
        6,
        6,
        "R000.17",
    )
    resolved = apply(
        state, "attack", "base", ScriptedDice([9, 9]), weapon="missiles", target="wing", missiles=2
    )
    assert resolved.summary.ciws_destroyed == 0


def test_R000_3_each_unit_fires_once_a_turn():
    state = two_carriers()
    first = apply(state, "attack", "miner", ScriptedDice([0]), weapon="laser", target="ship")
    assert play.fired(first.state) == ("miner",)
    offered = RULE_SYSTEM.actions(first.state, COMBAT, "A")
    assert {c.actor for c in offered} == {"base"}
    with pytest.raises(UserError) as error:
        apply(first.state, "attack", "miner", ScriptedDice([0]), weapon="laser", target="ship")
    assert error.value.spec_id == "R000.3"


def test_R000_3_attacks_are_at_the_enemy():
    state = two_carriers()
    with pytest.raises(UserError) as error:
        apply(state, "attack", "base", ScriptedDice([0]), weapon="laser", target="miner")
    assert error.value.spec_id == "R000.3"


def test_R000_17_the_next_turn_starts_at_the_first_logistics_go_again():
    state = two_carriers()
    turn = apply(state, "purchase", "A", **{"base.missiles": 24}).state  # the whole 4 LP
    assert play.lp_spent(turn, "A") == (4, 0)
    turn = apply(turn, "pass", "B").state
    turn = apply(turn, "launch", "A", **{"base.missiles": 2}).state
    turn = apply(turn, "attack", "miner", ScriptedDice([0]), weapon="laser", target="ship").state
    assert play.turn_of(turn) == 1 and play.fired(turn) == ("miner",)
    # the offers at turn 2 already see the new turn
    purchase = only(RULE_SYSTEM.actions(turn, LOGISTICS, "A"), "purchase")
    assert fields(purchase)["base.missiles"].high == 24
    second = apply(turn, "purchase", "A", **{"base.missiles": 6})
    assert (second.events[0].kind, second.events[0].get("turn")) == ("turn", 2)
    fresh = second.state
    assert play.turn_of(fresh) == 2 and play.fired(fresh) == ()
    assert fresh.unit("base").stats["launched"] == 0
    assert play.lp_spent(fresh, "A") == (1, 0)
    assert fresh.rule_state["logistics_done"] == ("A",)
    assert apply(fresh, "pass", "B").state.rule_state["logistics_done"] == ("A", "B")


def test_apply_refuses_a_kind_it_never_offers(deimos):
    with pytest.raises(UserError, match="no action 'dance'"):
        apply(deimos, "dance", "Mars")
    with pytest.raises(UserError, match="pass takes no"):
        apply(deimos, "pass", "Mars", now=True)


def test_odds_only_for_attacks(deimos):
    assert RULE_SYSTEM.action_odds(deimos, Action("purchase", "Mars")) is None
    assert RULE_SYSTEM.action_odds(deimos, Action("launch", "Mars")) is None
    laser = Action("attack", "deimos-base", FrozenMap(weapon="laser", target="ares-cruiser"))
    report = RULE_SYSTEM.action_odds(deimos, laser)
    assert report is not None and report.facts["needed"] is not None


def test_the_session_still_moves_bfm_counters_on_the_table():
    """BFM has no movement rules: the session's free table move stays offered."""
    game = Game.new(load_map(MAP), 3)
    moves = [c for c in game.choices() if c.kind == MOVE]
    assert {c.actor for c in moves} == {u.id for u in game.state.units if u.side == "Mars"}


def test_every_offered_choice_applies_over_two_stand_in_turns():
    """Each choice offered over two stand-in turns applies with its defaults and
    first listed choices, and with each listed value or bound of each field on its own."""
    game = Game.new(load_map(MAP), 20260611)
    refused, applied, kinds = refusals_over_two_turns(game)
    assert refused == []
    assert kinds == {"purchase", "pass", "launch", "attack"}
    assert applied > 300


def test_R000_5_a_laser_no_roll_can_miss_reads_any_roll_hits():
    """N = 0 (R000.5): every roll hits, so the words say so rather than "needed 0 or
    more"; a real threshold is said as it is."""
    state = load_map(builtin_map("battlefleet-mars"))
    attacker, target = state.units[0].id, state.units[-1].id
    action = Action("attack", attacker, FrozenMap(weapon="laser", target=target))

    def said(needed: int) -> str:
        events = (
            Event.of("threshold", "R000.5", needed=needed),
            Event.of("to-hit", "R000.5", roll=7),
            Event.of("outcome", "R000.6", result="L3"),
        )
        return describe(state, action, events)

    assert said(0).endswith(": hit (rolled 7, any roll hits), result L3")
    assert said(5).endswith(": hit (rolled 7, needed 5 or more), result L3")
