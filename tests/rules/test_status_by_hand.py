"""A unit's status set by hand: `RuleSystem.status_fields` / `set_status` in each
rule system, each value kept where its rules keep it (SPEC ids per test)."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.rules.adjusting import checked_status, status_sentence
from tactical.rules.base import Field
from tactical.rules.battlefleet_mars import outcome as bfm_outcome
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.units import vessel
from tactical.rules.dystopian_wars import tracking
from tactical.rules.heavy_combat.duel_state import current
from tactical.rules.sw_d6_capital import ledger
from tactical.session.game import Game


def started(rules_id: str):
    return Game.new(load_map(builtin_map(rules_id)), 7).state


def set_values(state, unit_id: str, **values):
    system = registry.get(state.rules)
    unit = state.unit(unit_id)
    checked = checked_status(system.status_fields(state, unit), values, unit_id)
    return system.set_status(state, unit, checked)


def shown(state, unit_id: str) -> dict[str, str]:
    status = registry.get(state.rules).unit_status(state, state.unit(unit_id))
    return {value.label: value.text for value in status.values}


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_every_rule_system_offers_status_values_bounded_and_labelled(rules_id):
    state = started(rules_id)
    system = registry.get(rules_id)
    for unit in state.units:
        fields = system.status_fields(state, unit)
        assert fields, f"{rules_id}: {unit.id} has nothing to set"
        for spec in fields:
            assert spec.spec_id and spec.label and "_" not in spec.label
            if spec.kind == "int":
                assert spec.low is not None and spec.high is not None
                assert spec.low <= spec.default <= spec.high
        # setting every value to what it is changes nothing the player reads
        same = {spec.name: spec.default for spec in fields}
        assert shown(system.set_status(state, unit, same), unit.id) == shown(state, unit.id)


def test_checked_status_refuses_over_the_maximum_below_0_and_wrong_kinds():
    fields = (
        Field("hull", "int", default=5, low=0, high=8, spec_id="R002.44", title="Hull"),
        Field("broken", "bool", default=False, spec_id="R002.27", title="Broken"),
        Field("damage", "str", default="none", choices=("none", "light"), spec_id="R004.18"),
    )
    assert checked_status(fields, {"hull": 8, "broken": True}, "ruler") == {
        "hull": 8,
        "broken": True,
    }
    for values, words in (
        ({"hull": 9}, "Hull takes a whole number from 0 to 8, not 9"),
        ({"hull": -1}, "Hull takes a whole number from 0 to 8, not -1"),
        ({"hull": 2.5}, "Hull takes a whole number from 0 to 8, not 2.5"),
        ({"hull": True}, "Hull takes a whole number from 0 to 8, not yes"),
        ({"broken": 1}, "Broken takes yes or no (true or false), not 1"),
        ({"damage": "heavy"}, "Damage takes one of none, light, not heavy"),
    ):
        with pytest.raises(UserError) as raised:
            checked_status(fields, values, "ruler")
        assert raised.value.message == f"adjust ruler: {words}"
        assert raised.value.spec_id == next(f.spec_id for f in fields if f.name in values)
    with pytest.raises(UserError, match="no status value given"):
        checked_status(fields, {}, "ruler")
    assert status_sentence(fields, {"hull": 3, "broken": False}) == "Hull 5 → 3"


def test_R001_34_R001_28_heavy_combat_sets_boxes_and_shields_in_its_duel():
    state = started("heavy-combat")
    damaged = set_values(state, "enterprise", weapons=1, shield_fore=3, photon_torpedoes=4)
    _, duel = current(damaged)
    ship = duel.ship("enterprise")
    assert ship.destroyed_in("weapons") == 3 and ship.damage_on("fore") == 24
    assert ship.torpedoes == 4 and damaged.units == state.units  # the sheets stay as printed
    card = shown(damaged, "enterprise")
    assert (card["Weapons"], card["Shield fore"], card["Internals"]) == ("1/4", "3/27", "20/23")


def test_R001_34_a_ship_with_every_box_gone_is_a_wreck_and_one_given_boxes_is_back():
    state = started("heavy-combat")
    zeros = {name: 0 for name in ("bridge", "sensors", "weapons", "impulse", "batteries", "warp")}
    wrecked = set_values(state, "kronos", **zeros)
    assert current(wrecked)[1].ship("kronos").out == "wreck"
    assert registry.get("heavy-combat").unit_status(wrecked, wrecked.unit("kronos")).wreck
    back = set_values(wrecked, "kronos", warp=1)
    assert current(back)[1].ship("kronos").out is None


def test_R002_44_R002_27_dystopian_wars_sets_hull_lost_and_a_broken_squadron():
    state = started("dystopian-wars")
    damaged = set_values(state, "tribal-1", hull=1, broken=True)
    assert tracking.hull_lost(damaged, "tribal-1") == 3
    assert shown(damaged, "tribal-1")["Hull"] == "1/4"
    # Broken is the whole squadron's (R002.27): its other model reads it too
    assert shown(damaged, "tribal-2")["Squadron"].endswith("(broken)")
    mended = set_values(damaged, "tribal-1", hull=4, broken=False)
    assert tracking.mapping(mended, "hull_lost").get("tribal-1") is None
    assert "broken" not in shown(mended, "tribal-2")["Squadron"]
    with pytest.raises(UserError, match="delete it instead"):
        set_values(state, "tribal-1", hull=0)


def test_R002_54_a_wing_fuel_is_set_per_wing():
    state = started("dystopian-wars")
    wing_unit = next(u for u in state.units if u.stats.get("wing_type"))
    dry = set_values(state, wing_unit.id, fuel=2)
    squadron = next(iter(tracking.mapping(dry, "wings")))
    assert tracking.mapping(dry, "wings")[squadron]["fuel"] == 2
    with pytest.raises(UserError, match="Fuel takes a whole number from 0 to 6, not 7"):
        set_values(state, wing_unit.id, fuel=7)


def test_R003_25_cortex_wound_and_stun_are_stats_and_a_vessel_restored_is_not_out():
    state = started("cortex-space")
    out = set_values(state, "raider-1", wound=vessel(state.unit("raider-1")).life_points)
    assert vessel(out.unit("raider-1")).destroyed
    marked = out.with_rule_state(**{tracker.WRECKED: {"raider-1": 5}})
    restored = set_values(marked, "raider-1", wound=0)
    assert not vessel(restored.unit("raider-1")).destroyed
    assert "raider-1" not in tracker.table(restored, tracker.WRECKED)


def test_R003_30_a_wing_fighters_damage_is_set_per_fighter():
    state = started("cortex-space")
    wing = state.unit("starbuck").with_stats(
        members=[{"id": "lead", "life_points": 10}, {"id": "two", "life_points": 10}]
    )
    state = state.replace_unit(wing)
    names = [f.name for f in registry.get("cortex-space").status_fields(state, wing)]
    assert names == ["wound_lead", "stun_lead", "wound_two", "stun_two"]
    hit = set_values(state, "starbuck", wound_two=10)
    assert [m.id for m in vessel(hit.unit("starbuck")).fighters] == ["lead"]
    assert shown(hit, "starbuck")["Fighters"] == "1/2"


def test_A000_E1_bfm_results_scored_are_set_as_codes_and_checked():
    state = started("battlefleet-mars")
    scored = set_values(state, "mars-catapult", results="B2 iL", laser_strength=2)
    assert bfm_outcome.results_against(scored, "mars-catapult") == ("B2", "iL")
    assert scored.unit("mars-catapult").stats["laser_strength"] == 2
    condition = registry.get("battlefleet-mars").unit_condition(scored, state.unit("mars-catapult"))
    assert condition.lost == pytest.approx(4 / bfm_outcome.strength(state.unit("mars-catapult")))
    cleared = set_values(scored, "mars-catapult", results="-")
    assert bfm_outcome.results_against(cleared, "mars-catapult") == ()
    with pytest.raises(UserError) as raised:
        set_values(state, "mars-catapult", results="B2 X9")
    assert "'X9' is no result of T000.2" in raised.value.message
    assert raised.value.spec_id == "A000.E1"


def test_R004_18_R004_41_sw_d6_sets_the_condition_and_keeps_the_rest():
    state = started("sw-d6-capital")
    before = ledger.condition(state, "corvette")
    damaged = set_values(state, "corvette", damage="destroyed", ionization=3)
    after = ledger.condition(damaged, "corvette")
    assert (after.level, after.ionization) == ("destroyed", 3)
    assert after.shield_arcs == before.shield_arcs and after.order == before.order
    assert registry.get("sw-d6-capital").unit_status(damaged, damaged.unit("corvette")).wreck
    with pytest.raises(UserError, match="Damage takes one of none, light, heavy"):
        set_values(state, "corvette", damage="sunk")


@functools.cache
def started_once(rules_id: str):
    return started(rules_id)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_value_set_reads_back_and_one_out_of_bounds_changes_nothing(data):
    """Any unit, any of its values: a value within its bounds is read back by `status_fields`
    as set; one outside is refused, citing the value's rule."""
    rules_id = data.draw(st.sampled_from(registry.rule_ids()))
    state = started_once(rules_id)
    system = registry.get(rules_id)
    unit = data.draw(st.sampled_from(state.units))
    fields = system.status_fields(state, unit)
    spec = data.draw(st.sampled_from([f for f in fields if f.kind in ("int", "bool", "str")]))
    if spec.kind == "int":
        value = data.draw(st.integers(int(spec.low) - 3, int(spec.high) + 3))
    elif spec.kind == "bool":
        value = data.draw(st.booleans())
    elif spec.choices:
        value = data.draw(st.sampled_from(spec.choices))
    else:
        return  # free text (a record of results): checked by its rule system, tested above
    inside = spec.kind != "int" or spec.low <= value <= spec.high
    if not inside:
        with pytest.raises(UserError) as raised:
            set_values(state, unit.id, **{spec.name: value})
        assert raised.value.spec_id == spec.spec_id
        return
    changed = set_values(state, unit.id, **{spec.name: value})
    again = {f.name: f.default for f in system.status_fields(changed, changed.unit(unit.id))}
    assert again[spec.name] == value
