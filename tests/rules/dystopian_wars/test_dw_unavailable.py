"""Dystopian Wars: what a side cannot do now in the Squadron Activation Sequence, each with the
reason the player reads and its rule (`RuleSystem.unavailable`)."""

from __future__ import annotations

from dw_builders import ACK_ACK, DW, GUNS, flyer, table, unit

from tactical.dice import ScriptedDice
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.dystopian_wars import tracking

ACTIVATION = TurnPosition(1, 2, 0)


def run(state, *steps):
    for kind, actor, params, dice in steps:
        state = DW.apply(state, Action(kind, actor, FrozenMap(params)), ScriptedDice(dice)).state
    return state


def refusals(state, side: str) -> dict[str, tuple[str, str | None]]:
    return {r.title: (r.reason, r.spec_id) for r in DW.unavailable(state, ACTIVATION, side)}


def two_fleets(*extra, **stats):
    return DW.setup(
        table(
            unit("ruler", 20, 10, "A", name="Ruler", squadron="line", **stats),
            unit("markgraf", 20, 40, "B", 180, name="Markgraf", squadron="line"),
            *extra,
        )
    )


def test_R002_28_a_squadron_activated_this_turn_cannot_activate_again():
    state = tracking.put(two_fleets(), activated=("A:line",))
    assert refusals(state, "A")["A: activate line"] == (
        "Line has activated this turn: a squadron activates once a turn",
        "R002.28",
    )


def test_R002_61_a_wing_launched_this_turn_cannot_be_activated():
    state = two_fleets(
        flyer("f0", 30, 10, squadron="hawks"),
        flyer("f1", 31, 10, squadron="hawks"),
        flyer("f2", 32, 10, squadron="hawks"),
    )
    wings = dict(tracking.mapping(state, "wings"))
    wings["A:hawks"] = wings["A:hawks"].set("launched_turn", 1)
    state = tracking.put(state, wings=FrozenMap(wings))
    assert refusals(state, "A")["A: activate hawks"] == (
        "the hawks Wing launched this turn and cannot be activated until the next",
        "R002.61",
    )


def test_G5_the_initiative_winner_activates_first():
    state = run(two_fleets(), ("initiative", "A", {}, [2, 5]))
    assert tracking.get(state, "initiative")["winner"] == "B"
    assert refusals(state, "A")["A: activate line"] == (
        "B won the initiative and activates a squadron first",
        "G.5",
    )
    assert refusals(state, "B") == {}


def test_R002_28_a_squadron_activation_ends_before_the_next_begins():
    state = run(
        two_fleets(),
        ("initiative", "A", {}, [2, 5]),
        ("activate", "B", {"squadron": "B:line"}, []),
    )
    assert refusals(state, "A") == {
        "A: activate a squadron": (
            "B is activating its line: a squadron's activation ends before the next one begins",
            "R002.28",
        )
    }


def _declaring(state):
    return run(
        state,
        ("initiative", "A", {}, [5, 2]),
        ("activate", "A", {"squadron": "A:line"}, []),
        ("command", "A", {}, []),
        ("end-movement", "A", {}, []),
    )


def test_GEO002_7_a_weapon_with_no_enemy_in_range_says_why_for_the_nearest():
    state = _declaring(two_fleets(weapons=[GUNS, ACK_ACK]))
    reason, rule = refusals(state, "A")["Ruler: Ack Ack"]
    # the nearest enemy is 30" away, Range Band 4, where Ack Ack (4-0-0-0) has no dice
    assert reason.startswith("Markgraf is out of range of Ruler's Ack Ack: ")
    assert reason.endswith(" is Range Band 4 and the weapon has no Attack Dice there")
    assert "'" not in reason.replace("Ruler's", "")
    assert rule == "GEO002.7"
    assert "Ruler: Guns" not in refusals(state, "A")  # offered: it can fire


def test_R002_46_a_tesla_generator_used_for_movement_affects_nothing():
    state = two_fleets(generators="tesla")
    state = run(
        state,
        ("initiative", "A", {}, [5, 2]),
        ("activate", "A", {"squadron": "A:line"}, []),
        ("command", "A", {}, []),
        ("boost", "ruler", {"generator": "tesla"}, [2]),
        ("end-movement", "A", {}, []),
    )
    assert refusals(state, "A")["Ruler: tesla generator"] == (
        "Ruler used its Tesla Generator for movement this activation",
        "R002.46",
    )


def test_R002_27_a_broken_squadron_cannot_board():
    state = two_fleets(assault_points=4)
    state = tracking.put(state, broken=("A:line",))
    state = _declaring(state)
    state = run(state, ("end-declarations", "A", {}, []))
    assert tracking.get(state, "activation")["stage"] == "boarding"
    assert refusals(state, "A")["Ruler: Boarding Assault"] == (
        "Ruler is broken: it cannot initiate a Boarding Assault",
        "R002.27",
    )


def test_G5_a_model_with_no_enemy_within_boarding_range_cannot_board():
    state = _declaring(two_fleets(assault_points=4))
    state = run(state, ("end-declarations", "A", {}, []))
    assert refusals(state, "A")["Ruler: Boarding Assault"] == (
        "no enemy model at Ruler's height within 1\" to board",
        "G.5",
    )


def test_R002_29_an_auxiliary_weapon_that_reaches_no_attacker_cannot_counterattack():
    fore = {**ACK_ACK, "name": "Fore Ack Ack", "arc": "fore"}
    aft = {**ACK_ACK, "name": "Aft Ack Ack", "arc": "aft"}
    bombs = {"name": "Bombs", "kind": "bomb", "arc": "all-round", "attack_dice": "2-0-0-0"}
    zeppelin = unit(
        "zep", 20, 10, "A", name="Zeppelin", movement="aerial", height_level="flying",
        squadron="air", weapons=[bombs],
    )  # fmt: skip
    # Markgraf faces the Zeppelin 4" away: its fore Ack Ack bears, its aft one does not
    markgraf = unit(
        "markgraf", 20, 14, "B", 180, name="Markgraf", squadron="line", weapons=[fore, aft]
    )
    state = run(
        DW.setup(table(zeppelin, markgraf)),
        ("initiative", "A", {}, [5, 2]),
        ("activate", "A", {"squadron": "A:air"}, []),
        ("command", "A", {}, []),
        ("end-movement", "A", {}, []),
        ("declare-attack", "zep", {"weapon": "Bombs", "target": "markgraf"}, []),
        ("end-declarations", "A", {}, []),
    )
    assert tracking.get(state, "activation")["stage"] == "counter"
    assert next(c.title for c in DW.actions(state, ACTIVATION, "B")).startswith("Markgraf: Fore")
    assert refusals(state, "B") == {
        "Markgraf: Aft Ack Ack (counterattack)": (
            "Zeppelin is not in the aft arc of Markgraf's Aft Ack Ack",
            "GEO002.7",
        )
    }


def test_R002_19_the_turn_ends_once_every_repair_is_taken():
    state = tracking.add_effect(two_fleets(), "markgraf", "fire")
    state = run(state, ("end-phase", "A", {}, []))
    end_phase = TurnPosition(1, 3, 0)
    refused = {r.title: (r.reason, r.spec_id) for r in DW.unavailable(state, end_phase, "A")}
    assert refused == {
        "End the turn": (
            "still to take first: Markgraf's Damage Repair (the End Phase's steps in order)",
            "R002.19",
        )
    }
    assert "end-turn" not in [c.kind for c in DW.actions(state, end_phase, "A")]
