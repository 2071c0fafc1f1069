"""What several rule systems look up the same way: a unit on the table by id, and an
attack's two parties, for a declaration that names them; the first event of a kind in a
resolution, for the words that tell it.
"""

from __future__ import annotations

from collections.abc import Iterable

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.values import Event


def table_unit(state: GameState, unit_id: str, role: str) -> Unit:
    """The unit `unit_id` on the table; a UserError naming the `role` it was given for
    ("attacking", "target") and the units there are, when there is none."""
    if not state.has_unit(unit_id):
        known = ", ".join(u.id for u in state.units) or "none"
        raise UserError(f"unknown {role} unit {unit_id!r}: units on this map are {known}")
    return state.unit(unit_id)


def attack_parties(
    state: GameState, attacker_id: str, target_id: str, spec_id: str
) -> tuple[Unit, Unit]:
    """A declared attack's attacker and target on the table; a UserError when either is not
    there or when a unit would attack itself (`spec_id`: the rule that says whom it attacks)."""
    attacker = table_unit(state, attacker_id, "attacking")
    target = table_unit(state, target_id, "target")
    if attacker.id == target.id:
        raise UserError(f"unit {attacker.id!r} cannot attack itself", spec_id=spec_id)
    return attacker, target


def first_event(events: Iterable[Event], kind: str) -> Event | None:
    """The first event of `kind`, None when the resolution has none."""
    return next((e for e in events if e.kind == kind), None)
