"""Planning and playing moves on a table: collisions, rams, board exit, Snaking tests
(R002.30-R002.35, R002.59, GEO002.8)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import (
    Board,
    FrozenMap,
    GameState,
    MovementClass,
    Pose,
    RectBase,
    SizeClass,
    Terrain,
    Unit,
)
from tactical.session.movement import plan_move, play_move

FIXED_KEYS = {"x", "y", "heading", "distance", "legal", "violations", "snaking", "collision"}


def ship(unit_id: str, x: float, y: float, heading: float = 0.0, **stats) -> Unit:
    values = {"move": 12.0, "min_move": 0.0, **stats}
    return Unit(
        unit_id, unit_id, "A", Pose(x, y, heading), RectBase(1.5, 4), stats=FrozenMap(values)
    )


def table(*units: Unit, terrain: tuple[Terrain, ...] = ()) -> GameState:
    return GameState("dystopian-wars", Board(72, 48), terrain=terrain, units=units)


REEF = Terrain("reef", "soft", SizeClass.TINY, polygon=((8, 20), (12, 20), (12, 22), (8, 22)))


def test_a_path_that_clips_a_reef_midway_stops_before_it_r002_35():
    state = table(ship("hms", 10, 10), terrain=(REEF,))
    plan = plan_move(state, "hms", "F4 F8")
    data = plan.as_dict(state)
    assert set(data) >= FIXED_KEYS
    assert data["legal"] is True
    assert data["collision"]["kind"] == "terrain"
    assert data["collision"]["id"] == "reef"
    assert data["collision"]["token"] == "F8"
    assert data["collision"]["terrain_kind"] == "soft"
    assert data["y"] + 2.0 == pytest.approx(20.0, abs=0.002)  # the bow at the reef's edge
    assert data["x"] == 10.0
    assert data["distance"] == pytest.approx(8.0, abs=0.002)
    assert data["planned"]["y"] == pytest.approx(22.0)


def test_land_models_drive_over_soft_terrain_t002_12():
    tank = Unit("tank", "tank", "A", Pose(10, 10, 0), RectBase(1.5, 4), MovementClass.ARMOURED)
    state = table(tank, terrain=(REEF,))
    assert plan_move(state, "tank", "F6").collision is None


def test_a_ram_between_two_ships_r002_35():
    state = table(ship("a", 10, 10), ship("b", 10, 20, 90))
    plan = plan_move(state, "a", "F10")
    data = plan.as_dict(state)
    assert data["collision"]["kind"] == "ram"
    assert data["collision"]["id"] == "b"
    # b lies across the path: its near side is at y = 20 - 0.75
    assert data["y"] + 2.0 == pytest.approx(19.25, abs=0.002)
    assert plan.final.y == data["collision"]["y"]


def test_a_turn_can_ram_too():
    state = table(ship("a", 10, 10), ship("b", 13.5, 14, 0))
    plan = plan_move(state, "a", "F2 S45 F3")
    assert plan.collision is not None and plan.collision.id == "b"
    assert plan.collision.kind == "ram"


def test_flying_models_pass_over_ships_and_low_terrain():
    plane = Unit(
        "plane",
        "plane",
        "A",
        Pose(10, 10, 0),
        RectBase(1, 1),
        MovementClass.AERIAL,
        stats=FrozenMap({"move": 12.0, "height_level": "flying"}),
    )
    state = table(plane, ship("b", 10, 15, 90), terrain=(REEF,))
    assert plan_move(state, "plane", "F12").collision is None


def test_a_tiny_flyer_that_leaves_the_board_is_lost_r002_59():
    plane = Unit(
        "wing",
        "wing",
        "A",
        Pose(10, 45, 0),
        RectBase(1, 1),
        MovementClass.AERIAL,
        stats=FrozenMap({"move": 12.0, "height_level": "flying", "wing_type": "fighter"}),
    )
    state = table(plane)
    plan = plan_move(state, "wing", "F6")
    data = plan.as_dict(state)
    assert plan.lost and data["lost"] is True
    assert data["legal"] is True
    assert data["left_board"]["y"] + 0.5 == pytest.approx(48.0, abs=0.002)
    outcome = play_move(state, "wing", "F6", ScriptedDice([]))
    assert not outcome.state.has_unit("wing")
    assert state.has_unit("wing")  # the old state is untouched


def test_only_a_wing_is_lost_another_flyer_may_not_leave_the_board_r002_59():
    """R002.59: a flying model that is not a Tiny Flyer is refused at the table's edge; the
    earlier reading (`lost_off_table = "flying"`, games recorded before the fix) lost it."""
    airship = Unit(
        "airship",
        "Airship",
        "A",
        Pose(10, 45, 0),
        RectBase(1, 3),
        MovementClass.AERIAL,
        stats=FrozenMap({"move": 12.0, "height_level": "flying"}),
    )
    state = table(airship)
    plan = plan_move(state, "airship", "F6")
    assert [v.rule for v in plan.violations] == ["R002.59"]
    assert "the rules do not let this unit leave it" in plan.violations[0].message
    assert not plan.lost
    with pytest.raises(UserError):
        play_move(state, "airship", "F6", ScriptedDice([]))
    before = replace(state, options=FrozenMap({"lost_off_table": "flying"}))
    assert plan_move(before, "airship", "F6").lost
    assert not play_move(before, "airship", "F6", ScriptedDice([])).state.has_unit("airship")


def test_a_ship_may_not_leave_the_board():
    state = table(ship("hms", 10, 44))
    plan = plan_move(state, "hms", "F6")
    assert [v.rule for v in plan.violations] == ["R002.59"]
    assert not plan.lost
    assert plan.final.y + 2.0 == pytest.approx(48.0, abs=0.002)
    with pytest.raises(UserError):
        play_move(state, "hms", "F6", ScriptedDice([]))


def test_unknown_unit_is_a_clear_error():
    with pytest.raises(UserError, match="no unit 'ghost' on this map; units: hms"):
        plan_move(table(ship("hms", 10, 10)), "ghost", "F1")


def test_snaking_is_reported_when_planned_and_rolled_when_played_r002_34():
    state = table(ship("hms", 30, 10))
    plan = plan_move(state, "hms", "P45 F0.5 S45 F2 P45")
    data = plan.as_dict(state)
    assert data["snaking"] is True
    assert [(t["step"], t["token"]) for t in data["treacherous_tests"]] == [(2, "S45"), (4, "P45")]
    assert {t["rule"] for t in data["treacherous_tests"]} == {"R002.34"}
    dice = ScriptedDice([1, 4])
    outcome = play_move(state, "hms", "P45 F0.5 S45 F2 P45", dice)
    tests = [(t.token, t.roll, t.failed) for t in outcome.tests]
    assert tests == [("S45", 1, True), ("P45", 4, False)]
    assert [r.result for r in outcome.rolls] == [1, 4]
    assert all("Treacherous Terrain" in r.what for r in outcome.rolls)
    assert outcome.state.unit("hms").pose == plan.final
    assert dice.remaining == ()


def test_no_snaking_with_an_inch_between_r002_34():
    data = plan_move(table(ship("hms", 30, 10)), "hms", "P45 F1 S45").as_dict()
    assert data["snaking"] is False and data["treacherous_tests"] == []


def test_an_illegal_move_changes_nothing():
    state = table(ship("hms", 30, 10, min_move=3.0))
    plan = plan_move(state, "hms", "F1 P45")
    assert plan.as_dict()["legal"] is False
    assert plan.as_dict()["violations"][0]["rule"] == "R002.30"
    with pytest.raises(UserError) as caught:
        play_move(state, "hms", "F1 P45", ScriptedDice([]))
    assert caught.value.spec_id == "R002.30"
    assert state.unit("hms").pose == Pose(30, 10, 0)


def test_disengaging_from_a_ram_r002_32():
    state = table(ship("a", 10, 10), ship("b", 10, 20, 90))
    rammed = play_move(state, "a", "F10", ScriptedDice([])).state
    forward = plan_move(rammed, "a", "F1")
    assert forward.collision is not None and forward.distance < 0.002
    turned = plan_move(rammed, "a", "C90")
    assert turned.legal and turned.path.disengage
    assert turned.collision is None
    assert turned.final.heading == pytest.approx(90.0)


def test_boost_through_the_session():
    state = table(ship("k", 30, 10, move=6.0, min_move=2.0, generators="kinetic"))
    plan = plan_move(state, "k", "F3 P45 F2", {"kinetic": 4})
    assert [v.rule for v in plan.violations] == ["R002.30", "R002.48"]


def test_all_out_note_for_sw_d6_r004_39():
    cruiser = Unit(
        "isd",
        "ISD",
        "A",
        Pose(30, 20, 0),
        RectBase(2, 6),
        MovementClass.SPACE,
        stats=FrozenMap({"space": 4, "speed": "all-out"}),
    )
    state = GameState("sw-d6-capital", Board(72, 48), units=(cruiser,))
    data = plan_move(state, "isd", "F10 P30 F5").as_dict()
    assert data["legal"] is True
    assert [n["rule"] for n in data["notes"]] == ["R004.39"]
    assert data["heading"] == 330.0


def test_only_a_unit_in_a_collision_or_ram_may_disengage_r002_32():
    state = table(ship("a", 10, 10), ship("b", 30, 30))
    plan = plan_move(state, "a", "C45")
    assert [v.rule for v in plan.violations] == ["R002.32"]
    touching_reef = table(ship("a", 10, 16), terrain=(REEF,))  # bow at y = 18, reef at 20
    assert [v.rule for v in plan_move(touching_reef, "a", "C45").violations] == ["R002.32"]
    at_reef = table(ship("a", 10, 18), terrain=(REEF,))  # bow on the reef's edge
    assert plan_move(at_reef, "a", "C45").legal
