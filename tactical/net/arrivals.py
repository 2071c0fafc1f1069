"""What a `RemoteSession` does with each message the server sends (`protocol`).

`Arrivals.on_<type>` takes in one message of that type: the whole game (`welcome`, `game`),
a side's view of it (`view`, `net.views`), one step (`step`, applied with the same rules
and dice and checked against the server's digest), and the server's words (`refused`,
`waiting`, `undo_asked`, `chat`, ...). Each returns the line the status bar shows ("" for
none). A message the copy cannot use makes it ask for the whole game again.
"""

from __future__ import annotations

from typing import Any

from tactical.dice.fair import FairLedger, FairRoll
from tactical.errors import UserError
from tactical.io.saves import ChatLine
from tactical.model import FrozenMap, freeze
from tactical.net.protocol import CHECKER, ProtocolError, frame
from tactical.net.views import read_view
from tactical.rules.base import Action
from tactical.session.digest import game_digest
from tactical.session.game import Game
from tactical.session.history import History


class Arrivals:
    """The handlers of a `RemoteSession`'s messages (module docstring)."""

    def __init__(self, session: Any) -> None:
        self.session = session  # the `RemoteSession` this is part of (it imports this module)

    def on_link(self, message: dict[str, Any]) -> str:
        session = self.session
        session.status = str(message["text"])
        session.final = bool(message.get("final"))
        return "" if session.status == "connected" and session.version < 0 else session.status

    def on_welcome(self, message: dict[str, Any]) -> str:
        session = self.session
        session.watching = message["role"] == "watcher"
        session.side = message.get("side")
        session.seats = dict(message.get("seats") or {})
        sees = message.get("sees")
        session.sees = str(sees) if sees is not None else None
        session.connected_sides = tuple(message.get("connected") or ())
        joined = session.version < 0
        sent = session.sent
        if "view" in message:
            self.load_view(message["view"], int(message["version"]), whole=True)
        elif "game" in message:
            session.load(message["game"], int(message["version"]))
        elif session.version >= 0:  # this copy referees a stretch: it keeps the truth it holds
            session.version = int(message["version"])
        else:
            session.problems.append(
                "the server asks this copy to referee hidden moves it does not hold (it was "
                "restarted): the game cannot go on from here"
            )
            session.final = True
            session.status = "this copy lost the hidden moves it referees"
            return session.status
        if sent is not None and sent[0] == session.version:  # lost on the way: send it again
            session.sent = sent
            session.link.send(sent[2])
        if joined:
            who = "watching" if session.watching else f"playing {session.side}"
            return f"joined {session.address}, {who}"
        return "reconnected: the game is as the server has it"

    def on_game(self, message: dict[str, Any]) -> str:
        session = self.session
        session.load(message["game"], int(message["version"]))
        return ""

    def on_view(self, message: dict[str, Any]) -> str:
        session = self.session
        version = int(message["version"])
        whole = int(message["from"]) == 0
        if not whole and version != session.version + 1:
            session.link.send(frame("sync"))  # a view missed: the whole view again
            return ""
        return self.load_view(message, version, whole)

    def load_view(self, message: dict[str, Any], version: int, whole: bool) -> str:
        """The game as this side may see it (`net.views`): drawn and decided from, not
        replayed; each reveal in its new steps checked against the chains as it arrives."""
        session = self.session
        joined = session.version >= 0
        held = session.game.steps if joined and not whole else ()
        try:
            game = read_view(message, tuple(held))
            ledger = message.get("fair")
            fair = FairLedger.from_document(ledger) if ledger is not None else None
        except (ProtocolError, ValueError) as error:
            session.problems.append(f"the server's view of the game cannot be read: {error}")
            return ""
        known = len(held)
        # the line from the start (the map, which every side sees) to the view, at its end:
        # the step counter reads as in any game; no step of it is ever replayed here
        start = Game.new(game.initial, game.seed)
        take = session.history.take_single if joined else True
        session.history = History.of_line(start, game, game.step_number - start.step_number, take)
        session.fair = fair
        if whole:
            session.check_ledger()
        problems = [
            session.check_reveal(step.fair, step.number)
            for step in game.steps[known:]
            if step.fair is not None and not whole
        ]
        session.version = version
        session.viewing = True
        session.waiting_on = ()
        if session.sent is not None and session.sent[0] < version:
            session.sent = None
        session.steps_seen += 1
        step = game.last_step
        if step is not None and session.on_step is not None and not whole:
            session.on_step(step)
        return "; ".join(p for p in problems if p)

    def on_step(self, message: dict[str, Any]) -> str:
        session = self.session
        version = int(message["version"])
        if version != session.version + 1 or session.viewing:
            session.link.send(frame("sync"))  # a step missed: the whole game again
            return ""
        fair = FairRoll.from_document(message["fair"]) if message.get("fair") else None
        problem = session.check_reveal(fair, int(message["number"]))
        params = freeze(message.get("params") or {})
        action = Action(str(message["kind"]), str(message["actor"]), FrozenMap(params))
        try:
            history = session.history.apply(action, str(message.get("forced") or ""), fair)
        except UserError:
            session.link.send(frame("sync"))
            return ""
        session.history = history
        session.version = version
        session.waiting_on = ()
        if session.sent is not None and session.sent[0] < version:
            session.sent = None
        if game_digest(session.game) != message.get("digest"):
            session.link.send(frame("sync"))  # this copy differs from the server's: catch up
        session.took_step()
        return problem

    def on_refused(self, message: dict[str, Any]) -> str:
        session = self.session
        session.sent = None
        return f"refused: {message['reason']}"

    def on_waiting(self, message: dict[str, Any]) -> str:
        session = self.session
        session.waiting_on = tuple(message.get("on") or ())
        session.waiting_what = str(message.get("what") or "")
        return f"waiting for {', '.join(session.waiting_on)}: {session.waiting_what}"

    def on_nonce_wanted(self, message: dict[str, Any]) -> str:
        return f"our nonce for step {message['step']} sent"

    def on_undo_asked(self, message: dict[str, Any]) -> str:
        session = self.session
        session.undo_asked_by = str(message["by"])
        return f"{session.undo_asked_by} asks to undo the last decision"

    def on_undo_declined(self, message: dict[str, Any]) -> str:
        session = self.session
        session.waiting_on = ()
        return f"{message['by']} declined the undo"

    def on_chat(self, message: dict[str, Any]) -> str:
        session = self.session
        line = ChatLine(int(message["step"]), str(message["side"]), str(message["text"]))
        session.chat.append(line)
        if line.side == CHECKER:  # the check of a refereed stretch found something
            session.problems.append(line.text)
        session.own_autosave()
        return f"{line.side}: {line.text}"

    def on_presence(self, message: dict[str, Any]) -> str:
        session = self.session
        session.connected_sides = tuple(message.get("connected") or ())
        return ""

    def on_error(self, message: dict[str, Any]) -> str:
        return f"the server says: {message.get('message')}"
