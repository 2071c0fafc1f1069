"""Critical effects are read by name, never by code (G.5 Critical Hit Table, R002.1, T002.7,
T002.8, A002.12, R002.19): on the unit's card and marks, in a step's words, in the dice
named and in the odds of a roll."""

from __future__ import annotations

import re

from dw_builders import DW, GUNS, duel, table, unit
from plain_words import code_like

from tactical.dice import ScriptedDice
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.dystopian_wars import (
    combat,
    commodore,
    generators,
    play,
    resolving,
    status,
    tracking,
)
from tactical.rules.dystopian_wars.criticals import critical_name, critical_words
from tactical.rules.dystopian_wars.generators import ActivationFlags

MOVED = ActivationFlags(moved=True)
CODE = re.compile(r"\bcritical[- ]\d|chaos-and|shredded-|hard-pounding|chaos and disarray")


def _read(*texts: str) -> None:
    for text in texts:
        assert not CODE.search(text), text
        assert not code_like(text), text


def test_names_of_the_table_entries_and_of_the_T002_7_effects():
    assert critical_name("critical-7") == "Critical Hit Table 7"
    assert critical_name("chaos-and-disarray") == "Chaos and Disarray"
    assert critical_name("shredded-defences") == "Shredded Defences"
    assert critical_name("hard-pounding") == "Hard Pounding"
    assert "until the End Phase" in critical_words("chaos-and-disarray")
    assert "A002.12" in critical_words("hard-pounding")
    assert "roll of 7" in critical_words("critical-7")
    assert critical_name("critical-13") == "critical-13"  # no 2D6 total: left as it is


def test_R002_1_an_attacks_critical_hit_by_name_on_the_card_and_in_its_words():
    state = duel(
        {"weapons": [dict(GUNS, attack_dice="2-2-2-2")]},
        {"damage_rating": 1, "critical_rating": 2, "hull_points": 3},
    )
    attack = combat.declare(state, "a", "Guns", "t")
    result = resolving.resolve_declared(state, attack, ScriptedDice([6, 6, 2, 3]))
    action = Action("resolve-attack", "a", FrozenMap(attack=0))
    said = DW.summarise(state, action, result.events, result.state)
    assert "critical: Critical Hit Table 5, until repaired" in said
    assert "now Critical Hit Table 5" in said
    card = status.unit_status(result.state, result.state.unit("t"))
    values = {value.label: value for value in card.values}
    assert values["Critical effects"].text == "Critical Hit Table 5"
    assert "roll of 5" in values["Critical effects"].help
    assert card.marks == ("Critical Hit Table 5",)
    _read(said, values["Critical effects"].text, *card.marks)


def test_T002_8_tesla_effect_names_the_critical():
    state = table(unit("m", 20, 10, generators="tesla"), unit("t", 26, 10, "B"))
    hit = generators.tesla_alternative(
        state, state.unit("m"), state.unit("t"), ScriptedDice([5, 3, 4]), MOVED
    )
    said = DW.summarise(
        state, Action("tesla-effect", "m", FrozenMap(target="t")), hit.events, hit.state
    )
    assert "Tesla Generator gives" in said and "Critical Hit Table 7, until repaired" in said
    _read(said)


def test_T002_7_ultrasonic_effects_by_name_until_the_end_phase():
    state = table(unit("u", 20, 10, generators="ultrasonic"), unit("t", 20, 14, "B", hull_points=4))
    five = generators.ultrasonic(state, state.unit("u"), state.unit("t"), ScriptedDice([5]), MOVED)
    action = Action("ultrasonic", "u", FrozenMap(target="t"))
    said = DW.summarise(state, action, five.events, five.state)
    assert "Chaos and Disarray and Shredded Defences, until the End Phase" in said
    card = {v.label: v.text for v in status.unit_status(five.state, five.state.unit("t")).values}
    assert card["Until the End Phase"] == "Chaos and Disarray, Shredded Defences"
    six = generators.ultrasonic(state, state.unit("u"), state.unit("t"), ScriptedDice([6]), MOVED)
    said = DW.summarise(state, action, six.events, six.state)
    assert "Chaos and Disarray and Shredded Defences and Hard Pounding" in said
    _read(said, *card.values())


def test_R002_19_damage_repair_dice_words_and_odds_name_the_critical():
    state = play.setup(table(unit("s", 20, 10), unit("b", 20, 40, "B")))
    state = tracking.add_effect(state, "s", "critical-8")
    state = DW.apply(state, Action("end-phase", "A"), ScriptedDice([])).state
    repair = Action("damage-repair", "s")
    done = DW.apply(state, repair, ScriptedDice([3]))
    labels = [event.get("what") for event in done.events if event.kind == "roll"]
    assert labels == ["Damage Repair (Critical Hit Table 8)"]
    said = DW.summarise(state, repair, done.events, done.state)
    assert said.startswith("s's Damage Repair: Critical Hit Table 8 not repaired (rolled 3")
    odds = DW.action_odds(state, repair).section("outcome").distribution.as_dict()
    assert set(odds) == {"nothing repaired", "repairs Critical Hit Table 8"}
    _read(said, *labels)


def test_R002_10_the_commodore_re_roll_names_the_roll_and_its_critical():
    state = play.setup(table(unit("s", 20, 10, name="Ruler"), unit("b", 20, 40, "B")))
    offer = FrozenMap(kind="critical", option="c", unit="s", code="critical-7")
    state = tracking.put_in(state, "offers", "A", offer)
    (offered,) = commodore.commodore_choices(state, "A")
    assert offered.title == "Re-roll Critical Hit Table 7 on Ruler (Fleet Commodore, option c)"
    _read(offered.title)
    # a model gone from the table: a re-roll of its roll would change nothing (issue h19a)
    gone = tracking.put_in(state, "offers", "A", FrozenMap(offer, unit="gone-1"))
    assert commodore.commodore_choices(gone, "A") == ()
