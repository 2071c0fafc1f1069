"""Combat of seed 002: declarations, the attack resolver and its exact odds
(R002.26, R002.29, R002.36-R002.43, R002.49, R002.50, R002.51, R002.55, R002.56, T002.6, T002.9).

A declaration names the attacking model, a weapon of its card and a target, with
optional parameters:

- `linked`: ids of other models of the squadron firing the same weapon with it
  (Linked Fire: they add half their AD, A002.17);
- `combined`: ids pooling without halving (Combined Fire, R002.42: Escorts with their
  Parent Model with Auxiliary weapons, or Tiny Flyers of one Wing — a Wing's Tiny
  Flyers combine automatically);
- `indirect`: Indirect Fire (R002.43); `counter`: a Counterattack (R002.29).

`declare` checks everything on the table (range band, arc, line of sight, T002.6
permissions, Firing Option restrictions) and returns an `Attack` whose params also
hold the pool (who adds how many AD). `resolve` rolls it: the pool (`dicework.
attack_pool`), then Shield dice (one per Shield Generator, the Guardian Generator
counting as one, R002.49) and the Guardian aura die (R002.50), then the damage
thresholds, then the Critical Hit roll. The chance part is one function of plain
numbers (`attack_roll`) run through `dice.chance`, so `attack_odds` enumerates the
very same code with `tactical.dice.enumerate_outcomes`.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tactical.dice import D6, Dice, Distribution, enumerate_outcomes, fraction_text
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, SizeClass, Unit
from tactical.rules.base import Attack, Event, OddsReport, OddsSection, Resolution
from tactical.rules.dystopian_wars import RULE_SYSTEM, tracking
from tactical.rules.dystopian_wars.cards import Weapon, card, squadron_units
from tactical.rules.dystopian_wars.command import (
    check_firing_option,
    commodore_available,
    commodore_option,
)
from tactical.rules.dystopian_wars.dicework import (
    PoolRules,
    attack_pool,
    critical_roll,
    linked_share,
)
from tactical.rules.dystopian_wars.measures import (
    in_weapon_arc,
    line_of_sight,
    range_band,
    removable_for_formation,
    weapon_distance,
    weapon_measured_from,
    within_centres,
    within_from_centre,
)
from tactical.rules.dystopian_wars.tables import (
    DIVING,
    FLYING,
    GENERATOR_RANGE,
    INDIRECT_FIRE_BANDS,
    OBSCURED,
    SPOTTER_RANGE,
    SURFACE_LAND,
    SURFACE_NAVAL,
    guardian_save,
    permission,
)

PARAMS = ("linked", "combined", "indirect", "counter")
NO_EFFECT, DAMAGE, CRITICAL = "no effect", "damage", "critical"
RESULTS = (NO_EFFECT, DAMAGE, CRITICAL)  # a ship's results, least to worst (G.5)
OBSCURED_HIT_ON = 5  # R002.39
OBSCURED_SIZES = (SizeClass.MEDIUM, SizeClass.LARGE, SizeClass.MASSIVE)
LAUNCH_BARRED = ("gunnery", "rocket", "ack-ack")  # R002.51


def settings(state: GameState) -> Mapping[str, Any]:
    """The options in force (the map's, with the adopted defaults filled in)."""
    return _settings(state.options)


@lru_cache(maxsize=64)
def _settings(options: FrozenMap) -> Mapping[str, Any]:
    return FrozenMap(RULE_SYSTEM.options(options))


def weapons_of(unit: Unit) -> tuple[str, ...]:
    return tuple(w.name for w in card(unit).weapons)


def find_unit(state: GameState, unit_id: str, role: str) -> Unit:
    try:
        return state.unit(unit_id)
    except KeyError:
        known = ", ".join(u.id for u in state.units) or "none"
        raise UserError(
            f"unknown {role} {unit_id!r}: the units on this table are {known}"
        ) from None


# --------------------------------------------------------------------------- targets


def target_column(target: Unit) -> str:
    """The target's column of T002.6: surface naval / surface land, diving, flying, obscured."""
    profile = card(target)
    if profile.height == "surface":
        return SURFACE_LAND if profile.force == "armoured" else SURFACE_NAVAL
    return {"diving": DIVING, "flying": FLYING, "obscured": OBSCURED}[profile.height]


def check_permission(weapon: Weapon, target: Unit, band: str) -> str:
    """T002.6 / R002.37 / R002.38 (A002.8): UserError when the weapon cannot target the
    model in this band; returns the rule that allowed it."""
    column = target_column(target)
    cell = permission(weapon.permission_row, column)
    naval = card(target).force == "naval" and not card(target).is_tiny_flyer
    if weapon.kind == "torpedo" and not naval:
        raise UserError(
            f"torpedoes can target only Naval models, not {target.id!r}", spec_id="R002.38"
        )
    if cell == "yes":
        return "T002.6"
    if cell in ("rb1", "rb1-naval"):
        if band != "RB1":
            rule = "R002.38" if weapon.kind == "torpedo" else "R002.37"
            raise UserError(
                f"{weapon.name} can target the {column} model {target.id!r} only in Range "
                f"Band 1, and it is in {band}",
                spec_id=rule,
            )
        return "R002.38" if weapon.kind == "torpedo" else "R002.37"
    rule = "R002.38" if weapon.kind == "torpedo" else "T002.6"
    raise UserError(
        f"{weapon.name} ({weapon.kind}) cannot target the {column} model {target.id!r}",
        spec_id=rule,
    )


@dataclass(frozen=True, slots=True)
class Reach:
    """One model's weapon against the target: distance, band, AD, line of sight."""

    unit: str
    weapon: str
    distance: float
    band: str | None
    dice: int
    los: bool
    blocked_by: tuple[str, ...]


def reach(state: GameState, unit: Unit, weapon: Weapon, target: Unit) -> Reach:
    options = settings(state)
    distance = weapon_distance(unit, weapon, target)
    band = range_band(unit, distance, options)
    clear, blocked_by = line_of_sight(state, unit, target)
    return Reach(unit.id, weapon.name, distance, band, weapon.dice_at(band), clear, blocked_by)


def _check_reach(unit: Unit, weapon: Weapon, target: Unit, found: Reach, indirect: bool) -> None:
    if found.band is None or found.dice <= 0:
        raise UserError(
            f"{target.id!r} is out of range of {unit.id!r}'s {weapon.name}: "
            f'{found.distance:.2f}" is {found.band or "beyond Range Band 4"} and the weapon has '
            "no Attack Dice there",
            spec_id="GEO002.7",
        )
    if not in_weapon_arc(unit, weapon.arc, target):
        raise UserError(
            f"{target.id!r} is not in the {weapon.arc.name} arc of {unit.id!r}'s {weapon.name}",
            spec_id="GEO002.7",
        )
    if not indirect and not found.los:
        rule = "R002.40" if card(unit).airborne != card(target).airborne else "GEO002.10"
        if weapon.auxiliary:
            rule = "R002.41"
        raise UserError(
            f"no line of sight from {unit.id!r} to {target.id!r}: blocked by "
            + ", ".join(found.blocked_by),
            spec_id=rule,
        )


# --------------------------------------------------------------------------- declaring


def _ids(value: Any, name: str) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise UserError(f"{name} takes unit ids (a list or a comma-separated string), not {value!r}")


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise UserError(f"{name} must be true or false, not {value!r}")
    return value


def declare(
    state: GameState,
    attacker_id: str,
    weapon_name: str,
    target_id: str,
    params: Mapping[str, Any] | None = None,
    *,
    launched: bool = False,
) -> Attack:
    """Check a declaration on the table and the rules; UserError (with the SPEC id) when
    illegal. `launched`: the attacker Launched a Wing this activation (R002.51)."""
    given = dict(params or {})
    unknown = sorted(set(given) - set(PARAMS))
    if unknown:
        raise UserError(
            f"an attack takes no {', '.join(unknown)} (parameters: {', '.join(PARAMS)})"
        )
    options = settings(state)
    attacker = find_unit(state, attacker_id, "attacker")
    target = find_unit(state, target_id, "target")
    if attacker.side == target.side:
        raise UserError(f"{attacker.id!r} and {target.id!r} are on the same side")
    if tracking.is_prize(state, attacker.id) or tracking.is_prize(state, target.id):
        raise UserError("a captured model (a Prize) neither attacks nor is attacked", spec_id="G.5")
    profile = card(attacker)
    weapon = profile.weapon(weapon_name)
    if weapon is None:
        offer = ", ".join(weapons_of(attacker)) or "none"
        raise UserError(
            f"{attacker.id!r} has no weapon {weapon_name!r}: it has {offer}", spec_id="R002.36"
        )
    counter = _flag(given.get("counter", False), "counter")
    indirect = _flag(given.get("indirect", False), "indirect")
    linked = _ids(given.get("linked"), "linked")
    combined = _ids(given.get("combined"), "combined")
    if counter and not weapon.auxiliary:
        raise UserError(
            f"a Counterattack can only be made with Auxiliary weapons, not {weapon.name} "
            f"({weapon.kind})",
            spec_id="R002.29",
        )
    if launched and weapon.kind in LAUNCH_BARRED:
        raise UserError(
            f"{attacker.id!r} Launched a Wing this activation: no {weapon.kind} weapons in its "
            "Combat Segment",
            spec_id="R002.51",
        )
    if profile.is_tiny_flyer and weapon.weapon_class == "ordnance":
        wing = tracking.mapping(state, "wings").get(profile.squadron)
        if wing is not None and not wing.get("armed", True):
            raise UserError(
                f"{attacker.id!r}'s Wing has made an Ordnance attack: it must Land on a Carrier "
                "to be armed again",
                spec_id="R002.55",
            )
    found = reach(state, attacker, weapon, target)
    if indirect:
        check_firing_option(state, attacker, "indirect", options)
        spotter = indirect_spotter(state, attacker, target, found.band)
    else:
        spotter = None
    _check_reach(attacker, weapon, target, found, indirect)
    allowed_by = check_permission(weapon, target, str(found.band))
    pool = [(attacker.id, weapon.name, found.dice, "full")]
    if linked:
        check_firing_option(state, attacker, "linked", options)
        pool += _linked_pool(state, attacker, weapon, target, linked, indirect, options)
    if profile.is_tiny_flyer and not combined:
        combined = tuple(
            u.id
            for u in squadron_units(state, profile.squadron)
            if u.id != attacker.id and _can_join(state, u, weapon, target, indirect)
        )
    if combined:
        check_firing_option(state, attacker, "combined", options)
        pool += _combined_pool(state, attacker, weapon, target, combined, indirect, options)
    return Attack(
        attacker.id,
        weapon.name,
        target.id,
        FrozenMap(
            linked=linked,
            combined=combined,
            indirect=indirect,
            counter=counter,
            pool=tuple(pool),
            band=found.band,
            allowed_by=allowed_by,
            spotter=spotter,
        ),
    )


def indirect_spotter(state: GameState, attacker: Unit, target: Unit, band: str | None) -> str:
    """R002.43: Indirect Fire needs the target in Range Band 3 or 4 and a Spotter model or a
    Reconnaissance Plane of the fleet within 32" of the target with line of sight to it."""
    if band not in INDIRECT_FIRE_BANDS:
        raise UserError(
            f"Indirect Fire needs the target in Range Band 3 or 4, and {target.id!r} is in "
            f"{band or 'no band'}",
            spec_id="R002.43",
        )
    for unit in state.units:
        profile = card(unit)
        if unit.side != attacker.side or unit.id == attacker.id:
            continue
        if "spotter" not in profile.mars and profile.wing_type != "recon":
            continue
        if (
            within_from_centre(unit, target, SPOTTER_RANGE)
            and line_of_sight(state, unit, target)[0]
        ):
            return unit.id
    raise UserError(
        f"Indirect Fire at {target.id!r} needs a Spotter or a Reconnaissance Plane of the fleet "
        'within 32" of it with line of sight',
        spec_id="R002.43",
    )


def _can_join(state: GameState, unit: Unit, weapon: Weapon, target: Unit, indirect: bool) -> bool:
    mine = card(unit).weapon(weapon.name)
    if mine is None:
        return False
    try:
        _check_reach(unit, mine, target, reach(state, unit, mine, target), indirect)
    except UserError:
        return False
    return True


def _linked_pool(
    state: GameState,
    attacker: Unit,
    weapon: Weapon,
    target: Unit,
    linked: tuple[str, ...],
    indirect: bool,
    options: Mapping[str, Any],
) -> list[tuple[str, str, int, str]]:
    pool = []
    squadron = card(attacker).squadron
    for unit_id in linked:
        unit = find_unit(state, unit_id, "linked model")
        if unit.id == attacker.id or card(unit).squadron != squadron:
            raise UserError(
                f"{unit.id!r} is not another model of {attacker.id!r}'s squadron: it cannot "
                "link fire with it",
                spec_id="A002.17",
            )
        check_firing_option(state, unit, "linked", options)
        mine = card(unit).weapon(weapon.name)
        if mine is None:
            raise UserError(f"{unit.id!r} has no {weapon.name} to link", spec_id="A002.17")
        found = reach(state, unit, mine, target)
        _check_reach(unit, mine, target, found, indirect)
        pool.append(
            (unit.id, mine.name, linked_share(found.dice, options["linked_fire_rounding"]), "half")
        )
    return pool


def _combined_pool(
    state: GameState,
    attacker: Unit,
    weapon: Weapon,
    target: Unit,
    combined: tuple[str, ...],
    indirect: bool,
    options: Mapping[str, Any],
) -> list[tuple[str, str, int, str]]:
    """R002.42: Combined Fire only by Escorts with their Parent Model using Auxiliary weapons,
    or by Tiny Flyers with other Tiny Flyers of their Wing; no halving."""
    mine_card = card(attacker)
    pool = []
    for unit_id in combined:
        unit = find_unit(state, unit_id, "combined model")
        other = card(unit)
        wing = (
            mine_card.is_tiny_flyer and other.is_tiny_flyer and other.squadron == mine_card.squadron
        )
        family = {attacker.id, mine_card.escort_of} - {""}
        escort = weapon.auxiliary and (
            other.escort_of in family or (unit.id == mine_card.escort_of and mine_card.escort_of)
        )
        if unit.id == attacker.id or not (wing or escort):
            raise UserError(
                f"{unit.id!r} cannot use Combined Fire with {attacker.id!r}: only Escorts with "
                "their Parent Model (Auxiliary weapons) or Tiny Flyers of one Wing",
                spec_id="R002.42",
            )
        check_firing_option(state, unit, "combined", options)
        if wing:
            theirs = other.weapon(weapon.name)
        else:
            theirs = next((w for w in other.weapons if w.kind == weapon.kind), None)
        if theirs is None:
            raise UserError(
                f"{unit.id!r} has no {weapon.kind} weapon to combine", spec_id="R002.42"
            )
        found = reach(state, unit, theirs, target)
        _check_reach(unit, theirs, target, found, indirect)
        pool.append((unit.id, theirs.name, found.dice, "combined"))
    return pool


# --------------------------------------------------------------------------- the chance part


@dataclass(frozen=True, slots=True)
class Defence:
    """Everything the roll depends on, as plain numbers (the key of the odds)."""

    dice: int
    pool: PoolRules
    shield_dice: int
    guardian_dice: int
    save_on: int | None
    damage_rating: int
    critical_rating: int
    critical_damage: int
    hull_left: int
    wing_size: int  # > 0: the target is a Tiny Flyer Wing of this many
    kill_hits: int

    @property
    def enough(self) -> int:
        """The most hits that can still change the outcome."""
        if self.wing_size:
            return self.kill_hits * self.wing_size
        saves = (self.shield_dice + self.guardian_dice) if self.save_on else 0
        return self.critical_rating + saves


@dataclass(frozen=True, slots=True)
class AttackSummary:
    """What an attack comes to (hits are capped at the most that can matter)."""

    hits: int
    saved: int
    result: str
    hull_lost: int
    critical: str | None
    destroyed: bool
    flyers_destroyed: int = 0
    aborted: bool = False


@dataclass(frozen=True, slots=True)
class AttackRoll:
    summary: AttackSummary
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Saves:
    cancelled: int
    events: tuple[Event, ...]


def shield_saves(defence: Defence, hits: int, dice: Dice, who: str, weapon_kind: str) -> Saves:
    """R002.49 / R002.50 / T002.9: Shield dice then the Guardian aura die; each success cancels
    one hit (never more than were scored)."""
    if hits <= 0 or defence.save_on is None:
        return Saves(0, ())
    events: list[Event] = []
    cancelled = 0
    for index in range(defence.shield_dice):
        roll = dice.roll(D6, who=who, what=f"Shield die {index + 1}")
        saved = roll >= defence.save_on
        cancelled += saved
        events.append(
            Event.of(
                "shield",
                "R002.49",
                who=who,
                roll=roll,
                needed=defence.save_on,
                saved=saved,
                weapon=weapon_kind,
            )
        )
    for _ in range(defence.guardian_dice):
        roll = dice.roll(D6, who=who, what="Guardian Generator Shield die")
        saved = roll >= defence.save_on
        cancelled += saved
        events.append(
            Event.of(
                "guardian-save",
                "R002.50",
                who=who,
                roll=roll,
                needed=defence.save_on,
                saved=saved,
                weapon=weapon_kind,
            )
        )
    return Saves(min(cancelled, hits), tuple(events))


def attack_roll(
    defence: Defence, dice: Dice, *, who: str = "", target: str = "", weapon_kind: str = "gunnery"
) -> AttackRoll:
    """Roll one declared attack: pool, saves, thresholds, Critical Hit (plain numbers only)."""
    pool = attack_pool(
        defence.dice, defence.pool, defence.enough, dice, who=who, what=f"AD vs {target}"
    )
    hits = min(pool.hits, defence.enough)
    events = list(pool.events)
    events.append(
        Event.of(
            "hits",
            "G.5",
            who=who,
            target=target,
            dice=defence.dice,
            hit_on=defence.pool.hit_on,
            hits=pool.hits,
            faces=pool.faces,
        )
    )
    if defence.wing_size:
        return _wing_result(defence, hits, events, target)
    saves = dice.chance(
        lambda source: shield_saves(defence, hits, source, target, weapon_kind),
        key=lambda s: s.cancelled,
    )
    events.extend(saves.events)
    net = hits - saves.cancelled
    hull = 0
    result = NO_EFFECT
    if net >= defence.damage_rating:
        hull, result = 1, DAMAGE
    critical = None
    if net >= defence.critical_rating:
        result = CRITICAL
        hull += defence.critical_damage
        crit = dice.chance(lambda source: critical_roll(source, target), key=lambda c: c.code)
        events.extend(crit.events)
        critical = crit.code
    events.append(
        Event.of(
            "damage",
            "G.5",
            target=target,
            hits=net,
            damage_rating=defence.damage_rating,
            critical_rating=defence.critical_rating,
            result=result,
            hull_lost=hull,
        )
    )
    destroyed = hull >= defence.hull_left > 0
    summary = AttackSummary(net, saves.cancelled, result, hull, critical, destroyed)
    return AttackRoll(summary, tuple(events))


def _wing_result(defence: Defence, hits: int, events: list[Event], target: str) -> AttackRoll:
    """Hits on a Tiny Flyer Wing: `kill_hits` destroy one TF (external); Abort when the hits
    that did not destroy a TF reach the TFs left (R002.56, A002.16)."""
    destroyed = min(defence.wing_size, hits // defence.kill_hits)
    remaining = defence.wing_size - destroyed
    spare = hits - destroyed * defence.kill_hits
    aborted = remaining > 0 and spare >= remaining
    events.append(
        Event.of(
            "wing-hits",
            "R002.56",
            target=target,
            hits=hits,
            kill_hits=defence.kill_hits,
            destroyed=destroyed,
            remaining=remaining,
            hits_not_destroying=spare,
            aborted=aborted,
        )
    )
    result = (
        "aborted"
        if aborted
        else ("destroyed" if remaining == 0 else (DAMAGE if destroyed else NO_EFFECT))
    )
    summary = AttackSummary(hits, 0, result, 0, None, remaining == 0, destroyed, aborted)
    return AttackRoll(summary, tuple(events))


# --------------------------------------------------------------------------- defence


def guardian_for(state: GameState, target: Unit, options: Mapping[str, Any]) -> str | None:
    """R002.50 / A002.11: the friendly Guardian Generator vessel covering the target (only a
    model without a Shield Generator of its own; at most one GG counts), or None."""
    if card(target).shield_generators or card(target).is_tiny_flyer:
        return None
    measure_to = str(options["guardian_measure"])
    for unit in state.units:
        if unit.side != target.side or unit.id == target.id:
            continue
        if "guardian" not in card(unit).generators or tracking.is_prize(state, unit.id):
            continue
        if measure_to == "centre":
            inside = within_centres(unit, target, GENERATOR_RANGE)
        else:
            inside = within_from_centre(unit, target, GENERATOR_RANGE)
        if inside:
            return unit.id
    return None


def defence_for(state: GameState, attack: Attack, weapon: Weapon) -> tuple[Defence, str | None]:
    """The numbers the roll depends on, and the covering Guardian vessel."""
    options = settings(state)
    target = state.unit(attack.target)
    profile = card(target)
    hit_on = int(options["ad_hit_on"])
    if profile.height == "obscured" and target.size in OBSCURED_SIZES:
        hit_on = max(hit_on, OBSCURED_HIT_ON)
    rules = PoolRules(hit_on, int(options["ad_six_hits"]), bool(options["ad_exploding"]))
    dice_count = sum(int(entry[2]) for entry in attack.params["pool"])
    guardian = guardian_for(state, target, options)
    wing_size = 0
    if profile.is_tiny_flyer:
        wing_size = len(squadron_units(state, profile.squadron))
    defence = Defence(
        dice=dice_count,
        pool=rules,
        shield_dice=profile.shield_generators,
        guardian_dice=1 if guardian else 0,
        save_on=guardian_save(weapon.kind),
        damage_rating=profile.damage_rating,
        critical_rating=profile.critical_rating,
        critical_damage=int(options["critical_damage"]),
        hull_left=tracking.hull_left(state, target),
        wing_size=wing_size,
        kill_hits=int(options["tiny_flyer_kill_hits"]),
    )
    return defence, guardian


# --------------------------------------------------------------------------- resolving


def resolve(state: GameState, attack: Attack, dice: Dice, *, defer: bool = False) -> Resolution:
    """Resolve a declared attack (re-declared first on this state); pure."""
    return resolve_declared(state, redeclared(state, attack), dice, defer=defer)


_REDECLARED: dict[int, tuple[weakref.ref[GameState], dict[Attack, Attack]]] = {}


def redeclared(state: GameState, attack: Attack) -> Attack:
    """`attack` declared again on `state` (reach, line of sight, arcs, pool: `declare`),
    memoised while the state lives: the exact enumerator and sampling resolve the same
    attack on the same state many times, and `declare` is a pure function of the two.
    A refused declaration raises each time (UserError), like `declare`."""
    memo = _state_memo(_REDECLARED, state)
    found = memo.get(attack)
    if found is None:
        found = declare(state, attack.attacker, attack.weapon, attack.target, _declared(attack))
        memo[attack] = found
    return found


def _state_memo(table: dict[int, tuple[weakref.ref[GameState], dict]], state: GameState) -> dict:
    """`table`'s memo for `state`, new when the state is new: keyed by id with a weak
    reference beside it (states are immutable but not cheap to hash); a few states kept."""
    cached = table.get(id(state))
    if cached is None or cached[0]() is not state:
        if len(table) > 32:
            table.clear()
        cached = (weakref.ref(state), {})
        table[id(state)] = cached
    return cached[1]


def _declared(attack: Attack) -> dict[str, Any]:
    return {k: v for k, v in attack.params.items() if k in PARAMS}


@dataclass(frozen=True, slots=True)
class Prepared:
    """What the table decides about a declared attack before any die is rolled."""

    weapon: Weapon
    defence: Defence
    guardian: str | None
    events: tuple[Event, ...]


_PREPARED: dict[int, tuple[weakref.ref[GameState], dict[Attack, Prepared]]] = {}


def prepared(state: GameState, attack: Attack) -> Prepared:
    """The deterministic part of resolving `attack` on `state` (memoised while the state lives:
    sampling and the exact enumerator resolve the same attack many times)."""
    memo = _state_memo(_PREPARED, state)
    found = memo.get(attack)
    if found is None:
        weapon = card(state.unit(attack.attacker)).weapon(attack.weapon)
        assert weapon is not None
        defence, guardian = defence_for(state, attack, weapon)
        events = (
            _declare_event(attack, weapon),
            *_facts_events(state, attack, weapon, defence, guardian),
        )
        found = memo[attack] = Prepared(weapon, defence, guardian, events)
    return found


def resolve_declared(
    state: GameState, attack: Attack, dice: Dice, *, defer: bool = False
) -> Resolution:
    """Roll an attack `declare` returned for this state and apply it. `defer`: a destroyed
    model stays until the end of a simultaneous step (R002.28)."""
    ready = prepared(state, attack)
    weapon, defence = ready.weapon, ready.defence
    roll = dice.chance(
        lambda source: attack_roll(
            defence, source, who=attack.attacker, target=attack.target, weapon_kind=weapon.kind
        ),
        key=lambda r: r.summary,
    )
    new_state, applied = apply_outcome(state, attack, weapon, roll.summary, defer=defer)
    return Resolution(new_state, (*ready.events, *roll.events, *applied), roll.summary)


def _declare_event(attack: Attack, weapon: Weapon) -> Event:
    params = attack.params
    return Event.of(
        "declare",
        "R002.29" if params["counter"] else "R002.36",
        attacker=attack.attacker,
        weapon=weapon.name,
        weapon_kind=weapon.kind,
        weapon_class=weapon.weapon_class,
        target=attack.target,
        counter=params["counter"],
        indirect=params["indirect"],
        linked=params["linked"],
        combined=params["combined"],
    )


def _facts_events(
    state: GameState, attack: Attack, weapon: Weapon, defence: Defence, guardian: str | None
) -> list[Event]:
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    found = reach(state, attacker, weapon, target)
    events = [
        Event.of(
            "range",
            "R002.14" if weapon_measured_from(attacker, weapon) == "centre" else "R002.12",
            distance=round(found.distance, 6),
            band=found.band,
            measured_from=weapon_measured_from(attacker, weapon),
            arc=weapon.arc.name,
        ),
        Event.of(
            "permission",
            attack.params["allowed_by"],
            weapon=weapon.kind,
            target_column=target_column(target),
            band=found.band,
        ),
        Event.of(
            "pool",
            "R002.42" if attack.params["combined"] else "A002.17",
            contributions=attack.params["pool"],
            dice=defence.dice,
        ),
    ]
    if weapon.auxiliary:
        events.append(Event.of("line-of-sight", "R002.41", ignores="models and tokens"))
    if attack.params["indirect"]:
        events.append(Event.of("spotter", "R002.43", spotter=attack.params["spotter"]))
    if defence.pool.hit_on >= OBSCURED_HIT_ON and card(target).height == "obscured":
        events.append(
            Event.of("threshold", "R002.39", target=target.id, hit_on=defence.pool.hit_on)
        )
    if guardian:
        events.append(
            Event.of(
                "guardian-aura",
                "R002.50",
                guardian=guardian,
                target=target.id,
                save_on=defence.save_on,
            )
        )
    return events


def apply_outcome(
    state: GameState, attack: Attack, weapon: Weapon, summary: AttackSummary, *, defer: bool
) -> tuple[GameState, list[Event]]:
    """Damage, criticals, destruction, Tiny Flyer removals / Abort, re-arming, FC offers."""
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    events: list[Event] = []
    profile = card(attacker)
    if profile.is_tiny_flyer and weapon.weapon_class == "ordnance":
        wings = tracking.plain(tracking.mapping(state, "wings"))
        wing = wings.get(profile.squadron, {"type": profile.wing_type, "fuel": 6})
        wing["armed"] = False
        state = tracking.put_in(state, "wings", profile.squadron, wing)
        events.append(Event.of("rearm-needed", "R002.55", wing=profile.squadron))
    if card(target).is_tiny_flyer:
        state, more = _apply_to_wing(state, target, summary, defer)
        return state, events + more
    if summary.hull_lost:
        lost = tracking.hull_lost(state, target.id) + summary.hull_lost
        state = tracking.put_in(state, "hull_lost", target.id, lost)
    if summary.critical:
        state = tracking.add_effect(state, target.id, summary.critical)
        state, offer_events = _critical_offers(state, attacker, target, summary.critical)
        events.extend(offer_events)
    if summary.destroyed:
        state = destroy(state, target, defer=defer)
        events.append(Event.of("destroyed", "G.5", unit=target.id, deferred=defer))
    return state, events


def destroy(
    state: GameState, unit: Unit, *, defer: bool = False, how: str = "destroyed"
) -> GameState:
    """Record the loss and take the model off the table (at the end of a simultaneous step)."""
    state = tracking.record_loss(state, unit, how)
    if defer:
        return tracking.add_to(state, "pending_removals", unit.id)
    return state.without_unit(unit.id)


def _apply_to_wing(
    state: GameState, target: Unit, summary: AttackSummary, defer: bool
) -> tuple[GameState, list[Event]]:
    """R002.52: destroyed Tiny Flyers are removed keeping a valid Wing formation; R002.56 Abort."""
    squadron = card(target).squadron
    events: list[Event] = []
    pending = set(tracking.get(state, "pending_removals", ()))
    for _ in range(summary.flyers_destroyed):
        wing = tuple(u for u in squadron_units(state, squadron) if u.id not in pending)
        if not wing:
            break
        choices = removable_for_formation(wing) or tuple(u.id for u in wing)
        victim_id = target.id if target.id in choices else choices[0]
        victim = state.unit(victim_id)
        state = destroy(state, victim, defer=defer)
        pending.add(victim_id)
        events.append(Event.of("flyer-destroyed", "R002.52", unit=victim_id, wing=squadron))
    if summary.aborted:
        for unit in squadron_units(state, squadron):
            if unit.id not in pending:
                state = destroy(state, unit, defer=defer, how="aborted")
        events.append(Event.of("abort", "R002.56", wing=squadron))
    return state, events


def _critical_offers(
    state: GameState, attacker: Unit, target: Unit, code: str
) -> tuple[GameState, list[Event]]:
    """R002.10 options b and c: a Critical Hit Table roll the Fleet Commodore may re-roll."""
    options = settings(state)
    events = []
    offers = [
        (attacker.side, "critical-vs-enemy", target, attacker),
        (target.side, "critical-vs-own-commodore", target, None),
    ]
    for side, reroll, subject, firer in offers:
        if not commodore_available(state, side):
            continue
        letter = commodore_option(state, side, reroll, subject, options, firer=firer)
        if letter is None:
            continue
        offer = FrozenMap(kind="critical", option=letter, unit=target.id, code=code)
        state = tracking.put_in(state, "offers", side, offer)
        events.append(
            Event.of("commodore-offer", "R002.10", side=side, option=letter, unit=target.id)
        )
    return state, events


# --------------------------------------------------------------------------- odds


def attack_odds(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """Exact odds of a declared attack, enumerating `resolve_declared` itself."""
    attack = declare(state, attack.attacker, attack.weapon, attack.target, _declared(attack))
    outcomes = enumerate_outcomes(lambda dice: resolve_declared(state, attack, dice).summary)
    attacker = state.unit(attack.attacker)
    weapon = card(attacker).weapon(attack.weapon)
    assert weapon is not None
    defence, guardian = defence_for(state, attack, weapon)
    return report(rules_id, state, attack, weapon, defence, guardian, outcomes)


def report(
    rules_id: str,
    state: GameState,
    attack: Attack,
    weapon: Weapon,
    defence: Defence,
    guardian: str | None,
    outcomes: Distribution[AttackSummary],
) -> OddsReport:
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    found = reach(state, attacker, weapon, target)
    hits = outcomes.map(lambda s: s.hits + s.saved).sorted()
    sections = [OddsSection("hits", "G.5", "hits", hits)]
    if defence.wing_size:
        sections += [
            OddsSection(
                "tiny_flyers_destroyed",
                "R002.52",
                "destroyed",
                outcomes.map(lambda s: s.flyers_destroyed).sorted(),
            ),
            OddsSection(
                "aborted", "R002.56", "aborted", outcomes.map(lambda s: s.aborted).sorted()
            ),
        ]
    else:
        sections += [
            OddsSection(
                "result",
                "G.5",
                "result",
                outcomes.map(lambda s: s.result).sorted(key=RESULTS.index),
            ),
            OddsSection(
                "hull_points_lost",
                "G.5",
                "hull_points",
                outcomes.map(lambda s: s.hull_lost).sorted(),
            ),
            OddsSection(
                "destroyed", "G.5", "destroyed", outcomes.map(lambda s: s.destroyed).sorted()
            ),
        ]
        if defence.save_on is not None and (defence.shield_dice or defence.guardian_dice):
            sections.append(
                OddsSection(
                    "hits_saved",
                    "R002.50" if guardian else "R002.49",
                    "saved",
                    outcomes.map(lambda s: s.saved).sorted(),
                )
            )
    expected_hits = hits.expected()
    facts = FrozenMap(
        distance=round(found.distance, 6),
        range_band=found.band,
        measured_from=weapon_measured_from(attacker, weapon),
        arc=weapon.arc.name,
        weapon_kind=weapon.kind,
        weapon_class=weapon.weapon_class,
        attack_dice=defence.dice,
        pool=[list(entry) for entry in attack.params["pool"]],
        hit_on=defence.pool.hit_on,
        six_hits=defence.pool.six_hits,
        exploding=defence.pool.exploding,
        hits_counted_up_to=defence.enough,
        expected_hits=fraction_text(expected_hits),
        damage_rating=defence.damage_rating,
        critical_rating=defence.critical_rating,
        hull_points_left=defence.hull_left,
        shield_dice=defence.shield_dice,
        guardian=guardian,
        save_on=defence.save_on,
        target_column=target_column(target),
        wing_size=defence.wing_size,
        allowed_by=attack.params["allowed_by"],
        indirect=attack.params["indirect"],
        spotter=attack.params["spotter"],
        counter=attack.params["counter"],
    )
    return OddsReport(rules_id, attack, facts, tuple(sections))


# --------------------------------------------------------------------------- rams, boarding


def ram(state: GameState, rammer: Unit, target: Unit, dice: Dice) -> Resolution:
    """R002.28 segment 2b (base game, external): a ram is `ram_dice` AD from the rammer
    against the rammed model, with no Shield or Guardian saves, then the usual thresholds."""
    options = settings(state)
    profile = card(target)
    count = card(rammer).ram_dice
    events = [Event.of("ram", "R002.28", rammer=rammer.id, target=target.id, attack_dice=count)]
    if count <= 0 or profile.is_tiny_flyer:
        return Resolution(state, tuple(events), None)
    defence = Defence(
        dice=count,
        pool=PoolRules(
            int(options["ad_hit_on"]), int(options["ad_six_hits"]), bool(options["ad_exploding"])
        ),
        shield_dice=0,
        guardian_dice=0,
        save_on=None,
        damage_rating=profile.damage_rating,
        critical_rating=profile.critical_rating,
        critical_damage=int(options["critical_damage"]),
        hull_left=tracking.hull_left(state, target),
        wing_size=0,
        kill_hits=int(options["tiny_flyer_kill_hits"]),
    )
    roll = dice.chance(
        lambda source: attack_roll(
            defence, source, who=rammer.id, target=target.id, weapon_kind="ram"
        ),
        key=lambda r: r.summary,
    )
    events.extend(roll.events)
    summary = roll.summary
    if summary.hull_lost:
        state = tracking.put_in(
            state, "hull_lost", target.id, tracking.hull_lost(state, target.id) + summary.hull_lost
        )
    if summary.critical:
        state = tracking.add_effect(state, target.id, summary.critical)
    if summary.destroyed:
        state = destroy(state, target)
        events.append(Event.of("destroyed", "G.5", unit=target.id))
    return Resolution(state, tuple(events), summary)


@dataclass(frozen=True, slots=True)
class Tally:
    successes: int
    events: tuple[Event, ...]


def assault_dice(count: int, hit_on: int, dice: Dice, who: str, what: str) -> Tally:
    """Boarding dice (base game, external): 1D6 per Assault Point, successes on `hit_on`+."""

    def step(tally: Tally, source: Dice) -> Tally:
        value = source.roll(D6, who=who, what=what)
        success = value >= hit_on
        event = Event.of(
            "roll", "G.5", who=who, what=what, die="1D6", result=value, success=success
        )
        return Tally(tally.successes + success, (*tally.events, event))

    return dice.fold(Tally(0, ()), [step] * count, key=lambda t: t.successes)


def boarding(state: GameState, attacker: Unit, target: Unit, dice: Dice) -> Resolution:
    """A Boarding Assault (R002.26 limits who may start one; the roll is the base game's,
    external): more attacker successes than defender successes capture the target."""
    options = settings(state)
    hit_on = int(options["boarding_hit_on"])
    ours = dice.chance(
        lambda source: assault_dice(
            card(attacker).assault_points, hit_on, source, attacker.id, "boarding"
        ),
        key=lambda t: t.successes,
    )
    theirs = dice.chance(
        lambda source: assault_dice(
            card(target).assault_points, hit_on, source, target.id, "repel boarders"
        ),
        key=lambda t: t.successes,
    )
    captured = ours.successes > theirs.successes
    events = [
        *ours.events,
        *theirs.events,
        Event.of(
            "boarding",
            "G.5",
            attacker=attacker.id,
            target=target.id,
            attacker_successes=ours.successes,
            defender_successes=theirs.successes,
            captured=captured,
        ),
    ]
    if captured:
        state = tracking.record_loss(state, target, "captured")
        state = tracking.put_in(state, "prizes", target.id, attacker.side)
        state = tracking.put_in(state, "offers", target.side, None)
    return Resolution(state, tuple(events), captured)
