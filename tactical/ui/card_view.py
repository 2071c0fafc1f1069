"""What an adjudication card shows for one firer and one target, as plain values in inches.

Every number comes from the rules layer's `TableGeometry.pair` (the very report
`tactical check` prints); the arc boundary lines are the firer's own arcs
(`RuleSystem.unit_arcs`), the range-band edge nearest the target comes from the
rule system's own `range_band` (`band_limits`), and each weapon's verdict from its
`declare_attack` (so a refusal carries the SPEC id that decided it). No pygame here:
tests read the card's values back and compare them with the geometry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tactical.errors import UserError
from tactical.geometry.arcs import ArcMargin
from tactical.geometry.arcs_spec import ArcSpec, Channel, Sector
from tactical.geometry.shapes import heading_vector
from tactical.model import CircleBase, GameState, Unit
from tactical.present.selection import is_all_round, selected_unit
from tactical.rules import registry
from tactical.rules.base import MeasuringConventions, RuleSystem
from tactical.rules.measuring import PairReport, TableGeometry, band_limits
from tactical.rules.status import player_words

Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True)
class ArcCall:
    """One of the firer's arcs: the target centre's margin to its nearest line (degrees, or
    inches for a fixed channel; + inside), whether the arc holds the target under the rule
    system's arc test, and its boundary lines out past the target."""

    name: str
    margin: ArcMargin
    holds: bool
    lines: tuple[Segment, ...]


@dataclass(frozen=True)
class BandEdge:
    """The range-band edge nearest the target: band `inside` ends at `limit` inches (measured
    as the rule system measures range), `outside` starts beyond it (None: out of range);
    `margin` is limit - the target's range (+: the target is inside the edge)."""

    inside: str
    outside: str | None
    limit: float
    margin: float


@dataclass(frozen=True)
class WeaponVerdict:
    """Whether the firer may declare an attack with `weapon` on the target, and if not the
    rule system's reason and the SPEC id that decided it."""

    weapon: str
    may_fire: bool
    reason: str = ""
    spec_id: str | None = None


@dataclass(frozen=True)
class CardView:
    """Everything the adjudication card draws and lists."""

    state: GameState
    system: RuleSystem
    firer: Unit
    target: Unit
    report: PairReport
    arcs: tuple[ArcCall, ...]
    band_edge: BandEdge | None
    weapons: tuple[WeaponVerdict, ...]

    @property
    def conventions(self) -> MeasuringConventions:
        return self.system.conventions

    @property
    def drawn_arcs(self) -> tuple[ArcCall, ...]:
        """The arcs whose lines the card draws: those holding the target, else the nearest one
        to holding it (an all-round arc has no lines)."""
        bounded = [a for a in self.arcs if a.lines]
        holding = [a for a in bounded if a.holds]
        if holding:
            return tuple(holding)
        return (max(bounded, key=lambda a: a.margin.value),) if bounded else ()


def card_view(state: GameState, firer_id: str, target_id: str) -> CardView:
    """The card's values for `firer_id` firing on `target_id` (UserError for an unknown unit or
    a unit against itself)."""
    system = registry.get(state.rules)
    firer, target = selected_unit(state, firer_id), selected_unit(state, target_id)
    if firer.id == target.id:
        raise UserError(f"unit {firer_id!r} cannot be checked against itself")
    report = TableGeometry.of(state, system).pair(firer.id, target.id)
    reach = max(report.centre_distance * 1.25, report.centre_distance + 3.0)
    margins = dict(report.arc_margins)
    arcs = tuple(
        ArcCall(
            arc.name,
            margins[arc.name],
            arc.name in report.arcs,
            () if is_all_round(arc) else boundary_lines(firer, arc, reach),
        )
        for arc in system.unit_arcs(firer)
        if arc.name in margins
    )
    options = system.options(state.options)
    return CardView(
        state,
        system,
        firer,
        target,
        report,
        arcs,
        nearest_band_edge(system, firer, options, report.distance),
        weapon_verdicts(system, state, firer, target),
    )


def boundary_lines(unit: Unit, arc: ArcSpec, reach: float) -> tuple[Segment, ...]:
    """The lines bounding `arc` of `unit`, `reach` inches long: a sector's two rays from the
    centre, a channel's two sides from the front of the base."""
    pose = unit.pose
    if isinstance(arc, Sector):
        rays = []
        for bearing in (arc.start, arc.end):
            dx, dy = heading_vector(pose.heading + bearing)
            rays.append(((pose.x, pose.y), (pose.x + reach * dx, pose.y + reach * dy)))
        return tuple(rays)
    if isinstance(arc, Channel):
        base = unit.base
        if isinstance(base, CircleBase):
            half = front = base.radius
        else:
            half, front = base.width / 2, base.length / 2
        return tuple(
            (pose.to_world(side * half, front), pose.to_world(side * half, reach))
            for side in (-1.0, 1.0)
        )
    return ()


def nearest_band_edge(
    system: RuleSystem, unit: Unit, options: dict, distance: float
) -> BandEdge | None:
    """The band edge of `unit`'s fire nearest `distance` (None for a system without bands)."""
    limit = max(distance * 2.0, distance + 24.0)
    limits = band_limits(system, unit, options, limit)
    if not limits:
        return None
    names = [name for name, _ in limits]
    best = min(range(len(limits)), key=lambda k: abs(limits[k][1] - distance))
    name, edge = limits[best]
    beyond = (
        names[best + 1] if best + 1 < len(names) else system.range_band(unit, edge + 1e-3, options)
    )
    return BandEdge(name, beyond, edge, edge - distance)


def weapon_verdicts(
    system: RuleSystem, state: GameState, firer: Unit, target: Unit
) -> tuple[WeaponVerdict, ...]:
    """Each of the firer's weapons declared on the target by the rule system itself."""
    if not system.has_combat:
        return ()
    verdicts = []
    for weapon in system.weapons(firer, system.options(state.options)):
        try:
            system.declare_attack(state, firer.id, weapon, target.id, {})
        except UserError as refusal:
            said = player_words(state, refusal.message)  # units by name, never by id
            verdicts.append(WeaponVerdict(weapon, False, said, refusal.spec_id))
        else:
            verdicts.append(WeaponVerdict(weapon, True))
    return tuple(verdicts)


def margin_text(margin: ArcMargin) -> str:
    """'+12.34°' or '-0.50"' (a fixed channel's margin is in inches)."""
    if math.isinf(margin.value):
        return "all round"
    mark = "°" if margin.unit == "degrees" else '"'
    return f"{margin.value:+.2f}{mark}"
