"""Deployment: roll-off, edges, zones, alternate squadrons (R002.16-R002.18, A002.6)."""

from __future__ import annotations

import pytest

from tactical.dice import ScriptedDice, SeededDice
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
from tactical.session.deployment import (
    choose_edges,
    deploy_squadron,
    deployment_order,
    deployment_violations,
    is_deployed_in,
    roll_off,
    squadrons,
)

BOARD = Board(72, 48)


def ship(unit_id: str, side: str, squadron: str = "", x: float = 36, y: float = 24) -> Unit:
    stats = {"squadron": squadron} if squadron else {}
    return Unit(
        unit_id,
        unit_id,
        side,
        Pose(x, y, 0),
        RectBase(1.5, 4),
        MovementClass.NAVAL,
        stats=FrozenMap(stats),
    )


def fleet() -> GameState:
    units = (
        ship("a1", "A", "line", 10, 4),
        ship("a2", "A", "line", 14, 4),
        ship("a3", "A", "escort", 20, 4),
        ship("b1", "B", "", 10, 44),
        ship("a4", "A", "", 30, 4),
    )
    return GameState("dystopian-wars", BOARD, units=units)


def test_higher_2d6_total_wins_the_roll_off_r002_16():
    result = roll_off(ScriptedDice([3, 4, 6, 6]))
    assert result.winner == "B"
    assert result.rounds[0].totals == {"A": 7, "B": 12}
    assert len(result.rolls) == 4
    assert all("R002.16" in r.what for r in result.rolls)


def test_ties_re_roll_a002_6():
    result = roll_off(ScriptedDice([3, 4, 5, 2, 6, 6, 1, 1]))
    assert [r.totals for r in result.rounds] == [{"A": 7, "B": 7}, {"A": 12, "B": 2}]
    assert result.winner == "A"
    assert result.as_dict()["rounds"][1]["dice"] == {"A": [6, 6], "B": [1, 1]}


def test_roll_off_is_reproducible_with_a_seed():
    assert roll_off(SeededDice(5)).as_dict() == roll_off(SeededDice(5)).as_dict()


def test_winner_picks_any_edge_the_other_takes_the_opposite_r002_16_r002_17():
    deployment = choose_edges(BOARD, "B", "left")
    assert deployment.edges == {"B": "left", "A": "right"}
    assert deployment.zones["B"].bounds == (0.0, 0.0, 8.0, 48.0)
    assert deployment.zones["A"].bounds == (64.0, 0.0, 72.0, 48.0)
    assert deployment.chooser == "B"


def test_bad_edge_or_side_is_a_clear_error():
    with pytest.raises(UserError, match="unknown table edge"):
        choose_edges(BOARD, "A", "north")
    with pytest.raises(UserError, match="side 'C' is not playing"):
        choose_edges(BOARD, "C", "top")


def test_whole_base_inside_the_zone_r002_17():
    zone = choose_edges(BOARD, "A", "bottom").zones["A"]
    assert is_deployed_in(ship("x", "A", x=10, y=6), zone)  # reaches y = 8 exactly
    assert not is_deployed_in(ship("x", "A", x=10, y=6.5), zone)


def test_squadrons_in_map_order():
    assert squadrons(fleet(), "A") == (
        ("line", ("a1", "a2")),
        ("escort", ("a3",)),
        ("a4", ("a4",)),
    )


def test_alternate_squadrons_and_pass_when_out_r002_18():
    """The chooser deploys first; B has one squadron, so A continues alone."""
    order = deployment_order(fleet(), "B", ("A", "B"))
    assert order == (("B", "b1"), ("A", "line"), ("A", "escort"), ("A", "a4"))
    order = deployment_order(fleet(), "A", ("A", "B"))
    assert order[:2] == (("A", "line"), ("B", "b1"))


def test_deploy_a_squadron_inside_its_zone_r002_17():
    state = fleet()
    deployment = choose_edges(BOARD, "A", "bottom")
    placed = deploy_squadron(
        state, deployment, "A", "line", {"a1": Pose(40, 3, 0), "a2": Pose(44, 3, 0)}
    )
    assert placed.unit("a1").pose == Pose(40, 3, 0)
    assert state.unit("a1").pose == Pose(10, 4, 0)  # the old state is unchanged


@pytest.mark.parametrize(
    ("poses", "rule"),
    [
        ({"a1": Pose(40, 7, 0), "a2": Pose(44, 3, 0)}, "R002.17"),  # sticks out of the zone
        ({"a1": Pose(40, 3, 0), "a2": Pose(41, 3, 0)}, "R002.33"),  # on top of each other
        ({"a1": Pose(40, 3, 0)}, "R002.18"),  # not the whole squadron
        ({"a1": Pose(50, 4, 0), "a2": Pose(44, 3, 0)}, "R002.35"),  # in the rocks
    ],
)
def test_illegal_deployments_are_refused(poses, rule):
    rocks = Terrain("rocks", "dense", SizeClass.SMALL, polygon=((49, 2), (52, 2), (52, 5)))
    state = GameState("dystopian-wars", BOARD, terrain=(rocks,), units=fleet().units)
    deployment = choose_edges(BOARD, "A", "bottom")
    with pytest.raises(UserError) as caught:
        deploy_squadron(state, deployment, "A", "line", poses)
    assert caught.value.spec_id == rule


def test_deployment_violations_list_units_outside_their_zone():
    state = fleet()
    deployment = choose_edges(BOARD, "A", "bottom")
    assert deployment_violations(state, deployment) == ()
    strayed = state.replace_unit(state.unit("a3").moved_to(Pose(20, 12, 0)))
    found = deployment_violations(strayed, deployment)
    assert [v.rule for v in found] == ["R002.17"]
    assert "'a3'" in found[0].message
