"""The resolvers' reading settings (`model.worded`): each holds for its `with` block only,
nested blocks restore the outer setting, and an error leaves nothing set behind."""

from __future__ import annotations

import pytest

from tactical.model.worded import conditions_only, read_for_conditions, unworded, worded


def test_a_setting_holds_for_its_block_and_nests():
    assert worded() and not conditions_only()
    with unworded():
        assert not worded()
        with read_for_conditions():
            assert conditions_only() and not worded()
            with unworded():
                assert not worded()
            assert not worded()
        assert not conditions_only()
    assert worded() and not conditions_only()


def test_an_error_inside_leaves_the_setting_as_before():
    with pytest.raises(ValueError), unworded(), read_for_conditions():
        raise ValueError("refused")
    assert worded() and not conditions_only()


def test_the_settings_are_booleans():
    """Both read as plain booleans (a resolver may key a remembered value by them)."""
    assert (worded(), conditions_only()) == (True, False)
    with unworded(), read_for_conditions():
        assert worded() is False and conditions_only() is True
    assert worded() is True and conditions_only() is False
