"""Piloting: Advantage and Initiative (R003.10-R003.14), strafing runs (R003.21-R003.24)
and forming fighter wings (R003.30, R003.31).

Every pilot roll is Agility + Pilot (the less-skilled pilot's for a wing, R003.31; the
pilot's or helm officer's skill for a crewed ship) with the character's multiple-action
penalty (R003.8) and any crew steps on that station.

The pilot roll itself is `pilot_rolls`; collisions and ramming (R003.15-R003.20),
which a strafing run risks, are `collisions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.dice import Dice, Die
from tactical.dice.core import DieStep
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import memo_of
from tactical.rules.base import Event, Resolution
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.acting import require_active
from tactical.rules.cortex_space.collisions import (
    obstacle_of,
    other_pool,
    pilot_collides,
    table_difficulty,
)
from tactical.rules.cortex_space.damage import damage_dealt, target_of
from tactical.rules.cortex_space.pilot_rolls import PilotRoll, modifier_events, pilot_roll
from tactical.rules.cortex_space.positions import (
    centre_distance,
    edge_distance,
    in_formation,
    strafe_inches,
)
from tactical.rules.cortex_space.rolls import (
    Pool,
    PoolRoll,
    composite_roll,
    opposed,
    outcome,
    pool_composite,
    roll_pool,
    skill_pool,
    succeeded,
)
from tactical.rules.cortex_space.tables import AVERAGE, HARD, strafing_difficulty
from tactical.rules.cortex_space.tracker import StepModifier
from tactical.rules.cortex_space.units import MAX_WING, settings, vessel
from tactical.rules.lookups import table_unit


def _pool_chance(pool: Pool, dice: Dice, who: str, what: str) -> PoolRoll:
    return roll_pool(pool, dice, who=who, what=what)


# --------------------------------------------------------------------------- dogfighting


@dataclass(frozen=True, slots=True)
class AdvantageSummary:
    """R003.11 / R003.14: who holds the Advantage (None on a tie) and by how many steps."""

    holder: str | None
    steps: int


def advantage_roll(
    state: GameState, unit: Unit, opponent: Unit, options: Mapping[str, Any]
) -> PilotRoll:
    """R003.10 / R003.12: Agility + Pilot + DOGFIGHTING, +1 step for holding the Advantage
    over the same opponent last turn (A003.8)."""
    bonus = ()
    if (unit.id, opponent.id) in tracker.get(state, tracker.PREVIOUS_ADVANTAGE, ()):
        bonus = (StepModifier("held the Advantage last turn", 1, "R003.12"),)
    return pilot_roll(state, unit, options, counts=False, bonus=bonus, trait=True)


def _rolls_key(rolls: tuple) -> tuple:
    """What the opposed rolls come to: each total and botch (R003.5, R003.6)."""
    return tuple((roll.total, roll.botch) for roll in rolls)


def _opposed_steps(
    first: Pool, second: Pool, who: str, against: str, roll_first: Any, roll_second: Any
) -> tuple:
    """The two Advantage rolls as fold steps: each pool rolled as one composite die a
    `DieStep` (`rolls.pool_composite`), which the exact odds read face by face instead of
    replaying it once per state and face (the same rolls, states, weights, order and
    replay counts); a pool rolled die by die its step as given."""
    steps = [roll_first, roll_second]
    for number, (pool, roller) in enumerate(((first, who), (second, against))):
        rolled = pool_composite(pool)
        if rolled is None:
            continue
        die, count = rolled

        def then(rolls: tuple, total: int, die: Die = die, count: int = count) -> tuple:
            return (*rolls, composite_roll(die, count, total))

        def shift(key: Any, total: int, count: int = count) -> tuple:
            return (*key, (total, total == count))

        steps[number] = DieStep(die, then, roller, "Advantage", shift)
    return tuple(steps)


def advantage_steps(winner_extraordinary: bool, loser_botched: bool) -> int:
    """R003.14: the modifiers become 2 steps on a botch by the loser or an extraordinary
    win, else 1 (R003.13)."""
    return 2 if winner_extraordinary or loser_botched else 1


def resolve_advantage(state: GameState, unit_id: str, opponent_id: str, dice: Dice) -> Resolution:
    """R003.10-R003.14: the opposed Advantage rolls of two vessels; both results are also
    their Initiative this turn (the winner acts first, R003.11)."""
    options = settings(state)
    unit = table_unit(state, unit_id, "dogfighting")
    opponent = table_unit(state, opponent_id, "opposing")
    if unit.side == opponent.side:
        raise UserError(f"{unit.id!r} and {opponent.id!r} are on the same side", spec_id="R003.10")
    if not options["dogfighting"]:
        raise UserError("dogfighting is not in play (option dogfighting)", spec_id="R003.10")
    for who in (unit, opponent):
        require_active(who, vessel(who), "dogfight")
        if who.id in tracker.table(state, tracker.INITIATIVE):
            raise UserError(f"{who.id!r} has already rolled for this turn", spec_id="R003.10")
    first = advantage_roll(state, unit, opponent, options)
    second = advantage_roll(state, opponent, unit, options)

    def roll_first(rolls: tuple, source: Dice) -> tuple:
        return (_pool_chance(first.pool, source, unit.id, "Advantage"),)

    def roll_second(rolls: tuple, source: Dice) -> tuple:
        return (*rolls, _pool_chance(second.pool, source, opponent.id, "Advantage"))

    a, b = dice.fold(
        (),
        _opposed_steps(first.pool, second.pool, unit.id, opponent.id, roll_first, roll_second),
        key=_rolls_key,
    )
    contest = opposed(a.total, b.total)
    events = [
        Event.of("declare", "R003.10", unit=unit.id, opponent=opponent.id),
        *modifier_events(first.modifiers, f"{unit.id} Advantage"),
        *modifier_events(second.modifiers, f"{opponent.id} Advantage"),
        *a.events(unit.id, "Advantage", "R003.10"),
        *b.events(opponent.id, "Advantage", "R003.10"),
    ]
    initiative = (
        tracker.table(state, tracker.INITIATIVE).set(unit.id, a.total).set(opponent.id, b.total)
    )
    new_state = state.with_rule_state(**{tracker.INITIATIVE: initiative})
    if contest.winner is None:
        events.append(Event.of("advantage", "A003.6", holder=None, simultaneous=True))
        return Resolution(new_state, tuple(events), AdvantageSummary(None, 0))
    holder, against = (unit, opponent) if contest.winner == 0 else (opponent, unit)
    loser_roll = b if contest.winner == 0 else a
    steps = advantage_steps(contest.extraordinary, loser_roll.botch)
    entry = FrozenMap(holder=holder.id, against=against.id, steps=steps)
    advantages = (*tracker.get(state, tracker.ADVANTAGE, ()), entry)
    new_state = new_state.with_rule_state(**{tracker.ADVANTAGE: advantages})
    events.append(
        Event.of(
            "advantage",
            "R003.14" if steps == 2 else "R003.11",
            holder=holder.id,
            against=against.id,
            steps=steps,
            extraordinary=contest.extraordinary,
            loser_botched=loser_roll.botch,
        )
    )
    return Resolution(new_state, tuple(events), AdvantageSummary(holder.id, steps))


def initiative_pool(unit: Unit) -> Pool:
    """Initiative of a vessel not dogfighting: Agility + Alertness (base Cortex, G.5), the
    less-skilled pilot's vessel for a wing (R003.31)."""
    card = vessel(unit)
    return Pool(
        skill_pool(("agility", card.agility)).dice + skill_pool(("alertness", card.alertness)).dice
    )


def resolve_initiative(state: GameState, unit_id: str, dice: Dice) -> Resolution:
    """A vessel's Initiative roll; the order of action follows the results (R003.11)."""
    who, pool, declared = _initiative_plan(state, unit_id)
    roll = roll_pool(pool, dice, who=who, what="Initiative")
    new_state = tracker.put(state, tracker.INITIATIVE, who, roll.total)
    events = (declared, *roll.events(who, "Initiative", "R003.11"))
    return Resolution(new_state, events, roll.total)


def _initiative_plan(state: GameState, unit_id: str) -> tuple[str, Pool, Event]:
    """`resolve_initiative`'s checks, pool and declaration before the roll, remembered while
    the state lives (by its identity, `memo_of`): the exact odds resolve the same roll on
    the same state once per outcome. A refused roll raises each time."""
    memo = memo_of(_INITIATIVES, state)
    found = memo.get(unit_id)
    if found is None:
        unit = table_unit(state, unit_id, "rolling")
        require_active(unit, vessel(unit), "roll for Initiative")
        if unit.id in tracker.table(state, tracker.INITIATIVE):
            raise UserError(f"{unit.id!r} has already rolled for this turn", spec_id="R003.10")
        declared = Event.of("declare", "R003.11", unit=unit.id)
        found = memo[unit_id] = (unit.id, initiative_pool(unit), declared)
    return found


_INITIATIVES: dict[int, tuple[Any, dict]] = {}  # initiative plans by state, then by unit


# --------------------------------------------------------------------------- strafing


@dataclass(frozen=True, slots=True)
class StrafeSummary:
    """R003.22-R003.24: "collided" (run aborted), "failed" or "strafing"."""

    result: str
    stun: int
    wound: int


def resolve_strafe(state: GameState, unit_id: str, target_id: str, dice: Dice) -> Resolution:
    """R003.21-R003.24: avoid collision, then the run against T003.6 by the target's Strength
    (A003.14); success leaves only the target's point defense able to attack this turn."""
    options = settings(state)
    if not options["strafing_runs"]:
        raise UserError("strafing runs are not in play (option strafing_runs)", spec_id="R003.21")
    unit = table_unit(state, unit_id, "strafing")
    target = table_unit(state, target_id, "strafed")
    card, target_card = vessel(unit), vessel(target)
    require_active(unit, card, "strafe")
    if card.scale != "planetcraft":
        raise UserError(
            f"only a planetcraft-scale vessel may strafe; {unit.id!r} is {card.scale} scale",
            spec_id="R003.21",
        )
    if target_card.scale != "spacecraft" or target.side == unit.side:
        raise UserError(f"{target.id!r} is not an enemy spacecraft", spec_id="R003.21")
    reach = strafe_inches(options)
    if edge_distance(unit, target) > reach + 1e-9:
        raise UserError(
            f'{unit.id!r} must close to within 30 feet ({reach:.3g}") of {target.id!r} to strafe',
            spec_id="R003.22",
        )
    roll = pilot_roll(state, unit, options)
    obstacle = obstacle_of(state, target.id)
    difficulty = table_difficulty(unit, obstacle)
    new_state, crash, _, events = pilot_collides(
        state, unit, obstacle, roll, dice, other_pool(state, obstacle, options, True), difficulty
    )
    start = target_of(card)
    if crash.pending[:1] == ("collided",):
        summary = StrafeSummary("collided", *damage_dealt(start, crash.pilot))
        return Resolution(
            new_state,
            (
                Event.of("declare", "R003.21", unit=unit.id, target=target.id),
                *events,
                Event.of("outcome", "R003.22", result="collided", aborted=True),
            ),
            summary,
        )
    needed = strafing_difficulty(target_card.strength)
    run = roll_pool(roll.pool, dice, who=unit.id, what="strafing run")
    result = outcome(run.total, run.botch, needed)
    events = (
        *events,
        *run.events(unit.id, "strafing run", "R003.23"),
        Event.of(
            "strafing-run",
            "R003.23",
            strength=target_card.strength.name,
            difficulty=needed,
            roll=run.total,
            result=result,
        ),
    )
    if succeeded(result):
        new_state = tracker.put(new_state, tracker.STRAFING, unit.id, target.id)
    verdict = "strafing" if succeeded(result) else "failed"
    summary = StrafeSummary(verdict, 0, 0)
    return Resolution(
        new_state,
        (
            Event.of("declare", "R003.21", unit=unit.id, target=target.id),
            *modifier_events(roll.modifiers, "strafing"),
            *events,
            Event.of(
                "outcome", "R003.24", result=verdict, only_point_defense=verdict == "strafing"
            ),
        ),
        summary,
    )


# --------------------------------------------------------------------------- fighter wings


def join_difficulty(strengths: list) -> int:
    """R003.30: AVERAGE (7), HARD (11) when the wing mixes Strength die types."""
    return HARD if len({s.step for s in strengths}) > 1 else AVERAGE


def _member_of(unit: Unit) -> dict[str, Any]:
    card = vessel(unit)
    stats = unit.stats
    return {
        "id": unit.id,
        "pilot": str(stats.get("pilot", "d6")),
        "gunnery": str(stats.get("gunnery", "d6")),
        "strength": str(stats.get("strength", "d6")),
        "life_points": card.printed_life_points,
        "wound": card.wound,
        "stun": card.stun,
        # its damage as its own track counts it (R003.58), the wing's tracks being its own
        **({"lp_multiple": card.lp_multiple} if card.lp_multiple != 1 else {}),
    }


def resolve_join(state: GameState, unit_id: str, wing_id: str, dice: Dice) -> Resolution:
    """R003.30: a fighter in formation rolls Agility + Pilot to join; on success the wing
    holds it as a member (at most six) and it leaves the table as a model of its own."""
    plan = _join_plan(state, unit_id, wing_id)
    rolled = roll_pool(plan.roll.pool, dice, who=plan.unit_id, what="join wing")
    result = outcome(rolled.total, rolled.botch, plan.difficulty)
    events = (
        *plan.events,
        *rolled.events(plan.unit_id, "join wing", "R003.30"),
        Event.of(
            "join-wing", "R003.30", difficulty=plan.difficulty, roll=rolled.total, result=result
        ),
    )
    if not succeeded(result):
        return Resolution(plan.rolled, events, result)
    joined, fighters = plan.joined()
    return Resolution(
        joined, (*events, Event.of("wing", "R003.31", wing=plan.wing.id, fighters=fighters)), result
    )


class _JoinPlan:
    """What `resolve_join` decides before its roll (R003.30): the checks passed, the pool,
    the Difficulty, the state once the roll is counted as the pilot's action, the events
    before the roll; and, made when first asked, the state once the fighter has joined."""

    __slots__ = ("_joined", "difficulty", "events", "roll", "rolled", "unit", "unit_id", "wing")

    def __init__(self, state: GameState, unit_id: str, wing_id: str) -> None:
        options = settings(state)
        if not options["fighter_wings"]:
            raise UserError(
                "fighter wings are not in play (option fighter_wings)", spec_id="R003.30"
            )
        unit, wing = table_unit(state, unit_id, "joining"), table_unit(state, wing_id, "wing")
        card, wing_card = vessel(unit), vessel(wing)
        require_active(unit, card, "join a wing")
        require_active(wing, wing_card, "take a fighter")
        if unit.id == wing.id or unit.side != wing.side:
            raise UserError(f"{unit.id!r} can only join a friendly fighter", spec_id="R003.30")
        if card.is_wing or card.scale == "spacecraft" or wing_card.scale == "spacecraft":
            raise UserError(
                "only single fighters (not spacecraft) join a fighter or a wing", spec_id="R003.30"
            )
        size = len(wing_card.fighters) if wing_card.is_wing else 1
        if size + 1 > MAX_WING:
            raise UserError(
                f"{wing.id!r} already has {size} fighters: a wing is at most six",
                spec_id="R003.30",
            )
        if not in_formation(unit, wing, options):
            raise UserError(
                f'{unit.id!r} must be within {options["wing_inches"]}" of {wing.id!r} at the '
                f"same speed and heading (within {options['wing_heading_tolerance']} degrees) "
                "to join",
                spec_id="GEO003.2",
            )
        strengths = (
            [m.strength for m in wing_card.fighters] if wing_card.is_wing else [wing_card.strength]
        )
        self.unit, self.wing, self.unit_id = unit, wing, unit.id
        self.difficulty = join_difficulty([*strengths, card.strength])
        self.roll = pilot_roll(state, unit, options)
        self.rolled = tracker.count_action(state, self.roll.character)
        self.events = (
            Event.of(
                "declare",
                "R003.30",
                unit=unit.id,
                wing=wing.id,
                distance=round(centre_distance(unit, wing), 6),
            ),
            *modifier_events(self.roll.modifiers, "join wing"),
        )
        self._joined: tuple[GameState, int] | None = None

    def joined(self) -> tuple[GameState, int]:
        """The state once the fighter has joined the wing, and the wing's fighters."""
        if self._joined is None:
            wing = self.wing
            members = [dict(m) for m in wing.stats.get("members", ())] or [_member_of(wing)]
            members.append(_member_of(self.unit))
            new_state = self.rolled.replace_unit(wing.with_stats(members=members))
            new_state = tracker.mark_done(new_state.without_unit(self.unit_id), self.unit_id)
            self._joined = (new_state, len(members))
        return self._joined


def _join_plan(state: GameState, unit_id: str, wing_id: str) -> _JoinPlan:
    """`_JoinPlan`, remembered while the state lives (by its identity, `memo_of`): the exact
    odds resolve the same join on the same state once per outcome of its roll. A refused
    join raises each time."""
    memo = memo_of(_JOINS, state)
    key = (unit_id, wing_id)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _JoinPlan(state, unit_id, wing_id)
    return found


_JOINS: dict[int, tuple[Any, dict]] = {}  # join plans by state (`memo_of`), then by names
