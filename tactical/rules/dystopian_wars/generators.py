"""Generators (R002.45-R002.51, T002.7, T002.8, T002.10, A002.12, A002.13).

- Tesla (R002.45) / Kinetic (R002.48) movement boosts: rolled on activation, before the
  model moves, each model independently; `boost` stores the roll in rule_state
  `boosts[unit]` as {"tesla": r} / {"kinetic": r} (both, for a model with both
  generators), which is exactly the `activation` mapping the movement code
  (`movement.turning_rules`) reads: +r" Movement (and, for Kinetic, +r" Minimum Move)
  and at least half the boosted Movement in all. Each generator boosts once per
  activation: R002.48 forbids a second Kinetic Generator, not a Tesla boost beside a
  Kinetic one (option `tesla_with_kinetic`; false plays the earlier reading, one boost).
- Tesla alternative use (R002.46, T002.8): a Tesla Generator not used for movement may,
  after the model has moved, affect one model within 8" of its centre (A002.13) at any
  Height Level: 1D6, on 5-6 the effect (not the Damage) of one Critical Hit, from 2D6 on
  the Critical Hit Table re-rolling Double 1 and Double 6.
- Ultrasonic Pulverising Generator (R002.47, T002.7): after moving, one model within 8"
  and in the 270° arc centred on the model's heading, measured from its centre: 1D6 on
  T002.7; effects last until the End Phase; a 6 also applies Hard Pounding as a full
  Critical Hit, effect and Damage (A002.12).
- Guardian (R002.49, R002.50): see `resolving` (one Shield die of its own; the aura die).
- A Carrier that Launched this activation uses no Generator in its Combat Segment (R002.51).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.geometry.arcs_spec import TURRET_270
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Event, Resolution
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import card
from tactical.rules.dystopian_wars.combat import settings
from tactical.rules.dystopian_wars.criticals import critical_name
from tactical.rules.dystopian_wars.dicework import critical_roll_rerolling_doubles, d3, d6
from tactical.rules.dystopian_wars.measures import in_weapon_arc, within_from_centre
from tactical.rules.dystopian_wars.resolving import destroy
from tactical.rules.dystopian_wars.tables import (
    GENERATOR_RANGE,
    HARD_POUNDING,
    tesla_effect,
    ultrasonic_result,
)

BOOST_RULES = {"tesla": "R002.45", "kinetic": "R002.48"}
GENERATOR_NAMES = {"tesla": "Tesla Generator", "kinetic": "Kinetic Generator"}
ONCE = {
    "tesla": "the Tesla Generator boosts once, when the model is activated",
    "kinetic": "at most one Kinetic Generator boost per model per activation",
}


@dataclass(frozen=True, slots=True)
class ActivationFlags:
    """What the activation so far says about a model (from `play`)."""

    moved: bool = False
    boosted: tuple[str, ...] = ()  # the generators boosted with this activation
    launched: bool = False
    used_generators: tuple[str, ...] = ()


def boost(
    state: GameState, unit: Unit, generator: str, dice: Dice, flags: ActivationFlags
) -> Resolution:
    """R002.45 / R002.48: roll the boost before moving and record it for the movement code."""
    rule = BOOST_RULES.get(generator)
    if rule is None:
        raise UserError(
            f"a movement boost comes from a tesla or kinetic generator, not {generator!r}",
            spec_id="R002.45",
        )
    if generator not in card(unit).generators:
        raise UserError(f"{unit.id!r} has no {generator} generator", spec_id=rule)
    if flags.moved:
        raise UserError(
            f"{unit.id!r} has moved: a boost is rolled before moving the model", spec_id=rule
        )
    if flags.boosted and not settings(state)["tesla_with_kinetic"]:
        raise UserError(
            f"{unit.id!r} has already rolled a {flags.boosted[0]} boost this activation: one "
            "generator boost per activation",
            spec_id="R002.48",
        )
    if generator in flags.boosted:
        # R002.48: one Kinetic Generator per activation; the Tesla boost is one roll (R002.45)
        raise UserError(
            f"{unit.id!r} has already rolled its {GENERATOR_NAMES[generator]} boost this "
            f"activation: {ONCE[generator]}",
            spec_id=rule,
        )
    if generator == "tesla":
        value, event = d3(dice, unit.id, "Tesla Generator boost", rule)
    else:
        value, event = d6(dice, unit.id, "Kinetic Generator boost", rule)
    rolled = {**dict(boost_of(state, unit.id) or {}), generator: value}
    state = tracking.put_in(state, "boosts", unit.id, FrozenMap(rolled))
    move = float(unit.stats.get("move", 6.0)) + sum(rolled.values())
    events = (
        event,
        Event.of(
            "boost",
            rule,
            unit=unit.id,
            generator=generator,
            inches=value,
            movement=move,
            minimum_move_added=value if generator == "kinetic" else 0,
            must_move_at_least_half=True,
        ),
    )
    return Resolution(state, events, value)


def _check_generator(unit: Unit, generator: str, flags: ActivationFlags, rule: str) -> None:
    if generator not in card(unit).generators:
        raise UserError(f"{unit.id!r} has no {generator} generator", spec_id=rule)
    if flags.launched:
        raise UserError(
            f"{unit.id!r} Launched a Wing this activation: it cannot use any Generator",
            spec_id="R002.51",
        )
    if not flags.moved:
        raise UserError(
            f"{unit.id!r} uses its {generator} generator after it has finished moving",
            spec_id=rule,
        )
    if generator in flags.used_generators:
        raise UserError(
            f"{unit.id!r} has used its {generator} generator this activation", spec_id=rule
        )


def check_tesla_alternative(unit: Unit, target: Unit, flags: ActivationFlags) -> None:
    """R002.46 / A002.13: UserError unless the Tesla Generator may affect `target` now."""
    _check_generator(unit, "tesla", flags, "R002.46")
    if "tesla" in flags.boosted:
        raise UserError(
            f"{unit.id!r} used its Tesla Generator for movement this activation",
            spec_id="R002.46",
        )
    _check_target(unit, target, "R002.46")
    if not within_from_centre(unit, target, GENERATOR_RANGE):
        raise UserError(
            f"{target.id!r} is not within 8\" of {unit.id!r}'s centre", spec_id="A002.13"
        )


def check_ultrasonic(unit: Unit, target: Unit, flags: ActivationFlags) -> None:
    """R002.47: UserError unless the Ultrasonic Pulverising Generator may target `target` now."""
    _check_generator(unit, "ultrasonic", flags, "R002.47")
    _check_target(unit, target, "R002.47")
    if not in_weapon_arc(unit, TURRET_270, target):
        raise UserError(
            f"{target.id!r} is not in the 270° arc of {unit.id!r}'s Ultrasonic Pulverising "
            "Generator",
            spec_id="R002.47",
        )
    if not within_from_centre(unit, target, GENERATOR_RANGE):
        raise UserError(
            f"{target.id!r} is not within 8\" of {unit.id!r}'s centre", spec_id="R002.47"
        )


def tesla_alternative(
    state: GameState, unit: Unit, target: Unit, dice: Dice, flags: ActivationFlags
) -> Resolution:
    """R002.46 / T002.8 / A002.13 (see the module doc)."""
    check_tesla_alternative(unit, target, flags)
    options = settings(state)
    mode = str(options["tesla_critical_reroll"])

    def roll(source: Dice) -> tuple[str | None, tuple[Event, ...]]:
        value, event = d6(source, unit.id, "Tesla Generator", "R002.46")
        hit = tesla_effect(value)
        events = [event, Event.of("lookup", "T002.8", roll=value, effect=hit)]
        if not hit:
            return None, tuple(events)
        crit = critical_roll_rerolling_doubles(source, target.id, mode)
        return crit.code, (*events, *crit.events)

    code, events = dice.chance(roll, key=lambda r: r[0])
    all_events = list(events)
    if code is not None:
        state = tracking.add_effect(state, target.id, code)
        all_events.append(_critical("critical-effect", "R002.46", target, code, damage=0))
    state = _mark_used(state, unit, "tesla")
    return Resolution(state, tuple(all_events), code or "none")


def ultrasonic(
    state: GameState, unit: Unit, target: Unit, dice: Dice, flags: ActivationFlags
) -> Resolution:
    """R002.47 / T002.7 / A002.12 (see the module doc)."""
    check_ultrasonic(unit, target, flags)

    def roll(source: Dice) -> tuple[int, tuple[Event, ...]]:
        value, event = d6(source, unit.id, "Ultrasonic Pulverising Generator", "R002.47")
        return value, (event,)

    value, events = dice.chance(roll, key=lambda r: r[0])
    result = ultrasonic_result(value)
    all_events = [
        *events,
        Event.of(
            "lookup",
            "T002.7",
            roll=value,
            effects=result.effects,
            hard_pounding=result.hard_pounding,
            until="End Phase",
        ),
    ]
    for effect in result.effects:
        state = tracking.add_effect(state, target.id, effect, lasting=False)
    destroyed = False
    if result.hard_pounding:
        state, destroyed, more = hard_pounding(state, target)
        all_events.extend(more)
    state = _mark_used(state, unit, "ultrasonic")
    return Resolution(state, tuple(all_events), (value, destroyed))


def hard_pounding(state: GameState, target: Unit) -> tuple[GameState, bool, list[Event]]:
    """A002.12: the Hard Pounding Critical Hit in full: its effect and its Damage."""
    damage = int(settings(state)["critical_damage"])
    state = tracking.add_effect(state, target.id, HARD_POUNDING)
    lost = tracking.hull_lost(state, target.id) + damage
    state = tracking.put_in(state, "hull_lost", target.id, lost)
    destroyed = lost >= card(target).hull_points
    events = [
        _critical(
            "critical-hit", "A002.12", target, HARD_POUNDING, damage=damage, destroyed=destroyed
        )
    ]
    if destroyed:
        state = destroy(state, target)
    return state, destroyed, events


def _critical(kind: str, spec_id: str, target: Unit, code: str, **more: Any) -> Event:
    """A Critical Hit's effect given to `target` by a generator, with its Damage (`more`)."""
    return Event.of(kind, spec_id, unit=target.id, effect=code, name=critical_name(code), **more)


def _check_target(unit: Unit, target: Unit, rule: str) -> None:
    if target.id == unit.id:
        raise UserError(f"{unit.id!r} cannot target itself with its generator", spec_id=rule)


def _mark_used(state: GameState, unit: Unit, generator: str) -> GameState:
    used = tracking.plain(tracking.mapping(state, "generators_used"))
    used[unit.id] = tuple(sorted(set(used.get(unit.id, ())) | {generator}))
    return tracking.put(state, generators_used=FrozenMap(used))


def boost_of(state: GameState, unit_id: str) -> Mapping[str, Any] | None:
    """The boost rolled for a model this activation, as the movement code wants it."""
    return tracking.mapping(state, "boosts").get(unit_id)


def move_activation(state: GameState, unit: Unit) -> Mapping[str, Any] | None:
    """`RuleSystem.move_activation` (R002.45, R002.48): the generator boost rolled for `unit`
    this activation, which a move previewed on the screen is held to."""
    return boost_of(state, unit.id)
