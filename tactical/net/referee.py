"""A stretch of play refereed by the client of the side whose moves are hidden.

When a player hosts, the server runs on the host's machine, and a server holding the
truth of a guest's hidden moves (a cloaked ship's course, R001.29) would let the host look.
So from the step where the rules start hiding the guest's moves from the host, the server
stops holding the truth: the guest's own client (the *referee*) holds it and plays every
step of the stretch on it, with dice made as for any step (`dice.fair`: its nonce, the
server's reveal). The server keeps what it may know:

- every action in the clear, except the guest's hidden ones: for each of those the
  guest's client sends `H(action ‖ salt)` in place of the action (`dice.sealed.seal`);
- for every step, the referee's *answer*: the game as the host's side sees it after the
  step (its view, `net.views`), which the server sends on to the host and the watchers,
  and whose fingerprint it records (`dice.sealed.answer`);
- the fair record of each step's dice.

When nothing is hidden any more (the cloak drops, or the game ends), the referee reveals
every hidden action and its salt. The server checks each against its commitment, plays
the stretch again on the true table from where it began, and compares each answer with
the view that replay gives. A mismatch is named to everyone (and in the chat, so the log
and the save keep it); `tactical verify` finds it again from the save, whose ledger
keeps the stretch (`dice.sealed.SealedStretch`). From then on the server holds the truth
again. No undo reaches into a stretch while it is played; a server that stops during one
goes on from where the stretch began.

With `tactical serve` (a neutral server) or a host who owns the hidden moves, no stretch is
refereed: the server holds the truth. Nothing here names a rule system.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.dice.fair import FairRoll
from tactical.dice.sealed import SealedStep, SealedStretch, seal
from tactical.errors import UserError
from tactical.model import FrozenMap, freeze, thaw
from tactical.net.protocol import CHECKER, ProtocolError, frame
from tactical.net.views import ViewParts, read_view, step_codes, view_message
from tactical.rules.base import Action
from tactical.session.game import Game
from tactical.session.history import History
from tactical.session.view_codes import action_text, answer_of, code, list_of, view_answer
from tactical.session.views import hides_anything, viewed


@dataclass(frozen=True)
class Played:
    """One step of the stretch as the server knows it: the action (None while it is
    sealed), its commitment, why the game took it by itself, its dice, its answer."""

    number: int
    action: Action | None
    commitment: str
    forced: str
    fair: FairRoll | None
    answer: str


def needs_referee(server: Any) -> tuple[str, str] | None:
    """(referee, seen_by) when the server must stop holding the truth now: the rules hide
    something from the hosting player's side, and nothing from one side played from
    elsewhere, whose moves they are."""
    game = server.session.game
    host = next((s for s, seat in server.seats.items() if seat == "host"), None)
    if host is None or game.over or not hides_anything(game, host):
        return None
    owners = [
        side
        for side, seat in server.seats.items()
        if seat == "remote" and not hides_anything(game, side)
    ]
    return (owners[0], host) if len(owners) == 1 else None


class Stretch:
    """The stretch being refereed (see the module docstring)."""

    def __init__(self, server: Any, referee: str, seen_by: str) -> None:
        self.server = server  # the `GameServer` this is part of (it imports this module)
        self.referee, self.seen_by = referee, seen_by
        self.base: History = server.session.history  # the truth where the stretch begins
        self.played: list[Played] = []
        view = viewed(server.session.game, seen_by)
        self.parts = ViewParts.of(view)
        self.codes = step_codes(view)
        self.public: Game = view  # the game as `seen_by` knows it: whose go, over
        self.asked: str | None = None  # the request the referee has not answered yet
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}

    # ----------------------------------------------------------------- the referee's link

    def hello(self) -> str:
        """What the referee is told when the stretch begins, and again when it reconnects."""
        return frame("referee", on=True, seen_by=self.seen_by, version=self.server.version)

    async def joined(self, client: Any) -> None:
        """The referee (re)connected: told its part again, and any request still open."""
        if client.side == self.referee:
            await client.send(self.hello())
            if self.asked is not None:
                await client.send(self.asked)

    def _client(self) -> Any:
        return next((c for c in self.server.clients if c.side == self.referee), None)

    async def _ask(self, kind: str, /, **fields: Any) -> dict[str, Any]:
        """A request to the referee, and its answer (waited for: the referee may be
        reconnecting; its request is sent again when it is back)."""
        ref = secrets.token_hex(8)
        waiting = asyncio.get_running_loop().create_future()
        self._waiting[ref] = waiting
        self.asked = frame(kind, ref=ref, **fields)
        client = self._client()
        if client is not None:
            await client.send(self.asked)
        try:
            return await waiting
        finally:
            self.asked = None
            self._waiting.pop(ref, None)

    def awaits(self, client: Any, message: Mapping[str, Any]) -> bool:
        """Whether `message` from `client` answers the request waiting."""
        waiting = self._waiting.get(message["ref"])
        return client.side == self.referee and waiting is not None and not waiting.done()

    async def answered(self, client: Any, message: dict[str, Any]) -> None:
        """A `probed` or `refereed` message from the referee."""
        if not self.awaits(client, message):
            await client.send(frame("error", message="no such request is waiting for you"))
            return
        self._waiting[message["ref"]].set_result(message)

    # ----------------------------------------------------------------- playing a step

    async def play(self, action: Action | None, commitment: str, sender: Any) -> bool:
        """One decision (an action, or the referee's own sealed one), and the steps the game
        then takes by itself, played by the referee; False when it refuses the action."""
        server = self.server
        asked: dict[str, Any] = {"by": sender.side if sender is not None else None}
        if action is not None:
            asked.update(kind=action.kind, actor=action.actor, params=thaw(action.params))
        else:
            asked["commitment"] = commitment
        probed = await self._ask("probe", **asked)
        if probed.get("refused"):
            if sender is not None:
                reason = str(probed["refused"])
                await sender.send(frame("refused", reason=reason, version=server.version))
            return False
        forced = ""
        while True:
            number = self.public.step_number + 1
            fair = None
            if probed.get("rolls"):
                seen_title = str(probed.get("seen_title") or "a step")
                true_title = str(probed.get("title") or seen_title)
                fair = await server.dice.fair_roll(
                    number,
                    lambda c, t=true_title, s=seen_title: t if c.side == self.referee else s,
                )
            done = await self._ask("play", fair=fair.document() if fair is not None else None)
            try:
                answer = self._take_report(done.get("report"))
            except ProtocolError as error:
                await self._problem(
                    number,
                    f"{self.referee}'s client sent a report that "
                    f"cannot be read ({error}): the stretch stops here",
                )
                return False
            self.played.append(Played(number, action, commitment, forced, fair, answer))
            await self._published(last=bool(done.get("open")))
            if done.get("open"):
                await self.close(done.get("reveal"))
                return True
            following = done.get("next")
            if not isinstance(following, dict):
                return True
            action, commitment, forced = self._next_of(following)
            probed = {"rolls": bool(following.get("rolls")), **following}

    def _next_of(self, following: dict[str, Any]) -> tuple[Action | None, str, str]:
        forced = str(following.get("forced") or "a step the game took by itself")
        if "commitment" in following:
            return None, str(following["commitment"]), forced
        params = freeze(following.get("params") or {})
        action = Action(str(following["kind"]), str(following["actor"]), FrozenMap(params))
        return action, "", forced

    def _take_report(self, report: Any) -> str:
        """The view the referee reports after a step, taken as the public game; its answer's
        fingerprint (made from what was sent, not from anything the referee says it is)."""
        if not isinstance(report, dict):
            raise ProtocolError("a report of the view after the step")
        parts = ViewParts.read(report)
        documents = list_of(report.get("steps"))
        first = report.get("from")
        if not isinstance(first, int) or not 0 <= first <= len(self.codes) or not documents:
            raise ProtocolError("a report whose steps do not follow the last")
        public = read_view(report, tuple(self.public.steps))
        self.codes = [*self.codes[:first], *(code(d) for d in documents)]
        self.parts, self.public = parts, public
        return answer_of(documents[-1], report["state"], report["position"])

    async def _published(self, last: bool) -> None:
        """The step just refereed: the referee is sent its new version, the host and the
        watchers the view (not after the `last` step: nothing is hidden then, and the whole
        game follows at once, checked)."""
        server = self.server
        server.version += 1
        fair = server.views.ledger_document()
        texts = []
        for client in list(server.clients):
            if client.side == self.referee:
                texts.append((client, frame("refereed", version=server.version)))
                continue
            if last:
                continue
            fields = view_message(self.parts, self.codes, client.held if client.viewing else [])
            client.held, client.viewing = list(self.codes), True
            texts.append((client, frame("view", version=server.version, fair=fair, **fields)))
        await asyncio.gather(*(client.send(text) for client, text in texts))

    def record(self, salts: dict[int, str] | None = None) -> SealedStretch:
        """The stretch as the ledger keeps it (the salts once revealed)."""
        steps = tuple(SealedStep(p.number, p.answer, p.commitment) for p in self.played)
        stretch = SealedStretch(self.referee, self.seen_by, steps)
        return stretch.with_salts(salts) if salts else stretch

    # ----------------------------------------------------------------- the reveal

    async def close(self, reveal: Any) -> None:
        """The referee revealed its hidden actions: each checked against its commitment,
        the stretch played again on the true table and each answer compared; the server
        holds the truth again."""
        server = self.server
        revealed, salts, problems = self._revealed(reveal)
        history, problems = self._replayed(revealed, problems)
        server.session.history = history
        if server.session.fair is not None:
            server.session.fair = server.session.fair.with_sealed(self.record(salts))
        server.stretch = None
        for number, text in problems:
            await self._problem(number, text)
        server.version += 1
        server.session.write_autosave()
        for client in list(server.clients):
            await client.send(server.views.whole_frame(client))

    def _revealed(
        self, reveal: Any
    ) -> tuple[dict[int, Action], dict[int, str], list[tuple[int, str]]]:
        """The revealed actions and salts by step number, and the steps whose reveal is
        missing or does not match its commitment."""
        actions: dict[int, Action] = {}
        salts: dict[int, str] = {}
        problems: list[tuple[int, str]] = []
        found: dict[int, Any] = {}
        for item in reveal if isinstance(reveal, list) else []:
            if isinstance(item, dict) and isinstance(item.get("step"), int):
                found[item["step"]] = item
        who = self.referee
        for played in self.played:
            if not played.commitment:
                continue
            item = found.get(played.number)
            try:
                params = freeze(item["params"] or {})
                action = Action(str(item["kind"]), str(item["actor"]), FrozenMap(params))
                salt = str(item["salt"])
            except (TypeError, KeyError, ValueError):
                problems.append((played.number, f"{who} did not reveal its hidden move"))
                continue
            if seal(action_text(action), salt) != played.commitment:
                problems.append(
                    (played.number, f"{who}'s revealed move is not the one it committed to")
                )
                continue
            actions[played.number], salts[played.number] = action, salt
        return actions, salts, problems

    def _replayed(
        self, revealed: dict[int, Action], problems: list[tuple[int, str]]
    ) -> tuple[History, list[tuple[int, str]]]:
        """The stretch played again on the true table, each step's view compared with the
        referee's answer; the truth as far as it could be played."""
        history = self.base
        who = self.referee
        for played in self.played:
            action = played.action or revealed.get(played.number)
            if action is None:
                break  # a move not revealed: the truth goes no further
            try:
                history = history.apply(action, played.forced, played.fair)
            except UserError as error:
                problems.append(
                    (played.number, f"{who}'s move cannot be played: {error.describe()}")
                )
                break
            if view_answer(viewed(history.game, self.seen_by)) != played.answer:
                problems.append(
                    (
                        played.number,
                        f"what {who}'s client reported {self.seen_by} sees does not follow "
                        "from the moves it revealed",
                    )
                )
        return history, problems

    async def _problem(self, number: int, text: str) -> None:
        """A problem found in the stretch, said to everyone and kept in the chat."""
        line = f"step {number}: {text}"
        await self.server.chat(CHECKER, line)
