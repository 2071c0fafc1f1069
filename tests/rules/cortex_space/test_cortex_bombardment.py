"""Starship weapons in atmosphere (R003.60-R003.62) and orbital bombardment (R003.63-R003.67,
GEO003.5)."""

from __future__ import annotations

import math

import pytest
from cortex_builders import BATTLESTAR, VIPER, table, unit, with_stats
from hypothesis import given
from hypothesis import strategies as st

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import SizeClass, Terrain
from tactical.rules.cortex_space import bombardment, combat, gunnery, missiles, tables, tracker

CITY = Terrain(
    "city", "small-city", SizeClass.MASSIVE, polygon=((40, 20), (44, 20), (44, 24), (40, 24))
)
BUILDING = Terrain(
    "hq", "small-building", SizeClass.SMALL, polygon=((40, 30), (41, 30), (41, 31), (40, 31))
)
FIELD = Terrain("field", "area", SizeClass.TINY, polygon=((20, 40), (30, 40), (30, 46), (20, 46)))


def _orbit(*extra, **options):
    return table(
        unit("galactica", 10, 22, "A", **BATTLESTAR),
        *extra,
        terrain=[CITY, BUILDING, FIELD],
        **options,
    )


def test_R003_60_atmospheric_range_increments():
    """R003.60 and GEO003.6: range increments in feet, turned into inches by the map's
    `feet_per_inch`."""
    assert [
        tables.range_increment_feet(r)
        for r in ("skirmish", "capital", "short DRADIS", "long DRADIS")
    ] == [1000, 5000, 10000, 25000]
    with pytest.raises(UserError, match=r"R003\.60"):
        tables.range_increment_feet("personal")
    state = table(
        unit("galactica", 10, 10, "A", **BATTLESTAR),
        unit("v", 40, 10, "B", **with_stats(VIPER, scale="spacecraft")),
        atmosphere=True,
        atmosphere_steps_per_increment=1,
    )
    plan = gunnery.plan_gun(state, combat.declare(state, "galactica", "railguns", "v"))
    # 30" x 100 ft = 3,000 ft: one capital increment (5,000 ft), no penalty
    assert plan.roll.pool.steps == 0
    close = table(
        *state.units, atmosphere=True, atmosphere_steps_per_increment=1, feet_per_inch=500.0
    )
    plan = gunnery.plan_gun(close, combat.declare(close, "galactica", "railguns", "v"))
    assert [(m.source, m.steps) for m in plan.roll.modifiers] == [("3 range increments", -2)]


def test_R003_61_missile_blast_increments_on_the_table():
    assert tables.missile_blast("spacecraft", "heavy").blast_feet == 1000
    assert missiles.warhead_damage("spacecraft", "extreme", "d12") == "4d8"
    assert missiles.warhead_damage("spacecraft", None, "d12") == "d12"


def test_R003_62_explosive_is_basic_fragments_are_wound():
    assert tables.damage_kind("explosive") == "basic"
    assert tables.damage_kind("fragmentation") == "wound"
    with pytest.raises(UserError, match=r"R003\.62"):
        tables.damage_kind("nuclear")
    viper = with_stats(
        VIPER,
        weapons=[
            {
                "name": "flechettes",
                "kind": "missile",
                "damage": "4d4",
                "range": "short DRADIS",
                "missiles": 1,
                "warhead": "fragmentation",
            }
        ],
    )
    state = table(
        unit("viper", 10, 10, "A", **viper),
        unit("target", 50, 10, "B", **with_stats(VIPER, life_points=40)),
    )
    state = state.with_rule_state(**{tracker.LOCKS: (("viper", "flechettes", "target"),)})
    flying = missiles.resolve_fire(state, "viper", "flechettes", "target").state
    from tactical.rules.cortex_space import play

    landed = play.start_turn(
        play.start_turn(flying, 2, ScriptedDice([])).state, 3, ScriptedDice([10])
    )
    target = landed.state.unit("target")
    assert (target.stats["wound"], target.stats["stun"]) == (10, 0)


def test_R003_63_and_A003_35_area_bombardment_difficulty_by_weapon_scale():
    result = bombardment.resolve_bombard(
        _orbit(), "galactica", "railguns", "field", ScriptedDice([11, 8])
    )
    threshold = next(e for e in result.events if e.kind == "threshold")
    assert threshold.get("difficulty") == 11  # spacecraft-scale weapon: HARD
    assert result.summary.hit and result.summary.landed is None
    fighter = table(unit("viper", 10, 22, "A", **VIPER), terrain=[FIELD])
    hit = bombardment.resolve_bombard(
        fighter, "viper", "autocannons", "field", ScriptedDice([7, 3])
    )
    assert next(e for e in hit.events if e.kind == "threshold").get("difficulty") == 7


def test_R003_64_miss_scatters_by_d8_and_d10_plus_ten_per_point():
    result = bombardment.resolve_bombard(
        _orbit(), "galactica", "railguns", "city", ScriptedDice([8, 3, 5])
    )
    scatter = next(e for e in result.events if e.kind == "scatter")
    # missed HARD 11 by 3; d8 3 = right; d10 5 -> 5 + 30 = 35 feet = 0.35"
    assert (scatter.get("direction"), scatter.get("feet"), scatter.get("margin")) == (
        "right", 35, 3)  # fmt: skip
    # line of fire from (10, 22) to the city centre (42, 22) points along +x: right is -y
    assert scatter.get("x") == pytest.approx(42.0)
    assert scatter.get("y") == pytest.approx(22 - 0.35)
    assert result.summary.landed == (pytest.approx(42.0), pytest.approx(21.65))
    assert scatter.get("terrain") == ("city",)


@given(st.integers(1, 8), st.integers(0, 300), st.floats(0.5, 500))
def test_GEO003_5_property_scatter_distance_and_bearing(d8, feet, scale):
    start, target = (0.0, 0.0), (10.0, 5.0)
    x, y = bombardment.scatter_point(start, target, d8, feet, scale)
    assert math.hypot(x - target[0], y - target[1]) == pytest.approx(feet / scale, abs=1e-9)
    if d8 == 1 and feet:
        # "long": further along the line of fire
        assert math.hypot(x, y) > math.hypot(*target)


def test_R003_65_structure_life_points_and_armor():
    result = bombardment.resolve_bombard(
        _orbit(), "galactica", "railguns", "city", ScriptedDice([11, 6])
    )
    structure = next(e for e in result.events if e.kind == "structure")
    # Basic 0, d12+d2 rolls 6 -> 6 Wound - Armor 1W = 5 on a 25 LP spacecraft-scale city
    assert (structure.get("life_points"), structure.get("wound")) == (25, 5)
    assert tracker.table(result.state, tracker.STRUCTURES)["city"]["wound"] == 5
    building = bombardment.resolve_bombard(
        _orbit(), "galactica", "railguns", "hq", ScriptedDice([12, 1, 1])
    )
    assert not building.summary.hit  # INCREDIBLE 23 for a spacecraft weapon: 12 misses
    with pytest.raises(UserError, match=r"R003\.65"):
        bombardment.resolve_bombard(
            table(unit("viper", 10, 22, "A", **VIPER), terrain=[CITY]),
            "viper",
            "autocannons",
            "city",
            ScriptedDice([]),
        )


def test_R003_66_casualties_two_thirds_wounded():
    assert bombardment.casualties(3000, 5, 25) == bombardment.Casualties(400, 200)
    assert bombardment.casualties(10, 1, 3) == bombardment.Casualties(2, 1)  # A003.36
    state = _orbit(structures=[{"terrain": "city", "population": 50000}])
    result = bombardment.resolve_bombard(
        state, "galactica", "railguns", "city", ScriptedDice([11, 6])
    )
    casualties = next(e for e in result.events if e.kind == "casualties")
    assert (casualties.get("wounded"), casualties.get("killed")) == (6667, 3333)


def test_R003_67_spotter_designates_for_the_whole_turn():
    spotter = {"scale": "personal", "alertness": "d8", "gunnery": "d8", "life_points": 8}
    state = _orbit(unit("helo", 40, 18, "A", **spotter), spotter_range_steps=-1)
    result = bombardment.resolve_bombard(
        state, "galactica", "railguns", "city", ScriptedDice([11, 6]), spotter="helo"
    )
    assert any(e.get("source") == "starship range penalty" for e in result.events)
    assert tracker.is_done(result.state, "helo")
    total = next(e for e in result.events if e.kind == "total")
    assert total.get("who") == "helo"
    busy = tracker.count_action(state, "helo")
    with pytest.raises(UserError, match=r"R003\.67"):
        bombardment.resolve_bombard(
            busy, "galactica", "railguns", "city", ScriptedDice([11]), spotter="helo"
        )
