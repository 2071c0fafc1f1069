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
- Host… and Join…: its `hosting` part (tactical.ui.online_hosting) starts the server, or
  joins the game, off the frame loop, and the screen switches to the `RemoteSession`.
  Closing stops the server and the link.

What these say is worded in tactical.present.online_words.

Nothing here names a rule system.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextBox, UITextEntryLine

from tactical.errors import UserError
from tactical.net.client import RemoteSession
from tactical.net.hosting import Invite
from tactical.net.server import GameServer
from tactical.present.online_words import (
    asks_to_undo,
    bar_html,
    chat_words,
    followed,
    hold_lines,
    with_chat,
)
from tactical.present.results import step_status
from tactical.session.game import Game, Step
from tactical.ui.ai_player import HUMAN
from tactical.ui.online_dialogs import ACCEPT, UndoQuestion
from tactical.ui.online_hosting import OnlineHosting
from tactical.ui.play_panels import TrackerView
from tactical.ui.services import PANEL_WIDTH, TOP_BAR

BAR_HEIGHT = 58  # two lines of the widgets' font in a text box
CHAT_HEIGHT = 28
GAP = 4
WATCH_TIP = "watching: a watcher changes nothing in the game"
CHAT_TIP = "Enter sends the line to the other players (and into the save)"
REDO_TIP = "Redo: not in an online game (only an undo both players agree to goes back)"
UNDO_TIP = "Ctrl+Z: ask the other player to agree to undo the last decision"
RESET_TIP = "Reset: not in an online game (ask for an undo instead)"
SLIDER_TIP = "in an online game the game goes back only by an undo both players agree to"
REPLAY_HIDDEN_TIP = (
    "Replay: not while the rules hide some of the other side's moves from you "
    "(it opens once they are revealed)"
)


class OnlinePlay:
    """The play screen's online part (see the module docstring). `screen` is the
    `PlayScreen`: its `session`, `services`, `sync`, `new_game`, `result`, `actions`."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        manager = screen.services.manager
        self.bar = UITextBox(" ", pygame.Rect(0, 0, PANEL_WIDTH, BAR_HEIGHT), manager)
        self.chat = UITextEntryLine(
            pygame.Rect(0, 0, PANEL_WIDTH, CHAT_HEIGHT), manager, placeholder_text="Say…"
        )
        self.chat.set_tooltip(CHAT_TIP)
        self.question: UndoQuestion | None = None
        self.hosting = OnlineHosting(self)
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
        return self.active or self.hosting.work is not None

    def headline(self) -> str:
        """What the top bar says while online ("hosting on 127.0.0.1:8765"), else ""."""
        hosting = self.hosting
        if hosting.server is not None and hosting.invite is not None:
            return f"hosting on {hosting.invite.address}"
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
        return replace(view, elsewhere=view.side_to_act != mine, yours=view.side_to_act == mine)

    def hold_lines(self) -> tuple[str, ...]:
        """The action panel's lines while nobody here may declare; () when one may."""
        work = self.hosting.work
        return hold_lines(self.session, self.active, work.kind if work is not None else None)

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
        found.extend(self.hosting.widgets())
        if self.question is not None:
            found.extend(self.question.widgets())
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
        self.news = self.hosting.finish_work()
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
            services.set_status(step_status(shown) + followed(steps, shown))
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
        html = bar_html(self.session, self.active)
        if html == self._bar_html:
            return False
        self._bar_html = html
        self.bar.set_text(html)
        return True

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
            replay = log.buttons["replay"]
            if getattr(self.session, "viewing", False):  # its hidden steps cannot be replayed
                tips[replay] = REPLAY_HIDDEN_TIP
            elif replay in self._tips:  # revealed: the replay's own tip and state come back
                replay.set_tooltip(self._tips.pop(replay))
                if log.controls is not None and log.controls.step > 0:
                    replay.enable()
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
        if self.hosting.ui_event(event):
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

    # ------------------------------------------------------------------ switching

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
        self.hosting.server, self.hosting.invite = server, invite
        self.no_computer_here()
        screen.layout()
        screen.show(screen.active)
        self._held = None
        self._bar_html = ""
        self._show_bar()
        if invite is not None:
            self.hosting.show_invite(invite)
        who = "watching" if session.watching else f"you play {session.side}"
        where = self.headline()
        screen.services.set_status(f"{where}: {who}")

    def no_computer_here(self) -> None:
        """The window's computer players stand down (online, the server's play)."""
        ai = self.screen.ai
        for side in list(ai.seats):
            ai.set_seat(side, HUMAN)

    def attach(self, server: GameServer | None, invite: Invite | None) -> None:
        """The window opened on an online game (`app.run_online`): the server it serves,
        stopped on closing, and the lines to give out, shown at once."""
        self.hosting.server, self.hosting.invite = server, invite
        if invite is not None:
            self.hosting.show_invite(invite)

    def leaving(self, session: Any) -> None:
        """The screen is about to play `session`: a game played online before it ends here
        (its link closed, its server stopped)."""
        if session is self.session:
            return
        self._close_question()
        self.hosting.stop()
        was_online = self.active
        if was_online:
            self._show(False)
        if not self.chat.is_enabled:
            self.chat.enable()
            self.chat.set_tooltip(CHAT_TIP)

    def _close_question(self) -> None:
        if self.question is not None:
            self.question.close()
        self.question = None

    def close(self) -> None:
        """The window closes: the link and the server stop (a host or join under way is
        stopped as it ends)."""
        self._close_question()
        self.hosting.close()
        self.bar.kill()
        self.chat.kill()


# the words are the presenter's (tactical.present.online_words); the screen found them here
__all__ = ["OnlinePlay", "asks_to_undo", "chat_words", "with_chat"]
