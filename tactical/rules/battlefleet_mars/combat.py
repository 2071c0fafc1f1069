"""Battlefleet Mars combat (seed 000): declarations, resolvers and exact odds.

Two weapons:

- `laser` — one firing unit against one target (R000.3, no fire groups):
  range R from the table (GEO000.1), to-hit d > R - ceil(LS/2) (R000.4), then
  damage T = d2 + LS - floor(R/3) looked up in the target's column (R000.8,
  R000.9); fighters and missiles are destroyed by the results of T000.5.
- `missiles` — a declared missile attack of n missiles on one target
  (R000.18): a missile group spends n of its `count`, or a ship/base launches
  n from its magazine within twice its launch capacity (R000.17). A ship or
  base target may fire CIWS at each declared missile in order (R000.19-
  R000.23); every survivor then hits (A000.8, or rolls when the option says so)
  and does T = d + 1 damage (R000.13). All CIWS rolls come before any damage
  (R000.24). Fighters and missiles have no CIWS (R000.25).

An L1-L4 result against a ship or base lowers its current laser strength by 1-4, never
below 0 (A000.11, option `laser_damage`); its later to-hit, damage and CIWS read the
lowered value through its stats.

The chance part of each attack is one function of plain numbers
(`laser_shot`, `missile_salvo`) written as folds over small states, so the
same code rolls with `SeededDice`/`ScriptedDice` and is enumerated exactly by
`tactical.dice.enumerate_outcomes`; the fold keys say what each step's
outcome matters through (hit and result; the number of CIWS survivors;
whether the target is destroyed yet).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tactical.dice import Dice, Distribution, enumerate_outcomes, fraction_text, percent
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.model.worded import conditions_only, worded
from tactical.rules.base import (
    Attack,
    Event,
    OddsReport,
    OddsSection,
    Resolution,
    options_check,
)
from tactical.rules.battlefleet_mars.chance import (
    MISS,
    LaserRoll,
    Room,
    Salvo,
    SalvoRoll,
    SalvoSummary,
    laser_shot,
    missile_salvo,
    missile_strike,
    salvo_roll,
)
from tactical.rules.battlefleet_mars.outcome import damage_points, record_results, results_against
from tactical.rules.battlefleet_mars.ranges import (  # `combat.measure`
    RangeFacts,
    measure,
    range_matrix,
)
from tactical.rules.battlefleet_mars.tables import (
    DESTROYED_RESULT,
    RESULT_CODES,
    Column,
    ciws_strength,
    ciws_threshold,
    code_group,
    code_meaning,
    destroys,
    laser_loss,
    launch_limit,
    lowered_strength,
    max_range,
    range_bracket,
    to_hit_threshold,
)
from tactical.rules.battlefleet_mars.units import (
    GROUPS,
    OPTION_FIELDS,
    Profile,
    UnitType,
    profile,
)
from tactical.rules.lookups import attack_parties
from tactical.rules.values import AttackParams

LASER = "laser"
MISSILES = "missiles"
WEAPONS = (LASER, MISSILES)
PARAMS = {LASER: (), MISSILES: ("missiles", "ciws")}


def settings(state: GameState) -> Mapping[str, Any]:
    """The options in force for a state, validated (UserError naming the key otherwise)."""
    return _options(state.options)


_options = options_check(OPTION_FIELDS)


# --------------------------------------------------------------------------- declaration


def weapons_of(unit: Unit, options: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The weapons a unit can declare: lasers (every type but missiles), missiles (the same
    under any options: `RuleSystem.weapons`)."""
    card = profile(unit)
    names = []
    if card.has_lasers:
        names.append(LASER)
    if card.kind is UnitType.MISSILE or (card.is_carrier and card.launch_capacity > 0):
        names.append(MISSILES)
    return tuple(names)


def available_missiles(card: Profile) -> tuple[int, str]:
    """How many missiles a unit may declare now, and the rule that limits it."""
    if card.kind is UnitType.MISSILE:
        return card.count, "R000.18"
    room = launch_limit(card.launch_capacity) - card.launched
    if card.missiles <= room:
        return card.missiles, "R000.18"
    return max(0, room), "R000.17"


def declare(
    state: GameState, attacker_id: str, weapon: str, target_id: str, params: AttackParams = None
) -> Attack:
    """Check a declared attack; a UserError naming the SPEC rule when it is illegal."""
    options = settings(state)
    attacker, target = attack_parties(state, attacker_id, target_id, "R000.3")
    given = dict(params or {})
    usable = weapons_of(attacker)
    if weapon not in WEAPONS or weapon not in usable:
        what = "unknown weapon" if weapon not in WEAPONS else "weapon"
        offer = ", ".join(usable)  # never empty: a unit has lasers or is a missile group
        raise UserError(
            f"{what} {weapon!r} for unit {attacker.id!r}: it can attack with {offer}",
            spec_id="R000.3",
        )
    unknown = sorted(set(given) - set(PARAMS[weapon]))
    if unknown:
        allowed = ", ".join(PARAMS[weapon]) or "none"
        raise UserError(
            f"a {weapon} attack takes no {', '.join(unknown)} (declaration parameters: {allowed})"
        )
    attacker_card = profile(attacker)
    target_card = profile(target)
    if weapon == LASER:
        facts = measure(attacker, target, options)
        strength = attacker_card.laser_strength  # a laser weapon: never None
        needed = to_hit_threshold(facts.range, strength)
        if needed is None:
            raise UserError(
                f"target {target.id!r} is out of laser range of {attacker.id!r}: range "
                f'{facts.range} ({facts.distance:.2f}") is beyond {max_range(strength)} '
                f"for laser strength {strength}",
                spec_id="R000.6",
            )
        attack = _declared(state, Attack(attacker.id, weapon, target.id, FrozenMap()))
        # what resolving it reads, from what was read to check it (`_aim_of`)
        shot = LaserRoll(strength, facts.range, target_card.column, attacker.id, target.id)
        aim = _Aim(options, attacker, target, target_card, strength, facts, needed, shot, [])
        _keep_aim(state, attack, aim)
        return attack
    limit, rule = available_missiles(attacker_card)
    if limit < 1:
        why = "its launches this turn are used up" if rule == "R000.17" else "it carries none"
        raise UserError(f"{attacker.id!r} has no missiles to declare: {why}", spec_id=rule)
    declared = given.get("missiles", limit)
    if not isinstance(declared, int) or isinstance(declared, bool) or declared < 1:
        raise UserError(
            f"a missile attack declares a whole number of missiles >= 1, not {declared!r}",
            spec_id="R000.18",
        )
    if declared > limit:
        if rule == "R000.17":
            why = (
                f"{attacker.id!r} may launch {launch_limit(attacker_card.launch_capacity)} "
                f"missiles a turn (twice its launch capacity {attacker_card.launch_capacity}), "
                f"{attacker_card.launched} already launched"
            )
        else:
            why = f"{attacker.id!r} has {limit} missile(s)"
        raise UserError(f"cannot declare {declared} missiles: {why}", spec_id=rule)
    can_ciws = target_card.kind not in GROUPS
    use = given.get("ciws", bool(options["ciws_default"]) and can_ciws)
    if not isinstance(use, bool):
        raise UserError(f"ciws must be true or false, not {use!r}", spec_id="A000.15")
    if use and not can_ciws:
        raise UserError(
            f"target {target.id!r} is a {target_card.kind}: only the target ship or base "
            "may use CIWS",
            spec_id="R000.25",
        )
    return _declared(
        state, Attack(attacker.id, weapon, target.id, FrozenMap(missiles=declared, ciws=use))
    )


def _declared(state: GameState, attack: Attack) -> Attack:
    """`attack`, noted as declared on this very state: resolving it there needs no second
    check (`resolve`; the computer players resolve one declaration over every roll)."""
    if len(_DECLARED) >= MAX_DECLARED:
        _DECLARED.clear()
    _DECLARED[id(attack)] = (state, attack)  # both kept beside the id: never reused
    return attack


_DECLARED: dict[int, tuple[GameState, Attack]] = {}
MAX_DECLARED = 64


# --------------------------------------------------------------------------- resolution


def _remove_one(state: GameState, unit: Unit) -> GameState:
    """A fighter or missile of a group destroyed: the group loses one, or leaves the table."""
    count = profile(unit).count
    if count <= 1:
        return state.without_unit(unit.id)
    return state.replace_unit(unit.with_stats(count=count - 1))


def resolve(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    """Resolve a declared attack (re-checked first, unless `declare` made it for this very
    state); pure: events and a new state."""
    known = _DECLARED.get(id(attack))
    if known is None or known[0] is not state or known[1] is not attack:
        attack = declare(state, attack.attacker, attack.weapon, attack.target, attack.params)
    return resolve_declared(state, attack, dice)


def resolve_declared(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    """`resolve` for an attack `declare` has just returned for this very state."""
    if attack.weapon == LASER:
        return _resolve_laser(state, attack, dice)
    return _resolve_missiles(state, attack, dice)


@dataclass(frozen=True, slots=True)
class _Aim:
    """What a laser attack reads of the state before any roll (`_aim_of`)."""

    options: Mapping[str, Any]
    attacker: Unit
    target: Unit
    target_card: Profile
    strength: int
    facts: RangeFacts
    needed: int | None
    roll: LaserRoll  # the shot (`chance.laser_shot`)
    # the shot merged by the target's condition (`LaserRoll.by_conditions`), once made
    merged: list[LaserRoll]


def _aim_of(state: GameState, attack: Attack) -> _Aim:
    """The parties, cards, range and shot of a laser attack on `state`, remembered by the
    identities of both (kept beside their ids): the computer players replay one declared
    attack on one state once for every outcome they enumerate."""
    slot = (id(state), id(attack))
    known = _AIMS.get(slot)
    if known is not None and known[0] is state and known[1] is attack:
        return known[2]
    options = settings(state)
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    strength = profile(attacker).laser_strength or 0
    target_card = profile(target)
    facts = measure(attacker, target, options)
    roll = LaserRoll(strength, facts.range, target_card.column, attacker.id, target.id)
    needed = to_hit_threshold(facts.range, strength)
    found = _Aim(options, attacker, target, target_card, strength, facts, needed, roll, [])
    _keep_aim(state, attack, found)
    return found


def _keep_aim(state: GameState, attack: Attack, aim: _Aim) -> None:
    """`aim` remembered for `attack` on `state` (`_aim_of`; both kept beside their ids)."""
    if len(_AIMS) >= MAX_DECLARED:
        _AIMS.clear()
    _AIMS[(id(state), id(attack))] = (state, attack, aim)


_AIMS: dict[tuple[int, int], tuple[GameState, Attack, _Aim]] = {}


def _resolve_laser(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    aim = _aim_of(state, attack)
    options, attacker, target, target_card = aim.options, aim.attacker, aim.target, aim.target_card
    strength, facts, needed = aim.strength, aim.facts, aim.needed
    roll = aim.roll
    if conditions_only():
        # read for the units' conditions alone (`model.worded`): the shot is the last roll
        # and what follows writes its result into the state, so shots that leave every
        # condition the same merge (the first reached stands for them: `LaserRoll.key`)
        if not aim.merged:
            room = _room(state, target, target_card, options)
            aim.merged.append(roll.by_conditions(target_card.kind, room))
        roll = aim.merged[0]
    shot = dice.chance(roll, key=roll.key)  # `laser_shot`
    new_state = state
    killed = destroys(shot.summary, target_card.kind)  # None for ships and bases
    if not worded():  # read for the state alone (`model.worded`): no words
        if shot.hit and killed is None:
            new_state = record_results(state, target.id, (shot.summary,))  # A000.E1
            new_state = _lower_lasers(new_state, target.id, (shot.summary,), options, None)
        elif shot.hit and killed:
            new_state = _remove_one(state, target)
        return Resolution(new_state, (), shot.summary)
    events = [
        Event.of("declare", "R000.3", attacker=attacker.id, weapon=LASER, target=target.id),
        Event.of(
            "range",
            "GEO000.1",
            distance=round(facts.distance, 6),
            range=facts.range,
            unit_inches=facts.unit_inches,
            rounding=facts.rounding,
        ),
        Event.of("threshold", "R000.5", laser_strength=strength, range=facts.range, needed=needed),
    ]
    events.extend(shot.events)
    if not shot.hit:
        events.append(Event.of("outcome", "R000.4", target=target.id, result=MISS))
    elif killed is None:
        events.append(Event.of("outcome", "R000.12", target=target.id, result=shot.summary))
        new_state = record_results(state, target.id, (shot.summary,))  # A000.E1
        new_state = _lower_lasers(new_state, target.id, (shot.summary,), options, events)
    else:
        rule = "R000.10" if target_card.kind is UnitType.FIGHTER else "R000.11"
        events.append(
            Event.of("outcome", rule, target=target.id, result=shot.summary, destroyed=killed)
        )
        if killed:
            new_state = _remove_one(state, target)
    return Resolution(new_state, tuple(events), shot.summary)


def _ciws_of(target_card: Profile, use: bool) -> int | None:
    return ciws_strength(target_card.laser_strength or 0) if use else None


@dataclass(frozen=True, slots=True)
class _Salvo:
    """What a missile attack reads of the state before any roll (`_salvo_of`)."""

    options: Mapping[str, Any]
    attacker: Unit
    target: Unit
    attacker_card: Profile
    target_card: Profile
    declared: int
    ciws: int | None
    room: Room
    # the salvo with words or without, merged by condition or not, made when first rolled
    rolls: dict[tuple[bool, bool], SalvoRoll]


def _salvo_of(state: GameState, attack: Attack) -> _Salvo:
    """The parties, cards, CIWS and room of a missile attack on `state`, remembered by the
    identities of both (kept beside their ids): the computer players replay one declared
    attack on one state once for every outcome they enumerate."""
    slot = (id(state), id(attack))
    known = _SALVOS.get(slot)
    if known is not None and known[0] is state and known[1] is attack:
        return known[2]
    options = settings(state)
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    target_card = profile(target)
    declared = int(attack.params["missiles"])
    ciws = _ciws_of(target_card, bool(attack.params["ciws"]))
    room = _room(state, target, target_card, options)
    found = _Salvo(
        options, attacker, target, profile(attacker), target_card, declared, ciws, room, {}
    )
    if len(_SALVOS) >= MAX_DECLARED:
        _SALVOS.clear()
    _SALVOS[slot] = (state, attack, found)
    return found


_SALVOS: dict[tuple[int, int], tuple[GameState, Attack, _Salvo]] = {}


def _resolve_missiles(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    before = _salvo_of(state, attack)
    options, attacker, target = before.options, before.attacker, before.target
    attacker_card, target_card = before.attacker_card, before.target_card
    declared, ciws = before.declared, before.ciws
    words = worded()  # read for the state alone (`model.worded`): no words
    # read for the units' conditions alone (`model.worded`): the salvo is the last roll and
    # what follows writes its results into the state, so salvos that leave every condition
    # the same merge (the first reached stands for them: `SalvoRoll.key`)
    merged = conditions_only()
    roll = before.rolls.get((words, merged))
    if roll is None:  # (`missile_salvo`)
        roll = before.rolls[(words, merged)] = salvo_roll(
            declared, ciws, target_card.column, target_card.kind, options,
            who=attacker.id, target=target.id, room=before.room, words=words,
            by_condition=merged,
        )  # fmt: skip
    salvo: Salvo = dice.chance(roll, key=roll.key)  # `missile_salvo`
    summary = salvo.summary
    events = _salvo_events(attack, target_card, ciws, salvo) if words else []
    new_state = _spend_missiles(state, attacker, attacker_card, declared)
    if summary.target_destroyed is None:
        new_state = record_results(new_state, target.id, salvo.strikes.results)  # A000.E1
        new_state = _lower_lasers(
            new_state, target.id, salvo.strikes.results, options, events if words else None
        )
    if summary.target_destroyed and new_state.has_unit(target.id):
        new_state = _remove_one(new_state, new_state.unit(target.id))
    return Resolution(new_state, tuple(events) if words else (), summary)


def _room(state: GameState, target: Unit, card: Profile, options: Mapping[str, Any]) -> Room:
    """What the target can still take that this game reads (`chance.Room`): the damage
    points that surely cripple it, counted from its printed strength (A000.E1; its value
    at the start is never more) less the points on its record, none once a D is on it;
    and the laser strength it has left to lose (A000.11, where laser damage is played)."""
    record = results_against(state, target.id)
    printed = max(1, card.printed_laser_strength or card.laser_strength or 0)
    whole = printed + card.launch_capacity
    taken = sum(damage_points(r) for r in record)
    points = 0 if DESTROYED_RESULT in record else max(0, math.ceil(whole - taken))
    laser = (card.laser_strength or 0) if options["laser_damage"] else 0
    return Room(points, laser)


def _salvo_events(
    attack: Attack, target_card: Profile, ciws: int | None, salvo: Salvo
) -> list[Event]:
    """The words of a missile attack: declared, CIWS (R000.19), its rolls, the outcome."""
    summary, declared = salvo.summary, int(attack.params["missiles"])
    if summary.target_destroyed is None:
        outcome_rule = "R000.12"
    else:
        outcome_rule = "R000.10" if target_card.kind is UnitType.FIGHTER else "R000.11"
    return [
        Event.of(
            "declare",
            "R000.18",
            attacker=attack.attacker,
            weapon=MISSILES,
            target=attack.target,
            missiles=declared,
        ),
        Event.of(
            "ciws-declared",
            "R000.19",
            target=attack.target,
            used=bool(attack.params["ciws"]),
            ciws_strength=ciws,
        ),
        *salvo.volley.events,
        *salvo.strikes.events,
        Event.of(
            "outcome",
            outcome_rule,
            target=attack.target,
            ciws_destroyed=summary.ciws_destroyed,
            results=salvo.strikes.results,
            destroyed=summary.target_destroyed,
        ),
    ]


def _lower_lasers(
    state: GameState,
    target_id: str,
    results: tuple[str, ...],
    options: Mapping[str, Any],
    events: list[Event] | None,
) -> GameState:
    """A000.11: L1-L4 results lower the ship's or base's current laser strength (never below
    0), the printed strength kept for its card; logged as a `laser-damage` event (`events`
    None: read for the state alone, no words)."""
    unit = state.unit(target_id)
    card = profile(unit)
    if not options["laser_damage"] or card.laser_strength is None:
        return state
    lowered = lowered_strength(card.laser_strength, _laser_results(results))
    if lowered == card.laser_strength:
        return state
    if events is not None:
        events.append(
            Event.of(
                "laser-damage",
                "A000.11",
                target=target_id,
                laser_strength=card.laser_strength,
                lowered_to=lowered,
                printed=card.printed_laser_strength,
            )
        )
    return state.replace_unit(_lowered(unit, lowered, card.printed_laser_strength))


@lru_cache(maxsize=1024)
def _laser_results(results: tuple[str, ...]) -> tuple[str, ...]:
    """The L results among `results` (A000.11: the others lower nothing), once per record
    (the same few come back after every roll the computer players enumerate)."""
    return tuple(result for result in results if laser_loss(result))


def _lowered(unit: Unit, lowered: int, printed: int | None) -> Unit:
    """`unit` with its laser strength lowered (A000.11), the same unit again for the same
    unit and strength (remembered by its identity, kept beside it): the outcomes a
    computer player enumerates lower one target to the same few strengths."""
    known = _LOWERED.get(id(unit))
    if known is None or known[0] is not unit:
        if len(_LOWERED) >= MAX_DECLARED:
            _LOWERED.clear()
        known = _LOWERED[id(unit)] = (unit, {})
    found = known[1].get((lowered, printed))
    if found is None:
        found = known[1][(lowered, printed)] = unit.with_stats(
            laser_strength=lowered, printed_laser_strength=printed
        )
    return found


_LOWERED: dict[int, tuple[Unit, dict[tuple[int, int | None], Unit]]] = {}


def _spend_missiles(state: GameState, attacker: Unit, card: Profile, declared: int) -> GameState:
    """Declared missiles are spent: a group shrinks; a launcher's magazine empties (R000.17).
    Remembered by the state's identity (kept beside it), the attacker and the count: every
    outcome of a salvo the computer players enumerate spends the same missiles of the same
    state, and a salvo that changed nothing else hands back that very state (whose material
    value is then read once)."""
    slot = (id(state), attacker.id, declared)
    known = _SPENT.get(slot)
    if known is not None and known[0] is state:
        return known[1]
    spent = _spent(state, attacker, card, declared)
    if len(_SPENT) >= _SPENT_SIZE:
        _SPENT.clear()
    _SPENT[slot] = (state, spent)
    return spent


# the states after a spend, by the state's identity (`_spend_missiles`): a bounded memo of a
# pure function, the state kept beside its id so that the id is never reused while kept
_SPENT: dict[tuple[int, str, int], tuple[GameState, GameState]] = {}
_SPENT_SIZE = 256


def _spent(state: GameState, attacker: Unit, card: Profile, declared: int) -> GameState:
    if card.kind is UnitType.MISSILE:
        if declared >= card.count:
            return state.without_unit(attacker.id)
        return state.replace_unit(attacker.with_stats(count=card.count - declared))
    return state.replace_unit(
        attacker.with_stats(missiles=card.missiles - declared, launched=card.launched + declared)
    )


# --------------------------------------------------------------------------- odds


def attack_odds(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """Exact odds of a declared attack, by enumerating `resolve` itself over every roll."""
    attack = declare(state, attack.attacker, attack.weapon, attack.target, attack.params)
    options = settings(state)
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    target_card = profile(target)
    outcomes = enumerate_outcomes(lambda dice: resolve_declared(state, attack, dice).summary)
    if attack.weapon == LASER:
        return _laser_report(rules_id, attack, attacker, target, options, outcomes)
    return _salvo_report(rules_id, attack, target_card, options, outcomes)


def result_key(sections: Sequence[OddsSection], against: UnitType) -> tuple[tuple[str, str], ...]:
    """The key of the result codes the report's result sections can show, against this
    target's type (T000.5, A000.11): the chart's legend, "iL" -> "destroyed" for a fighter."""
    codes = [
        str(outcome)
        for section in sections
        if section.label == "result"
        for outcome, _ in section.distribution.pairs
        if outcome != MISS
    ]
    groups = dict.fromkeys(code_group(code) for code in codes)
    return tuple((group, code_meaning(group, against.value)) for group in groups)


def _result_order(result: str) -> int:
    """miss first, then the codes in T000.5 order."""
    return -1 if result == MISS else RESULT_CODES.index(result)


def _laser_report(
    rules_id: str,
    attack: Attack,
    attacker: Unit,
    target: Unit,
    options: Mapping[str, Any],
    outcomes: Distribution[Any],
) -> OddsReport:
    strength = profile(attacker).laser_strength or 0
    target_card = profile(target)
    facts = measure(attacker, target, options)
    needed = to_hit_threshold(facts.range, strength)
    hit = Fraction(10 - needed, 10)  # never None: `declare` refuses a target out of range
    sections = [OddsSection("result", "T000.2", "result", outcomes.sorted(key=_result_order))]
    if target_card.kind in GROUPS:
        rule = "R000.10" if target_card.kind is UnitType.FIGHTER else "R000.11"
        destroyed = outcomes.map(lambda result: bool(destroys(result, target_card.kind)))
        sections.append(OddsSection("destroyed", rule, "destroyed", destroyed.sorted()))
    return OddsReport(
        rules_id,
        attack,
        FrozenMap(
            distance=round(facts.distance, 6),
            range=facts.range,
            range_unit_inches=facts.unit_inches,
            range_rounding=facts.rounding,
            laser_strength=strength,
            needed=needed,
            max_range=max_range(strength),
            range_term=range_bracket(facts.range),
            hit_probability=fraction_text(hit),
            hit_percent=percent(hit),
            target_type=target_card.kind.value,
            column=target_card.column,
        ),
        tuple(sections),
        key=result_key(sections, target_card.kind),
    )


def survivor_damage(column: Column, options: Mapping[str, Any]) -> Distribution[str]:
    """Exact result distribution of one surviving missile (enumerating `missile_strike`)."""
    return enumerate_outcomes(lambda dice: missile_strike(column, options, dice).result)


def _salvo_report(
    rules_id: str,
    attack: Attack,
    target_card: Profile,
    options: Mapping[str, Any],
    outcomes: Distribution[SalvoSummary],
) -> OddsReport:
    declared = int(attack.params["missiles"])
    ciws = _ciws_of(target_card, bool(attack.params["ciws"]))
    destroyed_by_ciws = outcomes.map(lambda s: s.ciws_destroyed).sorted()
    per_missile = survivor_damage(target_card.column, options).sorted(key=_result_order)
    survivors = declared - destroyed_by_ciws.expected()
    expected = {result: fraction_text(survivors * p) for result, p in per_missile if result != MISS}
    sections = [
        OddsSection("ciws_destroyed", "R000.22", "missiles", destroyed_by_ciws),
        OddsSection("survivor_damage", "R000.13", "result", per_missile),
    ]
    if target_card.kind in GROUPS:
        rule = "R000.10" if target_card.kind is UnitType.FIGHTER else "R000.11"
        destroyed = outcomes.map(lambda s: bool(s.target_destroyed)).sorted()
        sections.append(OddsSection("target_destroyed", rule, "destroyed", destroyed))
    return OddsReport(
        rules_id,
        attack,
        FrozenMap(
            missiles=declared,
            ciws=ciws is not None,
            ciws_strength=ciws,
            ciws_thresholds=[ciws_threshold(ciws, k) for k in range(1, declared + 1)]
            if ciws is not None
            else [],
            expected_survivors=fraction_text(survivors),
            expected_results=expected,
            missile_to_hit=options["missile_to_hit"],
            target_type=target_card.kind.value,
            column=target_card.column,
        ),
        tuple(sections),
        key=result_key(sections, target_card.kind),
    )


# --------------------------------------------------------------------------- every pair


@dataclass
class _Memo:
    """Distributions of the chance parts by their inputs: many pairs share a few signatures."""

    options: Mapping[str, Any]
    laser: dict[tuple[int, int, str], Distribution[str]]
    salvo: dict[tuple[int, int | None, str, str], Distribution[SalvoSummary]]

    def laser_odds(self, strength: int, range_r: int, column: Column) -> Distribution[str]:
        key = (strength, range_r, column)
        if key not in self.laser:
            self.laser[key] = enumerate_outcomes(
                lambda dice: laser_shot(strength, range_r, column, dice).summary
            )
        return self.laser[key]

    def salvo_odds(
        self, declared: int, ciws: int | None, column: Column, kind: str
    ) -> Distribution[SalvoSummary]:
        key = (declared, ciws, column, kind)
        if key not in self.salvo:
            self.salvo[key] = enumerate_outcomes(
                lambda dice: missile_salvo(declared, ciws, column, kind, self.options, dice).summary
            )
        return self.salvo[key]


def all_pair_odds(state: GameState) -> dict[tuple[str, str, str], Distribution[Any]]:
    """Exact odds of every legal (attacker, weapon, target) on the table with default declarations.

    Lasers at every target in range; missiles (all the attacker may declare,
    CIWS by the `ciws_default` option) at every target. Ranges come from one
    vectorised distance matrix; each distinct (LS, R, column) or salvo
    signature is enumerated once.
    """
    options = settings(state)
    units = state.units
    cards = [profile(u) for u in units]
    ranges = range_matrix(units, options)
    memo = _Memo(options, {}, {})
    odds: dict[tuple[str, str, str], Distribution[Any]] = {}
    for i, attacker in enumerate(units):
        card = cards[i]
        weapons = weapons_of(attacker)
        if LASER in weapons:
            strength = card.laser_strength or 0
            reach = max_range(strength)
            for j in np.flatnonzero(ranges[i] <= reach):
                if j == i:
                    continue
                target_card = cards[j]
                odds[(attacker.id, LASER, units[j].id)] = memo.laser_odds(
                    strength, int(ranges[i, j]), target_card.column
                )
        if MISSILES in weapons:
            declared, _ = available_missiles(card)
            if declared < 1:
                continue
            for j, target_card in enumerate(cards):
                if j == i:
                    continue
                use = bool(options["ciws_default"]) and target_card.kind not in GROUPS
                odds[(attacker.id, MISSILES, units[j].id)] = memo.salvo_odds(
                    declared, _ciws_of(target_card, use), target_card.column, target_card.kind
                )
    return odds
