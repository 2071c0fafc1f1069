"""Cortex Space point defense (R003.43, R003.44, A003.28).

A vessel within the system's skirmish range rolls Agility + Pilot against
HEROIC 19 (`PD_DIFFICULTY`); failure costs Basic damage (19 - roll) plus the
weapon's die stepped up once (twice on a botch). `pd_volley` is that fold (the
exact odds enumerate it); `resolve_pd` applies it and marks the weapon as
having engaged that vessel this turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tactical.dice import Dice
from tactical.model import GameState
from tactical.rules.base import Attack, Event, Resolution
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.acting import weapon_of
from tactical.rules.cortex_space.attack_pools import Defense, defense_pools, roll_defense
from tactical.rules.cortex_space.damage import (
    Receiver,
    Target,
    damage_dealt,
    deliver,
    receiver_of,
    target_of,
    write_back,
)
from tactical.rules.cortex_space.gunnery import Volley, after_damage, damage_facts, volley_key
from tactical.rules.cortex_space.pilot_rolls import modifier_events
from tactical.rules.cortex_space.rolls import DamageDice, Pool, basic_damage, roll_damage
from tactical.rules.cortex_space.tables import HEROIC
from tactical.rules.cortex_space.units import settings, vessel

PD_DIFFICULTY = HEROIC  # R003.43


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
            basic.event(margin, rolled.total, "R003.44"),
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

    return dice.fold(Volley(start), (evade, damage, land), key=volley_key)


def resolve_pd(state: GameState, attack: Attack, dice: Dice) -> Resolution:
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
    stun, wound = damage_dealt(start, end)  # as the target's track counts it (R003.58)
    summary = DefenseSummary(
        failed,
        bool(volley.extraordinary),
        stun,
        wound,
        end.destroyed and not start.destroyed,
        end.effects,
    )
    new_state = write_back(state, target.id, end)
    engaged = (*tracker.get(state, tracker.PD_ENGAGED, ()), (pd_unit.id, weapon.name, target.id))
    new_state = new_state.with_rule_state(**{tracker.PD_ENGAGED: engaged})
    new_state = after_damage(new_state, state, target.id, pd_unit.id)
    events = (
        Event.of("declare", "R003.43", attacker=pd_unit.id, weapon=weapon.name, target=target.id),
        *modifier_events(modifiers, "defense"),
        *volley.events,
        Event.of(
            "outcome",
            "R003.44",
            target=target.id,
            failed=failed,
            botch=summary.botch,
            **damage_facts(summary),
        ),
    )
    return Resolution(new_state, events, summary)
