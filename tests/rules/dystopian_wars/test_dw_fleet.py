"""Game setup and fleet building (R002.2-R002.8, R002.53, R002.58, A002.15)."""

from __future__ import annotations

import pytest
from dw_builders import DW, flyer, refused, table, unit

from tactical.io import loads_map
from tactical.model import SizeClass
from tactical.rules.dystopian_wars import fleet, play, tracking


def _fleet(side: str, y: float, force_unit: str = "naval", **points: int) -> list:
    """A Core-Force fleet with a Small, a Medium and a Large squadron."""
    return [
        unit(
            f"{side}-small",
            10,
            y,
            side,
            size="small",
            movement=force_unit,
            points=points.get("small", 20),
            squadron="s",
        ),
        unit(
            f"{side}-medium",
            20,
            y,
            side,
            size="medium",
            movement=force_unit,
            points=points.get("medium", 40),
            squadron="m",
        ),
        unit(
            f"{side}-large",
            30,
            y,
            side,
            size="large",
            movement=force_unit,
            points=points.get("large", 60),
            squadron="l",
        ),
    ]


def test_R002_2_setup_choices_are_all_recorded():
    state = play.setup(
        table(
            *_fleet("A", 5),
            *_fleet("B", 40),
            game_type="friendly",
            field_orders=False,
            game_turns=4,
        )
    )
    setup = tracking.mapping(state, "setup")
    assert dict(setup) == {
        "game_type": "friendly",
        "field_orders": False,
        "game_length": "turns",
        "game_turns": 4,
    }
    assert dict(tracking.mapping(state, "core_forces")) == {"A": "naval", "B": "naval"}
    assert dict(tracking.mapping(state, "mfv")) == {"A": 120, "B": 120}


def test_R002_2_game_type_must_be_known():
    assert DW.check_options({"game_type": "casual"})[0].spec_id == "R002.2"
    state = table(*_fleet("A", 5), *_fleet("B", 40))
    state = state.__class__(
        state.rules,
        state.board,
        options=state.options.set("game_type", "casual"),
        units=state.units,
    )
    with refused("R002.2"):
        play.setup(state)


def test_R002_3_game_length_is_turns_or_a_time_limit():
    assert DW.check_options({"game_length": "time"}) == []
    assert DW.check_options({"game_length": "forever"})[0].spec_id == "R002.3"
    assert DW.options({})["game_length"] == "turns" and DW.options({})["game_turns"] == 6


def test_R002_4_core_force_and_mfv():
    assert fleet.parse_core_forces("A=naval, B=Aerial") == {"A": "naval", "B": "aerial"}
    with refused("R002.4"):
        fleet.parse_core_forces("A=space")
    units = [
        unit("n", 10, 5, points=50),
        unit("x", 20, 5, movement="armoured", points=80),
        unit("y", 30, 5, movement="armoured", points=10),
    ]
    assert fleet.derived_core_force(units) == "armoured"
    state = table(*units, unit("b", 10, 40, "B", points=30), core_forces="A=naval")
    setup = fleet.game_setup(state, DW.options(state.options))
    assert dict(setup.core_forces) == {"A": "naval", "B": "naval"}
    assert dict(setup.mfv) == {"A": 140, "B": 140}  # the larger fleet's points when not agreed
    agreed = fleet.game_setup(state, DW.options({"max_fleet_value": 100}))
    assert dict(agreed.mfv) == {"A": 100, "B": 100}
    problems = fleet.fleet_problems(state, "A", agreed)
    assert [p.spec_id for p in problems] == ["R002.4"]
    with refused("R002.4"):
        fleet.game_setup(state, DW.options({"core_forces": "C=naval"}))


def test_R002_5_friendly_games_need_small_medium_and_large_core_squadrons():
    full = table(*_fleet("A", 5), *_fleet("B", 40), game_type="friendly")
    assert tracking.get(play.setup(full), "turn") == 1
    lacking = table(*_fleet("A", 5)[:2], *_fleet("B", 40), game_type="friendly")
    with refused("R002.5", "large or massive"):
        play.setup(lacking)
    # not from the Core Force: an armoured Large squadron does not count for a naval fleet
    off_force = table(
        *_fleet("A", 5)[:2],
        unit("A-tank", 40, 5, size="large", movement="armoured", points=10, squadron="t"),
        *_fleet("B", 40),
        game_type="tournament",
        core_forces="A=naval",
    )
    with refused("R002.5"):
        play.setup(off_force)
    # open games: no requirement
    open_game = table(*_fleet("A", 5)[:1], *_fleet("B", 40), game_type="open")
    assert tracking.get(play.setup(open_game), "turn") == 1


@pytest.mark.parametrize(
    ("points", "category"),
    [
        ({"large": 71, "medium": 10, "small": 10}, "large+massive"),
        ({"large": 10, "medium": 71, "small": 10}, "medium"),
        ({"large": 10, "medium": 10, "small": 41}, "small"),
    ],
)
def test_R002_6_tournament_percentages(points, category):
    units = _fleet("A", 5, **points)
    problems = fleet.tournament_problems(units, "naval", 100)
    assert [(p.key, p.spec_id) for p in problems] == [(category, "R002.6")]
    assert (
        fleet.tournament_problems(_fleet("A", 5, large=70, medium=70, small=40), "naval", 100) == []
    )


def test_R002_6_not_core_force_at_most_half():
    units = [
        *_fleet("A", 5, large=20, medium=20, small=9),
        unit("air", 40, 5, movement="aerial", size="medium", points=61),
    ]
    problems = fleet.tournament_problems(units, "naval", 120)
    assert [p.key for p in problems] == ["not-core-force"]
    shares = fleet.tournament_shares(units, "naval")
    assert shares == {"large+massive": 20, "medium": 81, "small": 9, "not-core-force": 61}


def test_R002_6_only_enforced_in_tournament_games():
    heavy = _fleet("A", 5, large=200, medium=10, small=10)
    friendly = table(*heavy, *_fleet("B", 40), game_type="friendly")
    assert tracking.get(play.setup(friendly), "turn") == 1
    tournament = table(*heavy, *_fleet("B", 40), game_type="tournament")
    with refused("R002.6"):
        play.setup(tournament)


def test_R002_7_crunchy_terrain_is_now_dense():
    assert "dense" in DW.terrain_kinds and "crunchy" not in DW.terrain_kinds
    text = """rules = "dystopian-wars"
[board]
width = 48
height = 48
[[terrain]]
id = "rocks"
kind = "{kind}"
height = "large"
polygon = [[1, 1], [5, 1], [5, 5]]
"""
    assert loads_map(text.format(kind="dense")).terrain[0].kind == "dense"
    with pytest.raises(Exception, match="kind"):
        loads_map(text.format(kind="crunchy"))


def test_R002_8_terrain_surface_height_is_a_size_class():
    text = """rules = "dystopian-wars"
[board]
width = 48
height = 48
[[terrain]]
id = "cliff"
kind = "obstructing"
height = "{height}"
polygon = [[1, 1], [5, 1], [5, 5]]
"""
    assert loads_map(text.format(height="massive")).terrain[0].height is SizeClass.MASSIVE
    with pytest.raises(Exception, match="height"):
        loads_map(text.format(height="towering"))


def test_R002_58_local_air_support_two_free_wings_one_recon():
    wings = (
        [flyer(f"f{i}", 10 + i, 10, squadron="w1") for i in range(3)]
        + [flyer(f"g{i}", 10 + i, 14, squadron="w2") for i in range(3)]
        + [flyer(f"h{i}", 10 + i, 18, squadron="w3") for i in range(3)]
    )
    state = table(*wings, unit("b", 10, 40, "B"))
    with refused("R002.58", "2 Local Air Support"):
        play.setup(state)
    two_recon = table(
        flyer("r1", 10, 10, wing_type="recon", squadron="r1"),
        flyer("r2", 20, 10, wing_type="recon", squadron="r2", points=10),
        unit("b", 10, 40, "B"),
    )
    with refused("A002.15"):
        play.setup(two_recon)


def test_R002_53_one_type_per_wing():
    mixed = table(
        flyer("f1", 10, 10, squadron="w"),
        flyer("f2", 11, 10, squadron="w"),
        flyer("d1", 12, 10, wing_type="dive-bomber", squadron="w"),
        unit("b", 10, 40, "B"),
    )
    with refused("R002.53", "one Tiny Flyer type"):
        play.setup(mixed)
