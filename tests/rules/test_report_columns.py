"""The report layer at table scale: `tactical check --json` streamed block by block
is the document json.dumps writes from every PairReport; the columns' numbers (range bands,
arc margins, blocker order) are the scalar functions' (docs/architecture.md; GEO002.10
line of sight; the range tables of GEO001.7, GEO003.1, R002 range bands)."""

from __future__ import annotations

import io
import json
import math
from contextlib import redirect_stdout

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.cli import main
from tactical.geometry.arcs import arc_margin
from tactical.geometry.arcs_spec import BROADSIDES, CHANNEL, OMNI, QUADRANTS, TURRET_270
from tactical.geometry.margins import arc_margins
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map, maps_dir
from tactical.rules import registry
from tactical.rules.measuring import TableGeometry
from tactical.rules.report_json import numbers


def _check_output(*args: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["check", *args]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def stress() -> TableGeometry:
    return TableGeometry.of(load_map(builtin_map("stress-200")))


def test_streamed_json_is_the_in_memory_document_on_the_200_unit_map(stress):
    """Byte for byte: the streamed `check --json` of maps/stress-200.toml equals json.dumps
    of the document built in memory from every pair's PairReport (from the whole matrix)."""
    reports = stress.all_pairs()
    document = {"rules": stress.state.rules, "pairs": [r.as_json() for r in reports]}
    expected = json.dumps(document, ensure_ascii=False) + "\n"
    streamed = _check_output(str(builtin_map("stress-200")), "--json")
    assert len(reports) == 200 * 199
    assert streamed == expected


@pytest.fixture(scope="module")
def whole_text(stress) -> bytes:
    reports = stress.all_pairs()
    return ", ".join(json.dumps(r.as_json(), ensure_ascii=False) for r in reports).encode()


@pytest.mark.parametrize("block", [1, 150, 1000])
def test_any_block_size_gives_the_same_reports(stress, whole_text, block):
    """Blocks of one firer, of less than a firer's pairs, of several firers: same reports."""
    parts = list(stress.report_blocks(pairs_per_block=block))
    assert b", ".join(part.json_text() for part in parts) == whole_text
    whole = stress.all_pairs()
    streamed = [r for part in parts[:3] for r in part]
    assert streamed == whole[: len(streamed)]


@pytest.mark.parametrize("name", ["battlefleet-mars", "cortex-space", "dystopian-wars",
                                  "heavy-combat", "sw-d6-capital", "default", "dense"])  # fmt: skip
def test_every_built_in_map_streams_its_in_memory_document(name):
    """Every rule system's table, with witnesses and without, and one firer's pairs."""
    path = str(builtin_map(name))
    geometry = TableGeometry.of(load_map(path))
    for witness in (False, True):
        reports = geometry.all_pairs(witness=witness)
        document = {"rules": geometry.state.rules, "pairs": [r.as_json() for r in reports]}
        args = (path, "--json", "--witness") if witness else (path, "--json")
        assert _check_output(*args) == json.dumps(document, ensure_ascii=False) + "\n"
    first = geometry.state.units[0].id
    one = [r.as_json() for r in geometry.all_pairs(first)]
    assert json.loads(_check_output(path, "--json", "--unit", first))["pairs"] == one


def test_a_blocked_line_lists_its_pieces_in_geos_order(stress):
    """GEO002.10: blockers in the order the line meets them, as GEOS measures the distance
    from the firer's centre to each crossing (ties by id)."""
    checked = 0
    for part in stress.report_blocks(pairs_per_block=4000):
        for k in np.flatnonzero((part.blockers >= 0).sum(axis=1) > 1)[:40].tolist():
            report = part[k]
            a, b = int(part.sources[k]), int(part.targets[k])
            start = (stress.units.x[a], stress.units.y[a])
            line = shapely.linestrings([start, (stress.units.x[b], stress.units.y[b])])
            index = [stress.terrain.ids.index(name) for name in report.blocked_by]
            crossing = shapely.intersection(line, stress.terrain.geometries[index])
            entry = shapely.distance(shapely.points(start), crossing).tolist()
            assert list(report.blocked_by) == [
                n for _, n in sorted(zip(entry, report.blocked_by, strict=True))
            ]
            checked += 1
    assert checked > 100


def test_arc_margins_are_the_scalar_margins_bit_for_bit(stress):
    """Vectorised margins equal arc_margin's, for sectors, a channel and Omni."""
    units = stress.units
    n = len(units)
    i, j = np.nonzero(~np.eye(n, dtype=bool))
    pick = np.random.default_rng(18).choice(len(i), 4000, replace=False)
    i, j = i[pick], j[pick]
    for arc in (*QUADRANTS, TURRET_270, *BROADSIDES, CHANNEL, OMNI):
        values = arc_margins(units, i, j, arc)
        for k in range(len(i)):
            a, b = int(i[k]), int(j[k])
            scalar = arc_margin(units.poses[a], units.bases[a], arc, units.x[b], units.y[b])
            assert values[k] == scalar.value and math.copysign(1, values[k]) == math.copysign(
                1, scalar.value
            ), (arc.name, a, b)


@pytest.mark.parametrize("rules", ["battlefleet-mars", "cortex-space", "dystopian-wars",
                                   "heavy-combat", "sw-d6-capital"])  # fmt: skip
def test_range_bands_by_table_are_range_band(rules):
    """Banding many distances at once (RuleSystem.range_table, searchsorted) gives
    range_band's answer at, just inside and just beyond every band's limit."""
    state = load_map(maps_dir() / f"{rules}.toml")
    system = registry.get(rules)
    geometry = TableGeometry.of(state, system)
    distance = np.concatenate((np.linspace(0, 200, 401), np.arange(0, 100, 0.25)))
    for unit_index, unit in enumerate(state.units):
        table = system.range_table(unit, state.options)
        if table is not None:
            limits = np.array([b.max_inches for b in table.bands])
            distance = np.concatenate(
                (distance, limits, limits + 1e-9, np.nextafter(limits + 1e-9, 1e9))
            )
        names, codes = geometry.range_bands(np.full(len(distance), unit_index), distance)
        expected = [system.range_band(unit, float(d), state.options) for d in distance]
        assert [names[c] for c in codes] == expected


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.floats(-1e9, 1e9, allow_nan=False)
        | st.sampled_from([0.0, -0.0, 1e-4, -1e-4, 5e-7, 0.0078125, 2.5e-6, 99.9999995, 1e-5]),
        min_size=1,
        max_size=60,
    )
)
def test_numbers_are_json_dumps_of_the_rounded_values(values):
    """Every number the byte matrix vouches for is json.dumps(round(v, 6)) (0.0 for -0)."""
    chars, sure = numbers(np.array(values))
    for value, row, ok in zip(values, chars, sure, strict=True):
        rounded = round(value, 6)
        if ok:
            assert bytes(row[row != 0]).decode() == json.dumps(0.0 if rounded == 0 else rounded)
        else:
            assert not row.any()
