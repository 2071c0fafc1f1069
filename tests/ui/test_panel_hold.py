"""The action panel while nobody at the mouse may declare (issue h19c): while the computer
has the side to act's go, the panel says so (its level, what it is at, what the human may
do meanwhile) and lists no choice, and nothing on it acts for the computer; once the game
is over, it shows the result, Next is off, and Undo still goes back."""

from __future__ import annotations

from concurrent.futures import Future

import pygame
import pygame_gui
from ui_events import key, press_at, press_button

from tactical.agents import with_options
from tactical.io import builtin_map, load_map
from tactical.present.declaration import unique_labels
from tactical.session.controller import Session
from tactical.ui.ai_player import InlineWorker
from tactical.ui.app import App

FED, KLINGON = "Federation", "Klingon"


def duel_app(seats, pace: str = "Space steps", worker=None) -> App:
    state = with_options(load_map(builtin_map("heavy-combat")), turn_limit=1)
    app = App(state, (1280, 800), headless=True, session=Session.new(state, 5))
    app.play.ai.set_seats(seats)
    app.play.ai.worker = worker or InlineWorker()
    app.play.ai.set_pace(pace)
    app.step()
    return app


def panel_text(app: App) -> str:
    """What the panel's text box says, as drawn after a frame."""
    app.step()
    app.frame()
    return app.play.actions.problem_box.html_text


def shown_inside(app: App, element) -> bool:
    return app.play.actions.panel.get_abs_rect().contains(element.get_abs_rect())


class NeverDone:
    """A worker whose decision never arrives: the computer stays at its thinking."""

    def submit(self, game, level, seed, options) -> Future:
        return Future()

    def close(self) -> None:
        return None


def test_while_the_computer_has_the_go_the_panel_says_so_and_a_click_does_not_act():
    app = duel_app({FED: "greedy"})
    session, panel = app.play.session, app.play.actions
    assert session.side_to_act == FED
    offered = session.choices()  # what the panel listed for the computer's side before
    assert offered
    text = panel_text(app)
    assert f"{FED}: played by the computer (greedy)" in text
    assert "Space" in text and "Undo" in text  # it waits for Space; the human may undo
    assert panel.choices == () and panel.choice_list.item_list == []
    assert "pick an action" not in text
    assert shown_inside(app, panel.problem_box) and not shown_inside(app, panel.choice_list)
    # clicks on the panel where the list was, on its buttons, and the list's own event for
    # a row the panel used to offer: none of them declares for the computer
    press_at(app, panel.choice_list.get_abs_rect().center)
    press_at(app, panel.problem_box.get_abs_rect().center)
    press_button(app, panel.roll_button)
    label = unique_labels(tuple(offered))[0]
    app.handle(pygame.event.Event(
        pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=panel.choice_list, text=label
    ))  # fmt: skip
    key(app, pygame.K_RETURN)
    key(app, pygame.K_n)  # Next passes no go of the computer's either
    press_button(app, app.play.tracker.next_button)
    assert not app.play.tracker.next_button.is_enabled
    assert session.step_number == 0 and session.history.length == 0
    assert "played by the computer" in app.view.status
    key(app, pygame.K_SPACE)  # Space still steps the computer
    app.step()
    app.step()
    assert session.step_number == 1 and session.game.steps[0].side == FED
    app.play.close()


def test_the_panel_says_the_computer_is_thinking_and_lists_again_once_handed_back():
    app = duel_app({FED: "search"}, pace="No pause", worker=NeverDone())
    assert app.play.ai.thinking
    assert "played by the computer (search)" in panel_text(app)
    assert "thinking" in panel_text(app)
    menu = app.play.ai.bar.menus[FED]  # the side's menu at the top hands it to a human
    app.handle(pygame.event.Event(
        pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=menu, text=f"{FED}: Human"
    ))  # fmt: skip
    text = panel_text(app)
    assert "computer" not in text and "pick an action from the list" in text
    assert app.view.status == f"{FED}: played by a human"  # reads right for "Cylons" too
    assert app.play.actions.choices and app.play.tracker.next_button.is_enabled
    assert app.play.tracker.side_label.text.startswith(f"{FED} to act")
    app.play.close()


def test_a_side_handed_to_the_computer_drops_the_declaration_the_human_had_open():
    app = duel_app({})
    panel = app.play.actions
    panel.pick(0)
    assert panel.picked is not None and panel.roll_button.is_enabled
    menu = app.play.ai.bar.menus[FED]
    app.handle(pygame.event.Event(
        pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=menu, text=f"{FED}: random"
    ))  # fmt: skip
    assert "played by the computer (random)" in panel_text(app)
    assert panel.picked is None and not panel.roll_button.is_enabled
    assert app.play.tracker.side_label.text.startswith(f"{FED}: computer")
    key(app, pygame.K_RETURN)
    assert app.play.session.step_number == 0
    app.play.close()


def test_once_the_game_is_over_the_panel_shows_the_result_and_next_is_off():
    app = duel_app({FED: "greedy", KLINGON: "greedy"}, pace="No pause")
    session = app.play.session
    for _ in range(400):
        if session.outcome is not None:
            break
        app.step()
    outcome = session.outcome
    assert outcome is not None
    app.play.ai.set_pace("Space steps")  # after the undo below, the computer waits
    text = panel_text(app)
    assert "Game over" in text and outcome.headline().split(" (")[0] in text
    assert "Undo" in text and "End " not in text
    panel = app.play.actions
    assert panel.choices == () and panel.choice_list.item_list == []
    assert shown_inside(app, panel.problem_box) and not shown_inside(app, panel.choice_list)
    assert not panel.roll_button.is_enabled
    next_button = app.play.tracker.next_button
    assert not next_button.is_enabled
    steps, length = session.step_number, session.history.length
    press_button(app, next_button)
    key(app, pygame.K_n)
    assert (session.step_number, session.history.length, session.outcome) == (
        steps,
        length,
        outcome,
    )
    app.play.undo()  # Undo goes back into the game
    assert session.outcome is None and session.step_number < steps
    assert "Game over" not in panel_text(app)
    app.play.close()
