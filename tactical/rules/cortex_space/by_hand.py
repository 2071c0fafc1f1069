"""A vessel's damage set by hand in a game (adjust mode).

Cortex keeps damage in the vessel's stats: the values a player may set are its Wound and
Stun (R003.25: each from 0 to its Life Points as its card counts them, x k once a
smaller-scale attacker has hit it, R003.58; out of action at Wound = Life Points,
adrift at Wound + Stun = Life Points, base Cortex G.5) and its battle damage (R003.29:
sensors and sublight damaged, FTL and sublight destroyed); for a fighter wing each
fighter's Wound and Stun (R003.30). Setting them rolls nothing; a vessel given back its
Life Points is no longer out of action this turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.model import GameState, Unit, thaw
from tactical.rules.base import Field
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.units import STATS_FIELDS, vessel
from tactical.rules.status import label

_SCHEMA = {spec.name: spec for spec in STATS_FIELDS}
DAMAGE_KEYS = ("sensors_damaged", "sublight_damaged", "sublight_destroyed")


def member_key(track: str, member: str) -> str:
    """A wing fighter's value: "wound_viper-2"."""
    return f"{track}_{member}"


def status_fields(state: GameState, unit: Unit) -> tuple[Field, ...]:
    """The values of a vessel (or of a wing's fighters) a player may set, now."""
    card = vessel(unit)
    if card.is_wing:
        return tuple(
            Field(
                member_key(track, member.id),
                "int",
                default=getattr(member, track),
                low=0,
                high=member.life_points,
                doc=f"the fighter's {track}; out of the wing at Wound = Life Points",
                spec_id="R003.30",
                title=f"{member.id} {track}",
            )
            for member in card.members
            for track in ("wound", "stun")
        )
    fields = [
        Field(
            track,
            "int",
            default=getattr(card, track),
            low=0,
            high=card.life_points,
            doc="damage taken, up to the Life Points",
            spec_id="R003.25",
            title=track.capitalize(),
        )
        for track in ("wound", "stun")
    ]
    keys = DAMAGE_KEYS + (("ftl_destroyed",) if card.ftl else ())
    for key in keys:
        schema = _SCHEMA[key]
        fields.append(
            Field(
                key,
                schema.kind,
                default=unit.stats.get(key, schema.default),
                low=schema.low,
                high=schema.high,
                spec_id="R003.29",
                title=label(key),  # "Sensors damaged", "FTL destroyed"
            )
        )
    return tuple(fields)


def set_status(state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
    """The state with the vessel's stats set (module docstring)."""
    card = vessel(unit)
    if card.is_wing:
        members = []
        for entry in thaw(unit.stats.get("members", ())):
            for track in ("wound", "stun"):
                key = member_key(track, str(entry["id"]))
                if key in values:
                    entry[track] = int(values[key])
            members.append(entry)
        changed = unit.with_stats(members=members)
    else:
        changed = unit.with_stats(**values)
    state = state.replace_unit(changed)
    now = vessel(changed)
    wrecked = tracker.table(state, tracker.WRECKED)
    if unit.id in wrecked and not (now.destroyed or now.disabled):
        kept = {key: value for key, value in wrecked.items() if key != unit.id}
        state = state.with_rule_state(**{tracker.WRECKED: kept})
    return state
