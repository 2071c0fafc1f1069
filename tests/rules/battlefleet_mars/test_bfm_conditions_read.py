"""Every starting unit's condition at once (A000.E1) as a unit read from what it was read
from last gives again: it follows the state it is asked of however the states come
(a record set, set back, another set; a group's count; a unit gone), reads the same of a
watched state as each unit's own condition does, and its material value is the one
worked out from its shares."""

from __future__ import annotations

from dataclasses import replace

from tactical.agents.evaluation import OUT_WEIGHT, Material
from tactical.agents.reads import watching
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.rules.battlefleet_mars import outcome
from tactical.rules.battlefleet_mars.units import profile
from tactical.session.game import Game


def _start():
    return registry.get("battlefleet-mars").setup(load_map(builtin_map("battlefleet-mars")))


def _states(start):
    fighters = start.unit("mars-fighters")
    fewer = start.replace_unit(
        replace(fighters, stats={**fighters.stats, "count": profile(fighters).count - 1})
    )
    hit = outcome.record_results(start, "ares-cruiser", ("B2",))
    more = outcome.record_results(hit, "ares-cruiser", ("L1",))
    crippled = outcome.record_results(start, "ares-cruiser", ("D",))
    gone = hit.without_unit("mars-fighters")
    return [start, hit, start, more, fewer, hit, crippled, gone, fewer, start]


def test_A000_E1_every_condition_at_once_follows_the_states_as_they_come():
    start = _start()
    cruiser = [u.id for u in start.units].index("ares-cruiser")
    fighters = [u.id for u in start.units].index("mars-fighters")
    found = [outcome.unit_conditions(state, start.units) for state in _states(start)]
    alone = [[outcome.unit_condition(s, u) for u in start.units] for s in _states(start)]
    assert found == alone
    value = outcome.strength(start.unit("ares-cruiser"))
    assert [c[cruiser].lost for c in found[:4]] == [0.0, 2 / value, 0.0, 3 / value]
    assert found[6][cruiser].out and not found[5][cruiser].out
    assert found[4][fighters].lost == 1 - 2 / 3 and found[7][fighters].out
    assert found[0] is found[2] is found[9]  # the very same list for the same conditions


def test_A000_E1_every_condition_at_once_reads_what_each_units_own_reads():
    start = _start()
    for state in _states(start):
        together, reads = watching(state)
        outcome.unit_conditions(together, start.units)
        alone, own = watching(state)
        for unit in start.units:
            outcome.unit_condition(alone, unit)
        assert reads.key() == own.key()
        assert any(key.startswith(outcome.HITS) for key in reads.key())  # records read


def test_A000_E1_the_material_value_is_its_shares_own():
    start = _start()
    material = Material(Game.new(start, 7))
    for state in _states(start) * 2:
        shares = material.shares(state)
        loss = {s: lost + OUT_WEIGHT * out for s, (lost, out) in shares.items()}
        for side in material.sides:
            enemies = [loss[s] for s in material.sides if s != side]
            assert material.value(state, side) == sum(enemies) / len(enemies) - loss[side]
    assert material.value(_states(start)[3], "Mars") > 0


def test_R000_2_a_units_card_follows_its_stats():
    """A card remembered by its stats follows a unit whose stats change (a laser lowered,
    A000.11), and comes back for the unit as it was."""
    start = _start()
    cruiser = start.unit("ares-cruiser")
    strength = profile(cruiser).laser_strength
    lowered = cruiser.with_stats(laser_strength=strength - 2)
    assert profile(lowered).laser_strength == strength - 2
    assert profile(cruiser).laser_strength == strength
    assert profile(replace(lowered, stats=dict(lowered.stats))) == profile(lowered)
