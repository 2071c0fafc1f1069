"""Cortex rolls (SPEC §4.1): dice pools, step modifiers, outcomes, opposed rolls, damage.

A roll is a `Pool` of step dice (attribute, skill, trait: R003.3) whose step
modifiers were summed and applied to the skill die, or to the attribute die
when the roll has no skill die (R003.2, A003.32). `roll_pool` rolls the pool
through the injected `Dice` source as one composite die (`pool_die`: a face for
every combination of the physical dice, reading their sum), so a seeded source
draws exactly as if each die were rolled, a scripted source replays the totals
the source examples give ("rolls a 20"), and the exact enumerator branches once
per total. A botch, every die a one (R003.5), is the smallest total. Pools too
large to list are rolled die by die in a fold keyed by (total, all ones so far).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from tactical.dice import Dice, Die, StepDie, numbered_die
from tactical.errors import UserError
from tactical.rules.base import Event
from tactical.rules.cortex_space.tables import EXTRAORDINARY_MARGIN

Outcome = Literal["botch", "failure", "success", "extraordinary"]
_STEP_TEXT = re.compile(r"d(\d+)(?:\+d(\d+))*")
_COUNT_TEXT = re.compile(r"(\d+)d(\d+)")
NO_DIE = StepDie(0)
D8 = numbered_die(8)  # T003.4, T003.18


def parse_step_die(text: str, *, what: str = "die") -> StepDie:
    """'d8', 'd12+d2', 'none' or '' as a step die (R003.1); UserError otherwise."""
    return _parse_step_die(text, what)


@lru_cache(maxsize=1024)
def _parse_step_die(text: str, what: str) -> StepDie:
    cleaned = text.replace(" ", "").lower()
    if cleaned in ("", "none", "-"):
        return NO_DIE
    if not _STEP_TEXT.fullmatch(cleaned):
        raise UserError(
            f"{what} {text!r} is not a Cortex step die (expected d2..d12 or d12+dN, e.g. d12+d4)",
            spec_id="R003.1",
        )
    sides = [int(part[1:]) for part in cleaned.split("+")]
    return StepDie.from_sides(sides)


@dataclass(frozen=True, slots=True)
class DamageDice:
    """A weapon's damage: a step die (steppable, R003.32/R003.36) or `count` dice of `sides`
    (missile warheads such as 4d6, T003.17)."""

    step: StepDie | None
    count: int = 0
    sides: int = 0

    @property
    def dice(self) -> tuple[Die, ...]:
        if self.step is not None:
            return _dice_of(self.step)
        return (numbered_die(self.sides),) * self.count

    def up(self, steps: int) -> DamageDice:
        """Stepped up (step dice only; pooled warhead dice do not step)."""
        if self.step is None or steps == 0:
            return self
        return DamageDice(self.step.up(steps))

    @property
    def name(self) -> str:
        if self.step is not None:
            return self.step.name
        return f"{self.count}d{self.sides}"


def parse_damage(text: str, *, what: str = "damage") -> DamageDice:
    """'d8', 'd12+d2' (step dice) or '4d6' (a warhead's dice); UserError otherwise."""
    return _parse_damage(text, what)


@lru_cache(maxsize=1024)
def _parse_damage(text: str, what: str) -> DamageDice:
    cleaned = text.replace(" ", "").lower()
    counted = _COUNT_TEXT.fullmatch(cleaned)
    if counted and int(counted.group(1)) > 1:
        count, sides = int(counted.group(1)), int(counted.group(2))
        if not 1 <= count <= 20 or sides not in (2, 4, 6, 8, 10, 12):
            raise UserError(
                f"{what} {text!r}: expected up to 20 dice of d2..d12", spec_id="R003.61"
            )
        return DamageDice(None, count, sides)
    if counted:
        cleaned = cleaned[1:]
    return DamageDice(parse_step_die(cleaned, what=what))


@dataclass(frozen=True, slots=True)
class PoolDie:
    """One die of a roll: its role and name (e.g. skill 'pilot') and its step die."""

    role: Literal["attribute", "skill", "trait"]
    name: str
    die: StepDie


@dataclass(frozen=True, slots=True)
class Pool:
    """A roll's dice after step modifiers (`steps` is the sum applied, R003.2)."""

    dice: tuple[PoolDie, ...]
    steps: int = 0

    @property
    def text(self) -> str:
        return " + ".join(d.die.name for d in self.dice if d.die.step > 0) or "no dice"


def skill_pool(
    attribute: tuple[str, StepDie],
    skill: tuple[str, StepDie] | None = None,
    trait: tuple[str, StepDie] | None = None,
    steps: int = 0,
) -> Pool:
    """R003.2, R003.3: attribute + skill (+ trait) with the summed step modifiers applied to the
    skill die, or to the attribute die when the roll has no skill die (A003.32)."""
    has_skill = skill is not None and skill[1].step > 0
    attribute_die = attribute[1] if has_skill else attribute[1].up(steps)
    dice = [PoolDie("attribute", attribute[0], attribute_die)]
    if has_skill:
        assert skill is not None
        dice.append(PoolDie("skill", skill[0], skill[1].up(steps)))
    if trait is not None and trait[1].step > 0:
        dice.append(PoolDie("trait", trait[0], trait[1]))
    return Pool(tuple(dice), steps)


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """A rolled pool: total (R003.3), botch flag (R003.5) and each die's (name, result)."""

    total: int
    botch: bool
    faces: tuple[tuple[str, int], ...] = ()

    def events(self, who: str, what: str, spec_id: str = "R003.3") -> tuple[Event, ...]:
        rolls = tuple(
            Event.of("roll", "R003.1", who=who, what=what, die=name, result=result)
            for name, result in self.faces
        )
        return (
            *rolls,
            Event.of("total", spec_id, who=who, what=what, total=self.total, botch=self.botch),
        )


def _pool_key(roll: PoolRoll) -> tuple[int, bool]:
    return roll.total, roll.botch


MAX_POOL_FACES = 250_000  # a pool rolled as one composite die up to this many combinations


@lru_cache(maxsize=1024)
def pool_die(sides: tuple[int, ...]) -> Die | None:
    """The dice of a roll as one composite die: a face for every combination of the physical
    dice, reading their sum (None for pools too large to list).

    Rolling it is rolling the dice and adding them (R003.3), and a botch, every die a one
    (R003.5), is exactly the smallest sum, the number of dice. The exact enumerator then
    branches once per pool total instead of once per die."""
    faces = 1
    for count in sides:
        faces *= count
    if faces > MAX_POOL_FACES:
        return None
    sums = np.zeros(1, dtype=np.int64)
    for count in sides:
        sums = np.add.outer(sums, np.arange(1, count + 1)).ravel()
    return Die("+".join(f"d{count}" for count in sides), tuple(int(v) for v in sums))


def _roll_dice(physical: list[Die], dice: Dice, who: str, what: str) -> PoolRoll:
    if not physical:
        return PoolRoll(0, False)
    composite = pool_die(tuple(die.sides for die in physical))
    if composite is not None:
        total = dice.roll(composite, who=who, what=what)
        return PoolRoll(total, total == len(physical), ((composite.name, total),))

    def throw(die: Die):
        def step(roll: PoolRoll, source: Dice) -> PoolRoll:
            result = source.roll(die, who=who, what=what)
            return PoolRoll(
                roll.total + result, roll.botch and result == 1, (*roll.faces, (die.name, result))
            )

        return step

    return dice.fold(PoolRoll(0, True), [throw(die) for die in physical], key=_pool_key)


def pool_composite(pool: Pool) -> tuple[Die, int] | None:
    """The pool as `roll_pool` rolls it in one roll: its composite die (`pool_die`) and the
    count of physical dice (a botch reads that total, R003.5); None for no dice or a pool
    rolled die by die."""
    return _pool_dice(pool)[1]


@lru_cache(maxsize=1024)
def _pool_dice(pool: Pool) -> tuple[tuple[Die, ...], tuple[Die, int] | None]:
    """A pool's physical dice (`roll_pool`) and its composite die and count (`_composite`),
    by the pool's value: every roll of a pool the exact odds replay asks them again."""
    physical = tuple(die for entry in pool.dice for die in _dice_of(entry.die))
    return physical, _composite(physical)


def damage_composite(damage: DamageDice) -> tuple[Die, int] | None:
    """`pool_composite` of a weapon's damage die (or a warhead's dice), as `roll_damage`
    rolls them."""
    return _composite(damage.dice)


def _composite(physical: tuple[Die, ...]) -> tuple[Die, int] | None:
    if not physical:
        return None
    composite = pool_die(tuple(die.sides for die in physical))
    return None if composite is None else (composite, len(physical))


def composite_roll(composite: Die, count: int, total: int) -> PoolRoll:
    """What `roll_pool` or `roll_damage` returns when its composite die of `count` dice
    reads `total` (R003.3, R003.5)."""
    return PoolRoll(total, total == count, ((composite.name, total),))


def roll_pool(pool: Pool, dice: Dice, *, who: str = "", what: str = "") -> PoolRoll:
    """Roll every die of the pool (R003.3) and flag a botch when all show 1 (R003.5)."""
    physical, composite = _pool_dice(pool)
    if composite is not None:  # `_roll_dice`'s one roll of the composite die
        die, count = composite
        total = dice.roll(die, who=who, what=what)
        return PoolRoll(total, total == count, ((die.name, total),))
    return _roll_dice(list(physical), dice, who, what)


@lru_cache(maxsize=64)
def _dice_of(step: StepDie) -> tuple[Die, ...]:
    return step.dice


def roll_damage(damage: DamageDice, dice: Dice, *, who: str = "", what: str = "") -> PoolRoll:
    """Roll a weapon's damage die (or a warhead's dice) and total it."""
    return _roll_dice(list(damage.dice), dice, who, what)


def outcome(total: int, botch: bool, difficulty: int) -> Outcome:
    """R003.5: botch (all ones) first, then extraordinary (>= D + 7), success (>= D), failure."""
    if botch:
        return "botch"
    if total >= difficulty + EXTRAORDINARY_MARGIN:
        return "extraordinary"
    if total >= difficulty:
        return "success"
    return "failure"


def succeeded(result: Outcome) -> bool:
    return result in ("success", "extraordinary")


@dataclass(frozen=True, slots=True)
class Opposed:
    """R003.6: the winner (0 = first, 1 = second, None = tie) and whether it is extraordinary."""

    winner: int | None
    extraordinary: bool


def opposed(first: int, second: int) -> Opposed:
    """R003.6: higher wins, equal = no winner; extraordinary when winner >= loser + 7."""
    if first == second:
        return Opposed(None, False)
    if first > second:
        return Opposed(0, first >= second + EXTRAORDINARY_MARGIN)
    return Opposed(1, second >= first + EXTRAORDINARY_MARGIN)


@dataclass(frozen=True, slots=True)
class Basic:
    """R003.7: Basic damage split: Stun = ceil(B/2), Wound = floor(B/2) (A003.5)."""

    stun: int
    wound: int

    def event(self, margin: int, die: int, spec_id: str = "R003.7") -> Event:
        """The "basic-damage" event: the margin the split came from (as rolled, before the
        floor at zero), the split, and the damage die's total to be added to Wound."""
        return Event.of(
            "basic-damage", spec_id, basic=margin, stun=self.stun, wound=self.wound, die=die
        )


def basic_damage(points: int) -> Basic:
    """R003.7 / A003.5: the odd point goes to Stun; no damage below zero."""
    points = max(0, points)
    return Basic((points + 1) // 2, points // 2)


def attack_hits(attack: int, attack_botch: bool, defense: int) -> bool:
    """R003.7 / A003.6: hit iff attack >= defense (meet-or-beat); a botched attack misses
    (R003.5: the botch takes precedence)."""
    return not attack_botch and attack >= defense


def is_extraordinary_hit(attack: int, defense: int) -> bool:
    """R003.5 / R003.6 / A003.3: an extraordinary hit beats the defense by 7 or more."""
    return attack >= defense + EXTRAORDINARY_MARGIN


def multi_action_steps(action_number: int) -> int:
    """R003.8 / A003.27: the k-th action in a turn is at -(k-1) steps."""
    if action_number < 1:
        raise UserError(f"actions are counted from 1, got {action_number}", spec_id="R003.8")
    return -(action_number - 1)


@dataclass(frozen=True, slots=True)
class ComplexAction:
    """R003.9: a Threshold reached by one roll per turn; `total` so far."""

    threshold: int
    total: int = 0

    def add(self, roll: int) -> ComplexAction:
        return ComplexAction(self.threshold, self.total + roll)

    @property
    def reached(self) -> bool:
        return self.total >= self.threshold
