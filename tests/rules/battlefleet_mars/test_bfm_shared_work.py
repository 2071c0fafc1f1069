"""The work every enumerated outcome of one attack shares is done once and gives what doing
it again gives: a result recorded on the frozen record table (A000.E1), the same list of
conditions for the very same conditions, the missiles of a salvo spent once per state
(R000.17), and what a salvo reads before its rolls taken from the state it resolves on."""

from __future__ import annotations

from tactical.dice import SeededDice
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.model.worded import unworded
from tactical.rules import registry
from tactical.rules.base import Attack
from tactical.rules.battlefleet_mars import combat
from tactical.rules.battlefleet_mars import outcome as bfm_outcome


def _start():
    return registry.get("battlefleet-mars").setup(load_map(builtin_map("battlefleet-mars")))


def test_A000_E1_a_result_recorded_on_the_frozen_table_is_the_copy_it_was():
    start = _start()
    first = bfm_outcome.record_results(start, "ares-cruiser", ("B2",))
    second = bfm_outcome.record_results(first, "ares-catapult", ("L1", "-"))
    third = bfm_outcome.record_results(second, "ares-cruiser", ("R",))
    hits = third.rule_state[bfm_outcome.HITS]
    assert isinstance(hits, FrozenMap)
    assert hits == FrozenMap({"ares-cruiser": ("B2", "R"), "ares-catapult": ("L1",)})
    assert list(hits) == ["ares-cruiser", "ares-catapult"]  # the order a copy kept
    # the entry not set is the very record it was
    assert hits["ares-catapult"] is second.rule_state[bfm_outcome.HITS]["ares-catapult"]
    assert bfm_outcome.results_against(third, "ares-cruiser") == ("B2", "R")
    assert bfm_outcome.record_results(third, "ares-cruiser", ("-",)) is third


def test_A000_E1_the_same_conditions_come_back_as_the_same_list():
    start = _start()
    fighters = start.unit("mars-fighters")
    cruiser = start.unit("ares-cruiser")
    # new unit objects that read the same: the same conditions, the same list
    again = start.replace_unit(fighters.with_stats()).replace_unit(cruiser.with_stats())
    assert again.units is not start.units
    before = bfm_outcome.unit_conditions(start, start.units)
    after = bfm_outcome.unit_conditions(again, start.units)
    assert after is before
    hit = bfm_outcome.record_results(start, "ares-cruiser", ("B2",))
    changed = bfm_outcome.unit_conditions(hit, start.units)
    assert changed is not before and changed != before
    assert changed == [bfm_outcome.unit_condition(hit, unit) for unit in start.units]


def test_R000_17_a_salvo_spends_its_missiles_once_per_state():
    start = _start()
    attack = combat.declare(start, "deimos-base", "missiles", "ares-cruiser", {"missiles": 4})
    with unworded():
        resolved = [combat.resolve(start, attack, SeededDice(seed)).state for seed in range(6)]
    launchers = {id(state.unit("deimos-base")) for state in resolved}
    assert len(launchers) == 1  # one spend, every outcome
    launcher = resolved[0].unit("deimos-base")
    before = start.unit("deimos-base").stats
    assert launcher.stats["missiles"] == before["missiles"] - 4
    assert launcher.stats["launched"] == before.get("launched", 0) + 4


def test_R000_18_a_salvo_reads_the_state_it_resolves_on():
    """A declaration resolved on another state (a record on the target there) reads that
    state's target, not the one it was first resolved on."""
    start = _start()
    attack = combat.declare(start, "deimos-base", "missiles", "ares-catapult", {"missiles": 6})
    hit = bfm_outcome.record_results(start, "ares-catapult", ("B3", "L2"))
    with unworded():
        for seed in range(8):
            combat.resolve_declared(start, attack, SeededDice(seed))
            reused = combat.resolve_declared(hit, attack, SeededDice(seed))
            fresh = Attack(attack.attacker, attack.weapon, attack.target, attack.params)
            again = combat.resolve(hit, fresh, SeededDice(seed))
            assert reused.state == again.state and reused.summary == again.summary
