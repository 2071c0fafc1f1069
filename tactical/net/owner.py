"""The client's part when it referees a stretch of its own hidden moves (`net.referee`).

A player's client whose moves the rules hide from the hosting player holds the truth of
that stretch itself: the server (on the host's machine) asks it to try each action
(`probe`) and then to play it with the step's fair dice (`play`), and it answers with
what the host's side sees after the step (its view, `net.views`). Its own hidden moves
go to the server as commitments, `H(action ‖ salt)` (`dice.sealed.seal`): the move and
its salt stay here until nothing is hidden any more, when every one is revealed with the
last answer and the server checks them all. Nothing here names a rule system.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tactical.dice.fair import FairRoll
from tactical.dice.sealed import fresh_salt, seal
from tactical.errors import UserError
from tactical.model import FrozenMap, freeze, thaw
from tactical.net.protocol import frame
from tactical.net.views import ViewParts, step_codes, view_message
from tactical.rules.base import Action
from tactical.session.forced import forced_step
from tactical.session.game import Game
from tactical.session.log_words import HIDDEN
from tactical.session.saving import UNTRUSTED_FAULTS
from tactical.session.view_codes import action_text
from tactical.session.views import hides_anything, seen_step, viewed


@dataclass(frozen=True)
class _Next:
    """The step asked about (or announced as the next the game takes by itself)."""

    action: Action
    forced: str = ""
    commitment: str = ""
    salt: str = ""


class OwnReferee:
    """A `RemoteSession`'s referee part (module docstring): `seen_by` is the hosting
    player's side while a stretch is refereed here, None otherwise."""

    def __init__(self, session: Any) -> None:
        self.session = session  # the `RemoteSession` this is part of (it imports this module)
        self.seen_by: str | None = None
        self._reported: list[str] = []  # the codes of the view steps the host holds
        self._sealed: dict[str, tuple[Action, str]] = {}  # commitment: (action, salt)
        self._revealed: list[dict[str, Any]] = []  # each hidden move played, to reveal
        self._next: _Next | None = None

    # ----------------------------------------------------------------- declaring

    def declared(self, action: Action) -> str | None:
        """The message for this side's own action while it referees: the action itself, or,
        where the host's side may not read it, its commitment; None when not refereeing.
        The rules' refusal is raised here at once (UserError), nothing sent."""
        side = self.seen_by
        if side is None:
            return None
        session = self.session
        probe = session.game.apply(action)
        step = probe.last_step
        assert step is not None
        if seen_step(step, probe, side).action.kind != HIDDEN:
            return None  # the host may read it: sent as any action
        salt = fresh_salt()
        commitment = seal(action_text(action), salt)
        self._sealed[commitment] = (action, salt)
        return frame("sealed_action", version=session.version, commitment=commitment)

    # ----------------------------------------------------------------- the server's requests

    def on_referee(self, message: dict[str, Any]) -> str:
        """A stretch begins (or goes on, after a reconnect): this copy holds the truth."""
        if not message.get("on"):
            self.seen_by = None
            return ""
        side = str(message["seen_by"])
        if self.seen_by != side:
            self.seen_by = side
            view = viewed(self.session.game, side)
            self._reported = step_codes(view)
            self._revealed = []
            return f"your moves are hidden from {side}: your copy of the game referees them"
        return ""

    def on_probe(self, message: dict[str, Any]) -> str:
        """Can this action be played on the true table, and does it roll dice?"""
        session, side = self.session, self.seen_by
        answer: dict[str, Any] = {"ref": message["ref"]}
        try:
            if side is None:
                raise UserError("this copy referees no stretch now")
            if "commitment" in message:
                action, salt = self._sealed[str(message["commitment"])]
                asked = _Next(action, "", str(message["commitment"]), salt)
            else:
                params = freeze(message.get("params") or {})
                action = Action(str(message["kind"]), str(message["actor"]), FrozenMap(params))
                asked = _Next(action)
            probe = session.game.apply(asked.action)
        except KeyError:
            answer["refused"] = "no such hidden move was sent from here"
        except UserError as error:
            answer["refused"] = error.describe()
        except UNTRUSTED_FAULTS as fault:
            answer["refused"] = f"that action cannot be played ({type(fault).__name__})"
        else:
            self._next = asked
            answer.update(self._step_facts(probe))
        session.link.send(frame("probed", **answer))
        return ""

    def _step_facts(self, probe: Game) -> dict[str, Any]:
        step = probe.last_step
        assert step is not None and self.seen_by is not None
        seen = seen_step(step, probe, self.seen_by).title
        return {"rolls": bool(step.rolls), "title": step.title[:500], "seen_title": seen[:500]}

    def on_play(self, message: dict[str, Any]) -> str:
        """Play the step asked about with its fair dice; answer with the host's view."""
        session, side, asked = self.session, self.seen_by, self._next
        if side is None or asked is None:
            session.link.send(frame("sync"))
            return ""
        fair = FairRoll.from_document(message["fair"]) if message.get("fair") else None
        number = session.game.step_number + 1
        problem = session.check_reveal(fair, number)
        session.history = session.history.apply(asked.action, asked.forced, fair)
        self._next = None
        if asked.commitment:
            self._sealed.pop(asked.commitment, None)
            action = asked.action
            self._revealed.append(
                {
                    "step": number,
                    "kind": action.kind,
                    "actor": action.actor,
                    "params": thaw(action.params),
                    "salt": asked.salt,
                }
            )
        game = session.game
        view = viewed(game, side)
        codes = step_codes(view)
        answer: dict[str, Any] = {
            "ref": message["ref"],
            "report": view_message(ViewParts.of(view), codes, self._reported),
        }
        self._reported = codes
        if game.over or not hides_anything(game, side):
            answer.update(open=True, reveal=self._revealed)
            self.seen_by, self._revealed = None, []
        else:
            following = self._following(game)
            if following is not None:
                answer["next"] = following
        session.link.send(frame("refereed", **answer))
        session.took_step()
        return problem

    def _following(self, game: Game) -> dict[str, Any] | None:
        """The step the game takes by itself next (sealed where the host may not read it),
        announced with the last answer; None when a decision is open."""
        taken = forced_step(game, self.session.take_single)
        if taken is None:
            return None
        try:
            probe = game.apply(taken.action, taken.reason)
        except UserError:
            return None  # the rules refuse it: a person takes it from there
        facts = self._step_facts(probe)
        step = probe.last_step
        assert step is not None and self.seen_by is not None
        if seen_step(step, probe, self.seen_by).action.kind == HIDDEN:
            salt = fresh_salt()
            commitment = seal(action_text(taken.action), salt)
            self._next = _Next(taken.action, taken.reason, commitment, salt)
            return {"commitment": commitment, "forced": taken.reason, **facts}
        self._next = _Next(taken.action, taken.reason)
        action = taken.action
        return {
            "kind": action.kind,
            "actor": action.actor,
            "params": thaw(action.params),
            "forced": taken.reason,
            **facts,
        }

    def on_refereed(self, message: dict[str, Any]) -> str:
        """The server took the step this copy played: its version."""
        session = self.session
        session.version = int(message["version"])
        session.waiting_on = ()
        if session.sent is not None and session.sent[0] < session.version:
            session.sent = None
        return ""
