"""What Dystopian Wars hands back unchanged and remembers while a state lives, for the
computer players that replay one step on one state (G.5, R002.10, R002.28): each
remembered answer equals the one worked out afresh."""

from __future__ import annotations

from dw_builders import GUNS, duel, refused, table, unit

from tactical.model import FrozenMap, Pose
from tactical.rules.dystopian_wars import cards, combat, play, resolving, tracking


def test_R002_10_clearing_an_offer_not_made_gives_the_same_state_back():
    state = play.setup(duel({"weapons": [GUNS]}, distance=4.0))
    offer = FrozenMap(kind="critical", option="b", unit="t", code="fire")
    held = tracking.put_in(state, "offers", "A", offer)
    assert tracking.put_in(held, "offers", "B", None) is held  # nothing to clear
    cleared = tracking.put_in(held, "offers", "A", None)
    assert cleared is not held and "A" not in tracking.mapping(cleared, "offers")
    assert cleared.rule_state["offers"] == FrozenMap()
    # a key never set is set (an empty table), as before: the state's value changes
    bare = state.with_rule_state(offers=None)
    assert tracking.put_in(bare, "offers", "A", None).rule_state["offers"] == FrozenMap()


def test_R002_28_a_recorded_declaration_is_checked_once_per_state():
    state = duel({"weapons": [GUNS]}, distance=4.0)
    params = FrozenMap(counter=False)
    first = resolving.declared_on(state, "a", "Guns", "t", params)
    assert first == combat.declare(state, "a", "Guns", "t", dict(params))
    assert resolving.declared_on(state, "a", "Guns", "t", params) is first  # remembered
    moved = state.replace_unit(state.unit("a").moved_to(Pose(20.0, 0.0, 0.0)))
    again = resolving.declared_on(moved, "a", "Guns", "t", params)
    assert again == combat.declare(moved, "a", "Guns", "t", dict(params))
    assert again.params["pool"] != first.params["pool"]  # another range band: other dice
    with refused("R002.36", "no weapon"):  # a refusal is raised each time, never remembered
        resolving.declared_on(state, "a", "Lance", "t", params)
    with refused("R002.36", "no weapon"):
        resolving.declared_on(state, "a", "Lance", "t", params)


def _squadrons_afresh(state, side=None):
    found: dict[str, list] = {}
    for member in state.units:
        if side is None or member.side == side:
            found.setdefault(cards.squadron_key(member), []).append(member)
    return {key: tuple(units) for key, units in found.items()}


def test_R002_28_squadrons_are_the_table_s_whoever_asks():
    state = table(
        unit("a1", 10, 5, squadron="line"),
        unit("b1", 10, 40, "B", squadron="line"),
        unit("a2", 14, 5, squadron="line"),
        unit("a3", 30, 5),
        unit("b2", 20, 40, "B", squadron="screen"),
    )
    moved = state.replace_unit(state.unit("a2").moved_to(Pose(15.0, 6.0, 0.0)))
    for case in (state, moved, moved.without_unit("a1")):
        for side in (None, "A", "B"):
            found = cards.squadrons(case, side)
            assert found == _squadrons_afresh(case, side)
            assert list(found) == list(_squadrons_afresh(case, side))  # in map order
            found.clear()  # a copy: the next question is answered whole
            assert cards.squadrons(case, side) == _squadrons_afresh(case, side)
        for key in ("A:line", "B:line", "A:a3", "B:screen", "A:none"):
            assert cards.squadron_units(case, key) == _squadrons_afresh(case).get(key, ())
    assert [u.id for u in cards.squadron_units(moved, "A:line")] == ["a1", "a2"]
    assert cards.squadron_units(moved, "A:line")[1].pose == Pose(15.0, 6.0, 0.0)
    assert [u.id for u in cards.squadron_units(moved.without_unit("a1"), "A:line")] == ["a2"]
