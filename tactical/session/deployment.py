"""Deployment: roll-off for edges, zones, alternate squadron placement (R002.16-R002.18, A002.6).

1. Each side rolls 2D6; the higher total wins; ties re-roll (A002.6). Every
   die is rolled with the injected dice and recorded.
2. The winner chooses any edge; the other side takes the opposite one.
3. Each zone is the full length of its edge and 8" deep (R002.17); a unit is
   legally deployed only with its whole base inside its side's zone.
4. The side that chose its edge deploys one squadron, then the other side
   one, alternating until all are down; a side with none left passes (R002.18).

Squadrons are the units sharing a `squadron` stat (a unit without one is a
squadron of its own), in the order they first appear in the map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tactical.dice import D6, Dice, Roll
from tactical.errors import UserError
from tactical.geometry.movement import Violation
from tactical.geometry.shapes import Pose
from tactical.geometry.zones import ZONE_DEPTH, Zone, check_edge, deployment_zone, opposite_edge
from tactical.model import Board, GameState, Unit
from tactical.physics.overlap import overlapping_pairs, terrain_overlaps
from tactical.rules import registry

# The rules this procedure follows, for the screens and messages that cite them.
ROLL_OFF_RULE = "R002.16"
ZONE_RULE = "R002.17"
OVERLAP_RULE = "R002.33"
DEPLOYMENT_RULES = "R002.16-17"
MAX_ROLL_OFF_ROUNDS = 1000  # ties re-roll; a fair die ties this often with probability ~0


@dataclass(frozen=True, slots=True)
class RollOffRound:
    """One round of the roll-off: each side's two dice."""

    dice: Mapping[str, tuple[int, int]]

    @property
    def totals(self) -> dict[str, int]:
        return {side: sum(pair) for side, pair in self.dice.items()}


@dataclass(frozen=True)
class RollOff:
    """R002.16: the rounds rolled (the last one has a single highest total) and the winner."""

    rounds: tuple[RollOffRound, ...]
    winner: str
    rolls: tuple[Roll, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "rounds": [
                {"dice": {s: list(d) for s, d in r.dice.items()}, "totals": r.totals}
                for r in self.rounds
            ],
        }


def roll_off(dice: Dice, sides: Sequence[str] = ("A", "B")) -> RollOff:
    """Each side rolls 2D6, the highest total wins, ties re-roll (R002.16, A002.6)."""
    if len(sides) < 2 or len(set(sides)) != len(sides):
        raise UserError(f"a roll-off needs two or more different sides, not {list(sides)}")
    recorded_from = len(getattr(dice, "rolls", ()))
    rounds = []
    for number in range(1, MAX_ROLL_OFF_ROUNDS + 1):
        pairs = {
            side: (
                dice.roll(D6, who=side, what=f"deployment roll-off {number}, first die (R002.16)"),
                dice.roll(D6, who=side, what=f"deployment roll-off {number}, second die (R002.16)"),
            )
            for side in sides
        }
        rounds.append(RollOffRound(pairs))
        totals = rounds[-1].totals
        best = max(totals.values())
        leaders = [side for side, total in totals.items() if total == best]
        if len(leaders) == 1:
            rolls = tuple(getattr(dice, "rolls", ())[recorded_from:])
            return RollOff(tuple(rounds), leaders[0], rolls)
    raise UserError(
        f"the deployment roll-off tied {MAX_ROLL_OFF_ROUNDS} times: the dice are not random",
        spec_id="A002.6",
    )


@dataclass(frozen=True)
class Deployment:
    """Who chose, which edge each side has, and the zones (R002.16-R002.17)."""

    chooser: str
    edges: Mapping[str, str]
    zones: Mapping[str, Zone]

    def zone(self, side: str) -> Zone:
        try:
            return self.zones[side]
        except KeyError:
            raise UserError(
                f"side {side!r} has no deployment zone; sides: " + ", ".join(self.zones)
            ) from None

    def as_dict(self) -> dict[str, Any]:
        return {
            "chooser": self.chooser,
            "edges": dict(self.edges),
            "zones": {side: list(zone.bounds) for side, zone in self.zones.items()},
        }


def choose_edges(
    board: Board,
    chooser: str,
    edge: str,
    sides: Sequence[str] = ("A", "B"),
    depth: float = ZONE_DEPTH,
) -> Deployment:
    """The chooser takes `edge`, the other side the opposite edge; zones 8" deep. R002.16-17."""
    if chooser not in sides:
        raise UserError(f"side {chooser!r} is not playing; sides: " + ", ".join(sides))
    if len(sides) != 2:
        raise UserError(f"edges by roll-off are for two sides, not {len(sides)}", spec_id="R002.16")
    other = next(side for side in sides if side != chooser)
    edges = {chooser: check_edge(edge), other: opposite_edge(edge)}
    zones = {
        side: deployment_zone(board.width, board.height, side_edge, depth)
        for side, side_edge in edges.items()
    }
    return Deployment(chooser, edges, zones)


def squadrons(state: GameState, side: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The side's squadrons in map order: (name, unit ids)."""
    found: dict[str, list[str]] = {}
    for unit in state.units:
        if unit.side == side:
            name = str(unit.stats.get("squadron", "") or unit.id)
            found.setdefault(name, []).append(unit.id)
    return tuple((name, tuple(ids)) for name, ids in found.items())


def deployment_order(
    state: GameState, first: str, sides: Sequence[str] | None = None
) -> tuple[tuple[str, str], ...]:
    """(side, squadron) turns, alternating from `first`; a side with none left passes. R002.18."""
    order = list(sides or state.sides)
    if first not in order:
        raise UserError(f"side {first!r} is not playing; sides: " + ", ".join(order))
    start = order.index(first)
    order = order[start:] + order[:start]
    queues = {side: [name for name, _ in squadrons(state, side)] for side in order}
    turns = []
    while any(queues.values()):
        for side in order:
            if queues[side]:
                turns.append((side, queues[side].pop(0)))
    return tuple(turns)


def is_deployed_in(unit: Unit, zone: Zone) -> bool:
    """R002.17: legally deployed only with the whole base inside the zone."""
    return zone.holds(unit.footprint)


def deployment_violations(state: GameState, deployment: Deployment) -> tuple[Violation, ...]:
    """Every unit not wholly inside its side's zone, overlapping a model or in colliding terrain."""
    found = []
    for unit in state.units:
        zone = deployment.zones.get(unit.side)
        if zone is not None and not is_deployed_in(unit, zone):
            found.append(
                Violation(
                    "R002.17",
                    f"unit {unit.id!r} is not wholly inside side {unit.side}'s deployment zone "
                    f"({zone.edge} edge, x {zone.x0:g}..{zone.x1:g}, y {zone.y0:g}..{zone.y1:g})",
                )
            )
    system = registry.get(state.rules)
    for a, b in overlapping_pairs(state.units, system.los_level):
        found.append(Violation("R002.33", f"units {a!r} and {b!r} overlap"))
    for unit_id, terrain_id in terrain_overlaps(
        state.units, state.terrain, system.terrain_collides
    ):
        found.append(
            Violation(
                "R002.35", f"unit {unit_id!r} stands in terrain {terrain_id!r} it collides with"
            )
        )
    return tuple(found)


def deploy_squadron(
    state: GameState,
    deployment: Deployment,
    side: str,
    squadron: str,
    poses: Mapping[str, Pose],
) -> GameState:
    """Place one squadron's units (every one of them) in the side's zone; a new state. R002.17-18.

    Refused with a `UserError` (nothing changed) when a unit is missing or
    extra, outside the zone, on another model or in terrain it collides with.
    """
    members = dict(squadrons(state, side)).get(squadron)
    if members is None:
        names = ", ".join(name for name, _ in squadrons(state, side)) or "none"
        raise UserError(f"side {side} has no squadron {squadron!r}; squadrons: {names}")
    if set(poses) != set(members):
        raise UserError(
            f"squadron {squadron!r} deploys all its units at once: "
            f"expected {sorted(members)}, got {sorted(poses)}",
            spec_id="R002.18",
        )
    zone = deployment.zone(side)
    units = {u.id: u for u in state.units}
    moved = [units[uid].moved_to(poses[uid]) for uid in members]
    for unit in moved:
        if not is_deployed_in(unit, zone):
            raise UserError(
                f"unit {unit.id!r} at ({unit.x:g}, {unit.y:g}) is not wholly inside side "
                f"{side}'s deployment zone on the {zone.edge} edge",
                spec_id="R002.17",
            )
    placed = {u.id: u for u in moved}
    new_units = tuple(placed.get(u.id, u) for u in state.units)
    system = registry.get(state.rules)
    clash = overlapping_pairs(new_units, system.los_level, among=members)
    if clash:
        a, b = clash[0]
        raise UserError(f"units {a!r} and {b!r} would overlap", spec_id="R002.33")
    stuck = terrain_overlaps(moved, state.terrain, system.terrain_collides)
    if stuck:
        unit_id, terrain_id = stuck[0]
        raise UserError(
            f"unit {unit_id!r} would stand in terrain {terrain_id!r}", spec_id="R002.35"
        )
    return replace(state, units=new_units)
