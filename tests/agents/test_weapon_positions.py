"""Positions valued by each weapon's reach (`hints.position_by_weapons`) and the table-move
threshold a rule system may lower (`hints.move_threshold`): Cortex Space declares both
(its range bands, GEO003.1, run out to long DRADIS, far past its guns; its rules move
nothing, a vessel moves on the table, GEO003.7)."""

from __future__ import annotations

import math
import re

import pytest

from tactical.agents import GreedyPlayer, hints, mirrored
from tactical.agents.evaluation import APPROACH_WEIGHT, EXPOSURE_WEIGHT, Position
from tactical.agents.players import MOVE_THRESHOLD
from tactical.geometry.arcs_spec import OMNI, Sector
from tactical.geometry.shapes import Pose
from tactical.io import builtin_map, load_map
from tactical.rules.conventions import WeaponReach, bands_from_limits
from tactical.session.game import Game


def colonial_mirror() -> Game:
    """Two Colonial fleets: the battlestars 48" apart (railguns reach 36"), the Vipers
    24" apart (autocannons reach 12")."""
    state = load_map(builtin_map("cortex-space"))
    return Game.new(mirrored(state, state.sides[0]), 0)


def test_cortex_declares_positions_by_weapons_and_a_lower_move_threshold():
    game = colonial_mirror()
    hint = hints.get(game.rules, game.system)
    assert hint.position_by_weapons and hint.move_threshold == 0.005
    assert GreedyPlayer.move_threshold(game) == 0.005
    other = Game.new(load_map(builtin_map("heavy-combat")), 0)
    assert not hints.get(other.rules, other.system).position_by_weapons
    assert GreedyPlayer.move_threshold(other) == MOVE_THRESHOLD


def test_a_viper_holds_only_the_enemies_its_autocannons_reach():
    """GEO003.1: the autocannons reach skirmish range (12"): at 8" from both enemy Vipers
    it holds them in its farther band (weight `FAR_BAND` 0.5 of two bands), not the enemy
    battlestar 20" off, which it closes on instead (those in reach count as closed); it
    is held by the enemy Vipers (0.5 each) and by the battlestar's weapons: railguns in
    their farthest band (0.5 of three), point defense out of range (0), missiles in the
    middle of five bands (0.75), a mean of 5/12."""
    game = colonial_mirror()
    player = GreedyPlayer(1)
    position = Position(game, player.material(game))
    value = position.values
    here = position.reach("starbuck")
    assert here.holds == 0.0  # 24" from the enemy Vipers: out of the autocannons' reach
    closer = position.reach("starbuck", Pose(40.0, 26.0, 90.0))
    vipers = value["mirror-apollo"] + value["mirror-starbuck"]
    assert closer.holds == pytest.approx(0.5 * vipers)
    assert closer.held_by == pytest.approx(0.5 * vipers + 5 / 12 * value["mirror-galactica"])
    gap = math.hypot(20.0, 2.0) - 12.0  # to the enemy battlestar, past the autocannons' 12"
    assert closer.closing == pytest.approx(  # the Vipers in reach: closed
        vipers + value["mirror-galactica"] * (1 - gap / position.diagonal)
    )
    assert closer.score == pytest.approx(
        closer.holds - EXPOSURE_WEIGHT * closer.held_by + APPROACH_WEIGHT * closer.closing
    )


def test_a_battlestar_counts_its_railguns_coming_into_range_where_its_missiles_already_reach():
    """The mean over the weapons: the missiles reach the enemy battlestar 48" off (short
    DRADIS), the railguns (36") only once it closes; by the unit's range bands (to long
    DRADIS) it held every enemy wherever it went, as if its guns reached."""
    game = colonial_mirror()
    position = Position(game, GreedyPlayer(1).material(game))
    far = position.reach("galactica")
    near = position.reach("galactica", Pose(30.0, 24.0, 90.0))  # 30" off the enemy's
    assert near.holds > far.holds and near.closing > far.closing
    by_bands = Position(game, GreedyPlayer(1).material(game))
    by_bands.by_weapons = False  # the unit's range bands, as without the hint
    assert by_bands.reach("galactica").holds > 2 * far.holds  # as if the guns reached


def test_the_greedy_player_moves_cortex_vessels_into_reach():
    """Without the hints no table move was ever worth making in Cortex (the Vipers and
    battlestars of the mirrored map sat out the game beyond their guns' reach: drawn
    games); with them the battlestars close on the enemy in the first turn."""
    game = colonial_mirror()
    player = GreedyPlayer(1)
    moved = set()
    while game.position.phase == 0 and not game.over:
        decision = player.decide(game)
        if decision.action.kind == "move":
            moved.add(decision.action.actor)
            assert "holds " in decision.why and "% of the enemy in arc and range" in decision.why
            assert re.search(r"of it: a positional gain of \+\d+\.\d points", decision.why)
        game = decision.after
    assert {"galactica", "mirror-galactica"} <= moved
    try:
        hints.register("cortex-space", hints.Hints())  # no hints: the unit's range bands
        game, moved = colonial_mirror(), set()
        while game.position.phase == 0 and not game.over:
            decision = player.decide(game)
            moved |= {decision.action.actor} if decision.action.kind == "move" else set()
            game = decision.after
        assert not moved
    finally:
        hints.unregister("cortex-space")


def test_each_weapon_counts_by_its_own_arc_band_sight_and_the_inches_it_has_to_close(
    monkeypatch,
):
    """`_by_weapons`, sum by sum: a fore-arc gun with a near band to 6" and a far one to 18"
    and an all-round gun to 10". The mean over the two of each one's band weight (1 in its
    nearest band, `FAR_BAND` 0.5 in its farthest; a band's outer edge is its own) where
    the target is in its arc and in sight, and of 1 - the inches left to close over the
    diagonal (1 in range); no weapons, nothing either way."""
    game = colonial_mirror()
    position = Position(game, GreedyPlayer(1).material(game))
    fore = Sector("fore", 315.0, 45.0)
    guns = WeaponReach("guns", (fore,), bands_from_limits([("near", 6.0), ("far", 18.0)], None))
    turret = WeaponReach("turret", (OMNI,), bands_from_limits([("only", 10.0)], None))
    monkeypatch.setattr(position, "_weapon_reaches", lambda unit: (guns, turret))
    unit = game.state.unit("galactica")
    d = position.diagonal
    ahead, abeam = frozenset({"fore"}), frozenset({"starboard"})
    assert position._by_weapons(unit, 0.0, ahead, True) == pytest.approx((1.0, 1.0))
    assert position._by_weapons(unit, 6.0, ahead, True) == pytest.approx((1.0, 1.0))
    assert position._by_weapons(unit, 10.5, ahead, True) == pytest.approx(
        (0.5 / 2, (1.0 + 1.0 - 0.5 / d) / 2)
    )
    assert position._by_weapons(unit, 12.0, abeam, True) == pytest.approx(
        (0.0, (1.0 + 1.0 - 2.0 / d) / 2)  # the gun cannot bear: in range all the same
    )
    assert position._by_weapons(unit, 8.0, abeam, True) == pytest.approx((1.0 / 2, 1.0))
    assert position._by_weapons(unit, 8.0, ahead, False) == pytest.approx((0.0, 1.0))
    assert position._by_weapons(unit, 30.0, ahead, True) == pytest.approx(
        (0.0, ((1.0 - 12.0 / d) + (1.0 - 20.0 / d)) / 2)
    )
    monkeypatch.setattr(position, "_weapon_reaches", lambda unit: ())
    assert position._by_weapons(unit, 8.0, ahead, True) == (0.0, 0.0)
