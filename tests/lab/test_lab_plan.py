"""Variants read against the options schema, and the run's games split into chunks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.errors import UserError
from tactical.lab.games import played_options
from tactical.lab.plan import chunk_size, chunked, game_seed
from tactical.lab.variants import build_variants
from tactical.rules import registry

MARS = registry.get("battlefleet-mars")
MAP_OPTIONS = {"lp_limit": 4, "range_rounding": "floor"}


def test_values_are_read_by_the_kind_of_their_option():
    """A000.15 (bool), GEO000.1 (float, choice), R000.16 (int)."""
    first, second = build_variants(
        MARS,
        MAP_OPTIONS,
        ["ciws_default=no", "range_unit_inches=2"],
        ["lp_limit=2", "missile_to_hit=roll"],
    )
    # a variant records every option in force (the defaults too), so that its games
    # replay by the readings they were played under after a later default changes
    assert first.options == MARS.options(
        {
            "lp_limit": 4,
            "range_rounding": "floor",
            "ciws_default": False,
            "range_unit_inches": 2.0,
        }
    )
    assert first.options["missile_to_hit"] == "auto" and first.options["turn_limit"] == 6
    assert second.options["lp_limit"] == 2 and second.options["missile_to_hit"] == "roll"
    # each variant is named by what it plays of the keys --against changes
    assert first.label == (
        "ciws_default=false, range_unit_inches=2, lp_limit=4, missile_to_hit=auto"
    )
    assert second.label == (
        "ciws_default=false, range_unit_inches=2, lp_limit=2, missile_to_hit=roll"
    )


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("ciws_default=maybe", "true or false"),
        ("missile_to_hit=sometimes", "one of 'auto', 'roll'"),
        ("range_unit_inches=0", "from 0.05 to 48"),
        ("lp_limit=2.5", "a whole number"),
        ("=3", "expected KEY=VALUE"),
    ],
)
def test_a_bad_value_names_the_flag_and_what_was_expected(item, words):
    with pytest.raises(UserError, match="--against") as caught:
        build_variants(MARS, MAP_OPTIONS, [], [item])
    assert words in caught.value.message


@given(st.integers(0, 300), st.integers(1, 8))
def test_chunks_hold_every_game_once_in_order(games, workers):
    tasks = list(range(games))
    size = chunk_size(len(tasks), workers)
    chunks = chunked(tasks, size)
    assert [t for chunk in chunks for t in chunk] == tasks
    assert all(1 <= len(chunk) <= 16 for chunk in chunks)
    if games >= 4 * workers * 16:
        assert size == 16


def test_game_seeds_depend_on_the_run_seed_and_number_only():
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, n) for n in range(1000)}) == 1000
    assert game_seed(1, 5) != game_seed(2, 5)
    assert all(0 <= game_seed(s, n) < 2**62 for s in range(5) for n in range(50))


@pytest.mark.parametrize("rules", registry.rule_ids())
def test_a_stored_variant_without_a_revised_option_plays_the_earlier_reading(rules):
    """A run stored before a reading was revised recorded no value for the option that
    revises it: its games replay by the earlier reading (`Field.before`); a value
    recorded is kept."""
    system = registry.get(rules)
    revised = {f.name: f for f in system.option_fields if f.before is not None}
    recorded = build_variants(system, {})[0].options
    assert set(revised) <= set(recorded)  # a new run records them all
    assert played_options(rules, dict(recorded)) == recorded
    stored_before = {k: v for k, v in recorded.items() if k not in revised}
    played = played_options(rules, stored_before)
    assert {name: played[name] for name in revised} == {
        name: field.before for name, field in revised.items()
    }
