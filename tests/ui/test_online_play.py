"""Online play on the play screen: a game hosted from the screen's Host… window and joined
by a second copy (a `RemoteSession` in the test, over loopback); what is declared on the
screen arrives at the other copy; the screen says whom it waits for; an undo is asked
and answered in a window; chat reaches the other copy and the log; a watcher's screen
declares nothing. Every server takes a free port, and every wait is bounded."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pygame
import pygame_gui
import pytest
from ui_events import key, press_button, settle
from ui_play_driver import declare, pass_go

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.net.client import RemoteSession
from tactical.net.hosting import start_hosting
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.ui.app import App, run_online
from tactical.ui.online_dialogs import NOBODY_PLAYS, parse_port
from tactical.ui.online_play import with_chat

SIZE = (1280, 800)
SECONDS = 20.0  # the longest any one wait may take (a loaded machine); most take ms


def frames_until(app: App, done: Callable[[], bool], *others: RemoteSession) -> bool:
    """Frames as the window's loop runs them (the other copies polled too) until `done`."""
    end = time.monotonic() + SECONDS
    while time.monotonic() < end:
        app.step()
        app.pump()
        for other in others:
            other.poll()
        if done():
            return True
        time.sleep(0.003)
    return done()


def pick_menu(app: App, menu, label: str) -> None:
    """Open a drop-down and click its option `label`, as a person would."""
    if menu.selected_option[0] == label:
        return
    press_button(app, menu.current_state.selected_option_button)
    listing = menu.current_state.options_selection_list
    row = next(item for item in listing.item_list if item["text"] == label)
    press_button(app, row["button_element"])
    assert menu.selected_option[0] == label


def type_into(app: App, entry, text: str) -> None:
    press_button(app, entry)
    assert entry.is_focused
    key(app, pygame.K_END)
    for _ in range(len(entry.get_text())):
        key(app, pygame.K_BACKSPACE)
    for char in text:
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text=char))
    settle(app)


def screen_app(map_name: str) -> App:
    state = load_map(builtin_map(map_name))
    app = App(state, SIZE, headless=True, session=Session.new(state, 5))
    settle(app)
    return app


@contextmanager
def hosted(map_name: str, side: str) -> Iterator[App]:
    """A window that hosts its game from Host…, playing `side`, on a free port."""
    app = screen_app(map_name)
    try:
        press_button(app, app.top.buttons["host"])
        dialog = app.play.online.hosting.host_dialog
        assert dialog is not None and dialog.alive
        pick_menu(app, dialog.side, side)
        type_into(app, dialog.port, "0")  # any free port
        press_button(app, dialog.ok)
        assert frames_until(app, lambda: app.play.online.hosting.server is not None), (
            app.view.status
        )
        yield app
    finally:
        app.play.close()


@contextmanager
def joined(app: App, side: str | None) -> Iterator[RemoteSession]:
    """The second copy: the seat of `side` with its token from the Host window (None:
    watching with the window's watch line)."""
    window = app.play.online.hosting.invite_window
    assert window is not None and window.alive
    if side is None:
        line = window.text_of("to watch")
        address = line.split()[2]
        other = RemoteSession.join(address, watch=True)
    else:
        line = window.text_of(side)
        address, token = line.split()[2], line.split("--token ")[1]
        other = RemoteSession.join(address, token)
    try:
        yield other
    finally:
        other.close()


def same_game(app: App, other: RemoteSession) -> bool:
    return other.game.step_number == app.play.session.game.step_number


def next_action(app: App):
    return autoplay.next_game(app.play.session.game).last_step


def play_on(app: App, other: RemoteSession, screen_side: str) -> None:
    """The stand-in's next step: on the screen (synthetic events) for `screen_side`, else
    sent by the other copy; then frames until both copies have it."""
    game = app.play.session.game
    step = next_action(app)
    before = game.step_number
    if game.side_to_act == screen_side:
        if step.by_session:
            pass_go(app, use_key=True)
        else:
            declare(app, step.action, use_enter=False)
    else:
        other.submit(step.action)

    server = app.play.online.hosting.server

    def arrived() -> bool:
        # and the server idle: the steps the game takes by itself after it are in too
        idle = server is None or (server.dice.waiting is None and not server.lock.locked())
        versions = server is None or app.play.session.version == other.version == server.version
        return (
            app.play.session.game.step_number > before
            and same_game(app, other)
            and idle
            and versions
        )

    assert frames_until(app, arrived, other), (step.action, app.view.status, other.status)


def panel_text(app: App) -> str:
    app.step()
    app.frame()
    return app.play.actions.problem_box.html_text


def test_hosted_on_the_screen_a_move_and_an_attack_declared_there_arrive_at_the_other_copy():
    with hosted("dystopian-wars", "B") as app, joined(app, "A") as other:
        online = app.play.online
        assert online.headline().startswith("hosting on 127.0.0.1:")
        assert online.headline() in app.top.title.text  # the top bar says where
        assert "--token" not in " ".join(app.play.log.lines)  # the tokens stay in the window
        kinds: list[str] = []
        for _ in range(40):
            if {"move", "resolve-attack"} <= set(kinds):
                break
            mine = app.play.session.game.side_to_act == "B"
            play_on(app, other, "B")
            if mine:
                kinds.extend(s.action.kind for s in app.play.session.game.steps[-3:])
        made = {s.action.kind for s in other.game.steps if s.side == "B"}
        assert {"move", "resolve-attack"} <= made
        # the other copy's game is the server's, step for step, and so is the screen's
        assert other.game.state == app.play.session.game.state
        attack = next(s for s in reversed(other.game.steps) if s.action.kind == "resolve-attack")
        assert attack.rolls and attack.fair is not None  # its dice were made fairly
        assert other.problems == [] and app.play.session.problems == []
        # the screen shows the last step as after one played on it: log, result, status
        assert app.play.result is not None
        assert any(line.startswith(f"#{attack.number} ") for line in app.play.log.lines)


def test_while_the_other_side_has_the_go_the_panel_says_whom_it_waits_for():
    with hosted("heavy-combat", "Klingon") as app, joined(app, "Federation") as other:
        assert app.play.session.side_to_act == "Federation"
        assert frames_until(app, lambda: "waiting for Federation…" in panel_text(app))
        assert app.play.actions.choices == ()
        assert not app.play.tracker.next_button.is_enabled
        key(app, pygame.K_n)  # Next passes no go of the other player's
        assert app.play.session.history.length == 0
        play_on(app, other, "Klingon")  # Federation's go, sent by the other copy
        assert app.play.session.game.steps[0].side == "Federation"
        assert app.view.status.startswith("#1 ")  # the step arrived: said as a local one
        assert frames_until(app, lambda: "waiting for" not in panel_text(app))
        assert app.play.actions.choices  # Klingon's go: the screen offers its choices


def test_an_undo_asked_from_the_other_copy_is_a_question_and_accept_takes_both_back():
    with hosted("heavy-combat", "Federation") as app, joined(app, "Klingon") as other:
        for _ in range(3):
            play_on(app, other, "Federation")
        steps = app.play.session.game.step_number
        assert steps >= 3 and other.game.step_number == steps
        other.ask_undo()
        assert frames_until(app, lambda: app.play.online.question is not None)
        question = app.play.online.question
        assert question.question == "Klingon asks to undo the last decision"
        assert "Klingon asks to undo the last decision" in panel_text(app)
        press_button(app, question.buttons["accept"])
        assert frames_until(
            app, lambda: app.play.session.game.step_number < steps and same_game(app, other), other
        )
        assert not question.alive and app.play.online.question is None
        assert app.view.status.startswith("undone, as agreed")
        assert other.game.state == app.play.session.game.state


def test_undo_on_the_screen_asks_the_other_player_and_redo_is_off_with_its_reason():
    with hosted("heavy-combat", "Federation") as app, joined(app, "Klingon") as other:
        play_on(app, other, "Federation")
        play_on(app, other, "Federation")
        steps = app.play.session.game.step_number
        redo = app.play.log.buttons["redo"]
        assert not redo.is_enabled and "online" in redo.tool_tip_text
        key(app, pygame.K_y, mod=pygame.KMOD_CTRL)
        assert app.view.status.startswith("Redo: not in an online game")
        key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
        assert app.view.status.startswith("asked the other player to undo")
        assert other.wait_until(lambda o: o.undo_asked_by == "Federation")
        assert frames_until(app, lambda: "waiting for Klingon…" in panel_text(app))
        other.answer_undo(False)
        assert frames_until(app, lambda: "declined" in app.view.status, other)
        assert app.play.session.game.step_number == steps  # declined: nothing went back


def test_chat_said_on_the_screen_reaches_the_other_copy_and_both_logs():
    with hosted("heavy-combat", "Federation") as app, joined(app, "Klingon") as other:
        chat = app.play.online.chat
        assert chat.visible and app.play.log.panel.get_abs_rect().bottom <= chat.rect.top
        type_into(app, chat, "good luck")
        key(app, pygame.K_RETURN)
        settle(app)
        assert chat.get_text() == ""
        assert other.wait_until(lambda o: any(c.text == "good luck" for c in o.chat))
        assert (other.chat[-1].side, other.chat[-1].text) == ("Federation", "good luck")
        other.say("and to you")
        assert frames_until(app, lambda: "Klingon says: and to you" in app.play.log.lines)
        assert "Federation says: good luck" in app.play.log.lines


def test_a_watchers_screen_declares_nothing():
    with (
        hosted("heavy-combat", "Federation") as app,
        joined(app, "Klingon") as other,
        joined(app, None) as watcher,
    ):
        watching = screen_app_of(watcher)
        try:
            assert watching.play.online.active and watcher.watching
            assert "watching: read-only" in panel_text(watching)
            assert watching.play.actions.choices == ()
            key(watching, pygame.K_n)
            assert watching.view.status.startswith("watching: read-only")
            assert "read-only" in watching.play.online.bar.html_text
            chat = watching.play.online.chat
            assert not chat.is_enabled  # a watcher writes nothing to the players
            assert not watching.play.log.buttons["undo"].is_enabled  # nor asks for an undo
            play_on(app, other, "Federation")  # the watcher sees the step played
            assert frames_until(watching, lambda: watcher.game.step_number >= 1)
            assert watching.view.status.startswith("#1 ")
            assert watcher.steps_seen >= 1 and not watcher.problems
        finally:
            watching.play.close()


def screen_app_of(session: RemoteSession) -> App:
    """A window opened on a joined game, as `tactical join` opens it."""
    app = App(session.game.initial, SIZE, headless=True, session=session)
    settle(app)
    return app


def test_join_from_the_screen_switches_to_the_joined_game_and_says_a_refusal_in_words():
    state = load_map(builtin_map("heavy-combat"))
    server, _, invite = start_hosting(Session.new(state, 7), host_side=None, port=0)
    app = screen_app("battlefleet-mars")  # another game: the joined one replaces it
    try:
        press_button(app, app.top.buttons["join"])
        dialog = app.play.online.hosting.join_dialog
        assert dialog is not None
        type_into(app, dialog.address, invite.address)
        type_into(app, dialog.token, "not-a-token")
        press_button(app, dialog.ok)
        assert frames_until(app, lambda: "refused" in dialog.problem.html_text)
        assert dialog.alive and not app.play.online.active
        token = invite.lines["Klingon"].split("--token ")[1]
        type_into(app, dialog.token, token)
        press_button(app, dialog.ok)
        assert frames_until(app, lambda: app.play.online.active)
        assert not dialog.alive
        session = app.play.session
        assert session.side == "Klingon" and app.state.rules == state.rules
        assert app.play.online.headline() == f"online at {invite.address}"
        assert "You play Klingon" in app.play.online.bar.html_text
    finally:
        app.play.close()
        server.stop()
    assert app.play.session.link.closed.is_set()  # closing the window closed the link


def test_closing_the_window_stops_the_server_it_hosts():
    with hosted("heavy-combat", "Federation") as app:
        server = app.play.online.hosting.server
        address = app.play.online.hosting.invite.address
    assert server is not None
    app.play.online.close()  # closed twice (`run_online` closes after the loop): no harm
    with pytest.raises(UserError):
        RemoteSession.join(address, watch=True, seconds=2)


def test_a_serve_only_host_watches_its_own_game():
    app = screen_app("heavy-combat")
    try:
        press_button(app, app.top.buttons["host"])
        dialog = app.play.online.hosting.host_dialog
        pick_menu(app, dialog.side, NOBODY_PLAYS)
        type_into(app, dialog.port, "0")
        press_button(app, dialog.ok)
        assert frames_until(app, lambda: app.play.online.hosting.server is not None)
        window = app.play.online.hosting.invite_window
        assert set(window.lines) == {"Federation", "Klingon", "to watch"}
        assert app.play.session.watching
        assert "watching: read-only" in panel_text(app)
    finally:
        app.play.close()


def test_a_bad_port_is_refused_in_the_host_window():
    app = screen_app("heavy-combat")
    try:
        press_button(app, app.top.buttons["host"])
        dialog = app.play.online.hosting.host_dialog
        type_into(app, dialog.port, "99999")
        press_button(app, dialog.ok)
        assert "port: a whole number" in dialog.problem.html_text
        assert app.play.online.hosting.server is None and not app.play.online.active
        assert app.play.online.hosting.work is None
    finally:
        app.play.close()
    with pytest.raises(UserError):
        parse_port("http")


def test_the_invitation_lines_are_read_only_and_copy_to_the_clipboard():
    with hosted("heavy-combat", "Federation") as app:
        window = app.play.online.hosting.invite_window
        line = window.lines["Klingon"]
        text = line.get_text()
        assert text.startswith("tactical join 127.0.0.1:") and "--token " in text
        press_button(app, line)
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text="x"))
        key(app, pygame.K_BACKSPACE)
        settle(app)
        assert line.get_text() == text  # selectable, but no edit sticks
        press_button(app, window.copy["Klingon"])
        assert "clipboard" in app.view.status
        if "on the clipboard" in app.view.status:
            assert pygame.scrap.get_text() == text
        app.handle(pygame.event.Event(pygame_gui.UI_WINDOW_CLOSE, ui_element=window.window))
        press_button(app, app.top.buttons["host"])  # Host… again: the lines again
        assert app.play.online.hosting.invite_window is not None


def test_chat_lines_go_after_the_step_they_were_said_at():
    from tactical.io.saves import ChatLine

    lines = ("#0 Duel, seed 5", "turn 1, Power: A to act", "#1 A: rolled", "   dice: 4", "#2 B")
    chat = [ChatLine(0, "A", "hi"), ChatLine(1, "B", "nice"), ChatLine(2, "A", "bye")]
    assert with_chat(lines, chat, 100) == (
        "#0 Duel, seed 5",
        "turn 1, Power: A to act",
        "A says: hi",
        "#1 A: rolled",
        "   dice: 4",
        "B says: nice",
        "#2 B",
        "A says: bye",
    )
    assert with_chat(lines, [], 100) == lines
    assert with_chat(lines[2:], chat, 3) == ("B says: nice", "#2 B", "A says: bye")


def test_a_reveal_that_breaks_the_servers_commitment_is_shown_in_red():
    with hosted("heavy-combat", "Federation") as app, joined(app, "Klingon") as other:
        server = app.play.online.hosting.server
        server.reveal = lambda chain, index: "00" * 32  # a cheating server's value
        assert next_action(app).rolls  # the next step rolls dice
        play_on(app, other, "Federation")
        assert frames_until(app, lambda: "check failed" in app.play.online.bar.html_text)
        html = app.play.online.bar.html_text
        assert "#ff6b6b" in html and "tampered" in html
        assert app.play.session.problems and other.problems


def test_a_lost_connection_is_said_on_the_screen():
    with hosted("heavy-combat", "Federation") as app:
        assert frames_until(app, lambda: app.play.actions.choices != ())
        assert "connected" in app.play.online.bar.html_text
        app.play.online.hosting.server.stop()
        assert frames_until(app, lambda: "reconnecting in" in app.play.online.bar.html_text)
        assert "#ffc857" in app.play.online.bar.html_text  # amber: it tries again
        assert "(try " in app.play.online.bar.html_text
        assert "reconnecting in" in app.view.status


def test_run_online_opens_the_window_shows_the_invite_and_stops_server_and_link_on_close(
    monkeypatch,
):
    state = load_map(builtin_map("heavy-combat"))
    server, mine, invite = start_hosting(Session.new(state, 5), host_side="Federation", port=0)
    seen: dict[str, object] = {}
    loop = App.run

    def run(app: App) -> int:
        online = app.play.online
        seen["online"] = online.active and app.play.session is mine
        seen["invite"] = (
            online.hosting.invite_window is not None and online.hosting.invite_window.alive
        )
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window's close button
        said = loop(app)
        seen["title"] = app.top.title.text.startswith(f"hosting on {invite.address}")
        return said

    monkeypatch.setattr(App, "run", run)
    assert run_online(mine, SIZE, server=server, invite=invite, headless=True) == 0
    assert seen == {"online": True, "invite": True, "title": True}
    assert mine.link.closed.is_set()
    with pytest.raises(UserError):
        RemoteSession.join(invite.address, watch=True, seconds=2)


def test_host_window_sets_what_watchers_see_where_the_rules_hide_something():
    """Host…'s "watchers" choice reaches the server: watchers of a Heavy Combat game see the
    Federation's view (R001.29) when the host picks it; both sides' view by default."""
    app = screen_app("heavy-combat")
    try:
        press_button(app, app.top.buttons["host"])
        dialog = app.play.online.hosting.host_dialog
        assert dialog is not None and dialog.choice().watchers is None  # both, by default
        pick_menu(app, dialog.watchers, "watchers: Federation")
        type_into(app, dialog.port, "0")
        press_button(app, dialog.ok)
        assert frames_until(app, lambda: app.play.online.hosting.server is not None)
        assert app.play.online.hosting.server.watchers == "Federation"
    finally:
        app.play.close()
