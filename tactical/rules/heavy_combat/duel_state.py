"""The Heavy Combat duel in a game state: set up, read back, and one state's fixed facts.

`setup` puts the duel's rule state into the game state at the start of play
(A001.22: two ships on two sides; categorical play starts from the table's
facings and band unless the map says); `current` reads it back, setting it up
if play has not started. `Table` holds what the declarations (`declarations`)
and the Result step (`result`) read from one state: the options, the ship
sheets and the engagement.
"""

from __future__ import annotations

from dataclasses import replace

from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.heavy_combat.duel import Duel, Ship, from_rule_state, stored, to_rule_state
from tactical.rules.heavy_combat.engagement import engagement, table_mode
from tactical.rules.heavy_combat.ships import Profile, profile, settings
from tactical.rules.heavy_combat.tables import MAX_RANGE


def setup(state: GameState) -> GameState:
    """The duel's rule state at the start of play (A001.22: two ships on two sides)."""
    options = settings(state.options)
    sides = state.sides
    if len(state.units) != 2 or len(sides) != 2:
        raise UserError(
            f"a Heavy Combat duel is two ships on two sides; this map has {len(state.units)} "
            f"unit(s) on {len(sides)} side(s)",
            spec_id="A001.22",
        )
    ordered = sorted(state.units, key=lambda u: sides.index(u.side))
    ships = []
    for unit in ordered:
        card = profile(unit)
        ships.append(
            (
                unit.id,
                Ship(
                    elevation=card.elevation,
                    launchers=(None,) * card.photon_launchers,
                    torpedoes=card.torpedoes,
                ),
            )
        )
    duel = Duel(1, tuple(ships))
    if not table_mode(options):
        # categorical play starts from the table's facings and band unless the map says
        table_view = engagement(state, duel, settings({**options, "geometry": "table"}))
        start = options.get("start_range") or min(table_view.band, MAX_RANGE)
        duel = Duel(
            1,
            tuple((key, replace(ship, facing=table_view.facing(key))) for key, ship in duel.ships),
            int(start),
        )
    return to_rule_state(state, duel)


def current(state: GameState) -> tuple[GameState, Duel]:
    """The state with its duel (set up now if play has not started) and the duel."""
    if not stored(state):
        state = setup(state)
    return state, from_rule_state(state)


def cards_of(state: GameState, duel: Duel) -> dict[str, Profile]:
    return {key: profile(state.unit(key)) for key in duel.ids}


def ship_of_side(state: GameState, duel: Duel, side: str) -> str | None:
    for key in duel.ids:
        if state.unit(key).side == side:
            return key
    return None


class Table:
    """One state's fixed facts for the handlers: options, ship sheets, the engagement."""

    def __init__(self, state: GameState, duel: Duel) -> None:
        self.state = state
        self.duel = duel
        self.options = settings(state.options)
        self.cards = cards_of(state, duel)
        self.view = engagement(state, duel, self.options)
