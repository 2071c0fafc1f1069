"""A Heavy Combat ship evolved several times in one roll (shields, hull, internals) is
stored as the very plain form of the same ship built whole: the same keys in the same
order and equal values, whichever of its earlier forms were stored before."""

from __future__ import annotations

import dataclasses

import pytest

from tactical.rules.heavy_combat.duel import Ship, plain


def _built_whole(ship: Ship) -> Ship:
    # a new Ship from its fields, not `evolve`: its plain form is walked field by field
    return Ship(**{f.name: getattr(ship, f.name) for f in dataclasses.fields(Ship)})


@pytest.mark.parametrize("stored_between", [False, True])
def test_a_ship_evolved_again_and_again_stores_as_one_built_whole(stored_between):
    start = Ship(power=6)
    plain(start)
    shielded = start.evolve(shield_damage=(2, 0, 0, 0, 0, 0), spent=1)
    if stored_between:
        plain(shielded)
    hit = shielded.evolve(destroyed=(1, 0, 0, 0, 0, 0), shield_damage=(3, 0, 0, 0, 0, 0))
    last = hit.evolve(catastrophic=True, spent=2)
    form, whole = plain(last), plain(_built_whole(last))
    assert list(form.items()) == list(whole.items())
    assert (form["spent"], form["shield_damage"][0], form["catastrophic"]) == (2, 3, True)
    assert form["destroyed"] == (1, 0, 0, 0, 0, 0)
    assert plain(start)["spent"] == 0  # the forms it came from are untouched
