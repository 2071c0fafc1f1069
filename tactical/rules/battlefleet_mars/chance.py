"""Battlefleet Mars: the chance part of each attack (seed 000), one function of plain numbers.

`laser_shot` (R000.4-R000.9) and `missile_salvo` (R000.18-R000.24, CIWS by `ciws_fire`,
each survivor's damage by `missile_strike`) are written as folds over small states, so the
same code rolls with `SeededDice`/`ScriptedDice` and is enumerated exactly by
`tactical.dice.enumerate_outcomes`; the fold keys say what each step's outcome matters
through (hit and result; the number of CIWS survivors; whether the target is destroyed
yet). A step that rolls one die and nothing else is a `DieStep`, whose faces the exact
enumerator reads instead of replaying the step. A shot and a salvo are rolled as values
(`LaserRoll`, `SalvoRoll`: sub-rolls), whose outcomes the exact enumerator finds once per
value, not once per enumeration. `combat` declares and resolves the attacks with them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tactical.dice import D10Z, Dice
from tactical.dice.core import DieStep, RecordingDice, Subroll
from tactical.model.worded import worded
from tactical.rules.base import Event
from tactical.rules.battlefleet_mars.outcome import damage_points
from tactical.rules.battlefleet_mars.tables import (
    DESTROYED_RESULT,
    Column,
    ciws_destroys,
    ciws_threshold,
    damage_result,
    destroys,
    laser_damage_total,
    laser_hits,
    laser_loss,
    missile_damage_total,
    range_bracket,
)
from tactical.rules.battlefleet_mars.units import GROUPS

MISS = "miss"


def _roll_event(who: str, what: str, result: int) -> Event:
    return Event.of("roll", "R000.1", who=who, what=what, die=D10Z.name, result=result)


# --------------------------------------------------------------------------- laser


@dataclass(frozen=True, slots=True)
class LaserShot:
    """The chance part of a laser attack: hit or not, the result code, its events."""

    hit: bool
    result: str | None
    events: tuple[Event, ...]

    @property
    def summary(self) -> str:
        return self.result if self.hit and self.result is not None else MISS


def _shot_key(shot: LaserShot) -> Hashable:
    return shot.hit, shot.result


def laser_shot(
    laser_strength: int,
    range_r: int,
    column: Column,
    dice: Dice,
    *,
    who: str = "",
    target: str = "",
) -> LaserShot:
    """R000.4-R000.9: roll to hit, then (on a hit) damage and the T000.2 lookup (`LaserRoll`)."""
    roll = LaserRoll(laser_strength, range_r, column, who, target)
    return dice.chance(roll, key=roll.key)


@dataclass(frozen=True, slots=True)
class LaserRoll(Subroll):
    """A laser shot (R000.4-R000.9) as a value: everything its dice and words depend on.
    The computer players weigh the same shot on many tables, so the exact enumerator finds
    its outcomes once per value; a recording source rolls its dice as the fold does."""

    laser_strength: int
    range_r: int
    column: Column
    who: str
    target: str  # (its events are made either way: no words flag)
    # read for the units' conditions alone (`model.worded.conditions_only`): the target's
    # kind and, a ship's or base's, its room (`key`)
    by_condition: bool = False
    target_kind: str = ""
    room: Room | None = None

    def __call__(self, dice: Dice) -> LaserShot:
        return _laser_shot(
            self.laser_strength, self.range_r, self.column, dice, self.who, self.target
        )

    def key(self, outcome: LaserShot) -> Hashable:
        """What the fold keeps apart: hit and result (not the events). `by_condition`: only
        what the target's condition reads of it (A000.E1): a fighter or missile destroyed
        or not (R000.10, R000.11), a ship's record crippled for sure or its damage points
        (`Room.key`; not the laser strength lost). The shot is the attack's last roll; the
        fold inside keeps hit and result apart as before (the same replays counted)."""
        if self.by_condition:
            if self.target_kind in GROUPS:
                return bool(destroys(outcome.summary, self.target_kind))
            if self.room is not None:
                return self.room.key((outcome.summary,))[:2]
        return _shot_key(outcome)  # (a ship's shot without its room: kept apart)

    def by_conditions(self, target_kind: str, room: Room | None) -> LaserRoll:
        """This shot, its outcomes merged by the target's condition (`key`): `room` the
        target's, None at a fighter or missile group."""
        return LaserRoll(
            self.laser_strength, self.range_r, self.column, self.who, self.target,
            True, target_kind, None if target_kind in GROUPS else room,
        )  # fmt: skip


def _laser_shot(
    laser_strength: int, range_r: int, column: Column, dice: Dice, who: str, target: str
) -> LaserShot:
    """`LaserRoll`'s rolls: a fold of the to-hit and damage steps (R000.4-R000.9); rolled by
    a recording source for the state alone, the same rolls without the fold or words."""
    if not worded() and isinstance(dice, RecordingDice) and type(dice).fold is RecordingDice.fold:
        roll = dice.roll(D10Z, who=who, what=f"laser to-hit vs {target}")
        if not laser_hits(roll, range_r, laser_strength):
            return LaserShot(False, None, ())
        roll = dice.roll(D10Z, who=who, what=f"laser damage vs {target}")
        total = laser_damage_total(roll, laser_strength, range_r)
        return LaserShot(True, damage_result(total, column), ())

    def to_hit(shot: LaserShot, source: Dice) -> LaserShot:
        roll = source.roll(D10Z, who=who, what=f"laser to-hit vs {target}")
        hit = laser_hits(roll, range_r, laser_strength)
        return LaserShot(
            hit,
            None,
            (
                _roll_event(who, "laser to-hit", roll),
                Event.of("to-hit", "R000.4", roll=roll, range=range_r, hit=hit),
            ),
        )

    def damage(shot: LaserShot, source: Dice) -> LaserShot:
        if not shot.hit:
            return shot
        roll = source.roll(D10Z, who=who, what=f"laser damage vs {target}")
        total = laser_damage_total(roll, laser_strength, range_r)
        result = damage_result(total, column)
        return LaserShot(
            True,
            result,
            (
                *shot.events,
                _roll_event(who, "laser damage", roll),
                Event.of(
                    "damage-total",
                    "R000.8",
                    roll=roll,
                    laser_strength=laser_strength,
                    range_term=range_bracket(range_r),
                    total=total,
                ),
                Event.of("lookup", "T000.2", total=total, column=column, result=result),
            ),
        )

    return dice.fold(LaserShot(False, None, ()), (to_hit, damage), key=_shot_key)


# --------------------------------------------------------------------------- missiles


@dataclass(frozen=True, slots=True)
class CiwsVolley:
    """CIWS so far: the numbers (1..n) of the declared missiles still flying, and events."""

    survivors: tuple[int, ...]
    events: tuple[Event, ...]


def _survivor_count(volley: CiwsVolley) -> Hashable:
    return len(volley.survivors)


def ciws_fire(ciws: int, declared: int, dice: Dice, *, target: str = "") -> CiwsVolley:
    """R000.22/R000.23: one CIWS roll per declared missile, k = 1..n in order; d <= T_k destroys.
    The target rolls (`target` names it in the record). Each roll is a `DieStep` that says
    how it moves the survivor count: the exact enumerator convolves the count with the die
    instead of replaying every state's roll (the same states, weights and replays counted)."""
    return dice.fold(CiwsVolley((), ()), _ciws_steps(ciws, declared, target), key=_survivor_count)


@lru_cache(maxsize=512)
def _ciws_steps(ciws: int, declared: int, target: str) -> tuple[DieStep, ...]:
    """The CIWS rolls of a volley as steps, made once per volley (pure functions of these
    numbers): every replay of a resolver rolls the same steps."""
    return tuple(_shoot_at(ciws, k, target) for k in range(1, declared + 1))


def _shoot_at(ciws: int, k: int, target: str) -> DieStep:
    threshold = ciws_threshold(ciws, k)

    def then(volley: CiwsVolley, roll: int) -> CiwsVolley:
        destroyed = ciws_destroys(roll, ciws, k)
        survivors = volley.survivors if destroyed else (*volley.survivors, k)
        if not worded():  # read for the state alone: no words (`model.worded`)
            return CiwsVolley(survivors, ())
        events = (
            *volley.events,
            _roll_event(target, f"CIWS vs missile {k}", roll),
            Event.of(
                "ciws",
                "R000.22",
                missile=k,
                roll=roll,
                threshold=threshold,
                destroyed=destroyed,
            ),
        )
        return CiwsVolley(survivors, events)

    def shift(count: Hashable, roll: int) -> Hashable:  # `_survivor_count` after the roll
        return count if roll <= threshold else count + 1  # type: ignore[operator]  (R000.22)

    return DieStep(D10Z, then, target, f"CIWS vs missile {k}", shift)


@dataclass(frozen=True, slots=True)
class MissileStrike:
    """One surviving missile's attack: its result ("miss" only with the A000.8 roll option)."""

    result: str
    events: tuple[Event, ...]


def missile_strike(
    column: Column,
    options: Mapping[str, Any],
    dice: Dice,
    *,
    who: str = "",
    missile: int = 1,
) -> MissileStrike:
    """R000.13/R000.14: auto-hit (A000.8) or the optional to-hit roll, then T = d + 1."""
    events: list[Event] = []
    if options["missile_to_hit"] == "roll":
        needed = int(options["missile_to_hit_score"])
        roll = dice.roll(D10Z, who=who, what=f"missile {missile} to-hit")
        if worded():  # read for the state alone: every missile's words left out
            events.append(_roll_event(who, f"missile {missile} to-hit", roll))
            events.append(Event.of("to-hit", "A000.8", missile=missile, roll=roll, needed=needed))
        if roll < needed:
            return MissileStrike(MISS, tuple(events))
    roll = dice.roll(D10Z, who=who, what=f"missile {missile} damage")
    return _struck(column, roll, who, missile, tuple(events))


def _struck(
    column: Column, roll: int, who: str, missile: int, before: tuple[Event, ...]
) -> MissileStrike:
    """R000.13: a hitting missile's damage roll `roll`, T = d + 1, looked up (T000.2)."""
    total = missile_damage_total(roll)
    result = damage_result(total, column)
    if not worded():  # read for the state alone: every missile's words left out
        return MissileStrike(result, ())
    return MissileStrike(
        result,
        (
            *before,
            _roll_event(who, f"missile {missile} damage", roll),
            Event.of("damage-total", "R000.13", missile=missile, roll=roll, total=total),
            Event.of("lookup", "T000.2", total=total, column=column, result=result),
        ),
    )


@dataclass(frozen=True, slots=True)
class Strikes:
    """Damage of the survivors so far: results in order, whether the target is destroyed."""

    results: tuple[str, ...]
    destroyed: bool
    events: tuple[Event, ...]


def _destroyed_yet(strikes: Strikes) -> Hashable:
    """What a salvo at fighters or missiles matters through: the target destroyed yet."""
    return strikes.destroyed


@dataclass(frozen=True, slots=True)
class Room:
    """What a ship or base can still take that this game reads (R000.12: its result codes
    go to the base game; here they set its condition, A000.E1, and laser strength,
    A000.11): the damage points that surely cripple it (from its printed strength, never
    below the value its condition is measured against) and the laser strength it has left
    to lose (0 where laser damage is not played)."""

    points: int
    laser: int

    def key(self, results: tuple[str, ...]) -> Hashable:
        """What a salvo's results come to: crippled for sure (then the points no longer
        matter), else the damage points; and the laser strength lost, up to what is left."""
        return self.shifted(
            (False, 0, 0), sum(damage_points(r) for r in results),
            DESTROYED_RESULT in results, sum(laser_loss(r) for r in results),
        )  # fmt: skip

    def shifted(
        self, key: tuple[bool, int, int], points: int, destroyed: bool, laser: int
    ) -> tuple[bool, int, int]:
        """`key` after more results worth `points`, a D among them or not, and `laser`."""
        crippled, total, lost = key
        total += points
        lost = min(lost + laser, self.laser)
        if crippled or destroyed or total >= self.points:
            return (True, 0, lost)
        return (False, total, lost)


def _destroyed_yet(strikes: Strikes) -> Hashable:
    """What a salvo matters through where only its summary is read (the odds), and at
    fighters or missiles (R000.10, R000.11): whether the target is destroyed yet."""
    return strikes.destroyed


@lru_cache(maxsize=4096)
def _strike_step(
    column: Column, target_kind: str, who: str, missile: int, room: Room | None
) -> DieStep:
    """A surviving missile's damage roll (A000.8: it hits; R000.13) as one die and nothing
    else: a `DieStep`, whose faces the exact enumerator reads (and, by `shift`, only where
    the fold's key is reached first) instead of replaying every state's roll; made once
    per missile and target (every replay of a resolver rolls the same steps)."""

    def then(strikes: Strikes, roll: int) -> Strikes:
        return _after_strike(strikes, _struck(column, roll, who, missile, ()), target_kind)

    results = {face: damage_result(missile_damage_total(face), column) for face in D10Z.values}
    if room is None:
        # the faces whose result destroys the target (T000.5; none for ships and bases)
        killing = frozenset(face for face, r in results.items() if destroys(r, target_kind))

        def shift(destroyed: Any, roll: int) -> Hashable:  # `_destroyed_yet` after it
            return bool(destroyed) or roll in killing

    else:
        worth = {
            face: (damage_points(r), r == DESTROYED_RESULT, laser_loss(r))
            for face, r in results.items()
        }

        def shift(key: Any, roll: int) -> Hashable:  # `Room.key` after it
            return room.shifted(key, *worth[roll])

    return DieStep(D10Z, then, who, f"missile {missile} damage", shift)


@lru_cache(maxsize=4096)
def _strike_steps(
    column: Column, target_kind: str, who: str, survivors: tuple[int, ...], room: Room | None
) -> tuple[DieStep, ...]:
    """The survivors' damage rolls as steps (`_strike_step`), made once per salvo's
    survivors and target: every replay of a resolver rolls the same steps."""
    return tuple(_strike_step(column, target_kind, who, m, room) for m in survivors)


def _after_strike(strikes: Strikes, strike: MissileStrike, target_kind: str) -> Strikes:
    """The salvo's damage so far with one more survivor's strike."""
    killed = destroys(strike.result, target_kind)
    return Strikes(
        (*strikes.results, strike.result),
        strikes.destroyed or bool(killed),
        strikes.events + strike.events,
    )


@dataclass(frozen=True, slots=True)
class SalvoSummary:
    """What a missile attack comes to: missiles declared, destroyed by CIWS, target destroyed.

    `target_destroyed` is None against ships and bases, whose result codes go
    to the base game (R000.12).
    """

    declared: int
    ciws_destroyed: int
    target_destroyed: bool | None


@dataclass(frozen=True, slots=True)
class Salvo:
    volley: CiwsVolley
    strikes: Strikes
    summary: SalvoSummary


def missile_salvo(
    declared: int,
    ciws: int | None,
    column: Column,
    target_kind: str,
    options: Mapping[str, Any],
    dice: Dice,
    *,
    who: str = "",
    target: str = "",
    room: Room | None = None,
) -> Salvo:
    """R000.18-R000.24: CIWS at every declared missile first (if `ciws` is a strength), then
    each survivor's strike in order (`SalvoRoll`). The strike fold keeps what the summary
    needs and, given the `room` of a ship or base whose state after the salvo is read, what
    its record comes to (the attack's resolver gives it; the odds read the summary alone)."""
    roll = salvo_roll(
        declared, ciws, column, target_kind, options, who=who, target=target, room=room
    )
    return dice.chance(roll, key=roll.key)


def salvo_roll(
    declared: int,
    ciws: int | None,
    column: Column,
    target_kind: str,
    options: Mapping[str, Any],
    *,
    who: str = "",
    target: str = "",
    room: Room | None = None,
    words: bool | None = None,
    by_condition: bool = False,
) -> SalvoRoll:
    """The salvo `missile_salvo` rolls, as a value (`words`: as `worded()` says now;
    `by_condition`: its outcomes merged by the target's condition, `SalvoRoll.key`)."""
    to_hit = str(options["missile_to_hit"])
    score = int(options["missile_to_hit_score"]) if to_hit == "roll" else None
    said = worded() if words is None else words
    return SalvoRoll(
        declared, ciws, column, target_kind, to_hit, score, who, target, room, said, by_condition
    )


@dataclass(frozen=True, slots=True)
class SalvoRoll(Subroll):
    """A missile salvo (R000.18-R000.24) as a value: everything its dice and words depend
    on. The computer players weigh the same salvo on many tables (the same launcher at the
    same target, whatever else changed), so the exact enumerator finds its outcomes once
    per value; a recording source rolls its dice as the folds do (`_salvo`)."""

    declared: int
    ciws: int | None
    column: Column
    target_kind: str
    to_hit: str  # options["missile_to_hit"] (A000.8)
    score: int | None  # options["missile_to_hit_score"] where it is "roll"
    who: str
    target: str
    room: Room | None
    words: bool  # read for the state alone or not (`model.worded`): its outcomes' events
    # read for the units' conditions alone (`model.worded.conditions_only`): `key`
    by_condition: bool = False

    def __call__(self, dice: Dice) -> Salvo:
        return _salvo(self, dice)

    def key(self, outcome: Salvo) -> Hashable:
        """What the folds keep apart (not the events): the CIWS survivors counted, then
        whether the target is destroyed yet or what a ship's record comes to (`Room.key`).
        `by_condition`: only what the target's condition reads of it (A000.E1): whether it
        is destroyed yet, or a ship's record crippled for sure or its damage points; not
        the survivors nor the laser strength lost (the salvo is the attack's last roll, and
        the folds inside keep them apart as before: the same replays counted)."""
        if self.by_condition:
            if self.target_kind in GROUPS:
                return outcome.strikes.destroyed
            if self.room is not None:
                return self.room.key(outcome.strikes.results)[:2]
        # (a salvo at a ship without its room: kept apart as without `by_condition`)
        return len(outcome.volley.survivors), self._strikes_key(outcome.strikes)

    def _strikes_key(self, strikes: Strikes) -> Hashable:
        room = self.ship_room
        return strikes.destroyed if room is None else room.key(strikes.results)

    @property
    def ship_room(self) -> Room | None:
        """The room the strikes fold by: a ship's or base's whose state is read (none at
        fighters or missiles, R000.10 and R000.11, whose destruction is tracked instead)."""
        return None if self.target_kind in GROUPS else self.room


def _salvo(plan: SalvoRoll, dice: Dice) -> Salvo:
    """`SalvoRoll`'s rolls: the CIWS fold, then the strikes fold (R000.18-R000.24); rolled
    by a recording source for the state alone, the same rolls without the folds' states
    (`_recorded_salvo`: the computer players try every candidate with seeded dice)."""
    if (
        not plan.words
        and plan.to_hit != "roll"
        and isinstance(dice, RecordingDice)
        and type(dice).fold is RecordingDice.fold
    ):
        return _recorded_salvo(plan, dice)
    return _folded_salvo(plan, dice)


def _recorded_salvo(plan: SalvoRoll, dice: RecordingDice) -> Salvo:
    """`_folded_salvo` for a recording source, no words and the damage roll only (A000.8):
    each step's die rolled under its own names in the same order (R000.22, then R000.13
    for each survivor), and the same salvo made from the rolls at the end."""
    declared, column, kind = plan.declared, plan.column, plan.target_kind
    if plan.ciws is None:
        survivors = tuple(range(1, declared + 1))
    else:
        steps = _ciws_steps(plan.ciws, declared, plan.target)
        survivors = tuple(
            k
            for k, step in enumerate(steps, start=1)
            if not ciws_destroys(dice.roll(step.die, who=step.who, what=step.what), plan.ciws, k)
        )
    results = []
    destroyed = False
    for step in _strike_steps(column, kind, plan.who, survivors, plan.ship_room):
        roll = dice.roll(step.die, who=step.who, what=step.what)
        result = damage_result(missile_damage_total(roll), column)
        results.append(result)
        destroyed = destroyed or bool(destroys(result, kind))
    summary = SalvoSummary(
        declared, declared - len(survivors), destroyed if kind in GROUPS else None
    )
    return Salvo(CiwsVolley(survivors, ()), Strikes(tuple(results), destroyed, ()), summary)


def _folded_salvo(plan: SalvoRoll, dice: Dice) -> Salvo:
    """`_salvo` as folds: any source (the exact enumerator reads their steps)."""
    declared, column, target_kind, who = plan.declared, plan.column, plan.target_kind, plan.who
    if plan.ciws is None:
        volley = CiwsVolley(tuple(range(1, declared + 1)), ())
    else:
        volley = ciws_fire(plan.ciws, declared, dice, target=plan.target)

    options = {"missile_to_hit": plan.to_hit, "missile_to_hit_score": plan.score}

    def strike_with(missile: int):
        def step(strikes: Strikes, source: Dice) -> Strikes:
            strike = missile_strike(column, options, source, who=who, missile=missile)
            return _after_strike(strikes, strike, target_kind)

        return step

    tracks_destruction = target_kind in GROUPS
    # what the strikes matter through: whether the target is destroyed yet, or, at a ship
    # or base whose state is read (`room`), what its record comes to (`Room.key`)
    ship_room = plan.ship_room
    key = _destroyed_yet if ship_room is None else lambda strikes: ship_room.key(strikes.results)
    if plan.to_hit != "roll":  # A000.8: the damage roll only
        steps = _strike_steps(column, target_kind, who, volley.survivors, ship_room)
    else:
        steps = tuple(strike_with(m) for m in volley.survivors)
    strikes = dice.fold(Strikes((), False, ()), steps, key=key)
    summary = SalvoSummary(
        declared,
        declared - len(volley.survivors),
        strikes.destroyed if tracks_destruction else None,
    )
    return Salvo(volley, strikes, summary)
