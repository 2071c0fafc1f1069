"""R002.41 / A002.21 (revised): between two Surface models, the base of another Surface
model the line of sight crosses blocks it, as Obstructing Terrain does; Auxiliary weapons
ignore models; to or from the air only Large or Massive Obstructing Terrain blocks
(R002.40); Tiny Flyers never block. `models_block`: "all" (default), "larger", "none"
(the reading of games recorded before the revision)."""

from __future__ import annotations

import numpy as np
import shapely
from dw_builders import ACK_ACK, DW, GUNS, ROCKETS, flyer, refused, rock, table, unit

from tactical.geometry import los
from tactical.model import CircleBase, FrozenMap
from tactical.rules.dystopian_wars import combat, measures
from tactical.rules.dystopian_wars.cards import card
from tactical.rules.measuring import TableGeometry
from tactical.rules.schema import earlier_readings


def screened(screen_size: str = "medium", target_size: str = "medium", **options):
    """Firer "a" at (20, 10), target "t" at (20, 20), and "screen", a friend of the target
    lying across the line at (20, 15) (a 1" x 3" base turned broadside on)."""
    return table(
        unit("a", 20, 10, weapons=[GUNS, ROCKETS, ACK_ACK]),
        unit("screen", 20, 15, "B", heading=90.0, size=screen_size, name="Stralsund Cruiser"),
        unit("t", 20, 20, "B", size=target_size),
        **options,
    )


def test_R002_41_A002_21_a_model_between_two_surface_models_blocks_the_line():
    state = screened()
    with refused("R002.41", "blocked by the model Stralsund Cruiser"):
        combat.declare(state, "a", "Guns", "t")
    sight = measures.line_of_sight(state, state.unit("a"), state.unit("t"))
    assert (sight.clear, sight.terrain, sight.models) == (False, (), ("screen",))
    # the screen itself is in plain sight: nothing lies between
    assert combat.declare(state, "a", "Guns", "screen").target == "screen"


def test_R002_41_friend_or_foe_and_every_model_in_the_way_in_order():
    state = table(
        unit("a", 20, 10),
        unit("own", 20, 13, heading=90.0, name="Own Frigate"),
        unit("theirs", 20, 16, "B", heading=90.0, name="Their Frigate"),
        unit("t", 20, 20, "B"),
    )
    sight = measures.line_of_sight(state, state.unit("a"), state.unit("t"))
    assert sight.models == ("own", "theirs")
    with refused("R002.41", "blocked by the models Own Frigate, Their Frigate"):
        combat.declare(state, "a", "Guns", "t")


def test_R002_41_the_firer_and_the_target_never_block_their_own_line():
    # long bases, so the line runs through both the firer's and the target's own base
    state = table(unit("a", 20, 10), unit("t", 20, 16, "B"), unit("aside", 24, 13, "B"))
    sight = measures.line_of_sight(state, state.unit("a"), state.unit("t"))
    assert sight.clear and sight.models == ()
    assert combat.declare(state, "a", "Guns", "t").params["band"] == "RB1"
    report = TableGeometry.of(state).pair("a", "t")
    assert report.los and report.blocking_models == ()


def test_R002_41_a_line_grazing_a_base_is_clear():
    """As for terrain (GEO002.10): only a line through the base's interior blocks."""
    state = table(
        unit("a", 20, 10), unit("edge", 20.5, 15, "B", heading=0.0), unit("t", 20, 20, "B")
    )  # the 1"-wide base spans x 20..21: the line x = 20 runs along its side
    assert measures.line_of_sight(state, state.unit("a"), state.unit("t")).clear
    assert TableGeometry.of(state).pair("a", "t").los


def test_R002_41_auxiliary_weapons_ignore_models_but_not_terrain():
    state = screened()
    a, t = state.unit("a"), state.unit("t")
    ack_ack = card(a).weapon("Ack Ack")
    assert ack_ack is not None and ack_ack.auxiliary
    assert combat.reach(state, a, ack_ack, t).los  # models ignored
    assert not combat.reach(state, a, card(a).weapon("Guns"), t).los
    assert measures.line_of_sight(state, a, t, models=False).clear
    walled = table(*state.units, terrain=(rock("wall", 18, 12, 22, 13, "obstructing"),))
    found = combat.reach(walled, walled.unit("a"), ack_ack, walled.unit("t"))
    assert (found.los, found.blocked_by, found.blocking_models) == (False, ("wall",), ())


def test_R002_40_R002_41_a_model_never_blocks_sight_to_or_from_the_air():
    flying = table(
        unit("a", 20, 10, weapons=[ROCKETS]),
        unit("screen", 20, 13, "B", heading=90.0, size="massive"),
        unit("t", 20, 16, "B", movement="aerial", height_level="flying"),
    )
    assert combat.declare(flying, "a", "Rockets", "t").params["allowed_by"] == "R002.37"
    assert TableGeometry.of(flying).pair("a", "t").los
    assert TableGeometry.of(flying).pair("t", "a").los
    # nor does a model in the air, a Tiny Flyer, or a Diving model, between two Surface ones
    for between in (
        unit("air", 20, 15, "B", movement="aerial", height_level="flying", size="large"),
        flyer("wing", 20, 15, "B"),
        unit("sub", 20, 15, "B", heading=90.0, height_level="diving"),
    ):
        state = table(unit("a", 20, 10), between, unit("t", 20, 20, "B"))
        assert measures.line_of_sight(state, state.unit("a"), state.unit("t")).clear
        assert combat.declare(state, "a", "Guns", "t")
        assert TableGeometry.of(state).pair("a", "t").los


def test_A002_21_larger_blocks_only_models_of_the_targets_size_class_or_bigger():
    everyone = screened("small", "medium")  # "all": even a smaller model blocks
    assert not measures.line_of_sight(everyone, everyone.unit("a"), everyone.unit("t")).clear
    smaller = screened("small", "medium", models_block="larger")
    assert combat.declare(smaller, "a", "Guns", "t")
    assert TableGeometry.of(smaller).pair("a", "t").los
    for size in ("medium", "large"):
        state = screened(size, "medium", models_block="larger")
        with refused("R002.41"):
            combat.declare(state, "a", "Guns", "t")
        assert TableGeometry.of(state).pair("a", "t").blocking_models == ("screen",)
    # the target's size decides, not the firer's: a small target behind a small screen
    assert (
        not TableGeometry.of(screened("small", "small", models_block="larger")).pair("a", "t").los
    )


def test_A002_21_none_plays_the_reading_before_the_revision():
    """`models_block = "none"` replays the old reading (models never block), and a game that
    does not record the option was played under it (`before`)."""
    (spec,) = [f for f in DW.option_fields if f.name == "models_block"]
    assert (spec.default, spec.before) == ("all", "none")
    assert earlier_readings(DW.option_fields, {})["models_block"] == "none"
    assert DW.options({})["models_block"] == "all"
    old = screened(models_block="none")
    attack = combat.declare(old, "a", "Guns", "t")
    assert attack.params["pool"] == (("a", "Guns", 4, "full"),)  # 10" is RB2: 4 AD
    assert TableGeometry.of(old).pair("a", "t").los
    assert DW.model_blocking(old) is None
    with refused("R002.41"):
        combat.declare(screened(), "a", "Guns", "t")
    (problem,) = DW.check_options(FrozenMap(models_block="some"))  # refused by name
    assert "models_block" in str(problem) and "larger" in str(problem)


def test_A002_21_the_matrix_mask_is_model_blocks_for_every_pair_of_units():
    """The arrays the pair matrix reads (`model_blocking`) answer as `model_blocks` does for
    every firer, target and blocker."""
    units = [
        unit("s1", 10, 10, size="small"),
        unit("m1", 20, 10, "B", size="medium"),
        unit("l1", 30, 10, size="large"),
        unit("x1", 40, 10, "B", size="massive"),
        unit("f1", 50, 10, movement="aerial", height_level="flying", size="large"),
        unit("d1", 60, 10, "B", height_level="diving"),
        flyer("tf", 10, 30),
    ]
    for mode in ("all", "larger"):
        state = table(*units, models_block=mode)
        found = DW.model_blocking(state)
        assert [state.units[k].id for k in found.blockers] == ["s1", "m1", "l1", "x1"]
        for i, viewer in enumerate(units):
            for j, target in enumerate(units):
                row = found.mask[found.levels[i], found.levels[j]]
                for k, b in enumerate(found.blockers.tolist()):
                    blocker = units[b]
                    expected = measures.model_blocks(blocker, viewer, target, mode)
                    if blocker.id in (viewer.id, target.id):
                        assert not expected  # the geometry leaves a unit's own base out
                    else:
                        assert bool(row[k]) == expected, (mode, viewer.id, target.id)


def test_R002_41_check_and_attacks_agree_on_every_pair_of_a_crowded_table():
    rng = np.random.default_rng(41)
    sizes = ("small", "medium", "large", "massive")
    units = [
        unit(
            f"u{k}",
            float(rng.uniform(2, 70)),
            float(rng.uniform(2, 46)),
            "AB"[k % 2],
            float(rng.uniform(0, 360)),
            size=sizes[k % 4],
            **({"movement": "aerial", "height_level": "flying"} if k % 7 == 0 else {}),
        )
        for k in range(30)
    ]
    terrain = (rock("r", 30, 20, 34, 24, "obstructing", "medium"),)
    for mode in ("all", "larger"):
        state = table(*units, terrain=terrain, models_block=mode)
        geometry = TableGeometry.of(state)
        blocked = 0
        for report in geometry.all_pairs():
            sight = measures.line_of_sight(
                state, state.unit(report.source), state.unit(report.target)
            )
            assert (report.los, report.blocked_by, report.blocking_models) == (
                sight.clear,
                sight.terrain,
                sight.models,
            )
            blocked += bool(report.blocking_models)
        assert blocked > 50


def _misses_circle_afresh(unit_, source, target):
    """The circumscribed-circle test as arrays (the reference `_misses_circle` agrees with)."""
    start, end = np.array((source.x, source.y)), np.array((target.x, target.y))
    along = end - start
    offset = np.array((unit_.x, unit_.y)) - start
    t = min(max(float(offset @ along) / float(along @ along), 0.0), 1.0)
    return bool(np.hypot(*(offset - t * along)) > measures._circumradius(unit_) + 1e-9)


def test_R002_41_the_circle_test_in_floats_agrees_with_the_arrays_at_the_limit():
    source, target = unit("a", 0.0, 0.0), unit("t", 30.0, 7.0, "B")
    along = np.array((30.0, 7.0))
    normal = np.array((-7.0, 30.0)) / np.hypot(7.0, 30.0)
    radius = float(np.hypot(0.5, 1.5))  # a 1" x 3" base
    cases = 0
    for offset in (0.0, 1e-9, 2e-9, 1e-12, -1e-12, 1e-6, -1e-6, 0.5, -0.5):
        for t in (0.0, 0.3, 0.99, 1.2):
            x, y = along * t + normal * (radius + offset)
            near = unit("n", float(x), float(y), "B")
            got = measures._misses_circle(
                near, 0.0, 0.0, 30.0, 7.0, float(along @ along), np.zeros(2), along
            )
            assert got == _misses_circle_afresh(near, source, target), (offset, t)
            cases += got
    assert 0 < cases < 36  # both answers met


def test_R002_41_models_blocking_on_random_tables_equals_every_base_tested():
    rng = np.random.default_rng(7)
    for _ in range(4):
        units = [
            unit(
                f"u{k}",
                float(rng.uniform(0, 40)),
                float(rng.uniform(0, 30)),
                "AB"[k % 2],
                float(rng.uniform(0, 360)),
                base=None if k % 3 else CircleBase(float(rng.uniform(1, 3))),
            )
            for k in range(12)
        ]
        state = table(*units)
        for source in units[:4]:
            for target in units:
                if target is source:
                    continue
                crossed = measures.models_blocking(state, source, target)
                # every other base the line's interior enters, in order (GEO002.10)
                line = shapely.linestrings([(source.x, source.y), (target.x, target.y)])
                expected = sorted(
                    (
                        float(
                            shapely.distance(shapely.points(source.x, source.y), line & u.footprint)
                        ),
                        u.id,
                    )
                    for u in units
                    if u.id not in (source.id, target.id)
                    and shapely.relate_pattern(line, u.footprint, los.INTERIOR_PATTERN)
                )
                assert crossed == tuple(uid for _, uid in expected)


def test_A002_21_a_model_replaced_on_a_table_is_read_again_for_sight():
    # what a table's models are read for (Surface, size class) is kept per table: the same
    # table asked twice answers alike, a table with a bigger screen answers for it
    small = screened("small", "medium", models_block="larger")
    for _ in range(2):
        assert measures.line_of_sight(small, small.unit("a"), small.unit("t")).clear
        # viewer and target medium: the blockers a, screen, t; the small screen does not count
        assert DW.model_blocking(small).mask[0, 0].tolist() == [True, False, True]
    bigger = small.replace_unit(unit("screen", 20, 15, "B", heading=90.0, size="large"))
    assert measures.line_of_sight(bigger, bigger.unit("a"), bigger.unit("t")).models == ("screen",)
    assert DW.model_blocking(bigger).mask[0, 0].tolist() == [True, True, True]
    assert measures.models_block(small) == "larger"
    assert measures.models_block(screened()) == "all"
