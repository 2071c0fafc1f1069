"""Segments 3a and 3b of an activation (R002.28), as choices and actions: the active
squadron declares its attacks (R002.36; no Split Fire for a restricted model, R002.26) and
its generators' effects (R002.46, R002.47), each attack recorded with the combat step it is
resolved in; then each targeted side declares its Counterattacks with Auxiliary weapons
(R002.29). `combat.declare` decides what is legal; `combat_steps` resolves the record.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from operator import is_
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Action, ActionChoice, Event, Field, Resolution, unit_name
from tactical.rules.dystopian_wars import combat, command, generators, tracking
from tactical.rules.dystopian_wars.cards import card, squadron_units
from tactical.rules.dystopian_wars.sequence import (
    Handler,
    choice,
    current_activation,
    generator_flags,
    member,
    need_stage,
    options_of,
    params_of,
    set_activation,
    unit_of,
)
from tactical.rules.values import fixed_field, pick_field

# --------------------------------------------------------------------------- choices


# what of the rule state a plain declaration reads (`combat.declare`: Prizes and Derelicts,
# a Wing's Ordnance spent, and for a Wing's Combined Fire the command of R002.26/R002.27)
_DECLARE_READS = combat.DECLARE_READS
# the targets found, by the very objects read (beside their ids, so that no id is reused)
_TARGETS: dict[tuple[Any, ...], tuple[tuple[object, ...], tuple[str, ...]]] = {}
MAX_TARGETS = 1024


def targets_for(
    state: GameState, unit: Unit, weapon: str, launched: bool, **params: Any
) -> tuple[str, ...]:
    """The enemy models `unit` may declare `weapon` against (`combat.declare` allows it).
    A plain declaration's are remembered by what `declare` reads: the table and the few
    rule-state entries of `_DECLARE_READS` (every step of a segment offers the choices
    again, on a table where only the activation's record changed)."""
    if params:
        return _targets(state, unit, weapon, launched, params)
    read = (*combat.table_read(state), unit, *map(state.rule_state.get, _DECLARE_READS))
    slot = (*map(id, read), weapon, launched)
    found = _TARGETS.get(slot)
    if found is not None and all(map(is_, found[0], read)):
        return found[1]
    targets = _targets(state, unit, weapon, launched, params)
    if len(_TARGETS) >= MAX_TARGETS:
        _TARGETS.clear()
    _TARGETS[slot] = (read, targets)
    return targets


def _targets(
    state: GameState, unit: Unit, weapon: str, launched: bool, params: Mapping[str, Any]
) -> tuple[str, ...]:
    found = []
    indirect = params.get("indirect") is True
    arms = card(unit).weapon(weapon)
    for target in state.units:
        if target.side == unit.side:
            continue
        try:
            # refused for its reach (GEO002.7, R002.40-41) whatever else it reads: the
            # declaration's other checks and its record left out (most pairs end here),
            # those across the table without measuring
            if arms is not None and combat.beyond_reach(state, unit, arms, target):
                continue
            # refused whatever the line of sight (T002.6): the line never drawn
            if arms is not None and combat.refused_unsighted(state, unit, arms, target):
                continue
            if combat.out_of_reach(state, unit.id, weapon, target.id, indirect):
                continue
            combat.declared_on(state, unit.id, weapon, target.id, params, launched=launched)
        except UserError:
            continue
        found.append(target.id)
    return tuple(found)


def used_weapons(act: Mapping[str, Any]) -> set[tuple[str, str]]:
    """The (model, weapon) pairs that have declared or joined an attack this activation."""
    return {tuple(entry) for entry in act.get("used_weapons", ())}  # type: ignore[misc]


def declare_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    """R002.28 segment 3a: each weapon with a target it may take, each generator effect with
    a target, and the end of declarations."""
    found = []
    used = used_weapons(act)
    flags_of = generator_flags(state, act)
    for unit in squadron_units(state, act["squadron"]):
        if tracking.adrift(state, unit.id):  # a Prize or a Derelict has no crew to fire
            continue
        launched = act.get("launched") == unit.id
        engaged = act.get("engaged", {}).get(unit.id, ())
        no_split = None  # whether the model may not Split Fire (R002.26), asked once
        for weapon in card(unit).weapons:
            if (unit.id, weapon.name) in used:
                continue
            targets = targets_for(state, unit, weapon.name, launched)
            if engaged:
                if no_split is None:
                    no_split = bool(command.restricted(state, unit, options_of(state)))
                if no_split:
                    targets = tuple(t for t in targets if t in engaged)
            if not targets:
                continue
            found.append(
                choice(
                    "declare-attack",
                    unit.id,
                    f"{unit_name(state, unit.id)}: {weapon.name}",
                    fixed_field("weapon", weapon.name),
                    pick_field("target", targets),
                    Field(
                        "linked",
                        "str",
                        default="",
                        doc="squadron models linking fire (ids)",
                        spec_id="A002.17",
                    ),
                    Field(
                        "combined", "str", default="", doc="Escorts / Wing (ids)", spec_id="R002.42"
                    ),
                    Field("indirect", "bool", default=False, spec_id="R002.43"),
                    spec="R002.36",
                )
            )
        flags = flags_of(unit)
        for generator, kind, rule in (
            ("tesla", "tesla-effect", "R002.46"),
            ("ultrasonic", "ultrasonic", "R002.47"),
        ):
            if generator not in card(unit).generators:
                continue
            targets = _generator_targets(state, unit, kind, flags)
            if targets:
                found.append(
                    choice(
                        kind,
                        unit.id,
                        f"{unit_name(state, unit.id)}: {generator} generator",
                        pick_field("target", targets),
                        spec=rule,
                    )
                )
    found.append(choice("end-declarations", act["side"], "End declarations", spec="R002.28"))
    return tuple(found)


def _generator_targets(
    state: GameState, unit: Unit, kind: str, flags: generators.ActivationFlags
) -> tuple[str, ...]:
    check = (
        generators.check_tesla_alternative
        if kind == "tesla-effect"
        else generators.check_ultrasonic
    )
    found = []
    for target in state.units:
        if target.side == unit.side:
            continue
        try:
            check(unit, target, flags)
        except UserError:
            continue
        found.append(target.id)
    return tuple(found)


def counter_weapons(
    state: GameState, act: Mapping[str, Any], side: str
) -> Iterator[tuple[Unit, Any, tuple[Unit, ...]]]:
    """R002.29: each auxiliary weapon of `side` not yet used this activation, on a model of
    a squadron the active squadron targeted (prizes aside), with the active squadron's
    models it may answer: (model, weapon, attackers)."""
    used = used_weapons(act)
    attackers = squadron_units(state, act["squadron"])
    for key in act.get("targeted", ()):
        for unit in squadron_units(state, key):
            if unit.side != side or tracking.adrift(state, unit.id):
                continue
            for weapon in card(unit).weapons:
                if weapon.auxiliary and (unit.id, weapon.name) not in used:
                    yield unit, weapon, attackers


def counter_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    """R002.29: `side`'s Counterattacks against the active squadron, and their end."""
    act = current_activation(state)
    assert act is not None
    found = []
    for unit, weapon, attackers in counter_weapons(state, act, side):
        targets = tuple(
            t.id for t in attackers if _legal(state, unit.id, weapon.name, t.id, counter=True)
        )
        if targets:
            found.append(
                choice(
                    "counterattack",
                    unit.id,
                    f"{unit_name(state, unit.id)}: {weapon.name} (counterattack)",
                    fixed_field("weapon", weapon.name),
                    pick_field("target", targets),
                    spec="R002.29",
                )
            )
    found.append(choice("end-counterattacks", side, "End counterattacks", spec="R002.28"))
    return tuple(found)


def _legal(state: GameState, attacker: str, weapon: str, target: str, **params: Any) -> bool:
    firer, aimed = state.unit_or_none(attacker), state.unit_or_none(target)
    try:
        if firer is not None and aimed is not None:
            arms = card(firer).weapon(weapon)
            if arms is not None and combat.beyond_reach(state, firer, arms, aimed):
                return False  # refused for its range whatever else it reads (GEO002.7)
        combat.declared_on(state, attacker, weapon, target, params)
    except UserError:
        return False
    return True


# --------------------------------------------------------------------------- actions


def _declare_attack(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "declare")
    unit = member(state, act, action.actor)
    params = params_of(action)
    weapon = str(params.pop("weapon", ""))
    target = str(params.pop("target", ""))
    declared = {k: v for k, v in params.items() if v not in ("", None, False)}
    return _record_attack(state, act, unit, weapon, target, declared, counter=False)


def _record_attack(
    state: GameState,
    act: Mapping[str, Any],
    unit: Unit,
    weapon: str,
    target: str,
    params: dict[str, Any],
    *,
    counter: bool,
) -> Resolution:
    used = used_weapons(act)
    if (unit.id, weapon) in used:
        raise UserError(f"{unit.id!r} has declared its {weapon} this activation", spec_id="R002.28")
    if counter:
        params["counter"] = True
    attack = combat.declared_on(
        state, unit.id, weapon, target, params, launched=act.get("launched") == unit.id
    )
    engaged = tracking.plain(act.get("engaged", {}))
    targets = set(engaged.get(unit.id, ()))
    if targets and target not in targets:
        command.check_firing_option(state, unit, "split", options_of(state))
    contributors = [(str(e[0]), str(e[1])) for e in attack.params["pool"]]
    for contributor in contributors[1:]:
        if contributor in used:
            raise UserError(
                f"{contributor[0]!r} has declared its {contributor[1]} this activation",
                spec_id="R002.28",
            )
    engaged[unit.id] = tuple(sorted(targets | {target}))
    target_unit = state.unit(target)
    step = combat_step(unit, attack.weapon, target_unit, counter)
    record = FrozenMap(
        attacker=unit.id,
        side=unit.side,
        weapon=weapon,
        target=target,
        # the names as declared: a model destroyed before the roll is still named so
        attacker_name=unit_name(state, unit.id),
        target_name=unit_name(state, target),
        step=step,
        params=FrozenMap({k: v for k, v in params.items()}),
        counter=counter,
        resolved=False,
    )
    targeted = set(act.get("targeted", ()))
    if not counter:
        targeted.add(card(target_unit).squadron)
    state = set_activation(
        state,
        declared=(*act.get("declared", ()), record),
        used_weapons=tuple(sorted(used | set(contributors))),
        engaged=FrozenMap(engaged),
        targeted=tuple(sorted(targeted)),
    )
    event = Event.of(
        "declared",
        "R002.29" if counter else "R002.28",
        attacker=unit.id,
        weapon=weapon,
        target=target,
        step=step,
        pool=attack.params["pool"],
    )
    return Resolution(state, (event,), step)


def combat_step(attacker: Unit, weapon_name: str, target: Unit, counter: bool) -> str:
    """R002.28: the combat step (3b-3d) in which an attack is resolved."""
    weapon = card(attacker).weapon(weapon_name)
    assert weapon is not None
    a, t = card(attacker), card(target)
    if weapon.kind == "ack-ack":
        if a.is_tiny_flyer and t.is_tiny_flyer:
            return "3c-i"
        if (a.is_tiny_flyer and t.airborne) or (t.is_tiny_flyer and a.airborne):
            return "3c-ii"
        if counter and t.airborne:
            return "3b-ack-ack"
    if counter and weapon.kind == "concussion" and t.height == "diving":
        return "3b-concussion"
    if a.is_tiny_flyer and weapon.weapon_class == "ordnance":
        return "3c-iii"
    return "3d"


def _generator_action(kind: str):
    def handler(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
        act = need_stage(state, side, "declare")
        unit = member(state, act, action.actor)
        target = unit_of(state, str(params_of(action).get("target", "")))
        flags = generator_flags(state, act)(unit)
        fn = generators.tesla_alternative if kind == "tesla-effect" else generators.ultrasonic
        return fn(state, unit, target, dice, flags)

    return handler


def _end_declarations(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "declare")
    defenders = tuple(s for s in state.sides if s != side and _counter_available(state, act, s))
    if defenders:
        stage = "counter"
    elif act.get("declared"):
        stage = "resolve"
    else:
        stage = "boarding"
    state = set_activation(state, stage=stage, defenders=defenders)
    event = Event.of(
        "declarations-done",
        "R002.28",
        declared=len(act.get("declared", ())),
        counter_sides=defenders,
    )
    return Resolution(state, (event,), stage)


def _counter_available(state: GameState, act: Mapping[str, Any], side: str) -> bool:
    """Whether `counter_choices` would offer `side` a Counterattack (R002.29): some weapon of
    it may answer some attacker (asked without building the choices, first one found)."""
    probe = set_activation(state, stage="counter", defenders=(side,))
    probe_act = current_activation(probe)
    assert probe_act is not None
    return any(
        _legal(probe, unit.id, weapon.name, target.id, counter=True)
        for unit, weapon, attackers in counter_weapons(probe, probe_act, side)
        for target in attackers
    )


def _counterattack(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "counter")
    if side not in act.get("defenders", ()):
        raise UserError(f"{side!r} has no squadron targeted this activation", spec_id="R002.28")
    unit = unit_of(state, action.actor)
    if card(unit).squadron not in act.get("targeted", ()):
        raise UserError(
            f"{unit.id!r}'s squadron was not targeted: no Counterattack", spec_id="R002.28"
        )
    params = params_of(action)
    weapon = str(params.pop("weapon", ""))
    target = str(params.pop("target", ""))
    if card(unit_of(state, target)).squadron != act["squadron"]:
        raise UserError("a Counterattack targets the active squadron", spec_id="R002.28")
    return _record_attack(state, act, unit, weapon, target, {}, counter=True)


def _end_counterattacks(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "counter")
    remaining = tuple(s for s in act.get("defenders", ()) if s != side)
    stage = "counter" if remaining else ("resolve" if act.get("declared") else "boarding")
    state = set_activation(state, defenders=remaining, stage=stage)
    return Resolution(state, (Event.of("counterattacks-done", "R002.28", side=side),), stage)


HANDLERS: dict[str, Handler] = {
    "declare-attack": _declare_attack,
    "tesla-effect": _generator_action("tesla-effect"),
    "ultrasonic": _generator_action("ultrasonic"),
    "end-declarations": _end_declarations,
    "counterattack": _counterattack,
    "end-counterattacks": _end_counterattacks,
}
