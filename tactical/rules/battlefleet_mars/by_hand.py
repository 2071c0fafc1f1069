"""A unit's status set by hand in a game (adjust mode).

Battlefleet Mars keeps a unit's values in its stats: its current laser strength (R000.2,
"after damage already suffered": from 0 to its type's nominal strength; a ship lowered by
hand keeps its printed strength for its card, A000.11), a group's count
(R000.11, at least 1: a group of none has left the table), the missiles and fighters a
carrier holds (R000.17); and, in the rule state, the results scored against a ship or
base (A000.E1: the record its damage points and crippling are read from), typed as the
codes of T000.2 ("B2 iL", "-" for none). Setting them rolls nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.base import Field
from tactical.rules.battlefleet_mars.combat import settings
from tactical.rules.battlefleet_mars.outcome import HITS, results_against
from tactical.rules.battlefleet_mars.tables import NO_EFFECT, RESULT_CODES
from tactical.rules.battlefleet_mars.units import (
    GROUPS,
    NOMINAL_LASER_STRENGTH,
    STATS_FIELDS,
    profile,
)

RESULTS = "results"
_SCHEMA = {spec.name: spec for spec in STATS_FIELDS}


def status_fields(state: GameState, unit: Unit) -> tuple[Field, ...]:
    """The values of a unit a player may set (module docstring), now."""
    card = profile(unit)
    fields = []
    if card.has_lasers:
        strength = card.laser_strength or 0
        nominal = NOMINAL_LASER_STRENGTH.get(card.kind, _SCHEMA["laser_strength"].high)
        fields.append(
            Field(
                "laser_strength",
                "int",
                default=strength,
                low=0,
                high=max(strength, card.printed_laser_strength or 0, nominal or 0),
                doc="current laser strength, after damage",
                spec_id="R000.2",
            )
        )
    if card.kind in GROUPS:
        fields.append(_stat("count", card.count, "R000.11", low=1))
    if card.is_carrier:
        fields.append(_stat("missiles", card.missiles, "R000.17", title="Missiles carried"))
        fields.append(_stat("fighters", card.fighters, "R000.17", title="Fighters carried"))
    if card.kind not in GROUPS:
        fields.append(
            Field(
                RESULTS,
                "str",
                default=" ".join(results_against(state, unit.id)) or NO_EFFECT,
                doc='the results scored against it, e.g. "B2 iL" ("-": none)',
                spec_id="A000.E1",
                title="Results scored",
            )
        )
    return tuple(fields)


def _stat(name: str, value: int, spec_id: str, *, low: int = 0, title: str = "") -> Field:
    schema = _SCHEMA[name]
    return Field(
        name, "int", default=value, low=low, high=schema.high, spec_id=spec_id, title=title
    )


def set_status(state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
    """The state with the unit's stats and its record of results set (module docstring)."""
    stats = {key: value for key, value in values.items() if key != RESULTS}
    if RESULTS in values:
        codes = tuple(code for code in str(values[RESULTS]).split() if code != NO_EFFECT)
        wrong = [code for code in codes if code not in RESULT_CODES]
        if wrong:
            raise UserError(
                f"adjust {unit.id}: {wrong[0]!r} is no result of T000.2 (results: "
                f"{', '.join(RESULT_CODES)})",
                spec_id="A000.E1",
            )
        hits = dict(state.rule_state.get(HITS, {}))
        hits[unit.id] = codes
        if not codes:
            hits.pop(unit.id)
        state = state.with_rule_state(**{HITS: hits})
    card = profile(unit)
    printed = card.printed_laser_strength
    if (
        "laser_strength" in stats
        and "printed_laser_strength" not in unit.stats
        and card.kind not in NOMINAL_LASER_STRENGTH  # a type's printed strength is its own
        and printed is not None
        and int(stats["laser_strength"]) < printed
        and settings(state)["laser_damage"]
    ):
        # A000.11: a ship's strength before the edit stays the printed one on its card
        stats["printed_laser_strength"] = printed
    return state.replace_unit(unit.with_stats(**stats)) if stats else state
