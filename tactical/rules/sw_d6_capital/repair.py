"""The Damage Control Phase (R004.18-R004.24, R004.53): regeneration, repairs, shields.

- Regeneration (R004.19), once per turn as the phase begins: Shields Drained
  return in full; 1D of the shields knocked down by ion weapons returns.
- The Damage Control roll (R004.20-R004.23): current CSO (after the damage-state
  penalty, R004.18) - the order's MAP + 1D per additional repair action (at most
  one per full 1D of current CSO, A004.10) + the Command Tracker, against 10 per
  started 1D of shields covered plus 10/20/30 for the damage level covered
  (T004.3). Full success repairs all covered; failing by 1-10 drops the level one
  step, or restores 1D of shields when they were covered and the captain prefers
  it (T004.4); failing by 11+ does nothing. Afterwards every Action-Phase action
  suffers -(1 + a)D (R004.21).
- Reactor shutdown (T004.9 #2): an Easy repair roll (R004.4: 10) with the same code.
- Astromech repair (R004.53): a starfighter's astromech repairs a Lightly Damaged
  result (Easy, +10 per further Lightly Damaged result still unrepaired, A004.37)
  or its shields (Easy), with no MAP.
- Angling shields (R004.24): a capital ship allocates its shield pips freely over
  front, right, rear and left; a fighter must roll Shields (Easy, A004.36) to change
  the placement and takes a 1D MAP for it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tactical.dice import Dice, Distribution, enumerate_outcomes
from tactical.errors import UserError
from tactical.rules.base import Event
from tactical.rules.sw_d6_capital.codes import CodeRoll, code_text, parse_code, roll_code
from tactical.rules.sw_d6_capital.condition import (
    Condition,
    refill_shields,
    repair_to,
    restore_shields,
    shield_repair_pips,
)
from tactical.rules.sw_d6_capital.deck import Deck
from tactical.rules.sw_d6_capital.tables import (
    ARCS,
    LIGHT,
    NONE,
    ONE_STEP,
    PIPS_PER_DIE,
    REPAIRED,
    SHIELDS_1D,
    damage_control_map,
    damage_control_outcome,
    max_repair_actions,
    named_difficulty,
    repair_difficulty,
    shield_units,
    step_down,
    succeeds,
)

EASY = named_difficulty("easy")  # 10


# --------------------------------------------------------------------------- regeneration


def regenerate(condition: Condition, deck: Deck) -> tuple[Condition, tuple[Event, ...]]:
    """R004.19: Shields Drained return; 1D of ion-downed shields returns."""
    events: list[Event] = []
    updated = condition
    if condition.shields_drained:
        updated = replace(updated, shields_drained=False)
        events.append(Event.of("shields-restored", "R004.19", cause="shields drained"))
    if condition.ion_shields:
        back = min(PIPS_PER_DIE, condition.ion_shields)
        updated = replace(updated, ion_shields=condition.ion_shields - back)
        events.append(
            Event.of(
                "shields-restored",
                "R004.19",
                cause="ion",
                pips=back,
                still_down=updated.ion_shields,
            )
        )
    if updated is not condition:
        updated = replace(updated, shield_arcs=refill_shields(updated, deck))
    return updated, tuple(events)


# --------------------------------------------------------------------------- damage control


@dataclass(frozen=True, slots=True)
class RepairPlan:
    """A checked Damage Control declaration: what the roll covers, its code and Difficulty."""

    extra_actions: int
    covers_damage: bool
    shield_pips: int
    prefer: str
    code_pips: int
    difficulty: int
    terms: tuple[tuple[str, int], ...]


def repair_plan(
    ship: str, deck: Deck, condition: Condition, turn: int, params: dict[str, Any]
) -> RepairPlan:
    """R004.20-R004.22: check a Damage Control declaration (UserError with the SPEC id)."""
    if condition.dc_done:
        raise UserError(f"{ship!r} has made its Damage Control roll this turn", spec_id="R004.20")
    current = condition.current_cso(deck, turn)
    cap = max_repair_actions(current)
    extra = params.get("extra_actions", 0)
    if not isinstance(extra, int) or isinstance(extra, bool) or not 0 <= extra <= cap:
        raise UserError(
            f"extra_actions {extra!r}: {ship!r} may add 0 to {cap} repair actions "
            f"(one per full 1D of its current CSO {code_text(current)})",
            spec_id="R004.20",
        )
    damaged = condition.level not in (NONE,)
    covers_damage = bool(params.get("repair_damage", damaged))
    if covers_damage and not damaged:
        raise UserError(f"{ship!r} has no damage level to repair", spec_id="R004.22")
    downed = shield_repair_pips(condition)
    units_max = shield_units(downed)
    units = params.get("shield_dice", units_max)
    if not isinstance(units, int) or isinstance(units, bool) or not 0 <= units <= units_max:
        raise UserError(
            f"shield_dice {units!r}: {ship!r} has {code_text(downed)} of shields to restore, "
            f"0 to {units_max} started dice",
            spec_id="R004.22",
        )
    prefer = params.get("prefer", "damage")
    if prefer not in ("damage", "shields"):
        raise UserError(
            f"prefer {prefer!r}: expected 'damage' or 'shields' (T004.4)", spec_id="R004.23"
        )
    shield_pips = min(PIPS_PER_DIE * units, downed)
    if not covers_damage and shield_pips == 0:
        raise UserError(
            f"{ship!r}'s Damage Control roll must cover its damage or some shields",
            spec_id="R004.22",
        )
    terms = (
        ("cso", deck.cso.pips),
        ("damage_state", -condition.crew_penalty(turn)),
        ("controls_damaged", -condition.controls_damaged),
        ("order_map", -PIPS_PER_DIE * condition.order_map),
        ("repair_actions", PIPS_PER_DIE * extra),
        ("command", condition.command_mod),
    )
    code = sum(value for _, value in terms)
    difficulty = repair_difficulty(condition.level if covers_damage else None, shield_pips)
    return RepairPlan(extra, covers_damage, shield_pips, prefer, code, difficulty, terms)


@dataclass(frozen=True, slots=True)
class RepairRoll:
    roll: CodeRoll
    outcome: str


def repair_roll(ship: str, plan: RepairPlan, dice: Dice, meet_or_beat: bool = True) -> RepairRoll:
    """R004.23: the Damage Control roll and its T004.4 outcome."""
    roll = roll_code(plan.code_pips, dice, who=ship, what="damage control")
    outcome = damage_control_outcome(
        roll.total,
        plan.difficulty,
        plan.covers_damage,
        plan.shield_pips > 0,
        plan.prefer,
        meet_or_beat,
    )
    return RepairRoll(roll, outcome)


def apply_repair(
    condition: Condition, deck: Deck, plan: RepairPlan, result: RepairRoll
) -> tuple[Condition, tuple[Event, ...]]:
    """R004.23 and R004.21: the outcome on the ship, and the Action-Phase MAP it now carries."""
    updated = condition
    if result.outcome == REPAIRED:
        if plan.covers_damage:
            updated = replace(repair_to(updated, NONE), light_results=0)
        if plan.shield_pips:
            updated = restore_shields(updated, deck, plan.shield_pips)
    elif result.outcome == ONE_STEP:
        level = step_down(condition.level)
        updated = repair_to(updated, level)
        if level == NONE:
            updated = replace(updated, light_results=0)
    elif result.outcome == SHIELDS_1D:
        updated = restore_shields(updated, deck, PIPS_PER_DIE)
    updated = replace(updated, dc_done=True, dc_map=damage_control_map(plan.extra_actions))
    return updated, (
        Event.of(
            "repair",
            "R004.23",
            outcome=result.outcome,
            level=updated.level,
            shields_down=shield_repair_pips(updated),
        ),
        Event.of("multiple-action-penalty", "R004.21", dice=updated.dc_map),
    )


def repair_odds(plan: RepairPlan, meet_or_beat: bool = True) -> Distribution[str]:
    """Exact T004.4 outcome distribution, enumerating `repair_roll` itself."""
    return enumerate_outcomes(lambda dice: repair_roll("", plan, dice, meet_or_beat).outcome)


# --------------------------------------------------------------------------- reactor shutdown


def shutdown_code(deck: Deck, condition: Condition, turn: int) -> int:
    """T004.9 #2: the Easy repair roll to shut a reactor down (the Damage Control code)."""
    return (
        condition.current_cso(deck, turn)
        - PIPS_PER_DIE * (condition.order_map + condition.dc_map)
        + condition.command_mod
    )


def shutdown_roll(ship: str, pips: int, dice: Dice, meet_or_beat: bool = True):
    """T004.9 #2: the reactor shutdown roll against Easy (10)."""
    return _easy_roll(ship, pips, dice, "reactor shutdown", meet_or_beat)


def _easy_roll(
    ship: str, pips: int, dice: Dice, what: str, meet_or_beat: bool
) -> tuple[CodeRoll, bool]:
    """A roll of `pips` against Easy (10), and whether it succeeds."""
    roll = roll_code(pips, dice, who=ship, what=what)
    return roll, succeeds(roll.total, EASY, meet_or_beat)


# --------------------------------------------------------------------------- astromech


def astromech_difficulty(condition: Condition, what: str) -> int:
    """R004.53 / A004.37: Easy (10), +10 per further Lightly Damaged result unrepaired."""
    if what == "shields":
        return EASY
    return EASY + 10 * max(condition.light_results - 1, 0)


def check_astromech(ship: str, deck: Deck, condition: Condition, what: str) -> None:
    if deck.astromech is None or not deck.fighter:
        raise UserError(f"{ship!r} carries no astromech", spec_id="R004.53")
    if condition.astromech_done:
        raise UserError(f"{ship!r}'s astromech has tried a repair this turn", spec_id="R004.53")
    if what == "damage":
        if condition.level != LIGHT:
            raise UserError(
                f"an astromech repairs only a Lightly Damaged result; {ship!r} is "
                f"{condition.level}",
                spec_id="R004.53",
            )
    elif what == "shields":
        if shield_repair_pips(condition) == 0:
            raise UserError(f"{ship!r} has no shields to restore", spec_id="R004.53")
    else:
        raise UserError(
            f"an astromech repairs 'damage' or 'shields', not {what!r}", spec_id="R004.53"
        )


def astromech_roll(
    ship: str, pips: int, difficulty: int, dice: Dice, meet_or_beat: bool = True
) -> tuple[CodeRoll, bool]:
    roll = roll_code(pips, dice, who=ship, what="astromech repair")
    return roll, succeeds(roll.total, difficulty, meet_or_beat)


def apply_astromech(condition: Condition, deck: Deck, what: str, success: bool) -> Condition:
    updated = replace(condition, astromech_done=True)
    if not success:
        return updated
    if what == "damage":
        return replace(repair_to(updated, NONE), light_results=0)
    return restore_shields(updated, deck, shield_repair_pips(updated))


# --------------------------------------------------------------------------- shields


def parse_allocation(params: dict[str, Any], current: tuple[int, ...]) -> tuple[int, ...]:
    """{front, right, rear, left} die codes (or pips) -> pips; missing arcs keep theirs."""
    unknown = sorted(set(params) - set(ARCS))
    if unknown:
        raise UserError(
            f"shield arcs are {', '.join(ARCS)}, not {', '.join(unknown)}", spec_id="R004.24"
        )
    values = []
    for index, arc in enumerate(ARCS):
        value = params.get(arc, current[index])
        if isinstance(value, bool):
            raise UserError(f"{arc}: expected a die code, not {value!r}", spec_id="R004.24")
        pips = value if isinstance(value, int) else parse_code(str(value), f"shields {arc}").pips
        if pips < 0:
            raise UserError(f"{arc}: a shield allocation cannot be negative", spec_id="R004.24")
        values.append(pips)
    return tuple(values)


def check_allocation(ship: str, deck: Deck, condition: Condition, arcs: tuple[int, ...]) -> None:
    """R004.24: the shield dice allocated may not exceed those the ship has now."""
    available = condition.shields_available(deck)
    if sum(arcs) > available:
        raise UserError(
            f"{ship!r} allocates {code_text(sum(arcs))} of shields but has "
            f"{code_text(available)} (shields blown or knocked down are not available)",
            spec_id="R004.24",
        )


def shields_roll_code(deck: Deck, condition: Condition, turn: int) -> int:
    """R004.24: a fighter's Shields roll (its Shields skill, else its piloting CSO)."""
    skill = deck.shields_skill.pips if deck.shields_skill is not None else deck.cso.pips
    return (
        skill
        - condition.skill_penalty(turn)
        - PIPS_PER_DIE * (condition.ionization + condition.order_map + condition.dc_map)
        + condition.command_mod
    )


def shields_roll(ship: str, pips: int, dice: Dice, meet_or_beat: bool = True):
    """A004.36: the fighter's Shields roll against Easy (10)."""
    return _easy_roll(ship, pips, dice, "shields", meet_or_beat)


def set_allocation(condition: Condition, arcs: tuple[int, ...]) -> Condition:
    return replace(condition, shield_arcs=tuple(arcs), shield_plan=tuple(arcs))  # type: ignore[arg-type]
