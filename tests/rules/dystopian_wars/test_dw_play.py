"""Play through the generic protocol (R002.19, R002.28, T002.5): turn sequence, setup,
actions, apply, odds, and a whole two-turn game on maps/dystopian-wars.toml."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from dw_builders import ACK_ACK, DEPTH_CHARGES, DW, GUNS, flyer, refused, table, unit

from tactical.dice import ScriptedDice, SeededDice
from tactical.geometry.zones import deployment_zone
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.dystopian_wars import attacks, play, tracking
from tactical.session.deployment import is_deployed_in

ACTIVATION = TurnPosition(1, 2, 0)


def defaults(choice) -> FrozenMap:
    return FrozenMap({f.name: f.default for f in choice.fields if f.default is not None})


firsts: dict[str, tuple] = {}  # the first (state, action) of each kind in the last game


def play_game(state, seed: int, turns: int = 2):
    """The generic loop a front end runs: the first offered action (defaults), else pass."""
    sequence = DW.turn_sequence()
    position = sequence.start()
    state = DW.setup(state)
    dice = SeededDice(seed)
    log = []
    taken = []
    firsts.clear()
    sides = state.sides
    while position.turn <= turns:
        side = sides[position.side]
        choices = DW.actions(state, position, side)
        if choices:
            choice = choices[0]
            action = Action(choice.kind, choice.actor, defaults(choice))
            firsts.setdefault(choice.kind, (state, action))
            result = DW.apply(state, action, dice)
            state = result.state
            log.extend(result.events)
            taken.append((position.turn, sequence.phase(position).name, choice.kind))
            position = sequence.advance(position, len(sides))
        else:
            position = sequence.advance(position, len(sides), passed=True)
        assert len(taken) < 2000
    return state, log, taken


@pytest.fixture(scope="module")
def two_turns():
    state = load_map(builtin_map("dystopian-wars"))
    played = play_game(state, 20260101)
    return (*played, dict(firsts))


def test_the_scenario_is_deployed_in_the_zones_R002_17():
    state = load_map(builtin_map("dystopian-wars"))
    zones = {
        "A": deployment_zone(state.board.width, state.board.height, "bottom"),
        "B": deployment_zone(state.board.width, state.board.height, "top"),
    }
    assert all(is_deployed_in(u, zones[u.side]) for u in state.units)
    assert DW.check_options(state.options) == []
    assert tracking.get(DW.setup(state), "setup")["game_type"] == "tournament"


def test_every_roll_bearing_action_of_the_game_has_exact_odds(two_turns):
    *_, first = two_turns
    rolling = play.ROLLING | {"declare-attack", "resolve-attack", "counterattack"}
    checked = 0
    for kind, (state, action) in first.items():
        report = DW.action_odds(state, action)
        if kind not in rolling:
            assert report is None, kind
            continue
        checked += 1
        assert all(section.distribution.total == 1 for section in report.sections), kind
        json.dumps(report.as_dict())
    assert checked >= 6


def test_two_full_turns_through_the_generic_protocol(two_turns):
    state, log, taken, _ = two_turns
    assert tracking.get(state, "turn") == 3  # both turns closed by their End Phase
    assert not tracking.game_over(state)
    kinds = {kind for _, _, kind in taken}
    for kind in (
        "field-order",
        "initiative",
        "activate",
        "command",
        "move",
        "end-movement",
        "declare-attack",
        "end-declarations",
        "resolve-attack",
        "break-tests",
        "end-phase",
        "end-turn",
        "boost",
        "launch",
        "move-wing",
    ):
        assert kind in kinds, kind
    phases = [phase for _, phase, _ in taken]
    assert (
        phases.index("Field Orders")
        < phases.index("Initiative")
        < phases.index("Squadron Activation Sequence")
    )
    # every squadron of both fleets activated in each turn (the wing launched in turn 1 waits)
    activations = [(turn, e) for turn, _, e in taken if e == "activate"]
    assert sum(1 for turn, _ in activations if turn == 1) >= 11
    assert all(e.spec_id for e in log)
    json.dumps([e.as_dict() for e in log])  # plain values: the log can be saved


def test_the_same_seed_gives_the_same_log(two_turns):
    state, log, _, _ = two_turns
    again, log_again, _ = play_game(load_map(builtin_map("dystopian-wars")), 20260101)
    assert log_again == log
    assert again.units == state.units and again.rule_state == state.rule_state
    _, other, _ = play_game(load_map(builtin_map("dystopian-wars")), 7, turns=1)
    assert other != log[: len(other)]


def test_turn_sequence_phases_cite_their_rules():
    sequence = DW.turn_sequence()
    assert [(p.name, p.spec_id, p.alternating) for p in sequence.phases] == [
        ("Field Orders", "R002.20", False),
        ("Initiative", "R002.19", False),
        ("Squadron Activation Sequence", "R002.28", True),
        ("End Phase", "R002.19", True),
    ]
    assert DW.has_combat


def _two_squadrons(**options):
    return play.setup(
        table(
            unit("a1", 30, 10, squadron="sq", min_move=2.0, weapons=[GUNS, ACK_ACK]),
            unit("a2", 34, 10, squadron="sq", weapons=[GUNS]),
            unit("b1", 30, 24, "B", heading=180, squadron="sq", weapons=[GUNS, ACK_ACK]),
            unit("b2", 50, 40, "B", heading=180, squadron="far"),
            **options,
        )
    )


def _run(state, *steps):
    for kind, actor, params, dice in steps:
        state = DW.apply(state, Action(kind, actor, FrozenMap(params)), ScriptedDice(dice)).state
    return state


def segment(state) -> tuple[str, str, dict]:
    """R002.28 as the phase tracker shows it: the current step's code and name, and facts."""
    stage = DW.stage(state, ACTIVATION)
    assert [step.code for step in stage.steps][:9] == [
        "1", "2a", "2b", "3a", "3b", "3c", "3d", "4", "5",
    ]  # fmt: skip
    return stage.step.code, stage.step.name, dict(stage.facts)


def test_R002_28_segments_in_order():
    state = _run(_two_squadrons(), ("initiative", "A", {}, [6, 1]))
    kinds = lambda s, side="A": [c.kind for c in DW.actions(s, ACTIVATION, side)]  # noqa: E731
    assert kinds(state) == ["activate"]
    assert kinds(state, "B") == []  # A won the initiative and activates first
    assert DW.stage(state, ACTIVATION) is None  # no squadron active yet
    state = _run(state, ("activate", "A", {"squadron": "sq"}, []))
    assert kinds(state) == ["command"]
    assert segment(state) == ("1", "Command", {"side": "A", "squadron": "sq"})
    with refused("R002.28", "segment"):
        _run(state, ("end-movement", "A", {}, []))
    state = _run(state, ("command", "A", {}, []))
    assert kinds(state) == ["move", "move", "end-movement"]
    assert segment(state)[:2] == ("2a", "Movement")
    state = _run(state, ("move", "a1", {"path": "F2"}, []), ("end-movement", "A", {}, []))
    assert kinds(state)[-1] == "end-declarations" and "declare-attack" in kinds(state)
    assert segment(state)[:2] == ("3a", "Declare attacks")
    with refused("R002.28", "active"):
        _run(state, ("end-declarations", "B", {}, []))
    state = _run(state, ("declare-attack", "a1", {"weapon": "Guns", "target": "b1"}, []))
    with refused("R002.28", "declared"):
        _run(state, ("declare-attack", "a1", {"weapon": "Guns", "target": "b1"}, []))
    state = _run(state, ("end-declarations", "A", {}, []))
    assert kinds(state) == ["resolve-attack"]
    assert segment(state)[:2] == ("3d", "Resolve attacks")
    state = _run(state, ("resolve-attack", "A", {"attack": 0}, [1] * 6))
    assert kinds(state) == ["end-boarding"]
    assert segment(state)[:2] == ("4", "Boarding")
    state = _run(state, ("end-boarding", "A", {}, []))
    assert kinds(state) == ["break-tests"]
    assert segment(state)[:2] == ("5", "Break tests")
    state = _run(state, ("break-tests", "A", {}, []))
    assert tracking.get(state, "activation") is None
    assert tracking.get(state, "activated") == ("A:sq",)
    assert kinds(state) == [] and kinds(state, "B") == ["activate"]  # the sides alternate


def test_R002_28_an_attack_to_resolve_names_its_models_even_when_gone():
    """The resolve step lists each declared attack by the models' names, as a player knows
    them; a target that left the table before its roll is named as declared, "(gone)"."""
    state = play.setup(
        table(
            unit("a1", 30, 10, name="Ruler", squadron="sq", min_move=2.0),
            unit("b1", 30, 24, "B", heading=180, name="Blucher", squadron="sq"),
        )
    )
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "sq"}, []),
        ("command", "A", {}, []),
        ("end-movement", "A", {}, []),
        ("declare-attack", "a1", {"weapon": "Guns", "target": "b1"}, []),
        ("end-declarations", "A", {}, []),
    )
    titles = [c.title for c in DW.actions(state, ACTIVATION, "A") if c.kind == "resolve-attack"]
    assert titles == ["Ruler: Guns at Blucher (segment 3d)"]
    gone = state.without_unit("b1")
    titles = [c.title for c in DW.actions(gone, ACTIVATION, "A") if c.kind == "resolve-attack"]
    assert titles == ["Ruler: Guns at Blucher (gone) (segment 3d)"]


def test_R002_28_counterattacks_and_step_order():
    state = play.setup(
        table(
            unit(
                "zep",
                30,
                10,
                movement="aerial",
                height_level="flying",
                squadron="zep",
                weapons=[
                    dict(GUNS, attack_dice="4-4-4-4"),
                    BOMBS_AT := {
                        "name": "Bombs",
                        "kind": "bomb",
                        "arc": "all-round",
                        "attack_dice": "2-0-0-0",
                    },
                ],
            ),
            unit("ship", 30, 14, "B", heading=180, squadron="ship", weapons=[ACK_ACK, GUNS]),
            flyer("f0", 40, 10, squadron="w"),
            flyer("f1", 41, 10, squadron="w"),
            flyer("f2", 42, 10, squadron="w"),
            flyer("e0", 40, 14, "B", squadron="v"),
            flyer("e1", 41, 14, "B", squadron="v"),
            flyer("e2", 42, 14, "B", squadron="v"),
        )
    )
    assert BOMBS_AT["kind"] == "bomb"
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "zep"}, []),
        ("command", "A", {}, []),
        ("end-movement", "A", {}, []),
    )
    state = _run(state, ("declare-attack", "zep", {"weapon": "Bombs", "target": "ship"}, []))
    state = _run(state, ("end-declarations", "A", {}, []))
    assert tracking.get(state, "activation")["stage"] == "counter"
    assert segment(state) == (
        "3b",
        "Counterattacks",
        {"side": "A", "squadron": "zep", "counterattacking": ("B",)},
    )
    assert [c.kind for c in DW.actions(state, ACTIVATION, "A")] == []
    counter = DW.actions(state, ACTIVATION, "B")
    assert [c.kind for c in counter] == ["counterattack", "end-counterattacks"]
    with refused("R002.29"):
        _run(state, ("counterattack", "ship", {"weapon": "Guns", "target": "zep"}, []))
    state = _run(
        state,
        ("counterattack", "ship", {"weapon": "Ack Ack", "target": "zep"}, []),
        ("end-counterattacks", "B", {}, []),
    )
    steps = [r["step"] for r in tracking.get(state, "activation")["declared"]]
    assert steps == ["3d", "3b-ack-ack"]
    resolve = DW.actions(state, ACTIVATION, "A")
    assert [c.fields[0].default for c in resolve] == [1]  # the counterattack Ack Ack comes first
    assert segment(state)[0] == "3b"  # resolving the counterattack Ack Ack: still step 3b
    with refused("R002.28", "before"):
        _run(state, ("resolve-attack", "A", {"attack": 0}, [1, 1]))


def test_R002_28_tiny_flyer_steps_and_simultaneous_resolution():
    fighters = [flyer(f"f{i}", 30 + i, 10, squadron="w") for i in range(3)]
    enemies = [flyer(f"e{i}", 30 + i, 12, "B", squadron="v") for i in range(3)]
    zep = unit(
        "zep",
        45,
        11,
        "B",
        movement="aerial",
        height_level="flying",
        squadron="zep",
        weapons=[ACK_ACK],
    )
    state = play.setup(table(*fighters, *enemies, zep, unit("b", 10, 40, "B")))
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "w"}, []),
        ("command", "A", {}, []),
        ("end-movement", "A", {}, []),
    )
    assert attacks.combat_step(state.unit("f0"), "Ack Ack", state.unit("e0"), False) == "3c-i"
    assert attacks.combat_step(state.unit("zep"), "Ack Ack", state.unit("f0"), True) == "3c-ii"
    assert attacks.combat_step(state.unit("b"), "Guns", state.unit("f0"), True) == "3d"
    state = _run(
        state,
        ("declare-attack", "f0", {"weapon": "Ack Ack", "target": "e1"}, []),
        ("end-declarations", "A", {}, []),
    )
    state = _run(
        state,
        ("counterattack", "e0", {"weapon": "Ack Ack", "target": "f1"}, []),
        ("end-counterattacks", "B", {}, []),
    )
    # the Wing's attack kills Tiny Flyers of the enemy Wing, which still fire back (simultaneous)
    first = DW.apply(
        state,
        Action("resolve-attack", "A", FrozenMap(attack=0)),
        ScriptedDice([6, 6, 6] + [1] * 12 + [1, 1] * 6),
    )
    assert first.summary.flyers_destroyed == 3
    pending = tracking.get(first.state, "pending_removals")
    assert len(pending) == 3 and all(first.state.has_unit(u) for u in pending)
    second = DW.apply(
        first.state, Action("resolve-attack", "A", FrozenMap(attack=1)), ScriptedDice([1] * 12)
    )
    assert second.summary != "void"  # the destroyed Wing's counterattack is resolved
    assert not any(second.state.has_unit(u) for u in pending)
    assert any(e.kind == "step-done" and e.get("step") == "3c-i" for e in second.events)


def test_R002_28_2b_collisions_and_rams_are_resolved():
    state = play.setup(
        table(
            unit("a", 30, 10, squadron="a", ram_dice=3, move=8.0),
            unit(
                "b",
                30,
                16,
                "B",
                heading=90,
                squadron="b",
                damage_rating=1,
                critical_rating=9,
                hull_points=5,
            ),
        )
    )
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "a"}, []),
        ("command", "A", {}, []),
    )
    state = _run(state, ("move", "a", {"path": "F8"}, []), ("end-movement", "A", {}, []))
    assert [c.kind for c in DW.actions(state, ACTIVATION, "A")] == ["resolve-collisions"]
    rammed = DW.apply(state, Action("resolve-collisions", "A"), ScriptedDice([5, 5, 1]))
    assert rammed.summary[0][0] == "ram"
    assert tracking.hull_lost(rammed.state, "b") == 1
    assert tracking.get(rammed.state, "activation")["stage"] == "declare"


def test_terrain_collision_takes_a_treacherous_terrain_test():
    from dw_builders import rock

    state = play.setup(
        table(
            unit("a", 30, 10, squadron="a", move=8.0),
            unit("b", 10, 40, "B"),
            terrain=(rock("reef", 25, 14, 35, 16, "soft", "tiny"),),
        )
    )
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "a"}, []),
        ("command", "A", {}, []),
    )
    moved = DW.apply(state, Action("move", "a", FrozenMap(path="F8")), ScriptedDice([]))
    assert moved.summary == ("terrain", 0)
    state = _run(moved.state, ("end-movement", "A", {}, []))
    result = DW.apply(state, Action("resolve-collisions", "A"), ScriptedDice([1]))
    assert tracking.hull_lost(result.state, "a") == 1
    assert any(e.spec_id == "R002.35" and e.kind == "treacherous-terrain" for e in result.events)


def test_R002_34_snaking_tests_and_their_odds():
    state = play.setup(
        table(unit("a", 30, 10, squadron="a", move=8.0, min_move=1.0), unit("b", 10, 40, "B"))
    )
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "a"}, []),
        ("command", "A", {}, []),
    )
    action = Action("move", "a", FrozenMap(path="F1 P45 S45 P45"))
    result = DW.apply(state, action, ScriptedDice([1, 6]))
    tests = [e for e in result.events if e.kind == "treacherous-terrain"]
    assert [(e.get("roll"), e.get("failed")) for e in tests] == [(1, True), (6, False)]
    assert tracking.hull_lost(result.state, "a") == 1
    odds = DW.action_odds(state, action).section("outcome").distribution.as_dict()
    assert odds == {
        ("clear", 0): Fraction(25, 36),
        ("clear", 1): Fraction(10, 36),
        ("clear", 2): Fraction(1, 36),
    }


def test_R002_19_end_phase_repairs_bravery_drift_then_next_turn():
    state = play.setup(
        table(
            unit("a", 30, 10, squadron="a"),
            unit("b", 30, 30, "B", squadron="b"),
            unit("prize", 50, 20, "B", heading=90, squadron="p"),
        )
    )
    state = tracking.add_effect(state, "a", "critical-7")
    state = state.with_rule_state(broken=("B:b",), prizes=FrozenMap(prize="A"))
    end = TurnPosition(1, 3, 0)
    assert [c.kind for c in DW.actions(state, end, "A")] == ["end-phase"]
    state = _run(state, ("end-phase", "A", {}, []))
    assert [c.kind for c in DW.actions(state, end, "A")] == ["damage-repair", "drift"]
    assert [c.kind for c in DW.actions(state, end, "B")] == ["bravery-test"]
    assert [c.title for c in DW.actions(state, end, "B")] == ["Bravery Test: the b"]
    with refused("R002.19", "first"):
        _run(state, ("end-turn", "A", {}, []))
    odds = (
        DW.action_odds(state, Action("damage-repair", "a"))
        .section("outcome")
        .distribution.as_dict()
    )
    assert odds == {  # by name, in words
        "repairs Critical Hit Table 7": Fraction(1, 2),
        "nothing repaired": Fraction(1, 2),
    }
    state = _run(
        state,
        ("damage-repair", "a", {}, [4]),
        ("bravery-test", "B", {"squadron": "B:b"}, [2, 3]),
        ("drift", "prize", {}, [3]),
    )
    assert tracking.effects(state, "a") == ()
    assert tracking.get(state, "broken") == ()
    assert state.unit("prize").x == pytest.approx(53.0)
    assert [c.kind for c in DW.actions(state, end, "B")] == ["end-turn"]
    state = _run(state, ("end-turn", "B", {}, []))
    assert tracking.get(state, "turn") == 2
    assert DW.actions(state, end, "A") == () and DW.actions(state, end, "B") == ()


def test_boarding_captures_a_prize_R002_26():
    state = play.setup(
        table(
            unit("a", 30, 10, squadron="a", assault_points=3),
            unit("b", 31.5, 10, "B", squadron="b", assault_points=1),
        )
    )
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "a"}, []),
        ("command", "A", {}, []),
        ("end-movement", "A", {}, []),
        ("end-declarations", "A", {}, []),
    )
    assert [c.kind for c in DW.actions(state, ACTIVATION, "A")] == ["board", "end-boarding"]
    action = Action("board", "a", FrozenMap(target="b"))
    odds = DW.action_odds(state, action).section("outcome").distribution.as_dict()
    assert set(odds) == {True, False} and sum(odds.values()) == 1
    result = DW.apply(state, action, ScriptedDice([4, 5, 1, 1]))
    assert result.summary is True
    assert dict(tracking.mapping(result.state, "prizes")) == {"b": "A"}
    assert tracking.losses(result.state)[0]["how"] == "captured"


def test_every_roll_bearing_action_has_exact_odds():
    state = _run(_two_squadrons(), ("initiative", "A", {}, [6, 1]))
    odds = (
        DW.action_odds(_two_squadrons(), Action("initiative", "A"))
        .section("outcome")
        .distribution.as_dict()
    )
    assert odds == {"A": Fraction(1, 2), "B": Fraction(1, 2)}
    state = _run(
        state,
        ("activate", "A", {"squadron": "sq"}, []),
        ("command", "A", {}, []),
        ("end-movement", "A", {}, []),
    )
    declare = Action("declare-attack", "a1", FrozenMap(weapon="Guns", target="b1"))
    report = DW.action_odds(state, declare)
    assert report.section("result").distribution.total == 1
    state = _run(
        state,
        ("declare-attack", "a1", {"weapon": "Guns", "target": "b1"}, []),
        ("end-declarations", "A", {}, []),
    )
    resolve = DW.action_odds(state, Action("resolve-attack", "A", FrozenMap(attack=0)))
    assert resolve.as_dict()["distributions"] == report.as_dict()["distributions"]
    assert DW.action_odds(state, Action("end-boarding", "A")) is None


def test_bad_actions_are_user_errors():
    state = _two_squadrons()
    with refused(None, "no action"):
        DW.apply(state, Action("teleport", "A"), ScriptedDice([]))
    with refused(None, "unknown actor"):
        DW.apply(state, Action("move", "ghost", FrozenMap(path="F1")), ScriptedDice([]))
    with refused("R002.28", "activate one first"):
        DW.apply(state, Action("move", "a1", FrozenMap(path="F1")), ScriptedDice([]))
    with refused("R002.28", "cannot activate"):
        DW.apply(state, Action("activate", "A", FrozenMap(squadron="nope")), ScriptedDice([]))
    with refused("R002.21", "take_default"):
        DW.apply(
            state, Action("field-order", "A", FrozenMap(take_default="yes")), ScriptedDice([1])
        )
    started = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "sq"}, []),
        ("command", "A", {}, []),
    )
    with refused("R002.28", "squadron that is active"):
        DW.apply(started, Action("move", "b1", FrozenMap(path="F1")), ScriptedDice([]))
    with refused("R002.30"):
        DW.apply(started, Action("move", "a1", FrozenMap(path="F1 P45")), ScriptedDice([]))
    with refused(None, "not understood"):
        DW.apply(started, Action("move", "a1", FrozenMap(path="Z9")), ScriptedDice([]))
    with refused("GEO002.8"):
        DW.apply(started, Action("move", "a1", FrozenMap(path="F9")), ScriptedDice([]))


def test_setup_is_idempotent_and_works_on_the_default_map():
    state = load_map(builtin_map("default"))
    once = DW.setup(state)
    assert DW.setup(once) is once
    assert tracking.get(once, "turn") == 1
    assert set(tracking.mapping(once, "fleets")) == {"A", "B"}
    assert DW.weapons(state.unit("ruler"), state.options)[0] == "Main turrets"
    assert DEPTH_CHARGES["kind"] == "concussion"


def test_options_defaults_are_the_adopted_readings():
    options = DW.options({})
    assert options["command_distance"] == 10.0  # A002.3 (external)
    assert options["fc_option_b_measure_from"] == "firer"  # A002.4
    assert options["half_rounding"] == "exact"  # A002.9 as revised: exact half
    assert options["tesla_with_kinetic"] is True  # R002.48: only a second Kinetic is forbidden
    assert options["lost_off_table"] == "wing"  # R002.59: only a Wing is Lost
    assert options["guardian_measure"] == "nearest"  # A002.11
    assert options["linked_fire_rounding"] == "down"  # A002.17
    assert options["range_band_inches"] == 8.0  # GEO002.7 (external)
    assert (options["ad_hit_on"], options["ad_six_hits"], options["ad_exploding"]) == (4, 2, True)
    assert options["tesla_critical_reroll"] == "once"
    for field in DW.option_fields:
        if field.spec_id and field.spec_id.startswith("A002"):
            assert field.default is not None, field.name
    assert DW.check_options({"guardian_measure": "edge"})[0].spec_id == "A002.11"


@pytest.mark.parametrize("path", ["F6", "F3 P45 F3", "F2 S45 S45 F1", "B2", "F12", "C60"])
def test_the_move_action_ends_where_tactical_move_says(path):
    """The move action plans with the same movement code as `tactical move` (GEO002.8)."""
    from dw_builders import rock

    from tactical.session.movement import plan_move

    state = play.setup(
        table(
            unit("a", 30, 10, squadron="a", move=12.0, min_move=2.0),
            unit("other", 27, 16, "A", heading=90, squadron="o"),
            unit("b", 10, 40, "B"),
            terrain=(rock("reef", 31, 17, 36, 19, "soft", "tiny"),),
        )
    )
    session_plan = plan_move(state, "a", path)
    ours = maneuver_plan(state, path)
    assert ours.legal == session_plan.legal
    assert (ours.final.x, ours.final.y, ours.final.heading) == pytest.approx(
        (session_plan.final.x, session_plan.final.y, session_plan.final.heading)
    )
    contact = session_plan.contact
    assert ours.contact_kind == (contact.kind if contact else None)
    assert ours.contact_id == (contact.id if contact else None)


def maneuver_plan(state, path):
    from tactical.rules.dystopian_wars import maneuver

    return maneuver.plan(state, state.unit("a"), path)


def test_R002_32_disengaging_only_from_a_collision_or_ram():
    from tactical.rules.dystopian_wars import maneuver

    rammed = table(unit("a", 30, 10), unit("b", 30, 12.0, "B", heading=90))  # bow touching b
    free = table(unit("a", 30, 10), unit("b", 30, 20, "B", heading=90))
    assert maneuver.plan(rammed, rammed.unit("a"), "C60").legal
    with refused("R002.32", "disengage"):
        maneuver.move(free, free.unit("a"), "C60", ScriptedDice([]))


@pytest.mark.parametrize(
    ("weapons", "reach", "stage"),
    [
        ([ACK_ACK, GUNS], 4, "counter"),  # ack-ack in reach of the zeppelin
        ([GUNS], 4, "resolve"),  # no Auxiliary weapon: no Counterattack
        ([ACK_ACK], 12, "resolve"),  # its ack-ack (RB1 only) out of reach
    ],
)
def test_R002_29_counterattacks_are_offered_exactly_where_one_may_be_declared(
    weapons, reach, stage
):
    bombs = {"name": "Bombs", "kind": "bomb", "arc": "all-round", "attack_dice": "2-2-0-0"}
    state = play.setup(
        table(
            unit("zep", 30, 10, movement="aerial", height_level="flying", weapons=[bombs]),
            unit("ship", 30, 10 + reach, "B", heading=180, weapons=weapons),
        )
    )
    state = _run(
        state,
        ("initiative", "A", {}, [6, 1]),
        ("activate", "A", {"squadron": "zep"}, []),
        ("command", "A", {}, []),
        ("end-movement", "A", {}, []),
        ("declare-attack", "zep", {"weapon": "Bombs", "target": "ship"}, []),
    )
    act = tracking.get(state, "activation")
    probe = tracking.put(state, activation=act.updated({"stage": "counter", "defenders": ("B",)}))
    offered = any(c.kind == "counterattack" for c in attacks.counter_choices(probe, "B"))
    assert attacks._counter_available(state, act, "B") is offered
    state = _run(state, ("end-declarations", "A", {}, []))
    assert tracking.get(state, "activation")["stage"] == stage
