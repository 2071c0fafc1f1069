"""Command (R002.23-R002.27) and the Fleet Commodore's re-rolls (R002.10, T002.3, A002.4).

- Command Distance is measured centre to centre (R002.23); there is no Command Test
  (R002.24): a model is simply in or out of the Commanded Element.
- The Commanded Element (R002.25, A002.2) is the connected component of the
  "centre to centre <= Command Distance" graph holding the squadron's commanding
  model (`tactical.geometry.proximity.commanded_element`); the others are Out of
  Command, until they are connected again.
- Out of Command models (and every model of a Broken squadron, R002.27) cannot use
  any Firing Option (Linked, Combined, Split, Indirect Fire), cannot have Game Cards
  played on them and cannot initiate a Boarding Assault (R002.26).
- The Fleet Commodore may make one re-roll a turn (R002.10): `commodore_option` says
  which option of T002.3 covers a roll and whether its range condition is met.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import is_
from typing import Any

from tactical.errors import UserError
from tactical.geometry.measure import LENGTH_TOLERANCE
from tactical.geometry.proximity import commanded_element
from tactical.model import GameState, Unit
from tactical.rules.base import Event
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import card, commanding_model, squadron_units
from tactical.rules.dystopian_wars.measures import centres, within_from_centre
from tactical.rules.dystopian_wars.tables import COMMODORE_OPTIONS, FC_RANGE

FIRING_OPTIONS = ("linked", "combined", "split", "indirect")


@dataclass(frozen=True)
class CommandedElement:
    """R002.25: the squadron's commanding model, the models in its element, and the rest (OoC)."""

    squadron: str
    commander: str
    element: tuple[str, ...]
    out_of_command: tuple[str, ...]


def command_element(
    units: tuple[Unit, ...], command_distance: float, commander_id: str | None = None
) -> CommandedElement:
    """R002.23-R002.25 / A002.2 for one squadron's models on the table; remembered by the
    very models read (kept beside their ids, so that no id is reused), the distance and the
    commander: every choice, trial and step of an activation asks which models are Out of
    Command, mostly of models that have not moved since."""
    slot = (tuple(map(id, units)), command_distance, commander_id)
    found = _ELEMENTS.get(slot)
    if found is not None and all(map(is_, found[0], units)):
        return found[1]
    element = _command_element(units, command_distance, commander_id)
    if len(_ELEMENTS) >= MAX_ELEMENTS:
        _ELEMENTS.clear()
    _ELEMENTS[slot] = (tuple(units), element)
    return element


# Commanded Elements by the models' ids, the distance and the commander (models kept beside)
_ELEMENTS: dict[tuple[Any, ...], tuple[tuple[Unit, ...], CommandedElement]] = {}
MAX_ELEMENTS = 1024


def _command_element(
    units: tuple[Unit, ...], command_distance: float, commander_id: str | None
) -> CommandedElement:
    if not units:
        raise UserError("a squadron with no models on the table has no Commanded Element")
    commander = commanding_model(units) if commander_id is None else None
    if commander is None:
        matching = [u for u in units if u.id == commander_id]
        if not matching:
            raise UserError(
                f"commanding model {commander_id!r} is not in the squadron "
                f"({', '.join(u.id for u in units)})",
                spec_id="R002.25",
            )
        commander = matching[0]
    index = next(i for i, u in enumerate(units) if u.id == commander.id)
    if command_distance < 0:  # refused by the geometry, in its words
        commanded_element(centres(units), command_distance, index)
    inside = _linked_to(units, command_distance, index)
    element = tuple(u.id for i, u in enumerate(units) if i in inside)
    outside = tuple(u.id for i, u in enumerate(units) if i not in inside)
    return CommandedElement(card(units[0]).squadron, commander.id, element, outside)


def _linked_to(units: tuple[Unit, ...], command_distance: float, commander: int) -> set[int]:
    """The indices of the models linked to the commander through links of at most the
    Command Distance, centre to centre (R002.25, A002.2, GEO002.3): what
    `tactical.geometry.proximity.commanded_element` finds, with its very arithmetic (each
    squared centre distance against the distance plus `LENGTH_TOLERANCE`, squared) in
    plain floats: a squadron has a few models, and a move asks again."""
    reach = command_distance + LENGTH_TOLERANCE
    limit = reach * reach
    points = [(float(u.x), float(u.y)) for u in units]
    inside = {commander}
    frontier = [commander]
    while frontier:
        x, y = points[frontier.pop()]
        for other, (ox, oy) in enumerate(points):
            if other in inside:
                continue
            dx, dy = ox - x, oy - y
            if dx * dx + dy * dy <= limit:
                inside.add(other)
                frontier.append(other)
    return inside


def element_events(element: CommandedElement, command_distance: float) -> tuple[Event, ...]:
    return (
        Event.of(
            "commanded-element",
            "R002.25",
            squadron=element.squadron,
            commander=element.commander,
            element=element.element,
            out_of_command=element.out_of_command,
            command_distance=command_distance,
            measured="centre-to-centre",
        ),
        Event.of("no-command-test", "R002.24", squadron=element.squadron),
    )


def out_of_command_ids(state: GameState, squadron: str, options: Mapping[str, Any]) -> set[str]:
    """The squadron's models Out of Command right now (R002.25: recomputed, so a model that
    is connected again is no longer OoC), using the commander declared this activation."""
    units = squadron_units(state, squadron)
    if not units:
        return set()
    declared = tracking.mapping(state, "commanders").get(squadron)
    known = {u.id for u in units}
    commander = declared if declared in known else None
    element = command_element(units, float(options["command_distance"]), commander)
    return set(element.out_of_command)


def restricted(state: GameState, unit: Unit, options: Mapping[str, Any]) -> str | None:
    """Why the unit suffers the OoC restrictions of R002.26 (None when it does not):
    "out of command" (R002.25) or "broken" (R002.27)."""
    profile = card(unit)
    if profile.squadron in tuple(tracking.get(state, "broken", ())):
        return "broken"
    if unit.id in out_of_command_ids(state, profile.squadron, options):
        return "out of command"
    return None


def check_firing_option(
    state: GameState, unit: Unit, option: str, options: Mapping[str, Any]
) -> None:
    """R002.26 / R002.27: UserError when an OoC or Broken model uses a Firing Option."""
    why = restricted(state, unit, options)
    if why is not None:
        rule = "R002.27" if why == "broken" else "R002.26"
        raise UserError(
            f"{unit.id!r} is {why}: it cannot use {option} fire (no Firing Option)", spec_id=rule
        )


def may_receive_game_card(state: GameState, unit: Unit, options: Mapping[str, Any]) -> bool:
    """R002.26: Game Cards cannot be played on an Out of Command (or Broken) model."""
    return restricted(state, unit, options) is None


def check_boarding(state: GameState, unit: Unit, options: Mapping[str, Any]) -> None:
    """R002.26 / R002.27: an OoC or Broken model cannot initiate a Boarding Assault."""
    why = restricted(state, unit, options)
    if why is not None:
        rule = "R002.27" if why == "broken" else "R002.26"
        raise UserError(
            f"{unit.id!r} is {why}: it cannot initiate a Boarding Assault", spec_id=rule
        )


# --------------------------------------------------------------------------- Fleet Commodore


def fleet_commodore(state: GameState, side: str) -> Unit | None:
    """The side's Fleet Commodore's vessel on the table (captured ones do not count)."""
    for unit in _commodore_vessels(state.units).get(side, ()):
        if not tracking.is_prize(state, unit.id):
            return unit
    return None


# the last set of units asked about and each side's vessels whose card names a Fleet
# Commodore, in table order: an attack's odds ask once per outcome, and the states of
# one attack's outcomes share their units (looking up every unit's card each time made
# the odds grow with the table: 26 ms at 3,000 units)
_COMMODORE_VESSELS: tuple[tuple[Unit, ...], dict[str, tuple[Unit, ...]]] | None = None


def _commodore_vessels(units: tuple[Unit, ...]) -> dict[str, tuple[Unit, ...]]:
    """Each side's units whose card names them Fleet Commodore, in the units' order."""
    global _COMMODORE_VESSELS
    cached = _COMMODORE_VESSELS
    if cached is None or cached[0] is not units:
        found: dict[str, list[Unit]] = {}
        for unit in units:
            if card(unit).fleet_commodore:
                found.setdefault(unit.side, []).append(unit)
        cached = (units, {side: tuple(vessels) for side, vessels in found.items()})
        _COMMODORE_VESSELS = cached
    return cached[1]


def commodore_option(
    state: GameState,
    side: str,
    reroll: str,
    subject: Unit | None,
    options: Mapping[str, Any],
    *,
    firer: Unit | None = None,
) -> str | None:
    """R002.10 / T002.3: the option letter that lets `side` re-roll this roll, or None.

    `reroll` is "treacherous-terrain", "critical-vs-enemy", "critical-vs-own-commodore" or
    "damage-repair"; `subject` the model the roll is for (the enemy hit, for option b);
    `firer` the side's model that fired (option b, measured from it by default, A002.4).
    """
    commodore = fleet_commodore(state, side)
    if commodore is None:
        return None
    for letter, option in COMMODORE_OPTIONS.items():
        if option.reroll != reroll:
            continue
        if option.within is None:
            return letter if subject is not None and subject.id == commodore.id else None
        measured = subject
        if letter == "b" and options["fc_option_b_measure_from"] == "firer":
            measured = firer
        if measured is None:
            return None
        if measured.id == commodore.id or _within_range(commodore, measured):
            return letter
    return None


def _within_range(commodore: Unit, measured: Unit) -> bool:
    """GEO002.4: `measured` within `FC_RANGE` of the commodore's centre, remembered for the
    two very models (beside their ids, so that no id is reused): every Critical Hit an
    attack's exact odds reach asks it again of the same two."""
    slot = (id(commodore), id(measured))
    found = _IN_RANGE.get(slot)
    if found is not None and found[0] is commodore and found[1] is measured:
        return found[2]
    inside = within_from_centre(commodore, measured, FC_RANGE)
    if len(_IN_RANGE) >= 1024:
        _IN_RANGE.clear()
    _IN_RANGE[slot] = (commodore, measured, inside)
    return inside


_IN_RANGE: dict[tuple[int, int], tuple[Unit, Unit, bool]] = {}


def commodore_available(state: GameState, side: str) -> bool:
    """R002.10: one re-roll a turn."""
    return side not in tuple(tracking.get(state, "fc_used", ()))
