"""What a rule system says about a unit and a resolution, in words a player reads.

A rule system gives data, not prose, in its events; these values are the few
places where it gives words, because only it knows what its numbers mean:

- `UnitStatus`: a unit's current values, each labelled, with its maximum and
  its text ("Hull 6/7"), which of them the table shows as a token (a damage bar,
  pips, marks for criticals and orders) and whether the unit is a wreck;
  its weapons as rows (`WeaponStatus`: name, arc, ranges, dice or damage,
  shots left).
- `Unavailable`: an action that exists in the phase but cannot be taken now,
  with the reason and the rule ("Kronos made a close move this turn and
  cannot fire", R001.9).
- `OrderEntry`: one unit in the order the rules produced for the phase (the
  initiative results, who has acted, who acts now).

Front ends show these as given; they never name a rule system.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Literal

from tactical.errors import UserError
from tactical.model import GameState

Token = Literal["", "bar", "pips"]


def words(name: str) -> str:
    """A schema key as words: "battery_damage" -> "battery damage", "lp-limit" -> "lp limit",
    "base.fighters" -> "base fighters"."""
    return " ".join(name.replace("_", " ").replace("-", " ").replace(".", " ").split())


# the rules' own abbreviations, as they print them
ACRONYMS = {"ciws": "CIWS", "lp": "LP", "los": "LOS", "ftl": "FTL", "dradis": "DRADIS"}


def label(name: str) -> str:
    """A schema key as a label: "laser_strength" -> "Laser strength", "ciws_strength" ->
    "CIWS strength"."""
    text = " ".join(ACRONYMS.get(word, word) for word in words(name).split(" "))
    return text[:1].upper() + text[1:]


def plain_value(value: Any) -> str:
    """A value as a player reads it: yes / no, no decimals on whole numbers, lists joined,
    tables (and a rule system's small records, dataclasses) as "key value" pairs, nothing
    for an empty one."""
    if value is None:
        return "-"
    if is_dataclass(value) and not isinstance(value, type):
        value = {spec.name: getattr(value, spec.name) for spec in fields(value)}
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{words(str(k))} {plain_value(v)}" for k, v in value.items()) or "-"
    if isinstance(value, tuple | list):
        return ", ".join(plain_value(v) for v in value) or "-"
    return words(str(value)) if "_" in str(value) else str(value)


@dataclass(frozen=True, slots=True)
class StatusValue:
    """One current value of a unit: "Hull" "6/7" (current 6 of at most 7).

    `token` says how the table shows it on the unit: "bar" (a damage bar, current over
    maximum), "pips" (one pip per point left) or "" (only on the card).
    """

    label: str
    text: str
    current: float | None = None
    maximum: float | None = None
    help: str = ""
    spec_id: str | None = None
    token: Token = ""

    @property
    def fraction(self) -> float | None:
        """Current over maximum, 0..1 (None when either is unknown)."""
        if self.current is None or not self.maximum:
            return None
        return max(0.0, min(1.0, self.current / self.maximum))


def counted(
    label: str,
    current: float,
    maximum: float | None = None,
    *,
    help: str = "",
    spec_id: str | None = None,
    token: Token = "",
    unit: str = "",
) -> StatusValue:
    """A value with its maximum: "6/7" (or "6" without one), `unit` after it."""
    shown = f"{current:g}" if maximum is None else f"{current:g}/{maximum:g}"
    return StatusValue(
        label, shown + (f" {unit}" if unit else ""), current, maximum, help, spec_id, token
    )


@dataclass(frozen=True, slots=True)
class WeaponStatus:
    """One weapon as the unit card's table shows it ("" where the rules have no such thing)."""

    name: str
    arc: str = ""
    ranges: str = ""
    attack: str = ""  # attack dice, damage dice or strength
    shots: str = ""  # shots or ammunition left, "fired" once used this turn


@dataclass(frozen=True)
class UnitStatus:
    """A unit's state as its rule system sees it now (see the module docstring).

    `marks` are short words shown on the table beside the unit (a critical, an order,
    "fired"); `wreck` draws it as a wreck (still on the table, out of the fight).
    """

    values: tuple[StatusValue, ...] = ()
    weapons: tuple[WeaponStatus, ...] = ()
    marks: tuple[str, ...] = ()
    wreck: bool = False

    @property
    def tokens(self) -> tuple[StatusValue, ...]:
        """The values shown on the table, in order."""
        return tuple(value for value in self.values if value.token)


@dataclass(frozen=True, slots=True)
class Unavailable:
    """An action of the phase that cannot be taken now, and why (`spec_id`: the rule)."""

    actor: str
    title: str
    reason: str
    spec_id: str | None = None


@dataclass(frozen=True, slots=True)
class OrderEntry:
    """One unit in the order the rules produced for the phase under way (initiative, say):
    which unit, its side, its result in words ("initiative 20"), whether it has already
    had its go this phase and whether it is the one acting now."""

    unit: str
    side: str
    result: str = ""
    done: bool = False
    acting: bool = False


def player_words(state: GameState, text: str) -> str:
    """A rule system's message as a player reads it: the units and terrain pieces it quotes by
    id ('markgraf', 'heligoland') called by their names ("'markgraf''s" becomes
    "Markgraf's"), and a key it names in snake_case (option allow_disengage) as words
    (option allow disengage)."""
    names = dict(state.shown_terrain_names)
    names.update({unit.id: state.shown_names.get(unit.id, unit.id) for unit in state.units})
    text = re.sub(r"'([^'\s]+)'", lambda found: names.get(found.group(1), found.group(0)), text)
    return SNAKE_CASE.sub(lambda found: words(found.group(0)), text)


def refusal_words(state: GameState, error: UserError) -> UserError:
    """A rule system's refusal with its message in `player_words` and its rule kept: what the
    session raises, so that every screen and command that shows a refusal names units."""
    said = player_words(state, error.message)
    if said == error.message:
        return error
    return UserError(said, spec_id=error.spec_id)


SNAKE_CASE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
