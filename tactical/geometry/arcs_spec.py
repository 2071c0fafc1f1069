"""Arc definitions as data (docs/architecture.md conventions).

Sector arcs are given by a start and end relative bearing, clockwise, both
inclusive: `fore` is Sector("fore", 315, 45). A `Channel` is a corridor straight
ahead the width of the base (fixed channel weapons); `Omni` covers everything.
The tests that use them live in `tactical.geometry.arcs`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sector:
    """Relative bearings from `start` clockwise to `end`, inclusive. span 360 is everything."""

    name: str
    start: float
    end: float

    @property
    def span(self) -> float:
        span = (self.end - self.start) % 360.0
        return 360.0 if span == 0.0 and self.start != self.end else (span or 360.0)


@dataclass(frozen=True, slots=True)
class Channel:
    """A corridor straight ahead from the front of the base, as wide as the base."""

    name: str = "channel"


@dataclass(frozen=True, slots=True)
class Omni:
    """Every direction."""

    name: str = "all-round"


ArcSpec = Sector | Channel | Omni

FORE = Sector("fore", 315.0, 45.0)
STARBOARD = Sector("starboard", 45.0, 135.0)
AFT = Sector("aft", 135.0, 225.0)
PORT = Sector("port", 225.0, 315.0)
QUADRANTS: tuple[Sector, ...] = (FORE, STARBOARD, AFT, PORT)
TURRET_270 = Sector("turret", 225.0, 135.0)  # 270° centred on the heading
BROADSIDES: tuple[Sector, ...] = (
    Sector("port broadside", 225.0, 315.0),
    Sector("starboard broadside", 45.0, 135.0),
)
OMNI = Omni()
CHANNEL = Channel()
