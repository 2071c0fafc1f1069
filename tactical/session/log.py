"""The game log: every action, every roll, every event with the SPEC id that decided it.

Entries, in order (`step` 0 is the start of the game):

- `start` — rules, title, seed (step 0);
- `phase` — turn, phase, its spec_id and the side to act, at the start and
  whenever a step changes the turn or the phase;
- `action` — per step: turn, phase, side, kind, actor, params, title, and `forced`, the
  reason, for a step the game took by itself (`session.forced`: no one chose it);
- `roll` — each die the step rolled: who, what, die, faces, result;
- `event` — each event of the step: kind, spec_id, data;
- `end` — once the game is over (after its last step): winner, scores, reason, spec_id,
  turn and the result in words (`Outcome.headline`).

A side reads the log of the game as it knows it (`side_log`, `session.views`): a step the
rules withhold from it reads "Klingon: (hidden movement)" until they reveal it, and then the
log made again shows the whole record.

`Log.text()` gives one line per entry in plain words (`log_words`: what a player
reads in the exported log and `tactical replay`), `Log.json()` a JSON document with
stable keys. Both depend only on the seed and the actions
(docs/architecture.md "Reliability": the same seed and the same actions give the same
log, byte for byte): values are rendered without anything that varies
between runs (sets are sorted, unknown objects by their `str`).
"""

from __future__ import annotations

import dataclasses
import json
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Any

from tactical.model import GameState
from tactical.rules.base import Phase
from tactical.session.game import Game, Step
from tactical.session.log_words import entry_line
from tactical.session.views import viewed

LOG_FORMAT = "tactical-log"
LOG_VERSION = 1

_ENTRIES: weakref.WeakKeyDictionary[Step, tuple[LogEntry, ...]] = weakref.WeakKeyDictionary()
_LOGS: weakref.WeakKeyDictionary[Game, Log] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class LogEntry:
    """One line of the log: the step it belongs to, its kind, and its values (plain data)."""

    step: int
    entry: str
    values: tuple[tuple[str, Any], ...]
    # what the text reads beside the values (not compared, not in the JSON): the unit
    # names of the table around the entry, and for an action what its step did in words
    names: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    said: str = field(default="", compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.step, "entry": self.entry, **dict(self.values)}

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.values).get(key, default)

    def text(self) -> str:
        """The entry as one line of plain words (`tactical.session.log_words`)."""
        return self.line

    @cached_property
    def line(self) -> str:
        """`text()`, made once: a log is shown again after every step."""
        return entry_line(self.step, self.entry, dict(self.values), dict(self.names), self.said)


def step_entries(step: Step, initial: GameState | None = None) -> tuple[LogEntry, ...]:
    """The entries of one step (cached per step: steps are immutable). `initial`, the map
    the game started from, names the units gone from the table before the step."""
    cached = _ENTRIES.get(step)
    if cached is not None:
        return cached
    names = unit_names(initial, step.state_before, step.state_after)
    said = "" if step.is_pass or step.by_session else step.words
    forced = (("forced", step.forced),) if step.forced else ()
    entries = [
        LogEntry(
            step.number,
            "action",
            (
                ("turn", step.before.turn),
                ("phase", step.phase.name),
                ("phase_spec_id", step.phase.spec_id),
                ("side", step.side),
                ("kind", step.action.kind),
                ("actor", step.action.actor),
                ("params", plain(step.action.params)),
                ("title", step.title),
                *forced,
            ),
            names,
            said if said != step.title else "",
        )
    ]
    entries.extend(
        LogEntry(step.number, "roll", tuple(roll.as_dict().items()), names) for roll in step.rolls
    )
    entries.extend(
        LogEntry(
            step.number,
            "event",
            (
                ("kind", event.kind),
                ("spec_id", event.spec_id),
                ("data", {str(key): plain(value) for key, value in event.data}),
            ),
            names,
        )
        for event in step.events
    )
    if (step.after.turn, step.after.phase) != (step.before.turn, step.before.phase):
        entries.append(_phase_entry(step.number, step.after.turn, step.next_phase, step.next_side))
    result = tuple(entries)
    _ENTRIES[step] = result
    return result


def unit_names(*states: GameState | None) -> tuple[tuple[str, str], ...]:
    """Each unit's id and name on the tables around an entry (a unit made in the step, a
    launched wing say, only after it), for the text to call units by their names."""
    found: dict[str, str] = {}
    for state in states:
        if state is not None:
            names = state.shown_names  # numbered where units share a name
            found.update((u.id, names[u.id]) for u in state.units if names[u.id] != u.id)
    return tuple(sorted(found.items()))


def _phase_entry(number: int, turn: int, phase: Phase, side: str) -> LogEntry:
    return LogEntry(
        number,
        "phase",
        (("turn", turn), ("phase", phase.name), ("spec_id", phase.spec_id), ("side", side)),
    )


def start_entries(game: Game) -> tuple[LogEntry, ...]:
    """The entries before any step: the game and where play starts."""
    start = LogEntry(
        0,
        "start",
        (("rules", game.rules), ("title", game.initial.title), ("seed", game.seed)),
    )
    opening = game.steps[0].before if game.steps else game.position
    phases = game.sequence.phases
    phase = phases[opening.phase] if phases else game.phase
    side = game.steps[0].side if game.steps else game.side_to_act
    return (start, _phase_entry(0, opening.turn, phase, side))


@dataclass(frozen=True)
class Log:
    """The log of a game up to its latest step."""

    rules: str
    title: str
    seed: int
    entries: tuple[LogEntry, ...]

    def for_step(self, number: int) -> tuple[LogEntry, ...]:
        """The entries of step `number` (0: the start)."""
        return tuple(entry for entry in self.entries if entry.step == number)

    def text(self) -> str:
        """One line per entry, each ending in a newline."""
        return "".join(entry.text() + "\n" for entry in self.entries)

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "rules": self.rules,
            "title": self.title,
            "seed": self.seed,
            "entries": [entry.as_dict() for entry in self.entries],
        }

    def json(self) -> str:
        """The log as a JSON document (stable keys), ending in a newline."""
        return dumps_json(self.as_dict())


def game_log(game: Game) -> Log:
    """The log of every step of `game` (cached per game value: a frame may ask every time)."""
    cached = _LOGS.get(game)
    if cached is not None:
        return cached
    entries = list(start_entries(game))
    for step in game.steps:
        entries.extend(step_entries(step, game.initial))
    entries.extend(end_entries(game))
    log = Log(game.rules, game.initial.title, game.seed, tuple(entries))
    _LOGS[game] = log
    return log


def side_log(game: Game, side: str) -> Log:
    """The log as `side` may read it now (`session.views.viewed`); the whole log where the
    rules hide nothing from it."""
    return game_log(viewed(game, side))


def end_entries(game: Game) -> tuple[LogEntry, ...]:
    """The `end` entry of a game that is over (none while it goes on)."""
    outcome = game.outcome
    if outcome is None:
        return ()
    return (
        LogEntry(
            game.step_number,
            "end",
            (
                ("winner", outcome.winner),
                ("scores", {side: value for side, value in outcome.scores}),
                ("measure", outcome.measure),
                ("reason", outcome.reason),
                ("spec_id", outcome.spec_id),
                ("turn", outcome.turn),
                ("result", outcome.headline()),
            ),
        ),
    )


def tail_lines(game: Game, limit: int) -> tuple[str, ...]:
    """The last `limit` lines of `game_log(game).text()`, read from the latest steps only (the
    play screen shows the tail after every step; the whole log grows with the game)."""
    lines: list[str] = [entry.text() for entry in end_entries(game)]
    for step in reversed(game.steps):
        lines[:0] = [entry.text() for entry in step_entries(step, game.initial)]
        if len(lines) >= limit:
            return tuple(lines[-limit:])
    lines[:0] = [entry.text() for entry in start_entries(game)]
    return tuple(lines[-limit:])


def dumps_json(document: Any) -> str:
    """JSON text with a fixed layout (one item per line) for logs and saves."""
    return json.dumps(plain(document), indent=1, ensure_ascii=False, allow_nan=False) + "\n"


# --------------------------------------------------------------------------- plain values


def plain(value: Any) -> Any:
    """`value` as JSON-ready data that renders the same in every run."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else str(value)
    if isinstance(value, Enum):
        return plain(value.value)
    if isinstance(value, Fraction):
        return (
            f"{value.numerator}/{value.denominator}" if value.denominator != 1 else value.numerator
        )
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, set | frozenset):
        items = [plain(item) for item in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return [plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)
