"""What the rule systems remember of a unit's condition, and of a Cortex strike, for the
computer players' enumerations reads exactly as working it out again does: a condition
follows the state it is asked of (its losses, its record, its count), and a strike read
for its words after one read for its state alone keeps its words."""

from __future__ import annotations

from dataclasses import replace

from tactical.dice import enumerate_outcomes
from tactical.io import builtin_map, load_map
from tactical.model.worded import unworded
from tactical.rules import registry
from tactical.rules.battlefleet_mars import outcome as bfm_outcome
from tactical.rules.battlefleet_mars.units import profile
from tactical.rules.dystopian_wars import outcome as dw_outcome
from tactical.rules.dystopian_wars import tracking


def test_a_dystopian_wars_condition_follows_the_state_it_is_asked_of():
    start = load_map(builtin_map("dystopian-wars"))
    unit, other = start.units[0], start.units[1]
    hurt = tracking.put_in(start, "hull_lost", unit.id, 1)
    gone = start.without_unit(other.id)
    hull = tracking.card(unit).hull_points
    asked = [
        dw_outcome.unit_condition(state, u)
        for state, u in ((start, unit), (hurt, unit), (start, unit), (hurt, other), (gone, other))
    ]
    assert [c.lost for c in asked[:4]] == [0.0, min(1.0, 1 / hull), 0.0, 0.0]
    assert [c.out for c in asked] == [False, False, False, False, True]


def test_a_battlefleet_mars_condition_follows_the_record_and_the_count():
    start = load_map(builtin_map("battlefleet-mars"))
    ship = start.unit("ares-cruiser")
    fighters = start.unit("mars-fighters")
    hit = bfm_outcome.record_results(start, ship.id, ("B2",))
    fewer = start.replace_unit(
        replace(fighters, stats={**fighters.stats, "count": profile(fighters).count - 1})
    )
    value = bfm_outcome.strength(ship)
    conditions = [
        bfm_outcome.unit_condition(state, u)
        for state, u in ((start, ship), (hit, ship), (start, ship), (fewer, fighters))
    ]
    assert [c.lost for c in conditions[:3]] == [0.0, 2 / value, 0.0]
    assert conditions[3].lost == 1 - 2 / 3  # one of the three fighters gone
    assert bfm_outcome.unit_condition(hit, fighters).lost == 0.0


def test_a_cortex_strike_read_for_its_words_after_one_read_for_its_state_keeps_them():
    cortex = registry.get("cortex-space")
    state = load_map(builtin_map("cortex-space"))
    attack = cortex.declare_attack(state, "starbuck", "autocannons", "raider-2", {})

    def resolved(dice):
        resolution = cortex.resolve_attack(state, attack, dice)
        attack_rolls = sum(
            e.kind == "roll" and str(e.get("what", "")).startswith("attack")
            for e in resolution.events
        )
        return resolution.summary, attack_rolls

    with unworded():  # first: the strikes' outcomes without their words remembered
        quiet = enumerate_outcomes(resolved, key=lambda found: found[0])
    worded_out = enumerate_outcomes(resolved, key=lambda found: found[0])
    assert len(worded_out.pairs) > 1
    assert [(o[0], p) for o, p in quiet.pairs] == [(o[0], p) for o, p in worded_out.pairs]
    assert max(o[1] for o, _ in quiet.pairs) == 0
    assert min(o[1] for o, _ in worded_out.pairs) >= 1  # every outcome says its attack roll
