"""Online play on the play screen: hosting, joining, the connection, undo requests, chat.

`OnlinePlay` is the play screen's online part. The screen plays through the session's
hooks (`Session.submit`, `hold_reason`, `poll`), which are plain on one screen; a
`RemoteSession` (tactical.net.client) sends the action to the server instead and the
step comes back through `poll`, once a frame, never waited for. Here:

- `update` polls, and when steps arrived brings the panels, the log, the tracker and the
  table (the last attack drawn, the result on the cards) up to date exactly as after a
  step played on this screen; the lines the connection says go on the status line.
- `hold_lines`: why nobody here may declare ("waiting for Klingon…", "watching:
  read-only", the connection lost), in the action panel's place.
- The bar at the top of the play column says where the game is served and who plays it
  here, the connection (reconnecting, refused, given up) and, in red, any reveal of the
  server's that does not match what it committed to before play (`RemoteSession.problems`).
- The other player's undo request is a question (`UndoQuestion`); Redo is off, and says why.
- Chat: one line under the log; the lines said appear in the log with the side's name.
- Host… and Join… (`HostDialog`, `JoinDialog`): the server is started, or the game
  joined, off the frame loop (a thread), and the screen switches to the `RemoteSession`.
  The lines the other players type (with their seats' tokens) are shown in the Host
  window (`InviteWindow`) only, never in the log. Closing stops the server and the link.

Nothing here names a rule system.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import replace
from html import escape
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextBox, UITextEntryLine

from tactical.errors import UserError
from tactical.io.saves import ChatLine
from tactical.net.client import RemoteSession
from tactical.net.hosting import LOOPBACK, Invite, start_hosting
from tactical.net.server import GameServer
from tactical.session.game import Game, Step
from tactical.ui.ai_player import HUMAN
from tactical.ui.online_dialogs import (
    ACCEPT,
    HostChoice,
    HostDialog,
    InviteWindow,
    JoinChoice,
    JoinDialog,
    UndoQuestion,
    copy_to_clipboard,
)
from tactical.ui.play_panels import TrackerView
from tactical.ui.results import step_status
from tactical.ui.services import PANEL_WIDTH, TOP_BAR

BAR_HEIGHT = 58  # two lines of the widgets' font in a text box
CHAT_HEIGHT = 28
GAP = 4
PROBLEM_RED = "#ff6b6b"
WARNING_AMBER = "#ffc857"
FINE_GREEN = "#8fd694"
WATCH_TIP = "watching: a watcher changes nothing in the game"
CHAT_TIP = "Enter sends the line to the other players (and into the save)"
REDO_TIP = "Redo: not in an online game (only an undo both players agree to goes back)"
UNDO_TIP = "Ctrl+Z: ask the other player to agree to undo the last decision"
RESET_TIP = "Reset: not in an online game (ask for an undo instead)"
SLIDER_TIP = "in an online game the game goes back only by an undo both players agree to"


def asks_to_undo(session: Any) -> bool:
    """Whether Undo asks the other players (a game served online: `ask_undo`) rather than
    goes back at once, and Redo is off."""
    if not getattr(session, "online", False) or getattr(session, "undo_at_once", False):
        return False
    return callable(getattr(session, "ask_undo", None))


def chat_words(line: ChatLine) -> str:
    """A chat line as the log shows it."""
    return f"{line.side} says: {line.text}"


def with_chat(lines: Sequence[str], chat: Sequence[ChatLine], limit: int) -> tuple[str, ...]:
    """The log's lines with each chat line after the lines of the step it was said at
    (`ChatLine.step`: the steps played by then); the last `limit` lines."""
    if not chat:
        return tuple(lines)
    numbers = [_step_number(line) for line in lines]
    first = next((n for n in numbers if n is not None), 0)
    said = [c for c in chat if c.step >= first - 1 or first == 0]
    out: list[str] = []
    index = 0
    for line, number in zip(lines, numbers, strict=True):
        if number is not None:
            while index < len(said) and said[index].step < number:
                out.append(chat_words(said[index]))
                index += 1
        out.append(line)
    out.extend(chat_words(c) for c in said[index:])
    return tuple(out[-limit:]) if limit > 0 else tuple(out)


def _step_number(line: str) -> int | None:
    head = line.split(" ", 1)[0]
    return int(head[1:]) if head.startswith("#") and head[1:].isdigit() else None


class _Work:
    """Something slow (starting a server, joining a game) done in a thread of its own:
    the frame loop only looks whether it is done."""

    def __init__(self, kind: str, work: Callable[[], Any]) -> None:
        self.kind = kind
        self.future: Future = Future()
        thread = threading.Thread(target=self._run, args=(work,), name=f"tactical-{kind}")
        thread.daemon = True
        thread.start()

    def _run(self, work: Callable[[], Any]) -> None:
        try:
            self.future.set_result(work())
        except BaseException as error:  # handed to the screen, which says it in the dialog
            self.future.set_exception(error)


class OnlinePlay:
    """The play screen's online part (see the module docstring). `screen` is the
    `PlayScreen`: its `session`, `services`, `sync`, `new_game`, `result`, `actions`."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.server: GameServer | None = None
        self.invite: Invite | None = None
        manager = screen.services.manager
        self.bar = UITextBox(" ", pygame.Rect(0, 0, PANEL_WIDTH, BAR_HEIGHT), manager)
        self.chat = UITextEntryLine(
            pygame.Rect(0, 0, PANEL_WIDTH, CHAT_HEIGHT), manager, placeholder_text="Say…"
        )
        self.chat.set_tooltip(CHAT_TIP)
        self.host_dialog: HostDialog | None = None
        self.join_dialog: JoinDialog | None = None
        self.invite_window: InviteWindow | None = None
        self.question: UndoQuestion | None = None
        self.work: _Work | None = None
        self._bar_html = ""
        self._held: tuple[str, ...] | None = None
        self._chat_lines = 0  # chat lines in the log
        self.news = False  # whether the last update changed anything shown (the loop draws)
        self._tips: dict[Any, str] = {}  # the log's controls' own tips, while changed here
        self._show(False)

    # ------------------------------------------------------------------ where it stands

    @property
    def session(self) -> Any:
        """The session played (not a side's view of it: an online game is drawn whole)."""
        screen = self.screen
        return getattr(screen, "played_session", None) or screen.session

    @property
    def active(self) -> bool:
        """Whether the game on the screen is played online."""
        return bool(getattr(self.session, "online", False))

    @property
    def listening(self) -> bool:
        """Whether news may come without an event (online, or a host or join under way):
        the window's loop then looks often."""
        return self.active or self.work is not None

    def headline(self) -> str:
        """What the top bar says while online ("hosting on 127.0.0.1:8765"), else ""."""
        if self.server is not None and self.invite is not None:
            return f"hosting on {self.invite.address}"
        session = self.session
        if not self.active or not isinstance(session, RemoteSession):
            return ""
        if session.watching:
            return f"watching {session.address}"
        return f"online at {session.address}"

    def marked(self, view: TrackerView) -> TrackerView:
        """The tracker's view saying when the side to act is played on another screen."""
        if not self.active:
            return view
        mine = getattr(self.session, "side", None)
        return replace(view, elsewhere=view.side_to_act != mine)

    def hold_lines(self) -> tuple[str, ...]:
        """The action panel's lines while nobody here may declare; () when one may."""
        if self.work is not None:
            doing = "Starting the server…" if self.work.kind == "host" else "Joining the game…"
            return (doing, "The game goes on once it is done.")
        if not self.active:
            return ()
        session = self.session
        reason = session.hold_reason()
        if reason is None:
            return ()
        if getattr(session, "watching", False):
            more = "Every step appears here as it is played; a watcher declares nothing."
        elif getattr(session, "final", False):
            more = "The game as it stood is kept: Save (Ctrl+S) writes it."
        elif getattr(session, "status", "connected") != "connected":
            more = "Nothing is lost: the window reconnects by itself."
        elif getattr(session, "undo_asked_by", None) is not None:
            more = "Answer in the window over the table."
        else:
            more = session.meanwhile_words()
        return (reason, more)

    # ------------------------------------------------------------------ layout

    def bar_bottom(self, size: tuple[int, int]) -> int:
        """The bar placed at the top of the play column; the y where the panels start."""
        left = size[0] - PANEL_WIDTH - GAP
        self.bar.set_relative_position((left, TOP_BAR + GAP))
        self.bar.set_dimensions((PANEL_WIDTH, BAR_HEIGHT))
        return TOP_BAR + GAP + BAR_HEIGHT

    def chat_room(self) -> int:
        """Pixels the chat line takes under the log (none on one screen)."""
        return CHAT_HEIGHT + GAP if self.active else 0

    def place_chat(self, size: tuple[int, int]) -> None:
        left = size[0] - PANEL_WIDTH - GAP
        self.chat.set_relative_position((left, size[1] - GAP - CHAT_HEIGHT))
        self.chat.set_dimensions((PANEL_WIDTH, CHAT_HEIGHT))

    def widgets(self) -> list:
        """The widgets a click on is not a click on the table."""
        found: list = [self.bar, self.chat] if self.active else []
        for window in (self.host_dialog, self.join_dialog, self.invite_window, self.question):
            if window is not None:
                found.extend(window.widgets())
        return found

    def _show(self, visible: bool) -> None:
        for widget in (self.bar, self.chat):
            if visible and not widget.visible:
                widget.show()
            elif not visible and widget.visible:
                widget.hide()

    # ------------------------------------------------------------------ once a frame

    def update(self) -> None:
        """Once a frame: a host or join under way finished; what the server sent taken in
        (never waited for); the bar, the undo question and the holds kept up to date."""
        self.news = self._finish_work()
        if not self.active:
            return
        if self.screen.ai.bar is not None and self.screen.ai.bar.panel.visible:
            self.screen.ai.bar.show(False)  # the computer's seats are the server's
        session = self.session
        before = session.game
        said = session.poll()
        game = session.game
        arrived = game is not before
        if arrived:
            self._arrived(before, game)
        elif said:
            self.screen.services.set_status(said[-1])
        held = self.screen.hold()
        talked = len(session.chat) != self._chat_lines
        if (held != self._held or talked) and not arrived:
            # Next and the panel follow the connection's state; the log, the chat
            self.screen.sync()
        self.news = self.news or arrived or bool(said) or talked or held != self._held
        self._held, self._chat_lines = held, len(session.chat)
        asked = self._ask_undo_question()
        self.news = self._show_bar() or asked or self.news
        if getattr(session, "watching", False) and self.chat.is_enabled:  # writes to nobody
            self.chat.disable()
            self.chat.set_tooltip("a watcher cannot write to the players")

    def _arrived(self, before: Game, game: Game) -> None:
        """Steps came from the server (or the game was sent whole: an undo agreed, a copy
        caught up): everything shown follows, as after a step played here."""
        screen = self.screen
        old, new = before.step_number, game.step_number
        steps: tuple[Step, ...] = game.steps[old:new] if new > old else ()
        decision = next((s for s in reversed(steps) if not s.forced), None)
        shown = decision or (steps[-1] if steps else None)
        if steps:
            screen.result = shown
            screen.cancel_move()
            picked = screen.actions.picked
            if (
                decision is not None
                and picked is not None
                and (picked.kind, picked.actor) == (decision.action.kind, decision.action.actor)
                and screen.can_draw(picked)
            ):
                screen.actions.pick(None)  # the move made: its declaration goes with it
        elif new < old:
            screen.result = None
            screen.cancel_move()
        screen.sync()
        services = screen.services
        if shown is not None:
            services.set_status(step_status(shown) + _followed(steps, shown))
        elif new < old:
            services.set_status(f"undone, as agreed: back to step {new}")
        screen.warn_autosave()
        services.refresh_card()

    def _ask_undo_question(self) -> bool:
        """The other player's undo request asked (or withdrawn); True when it changed."""
        asked = getattr(self.session, "undo_asked_by", None)
        question = self.question
        if asked is not None and (question is None or not question.alive):
            services = self.screen.services
            self.question = UndoQuestion(services.manager, services.size, asked)
            return True
        if asked is None and question is not None:
            question.close()
            self.question = None
            return True
        return False

    def _show_bar(self) -> bool:
        html = self.bar_html()
        if html == self._bar_html:
            return False
        self._bar_html = html
        self.bar.set_text(html)
        return True

    def bar_html(self) -> str:
        """The bar's two lines: where and who; then the connection, or what a check of the
        server's reveals found (red)."""
        session = self.session
        if not isinstance(session, RemoteSession):  # another game played elsewhere (by file)
            side = getattr(session, "side", None)
            who = f" · you play {escape(side)}" if side else ""
            waiting = session.hold_reason() if self.active else None
            return f"<b>played with others elsewhere</b>{who}<br>{escape(waiting or 'your go')}"
        # where the game is served is on the top bar (`headline`): here, who and how
        if session.watching:
            who = "Watching: read-only"
        elif session.side is not None:
            who = f"You play {session.side}"
        else:
            who = "Joining…"
        lines = [f"<b>{escape(who)}</b>"]
        status = session.status
        if session.final:
            lines.append(_coloured(status, PROBLEM_RED))
        elif status != "connected":
            lines.append(_coloured(status, WARNING_AMBER))
        if session.problems:
            count = len(session.problems)
            more = f" (and {count - 1} more)" if count > 1 else ""
            lines.append(_coloured(f"check failed: {session.problems[-1]}{more}", PROBLEM_RED))
        if len(lines) == 1:
            computer = [side for side, seat in session.seats.items() if seat.startswith("ai")]
            here = ", ".join([*session.connected_sides, *(f"{s} (computer)" for s in computer)])
            here = here or "no player"
            lines.append(_coloured("connected", FINE_GREEN) + f" · at the table: {escape(here)}")
        return "<br>".join(lines)

    # ------------------------------------------------------------------ the log's controls

    def controls_shown(self, log: Any, replaying: bool) -> None:
        """After the log panel's controls were set: online, Redo, Reset and the slider are
        off and say why, and Undo asks (a watcher's is off too); on one screen their own
        tips come back."""
        if self.active and asks_to_undo(self.session) and not replaying:
            watching = getattr(self.session, "watching", False)
            undo = log.buttons["undo"]
            tips = {
                undo: WATCH_TIP if watching else UNDO_TIP,
                log.buttons["redo"]: REDO_TIP,
                log.buttons["reset"]: RESET_TIP,
                log.slider: SLIDER_TIP,
            }
            for element, tip in tips.items():
                if element not in self._tips:
                    self._tips[element] = getattr(element, "tool_tip_text", None) or ""
                element.set_tooltip(tip)
                if element.is_enabled and (element is not undo or watching):
                    element.disable()
        elif self._tips:
            for element, tip in self._tips.items():
                element.set_tooltip(tip)
            self._tips = {}

    # ------------------------------------------------------------------ events

    def ui_event(self, event: pygame.event.Event) -> bool:
        """A pygame_gui event for one of the online windows or the chat line; True if ours."""
        if self.host_dialog is not None and self._host_event(event):
            return True
        if self.join_dialog is not None and self._join_event(event):
            return True
        if self.invite_window is not None and self._invite_event(event):
            return True
        if self.question is not None:
            answer = self.question.command(event)
            if answer is not None:
                self.question = None
                self.answer_undo(answer == ACCEPT)
                return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.chat:
            self.say(self.chat.get_text())
            return True
        return False

    def say(self, text: str) -> None:
        """The chat line sent (it comes back from the server into the log)."""
        if not self.active or not text.strip():
            return
        try:
            self.session.say(text)
        except UserError as error:
            self.screen.services.set_status(error.describe())
            return
        self.chat.set_text("")
        self.screen.services.set_status(self.session.said_words())

    def answer_undo(self, accept: bool) -> None:
        session = self.session
        asker = getattr(session, "undo_asked_by", None) or "the other player"
        session.answer_undo(accept)
        words = (
            f"{asker}'s undo accepted: the game goes back once the server has done it"
            if accept
            else f"{asker}'s undo declined: the game goes on"
        )
        self.screen.services.set_status(words)
        self.screen.sync()

    # ------------------------------------------------------------------ hosting

    def ask_host(self) -> None:
        """Host…: the window asking how (while hosting: the lines to give out again)."""
        services = self.screen.services
        if self.server is not None and self.invite is not None:
            self.show_invite(self.invite)
            return
        if self.active:
            services.set_status(
                "this window plays an online game already: close it to leave that game"
            )
            return
        if self.work is not None or self.screen.replaying:
            services.set_status("finish what is under way first (the replay: Exit replay)")
            return
        self._close_dialogs()
        game = self.session.game
        self.host_dialog = HostDialog(services.manager, services.size, game.sides, game.side_to_act)

    def _host_event(self, event: pygame.event.Event) -> bool:
        dialog = self.host_dialog
        assert dialog is not None
        answer = dialog.command(event)
        if answer is None:
            return False
        if answer == "cancel":
            self.host_dialog = None
        elif isinstance(answer, HostChoice):
            self.host(answer)
        return True

    def host(self, choice: HostChoice) -> None:
        """Serve the screen's game (in a thread); the screen switches to it once served."""
        session = self.session
        self.screen.cancel_move()
        self._no_computer_here()  # the game is the server's from now: nothing plays it here

        def work() -> tuple[GameServer, RemoteSession, Invite]:
            server, mine, invite = start_hosting(
                session,
                host_side=choice.side,
                computer=choice.computer,
                port=choice.port,
                public=choice.public,
            )
            if mine is None:  # serving only: this window watches
                try:
                    mine = RemoteSession.join(f"{LOOPBACK}:{server.port}", watch=True)
                except UserError:
                    server.stop()
                    raise
            return server, mine, invite

        if self.host_dialog is not None:
            self.host_dialog.working("starting the server…")
        self.work = _Work("host", work)
        self.screen.sync()

    def show_invite(self, invite: Invite) -> None:
        """The Host window's lines to give out (the tokens are shown here only)."""
        if self.invite_window is not None:
            self.invite_window.close()
        services = self.screen.services
        heading = invite_heading(invite)
        self.invite_window = InviteWindow(
            services.manager, services.size, heading, invite.lines, invite.watch_line
        )

    def _invite_event(self, event: pygame.event.Event) -> bool:
        window = self.invite_window
        assert window is not None
        command = window.command(event)
        if command is None:
            return False
        name, who = command
        if name == "closed":
            self.invite_window = None
            self.screen.services.set_status("Host… shows the lines to give out again")
        elif copy_to_clipboard(window.text_of(who)):
            self.screen.services.set_status(f"the line for {who} is on the clipboard")
        else:
            self.screen.services.set_status(
                "this system has no clipboard here: select the line and copy it by hand"
            )
        return True

    # ------------------------------------------------------------------ joining

    def ask_join(self) -> None:
        services = self.screen.services
        if self.active or self.server is not None:
            services.set_status(
                "this window plays an online game already: close it to leave that game"
            )
            return
        if self.work is not None:
            services.set_status("finish what is under way first")
            return
        self._close_dialogs()
        self.join_dialog = JoinDialog(services.manager, services.size)

    def _join_event(self, event: pygame.event.Event) -> bool:
        dialog = self.join_dialog
        assert dialog is not None
        answer = dialog.command(event)
        if answer is None:
            return False
        if answer == "cancel":
            self.join_dialog = None
        elif isinstance(answer, JoinChoice):
            self.join(answer)
        return True

    def join(self, choice: JoinChoice) -> None:
        """Join the game (in a thread); the screen switches to it once it has arrived."""
        autosave = self.session.autosave
        own = autosave.for_new_game() if autosave is not None else None  # this player's copy

        def work() -> RemoteSession:
            return RemoteSession.join(
                choice.address, choice.token, watch=choice.watch, autosave=own
            )

        if self.join_dialog is not None:
            self.join_dialog.working(f"joining {choice.address}…")
        self.work = _Work("join", work)
        self.screen.sync()

    # ------------------------------------------------------------------ switching

    def _finish_work(self) -> bool:
        """A host or join under way that has ended: the screen switches (True), or its
        window says why not."""
        work = self.work
        if work is None or not work.future.done():
            return False
        self.work = None
        dialog = self.host_dialog if work.kind == "host" else self.join_dialog
        try:
            result = work.future.result()
        except UserError as error:
            if dialog is not None and dialog.alive:
                dialog.show_problem(error.describe())
            self.screen.services.set_status(error.describe())
            self.screen.sync()
            return True
        if dialog is not None:
            dialog.close()
        self.host_dialog = self.join_dialog = None
        if work.kind == "host":
            server, mine, invite = result
            self.adopt(mine, server, invite)
        else:
            self.adopt(result)
        return True

    def adopt(
        self,
        session: RemoteSession,
        server: GameServer | None = None,
        invite: Invite | None = None,
    ) -> None:
        """Play `session` on the screen (what it plays, or watches, from now on); with
        `server`, this window serves the game and stops it on closing."""
        screen = self.screen
        if session.game.initial != self.session.game.initial:  # another table: joined
            screen.services.adopt_map(session.game.initial, None)
            screen.services.fit()
        screen.new_game(session)
        self.server, self.invite = server, invite
        self._no_computer_here()
        screen.layout()
        screen.show(screen.active)
        self._held = None
        self._bar_html = ""
        self._show_bar()
        if invite is not None:
            self.show_invite(invite)
        who = "watching" if session.watching else f"you play {session.side}"
        where = self.headline()
        screen.services.set_status(f"{where}: {who}")

    def _no_computer_here(self) -> None:
        """The window's computer players stand down (online, the server's play)."""
        ai = self.screen.ai
        for side in list(ai.seats):
            ai.set_seat(side, HUMAN)

    def attach(self, server: GameServer | None, invite: Invite | None) -> None:
        """The window opened on an online game (`app.run_online`): the server it serves,
        stopped on closing, and the lines to give out, shown at once."""
        self.server, self.invite = server, invite
        if invite is not None:
            self.show_invite(invite)

    def leaving(self, session: Any) -> None:
        """The screen is about to play `session`: a game played online before it ends here
        (its link closed, its server stopped)."""
        if session is self.session:
            return
        self._stop()
        was_online = self.active
        if was_online:
            self._show(False)
        if not self.chat.is_enabled:
            self.chat.enable()
            self.chat.set_tooltip(CHAT_TIP)

    def _stop(self) -> None:
        current = self.session
        if isinstance(current, RemoteSession):
            current.close()
        if self.server is not None:
            self.server.stop()
        self.server = self.invite = None
        self._close_dialogs(keep_setup=True)

    def _close_dialogs(self, keep_setup: bool = False) -> None:
        windows = [self.question, self.invite_window]
        if not keep_setup:
            windows.extend((self.host_dialog, self.join_dialog))
        for window in windows:
            if window is not None:
                window.close()
        self.question = self.invite_window = None
        if not keep_setup:
            self.host_dialog = self.join_dialog = None

    def close(self) -> None:
        """The window closes: the link and the server stop (a host or join under way is
        stopped as it ends)."""
        work, self.work = self.work, None
        if work is not None:
            work.future.add_done_callback(_stop_result)
        self._stop()
        self._close_dialogs()
        self.bar.kill()
        self.chat.kill()


def _stop_result(future: Future) -> None:
    """A host or join that ended after its window closed: stopped at once."""
    if future.cancelled() or future.exception() is not None:
        return
    result = future.result()
    parts = result if isinstance(result, tuple) else (result,)
    for part in parts:
        if isinstance(part, RemoteSession):
            part.close()
        elif isinstance(part, GameServer):
            part.stop()


def invite_heading(invite: Invite) -> tuple[str, ...]:
    """What the Host window says above the lines to give out."""
    reach = (
        "Every machine that can reach this one may join (mind your firewall)."
        if invite.public
        else 'Only this machine can join (for others, tick "let other machines join" when hosting).'
    )
    give = (
        "Give each player their own line: its token is their seat. Anyone may watch."
        if invite.lines
        else "Every side is played here or by the computer: others may watch."
    )
    return (f"Serving on {invite.address}.", reach, give)


def _coloured(text: str, colour: str) -> str:
    return f"<font color='{colour}'>{escape(text)}</font>"


def _followed(steps: Sequence[Step], shown: Step) -> str:
    """What else arrived with the step the status line names: passes and the steps the
    game took by itself, and the other players' steps."""
    others = [s for s in steps if s is not shown]
    if not others:
        return ""
    passed = list(dict.fromkeys(s.side for s in others if s.is_pass))
    rest = [s.title for s in others if not s.is_pass]
    words = ""
    if passed:
        words += " · " + ", ".join(passed) + " passed"
    if rest:
        words += " · then " + ", ".join(dict.fromkeys(rest))
    return words


__all__ = ["OnlinePlay", "chat_words", "with_chat"]
