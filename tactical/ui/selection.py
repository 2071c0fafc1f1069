"""The selected unit's facts (arcs, range rings, lines of sight) for the drawing modules:
they are worked out in `tactical.present.selection` (no pygame there) and found here too."""

from __future__ import annotations

from tactical.present.selection import (
    ArcShape,
    RangeRing,
    SelectionView,
    SightLine,
    band_limits,
    is_all_round,
    selected_unit,
    selection_view,
)

__all__ = [
    "ArcShape",
    "RangeRing",
    "SelectionView",
    "SightLine",
    "band_limits",
    "is_all_round",
    "selected_unit",
    "selection_view",
]
