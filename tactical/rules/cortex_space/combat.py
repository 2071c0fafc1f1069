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

The attack is split along its seams: `acting` (the unit looked up and checked),
`attack_pools` (the attack and defense pools and their step modifiers), and one
resolver per kind: `gunnery`, `point_defense`, `missile_lock`. This module holds
what an attack takes (`PARAMS`), its declaration (`declare`), its resolution by
kind (`resolve`, `resolve_declared`) and its exact odds (`attack_odds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.dice import Dice, enumerate_outcomes, fraction_text, percent
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import memo_of
from tactical.rules.base import Attack, OddsReport, OddsSection, Resolution
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.acting import require_active, require_target, weapon_of
from tactical.rules.cortex_space.attack_pools import attack_roll, defense_pools, firer
from tactical.rules.cortex_space.gunnery import gun_summary, plan_gun, resolve_gun
from tactical.rules.cortex_space.missile_lock import resolve_lock
from tactical.rules.cortex_space.point_defense import PD_DIFFICULTY, resolve_pd
from tactical.rules.cortex_space.positions import band_index, band_of, centre_distance
from tactical.rules.cortex_space.tables import MISSILE_BY_RANGE
from tactical.rules.cortex_space.units import MAX_WING, Weapon, settings, vessel
from tactical.rules.lookups import attack_parties
from tactical.rules.values import AttackParams

GUN, MISSILE, POINT_DEFENSE = "gun", "missile", "point-defense"
PARAMS = {
    GUN: ("battery", "fighters", "gunner", "called_shot"),
    MISSILE: ("gunner",),
    POINT_DEFENSE: (),
}
# --------------------------------------------------------------------------- declaring


def declare(
    state: GameState, attacker_id: str, weapon_id: str, target_id: str, params: AttackParams = None
) -> Attack:
    """Check a declared attack on the table; a UserError naming the SPEC rule when illegal."""
    options = settings(state)
    attacker, target = attack_parties(state, attacker_id, target_id, "R003.7")
    card, target_card = vessel(attacker), vessel(target)
    require_active(attacker, card, "attack")
    require_target(target, target_card)
    weapon = weapon_of(attacker, card, weapon_id)
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


def resolve(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    """Resolve a declared attack (re-checked first); pure: events and a new state."""
    return resolve_declared(state, redeclared(state, attack), dice)


_REDECLARED: dict[int, tuple[Any, dict]] = {}


def redeclared(state: GameState, attack: Attack) -> Attack:
    """`attack` checked again on `state` (`declare`), remembered while the state lives: the
    exact enumerator resolves the same attack on the same state once per outcome, and
    `declare` is a pure function of the two. A refused declaration raises each time."""
    global _LAST_REDECLARED
    last = _LAST_REDECLARED
    if last[0] is state and last[1] is attack:
        return last[2]
    memo = memo_of(_REDECLARED, state)
    found = memo.get(attack)
    if found is None:
        found = declare(state, attack.attacker, attack.weapon, attack.target, attack.params)
        memo[attack] = found
    _LAST_REDECLARED = (state, attack, found)  # one tuple assigned: read whole or not at all
    return found


_LAST_REDECLARED: tuple = (None, None, None)  # the last (state, attack, redeclared attack)


def _kind_of(state: GameState, attack: Attack) -> str:
    """The kind of the attack's weapon, remembered for the last state and attack (the exact
    odds resolve the same attack on the same state once per outcome)."""
    global _LAST_KIND
    last = _LAST_KIND
    if last[0] is state and last[1] is attack:
        return last[2]
    kind = vessel(state.unit(attack.attacker)).weapon(attack.weapon).kind  # type: ignore[union-attr]
    _LAST_KIND = (state, attack, kind)  # one tuple assigned: read whole or not at all
    return kind


_LAST_KIND: tuple = (None, None, "")  # the last (state, attack, weapon kind)


def resolve_declared(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    kind = _kind_of(state, attack)
    if kind == MISSILE:
        return resolve_lock(state, attack, dice)
    if kind == POINT_DEFENSE:
        return resolve_pd(state, attack, dice)
    return resolve_gun(state, attack, dice)


# --------------------------------------------------------------------------- odds


def attack_odds(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """Exact odds of a declared attack, by enumerating `resolve_declared` over every roll (a
    gun's rolls and summary alone: its write-back rolls nothing)."""
    attack = declare(state, attack.attacker, attack.weapon, attack.target, attack.params)
    options = settings(state)
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    weapon = weapon_of(attacker, vessel(attacker), attack.weapon)
    if weapon.kind in (MISSILE, POINT_DEFENSE):
        outcomes = enumerate_outcomes(lambda dice: resolve_declared(state, attack, dice).summary)
    else:
        outcomes = enumerate_outcomes(lambda dice: gun_summary(state, attack, dice))
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
        return _report(rules_id, attack, facts, sections)
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
        return _report(rules_id, attack, facts, sections)
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
    return _report(rules_id, attack, facts, sections)


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


def _report(
    rules_id: str, attack: Attack, facts: dict[str, Any], sections: tuple[OddsSection, ...]
) -> OddsReport:
    """The report, its modifiers as a player reads them: "wing of 2 +1 step (R003.32); action 2
    this turn -1 step (R003.8)" (the data stays in the facts)."""
    said = "; ".join(
        f"{source} {steps:+d} step{'' if abs(steps) == 1 else 's'} ({spec_id})"
        for source, steps, spec_id in facts.get("modifiers", ())
    )
    fact_words = FrozenMap(modifiers=said or "none") if "modifiers" in facts else FrozenMap()
    return OddsReport(rules_id, attack, FrozenMap(facts), sections, fact_words)
