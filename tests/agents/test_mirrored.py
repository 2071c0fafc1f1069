"""The mirrored maps the strength bench measures the players on (`mirrored`).

One side's fleet on both sides: the copies stand where the originals would if the table
were turned round, with the same stats, so neither seat starts ahead on strength or
position, and a whole game plays on them in every rule system.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from agent_scenarios import RULES, short_scenario

from tactical.agents import mirrored, play_game
from tactical.agents.evaluation import Material
from tactical.errors import UserError
from tactical.session.game import Game


@pytest.mark.parametrize("rules_id", RULES)
def test_each_side_faces_its_own_fleet_turned_round(scenarios, rules_id):
    state = scenarios[rules_id]
    first, last = state.sides
    for side in (first, last):
        mirror = mirrored(state, side)
        assert mirror.sides == (first, last)
        kept = [u for u in mirror.units if u.side == side]
        copies = [u for u in mirror.units if u.side != side]
        assert [u.id for u in kept] == [u.id for u in state.units if u.side == side]
        assert [u.id for u in copies] == [f"mirror-{u.id}" for u in kept]
        width, height = state.board.width, state.board.height
        for original, copy in zip(kept, copies, strict=True):
            assert copy.stats == original.stats
            assert copy.name == f"{original.name} (mirror)"
            assert copy.pose.x == pytest.approx(width - original.pose.x)
            assert copy.pose.y == pytest.approx(height - original.pose.y)
            assert copy.pose.heading == pytest.approx((original.pose.heading + 180) % 360)
        strength = Material(Game.new(mirror, 0)).total_strength
        assert strength[first] == pytest.approx(strength[last])


@pytest.mark.parametrize("rules_id", RULES)
def test_a_game_on_a_mirrored_map_ends(rules_id):
    state = short_scenario(rules_id)
    record = play_game(mirrored(state, state.sides[-1]), 3, {})
    assert record.outcome is not None
    assert record.refused == 0
    assert set(record.losses) == set(state.sides)


def test_the_mirrored_map_says_so_in_its_title(scenarios):
    state = scenarios["heavy-combat"]
    assert mirrored(state, "Klingon").title == f"{state.title} (Klingon against Klingon)"


def test_a_side_not_in_the_map_is_refused(scenarios):
    state = scenarios["heavy-combat"]
    with pytest.raises(UserError) as refused:
        mirrored(state, "Nobody")
    assert str(refused.value) == ("no side 'Nobody' in this map: its sides are Federation, Klingon")


def test_a_map_of_more_than_two_sides_is_refused(scenarios):
    state = scenarios["heavy-combat"]
    third = replace(state.units[0], id="third", side="Romulan")
    with pytest.raises(UserError) as refused:
        mirrored(replace(state, units=(*state.units, third)), "Klingon")
    assert str(refused.value) == "a mirrored map needs two sides, this one has 3"
