"""Range bands of many distances at once: Battlefleet Mars' integer ranges
(GEO000.1, R000.6) and SW D6's weapon bands (GEO004.2) banded all of a firer's distances in
one go are, bit for bit, the bands `range_band` gives pair by pair, on the 200-unit map's
positions and bases with each system's ships."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.measuring import TableGeometry


def _stress_table(rules: str, options: dict) -> TableGeometry:
    """maps/stress-200.toml's positions and bases, each a ship of `rules`' own example map
    (their stats and sides in turn)."""
    stress = load_map(builtin_map("stress-200"))
    ships = load_map(builtin_map(rules))
    units = tuple(
        dataclasses.replace(
            ships.units[k % len(ships.units)], id=f"ship-{k}", pose=unit.pose, base=unit.base
        )
        for k, unit in enumerate(stress.units)
    )
    state = dataclasses.replace(
        ships, units=units, board=stress.board, terrain=(), options=FrozenMap(options)
    )
    return TableGeometry.of(state)


def _bands_both_ways(table: TableGeometry) -> tuple[list, list]:
    n = len(table.units)
    i = np.repeat(np.arange(n), n)
    j = np.tile(np.arange(n), n)
    keep = i != j
    i, j = i[keep], j[keep]
    distance = table.range_distances(i, j)
    names, codes = table.range_bands(i, distance)
    system, units, options = table.system, table.state.units, table.state.options
    one_by_one = [
        system.range_band(units[a], d, options)
        for a, d in zip(i.tolist(), distance.tolist(), strict=True)
    ]
    return [names[c] for c in codes.tolist()], one_by_one


@pytest.mark.parametrize(
    "options",
    [{}, {"range_rounding": "ceil"}, {"range_rounding": "nearest", "range_unit_inches": 2.5}],
)
def test_GEO000_1_battlefleet_mars_ranges_at_once_are_those_pair_by_pair(options):
    table = _stress_table("battlefleet-mars", options)
    assert table.system.range_table(table.state.units[0], table.state.options) is None
    at_once, one_by_one = _bands_both_ways(table)
    assert at_once == one_by_one
    assert None in one_by_one and len(set(one_by_one)) > 10  # beyond laser reach, many ranges


@pytest.mark.parametrize("options", [{}, {"inches_per_space": 0.4}])
def test_GEO004_2_sw_d6_weapon_bands_at_once_are_those_pair_by_pair(options):
    table = _stress_table("sw-d6-capital", options)
    at_once, one_by_one = _bands_both_ways(table)
    assert at_once == one_by_one
    assert len(set(one_by_one)) >= 3


def test_distances_on_a_band_limit_fall_as_range_band_says():
    """Distances exactly on (and a hair either side of) every limit."""
    bfm = registry.get("battlefleet-mars")
    ships = load_map(builtin_map("battlefleet-mars"))
    for unit in ships.units:
        for options in ({}, {"range_rounding": "ceil"}, {"range_rounding": "nearest"}):
            distances = np.array(
                [d + e for d in np.arange(0.0, 20.0, 0.5) for e in (-1e-9, 0.0, 1e-9, 1e-12)]
            ).clip(0.0)
            names, codes = bfm.range_band_indices(unit, distances, options)
            assert [names[c] for c in codes] == [
                bfm.range_band(unit, d, options) for d in distances.tolist()
            ]
    sw = registry.get("sw-d6-capital")
    for unit in load_map(builtin_map("sw-d6-capital")).units:
        distances = np.array(
            [d + e for d in np.arange(0.0, 90.0, 1.0) for e in (-1e-9, 0.0, 1e-9, 2e-9)]
        ).clip(0.0)
        names, codes = sw.range_band_indices(unit, distances, {})
        assert [names[c] for c in codes] == [sw.range_band(unit, d, {}) for d in distances]
