"""Command and the Fleet Commodore (R002.10, R002.23-R002.27, A002.2, A002.4)."""

from __future__ import annotations

import math
import random

import numpy as np
from dw_builders import DW, refused, table, unit

from tactical.dice import ScriptedDice
from tactical.geometry.proximity import commanded_element
from tactical.geometry.shapes import RectBase
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.dystopian_wars import (
    activation_end,
    attacks,
    combat,
    command,
    commodore,
    play,
    resolving,
    tracking,
)
from tactical.rules.dystopian_wars.cards import card

ONE_GUN = {"name": "Gun", "kind": "gunnery", "arc": "all-round", "attack_dice": "2-2-2-2"}


def _squadron(*positions: tuple[float, float], side: str = "A") -> list:
    return [
        unit(f"{side}{i}", x, y, side, squadron="sq", commander=(i == 0), weapons=[ONE_GUN])
        for i, (x, y) in enumerate(positions)
    ]


def test_R002_23_command_distance_is_centre_to_centre():
    # long bases 10.5" apart centre to centre: their ends are within 10", the centres are not
    a = unit("a", 10, 10, base=RectBase(1, 6), heading=90, squadron="sq")
    b = unit("b", 20.5, 10, base=RectBase(1, 6), heading=90, squadron="sq")
    element = command.command_element((a, b), 10.0)
    assert element.out_of_command == ("b",)
    assert command.command_element((a, b), 10.5).out_of_command == ()


def test_R002_24_no_command_test_is_rolled():
    state = play.setup(table(*_squadron((10, 10), (40, 10)), unit("b", 10, 40, "B")))
    state = DW.apply(state, Action("initiative", "A"), ScriptedDice([6, 1])).state
    state = DW.apply(
        state, Action("activate", "A", FrozenMap(squadron="sq")), ScriptedDice([])
    ).state
    result = DW.apply(state, Action("command", "A"), ScriptedDice([]))  # no dice consumed
    assert [e.spec_id for e in result.events] == ["R002.25", "R002.24"]
    assert result.summary == ("A1",)


def test_R002_25_commanded_element_is_the_commanders_component_A002_2():
    units = _squadron((10, 10), (19, 10), (28, 10), (50, 10), (55, 10))
    element = command.command_element(tuple(units), 10.0)
    assert element.commander == "A0"
    assert element.element == ("A0", "A1", "A2")  # a chain of links of at most 10"
    assert element.out_of_command == ("A3", "A4")  # two stragglers do not qualify each other
    chosen = command.command_element(tuple(units), 10.0, "A3")
    assert chosen.element == ("A3", "A4")
    with refused("R002.25"):
        command.command_element(tuple(units), 10.0, "nobody")


def test_R002_25_back_in_command_when_connected_again():
    units = _squadron((10, 10), (30, 10))
    state = table(*units, unit("b", 10, 40, "B"))
    options = DW.options(state.options)
    assert command.restricted(state, state.unit("A1"), options) == "out of command"
    moved = state.replace_unit(state.unit("A1").moved_to(state.unit("A1").pose.__class__(18, 10)))
    assert command.restricted(moved, moved.unit("A1"), options) is None


def test_R002_26_out_of_command_models_use_no_firing_option():
    units = _squadron((10, 10), (40, 10), (42, 10))
    target = unit("t", 41, 14, "B")
    state = table(*units, target, unit("spot", 41, 20, "A", mars="spotter"))
    options = DW.options(state.options)
    assert not command.may_receive_game_card(state, state.unit("A1"), options)
    assert command.may_receive_game_card(state, state.unit("A0"), options)
    with refused("R002.26", "linked"):
        combat.declare(state, "A1", "Gun", "t", {"linked": ["A2"]})
    with refused("R002.26", "Boarding"):
        command.check_boarding(state, state.unit("A1"), options)
    for option in command.FIRING_OPTIONS:
        with refused("R002.26", option):
            command.check_firing_option(state, state.unit("A1"), option, options)
    # a model in command may link
    in_command = table(*_squadron((10, 10), (14, 10)), unit("t", 12, 14, "B"))
    attack = combat.declare(in_command, "A0", "Gun", "t", {"linked": ["A1"]})
    assert [entry[2] for entry in attack.params["pool"]] == [2, 1]


def test_R002_26_split_fire_refused_out_of_command():
    state = table(*_squadron((10, 10), (40, 10)), unit("t1", 40, 14, "B"), unit("t2", 44, 10, "B"))
    twin = dict(ONE_GUN, name="Second gun")
    a1 = state.unit("A1").with_stats(weapons=(FrozenMap(ONE_GUN), FrozenMap(twin)))
    state = play.setup(state.replace_unit(a1))
    state = DW.apply(state, Action("initiative", "A"), ScriptedDice([6, 1])).state
    for kind, params in (("activate", {"squadron": "sq"}), ("command", {}), ("end-movement", {})):
        state = DW.apply(state, Action(kind, "A", FrozenMap(params)), ScriptedDice([])).state
    state = DW.apply(
        state,
        Action("declare-attack", "A1", FrozenMap(weapon="Gun", target="t1")),
        ScriptedDice([]),
    ).state
    with refused("R002.26", "split"):
        DW.apply(
            state,
            Action("declare-attack", "A1", FrozenMap(weapon="Second gun", target="t2")),
            ScriptedDice([]),
        )
    same_target = DW.apply(
        state,
        Action("declare-attack", "A1", FrozenMap(weapon="Second gun", target="t1")),
        ScriptedDice([]),
    )
    assert same_target.summary == "3d"
    # the choices offer an Out of Command model's other weapons its first target alone
    act = tracking.get(state, "activation")
    offered = {
        (c.actor, c.fields[0].default): next(f for f in c.fields if f.name == "target").choices
        for c in attacks.declare_choices(state, act)
        if c.kind == "declare-attack"
    }
    assert offered[("A1", "Second gun")] == ("t1",)
    assert attacks.targets_for(state, state.unit("A1"), "Second gun", False) == ("t1", "t2")


def test_R002_27_a_broken_squadron_suffers_out_of_command_effects():
    units = _squadron((10, 10), (14, 10))
    state = table(*units, unit("t", 12, 14, "B")).with_rule_state(broken=("A:sq",))
    options = DW.options(state.options)
    assert command.restricted(state, state.unit("A0"), options) == "broken"
    with refused("R002.27"):
        combat.declare(state, "A0", "Gun", "t", {"linked": ["A1"]})
    with refused("R002.27"):
        command.check_boarding(state, state.unit("A0"), options)


def test_R002_27_break_test_is_for_the_whole_squadron():
    squadron = _squadron((10, 10), (14, 10), (18, 10), (22, 10))
    state = play.setup(table(*squadron, unit("b", 10, 40, "B")))
    state = state.without_unit("A2").without_unit("A3")  # half the squadron gone
    assert activation_end.break_tests_due(state) == ("A:sq",)
    state = state.with_rule_state(activation=FrozenMap(side="B", squadron="B:b", stage="morale"))
    result = DW.apply(state, Action("break-tests", "B"), ScriptedDice([6, 5]))  # 11 > 7: Broken
    assert result.summary == ("A:sq",)
    assert tracking.get(result.state, "broken") == ("A:sq",)
    assert sum(1 for e in result.events if e.kind == "morale") == 1  # one test for the squadron
    assert activation_end.break_tests_due(result.state) == ()


# --------------------------------------------------------------------------- Fleet Commodore


def _critical_state(fc_at: float, **options) -> tuple:
    """A's attacker 'a' at (20, 10); A's commodore 'fc' at (fc_at, 10); B's target 't'."""
    state = play.setup(
        table(
            unit("a", 20, 10, weapons=[ONE_GUN]),
            unit("fc", fc_at, 10, fleet_commodore=True),
            unit("t", 20, 14, "B", damage_rating=1, critical_rating=2, hull_points=9),
            **options,
        )
    )
    attack = combat.declare(state, "a", "Gun", "t")
    resolved = resolving.resolve_declared(state, attack, ScriptedDice([5, 5, 3, 4]))
    assert resolved.summary.critical == "critical-7"
    return resolved


def test_R002_10_option_b_reroll_a_critical_against_an_enemy():
    resolved = _critical_state(26.0)  # the firer is 6" from the commodore
    offer = tracking.mapping(resolved.state, "offers")["A"]
    assert (offer["kind"], offer["option"], offer["unit"]) == ("critical", "b", "t")
    rerolled = DW.apply(resolved.state, Action("commodore-reroll", "A"), ScriptedDice([6, 5]))
    assert tracking.effects(rerolled.state, "t") == ("critical-11",)
    assert tracking.get(rerolled.state, "fc_used") == ("A",)
    with refused("R002.10"):
        DW.apply(rerolled.state, Action("commodore-reroll", "A"), ScriptedDice([6, 5]))


def test_R002_10_options_b_c_no_reroll_of_a_critical_on_a_model_the_hit_destroyed():
    """R002.10 (b), (c): the Critical Hit that came with the hit that sank the model is no
    roll worth re-rolling (the model is off the table whatever it reads): neither the
    firer's side (b) nor the target's own commodore (c) is offered the re-roll."""
    state = play.setup(
        table(
            unit("a", 20, 10, weapons=[ONE_GUN]),
            unit("fc", 26, 10, fleet_commodore=True),
            unit(
                "t",
                20,
                14,
                "B",
                damage_rating=1,
                critical_rating=2,
                hull_points=2,
                fleet_commodore=True,
            ),
            unit("b2", 60, 40, "B"),
        )
    )
    attack = combat.declare(state, "a", "Gun", "t")
    resolved = resolving.resolve_declared(state, attack, ScriptedDice([5, 5, 3, 4]))
    assert resolved.summary.critical == "critical-7" and resolved.summary.destroyed
    assert not resolved.state.has_unit("t")
    assert dict(tracking.mapping(resolved.state, "offers")) == {}
    assert not [e for e in resolved.events if e.kind == "commodore-offer"]
    assert commodore.commodore_choices(resolved.state, "A") == ()
    assert commodore.commodore_choices(resolved.state, "B") == ()
    with refused("R002.10"):
        DW.apply(resolved.state, Action("commodore-reroll", "A"), ScriptedDice([6, 5]))


def test_R002_10_an_offer_for_a_model_gone_from_the_table_is_not_offered():
    """R002.10: an offer stands until the side does anything else; while its model is off
    the table (or leaving it at the end of a simultaneous step) the re-roll is not offered."""
    resolved = _critical_state(26.0)
    assert [c.kind for c in commodore.commodore_choices(resolved.state, "A")] == [
        "commodore-reroll"
    ]
    gone = resolved.state.without_unit("t")
    assert commodore.commodore_choices(gone, "A") == ()
    leaving = tracking.add_to(resolved.state, "pending_removals", "t")
    assert commodore.commodore_choices(leaving, "A") == ()


def test_R002_10_option_b_is_measured_from_the_firer_A002_4():
    far = _critical_state(40.0)  # firer 20" away: no offer
    assert "A" not in tracking.mapping(far.state, "offers")
    state = table(
        unit("a", 20, 10), unit("fc", 40, 10, fleet_commodore=True), unit("t", 36, 12, "B")
    )
    options = DW.options({"fc_option_b_measure_from": "target"})
    assert (
        command.commodore_option(
            state, "A", "critical-vs-enemy", state.unit("t"), options, firer=state.unit("a")
        )
        == "b"
    )
    default = DW.options({})
    assert (
        command.commodore_option(
            state, "A", "critical-vs-enemy", state.unit("t"), default, firer=state.unit("a")
        )
        is None
    )


def test_R002_10_options_a_c_d():
    state = table(
        unit("fc", 20, 10, fleet_commodore=True),
        unit("near", 26, 10),
        unit("far", 40, 10),
        unit("enemy", 20, 30, "B"),
    )
    options = DW.options({})
    near, far, fc = state.unit("near"), state.unit("far"), state.unit("fc")
    assert command.commodore_option(state, "A", "treacherous-terrain", near, options) == "a"
    assert command.commodore_option(state, "A", "treacherous-terrain", far, options) is None
    assert command.commodore_option(state, "A", "damage-repair", near, options) == "d"
    assert command.commodore_option(state, "A", "damage-repair", far, options) is None
    assert command.commodore_option(state, "A", "critical-vs-own-commodore", fc, options) == "c"
    assert command.commodore_option(state, "A", "critical-vs-own-commodore", near, options) is None
    assert (
        command.commodore_option(state, "B", "damage-repair", state.unit("enemy"), options) is None
    )


def test_R002_10_one_reroll_a_turn_reset_by_the_next_turn():
    resolved = _critical_state(26.0)
    used = DW.apply(resolved.state, Action("commodore-reroll", "A"), ScriptedDice([6, 5])).state
    assert not command.commodore_available(used, "A")
    closed = used.with_rule_state(turn_closed=True)
    next_turn = DW.apply(closed, Action("initiative", "A"), ScriptedDice([3, 2])).state
    assert command.commodore_available(next_turn, "A")


def test_R002_10_the_offer_lapses_when_the_side_does_something_else():
    resolved = _critical_state(26.0)
    state = resolved.state.with_rule_state(turn_closed=True)
    after = DW.apply(state, Action("initiative", "A"), ScriptedDice([3, 2])).state
    assert "A" not in tracking.mapping(after, "offers")


def _first_commodore_by_scan(state, side):
    """R002.10's Fleet Commodore as the plain scan of every unit finds it (the reference)."""
    for candidate in state.units:
        if (
            candidate.side == side
            and card(candidate).fleet_commodore
            and not tracking.is_prize(state, candidate.id)
        ):
            return candidate
    return None


def test_R002_10_the_fleet_commodore_is_the_first_vessel_of_the_side_not_captured():
    state = play.setup(
        table(
            unit("x", 10, 10),
            unit("fc1", 20, 10, fleet_commodore=True),
            unit("fcb", 30, 30, "B", fleet_commodore=True),
            unit("fc2", 40, 10, fleet_commodore=True),
        )
    )
    captured = tracking.put_in(state, "prizes", "fc1", "B")
    fewer = play.setup(table(unit("x", 10, 10), unit("fc2", 40, 10, fleet_commodore=True)))
    cases = [
        (state, "A", "fc1"), (state, "B", "fcb"), (state, "C", None), (captured, "A", "fc2"),
        (fewer, "A", "fc2"), (fewer, "B", None), (state, "A", "fc1"),
    ]  # fmt: skip
    for case, side, expected in cases:
        found = command.fleet_commodore(case, side)
        assert (found.id if found else None) == expected
        assert found == _first_commodore_by_scan(case, side)


def test_R002_10_odds_and_offers_are_those_of_the_plain_commodore_scan(monkeypatch):
    """An attack whose critical the Fleet Commodore may re-roll: its exact odds, and the
    state its resolution leaves (the commodore's offer), are the same with the commodore
    found by the plain scan of every unit."""
    start = play.setup(
        table(
            unit("a", 20, 10, weapons=[ONE_GUN]),
            unit("fc", 26.0, 10, fleet_commodore=True),
            unit("t", 20, 14, "B", damage_rating=1, critical_rating=2, hull_points=9),
        )
    )
    attack = DW.declare_attack(start, "a", "Gun", "t")

    def results():
        declared = combat.declare(start, "a", "Gun", "t")
        resolved = resolving.resolve_declared(start, declared, ScriptedDice([5, 5, 3, 4]))
        return DW.attack_odds(start, attack), resolved.state

    fast_odds, fast_state = results()
    assert "offers" in repr(fast_state.rule_state)
    monkeypatch.setattr(command, "fleet_commodore", _first_commodore_by_scan)
    assert results() == (fast_odds, fast_state)
    # the state does depend on the commodore: without one there is no offer
    monkeypatch.setattr(command, "fleet_commodore", lambda state, side: None)
    assert results()[1] != fast_state


def test_R002_25_the_element_in_plain_floats_is_the_geometrys_on_and_off_the_limit():
    # squadrons of 1 to 5 models, some exactly a Command Distance apart (along an axis, on a
    # diagonal, a hair nearer or farther): the element is the one the geometry links
    rng = random.Random(5)
    linked = unlinked = 0
    for _ in range(400):
        distance = rng.choice((6.0, 8.0, 4.5))
        points = [(rng.uniform(0, 40), rng.uniform(0, 40))]
        for _ in range(rng.randint(0, 4)):
            x, y = rng.choice(points)
            step = distance + rng.choice((0.0, 1e-9, 2e-9, -1e-9, 1e-12, rng.uniform(-3, 3)))
            angle = rng.choice((0.0, 90.0, 45.0, 30.0, rng.uniform(0, 360)))
            points.append(
                (x + step * math.sin(math.radians(angle)), y + step * math.cos(math.radians(angle)))
            )
        units = tuple(unit(f"m{i}", x, y, squadron="line") for i, (x, y) in enumerate(points))
        commander = rng.randrange(len(units))
        found = command._linked_to(units, distance, commander)
        expected = commanded_element(np.array(points), distance, commander).tolist()
        assert found == set(expected), (points, distance, commander)
        linked += len(found) > 1
        unlinked += len(found) < len(units)
    assert linked > 50 and unlinked > 50
    with refused(None, "negative"):
        command.command_element((unit("m0", 1, 1),), -1.0)
