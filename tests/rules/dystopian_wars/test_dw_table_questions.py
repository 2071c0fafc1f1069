"""Table questions Dystopian Wars answers quickly (GEO002.7, GEO002.11, R002.28, R002.52):
each remembered answer equals the one worked out afresh, a model moved is asked again, and
a shortcut answers only where the long way answers the same."""

from __future__ import annotations

import math
import random

import pytest
from dw_builders import (
    ACK_ACK,
    GUNS,
    ROCKETS,
    TESLA_COILS,
    TORPEDOES,
    duel,
    flyer,
    rock,
    table,
    unit,
)

from tactical.errors import UserError
from tactical.geometry import los
from tactical.geometry.arcs import in_arc
from tactical.geometry.arcs_spec import AFT, FORE, TURRET_270
from tactical.model import CircleBase, Pose, RectBase
from tactical.rules.dystopian_wars import attacks, cards, combat, declaration, maneuver, measures


def test_GEO002_7_an_arc_remembered_is_the_arc_measured_and_a_moved_target_is_measured():
    ship = unit("a", 20, 10)  # heading 0: its fore arc looks along +y
    ahead = unit("t", 20, 20, "B")
    assert measures.in_weapon_arc(ship, FORE, ahead) is True
    assert measures.in_weapon_arc(ship, AFT, ahead) is False
    assert measures.in_weapon_arc(ship, FORE, ahead) is True  # remembered: the same answer
    behind = ahead.moved_to(Pose(20, 0, 0.0))  # a new model object, now astern
    assert measures.in_weapon_arc(ship, FORE, behind) is False
    assert measures.in_weapon_arc(ship, AFT, behind) is True
    turned = ship.moved_to(Pose(20, 10, 180.0))  # the attacker turned about
    assert measures.in_weapon_arc(turned, FORE, behind) is True
    assert measures.in_weapon_arc(turned, FORE, ahead) is False


def wing(*xs: float) -> tuple:
    return tuple(flyer(f"f{k}", x, 10) for k, x in enumerate(xs))


def test_GEO002_11_a_wing_asked_again_by_its_values_gets_the_answer_worked_out():
    touching = wing(10, 11, 12)  # 1" round stands (1" across), edge to edge in a line
    assert measures.contact_graph_connected(touching) is True
    apart = wing(10, 11, 20)
    assert measures.contact_graph_connected(apart) is False
    # the same Wing made again (new objects, equal values): the same answers
    assert measures.contact_graph_connected(wing(10, 11, 20)) is False
    assert measures.contact_graph_connected(list(wing(10, 11, 12))) is True  # any sequence
    assert measures.contact_graph_connected(touching[:1]) is True


def test_R002_52_the_flyers_removable_from_a_wing_are_remembered_by_its_values():
    line = wing(10, 11, 12)
    # only an end of the line may go: the middle one holds it together
    assert measures.removable_for_formation(line) == ("f0", "f2")
    again = wing(10, 11, 12)
    assert measures.removable_for_formation(again) is measures.removable_for_formation(line)
    assert measures._removable.__wrapped__(again) == ("f0", "f2")  # as worked out afresh
    closed = wing(10, 11, 10.5)  # f2 sits between and touches both: any one may go
    assert measures.removable_for_formation(closed) == ("f0", "f1", "f2")


BROADSIDE = {"name": "Broadside", "kind": "gunnery", "arc": "starboard broadside"}


def test_GEO002_7_a_target_surely_beyond_the_last_band_with_dice_is_out_of_reach():
    # an Armoured broadside measured from its base edge (R002.12), AD only in RB1-RB2 (16");
    # guns measured from the centre with AD to RB4 (32"); targets all round, near and far
    broadside = dict(BROADSIDE, attack_dice="4-4-0-0")
    firers = (
        unit("e", 36, 24, movement="armoured", base=RectBase(4, 4), weapons=[broadside]),
        unit("c", 36, 24, weapons=[GUNS]),
    )
    skipped = 0
    for firer in firers:
        weapon = cards.card(firer).weapons[0]
        for step in range(24):
            for reach in (10.0, 15.0, 17.5, 19.0, 24.0, 31.0, 33.0, 34.5, 40.0):
                angle = math.radians(step * 15.0)
                x, y = 36 + reach * math.sin(angle), 24 + reach * math.cos(angle)
                target = unit("t", x, y, "B", heading=step * 7.0)
                state = table(firer, target, width=120, height=120)
                if combat.beyond_reach(state, firer, weapon, target):
                    skipped += 1
                    assert combat.out_of_reach(state, firer.id, weapon.name, "t", False)
                    assert combat.out_of_reach(state, firer.id, weapon.name, "t", True)
    assert skipped > 100  # most of the far ones never measured


def test_GEO002_7_a_weapon_is_not_skipped_within_its_last_band_with_dice():
    state = duel(distance=31.0)  # RB4, where the guns still have 1 AD
    firer, target = state.unit("a"), state.unit("t")
    guns = cards.card(firer).weapons[0]
    assert not combat.beyond_reach(state, firer, guns, target)
    assert not combat.out_of_reach(state, "a", "Guns", "t", False)
    assert combat.declare(state, "a", "Guns", "t").params["band"] == "RB4"
    far = duel(distance=33.5)
    assert combat.beyond_reach(far, far.unit("a"), guns, far.unit("t"))


def test_R002_28_a_wing_is_named_by_its_carrier_the_longest_model_id_it_starts_with():
    state = table(
        unit("avenger", 10, 10, name="Avenger Class Carrier"),
        unit("avenger-b", 20, 10, name="Second Carrier"),
        unit("t", 40, 10, "B"),
    )
    assert cards.squadron_words(state, "A:avenger-wing-1") == "Avenger Class Carrier wing 1"
    assert cards.squadron_words(state, "A:avenger-b-wing-2") == "Second Carrier wing 2"
    assert cards.squadron_words(state, "A:battle-line") == "battle line"
    assert cards.squadron_words(state, "B:avenger") == "avenger"  # no "-" after the id


def test_GEO002_8_a_path_is_applied_once_for_a_unit_and_swept_again_on_a_new_table():
    state = table(unit("a", 10, 10), unit("b", 10, 30, "B"))
    first = maneuver.plan(state, state.unit("a"), "F6")  # heading 0: along +y
    b = state.unit("b")
    moved = state.replace_unit(b.moved_to(Pose(10, 14, 0.0)))  # now in the way
    second = maneuver.plan(moved, moved.unit("a"), "F6")
    assert second.plan is first.plan  # the path applied once: it reads no other model
    assert first.contact_kind is None and second.contact_kind == "ram"
    assert second.final.y < first.final.y
    afresh = maneuver._plan.__wrapped__(
        moved.unit("a"), "F6", None, moved.options, moved.units, moved.terrain, moved.board
    )
    assert afresh == second
    faster = maneuver._path_plan(unit("a", 10, 10, move=8.0), "F6", None, state.options)
    assert faster[0].max_distance == 8.0 and faster[1] == first.plan  # other rules, same path


def test_R002_29_a_counterattack_is_legal_exactly_where_it_may_be_declared():
    ack_ack = {"name": "Ack Ack", "kind": "ack-ack", "arc": "all-round", "attack_dice": "4-2-0-0"}
    flying = {"movement": "aerial", "height_level": "flying"}
    legal = 0
    for reach in (3.0, 7.5, 9.0, 15.0, 16.5, 17.5, 20.0, 40.0):
        state = table(
            unit("a", 36, 24, weapons=[ack_ack]), unit("t", 36, 24 + reach, "B", **flying)
        )
        try:
            combat.declare(state, "a", "Ack Ack", "t", {"counter": True})
            declared = True
        except UserError:
            declared = False
        assert attacks._legal(state, "a", "Ack Ack", "t", counter=True) is declared
        legal += declared
    assert 0 < legal < 8


def test_T002_6_a_weapon_refused_whatever_the_line_is_refused_by_declare_too():
    # torpedoes, guns, rockets and ack-ack at naval, flying and diving targets near and far,
    # behind a blocking model or in the clear: the shortcut answers only where `declare`
    # refuses the same declaration, and skips the line for some
    weapons = [TORPEDOES, GUNS, ROCKETS, ACK_ACK]
    targets = (
        {},
        {"movement": "aerial", "height_level": "flying"},
        {"height_level": "diving"},
    )
    refused = 0
    for reach in (3.0, 7.5, 12.0, 20.0, 30.0, 40.0):
        for kind in targets:
            for blocked in (False, True):
                models = [
                    unit("a", 36, 10, weapons=weapons),
                    unit("t", 36, 10 + reach, "B", **kind),
                ]
                if blocked:  # a Surface model of the target's size in the way
                    models.append(unit("w", 36, 10 + reach / 2, "A"))
                state = table(*models, width=120, height=120)
                firer, target = state.unit("a"), state.unit("t")
                for weapon in cards.card(firer).weapons:
                    if not combat.refused_unsighted(state, firer, weapon, target):
                        continue
                    refused += 1
                    with pytest.raises(UserError):
                        combat.declare(state, "a", weapon.name, "t")
    assert refused >= 10


def test_R002_36_the_targets_offered_are_those_declare_allows():
    torpedo_boat = unit("a", 36, 10, weapons=[TORPEDOES, ACK_ACK])
    state = table(
        torpedo_boat,
        unit("s", 36, 16, "B"),  # naval, in range: torpedoes and ack-ack
        flyer("f", 40, 14, "B"),  # flying: ack-ack only
        unit("d", 30, 14, "B", height_level="diving"),
        width=120,
        height=120,
    )
    for weapon in ("Torpedoes", "Ack Ack"):
        offered = attacks._targets(state, state.unit("a"), weapon, False, {})
        allowed = []
        for target in ("s", "f", "d"):
            try:
                combat.declare(state, "a", weapon, target)
            except UserError:
                continue
            allowed.append(target)
        assert offered == tuple(allowed)
    assert attacks._targets(state, state.unit("a"), "Torpedoes", False, {}) == ("s", "d")
    assert attacks._targets(state, state.unit("a"), "Ack Ack", False, {}) == ("f", "d")
    assert combat.refused_unsighted(
        state, state.unit("a"), cards.card(torpedo_boat).weapons[0], state.unit("f")
    )


def test_GEO002_7_an_arc_read_from_the_centres_is_the_arc_test_wherever_it_answers():
    # targets round and long, their centres or their bases' edges on, just inside and just
    # outside every sector line of the system's arcs (and all round): the shortcut answers
    # only where the arc test answers the same, and leaves the lines' own slack to it
    arcs = (*declaration.ARCS_BY_NAME.values(), TURRET_270)
    rng = random.Random(7)
    answered = {True: 0, False: 0}
    for k in range(3000):
        heading = rng.choice((0.0, 90.0, 45.0, rng.uniform(0.0, 360.0)))
        firer = unit("a", 36, 24, heading=heading)
        arc = arcs[k % len(arcs)]
        base = (RectBase(1.0, 3.0), RectBase(2.0, 6.0), CircleBase(2.0))[k % 3]
        line = rng.choice((getattr(arc, "start", 0.0), getattr(arc, "end", 0.0)))
        apart = rng.uniform(4.0, 20.0)
        graze = math.degrees(math.asin(base.radius / apart)) if k % 2 else 0.0
        nudge = rng.choice((0.0, 1e-7, -1e-7, 2e-6, -2e-6, 1e-3, -1e-3, rng.uniform(-30, 30)))
        bearing = math.radians(heading + line + rng.choice((1, -1)) * graze + nudge)
        x, y = 36 + apart * math.sin(bearing), 24 + apart * math.cos(bearing)
        target = unit("t", x, y, "B", heading=rng.uniform(0.0, 360.0), base=base)
        glance = measures._arc_at_a_glance(firer, arc, target)
        if glance is None:
            continue
        answered[glance] += 1
        assert glance is in_arc(firer.pose, firer.base, arc, target.pose, target.base, "any")
    assert min(answered.values()) > 150
    # on a line, or the firer inside the target's base: the arc test decides
    on_line = unit("t", 36 + 10 * math.sin(math.radians(45)), 24 + 10 * math.cos(math.radians(45)))
    assert measures._arc_at_a_glance(unit("a", 36, 24), FORE, on_line) is None
    assert measures._arc_at_a_glance(unit("a", 36, 24), FORE, unit("t", 36, 24.5, "B")) is None


def test_R002_40_a_line_clear_of_the_terrain_boxes_is_clear_and_any_other_is_drawn():
    # rocks and woods of every kind; lines in the clear, grazing a box's side, through a
    # corner and across a piece: the terrain named is the line's own, in order
    pieces = (
        rock("r1", 30, 20, 34, 24),
        rock("r2", 40, 10, 42, 30, kind="dense", height="small"),
        rock("r3", 10, 30, 14, 34, kind="soft"),
    )
    rng = random.Random(11)
    drawn = skipped = 0
    for k in range(600):
        if k % 3 == 0:  # along a box's side, just outside or on it
            y = rng.choice((20.0, 24.0, 19.999999, 24.000001))
            ends = ((rng.uniform(0, 29), y), (rng.uniform(35, 70), y))
        elif k % 3 == 1:  # from just inside a piece's side, outward
            x0, y0, x1, y1 = rng.choice(((30, 20, 34, 24), (40, 10, 42, 30), (10, 30, 14, 34)))
            sides = (
                (x0 + 0.01, y0 + 1),
                (x1 - 0.01, y1 - 1),
                (x0 + 1, y0 + 0.01),
                (x0 + 1, y1 - 0.01),
            )
            x, y = rng.choice(sides)
            ends = ((x, y), (rng.uniform(0, 72), rng.uniform(0, 48)))
        else:
            ends = (
                (rng.uniform(0, 72), rng.uniform(0, 48)),
                (rng.uniform(0, 72), rng.uniform(0, 48)),
            )
        (sx, sy), (tx, ty) = ends
        source = unit("a", sx, sy)
        target = unit(
            "t",
            tx,
            ty,
            "B",
            **({"height_level": "flying", "movement": "aerial"} if k % 4 == 1 else {}),
        )
        found = measures._terrain_sight(pieces, source, target)
        expected = los.line_of_sight(
            measures.terrain_index(pieces),
            (sx, sy),
            (tx, ty),
            measures._blocking(pieces, source, target),
        ).blocked_by
        assert found == expected
        drawn += bool(expected)
        skipped += not expected
    assert drawn > 50 and skipped > 50


def test_R002_44_a_model_that_moved_keeps_its_card_and_other_stats_make_another():
    ship = unit("a", 10, 10, weapons=[GUNS, TORPEDOES], faction="Prussian Empire")
    moved = ship.moved_to(Pose(30, 20, 90.0))
    assert cards.card(moved) is cards.card(ship)  # the card reads no pose
    assert cards.card(moved) == cards._card(moved)  # as worked out afresh
    other = unit("a", 10, 10, weapons=[GUNS], faction="Prussian Empire")
    assert [w.name for w in cards.card(other).weapons] == ["Guns"]
    renamed = unit("a", 10, 10, weapons=[GUNS, TORPEDOES], name="Markgraf")
    assert cards.card(renamed).model_class == "Markgraf"
    assert cards.card(unit("a", 10, 10)).side == "A"
    assert cards.card(unit("a", 10, 10, "B")).side == "B"


def test_T002_6_permitted_is_check_permission_without_its_words():
    weapons = [
        {"name": kind, "kind": kind, "arc": "all-round", "attack_dice": "4-4-4-4"}
        for kind in declaration.WEAPON_KINDS
    ]
    weapons.append(dict(TESLA_COILS, name="tesla"))
    targets = (
        unit("s", 30, 10, "B"),
        unit("l", 30, 10, "B", movement="armoured"),
        unit("d", 30, 10, "B", height_level="diving"),
        unit("f", 30, 10, "B", movement="aerial", height_level="flying"),
        unit("o", 30, 10, "B", movement="aerial", height_level="obscured"),
        flyer("tf", 30, 10, "B"),
    )
    firer = unit("a", 10, 10, weapons=weapons)
    allowed = refused = 0
    for weapon in cards.card(firer).weapons:
        for target in targets:
            for band in ("RB1", "RB2", "RB3", "RB4"):
                try:
                    combat.check_permission(weapon, target, band)
                except UserError:
                    refused += 1
                    assert not combat.permitted(weapon, target, band)
                    continue
                allowed += 1
                assert combat.permitted(weapon, target, band)
    assert allowed > 20 and refused > 20


def test_R002_40_a_line_meets_a_box_where_it_passes_within_the_margin_of_it():
    box = (30.0, 20.0, 34.0, 24.0)
    assert measures._meets_box(20, 10, 40, 30, box)  # across the middle
    # past a corner: clear by a hundredth, then through it
    assert not measures._meets_box(29.0, 24.02, 31.0, 26.0, box)
    assert measures._meets_box(29.0, 23.0, 31.0, 25.0, box)
    # along a side, on it, just off it within and beyond the margin
    assert measures._meets_box(25, 20.0, 40, 20.0, box)
    assert measures._meets_box(25, 19.9999995, 40, 19.9999995, box)
    assert not measures._meets_box(25, 19.99999, 40, 19.99999, box)
    assert not measures._meets_box(31, 10, 31, 19.99, box)  # stops short of it
    assert measures._meets_box(31, 10, 31, 20.0, box)
    assert measures._meets_box(32, 22, 32, 22, box)  # a point inside
    assert not measures._meets_box(35, 22, 35, 22, box)


def test_R002_28_the_squadrons_left_to_activate_follow_every_entry_they_read():
    from tactical.model import FrozenMap
    from tactical.rules.dystopian_wars import play, sequence

    state = play.setup(
        table(
            unit("a1", 10, 10, squadron="line"),
            unit("a2", 14, 10, squadron="line"),
            unit("a3", 30, 10, squadron="solo"),
            flyer("f1", 40, 10, squadron="wing"),
            flyer("f2", 41, 10, squadron="wing"),
            flyer("f3", 42, 10, squadron="wing"),
            unit("b1", 10, 40, "B"),
        )
    )
    assert sequence.activatable(state, "A") == ("A:line", "A:solo", "A:wing")
    assert sequence.activatable(state, "A") == ("A:line", "A:solo", "A:wing")  # remembered
    done = state.with_rule_state(activated=("A:line",))
    assert sequence.activatable(done, "A") == ("A:solo", "A:wing")
    prize = state.with_rule_state(prizes=FrozenMap({"a3": "B"}))
    assert sequence.activatable(prize, "A") == ("A:line", "A:wing")
    derelict = state.with_rule_state(derelicts=("a1", "a2"))
    assert sequence.activatable(derelict, "A") == ("A:solo", "A:wing")
    launched = state.with_rule_state(
        wings=FrozenMap({"A:wing": FrozenMap(type="fighter", fuel=6, launched_turn=1)})
    )
    assert sequence.activatable(launched, "A") == ("A:line", "A:solo")
    assert sequence.activatable(launched.with_rule_state(turn=2), "A") == (
        "A:line",
        "A:solo",
        "A:wing",
    )
    gone = state.without_unit("a3")
    assert sequence.activatable(gone, "A") == ("A:line", "A:wing")
    assert sequence.activatable(state, "B") == ("B:b1",)
