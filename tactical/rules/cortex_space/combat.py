"""Attacks (R003.7, R003.13, R003.24, R003.32-R003.38, R003.43-R003.45, R003.57-R003.58).

Three kinds of weapon, one declaration (`declare`) and one resolver each:

- `gun`: attack roll against the target's defense roll or fixed Difficulty (R003.7),
  fired singly, as a battery of up to six identical mounts (R003.35, R003.36; each
  battery is its own attack and roll, R003.37), as fire-linked guns (R003.45) or as a
  wing's combined fire (R003.32); damage is Basic (attack - defense) plus the weapon
  die, stepped up on a battery's or wing's hit (+2 when extraordinary, A003.4), through
  `damage.deliver`.
- `missile`: the attack roll establishes a lock against a fixed Difficulty by range
  (R003.38, A003.24); the missile is fired later (see `missiles`).
- `point-defense`: a vessel within the system's skirmish range rolls Agility + Pilot
  against HEROIC 19; failure costs Basic damage plus the PD die +1 step (+2 on a botch,
  R003.43, R003.44, A003.28).

Every roll goes through the injected dice inside folds keyed by what matters next
(attack total, then margin, then damage, then the target's state), so `attack_odds`
enumerates this very resolver exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from tactical.dice import Dice, enumerate_outcomes, fraction_text, percent
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Attack, Event, OddsReport, OddsSection, Resolution
from tactical.rules.cortex_space import crew, tracker
from tactical.rules.cortex_space.damage import (
    Receiver,
    Target,
    deliver,
    receiver_of,
    target_of,
    write_back,
)
from tactical.rules.cortex_space.positions import band_index, band_of, centre_distance
from tactical.rules.cortex_space.rolls import (
    DamageDice,
    Pool,
    PoolRoll,
    attack_hits,
    basic_damage,
    is_extraordinary_hit,
    multi_action_steps,
    outcome,
    roll_damage,
    roll_pool,
    skill_pool,
    succeeded,
)
from tactical.rules.cortex_space.tables import (
    ATMOSPHERIC_INCREMENT_FEET,
    HEROIC,
    MISSILE_BY_RANGE,
    called_shot_resist,
    fire_linked_steps,
    group_attack_steps,
    group_damage_steps,
    range_increment_feet,
    to_hit_steps,
    wing_target_steps,
)
from tactical.rules.cortex_space.tracker import StepModifier
from tactical.rules.cortex_space.units import MAX_WING, Vessel, Weapon, settings, vessel

GUN, MISSILE, POINT_DEFENSE = "gun", "missile", "point-defense"
PARAMS = {
    GUN: ("battery", "fighters", "gunner", "called_shot"),
    MISSILE: ("gunner",),
    POINT_DEFENSE: (),
}
PD_DIFFICULTY = HEROIC  # R003.43


# --------------------------------------------------------------------------- lookups


def unit_of(state: GameState, unit_id: str, role: str) -> Unit:
    if not state.has_unit(unit_id):
        known = ", ".join(u.id for u in state.units) or "none"
        raise UserError(f"unknown {role} unit {unit_id!r}: units on this map are {known}")
    return state.unit(unit_id)


def weapon_of(unit: Unit, card: Vessel, name: str) -> Weapon:
    weapon = card.weapon(name)
    if weapon is None:
        offer = ", ".join(w.name for w in card.weapons) or "none"
        raise UserError(
            f"unknown weapon {name!r} for unit {unit.id!r}: it carries {offer}",
            spec_id="R003.48",
        )
    return weapon


def require_active(unit: Unit, card: Vessel, what: str) -> None:
    """A vessel out of action (destroyed or adrift) takes no action (base Cortex, G.5)."""
    if card.destroyed or card.disabled:
        state = "destroyed" if card.destroyed else "disabled"
        raise UserError(f"{unit.id!r} is {state} and cannot {what}", spec_id="R003.7")


def require_target(unit: Unit, card: Vessel) -> None:
    if card.destroyed:
        raise UserError(f"{unit.id!r} is already destroyed", spec_id="R003.7")


# --------------------------------------------------------------------------- modifiers


def action_modifier(state: GameState, character: str, actions: int = 0) -> StepModifier | None:
    """R003.8: the penalty of this character's next action (`actions` more this turn)."""
    number = tracker.actions_taken(state, character) + 1 + actions
    steps = multi_action_steps(number)
    return StepModifier(f"action {number} this turn", steps, "R003.8") if steps else None


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


# --------------------------------------------------------------------------- declaring


def declare(
    state: GameState,
    attacker_id: str,
    weapon_name: str,
    target_id: str,
    params: Mapping[str, Any] | None = None,
) -> Attack:
    """Check a declared attack on the table; a UserError naming the SPEC rule when illegal."""
    options = settings(state)
    attacker = unit_of(state, attacker_id, "attacking")
    target = unit_of(state, target_id, "target")
    if attacker.id == target.id:
        raise UserError(f"unit {attacker.id!r} cannot attack itself", spec_id="R003.7")
    card, target_card = vessel(attacker), vessel(target)
    require_active(attacker, card, "attack")
    require_target(target, target_card)
    weapon = weapon_of(attacker, card, weapon_name)
    given = dict(params or {})
    unknown = sorted(set(given) - set(PARAMS[weapon.kind]))
    if unknown:
        allowed = ", ".join(PARAMS[weapon.kind]) or "none"
        raise UserError(
            f"a {weapon.kind} attack takes no {', '.join(unknown)} (parameters: {allowed})"
        )
    if weapon.working < 1:
        raise UserError(f"{attacker.id!r}'s {weapon.name} is out of action", spec_id="R003.29")
    distance = centre_distance(attacker, target)
    band = band_of(distance, options)
    if band is None or band_index(band) > weapon.max_band:
        raise UserError(
            f'{target.id!r} is {distance:.2f}" away ({band or "beyond long DRADIS"} range): '
            f"beyond the {weapon.range} range of {attacker.id!r}'s {weapon.name}",
            spec_id="GEO003.1",
        )
    strafer = tracker.table(state, tracker.STRAFING).get(target.id)
    if strafer == attacker.id and weapon.kind != POINT_DEFENSE:
        raise UserError(
            f"{target.id!r} is strafing {attacker.id!r}: only its point-defense weapons can "
            "attack it this turn",
            spec_id="R003.24",
        )
    gunner = _text(given.get("gunner", ""), "gunner")
    if weapon.kind == MISSILE:
        return _declare_lock(state, attacker, weapon, target, band, gunner, options)
    if weapon.kind == POINT_DEFENSE:
        return _declare_pd(state, attacker, weapon, target, options)
    battery = _whole(given.get("battery", 1), "battery", "R003.35")
    if battery > 1 and not options["weapon_batteries"]:
        raise UserError(
            "weapon batteries are not in play (option weapon_batteries)", spec_id="R003.35"
        )
    if battery > 1 and card.scale != "spacecraft":
        raise UserError(
            f"only spacecraft group weapons in batteries; {attacker.id!r} is {card.scale} scale",
            spec_id="R003.35",
        )
    if battery > MAX_WING:  # A003.23: 1-6 identical mounts; twelve need two batteries
        raise UserError(
            f"a battery is at most 6 identical weapons, not {battery}", spec_id="R003.35"
        )
    free = weapon.working - tracker.fired(state, attacker.id, weapon.name)
    if battery > free:
        raise UserError(
            f"{attacker.id!r} has {max(free, 0)} {weapon.name} left to fire this turn, not "
            f"{battery}: each battery rolls on its own (R003.37)",
            spec_id="R003.37",
        )
    declared: dict[str, Any] = {"battery": battery}
    if card.is_wing:
        alive = len(card.fighters)
        fighters = _whole(given.get("fighters", alive), "fighters", "R003.32")
        if fighters > alive:
            raise UserError(
                f"{attacker.id!r} has {alive} fighters, not {fighters}", spec_id="R003.32"
            )
        if fighters > 1 and not options["fighter_wings"]:
            raise UserError(
                "fighter wings are not in play (option fighter_wings)", spec_id="R003.30"
            )
        declared["fighters"] = fighters
    elif "fighters" in given:  # A003.22: only a wing's combined fire has fighters
        raise UserError(
            f"{attacker.id!r} is not a wing: it declares no fighters", spec_id="R003.32"
        )
    who = firer(state, attacker, card, options, gunner or None)
    if who.gunner:
        declared["gunner"] = who.gunner
    called = given.get("called_shot", False)
    if not isinstance(called, bool):
        raise UserError(f"called_shot must be true or false, not {called!r}", spec_id="R003.59")
    if called:
        declared["called_shot"] = True
    return Attack(attacker.id, weapon.name, target.id, FrozenMap(declared))


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise UserError(f"{name} must be a name, not {value!r}")
    return value


def _whole(value: Any, name: str, spec_id: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise UserError(f"{name} must be a whole number >= 1, not {value!r}", spec_id=spec_id)
    return value


def _declare_lock(
    state: GameState,
    attacker: Unit,
    weapon: Weapon,
    target: Unit,
    band: str,
    gunner: str,
    options: Mapping[str, Any],
) -> Attack:
    if not options["missile_locks"]:
        raise UserError("missile locks are not in play (option missile_locks)", spec_id="R003.38")
    if MISSILE_BY_RANGE[band].lock is None:
        raise UserError(
            f"no missile lock at {band} range: locks need capital range or more",
            spec_id="R003.38",
        )
    if weapon.missiles < 1:
        raise UserError(f"{attacker.id!r}'s {weapon.name} has no missiles left", spec_id="R003.38")
    who = firer(state, attacker, vessel(attacker), options, gunner or None)
    params = {"gunner": who.gunner} if who.gunner else {}
    return Attack(attacker.id, weapon.name, target.id, FrozenMap(params))


def _declare_pd(
    state: GameState, attacker: Unit, weapon: Weapon, target: Unit, options: Mapping[str, Any]
) -> Attack:
    if not options["point_defense"]:
        raise UserError(
            "point-defense weapons are not in play (option point_defense)", spec_id="R003.43"
        )
    if target.side == attacker.side:
        raise UserError(f"{target.id!r} is on {attacker.id!r}'s side", spec_id="R003.43")
    engaged = (attacker.id, weapon.name, target.id)
    if engaged in tracker.get(state, tracker.PD_ENGAGED, ()):
        raise UserError(
            f"{attacker.id!r}'s {weapon.name} has already engaged {target.id!r} this turn",
            spec_id="R003.43",
        )
    return Attack(attacker.id, weapon.name, target.id, FrozenMap())


# --------------------------------------------------------------------------- resolving


@dataclass(frozen=True, slots=True)
class Volley:
    """A resolution in progress: the target's state, hits so far, what the next step needs."""

    target: Target
    hits: int = 0
    extraordinary: int = 0
    pending: tuple = ()
    events: tuple[Event, ...] = ()


def _volley_key(volley: Volley) -> tuple:
    return volley.target.key, volley.hits, volley.extraordinary, volley.pending


@dataclass(frozen=True, slots=True)
class AttackSummary:
    """What an attack came to: hits, extraordinary hits, damage dealt (own scale), whether it
    destroyed the target, and the battle-damage results."""

    hits: int
    extraordinary: int
    stun: int
    wound: int
    destroyed: bool
    effects: tuple[str, ...]


@dataclass(frozen=True)
class GunPlan:
    attacker: Unit
    target: Unit
    weapon: Weapon
    group: bool
    roll: AttackRoll
    defense: Defense
    damage: DamageDice
    receiver: Receiver
    start: Target
    events: tuple[Event, ...]


def plan_gun(state: GameState, attack: Attack) -> GunPlan:
    """Everything decided before the first die: pools, modifiers, defense, damage die.

    Cached by (state, attack): the exact odds re-run the resolver once per outcome."""
    return _plan_gun(state, attack)


@lru_cache(maxsize=32)
def _plan_gun(state: GameState, attack: Attack) -> GunPlan:
    options = settings(state)
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    card, target_card = vessel(attacker), vessel(target)
    weapon = weapon_of(attacker, card, attack.weapon)
    battery = int(attack.params.get("battery", 1))
    fighters = int(attack.params.get("fighters", 1))
    roll = attack_roll(
        state,
        attacker,
        weapon,
        target,
        options,
        gunner=attack.params.get("gunner") or None,
        battery=battery,
        fighters=fighters,
        called_shot=bool(attack.params.get("called_shot", False)),
    )
    defense = defense_of(state, target, options)
    distance = centre_distance(attacker, target)
    events = (
        Event.of(
            "declare",
            "R003.7",
            attacker=attacker.id,
            weapon=weapon.name,
            target=target.id,
            battery=battery,
            fighters=fighters,
            gunner=roll.firer.gunner or None,
        ),
        Event.of(
            "range",
            "GEO003.1",
            distance=round(distance, 6),
            band=band_of(distance, options),
            weapon_range=weapon.range,
        ),
        *_modifier_events(roll.modifiers, "attack"),
        Event.of("attack-pool", "R003.2", pool=roll.pool.text, steps=roll.pool.steps),
        *_modifier_events(defense.modifiers, "defense"),
        Event.of("defense", defense.spec_id, source=defense.source, value=defense.text),
        *_called_shot_events(attack, weapon, target_card),
    )
    return GunPlan(
        attacker,
        target,
        weapon,
        battery > 1 or fighters > 1,
        roll,
        defense,
        weapon.damage,
        receiver_of(target, options),
        target_of(target_card),
        events,
    )


def _called_shot_events(attack: Attack, weapon: Weapon, target: Vessel) -> tuple[Event, ...]:
    """R003.59 / T003.15: the Difficulty the target rolls to resist the called shot's special
    effect (the effects themselves are the base game's); none possible where the chart has
    no entry."""
    if not attack.params.get("called_shot"):
        return ()
    resist = called_shot_resist(weapon.scale, target.scale)  # type: ignore[arg-type]
    return (
        Event.of(
            "called-shot",
            "R003.59",
            attacker_scale=weapon.scale,
            target_scale=target.scale,
            resist_difficulty=resist,
            effect_possible=resist is not None,
        ),
    )


def _modifier_events(modifiers: tuple[StepModifier, ...], roll: str) -> tuple[Event, ...]:
    return tuple(
        Event.of("modifier", m.spec_id, roll=roll, source=m.source, steps=m.steps)
        for m in modifiers
    )


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack roll's result before it reaches the target: miss, or the hit's Stun and
    Wound in the weapon's scale (R003.7), with its events."""

    pending: tuple
    events: tuple[Event, ...] = ()


def _strike_key(strike: Strike) -> tuple:
    return strike.pending


def strike(plan: GunPlan, number: int, dice: Dice) -> Strike:
    """R003.7 (and R003.32 / R003.36 damage steps): attack roll, defense, damage die."""
    who, against = plan.attacker.id, plan.target.id

    def attack_step(current: Strike, source: Dice) -> Strike:
        roll = roll_pool(plan.roll.pool, source, who=who, what=f"attack {number}")
        return Strike(("attack", roll.total, roll.botch), roll.events(who, f"attack {number}"))

    def defense_step(current: Strike, source: Dice) -> Strike:
        _, total, botch = current.pending
        defense = roll_defense(plan.defense, source, against)
        events = () if plan.defense.fixed is not None else defense.events(against, "defense")
        hit = attack_hits(total, botch, defense.total)
        extraordinary = hit and is_extraordinary_hit(total, defense.total)
        margin = total - defense.total if hit else 0
        verdict = Event.of(
            "attack",
            "R003.7",
            number=number,
            attack=total,
            botch=botch,
            defense=defense.total,
            hit=hit,
            extraordinary=extraordinary,
            basic=margin,
        )
        pending = ("hit", margin, extraordinary) if hit else ("miss",)
        return Strike(pending, current.events + events + (verdict,))

    def damage_step(current: Strike, source: Dice) -> Strike:
        if current.pending[0] != "hit":
            return current
        _, margin, extraordinary = current.pending
        bonus = group_damage_steps(True, extraordinary) if plan.group else 0
        die = plan.damage.up(bonus)
        rolled = roll_damage(die, source, who=who, what=f"damage {number}")
        basic = basic_damage(margin)
        events = (
            Event.of(
                "damage-die", "R003.36" if plan.group else "R003.7", die=die.name, steps=bonus
            ),
            *rolled.events(who, f"damage {number}"),
            Event.of(
                "basic-damage",
                "R003.7",
                basic=margin,
                stun=basic.stun,
                wound=basic.wound,
                die=rolled.total,
            ),
        )
        pending = ("damage", basic.stun, basic.wound + rolled.total, extraordinary)
        return Strike(pending, current.events + events)

    return dice.fold(Strike(()), (attack_step, defense_step, damage_step), key=_strike_key)


def gun_volley(plan: GunPlan, dice: Dice) -> Volley:
    """The strike, then the hit delivered to the target (R003.7, R003.25, R003.34)."""

    def strike_step(volley: Volley, source: Dice) -> Volley:
        rolled = strike(plan, 1, source)
        return replace(volley, pending=rolled.pending, events=volley.events + rolled.events)

    def deliver_step(volley: Volley, source: Dice) -> Volley:
        if volley.pending[:1] != ("damage",):
            return replace(volley, pending=())
        _, stun, wound, extraordinary = volley.pending
        target = deliver(
            volley.target,
            plan.receiver,
            stun,
            wound,
            plan.weapon.scale,
            source,
            who=plan.attacker.id,
        )
        return Volley(
            replace(target, events=()),
            volley.hits + 1,
            volley.extraordinary + int(extraordinary),
            (),
            volley.events + target.events,
        )

    return dice.fold(Volley(plan.start), (strike_step, deliver_step), key=_volley_key)


def summarise(start: Target, end: Target, hits: int, extraordinary: int) -> AttackSummary:
    return AttackSummary(
        hits,
        extraordinary,
        end.stun - start.stun,
        end.wound - start.wound,
        end.destroyed and not start.destroyed,
        end.effects,
    )


def after_damage(state: GameState, before: GameState, target_id: str, by: str) -> GameState:
    """Remember a vessel put out of action during its initiative group: it still acts with
    the vessels that act at the same time (R003.11)."""
    if not state.has_unit(target_id):
        return state
    was, now = vessel(before.unit(target_id)), vessel(state.unit(target_id))
    out_before = was.destroyed or was.disabled
    if out_before or not (now.destroyed or now.disabled):
        return state
    initiative = tracker.table(state, tracker.INITIATIVE)
    if by in initiative:
        return tracker.put(state, tracker.WRECKED, target_id, initiative[by])
    return state


def resolve(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    """Resolve a declared attack (re-checked first); pure: events and a new state."""
    attack = declare(state, attack.attacker, attack.weapon, attack.target, attack.params)
    return resolve_declared(state, attack, dice)


def resolve_declared(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    kind = vessel(state.unit(attack.attacker)).weapon(attack.weapon).kind  # type: ignore[union-attr]
    if kind == MISSILE:
        return _resolve_lock(state, attack, dice)
    if kind == POINT_DEFENSE:
        return _resolve_pd(state, attack, dice)
    return _resolve_gun(state, attack, dice)


def _resolve_gun(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    plan = plan_gun(state, attack)
    volley = gun_volley(plan, dice)
    summary = summarise(plan.start, volley.target, volley.hits, volley.extraordinary)
    new_state = write_back(state, plan.target.id, volley.target)
    new_state = tracker.record_attack(
        new_state,
        plan.attacker.id,
        plan.weapon.name,
        int(attack.params.get("battery", 1)),
        plan.roll.firer.character,
        plan.roll.entries,
    )
    new_state = after_damage(new_state, state, plan.target.id, plan.attacker.id)
    events = (
        *plan.events,
        *volley.events,
        Event.of(
            "outcome",
            "R003.7",
            target=plan.target.id,
            hits=summary.hits,
            extraordinary=summary.extraordinary,
            stun=summary.stun,
            wound=summary.wound,
            destroyed=summary.destroyed,
            battle_damage=summary.effects,
        ),
    )
    return Resolution(new_state, events, summary)


# --------------------------------------------------------------------------- point defense


@dataclass(frozen=True, slots=True)
class DefenseSummary:
    """R003.43 / R003.44: whether the vessel failed its HEROIC roll, botched, and the damage."""

    failed: bool
    botch: bool
    stun: int
    wound: int
    destroyed: bool
    effects: tuple[str, ...]


def pd_volley(
    start: Target,
    pools: tuple[Pool, ...],
    die: DamageDice,
    receiver: Receiver,
    scale: str,
    dice: Dice,
    *,
    who: str,
    pd: str,
) -> Volley:
    """R003.43 / R003.44: the vessel's roll against 19; on failure Basic (19 - roll) and the
    PD die +1 step (+2 on a botch, A003.28)."""
    defense = Defense(None, "point defense", "R003.43", pools, ())

    def evade(volley: Volley, source: Dice) -> Volley:
        roll = roll_defense(defense, source, who)
        failed = roll.botch or roll.total < PD_DIFFICULTY
        events = (
            *roll.events(who, "evade point defense", "R003.43"),
            Event.of(
                "point-defense",
                "R003.43",
                roll=roll.total,
                difficulty=PD_DIFFICULTY,
                failed=failed,
                botch=roll.botch,
            ),
        )
        pending = ("hit", PD_DIFFICULTY - roll.total, roll.botch) if failed else ("miss",)
        return replace(volley, pending=pending, events=volley.events + events)

    def damage(volley: Volley, source: Dice) -> Volley:
        if volley.pending[0] != "hit":
            return volley
        _, margin, botch = volley.pending
        stepped = die.up(2 if botch else 1)
        rolled = roll_damage(stepped, source, who=pd, what="point-defense damage")
        basic = basic_damage(margin)
        events = (
            Event.of(
                "damage-die",
                "A003.28" if botch else "R003.44",
                die=stepped.name,
                steps=2 if botch else 1,
            ),
            *rolled.events(pd, "point-defense damage"),
            Event.of(
                "basic-damage",
                "R003.44",
                basic=margin,
                stun=basic.stun,
                wound=basic.wound,
                die=rolled.total,
            ),
        )
        return replace(
            volley,
            pending=("damage", basic.stun, basic.wound + rolled.total, botch),
            events=volley.events + events,
        )

    def land(volley: Volley, source: Dice) -> Volley:
        if volley.pending[:1] != ("damage",):
            return replace(volley, pending=())
        _, stun, wound, botch = volley.pending
        target = deliver(volley.target, receiver, stun, wound, scale, source, who=pd)
        return Volley(replace(target, events=()), 1, int(botch), (), volley.events + target.events)

    return dice.fold(Volley(start), (evade, damage, land), key=_volley_key)


def _resolve_pd(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    options = settings(state)
    pd_unit, target = state.unit(attack.attacker), state.unit(attack.target)
    weapon = weapon_of(pd_unit, vessel(pd_unit), attack.weapon)
    pools, modifiers = defense_pools(state, target, options)
    start = target_of(vessel(target))
    volley = pd_volley(
        start,
        pools,
        weapon.damage,
        receiver_of(target, options),
        weapon.scale,
        dice,
        who=target.id,
        pd=pd_unit.id,
    )
    end = volley.target
    failed = volley.hits > 0
    summary = DefenseSummary(
        failed,
        bool(volley.extraordinary),
        end.stun - start.stun,
        end.wound - start.wound,
        end.destroyed and not start.destroyed,
        end.effects,
    )
    new_state = write_back(state, target.id, end)
    engaged = (*tracker.get(state, tracker.PD_ENGAGED, ()), (pd_unit.id, weapon.name, target.id))
    new_state = new_state.with_rule_state(**{tracker.PD_ENGAGED: engaged})
    new_state = after_damage(new_state, state, target.id, pd_unit.id)
    events = (
        Event.of("declare", "R003.43", attacker=pd_unit.id, weapon=weapon.name, target=target.id),
        *_modifier_events(modifiers, "defense"),
        *volley.events,
        Event.of(
            "outcome",
            "R003.44",
            target=target.id,
            failed=failed,
            botch=summary.botch,
            stun=summary.stun,
            wound=summary.wound,
            destroyed=summary.destroyed,
            battle_damage=summary.effects,
        ),
    )
    return Resolution(new_state, events, summary)


# --------------------------------------------------------------------------- missile lock


def lock_roll(pool: Pool, difficulty: int, dice: Dice, *, who: str) -> tuple[str, PoolRoll]:
    """R003.38: the lock's attack roll against the fixed Difficulty (A003.24)."""
    roll = dice.chance(
        lambda source: roll_pool(pool, source, who=who, what="missile lock"),
        key=lambda r: outcome(r.total, r.botch, difficulty),
    )
    return outcome(roll.total, roll.botch, difficulty), roll


def _resolve_lock(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    options = settings(state)
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    card = vessel(attacker)
    weapon = weapon_of(attacker, card, attack.weapon)
    distance = centre_distance(attacker, target)
    band = band_of(distance, options)
    row = MISSILE_BY_RANGE[band]  # type: ignore[index]
    difficulty = int(row.lock)  # type: ignore[arg-type]
    roll = attack_roll(
        state, attacker, weapon, target, options, gunner=attack.params.get("gunner") or None
    )
    result, rolled = lock_roll(roll.pool, difficulty, dice, who=attacker.id)
    locked = succeeded(result)
    new_state = tracker.count_action(state, roll.firer.character)
    new_state = tracker.consume(new_state, attacker.id, roll.entries)
    if locked:
        lock = (attacker.id, weapon.name, target.id)
        locks = tuple(lk for lk in tracker.get(state, tracker.LOCKS, ()) if lk != lock)
        new_state = new_state.with_rule_state(**{tracker.LOCKS: (*locks, lock)})
    events = (
        Event.of("declare", "R003.38", attacker=attacker.id, weapon=weapon.name, target=target.id),
        Event.of(
            "range",
            "T003.8",
            distance=round(distance, 6),
            band=band,
            difficulty=difficulty,
            flight_turns=row.turns,
        ),
        *_modifier_events(roll.modifiers, "attack"),
        Event.of("attack-pool", "R003.2", pool=roll.pool.text, steps=roll.pool.steps),
        *rolled.events(attacker.id, "missile lock"),
        Event.of("outcome", "R003.38", target=target.id, result=result, locked=locked),
    )
    return Resolution(new_state, events, result)


# --------------------------------------------------------------------------- odds


def attack_odds(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """Exact odds of a declared attack, by enumerating `resolve_declared` over every roll."""
    attack = declare(state, attack.attacker, attack.weapon, attack.target, attack.params)
    options = settings(state)
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    weapon = weapon_of(attacker, vessel(attacker), attack.weapon)
    outcomes = enumerate_outcomes(lambda dice: resolve_declared(state, attack, dice).summary)
    distance = centre_distance(attacker, target)
    facts: dict[str, Any] = {
        "distance": round(distance, 6),
        "band": band_of(distance, options),
        "weapon_kind": weapon.kind,
        "weapon_range": weapon.range,
    }
    if weapon.kind == MISSILE:
        band = band_of(distance, options)
        row = MISSILE_BY_RANGE[band]  # type: ignore[index]
        roll = attack_roll(
            state, attacker, weapon, target, options, gunner=attack.params.get("gunner") or None
        )
        locked = outcomes.where(lambda r: r in ("success", "extraordinary"))
        facts |= {
            "attack_pool": roll.pool.text,
            "steps": roll.pool.steps,
            "modifiers": [m.as_data() for m in roll.modifiers],
            "difficulty": row.lock,
            "flight_turns": row.turns,
            "lock_probability": fraction_text(locked),
            "lock_percent": percent(locked),
        }
        order = {"botch": 0, "failure": 1, "success": 2, "extraordinary": 3}
        sections = (
            OddsSection("lock", "R003.38", "result", outcomes.sorted(key=lambda r: order[r])),
        )
        return OddsReport(rules_id, attack, FrozenMap(facts), sections)
    if weapon.kind == POINT_DEFENSE:
        pools, _ = defense_pools(state, target, options)
        failed = outcomes.where(lambda s: s.failed)
        facts |= {
            "defense_pool": " / ".join(p.text for p in pools),
            "difficulty": PD_DIFFICULTY,
            "damage_die": weapon.damage.name,
            "failure_probability": fraction_text(failed),
            "failure_percent": percent(failed),
        }
        sections = (
            OddsSection("failed", "R003.43", "failed", outcomes.map(lambda s: s.failed).sorted()),
            *_damage_sections(outcomes),
        )
        return OddsReport(rules_id, attack, FrozenMap(facts), sections)
    plan = plan_gun(state, attack)
    hit = outcomes.where(lambda s: s.hits > 0)
    facts |= {
        "attack_pool": plan.roll.pool.text,
        "steps": plan.roll.pool.steps,
        "modifiers": [m.as_data() for m in plan.roll.modifiers],
        "defense": plan.defense.text,
        "damage_die": plan.damage.name,
        "battery": int(attack.params.get("battery", 1)),
        "any_hit_probability": fraction_text(hit),
        "any_hit_percent": percent(hit),
    }
    sections = (
        OddsSection("hits", "R003.7", "hits", outcomes.map(lambda s: s.hits).sorted()),
        OddsSection(
            "extraordinary",
            "R003.5",
            "extraordinary",
            outcomes.map(lambda s: s.extraordinary).sorted(),
        ),
        *_damage_sections(outcomes),
    )
    return OddsReport(rules_id, attack, FrozenMap(facts), sections)


def _damage_sections(outcomes) -> tuple[OddsSection, ...]:
    sections = [
        OddsSection("wound", "R003.7", "wound", outcomes.map(lambda s: s.wound).sorted()),
        OddsSection("stun", "R003.7", "stun", outcomes.map(lambda s: s.stun).sorted()),
        OddsSection(
            "destroyed", "R003.7", "destroyed", outcomes.map(lambda s: s.destroyed).sorted()
        ),
    ]
    effects = outcomes.map(lambda s: s.effects)
    if any(e for e in effects.outcomes):
        sections.append(
            OddsSection(
                "battle_damage", "R003.26", "effects", effects.sorted(key=lambda e: (len(e), e))
            )
        )
    return tuple(sections)
