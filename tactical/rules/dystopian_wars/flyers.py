"""Tiny Flyers (R002.52-R002.61, T002.11, GEO002.5, GEO002.11, A002.14-A002.16).

A Tiny Flyer (TF) is a unit with a `wing_type` stat; the TFs of one squadron are its
Wing. Rule-state `wings[squadron]` tracks Fuel (6 when deployed, R002.54), whether it is
armed (R002.55) and the turn it was launched (R002.61).

- R002.52 / A002.14: the Wing's base-contact graph must be connected (`formation_valid`);
  moves are checked when the Wing's movement ends, removals keep it valid (`combat`).
- R002.53: one TF type; 3-5 TFs (1 for a Reconnaissance Plane Wing) when created.
- R002.56 Abort: see `combat` (A002.16: the hits of the single attack).
- R002.57: one Fighter Plane Wing may attach as Combat Air Patrol to one Large or Massive
  non-Diving Parent Model within 4" (bookkeeping: `cap[wing] = parent`).
- R002.59: a Wing that leaves the table is Lost (the movement code's `lost_off_board`).
- R002.60: at the end of its activation a Wing within 4" of a Carrier of its fleet may
  Land (TFs beyond the Carrier's complement are Destroyed); "within 4"" is measured base
  edge to base edge from the Carrier to the Wing's nearest TF.
- R002.61: a Carrier may Launch one Wing before it moves; the Wing is placed within 4"
  and cannot be activated in the turn it launches.

External defaults (G.5): a Wing spends `fuel_per_activation` Fuel when activated and is
Lost if it ends an activation with none left without Landing; launched TFs get the
`FLYER_TEMPLATES` card of their type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tactical.errors import UserError
from tactical.geometry.shapes import CircleBase, Pose
from tactical.model import FrozenMap, GameState, MovementClass, SizeClass, Unit
from tactical.rules.base import Event, Resolution
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import card, squadron_units, squadrons
from tactical.rules.dystopian_wars.combat import settings
from tactical.rules.dystopian_wars.measures import (
    contact_graph_connected,
    on_table,
    within_edges,
)
from tactical.rules.dystopian_wars.resolving import destroy
from tactical.rules.dystopian_wars.tables import LARGE_OR_MASSIVE, WING_FUEL, WING_REACH, WING_SIZES

# What a player calls a launched Tiny Flyer of each Wing type (R002.53), not the type's key
FLYER_NAMES = {
    "fighter": "Fighter Plane",
    "dive-bomber": "Dive Bomber",
    "torpedo-bomber": "Torpedo Bomber",
    "recon": "Reconnaissance Plane",
}

# External default cards of launched Tiny Flyers (base game, G.5).
FLYER_TEMPLATES: dict[str, Mapping[str, Any]] = {
    "fighter": {
        "move": 12.0,
        "weapons": (
            {"name": "Ack Ack", "kind": "ack-ack", "arc": "all-round", "attack_dice": "2-0-0-0"},
        ),
    },
    "dive-bomber": {
        "move": 10.0,
        "weapons": (
            {"name": "Bombs", "kind": "bomb", "arc": "all-round", "attack_dice": "2-0-0-0"},
        ),
    },
    "torpedo-bomber": {
        "move": 10.0,
        "weapons": (
            {
                "name": "Aerial torpedoes",
                "kind": "torpedo",
                "arc": "fore",
                "attack_dice": "2-0-0-0",
            },
        ),
    },
    "recon": {"move": 14.0, "weapons": ()},
}


def wings_on_table(state: GameState, side: str | None = None) -> dict[str, tuple[Unit, ...]]:
    return {
        key: units for key, units in squadrons(state, side).items() if card(units[0]).is_tiny_flyer
    }


def formation_valid(units: tuple[Unit, ...]) -> bool:
    """R002.52 / A002.14 / GEO002.11: every TF in contact, the contact graph connected."""
    return contact_graph_connected(units)


def check_formation(state: GameState, squadron: str) -> None:
    units = squadron_units(state, squadron)
    if not formation_valid(units):
        raise UserError(
            f"Wing {squadron!r} is not a valid Wing Formation: every Tiny Flyer must stay in "
            "base contact with the Wing (the contact graph must be connected)",
            spec_id="R002.52",
        )


def check_composition(wing_type: str, count: int) -> None:
    """R002.53 / T002.11."""
    if wing_type not in WING_SIZES:
        raise UserError(
            f"a Wing is one of {', '.join(WING_SIZES)}, not {wing_type!r}", spec_id="R002.53"
        )
    low, high = WING_SIZES[wing_type]
    if not low <= count <= high:
        wanted = f"exactly {low}" if low == high else f"{low} to {high}"
        raise UserError(
            f"a {wing_type} Wing contains {wanted} Tiny Flyers, not {count}", spec_id="R002.53"
        )


def new_wing(wing_type: str, turn: int, fuel: int = WING_FUEL) -> FrozenMap:
    """R002.54: a Wing deployed (start of game or Launch) has 6 Fuel and is fully armed."""
    return FrozenMap(type=wing_type, fuel=fuel, armed=True, launched_turn=turn)


def initial_wings(state: GameState) -> dict[str, FrozenMap]:
    """The Wings on the map at the start of play (R002.54)."""
    found = {}
    for key, units in wings_on_table(state).items():
        profile = card(units[0])
        found[key] = new_wing(
            str(profile.wing_type), 0, profile.fuel if profile.fuel is not None else WING_FUEL
        )
    return found


def spend_fuel(state: GameState, squadron: str) -> tuple[GameState, list[Event]]:
    """R002.54: Fuel is tracked per Wing; an activation costs `fuel_per_activation` (external)."""
    stored = tracking.mapping(state, "wings").get(squadron)  # this Wing's record alone
    if stored is None:
        return state, []
    wing = tracking.plain(stored)
    spent = int(settings(state)["fuel_per_activation"])
    wing["fuel"] = max(0, int(wing["fuel"]) - spent)
    state = tracking.put_in(state, "wings", squadron, wing)
    return state, [Event.of("fuel", "R002.54", wing=squadron, spent=spent, left=wing["fuel"])]


def out_of_fuel(state: GameState, squadron: str) -> tuple[GameState, list[Event]]:
    """External default: a Wing ending its activation with no Fuel (and not Landed) is Lost."""
    wing = tracking.mapping(state, "wings").get(squadron)
    if wing is None or int(wing["fuel"]) > 0:
        return state, []
    units = squadron_units(state, squadron)
    for unit in units:
        state = destroy(state, unit, how="lost")
    return state, [
        Event.of("wing-lost", "R002.54", wing=squadron, reason="no fuel")
    ] if units else []


def lost_off_table(state: GameState, unit: Unit) -> GameState:
    """R002.59: a Wing that leaves the table for any reason is Lost and cannot return."""
    squadron = card(unit).squadron
    for member in squadron_units(state, squadron):
        state = destroy(state, member, how="lost")
    return state


def can_be_activated(state: GameState, squadron: str, turn: int) -> bool:
    """R002.61: a Wing cannot be activated in the turn it launches."""
    wing = tracking.mapping(state, "wings").get(squadron)
    return wing is None or int(wing.get("launched_turn", 0)) != turn


# --------------------------------------------------------------------------- R002.57


def attach_cap(state: GameState, squadron: str, parent_id: str) -> Resolution:
    """R002.57: attach a Fighter Plane Wing as Combat Air Patrol to a Parent Model."""
    units = squadron_units(state, squadron)
    if not units or card(units[0]).wing_type != "fighter":
        raise UserError("only a Fighter Plane Wing can fly Combat Air Patrol", spec_id="R002.57")
    parent = state.unit(parent_id)
    profile = card(parent)
    if parent.side != units[0].side or profile.is_tiny_flyer:
        raise UserError(f"{parent_id!r} is not a model of the Wing's fleet", spec_id="R002.57")
    if parent.size not in LARGE_OR_MASSIVE or profile.height == "diving":
        raise UserError(
            f"a Combat Air Patrol's Parent Model is Large or Massive and not Diving; "
            f"{parent_id!r} is {parent.size.value}, {profile.height}",
            spec_id="R002.57",
        )
    cap = tracking.mapping(state, "cap")
    if parent_id in cap.values() and cap.get(squadron) != parent_id:
        raise UserError(f"{parent_id!r} already has a Combat Air Patrol", spec_id="R002.57")
    if not any(within_edges(parent, u, WING_REACH) for u in units):
        raise UserError(f'the Wing is not within 4" of {parent_id!r}', spec_id="R002.57")
    state = tracking.put_in(state, "cap", squadron, parent_id)
    return Resolution(
        state,
        (Event.of("combat-air-patrol", "R002.57", wing=squadron, parent=parent_id),),
        parent_id,
    )


# --------------------------------------------------------------------------- R002.60


def aboard(state: GameState, carrier: Unit) -> int:
    found = tracking.mapping(state, "aboard").get(carrier.id)
    return card(carrier).tiny_flyers_aboard if found is None else int(found)


def carriers_in_reach(state: GameState, squadron: str) -> tuple[str, ...]:
    """The fleet's Carriers within 4" of the Wing (GEO002.5)."""
    units = squadron_units(state, squadron)
    if not units:
        return ()
    return tuple(
        c.id
        for c in state.units
        if c.side == units[0].side
        and card(c).is_carrier
        and not tracking.is_prize(state, c.id)
        and any(within_edges(c, u, WING_REACH) for u in units)
    )


def land(state: GameState, squadron: str, carrier_id: str) -> Resolution:
    """R002.60: the Wing Lands; TFs beyond the Carrier's complement are Destroyed."""
    units = squadron_units(state, squadron)
    if carrier_id not in carriers_in_reach(state, squadron):
        raise UserError(
            f'the Wing can Land only on a Carrier of its fleet within 4", not {carrier_id!r}',
            spec_id="R002.60",
        )
    carrier = state.unit(carrier_id)
    room = max(0, card(carrier).carrier_capacity - aboard(state, carrier))
    landed = min(room, len(units))
    events = []
    for index, unit in enumerate(units):
        if index < landed:
            state = state.without_unit(unit.id)
        else:
            state = destroy(state, unit)
            events.append(Event.of("flyer-destroyed", "R002.60", unit=unit.id, reason="no room"))
    state = tracking.put_in(state, "aboard", carrier_id, aboard(state, carrier) + landed)
    state = tracking.put_in(state, "wings", squadron, None)
    state = tracking.put_in(state, "cap", squadron, None)
    events.insert(
        0,
        Event.of(
            "land",
            "R002.60",
            wing=squadron,
            carrier=carrier_id,
            landed=landed,
            destroyed=len(units) - landed,
            complement=card(carrier).carrier_capacity,
        ),
    )
    return Resolution(state, tuple(events), landed)


# --------------------------------------------------------------------------- R002.61


def flyer_positions(
    carrier: Unit, count: int, diameter: float, side: int, start: Pose | None = None
) -> list[Pose]:
    """TFs line abreast (in base contact, side by side across the heading) beside the Carrier's
    `side` (+1 starboard, -1 port), or from `start` to its starboard."""
    if start is not None:
        return [Pose(*start.to_world(diameter * k, 0.0), start.heading) for k in range(count)]
    half_width = getattr(carrier.base, "width", 2 * getattr(carrier.base, "radius", 0.0)) / 2
    first = half_width + 0.5 + diameter / 2
    return [
        Pose(*carrier.pose.to_world(side * (first + diameter * k), 0.0), carrier.heading)
        for k in range(count)
    ]


def launch(
    state: GameState,
    carrier: Unit,
    wing_type: str,
    count: int,
    turn: int,
    start: Pose | None = None,
) -> Resolution:
    """R002.61: Launch one Wing (R002.53 composition, R002.54 Fuel 6 and armed)."""
    profile = card(carrier)
    if not profile.is_carrier:
        raise UserError(f"{carrier.id!r} is not a Carrier", spec_id="R002.61")
    check_composition(wing_type, count)
    if aboard(state, carrier) < count:
        raise UserError(
            f"{carrier.id!r} has {aboard(state, carrier)} Tiny Flyers aboard, not {count}",
            spec_id="R002.61",
        )
    if wing_type == "recon" and any(
        card(units[0]).wing_type == "recon"
        for units in wings_on_table(state, carrier.side).values()
    ):
        raise UserError("at most one Reconnaissance Plane Wing in a fleet", spec_id="A002.15")
    diameter = float(settings(state)["tiny_flyer_base"])
    number = 1 + sum(1 for key in tracking.mapping(state, "launches") if key.startswith(carrier.id))
    squadron_name = f"{carrier.id}-wing-{number}"
    template = FLYER_TEMPLATES[wing_type]
    candidates = [start] if start is not None else [None, None]
    placed: list[Unit] | None = None
    for attempt, origin in enumerate(candidates):
        poses = flyer_positions(carrier, count, diameter, 1 if attempt == 0 else -1, origin)
        units = [
            Unit(
                f"{squadron_name}-{k + 1}",
                FLYER_NAMES[wing_type],  # numbered with the other units of that name
                carrier.side,
                pose,
                CircleBase(diameter),
                MovementClass.AERIAL,
                SizeClass.TINY,
                FrozenMap(
                    move=template["move"],
                    min_move=0.0,
                    height_level="flying",
                    squadron=squadron_name,
                    wing_type=wing_type,
                    weapons=template["weapons"],
                    points=0,
                ),
            )
            for k, pose in enumerate(poses)
        ]
        if _placement_ok(state, carrier, units):
            placed = units
            break
    if placed is None:
        raise UserError(
            f'no room to deploy the Wing within 4" of {carrier.id!r} on the table',
            spec_id="R002.61",
        )
    state = replace(state, units=(*state.units, *placed))
    key = f"{carrier.side}:{squadron_name}"
    state = tracking.put_in(state, "wings", key, new_wing(wing_type, turn))
    state = tracking.put_in(state, "aboard", carrier.id, aboard(state, carrier) - count)
    state = tracking.put_in(state, "launches", f"{carrier.id}#{number}", key)
    events = (
        Event.of(
            "launch",
            "R002.61",
            carrier=carrier.id,
            wing=key,
            wing_type=wing_type,
            count=count,
            units=tuple(u.id for u in placed),
            activate_from_turn=turn + 1,
        ),
        Event.of("wing-deployed", "R002.54", wing=key, fuel=WING_FUEL, armed=True),
    )
    return Resolution(state, events, key)


def _placement_ok(state: GameState, carrier: Unit, units: list[Unit]) -> bool:
    if not all(on_table(state, u) and within_edges(carrier, u, WING_REACH) for u in units):
        return False
    if not formation_valid(tuple(units)):
        return False
    airborne = [u for u in state.units if card(u).airborne]
    return not any(u.footprint.intersects(other.footprint) for u in units for other in airborne)
