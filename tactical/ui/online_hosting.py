"""Hosting and joining from the play screen: Host…, Join… and the lines to give out.

`OnlineHosting` is the online part's (tactical.ui.online_play) hosting and joining. Host…
and Join… (`HostDialog`, `JoinDialog`) start the server, or join the game, off the frame
loop (a thread: `finish_work` looks once a frame whether it is done), and the screen
switches to the `RemoteSession`. The lines the other players type (with their seats'
tokens) are shown in the Host window (`InviteWindow`) only, never in the log. It owns the
server this window serves, stopped on closing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

import pygame

from tactical.errors import UserError
from tactical.net.client import RemoteSession
from tactical.net.hosting import LOOPBACK, Invite, start_hosting
from tactical.net.server import GameServer
from tactical.present.online_words import invite_heading
from tactical.ui.online_dialogs import (
    HostChoice,
    HostDialog,
    InviteWindow,
    JoinChoice,
    JoinDialog,
    copy_to_clipboard,
)

PLAYING_ONLINE = "this window plays an online game already: close it to leave that game"


class OnlineGame(Protocol):
    """What hosting asks of the online part that owns it (`OnlinePlay`)."""

    screen: Any  # the `PlayScreen`: its `services`, `cancel_move`, `replaying`, `sync`

    @property
    def session(self) -> Any: ...

    @property
    def active(self) -> bool: ...

    def adopt(
        self,
        session: RemoteSession,
        server: GameServer | None = None,
        invite: Invite | None = None,
    ) -> None: ...

    def no_computer_here(self) -> None: ...


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


class OnlineHosting:
    """See the module docstring. `online` is the `OnlinePlay` that owns it."""

    def __init__(self, online: OnlineGame) -> None:
        self.online = online
        self.server: GameServer | None = None
        self.invite: Invite | None = None
        self.host_dialog: HostDialog | None = None
        self.join_dialog: JoinDialog | None = None
        self.invite_window: InviteWindow | None = None
        self.work: _Work | None = None

    @property
    def screen(self) -> Any:
        return self.online.screen

    def widgets(self) -> list:
        """Its windows' widgets (a click on them is not a click on the table)."""
        found: list = []
        for window in (self.host_dialog, self.join_dialog, self.invite_window):
            if window is not None:
                found.extend(window.widgets())
        return found

    def ui_event(self, event: pygame.event.Event) -> bool:
        """A pygame_gui event for Host…, Join… or the Host window; True if ours."""
        if self._answered(event):
            return True
        return self.invite_window is not None and self._invite_event(event)

    def _answered(self, event: pygame.event.Event) -> bool:
        """Host… or Join… answered: cancelled (its window goes) or chosen (under way)."""
        for dialog in (self.host_dialog, self.join_dialog):
            answer = dialog.command(event) if dialog is not None else None
            if answer is None:
                continue
            if answer == "cancel" and dialog is self.host_dialog:
                self.host_dialog = None
            elif answer == "cancel":
                self.join_dialog = None
            elif isinstance(answer, HostChoice):
                self.host(answer)
            elif isinstance(answer, JoinChoice):
                self.join(answer)
            return True
        return False

    # ------------------------------------------------------------------ hosting

    def ask_host(self) -> None:
        """Host…: the window asking how (while hosting: the lines to give out again)."""
        services = self.screen.services
        if self.server is not None and self.invite is not None:
            self.show_invite(self.invite)
            return
        if self.online.active:
            services.set_status(PLAYING_ONLINE)
            return
        if self.work is not None or self.screen.replaying:
            services.set_status("finish what is under way first (the replay: Exit replay)")
            return
        self.close_dialogs()
        game = self.online.session.game
        self.host_dialog = HostDialog(services.manager, services.size, game.sides, game.side_to_act)

    def host(self, choice: HostChoice) -> None:
        """Serve the screen's game (in a thread); the screen switches to it once served."""
        session = self.online.session
        self.screen.cancel_move()
        self.online.no_computer_here()  # the game is the server's from now: nothing plays it here

        def work() -> tuple[GameServer, RemoteSession, Invite]:
            server, mine, invite = start_hosting(
                session,
                host_side=choice.side,
                computer=choice.computer,
                port=choice.port,
                public=choice.public,
                watchers=choice.watchers,
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
        if self.online.active or self.server is not None:
            services.set_status(PLAYING_ONLINE)
            return
        if self.work is not None:
            services.set_status("finish what is under way first")
            return
        self.close_dialogs()
        self.join_dialog = JoinDialog(services.manager, services.size)

    def join(self, choice: JoinChoice) -> None:
        """Join the game (in a thread); the screen switches to it once it has arrived."""
        autosave = self.online.session.autosave
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

    def finish_work(self) -> bool:
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
            self.online.adopt(mine, server, invite)
        else:
            self.online.adopt(result)
        return True

    def stop(self) -> None:
        """The link of the game played online closed, the server stopped, its windows closed
        (not Host… and Join…: a new game may be hosted from them)."""
        current = self.online.session
        if isinstance(current, RemoteSession):
            current.close()
        if self.server is not None:
            self.server.stop()
        self.server = self.invite = None
        self.close_dialogs(keep_setup=True)

    def close_dialogs(self, keep_setup: bool = False) -> None:
        """The Host window closed, and Host… and Join… unless `keep_setup`."""
        windows = [self.invite_window]
        if not keep_setup:
            windows.extend((self.host_dialog, self.join_dialog))
        for window in windows:
            if window is not None:
                window.close()
        self.invite_window = None
        if not keep_setup:
            self.host_dialog = self.join_dialog = None

    def close(self) -> None:
        """The window closes: a host or join under way is stopped as it ends; the link and
        the server stop."""
        work, self.work = self.work, None
        if work is not None:
            work.future.add_done_callback(_stop_result)
        self.stop()
        self.close_dialogs()


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
