"""R003.30, R003.11, R003.15, R003.51-R003.54: a join's, an Initiative roll's, an
avoidance's and a station roll's work before the roll is done once per state
(`_join_plan`, `_initiative_plan`, `_avoid_plan`, `_ready_station`), the roll and what
follows it each time: the same outcomes, events, states and odds on the same state again
as on an equal one, and a refused one refused each time."""

from __future__ import annotations

import pytest
from cortex_builders import BATTLESTAR, RAIDER, VIPER, table, unit, with_stats

from tactical.dice import ScriptedDice, SeededDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.cortex_space import collisions, manoeuvres, play


def _pair(**options):
    return table(
        unit("lead", 10, 10, "A", heading=90, **VIPER),
        unit("wingman", 10, 12, "A", heading=95, **with_stats(VIPER, pilot="d6")),
        **options,
    )


def _read(state, dice):
    result = manoeuvres.resolve_join(state, "wingman", "lead", dice)
    return result.summary, result.events, result.state


def test_R003_30_a_join_planned_once_resolves_as_on_a_fresh_state():
    state = _pair()
    for total in (2, 6, 7, 16):
        again = _read(state, ScriptedDice([total]))
        assert again == _read(_pair(), ScriptedDice([total]))
    for seed in range(4):
        rolled, fresh = SeededDice(seed), SeededDice(seed)
        assert _read(state, rolled) == _read(_pair(), fresh) and rolled.rolls == fresh.rolls
    odds = enumerate_outcomes(lambda dice: _read(state, dice)[:2])
    assert odds.pairs == enumerate_outcomes(lambda dice: _read(_pair(), dice)[:2]).pairs
    assert {summary for (summary, _), _ in odds.pairs} == {
        "botch",
        "failure",
        "success",
        "extraordinary",
    }
    success = _read(state, ScriptedDice([7]))[2]
    assert [m["id"] for m in success.unit("lead").stats["members"]] == ["lead", "wingman"]


def test_R003_30_a_refused_join_is_refused_each_time():
    state = _pair(wing_heading_tolerance=2.0)
    for _ in range(2):
        with pytest.raises(UserError, match=r"GEO003\.2"):
            manoeuvres.resolve_join(state, "wingman", "lead", ScriptedDice([]))


def test_R003_11_an_initiative_planned_once_resolves_as_on_a_fresh_state():
    state = _pair()
    for seed in range(4):
        rolled, fresh = SeededDice(seed), SeededDice(seed)
        again = manoeuvres.resolve_initiative(state, "lead", rolled)
        anew = manoeuvres.resolve_initiative(_pair(), "lead", fresh)
        assert (again.summary, again.events, again.state) == (anew.summary, anew.events, anew.state)
        assert rolled.rolls == fresh.rolls
    odds = enumerate_outcomes(
        lambda dice: manoeuvres.resolve_initiative(state, "lead", dice).summary
    )
    assert (
        odds.pairs
        == enumerate_outcomes(
            lambda dice: manoeuvres.resolve_initiative(_pair(), "lead", dice).summary
        ).pairs
    )
    rolled = manoeuvres.resolve_initiative(state, "lead", ScriptedDice([9])).state
    for _ in range(2):
        with pytest.raises(UserError, match=r"R003\.10"):
            manoeuvres.resolve_initiative(rolled, "lead", ScriptedDice([9]))


def _contact():
    return table(
        unit("v", 10, 10, "A", heading=0, **with_stats(VIPER, speed=6)),
        unit("w", 10, 11.3, "B", heading=90, **with_stats(RAIDER, speed=6)),
    )


def test_R003_15_an_avoidance_planned_once_resolves_as_on_a_fresh_state():
    state = _contact()

    def avoid(on, dice):
        resolution = collisions.resolve_avoid(on, "v", "w", dice)
        return resolution.summary, resolution.events, resolution.state

    for seed in range(4):
        rolled, fresh = SeededDice(seed), SeededDice(seed)
        assert avoid(state, rolled) == avoid(_contact(), fresh)
        assert rolled.rolls == fresh.rolls
    odds = enumerate_outcomes(lambda dice: avoid(state, dice)[:2])
    assert odds.pairs == enumerate_outcomes(lambda dice: avoid(_contact(), dice)[:2]).pairs
    for _ in range(2):
        with pytest.raises(UserError, match=r"R003\.15"):
            collisions.resolve_avoid(state, "v", "v", ScriptedDice([]))


CREW_B = [
    {"station": "co", "name": "Adama", "attribute": "d10", "skill": "d8"},
    {"station": "tactical", "name": "Gaeta", "skill": "d8"},
    {"station": "helm", "name": "Hoshi", "skill": "d12"},
]


def _crewed():
    ship = with_stats(BATTLESTAR, agility="d6", crew=CREW_B)
    return table(
        unit("galactica", 10, 24, "A", **ship),
        unit("raider", 30, 24, "B", **with_stats(RAIDER, agility="d6", pilot="d6")),
        crew_variant="B",
    )


@pytest.mark.parametrize(
    "kind, params",
    [
        ("station-roll", {"crew": "Adama", "apply_to": "attack"}),
        ("attack-manoeuvre", {"crew": "Hoshi"}),
        ("evasive-manoeuvre", {"crew": "Hoshi"}),
    ],
)
def test_R003_51_and_R003_54_a_station_roll_made_ready_once_resolves_as_fresh(kind, params):
    state = _crewed()
    action = Action(kind, "galactica", FrozenMap(params))

    def act(on, dice):
        resolution = play.apply(on, action, dice)
        return resolution.summary, resolution.events, resolution.state

    for seed in range(4):
        rolled, fresh = SeededDice(seed), SeededDice(seed)
        assert act(state, rolled) == act(_crewed(), fresh) and rolled.rolls == fresh.rolls
    odds = enumerate_outcomes(lambda dice: act(state, dice)[:2])
    assert odds.pairs == enumerate_outcomes(lambda dice: act(_crewed(), dice)[:2]).pairs
