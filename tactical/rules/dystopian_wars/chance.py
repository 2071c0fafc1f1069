"""The chance part of a Dystopian Wars attack, on plain numbers only (G.5, R002.49, R002.50,
R002.56, T002.9): the Attack Dice pool (`dicework.attack_pool`), then Shield dice (one per
Shield Generator, the Guardian Generator counting as one, R002.49) and the Guardian aura
die (R002.50), then the damage thresholds, then the Critical Hit roll; on a Tiny Flyer
Wing, the Tiny Flyers destroyed and the Abort (R002.56).

`Defence` holds every number the roll depends on, so `attack_roll` run through
`dice.chance` is at once the resolver (`resolving`) and what `odds_report` enumerates.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from tactical.dice import D6, Dice
from tactical.dice.core import RecordingDice, Subroll
from tactical.model.frozen import remembered
from tactical.rules.base import Event
from tactical.rules.dystopian_wars.dicework import (
    CriticalRoll,
    PoolRules,
    PoolState,
    attack_pool,
    critical_roll,
    pool_steps,
)

NO_EFFECT, DAMAGE, CRITICAL = "no effect", "damage", "critical"

RESULTS = (NO_EFFECT, DAMAGE, CRITICAL)  # a ship's results, least to worst (G.5)


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

    @property
    def effect(self) -> tuple[int, str | None, bool, int, bool]:
        """What the table is changed by (`resolving.apply_outcome` reads only these): hits
        and saves that end alike are one outcome to a reader of states alone."""
        return self.hull_lost, self.critical, self.destroyed, self.flyers_destroyed, self.aborted

    @property
    def condition(self) -> tuple[int, bool, int, bool]:
        """What of `effect` the units' conditions read (`outcome.unit_conditions`: Hull Points
        lost, models lost): not which Critical Hit (G.5), nor the Fleet Commodore's offers it
        makes (R002.10), that nothing later in the same resolution reads."""
        return self.hull_lost, self.destroyed, self.flyers_destroyed, self.aborted


@dataclass(frozen=True, slots=True)
class AttackRoll:
    summary: AttackSummary
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Saves:
    cancelled: int
    events: tuple[Event, ...]


def shield_saves(
    defence: Defence, hits: int, dice: Dice, who: str, weapon_kind: str, *, words: bool = True
) -> Saves:
    """R002.49 / R002.50 / T002.9: Shield dice then the Guardian aura die; each success cancels
    one hit (never more than were scored). `words=False`: the same dice, no events."""
    return _saves(
        defence.save_on,
        defence.shield_dice,
        defence.guardian_dice,
        hits,
        dice,
        who,
        weapon_kind,
        words=words,
    )


def _saves(
    save_on: int | None,
    shield_dice: int,
    guardian_dice: int,
    hits: int,
    dice: Dice,
    who: str,
    weapon_kind: str,
    *,
    words: bool,
) -> Saves:
    """`shield_saves` on the numbers it reads (R002.49, R002.50)."""
    if hits <= 0 or save_on is None:
        return Saves(0, ())
    if not words:
        needed = save_on
        rolled = shield_dice + guardian_dice
        cancelled = sum(dice.roll(D6, who=who) >= needed for _ in range(rolled))
        return Saves(min(cancelled, hits), ())
    dice_rolled = [
        *((f"Shield die {index + 1}", "shield", "R002.49") for index in range(shield_dice)),
        *(("Guardian Generator Shield die", "guardian-save", "R002.50"),) * guardian_dice,
    ]
    events: list[Event] = []
    cancelled = 0
    needed = save_on
    for what, kind, spec_id in dice_rolled:
        roll = dice.roll(D6, who=who, what=what)
        saved = roll >= needed
        cancelled += saved
        facts = {"who": who, "roll": roll, "needed": needed, "saved": saved, "weapon": weapon_kind}
        events.append(Event.of(kind, spec_id, **facts))
    return Saves(min(cancelled, hits), tuple(events))


@dataclass(frozen=True, slots=True)
class SavesRoll(Subroll):
    """An attack's Shield and Guardian aura dice as a value (R002.49, R002.50, T002.9): the
    numbers `shield_saves` reads, so the exact enumerator enumerates equal saves once for
    every attack that rolls them (a reader of states alone: whatever the target's Hull)."""

    save_on: int | None
    shield_dice: int
    guardian_dice: int
    hits: int
    who: str
    weapon_kind: str
    words: bool

    @classmethod
    def of(cls, defence: Defence, hits: int, who: str, weapon_kind: str, words: bool) -> SavesRoll:
        if words:
            return cls(
                defence.save_on,
                defence.shield_dice,
                defence.guardian_dice,
                hits,
                who,
                weapon_kind,
                words,
            )
        # without words only the number of save dice is read, and not the weapon
        rolled = defence.shield_dice + defence.guardian_dice
        return cls(defence.save_on, rolled, 0, hits, who, "", words)

    def __call__(self, dice: Dice) -> Saves:
        return _saves(
            self.save_on,
            self.shield_dice,
            self.guardian_dice,
            self.hits,
            dice,
            self.who,
            self.weapon_kind,
            words=self.words,
        )

    def key(self, outcome: Saves) -> Hashable:
        return outcome.cancelled


@dataclass(frozen=True, slots=True)
class CriticalRollOf(Subroll):
    """The Critical Hit roll of an attack as a value (G.5): `critical_roll` for `who`,
    enumerated once whoever it strikes."""

    who: str
    words: bool

    def __call__(self, dice: Dice) -> CriticalRoll:
        return critical_roll(dice, self.who, words=self.words)

    def key(self, outcome: CriticalRoll) -> Hashable:
        return outcome.code


@dataclass(frozen=True, slots=True)
class AttackRollOf(Subroll):
    """One attack's roll as a value (`dice.chance(roll, key=roll.key)`): everything
    `attack_roll` depends on, so the exact enumerator enumerates an equal roll once (G.5).

    `worded=False` (a reader of states alone, `model.worded`): no events and no names, so
    the same numbers are one roll whoever fires at whom, and outcomes that change the table
    alike (`AttackSummary.effect`) are one outcome."""

    defence: Defence
    who: str = ""
    target: str = ""
    weapon_kind: str = "gunnery"
    worded: bool = True

    def __call__(self, dice: Dice) -> AttackRoll:
        defence = self.defence
        if (
            not self.worded
            and defence.hull_left
            and not defence.wing_size
            and not isinstance(dice, RecordingDice)
        ):
            # a ship's roll of these numbers enumerated alike whatever its Hull Points left:
            # they decide only whether the hit sinks it (G.5), one for each Hull Points lost
            # (a recording source rolls the same dice either way: directly)
            plain = remembered(_PLAIN, self, _hull_free_of, MAX_PLAIN)
            return _sinking(dice.chance(plain, key=plain.key), defence.hull_left)
        return attack_roll(
            defence,
            dice,
            who=self.who,
            target=self.target,
            weapon_kind=self.weapon_kind,
            words=self.worded,
        )

    def key(self, outcome: AttackRoll) -> Hashable:
        return outcome.summary if self.worded else outcome.summary.effect


def _hull_free_of(roll: AttackRollOf) -> AttackRollOf:
    return _hull_free(roll.defence)


# each roll's hull-free roll by the roll's identity (kept beside it): the exact enumerator
# replays the same roll object once per outcome, and hashing its numbers cost more
_PLAIN: dict[int, tuple[AttackRollOf, AttackRollOf]] = {}
MAX_PLAIN = 1024


@lru_cache(maxsize=1024)
def _hull_free(defence: Defence) -> AttackRollOf:
    """The roll of `defence` read for the states alone on a ship with no Hull Points counted
    (`hull_left` 0: never sunk), the same for every Hull Points left: the exact enumerator
    enumerates it once for them all (`AttackRollOf.__call__`). Its outcomes merged by their
    effect are those of each of them, one for one (`destroyed` follows the Hull Points lost),
    reached in the same order, after as many replays."""
    return AttackRollOf(replace(defence, hull_left=0), worded=False)


def _sinking(roll: AttackRoll, hull_left: int) -> AttackRoll:
    """`roll` of a hull-free ship (`_hull_free`) on one with `hull_left` Hull Points: the
    summary `_result` makes of the same dice there (G.5: sunk once its losses reach them)."""
    s = roll.summary
    return AttackRoll(
        AttackSummary(s.hits, s.saved, s.result, s.hull_lost, s.critical, s.hull_lost >= hull_left),
        roll.events,
    )


@dataclass(frozen=True, slots=True)
class ByCondition(Subroll):
    """An attack's roll (`roll`, read for the states alone) read for the units' conditions
    alone (`model.worded.read_for_conditions`, G.5): its outcomes that leave every condition
    alike (`AttackSummary.condition`) are one, the first reached standing for them (the
    roll is the attack's last: what follows reads no more of it).

    The same dice as `roll`, rolled through it: the exact enumerator enumerates `roll` once
    (remembered for every reader of states), then merges its few outcomes, and refuses it
    at the same bound (no more replays than `roll`'s own)."""

    roll: AttackRollOf

    def __call__(self, dice: Dice) -> AttackRoll:
        return dice.chance(self.roll, key=self.roll.key)

    def key(self, outcome: AttackRoll) -> Hashable:
        return outcome.summary.condition


def attack_roll(
    defence: Defence,
    dice: Dice,
    *,
    who: str = "",
    target: str = "",
    weapon_kind: str = "gunnery",
    words: bool = True,
) -> AttackRoll:
    """Roll one declared attack: pool, saves, thresholds, Critical Hit (plain numbers only).
    `words=False`: the same dice and summary, no events (`AttackRollOf`)."""
    if not words:  # the same sub-rolls in the same order: the same summaries and weights
        steps, key = _plain_pool(defence, who, target)
        rolled = dice.fold(_NO_DICE, steps, key=key)  # `attack_pool`'s fold, its steps kept
        return _result(defence, min(rolled.hits, defence.enough), dice, target, weapon_kind, None)
    pool = attack_pool(
        defence.dice,
        defence.pool,
        defence.enough,
        dice,
        who=who,
        what=f"AD vs {target}",
        words=words,
    )
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
    return _result(defence, min(pool.hits, defence.enough), dice, target, weapon_kind, events)


def _plain_pool(
    defence: Defence, who: str, target: str
) -> tuple[Sequence[Callable[[PoolState, Dice], PoolState]], Callable[[PoolState], Any]]:
    """`attack_pool`'s fold steps and key for `defence` (`pool_steps`, G.5), kept by the
    defence's identity for the last labels: the exact enumerator replays the roll once per
    outcome, each replay asking for the same steps."""
    found = _POOLS.get(id(defence))
    if found is not None and found[0] is defence and found[1] == (who, target):
        return found[2]
    made = pool_steps(defence.dice, defence.pool, defence.enough, who, f"AD vs {target}")
    if len(_POOLS) >= MAX_POOLS:
        _POOLS.clear()
    _POOLS[id(defence)] = (defence, (who, target), made)  # the defence kept beside its id
    return made


_POOLS: dict[int, tuple[Defence, tuple[str, str], Any]] = {}
MAX_POOLS = 1024
_NO_DICE = PoolState(0, 0, ())  # a pool before its first die (immutable: shared)


def _result(
    defence: Defence,
    hits: int,
    dice: Dice,
    target: str,
    weapon_kind: str,
    events: list[Event] | None,
) -> AttackRoll:
    """`attack_roll` after the pool: saves, thresholds, Critical Hit (G.5, R002.49, R002.56),
    its events added to `events`; None: no events at all (read for the state alone)."""
    if defence.wing_size:
        return _wing_result(defence, hits, events, target)
    words = events is not None
    saving = SavesRoll.of(defence, hits, target, weapon_kind, words)
    saves = dice.chance(saving, key=saving.key)
    net = hits - saves.cancelled
    hull = 0
    result = NO_EFFECT
    if net >= defence.damage_rating:
        hull, result = 1, DAMAGE
    critical = None
    crit = None
    if net >= defence.critical_rating:
        result = CRITICAL
        hull += defence.critical_damage
        table = CriticalRollOf(target, words)
        crit = dice.chance(table, key=table.key)
        critical = crit.code
    destroyed = hull >= defence.hull_left > 0
    summary = AttackSummary(net, saves.cancelled, result, hull, critical, destroyed)
    if events is None:
        return AttackRoll(summary, ())
    events.extend(saves.events)
    if crit is not None:
        events.extend(crit.events)
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
    return AttackRoll(summary, tuple(events))


def _wing_result(
    defence: Defence, hits: int, events: list[Event] | None, target: str
) -> AttackRoll:
    """Hits on a Tiny Flyer Wing: `kill_hits` destroy one TF (external); Abort when the hits
    that did not destroy a TF reach the TFs left (R002.56, A002.16). No `events`: none."""
    destroyed = min(defence.wing_size, hits // defence.kill_hits)
    remaining = defence.wing_size - destroyed
    spare = hits - destroyed * defence.kill_hits
    aborted = remaining > 0 and spare >= remaining
    result = (
        "aborted"
        if aborted
        else ("destroyed" if remaining == 0 else (DAMAGE if destroyed else NO_EFFECT))
    )
    summary = AttackSummary(hits, 0, result, 0, None, remaining == 0, destroyed, aborted)
    if events is None:
        return AttackRoll(summary, ())
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
    return AttackRoll(summary, tuple(events))
