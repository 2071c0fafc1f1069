"""The action panel's state without its widgets: what it lists, greys and says (no pygame).

`DeclarationForm` is driven as the panel drives it; each test asserts the words or values a
player would read on the panel.
"""

from __future__ import annotations

import pytest

from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.present.declaring import DeclarationForm, refusal_words
from tactical.rules.base import Action, ActionChoice, Field
from tactical.rules.status import Unavailable

BATTERY = Field("battery", "int", default=1, low=1, high=6, doc="dice fired", spec_id="R9.1")
TARGET = Field("target", "str", required=True, choices=("u2", "u3"), spec_id="R9.4")
SPOTTER = Field("spotter", "str", choices=("", "u2", "u3"))
FIRE = ActionChoice("fire", "u1", "U1: fire", (BATTERY, TARGET, SPOTTER), "R9.0")
FIRE_AGAIN = ActionChoice("fire", "u1", "U1: fire (second battery)", (BATTERY, TARGET), "R9.0")
WAIT = ActionChoice("wait", "u1", "U1: wait", (), "R9.3")
PATH = Field("path", "str", required=True, spec_id="R9.5")
MOVE = ActionChoice("move", "u1", "U1: move", (PATH,), "R9.6")
REFUSED = Unavailable("u4", "U4: ram", "it has moved this turn", "R9.7")


def offered(*choices: ActionChoice, refused=(), notice=()) -> DeclarationForm:
    form = DeclarationForm()
    form.offer(choices, refused, notice=notice)
    return form


def test_the_list_offers_the_choices_then_the_greyed_ones_and_says_why_they_are_not_now():
    form = offered(FIRE, WAIT, refused=(REFUSED,))
    assert form.rows() == ["U1: fire (R9.0)", "U1: wait (R9.3)", ("U4: ram (not now)", "greyed")]
    assert form.refusal("U4: ram (not now)") == "U4: ram: it has moved this turn (R9.7)"
    assert form.refusal("U1: fire") is None
    assert refusal_words(Unavailable("u4", "Ram", "no", None)) == "Ram: no"
    assert form.offer((FIRE, WAIT), (REFUSED,)) is False  # nothing changed: nothing rebuilt


def test_a_notice_takes_the_lists_place_and_is_the_problem_line():
    form = offered(FIRE, WAIT, notice=("Klingon's go: the computer", "thinking"))
    assert form.choices == () and form.rows() == []
    assert form.judge() == "Klingon's go: the computer thinking"
    assert form.action() is None


def test_nothing_picked_says_pick_one_and_nothing_offered_says_so():
    assert offered(FIRE).judge() == "pick an action from the list"
    assert offered().judge() == "nothing to declare"


def test_a_picked_choice_fills_its_defaults_and_names_the_missing_required_field():
    form = offered(FIRE, WAIT)
    form.start(form.choice_at(0), carry=False)
    assert form.values == {"battery": 1}
    # the target is a drop-down with nothing picked: pick one in its list, with its rule
    assert form.judge() == "target: pick one in its list (required) (R9.4)"
    form.set_value("target", "u3")
    assert form.judge() is None
    assert form.action() == Action("fire", "u1", FrozenMap({"battery": 1, "target": "u3"}))


def test_typed_text_is_parsed_and_a_bad_value_is_the_problem_line():
    form = offered(FIRE)
    form.start(FIRE, carry=False)
    form.set_value("target", "u2")
    form.apply_text(BATTERY, "9")
    assert "battery" not in form.values
    assert form.judge() == form.errors["battery"] and "R9.1" in form.judge()
    form.apply_text(BATTERY, "3")
    assert form.values["battery"] == 3 and form.judge() is None


def test_a_kept_pick_carries_the_values_the_new_choice_still_takes():
    form = offered(FIRE)
    form.start(FIRE, carry=False)
    form.set_value("target", "u3")
    form.set_value("spotter", "u2")
    form.apply_text(BATTERY, "2")
    form.offer((FIRE_AGAIN,))
    kept = form.still_offered(FIRE)
    assert kept == FIRE_AGAIN  # the same kind and actor, another title
    form.start(kept, carry=True)
    assert form.values == {"battery": 2, "target": "u3"}  # no spotter field any more


def test_a_clicked_unit_fills_the_first_unfilled_field_that_takes_it():
    form = offered(FIRE)
    form.start(FIRE, carry=False)
    assert form.unit_field("u2") == "target"
    form.set_value("target", "u2")
    assert form.unit_field("u2") == "spotter"  # the target is filled: the spotter takes it
    assert form.unit_field("u9") is None


def test_a_value_for_a_field_the_choice_lacks_is_refused_naming_its_fields():
    form = offered(FIRE)
    with pytest.raises(UserError, match="fields: none"):
        form.set_value("target", "u2")
    form.start(FIRE, carry=False)
    with pytest.raises(UserError, match="fields: battery, target, spotter"):
        form.set_value("speed", 3)
    with pytest.raises(UserError, match="not offered"):
        form.choice_at(5)


def test_a_drawn_path_says_draw_it_on_the_table_and_the_button_says_move():
    form = offered(MOVE)
    form.start(MOVE, carry=False)
    assert form.judge() == "path: draw the move on the table (R9.5)"
    assert form.drawn_text(PATH) == "(draw it on the table)"
    form.move_legal, form.drawn_path = True, "F3 P45"
    assert form.judge() is None and form.drawn_text(PATH) == "F3 P45"
    assert form.button_words(lambda words: True) == "Move"
    assert form.action() is None  # the move tool declares a drawn move


def test_the_button_names_the_action_where_it_fits_else_apply():
    form = offered(FIRE)
    assert form.button_words(lambda words: True) == "Apply"
    form.start(FIRE, carry=False)
    assert form.button_words(lambda words: True) == "Fire"
    assert form.button_words(lambda words: len(words) < 3) == "Apply"
