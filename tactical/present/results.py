"""What the steps of a game did, in the words the cards, the status line and the log show.

The words are the rule system's (`Step.words`, from `RuleSystem.summarise`); this
module picks which steps concern a unit ("last hits"), names the dice rolled,
and lays out the play screen's log: one line per step and per change of turn or
phase, every die on a line under its step. (The exported log, `Session.export_log`,
keeps every entry, in words too: `tactical.session.log_words`.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tactical.session.adjust import is_adjustment
from tactical.session.game import Game, Step
from tactical.session.log_words import label_words

MAX_DICE = 12  # dice named on one line; the rest are counted
LAST_HITS = 3
HISTORY_SCAN = 400  # steps looked back through for a unit's last hits


_COUNTED = re.compile(r"die \d+")  # a roll's label that only counts its dice


def dice_line(step: Step, limit: int = MAX_DICE) -> str:
    """The step's dice as "laser to hit 7, laser damage 4" ("" when it rolled none), a
    unit by its name; dice in a row labelled alike (up to a colon) share the label once:
    "AD vs Markgraf: 2, 6; Critical Hit Table 4", "gunnery: 5, 3, 2"; a label ending in a
    number takes a colon before the result ("initiative round 1: 3")."""
    if not step.rolls:
        return ""
    names = _unit_names(step)
    groups: list[tuple[str, bool, list[str]]] = []  # label, whether it had a colon, dice
    for roll in step.rolls[:limit]:
        label = roll.what or roll.die
        head, colon, tail = label.rpartition(": ")  # split before naming: a name may hold one
        head, tail = (
            (label_words(head, names), label_words(tail, names))
            if colon
            else (label_words(label, names), "")
        )
        # a die counted in its label ("die 2") is told by its place in the row: its result
        # alone ("AD vs Markgraf: 2, 6"), not "die 1 2, die 2 6" (two numbers run together)
        counted = _COUNTED.fullmatch(tail) is not None
        die = f"{tail} {roll.result}" if tail and not counted else str(roll.result)
        if groups and groups[-1][:2] == (head, bool(colon)):
            groups[-1][2].append(die)
        else:
            groups.append((head, bool(colon), [die]))
    shared = any(len(dice) > 1 for *_, dice in groups)
    named = ("; " if shared else ", ").join(
        f"{head}: {', '.join(dice)}"
        if colon or len(dice) > 1 or head[-1:].isdigit()  # "round 1: 3", not "round 1 3"
        else f"{head} {dice[0]}"
        for head, colon, dice in groups
    )
    more = f" and {len(step.rolls) - limit} more" if len(step.rolls) > limit else ""
    return f"dice: {named}{more}"


def _unit_names(step: Step) -> dict[str, str]:
    """The units of the tables around the step by their ids (a roll's label quotes them:
    "damage vs isd", "AD vs markgraf: die 1"), to their names; the table before it first
    (a unit the step destroyed is named still)."""
    names: dict[str, str] = {}
    for state in (step.state_after, step.state_before):
        if state is not None:
            shown = state.shown_names  # numbered where units share a name
            names.update((unit.id, shown[unit.id]) for unit in state.units if unit.name)
    return names


def step_status(step: Step) -> str:
    """The status line after a step: its number and what it did."""
    return f"#{step.number} {step.words}"


STRIKING = ("outcome", "damage", "hits", "shield", "internal", "fire", "to-hit", "attack", "margin")
TARGET_KEYS = ("target", "targets", "ship")


def step_units(step: Step) -> tuple[str, ...]:
    """The units a step aimed at or struck besides its actor: its declared targets and the
    targets of its striking events (the ships a Result hit, say)."""
    found: list[str] = []

    def add(value: object) -> None:
        if isinstance(value, str):
            if value != step.action.actor and value not in found:
                found.append(value)
        elif isinstance(value, tuple | list):
            for item in value:
                add(item)

    striking = [event for event in step.events if event.kind in STRIKING]
    if not striking:
        return ()  # a declaration that struck nothing yet (its resolution will)
    for key, value in step.action.params.items():
        if key in TARGET_KEYS:
            add(value)
    for event in striking:
        for key, value in event.data:
            if key in TARGET_KEYS:
                add(value)
    return tuple(found)


def last_hits(game: Game, unit_id: str, limit: int = LAST_HITS) -> tuple[str, ...]:
    """The latest steps of the rule system that struck or aimed at `unit_id`, newest first."""
    found: list[str] = []
    for step in reversed(game.steps[-HISTORY_SCAN:]):
        if step.by_session or unit_id not in step_units(step):
            continue
        found.append(step_status(step))
        if len(found) >= limit:
            break
    return tuple(found)


def log_lines(game: Game, limit: int, notes: Mapping[Step, str] | None = None) -> tuple[str, ...]:
    """The last `limit` lines of the screen log (read from the latest steps only); `notes`
    word some steps otherwise. A step the game took by itself says why (`forced_words`)."""
    lines: list[str] = []
    for step in reversed(game.steps):
        lines[:0] = step_log_lines(step, (notes or {}).get(step))
        if len(lines) >= limit:
            return tuple(lines[-limit:])
    lines[:0] = start_lines(game)
    return tuple(lines[-limit:])


def start_lines(game: Game) -> list[str]:
    opening = game.steps[0] if game.steps else None
    phase = opening.phase if opening else game.phase
    side = opening.side if opening else game.side_to_act
    turn = opening.before.turn if opening else game.position.turn
    title = game.initial.title or "untitled map"
    return [f"#0 {title}, seed {game.seed}", f"turn {turn}, {phase.name}: {side} to act"]


def forced_words(step: Step) -> str | None:
    """A step the game took by itself, in words with its reason ("B passed: nothing else is
    open to it now"; "A: End movement — the only step open to A (R002.28)"); None for a
    step someone chose."""
    if not step.forced:
        return None
    if step.is_pass:
        return f"{step.side} passed: {step.forced}"
    said = step.words
    if not said.startswith((f"{step.side}:", f"{step.side} ")):
        said = f"{step.side}: {said}"
    return f"{said} — {step.forced}"


def step_log_lines(step: Step, note: str | None = None) -> list[str]:
    """A step on the screen log: who did what, its dice, and a new phase if it began one."""
    said = step.words
    note = note or forced_words(step)
    # a side's own action names it already; an adjustment ("adjust: ...") is nobody's go
    if (
        note
        or step.is_pass
        or is_adjustment(step.action)
        or said.startswith((f"{step.side}:", f"{step.side} "))
    ):
        lines = [f"#{step.number} {note or said}"]
    else:
        lines = [f"#{step.number} {step.side}: {said}"]
    dice = dice_line(step, limit=6)
    if dice:
        lines.append(f"   {dice}")
    if (step.after.turn, step.after.phase) != (step.before.turn, step.before.phase):
        lines.append(f"turn {step.after.turn}, {step.next_phase.name}: {step.next_side} to act")
    return lines


def note_lines(step: Step) -> tuple[str, ...]:
    """The last roll on the cards of the units it concerned: what it did and its dice."""
    lines = [step_status(step)]
    dice = dice_line(step)
    if dice:
        lines.append(dice)
    return tuple(lines)


def concerned(step: Step, unit_ids: Sequence[str]) -> tuple[str, ...]:
    """The units of `unit_ids` a step concerned: its actor and the units it named."""
    named = (step.action.actor, *step_units(step))
    present = set(unit_ids)
    return tuple(u for u in dict.fromkeys(named) if u in present)
