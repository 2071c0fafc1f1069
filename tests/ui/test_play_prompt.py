"""The prompt beside Next says what is true (issue h19b): whose go it is and who plays it:
a human at the mouse, the computer at its level, or, in a replay, where the replay stands
(nobody takes the mouse); once the game is over, its result."""

from __future__ import annotations

from dataclasses import replace

import pygame
from ui_events import key

from tactical.agents import with_options
from tactical.io import builtin_map, load_map
from tactical.rules.base import Phase
from tactical.rules.ending import Outcome
from tactical.session.controller import Session
from tactical.ui.ai_player import InlineWorker
from tactical.ui.app import App
from tactical.ui.play_panels import ReplayView, TrackerView, hot_seat_text

FED, KLINGON = "Federation", "Klingon"


def duel_app(seats) -> App:
    state = with_options(load_map(builtin_map("heavy-combat")), turn_limit=1)
    app = App(state, (1280, 800), headless=True, session=Session.new(state, 5))
    app.play.ai.set_seats(seats)
    app.play.ai.worker = InlineWorker()
    app.play.ai.set_pace("Space steps")  # the computer waits: the test reads the prompt
    app.play.sync()
    return app


def drawn(app: App) -> str:
    """The prompt as drawn: the label's text after a frame."""
    app.step()
    return app.play.tracker.side_label.text


def test_the_prompt_names_the_computer_and_its_level_when_it_plays_the_side_to_act():
    app = duel_app({FED: "greedy", KLINGON: "random"})
    assert app.play.session.side_to_act == FED
    text = drawn(app)
    assert "mouse" not in text
    assert text.startswith(FED) and "computer" in text and "greedy" in text
    app.play.close()


def test_a_human_side_to_act_is_asked_to_take_the_mouse():
    app = duel_app({KLINGON: "search"})
    assert drawn(app) == f"{FED} to act: take the mouse"
    app.play.close()


def test_a_replay_says_where_it_stands_and_nobody_takes_the_mouse():
    app = duel_app({})
    key(app, pygame.K_n)  # two passes, hot seat
    key(app, pygame.K_n)
    assert app.play.session.step_number == 2
    assert app.play.start_replay()
    assert drawn(app) == f"Replay 0 of 2: {FED} to act"
    key(app, pygame.K_PAGEDOWN)
    assert drawn(app) == f"Replay 1 of 2: {KLINGON} to act"
    app.play.end_replay()
    assert drawn(app) == f"{FED} to act: take the mouse"
    app.play.close()


def test_a_replay_of_computer_players_does_not_say_the_computer_plays():
    app = duel_app({FED: "greedy", KLINGON: "greedy"})
    app.play.ai.set_pace("No pause")
    for _ in range(4):
        app.step()
    played = app.play.session.step_number
    assert played >= 2
    assert app.play.start_replay()
    text = drawn(app)
    assert text == f"Replay 0 of {played}: {FED} to act"
    app.play.close()


def test_the_prompt_wordings_longest_first_as_room_allows():
    phases = (Phase("Fight", "R1"),)
    view = TrackerView(1, phases, 0, "B", ("A", "B"), 0, 3)
    roomy = lambda text: True  # noqa: E731
    assert hot_seat_text(view, roomy) == "B to act: take the mouse"
    ai = TrackerView(1, phases, 0, "B", ("A", "B"), 0, 3, computer="search")
    assert hot_seat_text(ai, roomy) == "B to act: the computer (search)"
    assert hot_seat_text(ai, lambda text: len(text) <= 20) == "B: computer (search)"
    assert hot_seat_text(ai, lambda text: False) == "B to act"
    replay = TrackerView(1, phases, 0, "B", ("A", "B"), 0, 3, replay=ReplayView(3, 7))
    assert hot_seat_text(replay, roomy) == "Replay 3 of 7: B to act · Page Down: next"
    assert hot_seat_text(replay, lambda text: len(text) <= 25) == "Replay 3 of 7: B to act"
    at_end = TrackerView(1, phases, 0, "B", ("A", "B"), 0, 7, replay=ReplayView(7, 7))
    assert hot_seat_text(at_end, roomy) == "Replay 7 of 7: B to act · its end"
    won = Outcome("A", (("A", 0.5), ("B", 0.0)), "annihilation", "R1", 1)
    over = TrackerView(1, phases, 0, "B", ("A", "B"), 0, 9, outcome=won)
    assert hot_seat_text(over, roomy) == "Game over: A wins"
    drawn_game = replace(over, outcome=replace(won, winner=None))
    assert hot_seat_text(drawn_game, roomy) == "Game over: Draw"
    replayed = replace(over, replay=ReplayView(9, 9))
    assert hot_seat_text(replayed, roomy) == "Replay 9 of 9: game over, A wins"
    assert hot_seat_text(replayed, lambda text: len(text) < 30) == "Replay 9 of 9: A wins"


def test_once_the_game_is_over_the_prompt_gives_the_result_in_the_winners_colour():
    app = duel_app({FED: "greedy", KLINGON: "greedy"})
    app.play.ai.set_pace("No pause")
    for _ in range(400):
        if app.play.session.outcome is not None:
            break
        app.step()
    outcome = app.play.session.outcome
    assert outcome is not None
    result = "Draw" if outcome.winner is None else f"{outcome.winner} wins"
    assert drawn(app) == f"Game over: {result}"
    tracker = app.play.tracker
    assert tracker.view is not None and tracker.view.side_to_act == FED
    won = replace(tracker.view, outcome=replace(outcome, winner=KLINGON))
    tracker.update(won)
    assert tracker.side_label.text == f"Game over: {KLINGON} wins"
    assert tracker._side_colour == won.colour(KLINGON) != won.colour(FED)
    app.play.close()


def test_online_the_players_own_turn_reads_your_move_and_the_others_elsewhere():
    """On a player's own screen online nobody is at it to take the mouse: their turn reads
    as theirs, the other side's as played on the other screen."""
    phases = (Phase("Fight", "R1"),)
    roomy = lambda text: True  # noqa: E731
    mine = TrackerView(1, phases, 0, "B", ("A", "B"), 0, 3, yours=True)
    assert hot_seat_text(mine, roomy) == "B to act: your move"
    theirs = TrackerView(1, phases, 0, "A", ("A", "B"), 0, 3, elsewhere=True)
    assert hot_seat_text(theirs, roomy) == "A to act: on the other player's screen"
