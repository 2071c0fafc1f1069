"""Cortex Space missile lock (R003.38, T003.8, A003.24).

The attack roll against the fixed Difficulty of the range band (`lock_roll`)
establishes a lock; `resolve_lock` records it, so that the missile can be fired
later (see `missiles`).
"""

from __future__ import annotations

from tactical.dice import Dice
from tactical.model import GameState
from tactical.rules.base import Attack, Event, Resolution
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.acting import weapon_of
from tactical.rules.cortex_space.attack_pools import attack_roll
from tactical.rules.cortex_space.pilot_rolls import modifier_events
from tactical.rules.cortex_space.positions import band_of, centre_distance
from tactical.rules.cortex_space.rolls import Pool, PoolRoll, outcome, roll_pool, succeeded
from tactical.rules.cortex_space.tables import MISSILE_BY_RANGE
from tactical.rules.cortex_space.units import settings, vessel


def lock_roll(pool: Pool, difficulty: int, dice: Dice, *, who: str) -> tuple[str, PoolRoll]:
    """R003.38: the lock's attack roll against the fixed Difficulty (A003.24)."""
    roll = dice.chance(
        lambda source: roll_pool(pool, source, who=who, what="missile lock"),
        key=lambda r: outcome(r.total, r.botch, difficulty),
    )
    return outcome(roll.total, roll.botch, difficulty), roll


def resolve_lock(state: GameState, attack: Attack, dice: Dice) -> Resolution:
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
        *modifier_events(roll.modifiers, "attack"),
        Event.of("attack-pool", "R003.2", pool=roll.pool.text, steps=roll.pool.steps),
        *rolled.events(attacker.id, "missile lock"),
        Event.of("outcome", "R003.38", target=target.id, result=result, locked=locked),
    )
    return Resolution(new_state, events, result)
