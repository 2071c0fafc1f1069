"""Solo play on the play screen: the computer plays a side, step by step, with a
why for each action; undo goes back to the human's last decision; the seat menus change
who plays a side during the game; the decisions are made in a child process that closing
the screen stops; the end of the game is shown."""

from __future__ import annotations

import time
from multiprocessing.connection import wait

import pygame
import pygame_gui
import pytest
from ui_events import key

from tactical.agents import with_options
from tactical.cli import main
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.session.controller import Session
from tactical.ui.ai_player import (
    BANNER_TEXT,
    InlineWorker,
    ProcessWorker,
    parse_seats,
)
from tactical.ui.app import App
from tactical.ui.play_panels import hot_seat_text

HUMAN_SIDE, AI_SIDE = "Federation", "Klingon"
FRAME_BUDGET = 0.05  # seconds: the median headless frame while the computer thinks


def duel(turns: int = 1):
    return with_options(load_map(builtin_map("heavy-combat")), turn_limit=turns)


def solo_app(seats, turns: int = 1) -> App:
    state = duel(turns)
    app = App(state, (1280, 800), headless=True, session=Session.new(state, 5))
    app.play.ai.set_seats(seats)
    app.play.ai.worker = InlineWorker()  # the decisions at once: the test steps the frames
    app.play.ai.set_pace("No pause")
    return app


def human_go(app: App) -> None:
    """The human's go: the Result resolved when offered, else a pass (key N)."""
    game = app.play.session.game
    if any(c.kind == "resolve" for c in game.choices()):
        app.play.do(game.declare("resolve", game.side_to_act))
    else:
        key(app, pygame.K_n)


def play_until_over(app: App, limit: int = 400) -> None:
    for _ in range(limit):
        session = app.play.session
        if session.outcome is not None:
            return
        if app.play.ai.is_ai(session.side_to_act):
            app.step()
        else:
            human_go(app)
    raise AssertionError("the game did not end")


def test_parse_seats_reads_side_and_level_and_names_the_sides_on_a_mistake():
    sides = ("A", "B")
    assert parse_seats("B", sides) == {"B": "greedy"}
    assert parse_seats("A:random,B:search", sides) == {"A": "random", "B": "search"}
    with pytest.raises(UserError, match="its sides are A, B"):
        parse_seats("C", sides)
    with pytest.raises(UserError, match="unknown level 'clever'"):
        parse_seats("B:clever", sides)


def test_play_refuses_an_unknown_ai_side_with_exit_2(capsys, tmp_path):
    code = main(
        ["play", str(builtin_map("heavy-combat")), "--ai", "Romulan", "--autosave",
         str(tmp_path / "auto.json")]
    )  # fmt: skip
    assert code == 2
    assert "no side 'Romulan'" in capsys.readouterr().err


def test_the_computer_plays_its_side_with_a_why_for_each_action_and_the_end_is_shown():
    app = solo_app({AI_SIDE: "greedy"})
    play_until_over(app)
    session = app.play.session
    # the steps the game takes by itself (no one chose them) have no why of the computer's
    ai_steps = [s for s in session.game.steps if s.side == AI_SIDE and not s.forced]
    assert ai_steps, "the computer never acted"
    assert all(s.number in app.play.ai.whys for s in ai_steps)
    shown = app.play.ai.annotate([e.text() for e in session.log.entries], limit=0)
    whys = [line for line in shown if "   why: " in line]
    assert len(whys) == len(ai_steps)
    assert session.outcome is not None
    assert session.log.entries[-1].entry == "end"
    frame = app.frame()
    band = [frame.get_at((x, y))[:3] for x in range(10, 600) for y in range(40, 80)]
    assert BANNER_TEXT in band, "the end banner is drawn over the table"
    app.play.close()


def test_undo_takes_back_to_the_humans_last_decision():
    app = solo_app({AI_SIDE: "greedy"}, turns=2)
    for _ in range(60):  # the human passes until the computer has acted after them
        game = app.play.session.game
        if game.steps and game.steps[-1].side == AI_SIDE and len(game.steps) > 4:
            break
        if app.play.ai.is_ai(game.side_to_act):
            app.step()
        else:
            human_go(app)
    game = app.play.session.game
    # the human's last decision (a step the game took by itself for them is no one's)
    human = max(s.number for s in game.steps if s.side == HUMAN_SIDE and not s.forced)
    assert game.steps[-1].side == AI_SIDE
    app.play.ai.set_pace("Space steps")  # the computer waits for Space from now on
    app.play.undo()
    assert app.play.session.step_number == human - 1
    assert app.play.session.side_to_act == HUMAN_SIDE
    app.step()
    assert app.play.session.step_number == human - 1, "the human's go: the computer waits"
    app.play.close()


def test_p_changes_the_pace_and_space_steps_the_computer():
    app = solo_app({HUMAN_SIDE: "greedy"})
    ai = app.play.ai
    paces = []
    for _ in range(4):
        key(app, pygame.K_p)
        paces.append(ai.pace)
    assert paces == [None, 0.6, 2.0, 0.0]  # from "No pause": Space steps, 0.6 s, 2 s, none
    key(app, pygame.K_p)  # Space steps: the computer waits
    app.step()
    assert app.play.session.step_number == 0
    key(app, pygame.K_SPACE)
    app.step()
    app.step()
    assert app.play.session.step_number == 1
    app.play.close()


def test_a_seat_menu_hands_a_side_to_the_computer_during_the_game():
    app = solo_app({AI_SIDE: "random"})
    bar = app.play.ai.bar
    assert bar is not None
    event = pygame.event.Event(
        pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
        ui_element=bar.menus[HUMAN_SIDE],
        text=f"{HUMAN_SIDE}: greedy",
    )
    app.handle(event)
    assert app.play.ai.seats == {HUMAN_SIDE: "greedy", AI_SIDE: "random"}
    app.play.sync()
    assert hot_seat_text(app.play.tracker.view) == f"{HUMAN_SIDE} to act: the computer (greedy)"
    for _ in range(400):  # nobody touches the keyboard: the computer plays it out
        if app.play.session.outcome is not None:
            break
        app.step()
    assert app.play.session.outcome is not None
    app.play.close()


def test_decisions_are_made_in_a_child_process_frames_go_on_and_close_stops_it():
    state = duel()
    session = Session.new(state, 3)
    app = App(state, (1280, 800), headless=True, session=session)
    app.play.ai.set_seats({HUMAN_SIDE: "search"})
    assert isinstance(app.play.ai.worker, ProcessWorker)
    frames = []
    deadline = time.monotonic() + 120
    while app.play.session.step_number == 0 and time.monotonic() < deadline:
        start = time.perf_counter()  # a frame as the loop runs it, while the child thinks
        app.step()
        app.frame()
        frames.append(time.perf_counter() - start)
    assert app.play.session.step_number == 1, "the computer's decision arrived"
    assert app.play.session.game.steps[0].side == HUMAN_SIDE
    frames.sort()
    assert frames[len(frames) // 2] < FRAME_BUDGET, "frames stay under budget while it thinks"
    children = list(app.play.ai.worker._pool._processes.values())  # type: ignore[union-attr]
    assert children and all(child.is_alive() for child in children)
    app.play.close()  # what closing the window does
    # a child's sentinel is ready once its process has ended. Not `join` + `is_alive`: the
    # pool's own thread reaps the child too, and CPython's `Popen.poll` then reads the
    # lost race as "still running" (cpython gh-130895), whatever the test order
    ended = wait([child.sentinel for child in children], timeout=10)
    assert len(ended) == len(children), "closing stops every decision child"
