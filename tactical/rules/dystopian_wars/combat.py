"""Declaring an attack in Dystopian Wars (seed 002): who may fire which weapon at whom from
where (R002.29, R002.36-R002.43, R002.51, R002.55, T002.6).

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
hold the pool (who adds how many AD).

The rest of an attack lives beside it, one step each: `resolving` rolls a declared attack
on the state and applies the outcome, `chance` is that roll on plain numbers (pool,
saves, thresholds, Critical Hit), `odds_report` enumerates it into exact odds, and
`close_quarters` holds the rams and Boarding Assaults.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from operator import is_
from typing import Any

from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import memo_of
from tactical.rules.base import Attack, options_check, unit_name
from tactical.rules.dystopian_wars import declaration, tracking
from tactical.rules.dystopian_wars.cards import Weapon, card, squadron_units
from tactical.rules.dystopian_wars.command import check_firing_option
from tactical.rules.dystopian_wars.dicework import linked_share
from tactical.rules.dystopian_wars.measures import (
    in_weapon_arc,
    line_of_sight,
    range_band,
    surely_farther,
    weapon_distance,
    within_from_centre,
)
from tactical.rules.dystopian_wars.tables import (
    DIVING,
    FLYING,
    INDIRECT_FIRE_BANDS,
    OBSCURED,
    SPOTTER_RANGE,
    SURFACE_LAND,
    SURFACE_NAVAL,
    permission,
)

PARAMS = ("linked", "combined", "indirect", "counter")

LAUNCH_BARRED = ("gunnery", "rocket", "ack-ack")  # R002.51


def settings(state: GameState) -> Mapping[str, Any]:
    """The options in force (the map's, with the adopted defaults filled in), validated
    (UserError naming the key otherwise)."""
    return _options(state.options)


_options = options_check(declaration.OPTION_FIELDS)


def weapons_of(unit: Unit, options: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The weapons on the unit's card (the same under any options: `RuleSystem.weapons`)."""
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
    cell, refused = _permission_of(weapon, target, column, band)
    if refused == "naval only":
        raise UserError(
            f"torpedoes can target only Naval models, not {target.id!r}", spec_id="R002.38"
        )
    if cell == "yes":
        return "T002.6"
    if cell in ("rb1", "rb1-naval"):
        if refused == "band 1 only":
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


def permitted(weapon: Weapon, target: Unit, band: str) -> bool:
    """Whether `check_permission` allows the weapon at the model in this band (T002.6,
    R002.37, R002.38), without the words of a refusal: the choices ask it of every
    weapon at every enemy in range."""
    return _permission_of(weapon, target, target_column(target), band)[1] is None


def _permission_of(weapon: Weapon, target: Unit, column: str, band: str) -> tuple[str, str | None]:
    """The T002.6 cell and why it refuses ("naval only", "band 1 only", "never"), None when
    it allows the weapon at the target in this band."""
    cell = permission(weapon.permission_row, column)
    naval = card(target).force == "naval" and not card(target).is_tiny_flyer
    if weapon.kind == "torpedo" and not naval:
        return cell, "naval only"
    if cell == "yes":
        return cell, None
    if cell in ("rb1", "rb1-naval"):
        return cell, None if band == "RB1" else "band 1 only"
    return cell, "never"


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
    blocking_models: tuple[str, ...] = ()  # names of the models in the way (R002.41)
    # False: out of the weapon's range or arc, where the line of sight is never read (los
    # False, no blockers: not measured)
    sighted: bool = True


def reach(
    state: GameState, unit: Unit, weapon: Weapon, target: Unit, *, lazy: bool = False
) -> Reach:
    """R002.41: an Auxiliary weapon's line of sight ignores models; any other's is blocked
    by a Surface model between two Surface models. Remembered by the very objects it
    reads (the units, terrain, options and roster, the two models and the weapon): the
    choices, each declaration and the exact enumerator's replays ask it of the same
    table many times, and a roll changes the rule state, not the table. `lazy`: the line
    of sight only where the weapon reaches the target in range and arc (`Reach.sighted`),
    as `_check_reach` reads it (the line is the costly part, and the choices try every
    weapon at every enemy)."""
    read = (state.units, state.terrain, state.options, state.roster, unit, weapon, target)
    key = tuple(map(id, read))
    found = _REACHES.get(key)
    if found is not None and (lazy or found[1].sighted) and all(map(is_, found[0], read)):
        return found[1]
    measured = _measured_reach(state, unit, weapon, target, lazy=lazy)
    if len(_REACHES) >= MAX_REACHES:
        _REACHES.clear()
    _REACHES[key] = (read, measured)  # the objects kept beside their ids: no id reused
    return measured


_REACHES: dict[tuple[int, ...], tuple[tuple[object, ...], Reach]] = {}
MAX_REACHES = 4096


def _measured_reach(
    state: GameState, unit: Unit, weapon: Weapon, target: Unit, *, lazy: bool
) -> Reach:
    """The reach measured; when `lazy`, its line of sight only where the weapon has Attack
    Dice at the target's band and the target is in its arc: elsewhere `_check_reach`
    refuses the declaration before it reads the line (GEO002.7)."""
    options = settings(state)
    distance = weapon_distance(unit, weapon, target)
    band = range_band(unit, distance, options)
    dice = weapon.dice_at(band)
    if lazy and (band is None or dice <= 0 or not in_weapon_arc(unit, weapon.arc, target)):
        return Reach(unit.id, weapon.name, distance, band, dice, False, (), (), sighted=False)
    sight = line_of_sight(state, unit, target, models=not weapon.auxiliary)
    names = state.shown_names
    return Reach(
        unit.id,
        weapon.name,
        distance,
        band,
        dice,
        sight.clear,
        sight.terrain,
        tuple(names.get(m, m) for m in sight.models),
    )


def out_of_reach(
    state: GameState, attacker_id: str, weapon_name: str, target_id: str, indirect: bool
) -> bool:
    """Whether `declare` refuses the weapon at the target for its reach (`_check_reach`:
    GEO002.7 range and arc, R002.40-41 line of sight unless `indirect`), read from the same
    remembered reach; False where `declare` refuses it for something else (it says why)."""
    attacker, target = state.unit_or_none(attacker_id), state.unit_or_none(target_id)
    if attacker is None or target is None:
        return False
    weapon = card(attacker).weapon(weapon_name)
    if weapon is None:
        return False
    settings(state)  # `declare` validates the options before it measures (UserError)
    found = reach(state, attacker, weapon, target, lazy=True)
    if found.band is None or found.dice <= 0:
        return True
    if not in_weapon_arc(attacker, weapon.arc, target):
        return True
    return not indirect and not found.los


def beyond_reach(state: GameState, unit: Unit, weapon: Weapon, target: Unit) -> bool:
    """Whether `out_of_reach` surely refuses `weapon` at `target` for its range alone
    (GEO002.7: no Attack Dice beyond the last Range Band with some), read from the centres
    (`surely_farther`) without measuring; False says nothing (`out_of_reach` measures).
    Most pairs the choices try are across the table: their reach is never measured."""
    table = declaration.range_table(unit, state.options)
    if len(table.bands) != len(weapon.attack_dice):
        return False
    last = None
    for band, dice in zip(table.bands, weapon.attack_dice, strict=True):
        if dice > 0:
            last = band
    if last is None:
        return False
    # `range_band` reads the first band within its limit (+1e-9): beyond the last band with
    # Attack Dice, a later one with none or no band at all
    return surely_farther(unit, weapon, target, last.max_inches + 1e-9)


def refused_unsighted(state: GameState, unit: Unit, weapon: Weapon, target: Unit) -> bool:
    """Whether `declare` surely refuses `weapon` at `target` in range for what it checks
    after the arc and the line of sight (T002.6, R002.37, R002.38: the weapon may not
    target the model in its band), asked before either is worked out: the choices try
    every weapon at every enemy, and the arc and the line are the costly part of a reach.
    False says nothing (out of range, `out_of_reach` refuses it without the line)."""
    band = range_band(unit, weapon_distance(unit, weapon, target), settings(state))
    if band is None or weapon.dice_at(band) <= 0:
        return False
    return not permitted(weapon, target, band)


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
        if weapon.auxiliary or found.blocking_models:
            rule = "R002.41"
        blockers = ", ".join(repr(piece) for piece in found.blocked_by)  # named by the session
        if found.blocking_models:  # by the names a player reads
            models = found.blocking_models
            named = ("the model " if len(models) == 1 else "the models ") + ", ".join(models)
            blockers = f"{blockers} and {named}" if blockers else named
        raise UserError(
            f"no line of sight from {unit.id!r} to {target.id!r}: blocked by {blockers}",
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
    if tracking.is_derelict(state, attacker.id):
        # R002.19: a Derelict drifts with no crew at its guns; it can still be fired on
        raise UserError(
            f"{unit_name(state, attacker.id)} is Derelict: it drifts and does not attack",
            spec_id="R002.19",
        )
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
    found = reach(state, attacker, weapon, target, lazy=True)
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


_DECLARED: dict[int, tuple[weakref.ref[GameState], dict[tuple[Any, ...], Attack]]] = {}

# what of the rule state `declare` reads: Prizes and Derelicts (G.5, R002.19), a Wing's
# Ordnance spent (R002.55), and for the Firing Options the command of R002.26/R002.27
DECLARE_READS = ("prizes", "derelicts", "wings", "broken", "commanders")
# what a ship's declaration without Firing Options reads of it (no Wing, no command)
PLAIN_READS = ("prizes", "derelicts")
FIRING_OPTIONS = ("linked", "combined", "indirect")


def declared_on(
    state: GameState,
    attacker: str,
    weapon: str,
    target: str,
    params: Mapping[str, Any],
    *,
    launched: bool = False,
) -> Attack:
    """`declare`, memoised while the state lives: the targets offered, the computer's try of
    each declaration, the one it makes and each replay of a recorded declaration resolved
    (R002.28: checked again then) declare the same attack on the same state; and by what
    it reads (`_on_table`), its parameters left unset ("", None, False, as the declare action
    drops them: `attacks._declare_attack`) left out of the key: a completed action's
    defaults declare the same attack as none (R002.36). A refusal raises each time
    (UserError), like `declare`."""
    try:
        given = tuple(sorted((k, v) for k, v in params.items() if not _unset(v)))
        key = (attacker, weapon, target, given, launched)
        memo = memo_of(_DECLARED, state)
        found = memo.get(key)
    except TypeError:  # a parameter that is not a value: declared afresh
        return declare(state, attacker, weapon, target, dict(params), launched=launched)
    if found is None:
        found = memo[key] = _on_table(state, key, params)
    return found


def _unset(value: Any) -> bool:
    """A declaration's parameter left at its default: no Firing Option taken (R002.42,
    R002.43, A002.17)."""
    return value is None or value is False or (isinstance(value, str) and value == "")


def table_read(state: GameState) -> tuple[object, ...]:
    """What of a state `declare` reads besides its rule state: the units, the terrain, the
    options and the roster, the very objects (the identity memos of declarations and of
    the targets offered key by them)."""
    return (state.units, state.terrain, state.options, state.roster)


def _on_table(state: GameState, key: tuple[Any, ...], params: Mapping[str, Any]) -> Attack:
    """`declare` remembered by the very objects it reads (kept beside their ids, so that no
    id is reused): the table (units, terrain, options, roster) and the rule-state entries it
    may read (`_reads_of`). Each state the computer players try (an action taken, a roll resolved)
    is a new state on the same table, where the same declaration is made again."""
    read = (*table_read(state), *map(state.rule_state.get, _reads_of(state, key[0], params)))
    slot = (*map(id, read), key)
    kept = _ON_TABLE.get(slot)
    if kept is not None and all(map(is_, kept[0], read)):
        return kept[1]
    attacker, weapon, target, _, launched = key
    found = declare(state, attacker, weapon, target, dict(params), launched=launched)
    if len(_ON_TABLE) >= MAX_ON_TABLE:
        _ON_TABLE.clear()
    _ON_TABLE[slot] = (read, found)
    return found


def _reads_of(state: GameState, attacker: str, params: Mapping[str, Any]) -> tuple[str, ...]:
    """The rule-state entries `declare` may read for this declaration: a ship (no Tiny
    Flyer: no Wing's Ordnance, no Combined Fire of its Wing) using no Firing Option reads
    only the Prizes and Derelicts; any other, all of `DECLARE_READS`. (The command entries
    change at each activation's start, the table staying as it was.)"""
    unit = state.unit_or_none(attacker)
    if unit is None or card(unit).is_tiny_flyer or any(map(params.get, FIRING_OPTIONS)):
        return DECLARE_READS
    return PLAIN_READS


_ON_TABLE: dict[tuple[Any, ...], tuple[tuple[object, ...], Attack]] = {}
MAX_ON_TABLE = 2048


def declared_params(attack: Attack) -> dict[str, Any]:
    return {k: v for k, v in attack.params.items() if k in PARAMS}


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
            and line_of_sight(state, unit, target).clear
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
        _check_reach(unit, mine, target, reach(state, unit, mine, target, lazy=True), indirect)
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
        found = reach(state, unit, mine, target, lazy=True)
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
        found = reach(state, unit, theirs, target, lazy=True)
        _check_reach(unit, theirs, target, found, indirect)
        pool.append((unit.id, theirs.name, found.dice, "combined"))
    return pool
