"""What the rule systems remember so that the computer players' enumerations do not work
it out again after every roll reads exactly as working it out does: a Heavy Combat ship
made by `evolve` has the plain form of its fields (the same keys, in the same order), a
Cortex vessel whose tracks alone changed is the card its stats parse as, and a
Dystopian Wars move planned from its remembered inputs is the plan of the state."""

from __future__ import annotations

from dataclasses import replace

from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.cortex_space import damage, units
from tactical.rules.dystopian_wars import maneuver, tracking
from tactical.rules.heavy_combat import duel


def _fields_form(ship: duel.Ship) -> FrozenMap:
    names = duel._field_names(duel.Ship)
    return FrozenMap({name: duel.plain(getattr(ship, name)) for name in names})


def test_an_evolved_ship_reads_as_its_fields():
    ship = duel.Ship(power=12, repair_points=(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    duel.plain(ship)  # its origin's form known, as after a stored roll
    hit = ship.evolve(shield_damage=(3, 0, 0, 0, 0, 0), fired_at=True)
    worse = hit.evolve(destroyed=[1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0], out="wreck")
    for evolved in (hit, worse):
        form = duel.plain(evolved)
        assert repr(form) == repr(_fields_form(evolved))
        assert list(form) == list(_fields_form(evolved))
    assert duel.plain(worse)["destroyed"] == (1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0)


def test_a_vessel_whose_tracks_changed_is_the_card_its_stats_parse_as():
    state = load_map(builtin_map("cortex-space"))
    unit = next(u for u in state.units if not units.vessel(u).is_wing)
    card = units.vessel(unit)
    start = damage.target_of(card)
    (track,) = start.tracks
    hurt = replace(start, tracks=(replace(track, wound=track.wound + 2, stun=1),))
    written = damage.write_back(state, unit.id, hurt).unit(unit.id)
    remembered = units.vessel(written)
    parsed = units._vessel(written.stats)
    assert (remembered.wound, remembered.stun) == (card.wound + 2, 1)
    assert remembered == parsed and repr(remembered) == repr(parsed)
    # the stats as a whole new map of them would hold them: the same keys, in the same order
    assert list(written.stats) == list({**unit.stats, "wound": 0, "stun": 0})
    assert written.stats == FrozenMap({**unit.stats, "wound": card.wound + 2, "stun": 1})


def test_a_move_planned_from_remembered_inputs_is_the_state_s_plan():
    state = load_map(builtin_map("dystopian-wars"))
    unit = state.units[0]
    boost = tracking.mapping(state, "boosts").get(unit.id)
    for path in ("F4", "P45 F2", "S45 F6"):
        fresh = maneuver._plan.__wrapped__(
            unit, path, boost, state.options, state.units, state.terrain, state.board
        )
        assert maneuver.plan(state, unit, path) == fresh
        assert maneuver.plan(state, unit, path) is maneuver.plan(state, unit, path)
