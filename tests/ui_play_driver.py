"""A player made of synthetic events: it plays the stand-in's game through the play screen.

The stand-in (`tactical.session.autoplay`) says which action comes next; this module makes
that action as a person would on the screen — click the unit on the table, click the row
in the action list, set each field with its drop-down, entry, toggle or a click on the
target, draw a move with the move tool's keys, press Roll (or Enter), press Next to pass —
and never calls the session itself. Nothing here names a rule system either: it works from
the `ActionChoice` fields the rule system publishes.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame
from ui_events import key, move, press_at, press_button, screen, settle

from tactical.geometry.movement import StepKind, parse_path
from tactical.present.declaration import format_value
from tactical.rules.base import Action, ActionChoice
from tactical.session import autoplay
from tactical.session.game import Game


class DriverError(AssertionError):
    """The screen did not let the driver do what a person would have done."""


def expected_next(game: Game) -> Game:
    return autoplay.next_game(game)


def choice_for(app, action: Action) -> ActionChoice:
    """The offered choice on the panel that declares `action` (kind, actor and fields)."""
    for choice in app.play.actions.choices:
        if choice.kind != action.kind or choice.actor != action.actor:
            continue
        names = {spec.name for spec in choice.fields}
        if set(action.params) <= names:
            return choice
    offered = [(c.kind, c.actor) for c in app.play.actions.choices]
    raise DriverError(f"{action.kind} by {action.actor} is not on the panel: {offered}")


def select_on_table(app, unit_id: str | None) -> None:
    """Click the unit (or, for None, an empty spot of the table) with no declaration open."""
    if app.play.actions.picked is not None or app.play.move_tool is not None:
        key(app, pygame.K_ESCAPE)
        key(app, pygame.K_ESCAPE)
    state = app.state
    if unit_id is not None and state.has_unit(unit_id):
        unit = state.unit(unit_id)
        click_table(app, screen(app, unit.x, unit.y))
        if app.view.selected != unit_id:
            # another base lies on top of this one's centre: pick it from the list instead
            app.select(unit_id)
    elif app.view.selected is not None:
        app.select(None)


def click_table(app, pos) -> None:
    move(app, pos)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    settle(app, 1)


def _shown(listing, index: int):
    button = listing.item_list[index]["button_element"]
    if button is not None and listing.get_abs_rect().contains(button.get_abs_rect()):
        return button
    return None


def scroll_into_view(app, listing, index: int) -> object:
    """The row's button, after holding the list's scroll arrow until the row shows whole."""
    button = _shown(listing, index)
    if button is not None:
        return button
    bar = listing.scroll_bar
    if bar is None:
        raise DriverError(f"row {index} is hidden and the list has no scroll bar")
    first = next(
        (i for i, item in enumerate(listing.item_list) if item["button_element"] is not None), 0
    )
    arrow = bar.top_button if index < first else bar.bottom_button
    pos = arrow.get_abs_rect().center
    move(app, pos)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    for _ in range(600):  # held until the row shows
        app.step()
        if _shown(listing, index) is not None:
            break
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    # the bar glides on a little after the arrow is let go: wait until it rests
    for _ in range(600):
        app.step()
        if not bar.has_moved_recently:
            break
    settle(app, 1)
    button = _shown(listing, index)
    if button is None:
        raise DriverError(f"row {index} of the list never scrolled into view")
    return button


def pick_row(app, choice: ActionChoice) -> None:
    """Click the choice's row in the action list, scrolling the list to it first."""
    panel = app.play.actions
    button = scroll_into_view(app, panel.choice_list, panel.choices.index(choice))
    press_button(app, button)
    if panel.picked != choice:
        raise DriverError(f"clicking the row of {choice.title!r} picked {panel.picked!r}")


def row_of(app, name: str):
    """The form row of field `name`, scrolled into view with the wheel over the form first
    (a long form scrolls; the odds chart under it keeps its size)."""
    panel = app.play.actions
    row = next((row for row in panel._rows if row.field.name == name), None)
    if row is None:
        return None
    for _ in range(len(panel._rows) + 1):
        index = panel._rows.index(row)
        if panel.form.in_view(index):
            break
        move(app, panel.form_rect().center)
        notches = 1 if index < panel.form.first else -1
        app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False))
        settle(app, 1)
        row = next(r for r in panel._rows if r.field.name == name)
    else:
        raise DriverError(f"the wheel did not bring {name} into view")
    return row


def choose_option(app, name: str, value) -> None:
    """Open the field's drop-down and click the option showing `value`."""
    row = row_of(app, name)
    label = next((k for k, v in row.options.items() if v == value), None)
    if label is None:
        raise DriverError(f"{name}: {value!r} is not among {list(row.options)}")
    menu = row.widget
    press_button(app, menu.current_state.selected_option_button)
    options = menu.current_state.options_selection_list
    texts = [item["text"] for item in options.item_list]
    button = scroll_into_view(app, options, texts.index(label))
    press_button(app, button)


def type_entry(app, name: str, text: str) -> None:
    """Click the field's entry, clear it and type `text`."""
    entry = row_of(app, name).widget
    press_button(app, entry)
    if not entry.is_focused:
        raise DriverError(f"{name}: the entry did not take the focus")
    key(app, pygame.K_END)
    for _ in range(len(entry.get_text())):
        key(app, pygame.K_BACKSPACE)
    for char in text:
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text=char))
    settle(app)
    # a click on the panel's own background takes the focus off the entry
    press_at(app, (app.play.actions.panel.get_abs_rect().right - 3,
                   app.play.actions.panel.get_abs_rect().top + 3))  # fmt: skip


def set_field(app, name: str, value) -> None:
    """Give field `name` its value the way its widget takes it (a target: a click on it)."""
    panel = app.play.actions
    row = row_of(app, name)
    state = app.state
    if isinstance(value, str) and state.has_unit(value) and row is not None and row.kind == "menu":
        unit = state.unit(value)
        click_table(app, screen(app, unit.x, unit.y))
        if panel.values.get(name) == value:
            return
    if row is None:
        raise DriverError(f"{name} has no row on the form")
    if row.kind == "menu":
        choose_option(app, name, value)
    elif row.kind == "toggle":
        press_button(app, row.widget)
    elif row.kind == "entry":
        type_entry(app, name, format_value(value))
    else:
        raise DriverError(f"{name}: a {row.kind} row is not set by hand")


def draw_path(app, path: str) -> None:
    """The move tool's keys for `path`: W per inch ahead, S back, A/D template turns."""
    tool = app.play.move_tool
    if tool is None:
        raise DriverError("picking a move did not open the move tool")
    for step in parse_path(path):
        if step.kind in (StepKind.FORWARD, StepKind.BACKWARD):
            code = pygame.K_w if step.kind is StepKind.FORWARD else pygame.K_s
            inches = int(step.amount)
            for _ in range(inches):
                key(app, code)
            tenths = (step.amount - inches) * 10
            presses, code_mod = tenths, pygame.KMOD_SHIFT  # Shift: 0.1" a press
            if abs(presses - round(presses)) > 1e-6:
                raise DriverError(f"{path}: {step} is not in tenths of an inch")
            for _ in range(round(presses)):
                key(app, code, mod=code_mod)
            continue
        elif step.kind is StepKind.PORT:
            presses, code = step.amount / tool.turn_step, pygame.K_a
        elif step.kind is StepKind.STARBOARD:
            presses, code = step.amount / tool.turn_step, pygame.K_d
        else:
            presses, code = step.amount / tool.turn_step, pygame.K_c
        if abs(presses - round(presses)) > 1e-9:
            raise DriverError(f"{path}: {step} is not a whole number of key presses")
        for _ in range(round(presses)):
            key(app, code)
    if tool.draft.path != path:
        raise DriverError(f"the keys drew {tool.draft.path!r}, not {path!r}")


def declare(app, action: Action, *, use_enter: bool) -> None:
    """Make `action` on the screen and roll it."""
    actor = action.actor if app.state.has_unit(action.actor) else None
    select_on_table(app, actor)
    choice = choice_for(app, action)
    pick_row(app, choice)
    panel = app.play.actions
    moving = app.play.can_draw(choice)
    for spec in choice.fields:
        if spec.name not in action.params or (moving and spec.name == "path"):
            continue
        wanted = action.params[spec.name]
        if panel.values.get(spec.name) != wanted:
            set_field(app, spec.name, wanted)
        if panel.values.get(spec.name) != wanted:
            raise DriverError(
                f"{spec.name}: the panel holds {panel.values.get(spec.name)!r}, not {wanted!r}"
            )
    if moving:
        draw_path(app, action.params["path"])
        key(app, pygame.K_RETURN)
    elif use_enter:
        move(app, screen(app, *app.state.board.bounds[:2]))
        key(app, pygame.K_RETURN)
    else:
        press_button(app, panel.roll_button)
    settle(app, 1)


def pass_go(app, *, use_key: bool) -> None:
    """Next (the key or the button); where it asks first (an attack or a move would be
    thrown away), "Pass anyway"."""
    if use_key:
        key(app, pygame.K_n)
    else:
        press_button(app, app.play.tracker.next_button)
    settle(app, 1)
    warning = app.play.warning
    if warning is not None:
        press_button(app, warning.buttons["pass"])
        settle(app, 1)


def true_game(app) -> Game:
    """The game as played: where the rules hide something, the screen shows the side to
    act only its view (`ui.handover`); the stand-in plays the true game."""
    return app.play.played_session.game


def play_step(app, number: int) -> Game:
    """The stand-in's next action, made on the screen; the game the stand-in expects."""
    if app.play.covered_for() is not None:  # a hot-seat screen changing hands
        key(app, pygame.K_SPACE)
    game = true_game(app)
    expected = expected_next(game)
    step = expected.last_step
    if step.by_session:
        pass_go(app, use_key=number % 2 == 0)
    else:
        declare(app, step.action, use_enter=number % 3 == 0)
    got = true_game(app)
    made_step = got.steps[len(game.steps)] if len(got.steps) > len(game.steps) else None
    if made_step is None or made_step.action != step.action:
        made = made_step.action if made_step is not None else None
        raise DriverError(
            f"step {number}: expected {step.action}, the screen made {made}; "
            f"status: {app.view.status!r}"
        )
    return expected


def play_turns(
    app, turns: int = 2, after_step: Callable[[int], None] | None = None, limit: int = 2000
) -> int:
    """Play until `turns` full turns are over; each step checked against the stand-in. The
    number of steps of the game (the steps the rules leave no choice for the game takes
    itself)."""
    number = 0
    while true_game(app).turn <= turns:
        number += 1
        if number > limit:
            raise DriverError(f"no end of turn {turns} in {limit} steps")
        expected = play_step(app, number)
        # the game then takes the steps the rules leave no choice for (a pass for a side
        # with nothing to do, a step that is the only one open), each marked with why:
        # the stand-in must agree with every one of them
        for made in true_game(app).steps[len(expected.steps) :]:
            if not made.forced:
                raise DriverError(f"step {number}: the screen made {made.action} by itself")
            expected = expected_next(expected)
            if expected.last_step.action != made.action:
                raise DriverError(
                    f"step {number}: the game took {made.action}, the stand-in "
                    f"{expected.last_step.action}"
                )
        if true_game(app).state != expected.state:
            raise DriverError(f"step {number}: the state differs from the stand-in's")
        if after_step is not None:
            after_step(number)
    return len(true_game(app).steps)


__all__ = ["DriverError", "play_step", "play_turns"]
