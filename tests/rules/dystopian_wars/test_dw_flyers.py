"""Tiny Flyers (R002.52-R002.61, A002.14, A002.15, GEO002.5, GEO002.11)."""

from __future__ import annotations

from dw_builders import ACK_ACK, DW, flyer, refused, table, unit

from tactical.dice import ScriptedDice
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition, unit_name
from tactical.rules.dystopian_wars import (
    combat,
    flyers,
    maneuver,
    measures,
    play,
    resolving,
    sequence,
    tracking,
)


def _wing(side="A", x=30.0, y=10.0, count=3, wing_type="fighter", squadron="w", **stats):
    return [
        flyer(f"{squadron}{i}", x + i, y, side, wing_type=wing_type, squadron=squadron, **stats)
        for i in range(count)
    ]


def _activate(state, side, squadron):
    state = play.setup(state)
    winner_first = [6, 1] if side == state.sides[0] else [1, 6]
    state = DW.apply(state, Action("initiative", state.sides[0]), ScriptedDice(winner_first)).state
    assert tracking.get(state, "initiative")["winner"] == side
    state = DW.apply(
        state, Action("activate", side, FrozenMap(squadron=squadron)), ScriptedDice([])
    ).state
    return DW.apply(state, Action("command", side), ScriptedDice([])).state


def test_R002_52_wing_formation_must_stay_connected_A002_14():
    wing = _wing()
    assert flyers.formation_valid(tuple(wing))
    pairs = [
        flyer("a", 10, 10, squadron="p"),
        flyer("b", 11, 10, squadron="p"),
        flyer("c", 20, 10, squadron="p"),
        flyer("d", 21, 10, squadron="p"),
    ]
    assert not flyers.formation_valid(tuple(pairs))  # two pairs, each in contact, are not one Wing
    state = _activate(table(*wing, unit("b", 30, 40, "B")), "A", "w")
    with refused("R002.52", "move-wing"):
        DW.apply(state, Action("move", "w0", FrozenMap(path="F6")), ScriptedDice([]))
    broken = state.replace_unit(state.unit("w0").moved_to(state.unit("w0").pose.__class__(30, 16)))
    with refused("R002.52"):
        DW.apply(broken, Action("end-movement", "A"), ScriptedDice([]))
    assert [c.kind for c in DW.actions(state, TurnPosition(1, 2, 0), "A")] == [
        "move-wing",
        "end-movement",
    ]
    together = DW.apply(state, Action("move-wing", "A", FrozenMap(path="F10")), ScriptedDice([]))
    assert [round(u.y, 6) for u in together.state.units if u.id.startswith("w")] == [
        20.0,
        20.0,
        20.0,
    ]
    assert (
        DW.apply(together.state, Action("end-movement", "A"), ScriptedDice([])).summary == "declare"
    )
    with refused("R002.52", "formation"):
        DW.apply(state, Action("move-wing", "A", FrozenMap(path="P45 F4")), ScriptedDice([]))


def test_R002_52_a_wing_is_deployed_in_formation():
    scattered = table(
        flyer("a", 10, 10, squadron="w"),
        flyer("b", 11, 10, squadron="w"),
        flyer("c", 20, 10, squadron="w"),
        unit("b", 10, 40, "B"),
    )
    with refused("R002.52"):
        play.setup(scattered)


def test_R002_52_destroyed_flyers_are_removed_keeping_the_formation():
    wing = _wing("B", 20, 14, squadron="w")  # w0 - w1 - w2 in a row: w1 is the link
    state = table(unit("a", 21, 10, weapons=[dict(ACK_ACK, attack_dice="1-0-0-0")]), *wing)
    attack = combat.declare(state, "a", "Ack Ack", "w1")
    result = resolving.resolve_declared(state, attack, ScriptedDice([6, 1]))  # 2 hits: one TF
    left = sorted(u.id for u in result.state.units if u.side == "B")
    assert left in (["w1", "w2"], ["w0", "w1"])
    assert flyers.formation_valid(tuple(result.state.unit(i) for i in left))


def test_R002_52_a_flyer_lost_otherwise_than_to_an_attack_leaves_the_wing_closed_up():
    """A Tiny Flyer lost to anything but an attack (a failed Treacherous Terrain Test, a
    collision) may be the one holding the Wing together: another of the Wing's alike Tiny
    Flyers takes its place, so the Wing stays one formation (an AI game stalled on a Wing
    that could neither move in formation nor end its movement)."""
    wing = _wing("B", 20, 14, count=4, squadron="w")  # w0 - w1 - w2 - w3 in a row
    state = table(unit("a", 21, 40), *wing)
    middle = state.unit("w1")
    after = resolving.destroy(state, middle)
    left = tuple(u for u in after.units if u.side == "B")
    assert sorted(u.id for u in left) == ["w0", "w2", "w3"]
    assert flyers.formation_valid(left)
    moved = [u for u in left if u.pose != state.unit(u.id).pose]
    assert [(u.id, u.pose) for u in moved] == [("w0", middle.pose)]  # the end one slid in
    assert [r["id"] for r in tracking.losses(after)] == ["w1"]  # the lost one is recorded
    # an end Tiny Flyer lost: the Wing is whole as it stands, nothing moves
    end = resolving.destroy(state, state.unit("w3"))
    assert all(u.pose == state.unit(u.id).pose for u in end.units)
    # a lone pair: nothing to close up
    pair = table(unit("a", 21, 40), *_wing("B", 20, 14, count=2, squadron="w"))
    assert resolving.destroy(pair, pair.unit("w0")).unit("w1").pose == pair.unit("w1").pose


def test_R002_53_a_launched_wing_is_one_type_of_3_to_5_or_one_recon():
    carrier = unit("cv", 30, 10, size="large", carrier_capacity=8, tiny_flyers_aboard=8)
    state = play.setup(table(carrier, unit("b", 30, 40, "B")))
    with refused("R002.53", "3 to 5"):
        flyers.launch(state, state.unit("cv"), "fighter", 6, 1)
    with refused("R002.53"):
        flyers.launch(state, state.unit("cv"), "zeppelin", 3, 1)
    recon = flyers.launch(state, state.unit("cv"), "recon", 1, 1)
    assert len([u for u in recon.state.units if u.id.startswith("cv-wing")]) == 1
    with refused("A002.15"):
        flyers.launch(recon.state, recon.state.unit("cv"), "recon", 1, 1)


def test_R002_54_fuel_is_tracked_per_wing():
    state = play.setup(table(*_wing(fuel=2), unit("b", 30, 40, "B")))
    assert tracking.mapping(state, "wings")["A:w"]["fuel"] == 2
    state = _activate(table(*_wing(fuel=2), unit("b", 30, 40, "B")), "A", "w")
    assert tracking.mapping(state, "wings")["A:w"]["fuel"] == 1
    fresh = play.setup(table(*_wing(), unit("b", 30, 40, "B")))
    assert dict(tracking.mapping(fresh, "wings")["A:w"]) == {
        "type": "fighter",
        "fuel": 6,
        "armed": True,
        "launched_turn": 0,
    }


def test_R002_54_a_wing_out_of_fuel_is_lost():
    state = _activate(table(*_wing(fuel=1), unit("b", 30, 40, "B")), "A", "w")
    for kind in ("end-movement", "end-declarations", "end-boarding", "break-tests"):
        state = DW.apply(state, Action(kind, "A"), ScriptedDice([])).state
    ended = DW.apply(state, Action("end-activation", "A"), ScriptedDice([]))
    assert not any(u.id.startswith("w") for u in ended.state.units)
    assert {r["how"] for r in tracking.losses(ended.state)} == {"lost"}


def test_R002_55_a_wing_that_used_ordnance_must_land_to_rearm():
    bombers = _wing(wing_type="dive-bomber", squadron="d")
    state = table(*bombers, unit("t", 31, 13, "B"))
    attack = combat.declare(state, "d0", "Bombs", "t")
    assert len(attack.params["pool"]) == 3  # Combined Fire of the Wing
    after = resolving.resolve_declared(state, attack, ScriptedDice([1] * 12))  # 4 AD each
    assert tracking.mapping(after.state, "wings")["A:d"]["armed"] is False
    with refused("R002.55"):
        combat.declare(after.state, "d1", "Bombs", "t")


def test_R002_57_combat_air_patrol():
    parent = unit("bb", 30, 6, size="large", squadron="bb")
    state = table(parent, *_wing(x=29, y=9), unit("b", 30, 40, "B"))
    attached = flyers.attach_cap(state, "A:w", "bb")
    assert dict(tracking.mapping(attached.state, "cap")) == {"A:w": "bb"}
    medium = table(unit("cr", 30, 6, squadron="cr"), *_wing(x=29, y=9))
    with refused("R002.57", "Large or Massive"):
        flyers.attach_cap(medium, "A:w", "cr")
    diving = table(
        unit("sub", 30, 6, size="large", height_level="diving", squadron="s"), *_wing(x=29, y=9)
    )
    with refused("R002.57", "Diving"):
        flyers.attach_cap(diving, "A:w", "sub")
    far = table(unit("bb", 30, 6, size="large", squadron="bb"), *_wing(x=29, y=20))
    with refused("R002.57", "4"):
        flyers.attach_cap(far, "A:w", "bb")
    bombers = table(parent, *_wing(x=29, y=9, wing_type="dive-bomber"))
    with refused("R002.57", "Fighter"):
        flyers.attach_cap(bombers, "A:w", "bb")
    second = table(parent, *_wing(x=29, y=9), *_wing(x=29, y=11, squadron="v"))
    second = flyers.attach_cap(second, "A:w", "bb").state
    with refused("R002.57", "already"):
        flyers.attach_cap(second, "A:v", "bb")


def test_R002_59_a_wing_leaving_the_table_is_lost():
    state = _activate(table(*_wing(y=40), unit("b", 30, 10, "B")), "A", "w")
    result = DW.apply(state, Action("move-wing", "A", FrozenMap(path="F12")), ScriptedDice([]))
    assert not any(u.id.startswith("w") for u in result.state.units)
    assert any(e.kind == "lost" and e.spec_id == "R002.59" for e in result.events)
    ship = table(unit("s", 30, 46), unit("b", 30, 10, "B"))
    with refused("R002.59"):
        maneuver.move(ship, ship.unit("s"), "F6", ScriptedDice([]))


def _airships(**options):
    """Two flying (not Tiny Flyer) models of one squadron, the first near the top edge."""
    return _activate(
        table(
            unit("z1", 30, 44, movement="aerial", height_level="flying", squadron="z"),
            unit("z2", 40, 30, movement="aerial", height_level="flying", squadron="z"),
            unit("b", 30, 10, "B"),
            **options,
        ),
        "A",
        "z",
    )


def test_R002_59_only_a_wing_is_lost_another_flyer_may_not_leave_the_table():
    """R002.59 loses a Wing that leaves the table, nothing else: a flying model's move off
    it is refused with the rule, and its squadron stays on the table."""
    state = _airships()
    with refused("R002.59", "z1 would leave the table: only a Tiny Flyer Wing may leave it"):
        DW.apply(state, Action("move", "z1", FrozenMap(path="F6")), ScriptedDice([]))
    moved = DW.apply(state, Action("move", "z1", FrozenMap(path="F2")), ScriptedDice([])).state
    assert moved.unit("z1").y == 46.0 and moved.has_unit("z2")
    assert maneuver.default_path(state, state.unit("z1")) != "F6"


def test_R002_59_before_the_fix_a_flyer_off_the_table_lost_its_squadron():
    """`lost_off_table = "flying"` (games recorded before the fix) plays the old result: the
    flying model is lost, and its squadron-mate that never moved with it."""
    state = _airships(lost_off_table="flying")
    result = DW.apply(state, Action("move", "z1", FrozenMap(path="F6")), ScriptedDice([]))
    assert result.summary == "lost"
    assert not result.state.has_unit("z1") and not result.state.has_unit("z2")
    assert [dict(r)["how"] for r in tracking.losses(result.state)] == ["lost", "lost"]
    field = next(f for f in DW.option_fields if f.name == "lost_off_table")
    assert (field.default, field.before) == ("wing", "flying")


def test_R002_60_landing_within_4_excess_destroyed():
    carrier = unit(
        "cv", 30, 6, size="large", carrier_capacity=4, tiny_flyers_aboard=2, squadron="cv"
    )
    state = table(carrier, *_wing(x=29, y=9), unit("b", 30, 40, "B"))
    assert flyers.carriers_in_reach(state, "A:w") == ("cv",)
    landed = flyers.land(state, "A:w", "cv")
    assert landed.summary == 2
    assert flyers.aboard(landed.state, landed.state.unit("cv")) == 4
    assert [r["how"] for r in tracking.losses(landed.state)] == ["destroyed"]
    assert not any(u.id.startswith("w") for u in landed.state.units)
    far = table(carrier, *_wing(x=29, y=20))
    with refused("R002.60"):
        flyers.land(far, "A:w", "cv")


def test_R002_61_launch_before_moving_within_4_not_activated_this_turn():
    carrier = unit(
        "cv", 30, 10, size="large", carrier_capacity=6, tiny_flyers_aboard=3, squadron="cv"
    )
    state = _activate(table(carrier, unit("b", 30, 40, "B")), "A", "cv")
    launched = DW.apply(
        state, Action("launch", "cv", FrozenMap(wing_type="fighter", count=3)), ScriptedDice([])
    )
    wing = [u for u in launched.state.units if u.id.startswith("cv-wing-1")]
    assert len(wing) == 3 and all(
        measures.within_edges(launched.state.unit("cv"), u, 4.0) for u in wing
    )
    # named as a player calls them (R002.53), not by the type's key ("fighter 1"), and
    # numbered as every set of units sharing a name is
    assert [u.name for u in wing] == ["Fighter Plane"] * 3
    assert [unit_name(launched.state, u.id) for u in wing] == [
        f"Fighter Plane {k}" for k in (1, 2, 3)
    ]
    assert flyers.aboard(launched.state, launched.state.unit("cv")) == 0
    assert "A:cv-wing-1" not in sequence.activatable(launched.state, "A")
    with refused("R002.61", "one Wing"):
        DW.apply(
            launched.state,
            Action("launch", "cv", FrozenMap(wing_type="fighter", count=3)),
            ScriptedDice([]),
        )
    moved = DW.apply(state, Action("move", "cv", FrozenMap(path="F6")), ScriptedDice([])).state
    with refused("R002.61", "before moving"):
        DW.apply(
            moved, Action("launch", "cv", FrozenMap(wing_type="fighter", count=3)), ScriptedDice([])
        )
    with refused("R002.61", "aboard"):
        DW.apply(
            state, Action("launch", "cv", FrozenMap(wing_type="fighter", count=4)), ScriptedDice([])
        )
