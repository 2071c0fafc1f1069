"""A003.E1: every starting vessel's condition at once, the same tuple for equal ones."""

from dataclasses import replace

from cortex_builders import BATTLESTAR, SYSTEM, VIPER, table, unit, with_stats

from tactical.model import FrozenMap
from tactical.model.state import GameState


def _with_stats(state: GameState, unit_id: str, **changes: object) -> GameState:
    now = state.unit(unit_id)
    return state.replace_unit(replace(now, stats=FrozenMap({**now.stats, **changes})))


def _start() -> GameState:
    return table(
        unit("viper", 10, 10, "A", **VIPER),
        unit("galactica", 40, 10, "B", **with_stats(BATTLESTAR, life_points=40)),
    )


def test_the_batch_is_each_vessels_condition_in_order():
    start = _start()
    hit = _with_stats(start, "galactica", wound=10, stun=3)
    found = SYSTEM.unit_conditions(hit, start.units)
    assert list(found) == [SYSTEM.unit_condition(hit, u) for u in start.units]
    assert found[1].lost == 10 / 40
    assert found[1].strength == 200.0  # spacecraft x5 on 40
    assert not found[1].out and found[0].lost == 0.0


def test_equal_conditions_on_other_states_are_the_same_tuple():
    start = _start()
    # Stun below the Life Points is read by no condition: the same losses
    one = _with_stats(start, "galactica", wound=10, stun=3)
    other = _with_stats(start, "galactica", wound=10, stun=5)
    assert one.unit("galactica") is not other.unit("galactica")
    first = SYSTEM.unit_conditions(one, start.units)
    assert SYSTEM.unit_conditions(other, start.units) is first
    worse = SYSTEM.unit_conditions(_with_stats(start, "galactica", wound=11), start.units)
    assert worse is not first and worse[1].lost == 11 / 40


def test_a_vessel_gone_from_the_table_counts_as_lost():
    start = _start()
    gone = start.without_unit("viper")
    found = SYSTEM.unit_conditions(gone, start.units)
    assert found[0].out and found[0].lost == 1.0 and not found[0].able
    assert found[0].strength == SYSTEM.unit_condition(start, start.units[0]).strength
