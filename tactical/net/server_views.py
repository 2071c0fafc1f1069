"""What each client of a `GameServer` is sent of the game: the game itself, or its view.

A player is sent its own side's view, a watcher the side the server was set up with
(`--watchers`, None: both sides'). Where the rules hide nothing from that side, a client
gets the game as saved when it joins and every step after it (the protocol's default).
Where they hide something (a cloaked enemy ship, R001.29), it gets its side's view
(`net.views`): no action of the game and no whole game, until nothing is hidden from it
any more, when it gets the whole game again and the record appears.
"""

from __future__ import annotations

from typing import Any

from tactical.io.saves import dumps_save
from tactical.net.protocol import frame
from tactical.net.views import view_fields, view_message
from tactical.session.game import Game
from tactical.session.saving import saved_game
from tactical.session.view_codes import StepCodes
from tactical.session.views import seen_step, viewed


class ClientViews:
    """The frames each client is sent (module docstring)."""

    def __init__(self, server: Any) -> None:
        self.server = server  # the `GameServer` this is part of (it imports this module)
        self._text: tuple[int, str, int] | None = None

    def game_text(self) -> str:
        """The game as saved (made once per version and chat line)."""
        session = self.server.session
        cached = self._text
        if cached is None or cached[0] != self.server.version or len(session.chat) != cached[2]:
            text = dumps_save(saved_game(session.history, session.fair, session.chat))
            cached = self._text = (self.server.version, text, len(session.chat))
        return cached[1]

    def seen_by(self, client: Any) -> str | None:
        """The side whose view `client` is sent: its own, or the watchers' (None: both)."""
        return client.side if client.side is not None else self.server.watchers

    def view_for(self, client: Any) -> Game | None:
        """The game as `client` may see it, or None when nothing is hidden from it."""
        side = self.seen_by(client)
        if side is None:
            return None
        game = self.server.session.game
        seen = viewed(game, side)
        return None if seen is game else seen

    def ledger_document(self) -> dict[str, object] | None:
        ledger = self.server.session.fair
        return ledger.document() if ledger is not None else None

    def whole(self, client: Any) -> dict[str, Any]:
        """The fields carrying the whole game to `client`: the game as saved, or its view
        while the rules hide something from it (then no action of the game is sent). While
        a player's client referees a stretch, everyone else gets the view it reports."""
        stretch = self.server.stretch
        if stretch is not None and client.side == stretch.referee and stretch.played:
            return {}  # its own copy holds the truth of the stretch: nothing to send it
        if stretch is not None and client.side != stretch.referee:
            fields = view_message(stretch.parts, stretch.codes, [])
            client.held, client.viewing = list(stretch.codes), True
            return {"view": {**fields, "fair": self.ledger_document()}}
        view = self.view_for(client)
        if view is None:
            client.viewing, client.held = False, []
            return {"game": self.game_text()}
        fields, client.held = view_fields(view, [])
        client.viewing = True
        return {"view": {**fields, "fair": self.ledger_document()}}

    def whole_frame(self, client: Any) -> str:
        """The whole game (or view) as a message of its own: after an undo, or asked for."""
        version = self.server.version
        stretch = self.server.stretch
        if stretch is not None and client.side == stretch.referee and stretch.played:
            return stretch.hello()  # its copy holds the truth: nothing to send it
        whole = self.whole(client)
        if "view" in whole:
            return frame("view", version=version, **whole["view"])
        return frame("game", version=version, **whole)

    def next_frame(self, client: Any, step_frame: str) -> str:
        """What `client` is sent for the step just played: the step itself, or its view (the
        new steps only), or, when the rules stop hiding anything from it, the whole game."""
        view = self.view_for(client)
        if view is None:
            if not client.viewing:
                return step_frame
            return self.whole_frame(client)  # the record of what was hidden appears
        if not client.viewing:  # the steps it holds are the game's up to this one
            steps = self.server.session.game.steps[:-1]
            client.held = [StepCodes.shared.of(step) for step in steps]
        fields, client.held = view_fields(view, client.held)
        client.viewing = True
        version = self.server.version
        return frame("view", version=version, fair=self.ledger_document(), **fields)

    def title_for(self, client: Any, game: Game) -> str:
        """The title of `game`'s last step as `client` may read it."""
        side, step = self.seen_by(client), game.last_step
        assert step is not None
        return step.title if side is None else seen_step(step, game, side).title
