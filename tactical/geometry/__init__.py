"""tactical.geometry: pure functions on poses, bases, arcs, terrain polygons and numpy arrays.

Knows no rules and no model: other layers pass `Pose`/`Base` values, arc specs
and shapely geometries in, and get numbers, booleans and polygons back.

The general `measure(pose_a, base_a, pose_b, base_b, from_, to)` function is
imported from `tactical.geometry.measure` (re-exporting it here would hide
the module of the same name).

The names below are loaded when first asked for (PEP 562), so that importing one module
of the package (`tactical.geometry.shapes` for the model) loads only that module and what
it needs: a short command starts quickly. Each name is listed once, with its module, in
`_MODULES`; `__all__` is made from it.
"""

from __future__ import annotations

import importlib

# each name's module, by the module's last part
_MODULES = {
    name: f"tactical.geometry.{module}"
    for module, names in (
        (
            "arcs",
            "ANGLE_TOLERANCE QUADRANT_NAMES ArcMargin angular_interval arc_margin arc_region "
            "arcs_containing bearing_in_sector centre_arc in_arc pair_arc_masks point_in_arc "
            "quadrant_index quadrants_of relative_bearing relative_bearings",
        ),
        (
            "arcs_spec",
            "AFT BROADSIDES CHANNEL FORE OMNI PORT QUADRANTS STARBOARD TURRET_270 ArcSpec "
            "Channel Omni Sector",
        ),
        ("los", "LosResult TerrainIndex line_of_sight lines_of_sight los_hits order_along"),
        ("matrix", "LevelBlocking PairMatrix UnitRow pair_matrix unit_row"),
        (
            "measure",
            "LENGTH_TOLERANCE BaseArrays Measurement band_indices centre_distance_matrix "
            "centre_to_centre centre_to_nearest edge_distance_matrix edge_to_centre "
            "edge_to_edge pair_edge_distances tune_allocator",
        ),
        (
            "proximity",
            "approach approach_angle command_components commanded_element "
            "connected_components out_of_command within within_distances within_matrix",
        ),
        (
            "shapes",
            "Base CircleBase Pose RectBase base_corners footprint heading_vector normalise_heading",
        ),
    )
    for name in names.split()
}


def __getattr__(name: str):
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = list(_MODULES)
