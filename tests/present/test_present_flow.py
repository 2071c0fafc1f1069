"""The flow of play in words and order, the targets of a declaration and the odds' words,
decided without pygame from the session's values."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tactical.io.maps import load_map
from tactical.model import FrozenMap
from tactical.present.flow import (
    menu_name,
    ordered_choices,
    passed_words,
    steps_words,
    take_single_words,
    taken_words,
)
from tactical.present.odds import odds_caption, waiting_words
from tactical.present.targets import against, attacker, nearest_targets, open_targets, takes_a_unit
from tactical.rules.base import Action, ActionChoice, Field
from tactical.session.game import PASS


@dataclass(frozen=True)
class Taken:
    """The parts of a `Step` the status line reads."""

    side: str
    is_pass: bool
    title: str = ""


def choice(kind: str, actor: str) -> ActionChoice:
    return ActionChoice(kind, actor, f"{actor}: {kind}", ())


def test_the_selected_units_choices_come_first_then_the_sides_then_the_rest_a_pass_last():
    listed = (
        choice(PASS, "A"),
        choice("move", "u2"),
        choice("fire", "u1"),
        choice("orders", "A"),
        choice("move", "u1"),
    )
    ordered = ordered_choices(listed, "u1", ("A", "B"))
    assert [(c.kind, c.actor) for c in ordered] == [
        ("fire", "u1"),
        ("move", "u1"),
        ("orders", "A"),
        ("move", "u2"),
        (PASS, "A"),
    ]


def test_the_steps_the_game_took_are_said_once_each():
    taken = (Taken("B", True), Taken("B", True), Taken("A", False, "Roll initiative"))
    assert taken_words(taken) == (
        " · B passed: nothing was open to them"
        " · taken for you (the only step open): Roll initiative"
    )
    assert taken_words(()) == ""
    # the words the online screen uses for what arrived with a step
    assert steps_words(taken, " passed", "then ") == " · B passed · then Roll initiative"
    assert steps_words(taken[2:], " passed", "then ") == " · then Roll initiative"
    assert take_single_words(False, "") == (
        "Take forced steps for me: off: you click every step yourself"
    )


def test_a_pass_says_who_passed_and_where_play_stands():
    @dataclass
    class Where:
        turn: int = 2
        phase_name: str = "Movement"
        side_to_act: str = "Klingon"

    said = passed_words(Taken("Federation", True), Where(), " · x")
    assert said == "Federation passed · x · turn 2, Movement: Klingon to act"


def test_the_odds_caption_names_the_target_and_the_time_and_says_why_there_is_no_chart():
    assert odds_caption("Viper 2", 0.0123) == "odds vs Viper 2 (12 ms)"
    assert odds_caption("", 0.5) == "odds (500 ms)"
    assert waiting_words("pending") == "computing the exact odds…"
    assert waiting_words("error", "out of range (R1.2)") == "out of range (R1.2)"
    assert waiting_words("ready") == "no roll: applies as declared"


@pytest.fixture(scope="module")
def table():
    return load_map("maps/battlefleet-mars.toml")


def test_a_declaration_lists_its_targets_and_is_made_against_the_nearest_first(table):
    units = table.units
    actor, others = units[0], [u for u in units[1:]]
    field = Field("target", "str", required=True, choices=("", *(u.id for u in others)))
    fire = ActionChoice("fire", actor.id, "fire", (Field("dice", "int", default=2), field))
    assert takes_a_unit(fire, table) and attacker(fire, table) == actor.id
    assert open_targets(fire, table) == ("", *(u.id for u in others))
    made = nearest_targets(fire, {"dice": 3}, table)
    distance = [(u.x - actor.x) ** 2 + (u.y - actor.y) ** 2 for u in others]
    nearest = [u.id for _, u in sorted(zip(distance, others, strict=True), key=lambda p: p[0])]
    assert [a.params["target"] for a in made] == nearest  # "" (nobody) is not a target
    assert made[0] == Action("fire", actor.id, FrozenMap({"dice": 3, "target": nearest[0]}))
    assert len(nearest_targets(fire, {}, table, limit=1)) == 1
    hovered = against(fire, {"dice": 3}, table, others[-1].id)
    assert hovered.params == FrozenMap({"dice": 3, "target": others[-1].id})


def test_a_declaration_without_a_unit_field_has_no_targets_and_no_attacker(table):
    wait = ActionChoice("wait", table.units[0].id, "wait", (Field("note", "str"),))
    assert not takes_a_unit(wait, table)
    assert open_targets(wait, table) == () and nearest_targets(wait, {}, table) == ()
    assert attacker(wait, table) is None


def test_a_drop_down_names_a_named_unit_and_nothing_else(table):
    named = next(u for u in table.units if u.name)
    assert menu_name(table, named.id) == table.shown_names[named.id]
    assert menu_name(table, "no such unit") == "" and menu_name(table, "") == ""
