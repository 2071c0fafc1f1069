"""Cortex Space attack and defense pools: who rolls what, with every step modifier.

`attack_roll` builds the attack pool, vessel Agility + Heavy Weapons (R003.55),
for its firer (`firer`: the named or least-busy gunner of a crewed ship, or the
pilot), with the step modifiers: the action penalty (R003.8), a called shot
(R003.59), a battery or a wing (R003.32, R003.36), fire-linked guns (R003.45), a
target wing (R003.33), Advantage (R003.13, R003.14), scale (R003.57, T003.13),
atmosphere (R003.60) and the crew's entries (R003.46-R003.54). `defense_of`
gives the target's defense: Agility + Pilot (R003.7, R003.31, A003.21) or the
Difficulty its crew set (R003.47, R003.54); `roll_defense` rolls it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.cortex_space import crew, tracker
from tactical.rules.cortex_space.acting import action_modifier
from tactical.rules.cortex_space.positions import centre_distance
from tactical.rules.cortex_space.rolls import Pool, PoolRoll, roll_pool, skill_pool
from tactical.rules.cortex_space.tables import (
    ATMOSPHERIC_INCREMENT_FEET,
    fire_linked_steps,
    group_attack_steps,
    range_increment_feet,
    to_hit_steps,
    wing_target_steps,
)
from tactical.rules.cortex_space.tracker import StepModifier
from tactical.rules.cortex_space.units import Vessel, Weapon, vessel


def dogfight_modifier(state: GameState, attacker: str, target: str) -> StepModifier | None:
    """R003.13 / R003.14 / A003.7: Advantage between these two vessels only."""
    for entry in tracker.get(state, tracker.ADVANTAGE, ()):
        steps = int(entry["steps"])
        rule = "R003.14" if steps == 2 else "R003.13"
        if entry["holder"] == attacker and entry["against"] == target:
            return StepModifier("holds the Advantage", steps, rule)
        if entry["holder"] == target and entry["against"] == attacker:
            return StepModifier("Advantage against it", -steps, rule)
    return None


def scale_modifier(
    weapon_scale: str, target: Vessel, options: Mapping[str, Any]
) -> StepModifier | None:
    """R003.57 / T003.13 (A003.1 signs by the `scale_chart` option)."""
    if not options["mixing_scales"]:
        return None
    steps = to_hit_steps(weapon_scale, target.scale, str(options["scale_chart"]))  # type: ignore[arg-type]
    if not steps:
        return None
    return StepModifier(f"{weapon_scale} vs {target.scale}", steps, "R003.57")


def atmosphere_modifier(
    weapon: Weapon, distance: float, options: Mapping[str, Any]
) -> StepModifier | None:
    """R003.60 / T003.16: in atmosphere, range increments by the weapon's space range; the
    penalty per increment beyond the first is the base game's (option, default 0)."""
    per = int(options["atmosphere_steps_per_increment"])
    if not options["atmosphere"] or weapon.range not in ATMOSPHERIC_INCREMENT_FEET or not per:
        return None
    increments = atmospheric_increments(weapon, distance, options)
    steps = -per * max(0, increments - 1)
    return StepModifier(f"{increments} range increments", steps, "R003.60") if steps else None


def atmospheric_increments(weapon: Weapon, distance: float, options: Mapping[str, Any]) -> int:
    """R003.60: how many range increments (T003.16) the distance spans, at the table scale."""
    feet = distance * float(options["feet_per_inch"])
    increment = range_increment_feet(weapon.range)
    return max(1, -(-round(feet) // increment))


@dataclass(frozen=True)
class Firer:
    """Who makes an attack roll: the character (R003.8) and the gunner's name for crew."""

    character: str
    gunner: str


def firer(
    state: GameState, unit: Unit, card: Vessel, options: Mapping[str, Any], gunner: str | None
) -> Firer:
    """The gunner of a crewed ship (the named one, or the one with fewest actions) or the
    vessel's own pilot."""
    people = crew.gunners(card, options)
    if not people:
        if gunner:
            raise UserError(
                f"{unit.id!r} has no gunner station to name (crew variant {crew.variant(options)})",
                spec_id="R003.48",
            )
        if crew.crewed(card, options):
            return Firer(tracker.character_key(unit.id, "guns"), "")
        return Firer(unit.id, "")
    names = [p.name for p in people]
    if gunner:
        if gunner not in names:
            raise UserError(
                f"{gunner!r} is not a gunner of {unit.id!r}: expected one of " + ", ".join(names),
                spec_id="R003.48" if crew.variant(options) == "A" else "R003.55",
            )
        return Firer(tracker.character_key(unit.id, gunner), gunner)
    chosen = min(
        names, key=lambda n: tracker.actions_taken(state, tracker.character_key(unit.id, n))
    )
    return Firer(tracker.character_key(unit.id, chosen), chosen)


def crew_attack_entries(state: GameState, unit_id: str, gunner: str) -> tuple:
    """This turn's crew modifiers on the ship's attack rolls (R003.46-R003.54)."""
    entries = tracker.matching(state, unit_id, "attack", gunner=gunner)
    if gunner:
        entries += tracker.matching(state, unit_id, "crew", station=gunner)
    return entries


@dataclass(frozen=True)
class AttackRoll:
    """An attack roll's pool and the modifiers behind its steps, and the crew entries used."""

    pool: Pool
    modifiers: tuple[StepModifier, ...]
    entries: tuple
    firer: Firer


def attack_roll(
    state: GameState,
    attacker: Unit,
    weapon: Weapon,
    target: Unit | None,
    options: Mapping[str, Any],
    *,
    gunner: str | None = None,
    battery: int = 1,
    fighters: int = 1,
    extra_actions: int = 0,
    called_shot: bool = False,
) -> AttackRoll:
    """The attack pool: vessel Agility + Heavy Weapons (R003.55), with every step modifier."""
    card = vessel(attacker)
    who = firer(state, attacker, card, options, gunner)
    modifiers: list[StepModifier] = []
    penalty = action_modifier(state, who.character, extra_actions)
    if penalty:
        modifiers.append(penalty)
    if called_shot and int(options["called_shot_steps"]):
        modifiers.append(StepModifier("called shot", int(options["called_shot_steps"]), "R003.59"))
    if battery > 1:
        modifiers.append(
            StepModifier(f"battery of {battery}", group_attack_steps(battery), "R003.36")
        )
    if fighters > 1:
        modifiers.append(
            StepModifier(f"wing of {fighters}", group_attack_steps(fighters), "R003.32")
        )
    if weapon.linked > 1 and options["fire_linked"]:
        modifiers.append(
            StepModifier(
                f"{weapon.linked} fire-linked", fire_linked_steps(weapon.linked), "R003.45"
            )
        )
    if target is not None:
        target_card = vessel(target)
        if target_card.is_wing and options["fighter_wings"]:
            alive = len(target_card.fighters)
            if wing_target_steps(alive):
                modifiers.append(
                    StepModifier(f"target wing of {alive}", wing_target_steps(alive), "R003.33")
                )
        for found in (
            dogfight_modifier(state, attacker.id, target.id) if options["dogfighting"] else None,
            scale_modifier(weapon.scale, target_card, options),
            atmosphere_modifier(weapon, centre_distance(attacker, target), options),
        ):
            if found:
                modifiers.append(found)
    entries = (
        crew_attack_entries(state, attacker.id, who.gunner) if crew.crewed(card, options) else ()
    )
    modifiers.extend(tracker.as_modifiers(entries))
    steps = sum(m.steps for m in modifiers)
    pool = skill_pool(
        ("agility", card.agility), crew.gunnery_skill(card, options, who.gunner), None, steps
    )
    return AttackRoll(pool, tuple(modifiers), entries, who)


def defensive_entries(
    state: GameState, unit: Unit, card: Vessel, options: Mapping[str, Any]
) -> tuple:
    """Crew modifiers on the ship's defensive rolls (R003.46, R003.47, R003.49)."""
    if not crew.crewed(card, options):
        return ()
    entries = tracker.matching(state, unit.id, "defense")
    person = crew.pilot_member(card, options)
    if person is not None:
        entries += tracker.matching(state, unit.id, "crew", station=person.name)
    return entries


@dataclass(frozen=True)
class Defense:
    """How a target defends: a fixed Difficulty, one defense roll, or every fighter's roll
    with the worst used (A003.21 option)."""

    fixed: int | None
    source: str
    spec_id: str
    pools: tuple[Pool, ...]
    modifiers: tuple[StepModifier, ...]

    @property
    def text(self) -> str:
        if self.fixed is not None:
            return str(self.fixed)
        joined = " / ".join(pool.text for pool in self.pools)
        return f"worst of {joined}" if len(self.pools) > 1 else joined


def defense_pools(
    state: GameState, unit: Unit, options: Mapping[str, Any]
) -> tuple[tuple[Pool, ...], tuple[StepModifier, ...]]:
    """Agility + Pilot: the less-skilled pilot's for a wing (R003.31, R003.33), or every
    fighter's with the `worst-roll` reading of A003.21."""
    card = vessel(unit)
    modifiers = tracker.as_modifiers(defensive_entries(state, unit, card, options))
    steps = sum(m.steps for m in modifiers)
    if card.is_wing and options["wing_defense"] == "worst-roll" and len(card.fighters) > 1:
        pools = tuple(
            skill_pool(("agility", card.agility), (f"pilot {m.id}", m.pilot), None, steps)
            for m in card.fighters
        )
        return pools, modifiers
    skill = crew.pilot_skill(card, options)
    return (skill_pool(("agility", card.agility), skill, None, steps),), modifiers


def defense_of(state: GameState, target: Unit, options: Mapping[str, Any]) -> Defense:
    """R003.7: the target's defense roll, or the Difficulty its crew set (R003.47, R003.54)."""
    fixed = tracker.fixed_defense(state, target.id)
    if fixed is not None:
        return Defense(int(fixed["value"]), str(fixed["source"]), str(fixed["spec_id"]), (), ())
    pools, modifiers = defense_pools(state, target, options)
    return Defense(None, "defense roll", "R003.7", pools, modifiers)


def roll_defense(defense: Defense, dice: Dice, who: str) -> PoolRoll:
    """The defense total: the fixed Difficulty, one roll, or the worst of several."""
    if defense.fixed is not None:
        return PoolRoll(defense.fixed, False)
    if len(defense.pools) == 1:
        return roll_pool(defense.pools[0], dice, who=who, what="defense")

    def one(pool: Pool, number: int):
        def step(worst: PoolRoll, source: Dice) -> PoolRoll:
            roll = roll_pool(pool, source, who=who, what=f"defense {number}")
            return roll if number == 1 or roll.total < worst.total else worst

        return step

    steps = [one(pool, n) for n, pool in enumerate(defense.pools, start=1)]
    return dice.fold(PoolRoll(0, False), steps, key=lambda r: r.total)
