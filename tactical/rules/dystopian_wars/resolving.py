"""Resolving a declared Dystopian Wars attack on the table (G.5, R002.10, R002.39, R002.49,
R002.50, R002.52, R002.55, R002.56).

`defence_for` reads the numbers the roll depends on from the state (Shield Generators,
the covering Guardian Generator, the Obscured threshold, a Wing's size); `resolve_declared`
rolls `chance.attack_roll` through `dice.chance` and `apply_outcome` applies the summary:
Hull Points, Critical Hits and the Fleet Commodore's offers, destruction (deferred to the
end of a simultaneous step, R002.28), Tiny Flyers lost or Aborted, an Ordnance Wing's
re-arming. What the table decides before any die is rolled is memoised per state.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tactical.dice import Dice
from tactical.model import FrozenMap, GameState, SizeClass, Unit
from tactical.model.frozen import memo_of
from tactical.model.worded import conditions_only, worded
from tactical.rules.base import Attack, Event, Resolution
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import Weapon, card, squadron_units
from tactical.rules.dystopian_wars.chance import (
    AttackRollOf,
    AttackSummary,
    ByCondition,
    Defence,
)
from tactical.rules.dystopian_wars.combat import (
    declare,
    declared_on,
    declared_params,
    reach,
    settings,
    target_column,
)
from tactical.rules.dystopian_wars.command import commodore_available, commodore_option
from tactical.rules.dystopian_wars.dicework import PoolRules
from tactical.rules.dystopian_wars.measures import (
    contact_graph_connected,
    removable_for_formation,
    weapon_measured_from,
    within_centres,
    within_from_centre,
)
from tactical.rules.dystopian_wars.tables import GENERATOR_RANGE, guardian_save

OBSCURED_HIT_ON = 5  # R002.39

OBSCURED_SIZES = (SizeClass.MEDIUM, SizeClass.LARGE, SizeClass.MASSIVE)


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


def declare_attack(
    state: GameState,
    attacker_id: str,
    weapon_name: str,
    target_id: str,
    params: Mapping[str, Any] | None = None,
) -> Attack:
    """`combat.declare` (the system's `declare_attack`, R002.36-R002.43), the attack it
    returns kept as declared on `state`: `redeclared` gives it back there without declaring
    it again (the computer players declare an attack, then resolve it on the same state
    once per outcome). Declaring an attack again from its own parameters
    (`declared_params`) on the state it was declared on gives the same attack."""
    found = declared_on(state, attacker_id, weapon_name, target_id, params or {})
    memo_of(_REDECLARED, state).setdefault(found, found)
    return found


def resolve(state: GameState, attack: Attack, dice: Dice, *, defer: bool = False) -> Resolution:
    """Resolve a declared attack (re-declared first on this state); pure."""
    return resolve_declared(state, redeclared(state, attack), dice, defer=defer)


_REDECLARED: dict[int, tuple[weakref.ref[GameState], dict[Attack, Attack]]] = {}


def redeclared(state: GameState, attack: Attack) -> Attack:
    """`attack` declared again on `state` (reach, line of sight, arcs, pool: `declare`),
    memoised while the state lives: the exact enumerator and sampling resolve the same
    attack on the same state many times, and `declare` is a pure function of the two.
    A refused declaration raises each time (UserError), like `declare`."""
    memo = memo_of(_REDECLARED, state)
    found = memo.get(attack)
    if found is None:
        found = declare(
            state, attack.attacker, attack.weapon, attack.target, declared_params(attack)
        )
        memo[attack] = found
    return found


@dataclass(frozen=True, slots=True)
class Prepared:
    """What the table decides about a declared attack before any die is rolled."""

    weapon: Weapon
    defence: Defence
    guardian: str | None
    events: tuple[Event, ...]
    # the roll as a value (`dice.chance(roll, key=roll.key)`): made once, the exact
    # enumerator resolving the same attack on the same state once per outcome
    roll: AttackRollOf | ByCondition


_PREPARED: dict[int, tuple[weakref.ref[GameState], dict[tuple[Attack, bool, bool], Prepared]]] = {}


def prepared(
    state: GameState, attack: Attack, words: bool = True, by_condition: bool = False
) -> Prepared:
    """The deterministic part of resolving `attack` on `state` (memoised while the state lives:
    sampling and the exact enumerator resolve the same attack many times); without its
    events when `words` is False (read for the state alone, `model.worded`), its roll
    merged by the units' conditions with `by_condition` as well (`ByCondition`)."""
    by_condition = by_condition and not words
    memo = memo_of(_PREPARED, state)
    found = memo.get((attack, words, by_condition))
    if found is None:
        weapon = card(state.unit(attack.attacker)).weapon(attack.weapon)
        assert weapon is not None
        defence, guardian = defence_for(state, attack, weapon)
        events: tuple[Event, ...] = ()
        roll: AttackRollOf | ByCondition
        if words:
            events = (
                _declare_event(attack, weapon),
                *_facts_events(state, attack, weapon, defence, guardian),
            )
            roll = AttackRollOf(defence, attack.attacker, attack.target, weapon.kind)
        else:  # read for the state alone: one roll of these numbers whoever fires
            plain = AttackRollOf(defence, worded=False)
            roll = ByCondition(plain) if by_condition else plain
        found = memo[(attack, words, by_condition)] = Prepared(
            weapon, defence, guardian, events, roll
        )
    return found


def resolve_declared(
    state: GameState, attack: Attack, dice: Dice, *, defer: bool = False
) -> Resolution:
    """Roll an attack `declare` returned for this state and apply it. `defer`: a destroyed
    model stays until the end of a simultaneous step (R002.28)."""
    words = worded()
    ready = prepared(state, attack, words, conditions_only())
    weapon = ready.weapon
    # a value: the exact enumerator enumerates an equal roll once; read for the state alone
    # (`model.worded`), one roll of these numbers whoever fires, merged by what it changes;
    # read for the units' conditions alone, by what they read (Hull Points lost, models
    # lost): the roll is the attack's last, and `apply_outcome` reads of a Critical Hit
    # only what it writes (the effect, the Fleet Commodore's offers), none of it a condition
    rolled = ready.roll
    roll = dice.chance(rolled, key=rolled.key)
    new_state, applied = apply_outcome(state, attack, weapon, roll.summary, defer=defer)
    if not words:
        return Resolution(new_state, (), roll.summary)
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
        stored = tracking.mapping(state, "wings").get(profile.squadron)  # this Wing's alone
        wing = (
            tracking.plain(stored) if stored is not None else {"type": profile.wing_type, "fuel": 6}
        )
        wing["armed"] = False
        state = tracking.put_in(state, "wings", profile.squadron, wing)
        events.append(Event.of("rearm-needed", "R002.55", wing=profile.squadron))
    if card(target).is_tiny_flyer:
        state, more = _apply_to_wing(state, target, summary, defer)
        return state, events + more
    # the Hull Points lost, the Critical Hit's effect and the Fleet Commodore's offers set
    # at once (one new state: the exact odds make one per outcome)
    changes: list[tuple[str, str, Any]] = []
    if summary.hull_lost:
        lost = tracking.hull_lost(state, target.id) + summary.hull_lost
        changes.append(("hull_lost", target.id, lost))
    if summary.critical:
        changes.append(
            ("effects", target.id, (*tracking.effects(state, target.id), summary.critical))
        )
    if summary.critical and not summary.destroyed:
        # R002.10: a re-roll on a model the hit sank changes nothing
        offers, offer_events = _critical_offers(state, attacker, target, summary.critical)
        changes += offers
        events.extend(offer_events)
    state = tracking.put_items(state, *changes)
    if summary.destroyed:
        state = destroy(state, target, defer=defer)
        events.append(Event.of("destroyed", "G.5", unit=target.id, deferred=defer))
    return state, events


def destroy(
    state: GameState, unit: Unit, *, defer: bool = False, how: str = "destroyed"
) -> GameState:
    """Record the loss and take the model off the table (at the end of a simultaneous step);
    a Tiny Flyer's Wing closes up behind it (`close_up`)."""
    state = tracking.record_loss(state, unit, how)
    if defer:
        return tracking.add_to(state, "pending_removals", unit.id)
    return close_up(state.without_unit(unit.id), unit)


def close_up(state: GameState, gone: Unit) -> GameState:
    """R002.52: removing a destroyed Tiny Flyer must keep its Wing a valid formation. An
    attack picks a victim whose removal does (`removable_for_formation`); a Tiny Flyer
    lost otherwise (a failed Treacherous Terrain Test, say) may have held the Wing
    together. Its Tiny Flyers are alike, so one whose own removal would leave the rest
    connected takes the lost one's place: the Wing is then connected as it was without
    that one (the state unchanged when the Wing is still whole, or none can)."""
    if not card(gone).is_tiny_flyer:
        return state
    wing = squadron_units(state, card(gone).squadron)
    if len(wing) < 2 or contact_graph_connected(wing):
        return state
    for unit_id in removable_for_formation((*wing, gone)):
        if unit_id == gone.id:
            continue
        moved = replace(state.unit(unit_id), pose=gone.pose)
        closed = tuple(moved if u.id == unit_id else u for u in wing)
        if contact_graph_connected(closed):
            return state.replace_unit(moved)
    return state


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
) -> tuple[list[tuple[str, str, Any]], list[Event]]:
    """R002.10 options b and c: a Critical Hit Table roll the Fleet Commodore may re-roll
    (none on a model leaving the table at the end of this step: it would change nothing),
    as the `offers` entries to set (`tracking.put_items`) and their events."""
    options = settings(state)
    events: list[Event] = []
    found: list[tuple[str, str, Any]] = []
    if target.id in tuple(tracking.get(state, "pending_removals", ())):
        return found, events
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
        found.append(("offers", side, offer))
        events.append(
            Event.of("commodore-offer", "R002.10", side=side, option=letter, unit=target.id)
        )
    return found, events
