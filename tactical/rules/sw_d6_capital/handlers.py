"""What each sw-d6-capital action does: one handler per action kind (`HANDLERS`).

Each handler checks its parameters and the rules (a UserError naming the SPEC
id otherwise) and resolves the action with the injected dice: the Force Point
(R004.13); Command and orders (R004.15-R004.17); Damage Control, astromech,
reactor shutdown, angled shields (R004.18-R004.24, R004.53, T004.9); attacks,
the Masterstroke manoeuvre, holding fire (R004.25-R004.40); movement, recovery,
holding position (R004.50, R004.51, R004.57). The Initiative roll that starts
a turn is `sequence.start_turn`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.base import Event, Resolution
from tactical.rules.sw_d6_capital import combat, command, fighters, ledger, maneuver, repair
from tactical.rules.sw_d6_capital.codes import code_text
from tactical.rules.sw_d6_capital.condition import Condition
from tactical.rules.sw_d6_capital.options import tie_succeeds
from tactical.rules.sw_d6_capital.tables import ARCS, STEADY


def _no_params(kind: str, params: Mapping[str, Any]) -> None:
    if params:
        raise UserError(f"{kind} takes no parameters, not {', '.join(sorted(params))}")


def _check_params(kind: str, params: Mapping[str, Any], allowed: Sequence[str]) -> None:
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise UserError(
            f"{kind} takes no {', '.join(unknown)} (parameters: {', '.join(allowed) or 'none'})"
        )


def owner_active(state: GameState, unit_id: str, rule: str) -> tuple[Unit, Any, Condition]:
    unit, deck, cond = ledger.ship(state, unit_id)
    if cond.out_of_action(ledger.turn_of(state)):
        raise UserError(f"{unit_id!r} cannot act now ({cond.level})", spec_id=rule)
    return unit, deck, cond


# ---- Initiative


def _force_point(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("force-point", params)
    info = dict(ledger.initiative_info(state))
    cond = ledger.condition(state, actor)
    if info.get("winner") != actor:
        raise UserError("only the Initiative winner may take a Masterstroke", spec_id="R004.13")
    if info.get("masterstroke"):
        raise UserError(f"{actor!r} already has its Tactical Masterstroke", spec_id="R004.13")
    if cond.force_points < 1:
        raise UserError(f"{actor!r} has no Force Point to spend", spec_id="R004.13")
    state = ledger.with_condition(state, actor, replace(cond, force_points=cond.force_points - 1))
    info["masterstroke"] = True
    state = state.with_rule_state(initiative=info)
    event = Event.of("force-point", "R004.13", ship=actor, left=cond.force_points - 1)
    return Resolution(state, (event,), True)


# ---- Command


def _command(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("command", params)
    _unit, deck, cond = owner_active(state, actor, "R004.15")
    if cond.command_rolled:
        raise UserError(f"{actor!r} has rolled Command this turn", spec_id="R004.15")
    result = command.command_roll(
        actor, command.command_code(deck, cond), deck.command_difficulty, dice
    )
    state = ledger.with_condition(state, actor, command.record_command(cond, result))
    return Resolution(state, command.command_events(actor, result), result.tracker)


def _orders(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("orders", params, ("order", "speed"))
    unit, deck, cond = owner_active(state, actor, "R004.17")
    if cond.order is not None:
        raise UserError(f"{actor!r} has its orders for this turn", spec_id="R004.17")
    current = str(unit.stats.get("speed", deck.speed))
    order = params.get("order", STEADY)
    speed = params.get("speed", current)
    command.check_order(actor, deck, cond, order, speed, current)
    state = state.replace_unit(unit.with_stats(speed=speed))
    state = ledger.with_condition(state, actor, replace(cond, order=order))
    return Resolution(state, (command.order_event(actor, deck, order, speed),), order)


# ---- Damage Control


def _damage_control(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params(
        "damage-control", params, ("extra_actions", "repair_damage", "shield_dice", "prefer")
    )
    _unit, deck, cond = owner_active(state, actor, "R004.20")
    plan = repair.repair_plan(actor, deck, cond, ledger.turn_of(state), params)
    meet = tie_succeeds(ledger.settings(state), to_hit=False)
    result = repair.repair_roll(actor, plan, dice, meet)
    updated, applied = repair.apply_repair(cond, deck, plan, result)
    state = ledger.with_condition(state, actor, updated)
    events = (
        Event.of(
            "damage-control",
            "R004.20",
            ship=actor,
            code=code_text(plan.code_pips),
            difficulty=plan.difficulty,
            covers_damage=plan.covers_damage,
            shield_pips=plan.shield_pips,
            **dict(plan.terms),
        ),
        result.roll.event(actor, "damage control", "R004.20"),
        *applied,
    )
    return Resolution(state, events, result.outcome)


def _astromech(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("astromech", params, ("what",))
    _unit, deck, cond = owner_active(state, actor, "R004.53")
    what = params.get("what", "damage")
    repair.check_astromech(actor, deck, cond, what)
    difficulty = repair.astromech_difficulty(cond, what)
    meet = tie_succeeds(ledger.settings(state), to_hit=False)
    roll, success = repair.astromech_roll(actor, deck.astromech.pips, difficulty, dice, meet)
    state = ledger.with_condition(state, actor, repair.apply_astromech(cond, deck, what, success))
    events = (
        roll.event(actor, "astromech repair", "R004.53"),
        Event.of("astromech", "R004.53", what=what, difficulty=difficulty, success=success),
    )
    return Resolution(state, events, success)


def _reactor(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("reactor-shutdown", params)
    _unit, deck, cond = owner_active(state, actor, "T004.9")
    if cond.reactor_countdown is None:
        raise UserError(f"{actor!r}'s reactor is not overloading", spec_id="T004.9")
    if cond.shutdown_tried:
        raise UserError(f"{actor!r} has tried a shutdown this turn", spec_id="T004.9")
    meet = tie_succeeds(ledger.settings(state), to_hit=False)
    pips = repair.shutdown_code(deck, cond, ledger.turn_of(state))
    roll, success = repair.shutdown_roll(actor, pips, dice, meet)
    updated = replace(
        cond, shutdown_tried=True, reactor_countdown=None if success else cond.reactor_countdown
    )
    state = ledger.with_condition(state, actor, updated)
    events = (
        roll.event(actor, "reactor shutdown", "T004.9"),
        Event.of("reactor-shutdown", "R004.4", difficulty=repair.EASY, success=success),
    )
    return Resolution(state, events, success)


def _angle_shields(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("angle-shields", params, ARCS)
    _unit, deck, cond = owner_active(state, actor, "R004.24")
    if cond.angled:
        raise UserError(f"{actor!r} has angled its shields this turn", spec_id="R004.24")
    arcs = repair.parse_allocation(params, cond.shield_arcs)
    repair.check_allocation(actor, deck, cond, arcs)
    events: list[Event] = []
    success = True
    if deck.fighter and arcs != cond.shield_arcs:
        meet = tie_succeeds(ledger.settings(state), to_hit=False)
        pips = repair.shields_roll_code(deck, cond, ledger.turn_of(state))
        roll, success = repair.shields_roll(actor, pips, dice, meet)
        cond = replace(cond, shields_map=cond.shields_map + 1)
        events.append(roll.event(actor, "shields", "R004.24"))
        events.append(
            Event.of("shields-roll", "A004.36", difficulty=repair.EASY, success=success, map_dice=1)
        )
    if success:
        cond = repair.set_allocation(cond, arcs)
    cond = replace(cond, angled=True)
    state = ledger.with_condition(state, actor, cond)
    events.append(
        Event.of(
            "shields",
            "R004.24",
            ship=actor,
            **{arc: code_text(cond.shield_arcs[i]) for i, arc in enumerate(ARCS)},
        )
    )
    return Resolution(state, tuple(events), tuple(cond.shield_arcs))


# ---- Action


def close_other_batch(state: GameState, actor: str) -> tuple[GameState, tuple[Event, ...]]:
    """R004.25: another captain acting means the unfinished action has passed."""
    current = ledger.batch(state)
    if current is None or current.get("ship") == actor:
        return state, ()
    event = Event.of(
        "action-ends",
        "R004.25",
        ship=current["ship"],
        used=current["used"],
        declared=current["size"],
    )
    return state.with_rule_state(batch=None), (event,)


def _attack(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    weapon = str(params.pop("weapon", ""))
    target = str(params.pop("target", ""))
    state, closed = close_other_batch(state, actor)
    facts = combat.fire_facts(state, actor, weapon, target, params)
    resolution = combat.resolve_facts(state, facts, dice)
    return Resolution(resolution.state, closed + resolution.events, resolution.summary)


def _maneuver(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("maneuver", params, ("path", "batch"))
    info = ledger.initiative_info(state)
    if not (info.get("masterstroke") and info.get("winner") == actor):
        raise UserError(
            f"{actor!r} has no Tactical Masterstroke: it moves in the Movement Phase",
            spec_id="R004.40",
        )
    state, closed = close_other_batch(state, actor)
    unit, deck, cond = ledger.ship(state, actor)
    blocked = combat.action_phase_block(state, unit, deck, cond)
    if blocked is not None:
        raise blocked
    slot = combat.batch_slot(state, unit, deck, cond, params.get("batch"))
    move = maneuver.plan_ship_move(state, actor, params.get("path"), slot.size - 1)
    state, events, outcome = maneuver.carry_out(state, move, dice, masterstroke=True)
    cond = ledger.condition(state, actor)
    state, cond = combat.take_batch_action(state, actor, slot, cond)
    state = ledger.with_condition(state, actor, cond)
    return Resolution(state, closed + events, outcome)


def _hold_fire(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("hold-fire", params)
    state, closed = close_other_batch(state, actor)
    current = ledger.batch(state)
    if current is not None and current.get("ship") == actor:
        state = state.with_rule_state(batch=None)
    cond = ledger.condition(state, actor)
    state = ledger.with_condition(state, actor, replace(cond, done=True))
    return Resolution(state, (*closed, Event.of("hold-fire", "R004.25", ship=actor)), "done")


# ---- Movement


def _move(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("move", params, ("path",))
    move = maneuver.plan_ship_move(state, actor, params.get("path"))
    state, events, outcome = maneuver.carry_out(state, move, dice)
    return Resolution(state, events, outcome)


def _recover(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("recover", params)
    state, events, rounds = fighters.start_recovery(state, actor, dice)
    return Resolution(state, events, rounds)


def _hold_position(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("hold-position", params)
    _unit, _deck, cond = ledger.ship(state, actor)
    if cond.moved:
        raise UserError(f"{actor!r} has moved this turn", spec_id="R004.50")
    state = ledger.with_condition(state, actor, replace(cond, moved=True))
    return Resolution(state, (Event.of("hold-position", "R004.50", ship=actor),), "stayed")


HANDLERS = {
    "force-point": _force_point,
    "command": _command,
    "orders": _orders,
    "damage-control": _damage_control,
    "astromech": _astromech,
    "reactor-shutdown": _reactor,
    "angle-shields": _angle_shields,
    "attack": _attack,
    "maneuver": _maneuver,
    "hold-fire": _hold_fire,
    "move": _move,
    "recover": _recover,
    "hold-position": _hold_position,
}
