"""How a rule system measures, as data: its range bands, its measuring conventions, the
bands a weapon fires in, and the limits of a unit's bands found by asking its own
`range_band` (part of the rule-system protocol, `tactical.rules.protocol`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from tactical.geometry.arcs_spec import QUADRANTS, ArcSpec
from tactical.model import Unit

if TYPE_CHECKING:  # names only: the move's types are the planner's, loaded with it
    from tactical.geometry.movement import PathPlan
    from tactical.geometry.movement_spec import TurningRules
    from tactical.geometry.shapes import Pose


@dataclass(frozen=True, slots=True)
class RangeBand:
    """A named band covering distances up to `max_inches` (inclusive) from the band before it."""

    name: str
    max_inches: float


@dataclass(frozen=True)
class RangeBands:
    """A rule system's range table: inches -> band name (G.4: "within X" means <= X)."""

    bands: tuple[RangeBand, ...]

    def band(self, distance: float) -> str | None:
        """The band holding `distance`, or None beyond the last band."""
        for band in self.bands:
            if distance <= band.max_inches + 1e-9:
                return band.name
        return None

    @property
    def max_range(self) -> float:
        return self.bands[-1].max_inches if self.bands else 0.0

    @property
    def names(self) -> tuple[str | None, ...]:
        """The band names, then None (beyond the last band): what `indices` point into."""
        return (*(band.name for band in self.bands), None)

    def indices(self, distances: np.ndarray) -> np.ndarray | None:
        """`band` of many distances as indices into `names` (searchsorted), or None when the
        bands do not grow outwards (then only `band`'s first-match reading holds)."""
        limits = np.array([band.max_inches for band in self.bands], dtype=float) + 1e-9
        if np.any(np.diff(limits) < 0):
            return None
        return limits.searchsorted(np.asarray(distances, dtype=float), side="left")


@dataclass(frozen=True)
class MeasuringConventions:
    """How a rule system measures (docs/architecture.md "The rule-system protocol").

    - `distance_from`: "centre" or "edge" of the firer's base;
    - `distance_to`: "centre" or "nearest" point of the target;
    - `arc_test`: a target is in an arc by its "centre" or by "any" part of its base;
    - `range_unit`: inches per range unit where the system counts units (BFM), else None;
    - `range_bands`: the band table shown by `tactical check`, or None;
    - `arcs`: the arcs the system names, in display order;
    - `citations`: the SPEC id deciding each measured question ("range", "arcs",
      "line of sight"), shown with the numbers on an adjudication card.
    """

    distance_from: Literal["centre", "edge"] = "centre"
    distance_to: Literal["centre", "nearest"] = "centre"
    arc_test: Literal["centre", "any"] = "centre"
    range_unit: float | None = None
    range_bands: RangeBands | None = None
    arcs: tuple[ArcSpec, ...] = QUADRANTS
    citations: tuple[tuple[str, str], ...] = ()

    def citation(self, question: str) -> str | None:
        """The SPEC id deciding `question` ("range", "arcs" or "line of sight"), if cited."""
        return dict(self.citations).get(question)


@dataclass(frozen=True, slots=True)
class FiringBand:
    """A range band a weapon fires in: distances over `low` up to `high` inches (inclusive),
    measured as the rule system measures range (`high` may be math.inf: no limit)."""

    name: str
    low: float
    high: float


@dataclass(frozen=True)
class WeaponReach:
    """Where one weapon can bear on a target (for a threat map): a target in any of `arcs`
    (under the system's arc test), at a range in one of `bands`, measured from the firer's
    `measured_from` ("centre" or "edge") to the target as the conventions say; line of sight
    by the system's `blocks_los`. `declare_attack` stays the judge of a real declaration."""

    weapon: str
    arcs: tuple[ArcSpec, ...]
    bands: tuple[FiringBand, ...]
    measured_from: Literal["centre", "edge"] = "centre"

    @property
    def max_range(self) -> float:
        return max((band.high for band in self.bands), default=0.0)


REACH_PROBE_LIMIT = 240.0  # inches: a band still open this far out is taken as unlimited


def bands_from_limits(
    limits: Sequence[tuple[str, float]], open_band: str | None
) -> tuple[FiringBand, ...]:
    """Firing bands from (name, outer limit) pairs in order, and the band still open past the
    last limit (None: out of range there)."""
    bands, low = [], 0.0
    for name, high in limits:
        bands.append(FiringBand(name, low, high))
        low = high
    if open_band is not None:
        bands.append(FiringBand(open_band, low, math.inf))
    return tuple(bands)


def band_name(name: str) -> str:
    """A range band as a player names it: one named by a bare number is "band 3" (a number
    alone beside a distance reads as two numbers), a named one stays "short"."""
    return f"band {name}" if name.isdigit() else name


@dataclass(frozen=True, eq=False)
class ModelBlocking:
    """Which models' bases block line of sight between which units (e.g. R002.41), in the
    shape the pair matrix asks it: `blockers` (B,) the indices (into the state's units) of
    the models that may block any line; `levels` (N,) each unit's code as viewer or target
    (0 .. L-1); `mask[a, b, k]` whether blocker k blocks a line from a unit of code a to
    one of code b. A model never blocks a line from or to itself (the geometry's rule)."""

    blockers: np.ndarray
    levels: np.ndarray
    mask: np.ndarray


class _RangeBandOf(Protocol):
    """A rule system as `band_limits` asks it (`RuleSystem.range_band`)."""

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None: ...


PROBE_STEP = 0.25  # inches between range-band probes; bands narrower than this could be missed
PROBE_PRECISION = 1e-4  # inches: band limits are found to this precision


def band_limits(
    system: _RangeBandOf, unit: Unit, options: Mapping[str, Any], limit: float
) -> tuple[tuple[str, float], ...]:
    """(band name, outer limit in inches) of each range band of `unit` closing within `limit`.

    Found by asking the rule system's own `range_band` along the distance axis
    (a scan then bisection), so map options and per-weapon ranges are honoured
    without a second copy of any rule's numbers.
    """
    limits: list[tuple[str, float]] = []
    previous = system.range_band(unit, 0.0, options)
    distance = 0.0
    while distance < limit:
        step_end = min(distance + PROBE_STEP, limit)
        band = system.range_band(unit, step_end, options)
        if band != previous:
            low, high = distance, step_end
            while high - low > PROBE_PRECISION:
                middle = (low + high) / 2
                if system.range_band(unit, middle, options) == previous:
                    low = middle
                else:
                    high = middle
            if previous is not None:
                limits.append((previous, round(low, 3)))
            previous = band
        distance = step_end
    return tuple(limits)


@dataclass(frozen=True, slots=True)
class PlannedMove:
    """A unit's move as the rule system's own move action plans it (GEO002.8,
    `RuleSystem.planned_move`): the turning rules it is held to, the path as declared (its
    own checks), what stops it first as (kind: "terrain" / "ram" / "edge", the obstacle's
    id, the motion, the fraction of it made, where the unit stops) or None (R002.35,
    R002.59), and whether a disengage is refused, the unit touching nothing (R002.32)."""

    rules: TurningRules
    path: PathPlan
    contact: tuple[str, str, int, float, Pose] | None
    disengage_refused: bool
