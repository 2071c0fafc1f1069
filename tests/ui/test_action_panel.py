"""The action panel: choices and declarations built from the rule systems' Field schemas.

The pure helpers are checked against every field kind and against real choices of the five
scenarios (the Action they build must be accepted by the session); the widgets are driven
headless with synthetic pygame events and checked on the model and on pixels.
"""

from __future__ import annotations

import pygame
import pygame_gui
import pytest
from ui_events import pump_commands

from tactical.errors import UserError
from tactical.io.maps import load_map
from tactical.model import FrozenMap
from tactical.present.declaration import (
    action_from_values,
    format_value,
    is_fixed,
    is_move_choice,
    parse_value,
    unique_labels,
    unit_fields,
)
from tactical.rules.base import Action, ActionChoice, Field
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.ui.action_panel import ActionPanel, PanelCommand

SIZE = (800, 600)
PANEL_RECT = pygame.Rect(440, 20, 320, 560)

BATTERY = Field("battery", "int", default=1, low=1, high=6, doc="dice fired", spec_id="R9.1")
TARGET = Field("target", "str", required=True, choices=("u2", "u3"))
CAREFUL = Field("careful", "bool", default=False, spec_id="R9.2")
FIRE = ActionChoice("fire", "u1", "U1: fire", (BATTERY, TARGET, CAREFUL), "R9.0")
WAIT = ActionChoice("wait", "u1", "U1: wait", (), "R9.3")
LEGS = Field("legs", "tables", fields=(Field("to", "str"), Field("n", "int")))
PLAN = ActionChoice(
    "plan",
    "u1",
    "U1: plan",
    (
        Field("orders", "table", required=True, fields=(Field("speed", "int", required=True),)),
        Field("extras", "table"),
    ),
)


# ---------------------------------------------------------------------- harness


@pytest.fixture
def ui(display):
    manager = pygame_gui.UIManager(SIZE)
    panel = ActionPanel(manager, PANEL_RECT)
    pygame.event.clear()
    yield manager, panel
    panel.kill()
    pygame.event.clear()


def pump(manager, widget, rounds: int = 4) -> list:
    return pump_commands(manager, widget, rounds)


def click(manager, panel, pos) -> list[PanelCommand]:
    manager.process_events(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    manager.update(1 / 60)
    manager.process_events(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    manager.update(1 / 60)
    manager.process_events(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    return pump(manager, panel)


def click_element(manager, panel, element) -> list[PanelCommand]:
    return click(manager, panel, element.get_abs_rect().center)


def list_row(panel, index: int):
    button = panel.choice_list.item_list[index]["button_element"]
    assert button is not None, "the row is scrolled out of view"
    return button


def choose(manager, panel, name: str, option: str) -> list[PanelCommand]:
    """Open a field's drop-down and click one of its options (by its value, or by how it
    reads)."""
    menu = row_widget(panel, name)
    row = next(r for r in panel._rows if r.field.name == name)
    shown = next((label for label, value in row.options.items() if value == option), option)
    click_element(manager, panel, menu.current_state.selected_option_button)
    options = menu.current_state.options_selection_list
    index = [item["text"] for item in options.item_list].index(shown)
    return click_element(manager, panel, options.item_list[index]["button_element"])


def type_into(manager, panel, name: str, text: str) -> list[PanelCommand]:
    """Focus a field's entry, clear it with Backspace and type `text` (TEXTINPUT per char)."""
    entry = row_widget(panel, name)
    commands = click_element(manager, panel, entry)
    assert entry.is_focused
    key(manager, pygame.K_END)
    for _ in range(len(entry.get_text())):
        key(manager, pygame.K_BACKSPACE)
    for char in text:
        manager.process_events(pygame.event.Event(pygame.TEXTINPUT, text=char))
    return commands + pump(manager, panel)


def key(manager, code: int) -> None:
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        event = pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0)
        manager.process_events(event)


def row_widget(panel, name: str):
    return next(row.widget for row in panel._rows if row.field.name == name)


def frame(manager) -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    surface.fill((0, 0, 0))
    manager.update(1 / 60)
    manager.draw_ui(surface)
    return surface


# ---------------------------------------------------------------------- parse_value


@pytest.mark.parametrize(
    ("spec", "text", "value"),
    [
        (BATTERY, " 4 ", 4),
        (BATTERY, "+6", 6),
        (Field("range", "float", low=0), "12.5", 12.5),
        (Field("range", "float"), "-3", -3.0),
        (CAREFUL, "yes", True),
        (CAREFUL, "No", False),
        (CAREFUL, "true", True),
        (Field("front", "str", default="1D+1"), "2D+1", "2D+1"),
        (TARGET, "u3", "u3"),
        (PLAN.fields[0], "{ speed = 3 }", {"speed": 3}),
        (LEGS, '[{ to = "A1" }, { to = "B2" }]', [{"to": "A1"}, {"to": "B2"}]),
        (BATTERY, "", None),
        (Field("front", "str"), "  ", None),
    ],
)
def test_parse_value_reads_every_kind(spec, text, value):
    assert parse_value(spec, text) == value


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        (BATTERY, "three"),
        (BATTERY, "2.5"),
        (BATTERY, "9"),
        (BATTERY, "0"),
        (Field("range", "float"), "far"),
        (Field("range", "float"), "inf"),
        (Field("range", "float", high=36), "40"),
        (CAREFUL, "maybe"),
        (TARGET, "u9"),
        (TARGET, ""),
        (PLAN.fields[0], "{ speed = "),
        (PLAN.fields[0], "{ pace = 3 }"),
        (LEGS, "3"),
        (LEGS, "[{ by = 2 }]"),
    ],
)
def test_parse_value_refuses_bad_text_naming_field_and_expectation(spec, text):
    with pytest.raises(UserError) as raised:
        parse_value(spec, text)
    message = raised.value.describe()
    assert message.startswith(f"{spec.name}: expected {spec.describe()}")
    if spec.spec_id:
        assert spec.spec_id in message


def test_parse_value_message_cites_the_fields_spec_id():
    with pytest.raises(UserError) as raised:
        parse_value(BATTERY, "7")
    assert raised.value.spec_id == "R9.1"
    assert raised.value.describe() == "battery: expected a whole number from 1 to 6; got '7' (R9.1)"


def test_format_value_round_trips_through_parse_value():
    for spec, value in [
        (BATTERY, 3),
        (Field("r", "float"), 2.5),
        (CAREFUL, True),
        (PLAN.fields[0], {"speed": 4}),
        (LEGS, [{"to": "A 1", "n": 2}]),
    ]:
        assert parse_value(spec, format_value(value)) == value


# ---------------------------------------------------------------------- action_from_values


def test_action_from_values_fills_defaults_and_drops_unset_values():
    action = action_from_values(FIRE, {"target": "u2", "battery": None})
    assert action == Action("fire", "u1", FrozenMap(battery=1, target="u2", careful=False))


def test_action_from_values_lists_every_problem_with_spec_ids():
    with pytest.raises(UserError) as raised:
        action_from_values(FIRE, {"battery": 8, "careful": "yes"})
    message = raised.value.describe()
    assert "battery: expected a whole number from 1 to 6 (R9.1)" in message
    assert "target: expected one of 'u2', 'u3' (required)" in message
    assert "careful: expected true or false (R9.2)" in message
    assert raised.value.spec_id == "R9.1"


def test_action_from_values_accepts_a_table_without_schema_as_the_session_does():
    move = ActionChoice(
        "move",
        "u1",
        "U1: move",
        (Field("path", "str", required=True), Field("activation", "table")),
    )
    action = action_from_values(move, {"path": "F3", "activation": {"pivot": "centre"}})
    assert action.params["activation"] == {"pivot": "centre"}


def advanced_to(map_name: str, wanted, limit: int = 120) -> tuple[Session, ActionChoice]:
    """A session of a scenario played by the stand-in until a choice `wanted` is offered."""
    session = Session.new(load_map(f"maps/{map_name}.toml"), 1)
    for _ in range(limit):
        found = [c for c in session.choices() if wanted(c)]
        if found:
            return session, found[0]
        following = autoplay.next_game(session.game)
        session.apply(following.last_step.action)
    raise AssertionError(f"no such choice in {map_name} within {limit} steps")


def applied(session: Session, action: Action):
    before = session.step_number
    step = session.apply(action)
    # the chosen step, then any the game took by itself (forced, with their reasons)
    assert session.step_number >= before + 1
    assert session.game.steps[before].action == step.action
    assert all(s.forced for s in session.game.steps[before + 1 :])
    assert (step.action.kind, step.action.actor) == (action.kind, action.actor)
    for key, value in action.params.items():
        assert step.action.params[key] == value
    return step


def test_battlefleet_attack_with_a_clicked_target_is_applied():
    session, choice = advanced_to("battlefleet-mars", lambda c: c.kind == "attack")
    unit_ids = tuple(u.id for u in session.state.units)
    assert unit_fields(choice, unit_ids) == ("target",)
    target = next(f for f in choice.fields if f.name == "target")
    refusals = []
    for unit_id in target.choices:
        action = action_from_values(choice, {"target": unit_id})
        assert action.params == {"weapon": "laser", "target": unit_id}
        try:
            step = applied(session, action)
        except UserError as error:  # out of range: the rules refuse, nothing changes
            refusals.append(error.describe())
            continue
        assert step.action.params["target"] == unit_id
        break
    else:
        pytest.fail(f"no target accepted: {refusals}")


def test_sw_angle_shields_typed_as_dice_codes_is_applied():
    session, choice = advanced_to("sw-d6-capital", lambda c: c.kind == "angle-shields")
    fields = {f.name: f for f in choice.fields}
    typed = {"front": "0D+2", "right": "1D+1", "rear": "0D+1", "left": "0D+2"}
    values = {name: parse_value(fields[name], text) for name, text in typed.items()}
    step = applied(session, action_from_values(choice, values))
    assert step.action.params["right"] == "1D+1"


def test_heavy_combat_reinforce_with_power_is_applied():
    session, choice = advanced_to("heavy-combat", lambda c: c.kind == "reinforce")
    fields = {f.name: f for f in choice.fields}
    power = parse_value(fields["power"], str(int(fields["power"].high)))
    facing = fields["facing"].choices[1]
    step = applied(session, action_from_values(choice, {"facing": facing, "power": power}))
    assert step.action.params["facing"] == facing


def test_dystopian_wars_activate_a_squadron_is_applied():
    session, choice = advanced_to("dystopian-wars", lambda c: c.kind == "activate")
    squadrons = choice.fields[0].choices
    assert len(squadrons) >= 2
    step = applied(session, action_from_values(choice, {"squadron": squadrons[1]}))
    assert step.action.params["squadron"] == squadrons[1]


def test_cortex_attack_with_a_called_shot_is_applied():
    session, choice = advanced_to(
        "cortex-space",
        lambda c: c.kind == "attack" and any(f.name == "called_shot" for f in c.fields),
    )
    fields = {f.name: f for f in choice.fields}
    values = {
        "target": fields["target"].choices[0],
        "called_shot": parse_value(fields["called_shot"], "yes"),
    }
    step = applied(session, action_from_values(choice, values))
    assert step.action.params["called_shot"] is True


def test_unit_fields_and_move_choice_come_from_the_fields():
    session = Session.new(load_map("maps/battlefleet-mars.toml"), 1)
    unit_ids = tuple(u.id for u in session.state.units)
    moves = [c for c in session.choices() if is_move_choice(c)]
    assert moves and all(c.kind == "move" for c in moves)
    assert not any(is_move_choice(c) for c in session.choices() if c.kind != "move")
    spotter = ActionChoice(
        "bombard", "b", "B", (Field("spotter", "str", choices=("", unit_ids[0])),)
    )
    assert unit_fields(spotter, unit_ids) == ("spotter",)
    assert unit_fields(FIRE, unit_ids) == ()


# ---------------------------------------------------------------------- the widgets


def test_click_a_row_choose_a_target_and_roll(ui):
    """Pick by clicking the list row, choose the target in its drop-down, Roll -> apply."""
    manager, panel = ui
    session, attack = advanced_to("battlefleet-mars", lambda c: c.kind == "attack")
    choices = (attack, *(c for c in session.choices() if c != attack))  # the App's order
    target_field = next(f for f in attack.fields if f.name == "target")
    assert target_field.required and target_field.default is None
    defaults = {f.name: f.default for f in attack.fields if f.default is not None}
    panel.set_choices(choices)
    assert panel.picked is None and not panel.roll_button.is_enabled
    commands = click_element(manager, panel, list_row(panel, 0))
    assert commands == [PanelCommand("picked")]
    assert panel.picked == attack
    # the weapon is the row's own (its title says it): no form row for a fixed value
    shown = [f.name for f in attack.fields if not is_fixed(f)]
    assert [row.field.name for row in panel._rows] == shown == ["target"]
    assert click_element(manager, panel, list_row(panel, 0)) == []  # a second click keeps it
    assert panel.picked == attack and panel.choice_list.item_list[0]["selected"]
    assert panel.action() is None
    assert panel.problem.startswith("target: pick one in its list (required)")
    assert not panel.roll_button.is_enabled
    target = target_field.choices[min(2, len(target_field.choices) - 1)]
    assert choose(manager, panel, "target", target) == [PanelCommand("changed")]
    assert panel.values == {**defaults, "target": target}
    assert panel.roll_button.tool_tip_text.startswith(attack.title)
    assert panel.problem is None and panel.roll_button.is_enabled
    commands = click_element(manager, panel, panel.roll_button)
    expected = Action(attack.kind, attack.actor, FrozenMap({**defaults, "target": target}))
    assert commands == [PanelCommand("apply", expected)]


def test_typing_a_bad_number_shows_the_problem_and_disables_roll(ui):
    manager, panel = ui
    panel.set_choices((WAIT, FIRE))
    click_element(manager, panel, list_row(panel, 1))
    panel.set_value("target", "u3")
    assert panel.roll_button.is_enabled
    commands = type_into(manager, panel, "battery", "9")
    assert PanelCommand("changed") in commands
    assert row_widget(panel, "battery").get_text() == "9"
    assert panel.problem == "battery: expected a whole number from 1 to 6; got '9' (R9.1)"
    assert panel.problem_box.html_text.startswith("battery: expected")
    assert not panel.roll_button.is_enabled
    assert click_element(manager, panel, panel.roll_button) == []
    type_into(manager, panel, "battery", "5")
    assert panel.problem is None and panel.roll_button.is_enabled
    assert panel.action() == Action("fire", "u1", FrozenMap(battery=5, target="u3", careful=False))


def test_enter_in_an_entry_applies_a_complete_declaration(ui):
    manager, panel = ui
    panel.set_choices((FIRE,))
    panel.pick(0)
    panel.set_value("target", "u2")
    type_into(manager, panel, "battery", "3")
    key(manager, pygame.K_RETURN)
    commands = pump(manager, panel)
    assert commands[-1] == PanelCommand(
        "apply", Action("fire", "u1", FrozenMap(battery=3, target="u2", careful=False))
    )


def test_bool_toggle_flips_between_no_and_yes(ui):
    manager, panel = ui
    panel.set_choices((FIRE,))
    panel.pick(FIRE)
    toggle = row_widget(panel, "careful")
    assert toggle.text == "no"
    assert click_element(manager, panel, toggle) == [PanelCommand("changed")]
    assert toggle.text == "yes" and panel.values["careful"] is True


def test_offer_unit_fills_the_target_and_updates_the_drop_down(ui):
    _, panel = ui
    panel.set_choices((FIRE,))
    assert panel.offer_unit("u2") is None  # nothing picked
    panel.pick(0)
    assert panel.offer_unit("u9") is None
    assert panel.offer_unit("u3") == "target"
    assert panel.values["target"] == "u3"
    assert row_widget(panel, "target").selected_option[0] == "u3"
    assert panel.problem is None


def test_offer_unit_prefers_the_first_unfilled_unit_field(ui):
    _, panel = ui
    duel = ActionChoice(
        "duel",
        "u1",
        "U1: duel",
        (
            Field("first", "str", required=True, default="u2", choices=("u2", "u3")),
            Field("second", "str", required=True, choices=("u2", "u3")),
        ),
    )
    panel.set_choices((duel,))
    panel.pick(0)
    assert panel.offer_unit("u3") == "second"
    assert panel.offer_unit("u3") == "first"
    assert panel.values == {"first": "u3", "second": "u3"}


def test_set_choices_keeps_the_pick_and_values_while_offered(ui):
    _, panel = ui
    panel.set_choices((WAIT, FIRE))
    panel.pick(FIRE)
    panel.set_value("target", "u3")
    panel.set_value("battery", 4)
    widgets = [row.widget for row in panel._rows]
    panel.set_choices((WAIT, FIRE))  # unchanged: nothing rebuilt
    assert [row.widget for row in panel._rows] == widgets
    narrowed = ActionChoice("fire", "u1", "U1: fire", (BATTERY, TARGET), "R9.0")
    panel.set_choices((narrowed, WAIT))
    assert panel.picked == narrowed
    assert panel.values == {"battery": 4, "target": "u3"}
    assert panel.choice_list.item_list[0]["selected"]
    panel.set_choices((WAIT,))
    assert panel.picked is None and panel._rows == []
    assert panel.action() is None and panel.problem == "pick an action from the list"


def test_set_value_refuses_an_unknown_field(ui):
    _, panel = ui
    panel.set_choices((FIRE,))
    panel.pick(0)
    with pytest.raises(UserError, match="'range' is not a field"):
        panel.set_value("range", 3)


def test_move_choice_asks_for_the_move_tool_and_takes_the_drawn_path(ui):
    manager, panel = ui
    session = Session.new(load_map("maps/battlefleet-mars.toml"), 1)
    waits = tuple(ActionChoice("wait", f"u{i}", f"U{i}: wait") for i in range(12))
    choices = waits + session.choices()  # enough rows that the move's is out of view
    index = [i for i, c in enumerate(choices) if is_move_choice(c)][-1]
    panel.set_choices(choices)
    assert panel.choice_list.item_list[index]["button_element"] is None  # scrolled out of view
    panel.pick(index)  # the App picks it: the list scrolls to it
    panel.pick(None)
    pump(manager, panel)
    assert click_element(manager, panel, list_row(panel, index)) == [PanelCommand("move")]
    assert [(row.field.name, row.kind) for row in panel._rows] == [("path", "drawn")]
    assert panel.problem.startswith("path: draw the move on the table")
    panel.set_value("path", "F3 P45")
    assert row_widget(panel, "path").text == "F3 P45"
    action = panel.action()
    assert action == Action("move", choices[index].actor, FrozenMap(path="F3 P45"))
    step = applied(session, action)
    assert step.by_session


def test_required_table_is_inline_toml_and_optional_table_is_left_out(ui):
    manager, panel = ui
    panel.set_choices((PLAN,))
    panel.pick(0)
    assert [row.field.name for row in panel._rows] == ["orders"]
    type_into(manager, panel, "orders", "{ speed = 3 }")
    assert panel.action() == Action("plan", "u1", FrozenMap(orders={"speed": 3}))
    type_into(manager, panel, "orders", "{ speed = 'x' }")
    assert panel.action() is None
    assert panel.problem.startswith("orders: expected a table")


def test_cancel_drops_the_declaration(ui):
    manager, panel = ui
    panel.set_choices((FIRE,))
    panel.pick(0)
    assert click_element(manager, panel, panel.cancel_button) == [PanelCommand("cancel")]
    assert panel.picked is None and panel._rows == []
    assert not panel.cancel_button.is_enabled


def test_pick_none_drops_the_declaration_and_unknown_picks_are_refused(ui):
    _, panel = ui
    panel.set_choices((WAIT, FIRE))
    assert panel.pick(FIRE) == FIRE and panel.choice_list.item_list[1]["selected"]
    assert panel.pick(None) is None
    assert panel.picked is None and not panel.choice_list.item_list[1]["selected"]
    with pytest.raises(UserError, match="choice 5 is not offered"):
        panel.pick(5)
    with pytest.raises(UserError, match="'U1: plan' is not offered now"):
        panel.pick(PLAN)


@pytest.mark.filterwarnings("error::UserWarning")
def test_show_odds_hosts_the_chart_and_turns_apply_into_roll(ui):
    manager, panel = ui
    panel.set_choices((FIRE,))
    panel.pick(0)
    panel.set_value("target", "u2")
    assert panel.roll_button.text == "Fire"  # what it does: the picked action's kind
    chart = pygame.Surface((296, 170))
    chart.fill((200, 30, 40))
    panel.show_odds(chart, "odds vs u2 (3 ms)")
    assert panel.has_odds and panel.roll_button.text == "Fire"
    assert "odds" in panel.roll_button.tool_tip_text
    assert panel.odds_caption.text == "odds vs u2 (3 ms)"
    rect = panel.odds_image.get_abs_rect()
    assert PANEL_RECT.contains(rect) and rect.width <= 296
    assert abs(rect.width / rect.height - 296 / 170) < 0.05
    centre = rect.center
    assert tuple(frame(manager).get_at(centre))[:3] == (200, 30, 40)
    long = "refused: target out of range " + "and out of arc " * 12
    panel.show_odds(None, long)
    assert panel.odds_caption.text.endswith("…") and panel.odds_caption.tool_tip_text == long
    panel.show_odds(None, "computing the exact odds…")
    assert not panel.has_odds and panel.roll_button.text == "Fire"
    panel.pick(None)
    assert panel.roll_button.text == "Apply"
    assert tuple(frame(manager).get_at(centre))[:3] != (200, 30, 40)


def test_hiding_and_showing_the_panel_keeps_the_empty_problem_line_out_of_sight(ui):
    manager, panel = ui
    panel.set_choices((FIRE,))
    panel.pick(0)
    assert panel.problem is not None
    box = panel.problem_box.get_abs_rect()
    assert PANEL_RECT.contains(box)
    edge = (box.left, box.centery)  # the text box's border
    with_problem = tuple(frame(manager).get_at(edge))
    panel.set_value("target", "u2")
    panel.panel.hide()
    panel.panel.show()
    assert panel.problem is None
    assert not panel.problem_box.get_abs_rect().colliderect(PANEL_RECT)
    assert tuple(frame(manager).get_at(edge)) != with_problem


@pytest.mark.filterwarnings("error::UserWarning")
def test_long_field_names_are_cut_to_their_column_and_kept_whole_in_the_tooltip(ui):
    _, panel = ui
    name = "deimos-base.fighters-launched-this-turn"
    buy = ActionChoice("buy", "A", "A: buy", (Field(name, "int", default=0, low=0),))
    panel.set_choices((buy,))
    panel.pick(0)
    label = panel._rows[0].label
    shown = buy.fields[0].label  # the field's name in words
    assert shown == "Deimos base fighters launched this turn"
    assert label.text.endswith("…") and shown.startswith(label.text[:-1])
    assert shown in label.tool_tip_text
    assert label.get_abs_rect().right <= row_widget(panel, name).get_abs_rect().left
    panel.set_value(name, 3)
    assert panel.action() == Action("buy", "A", FrozenMap({name: 3}))


def test_set_rect_moves_every_widget_inside_the_panel(ui):
    _, panel = ui
    panel.set_choices((WAIT, FIRE))
    panel.pick(FIRE)
    small = pygame.Rect(10, 40, 300, 360)
    panel.set_rect(small)
    inside = [panel.choice_list, panel.roll_button, panel.cancel_button, panel.problem_box]
    shown = panel._rows[panel.form.first : panel.form.first + panel.form.shown]
    inside += [row.widget for row in shown]
    for widget in inside:
        assert small.contains(widget.get_abs_rect()), widget
    for row in panel._rows:  # the rows out of view are parked where the panel clips them
        if row not in shown:
            assert not small.colliderect(row.widget.get_abs_rect())
    assert panel.roll_button.get_abs_rect().bottom <= small.bottom


@pytest.mark.filterwarnings("error::UserWarning")
@pytest.mark.parametrize(
    "map_name",
    ["battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital"],
)
def test_every_offered_choice_builds_a_form_that_matches_the_helpers(ui, map_name):
    """Each distinct choice of the first steps of a scenario: one row per shown field, and the
    panel's action is the helpers' action from the defaults (or it says why not)."""
    _, panel = ui
    session = Session.new(load_map(f"maps/{map_name}.toml"), 1)
    game, seen = session.game, set()
    for _ in range(40):
        choices = game.choices()
        panel.set_choices(choices)
        for choice in choices:
            signature = (choice.kind, tuple((f.name, f.kind, f.choices) for f in choice.fields))
            if signature in seen:
                continue
            seen.add(signature)
            panel.pick(choice)
            shown = [
                f.name
                for f in choice.fields
                if (f.kind not in ("table", "tables") or f.required) and not is_fixed(f)
            ]
            assert [row.field.name for row in panel._rows] == shown
            try:
                expected = action_from_values(choice, {})
            except UserError:
                expected = None
            assert panel.action() == expected
            assert (panel.problem is None) == (expected is not None)
        game = autoplay.next_game(game)
    assert len(seen) >= 4


def test_a_drawn_moves_card_takes_the_odds_place_and_apply_becomes_move(ui):
    """While the move tool draws the path, its card is shown; Move is enabled only for a
    legal path and asks the App to confirm the drawn move."""
    manager, panel = ui
    session = Session.new(load_map("maps/battlefleet-mars.toml"), 1)
    choices = session.choices()
    index = next(i for i, c in enumerate(choices) if is_move_choice(c))
    panel.set_choices(choices)
    panel.pick(index)
    card = pygame.Surface((200, 80))
    card.fill((200, 10, 10))
    panel.show_move(card, False)
    assert panel.problem is None and panel.action() is None
    assert panel.roll_button.text == "Move" and not panel.roll_button.is_enabled
    assert panel.odds_image.visible and panel.odds_image.image.get_at((50, 40))[:3] == (
        200,
        10,
        10,
    )
    panel.show_move(card, True)
    assert panel.roll_button.is_enabled
    pump(manager, panel)
    assert click_element(manager, panel, panel.roll_button) == [PanelCommand("confirm-move")]
    panel.show_odds(None, "")  # the tool closed: the panel is a form again
    assert panel.move_legal is None and panel.roll_button.text == "Move"  # its kind
    assert panel.problem.startswith("path: draw the move on the table")


def test_equal_rows_are_told_apart_by_their_model_in_words_then_a_number():
    """Two models of one class offer the same title: the second row names its model in
    words ("attacker 2", not the id `attacker-2`), a third equal row gets a number."""
    gun = "Attacker Class Frigate: Gun"
    choices = (
        ActionChoice("declare-attack", "attacker-1", gun, spec_id="R002.36"),
        ActionChoice("declare-attack", "attacker-2", gun, spec_id="R002.36"),
        ActionChoice("declare-attack", "attacker-2", gun, spec_id="R002.36"),
    )
    assert unique_labels(choices) == (
        f"{gun} (R002.36)",
        f"{gun} (R002.36) (attacker 2)",
        f"{gun} (R002.36) (attacker 2) #2",
    )
