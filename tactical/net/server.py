"""The authority of an online game: one server runs the real `Session`; clients only ask.

`GameServer` holds the game and serves it over WebSockets (asyncio, the `websockets`
library). Each side has a seat: a player elsewhere (`remote`), the host's own window
(`host`, a client like any other, over loopback), or the computer (`ai:LEVEL`). A seat is
taken with its token (`secrets`, compared in constant time, never logged); watchers need
none and can change nothing.

A client's action carries the game version it was chosen on. The server checks it with
the rules, exactly as one screen does (`Game.apply`), or refuses it with the rule's
reason; a stale one is refused and the sender gets the game as it stands. A step that
rolls dice waits for a fresh nonce from every player elsewhere, then the server reveals
the next value of its hash chain (`dice.fair`): the step's dice come from both. Each step
is broadcast with its version and the digest of the game after it (`session.digest`).
After each step the game's own steps are taken (`session.forced`), and a computer seat
plays when its go comes (in a thread: the server never stops answering).

Each client is sent what its side may see (`server_views`): where the rules hide something
from it (a cloaked enemy ship), its side's view and no action of the game. Where they hide
a guest's moves from the hosting player, the server stops holding the truth for that
stretch and the guest's own client referees it (`net.referee`).

Undo is a request: the other players accept or decline it (a computer seat accepts).
Chat lines go to every player and into the save. The game is autosaved after every change;
the seats' tokens and the chain's secret go in a file of the server's own
(`server_dice.ServerFile`, readable by its owner only), so that `--resume` after a crash
goes on with the same tokens and the same committed chain.

Every connection is limited in message size (`protocol.MAX_MESSAGE`) and rate; a bad
message gets an error frame and changes nothing; a hostile client cannot stop the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tactical.errors import UserError
from tactical.io.saves import ChatLine
from tactical.model import FrozenMap, freeze, thaw
from tactical.net.protocol import FRAME_LIMIT, ProtocolError, frame, read_client
from tactical.net.referee import Stretch, needs_referee
from tactical.net.server_dice import REVEALER, ServerDice, ServerFile, server_file_of
from tactical.net.server_undo import ServerUndo
from tactical.net.server_views import ClientViews
from tactical.rules.base import Action
from tactical.session.adjust import ADJUST
from tactical.session.controller import Session
from tactical.session.digest import game_digest
from tactical.session.forced import MAX_FORCED, forced_step
from tactical.session.saving import UNTRUSTED_FAULTS

__all__ = ["REVEALER", "GameServer", "ServerFile", "server_file_of"]

HELLO_SECONDS = 10.0  # a connection that says nothing for this long is closed
RATE_PER_SECOND = 40.0  # messages a connection may send, on average
RATE_BURST = 80  # and in a burst
ABUSE_LIMIT = 200  # messages over the rate before the connection is closed
WATCHER = "watcher"
SEND_SECONDS = 10.0  # a client that takes longer to accept a message is cut off


class _Bucket:
    """A token bucket: `take()` is False once a connection sends faster than allowed."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.level = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


@dataclass
class _Client:
    """One connection: its seat (a side, or None for a watcher) and its limits."""

    socket: ServerConnection
    side: str | None
    bucket: _Bucket = field(default_factory=_Bucket)
    over_rate: int = 0
    # while the rules hide something from it, the client holds a view (`net.views`): the
    # codes of the steps it holds, so that the next view sends the new ones only
    viewing: bool = False
    held: list[str] = field(default_factory=list)

    async def send(self, text: str) -> None:
        """Send, or drop a client that stopped reading (it must not hold up the others)."""
        try:
            await asyncio.wait_for(self.socket.send(text), SEND_SECONDS)
        except ConnectionClosed:
            pass
        except TimeoutError:
            self.socket.transport.abort()


class GameServer:
    """A game served to its players (see the module docstring)."""

    def __init__(
        self,
        session: Session,
        seats: Mapping[str, str],
        *,
        tokens: Mapping[str, str] | None = None,
        chains: Iterable[str] = (),
        host: str = "127.0.0.1",
        port: int = 8765,
        server_file: Path | None = None,
        watchers: str | None = None,
    ) -> None:
        sides = session.game.sides
        for side in sides:
            if seats.get(side) is None:
                raise UserError(f"no seat for {side}")
        if watchers is not None and watchers not in sides:
            raise UserError(
                f"watchers see both sides' view or one side's: {', '.join(sides)} "
                f"(not {watchers!r})"
            )
        # what a watcher sees where the rules hide something: one side's view, or the whole
        # game (None: both sides' view)
        self.watchers = watchers
        self.session = session
        self.seats = dict(seats)
        self.tokens = dict(tokens or {})
        for side in sides:
            if not self.seats[side].startswith("ai") and side not in self.tokens:
                self.tokens[side] = secrets.token_urlsafe(16)
        self.host, self.port = host, port
        self.server_file = server_file
        self.clients: list[_Client] = []
        # the game's version counts changes from a number drawn when the server starts, so
        # that an action chosen before a restart never matches a version after it
        self.version = secrets.randbelow(2**31) << 20
        self.lock: asyncio.Lock | None = None
        self.applied: dict[str | None, str] = {}  # each seat's last action applied, by its id
        self.ready = threading.Event()  # set once the port is open
        self.problem = ""  # why the server could not start
        self.stopping: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._ai_busy = False
        self._tasks: set[asyncio.Task] = set()
        self.views = ClientViews(self)
        self.undo = ServerUndo(self)
        self.stretch: Stretch | None = None  # a stretch a player's client referees
        self.dice = ServerDice(self, chains)
        self.dice.ready()

    # ----------------------------------------------------------------- the dice

    def reveal(self, chain: int, index: int) -> str:
        """The value of the server's chain revealed for a roll (a test's cheating server
        changes this: the players catch it)."""
        return self.dice.chain(chain).value(index)

    async def _revealed(self, chain: int, index: int) -> str:
        """The reveal, once every nonce is in (a test's server that stops answering then
        never returns from here)."""
        return self.reveal(chain, index)

    # ----------------------------------------------------------------- running

    def _spawn(self, work: Any) -> None:
        """Run `work` as a task of its own, held until it ends (asyncio keeps only weak
        references to tasks)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def run_in_thread(self) -> threading.Thread:
        """Serve from a thread of its own (the host's window keeps the main thread); returns
        once the port is open, or raises UserError saying why it could not be."""
        thread = threading.Thread(target=self.run, name="tactical-server", daemon=True)
        thread.start()
        self.ready.wait(10)
        if self.problem:
            raise UserError(self.problem)
        return thread

    def run(self) -> None:
        """Serve until `stop()` (blocking)."""
        asyncio.run(self.serve())

    def stop(self) -> None:
        """Stop serving (from any thread): the connections close, the game stays saved."""
        loop, stopping = self.loop, self.stopping
        if loop is not None and stopping is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stopping.set)

    async def serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.lock = asyncio.Lock()
        self.stopping = asyncio.Event()
        try:
            server = await serve(
                self._connection,
                self.host,
                self.port,
                max_size=FRAME_LIMIT,
                ping_interval=20,
                ping_timeout=20,
            )
        except OSError as error:
            self.problem = (
                f"cannot serve on {self.host}:{self.port}: {error.strerror or error} "
                "(another program may use the port: give --port)"
            )
            self.ready.set()
            return
        if self.port == 0:  # a free port was asked for (tests)
            self.port = next(iter(server.sockets)).getsockname()[1]
        self.ready.set()
        await self._refereed_if_hidden()  # a game resumed where a guest's moves are hidden
        self._kick_ai()
        async with server:
            await self.stopping.wait()
            for client in list(self.clients):
                with contextlib.suppress(Exception):
                    await client.socket.close(1001, "the server stopped")

    # ----------------------------------------------------------------- connections

    async def _connection(self, socket: ServerConnection) -> None:
        try:
            first = await asyncio.wait_for(socket.recv(), HELLO_SECONDS)
        except (TimeoutError, ConnectionClosed):
            return
        try:
            hello = read_client(first)
            if hello["type"] != "hello":
                raise ProtocolError("a hello first (with your seat's token, or watch)")
        except ProtocolError as error:
            with contextlib.suppress(ConnectionClosed):
                await socket.send(frame("error", message=str(error)))
                await socket.close(4002, "hello expected")
            return
        side = self._seat_of(hello.get("token"))
        if side is None and not hello.get("watch"):
            with contextlib.suppress(ConnectionClosed):
                await socket.send(
                    frame("error", message="that token opens no seat of this game (or watch)")
                )
                await socket.close(4001, "unknown token")
            return
        client = _Client(socket, None if hello.get("watch") else side)
        for other in [c for c in self.clients if c.side is not None and c.side == client.side]:
            self.clients.remove(other)  # a player who reconnects replaces the old link
            with contextlib.suppress(Exception):
                await other.socket.close(4000, "the seat reconnected elsewhere")
        self.clients.append(client)
        try:
            await client.send(self._welcome(client))
            await self._after_joining(client)
            async for text in socket:
                await self._received(client, text)
        except ConnectionClosed:
            pass
        finally:
            if client in self.clients:
                self.clients.remove(client)
            await self._broadcast_presence()

    def _seat_of(self, token: Any) -> str | None:
        if not isinstance(token, str):
            return None
        found = None
        for side, own in self.tokens.items():
            if secrets.compare_digest(token.encode(), own.encode()):
                found = side  # no early return: the time does not say which seat matched
        return found

    def _welcome(self, client: _Client) -> str:
        return frame(
            "welcome",
            role=WATCHER if client.side is None else "player",
            side=client.side,
            seats=self.seats,
            version=self.version,
            connected=self._connected(),
            sees=self.views.seen_by(client),  # whose view it is sent where anything is hidden
            **self.views.whole(client),
        )

    def _connected(self) -> list[str]:
        return sorted({c.side for c in self.clients if c.side is not None})

    async def _after_joining(self, client: _Client) -> None:
        if self.stretch is not None:
            await self.stretch.joined(client)
        await self.dice.joined(client)
        asked = self.undo.asked
        if asked is not None and client.side is not None and client.side != asked[0]:
            await client.send(frame("undo_asked", by=asked[0]))
        await self._broadcast_presence()

    async def _broadcast_presence(self) -> None:
        await self._broadcast(frame("presence", connected=self._connected()))

    async def _broadcast(self, text: str) -> None:
        await asyncio.gather(*(client.send(text) for client in list(self.clients)))

    async def _received(self, client: _Client, text: str | bytes) -> None:
        try:
            message = read_client(text)
        except ProtocolError as error:
            message, problem = None, str(error)
        # answers the game waits for are never held back; anything else is, past the rate
        if not self._awaited(client, message) and not client.bucket.take():
            client.over_rate += 1
            if client.over_rate > ABUSE_LIMIT:
                await client.socket.close(4008, "too many messages")
                return
            slow = "too many messages: slow down"
            if (
                client.side is not None
                and message is not None
                and message["type"] in ("action", "sealed_action")
            ):  # a player's declaration is refused (its screen stops waiting for it)
                await client.send(frame("refused", reason=slow, version=self.version))
            else:
                await client.send(frame("error", message=slow))
            return
        if message is None:
            await client.send(frame("error", message=problem))
            return
        kind = message["type"]
        if kind == "ping":
            await client.send(frame("pong"))
        elif kind == "sync":
            await client.send(self.views.whole_frame(client))
        elif kind == "hello":
            await client.send(frame("error", message="already joined"))
        elif kind == "nonce":
            await self.dice.nonce(client, message)
        elif kind in ("probed", "refereed"):
            stretch = self.stretch
            if stretch is None:
                await client.send(frame("error", message="no stretch is being refereed"))
            else:
                await stretch.answered(client, message)
        elif client.side is None:
            await client.send(frame("error", message="watching: a watcher cannot change the game"))
        elif kind in ("action", "sealed_action"):
            # a task of its own: the step may wait for nonces, this connection's among them
            self._spawn(self._declared(client, message))
        elif kind == "undo":
            await self.undo.asked_by(client, message["version"])
        elif kind == "undo_answer":
            await self.undo.answered(client, message["accept"])
        elif kind == "chat":
            await self.chat(client.side, message["text"])

    def _awaited(self, client: _Client, message: Mapping[str, Any] | None) -> bool:
        """Whether `message` answers a request the server is waiting on (a nonce, or a
        referee's answer): answers the game waits for are never held back by the rate."""
        if message is None:
            return False
        wait, stretch = self.dice.waiting, self.stretch
        if message["type"] == "nonce":
            return wait is not None and client.side in wait.needed and client.side not in wait.got
        if message["type"] in ("probed", "refereed"):
            return stretch is not None and stretch.awaits(client, message)
        return False

    # ----------------------------------------------------------------- playing

    async def _declared(self, client: _Client, message: Mapping[str, Any]) -> None:
        assert self.lock is not None
        async with self.lock:
            given = message.get("id")
            if given is not None and self.applied.get(client.side) == given:
                return  # sent again after a dropped link: it is in the game already
            reason = self._refusal(client.side, message)
            if reason is not None:
                stale = message["version"] != self.version
                await client.send(frame("refused", reason=reason, version=self.version))
                if stale:
                    await client.send(self.views.whole_frame(client))
                return
            action = None
            if message["type"] == "action":
                try:
                    params = freeze(message.get("params") or {})
                except (TypeError, ValueError):
                    await client.send(frame("refused", reason="parameters that are plain values"))
                    return
                action = Action(message["kind"], message["actor"], FrozenMap(params))
            if self.stretch is not None:
                played = await self.stretch.play(action, message.get("commitment", ""), client)
            else:
                assert action is not None
                played = await self._play(action, "", client)
            if played and given is not None:
                self.applied[client.side] = given
            await self._refereed_if_hidden()
        self._kick_ai()

    async def _refereed_if_hidden(self) -> None:
        """From the step where the rules start hiding a guest's moves from the hosting
        player, the guest's client referees (`net.referee`)."""
        if self.stretch is None:
            wanted = needs_referee(self)
            if wanted is not None:
                self.stretch = Stretch(self, *wanted)
                for client in list(self.clients):
                    await self.stretch.joined(client)

    def _refusal(self, side: str | None, message: Mapping[str, Any]) -> str | None:
        stretch = self.stretch
        game = stretch.public if stretch is not None else self.session.game
        if message["version"] != self.version:
            return (
                f"the game moved on since that was chosen (you saw version {message['version']},"
                f" it is at {self.version}): here is the game as it stands"
            )
        if self.undo.asked is not None:
            return f"{self.undo.asked[0]} asked to undo: answer that first"
        sealed = message["type"] == "sealed_action"
        if sealed and (stretch is None or side != stretch.referee):
            return "only the side whose moves are hidden sends a sealed move, while they are"
        if not sealed and message["kind"] == ADJUST:
            return "an online game takes no hand adjustments: ask for an undo instead"
        if game.over:
            return "the game is over"
        if side != game.side_to_act:
            return f"it is {game.side_to_act}'s go, not {side}'s"
        return None

    async def _play(self, action: Action, forced: str, client: _Client | None) -> bool:
        """Apply one step (and then the game's own steps): checked with the rules, its dice
        from the players' nonces; broadcast. False when the rules refuse it."""
        try:
            await self._commit(action, forced)
        except UserError as error:
            reason = error.describe()
        except UNTRUSTED_FAULTS as fault:  # a made-up parameter the rules cannot read
            reason = f"that action cannot be played ({type(fault).__name__})"
        else:
            for _ in range(MAX_FORCED):
                taken = forced_step(self.session.game, self.session.take_single)
                if taken is None:
                    break
                await self._commit(taken.action, taken.reason)
            return True
        if client is not None:
            await client.send(frame("refused", reason=reason, version=self.version))
        return False

    async def _commit(self, action: Action, forced: str) -> None:
        """One step applied and broadcast: tried first with throwaway dice (the rules'
        refusal, and whether its dice are consulted at all), then, if they are, played with
        the players' nonces and the server's reveal."""
        probe = self.session.game.apply(action, forced)
        step = probe.last_step
        assert step is not None
        fair = None
        if step.rolls:
            fair = await self.dice.fair_roll(step.number, lambda c: self.views.title_for(c, probe))
        self.session.history = self.session.history.apply(step.action, forced, fair)
        await self._published()

    async def _published(self) -> None:
        """The step just applied, autosaved and sent to everyone with its digest."""
        self.version += 1
        self.session.write_autosave()
        game = self.session.game
        step = game.last_step
        assert step is not None
        step_frame = frame(
            "step",
            version=self.version,
            number=step.number,
            kind=step.action.kind,
            actor=step.action.actor,
            params=thaw(step.action.params),
            forced=step.forced,
            fair=step.fair.document() if step.fair is not None else None,
            digest=game_digest(game),
        )
        # each client its own: the step, or, where the rules hide something from it, its view
        clients = list(self.clients)
        texts = [self.views.next_frame(client, step_frame) for client in clients]
        await asyncio.gather(*(c.send(t) for c, t in zip(clients, texts, strict=True)))

    # ----------------------------------------------------------------- the computer

    def _kick_ai(self) -> None:
        """Let the computer play when its go comes (in a thread, so the server answers on)."""
        game = self.session.game
        if self._ai_busy or game.over or self.stretch is not None:
            return
        seat = self.seats.get(game.side_to_act, "")
        if seat.startswith("ai"):
            self._ai_busy = True
            self._spawn(self._ai_go(seat))

    async def _ai_go(self, seat: str) -> None:
        from tactical.agents.levels import make_player  # only a server with a computer seat
        from tactical.agents.sight import decide_seeing

        level = seat.partition(":")[2] or "greedy"
        try:
            assert self.lock is not None
            while True:
                game = self.session.game
                if game.over or self.seats.get(game.side_to_act, "") != seat:
                    return
                player = make_player(level, seed=game.step_number)
                # from its own side's view: it never reads what the rules hide from it
                decision = await asyncio.to_thread(decide_seeing, player, game)
                async with self.lock:
                    if self.session.game is not game:
                        continue  # an undo meanwhile: decide again
                    if not await self._play(decision.action, "", None):
                        return
                    await self._refereed_if_hidden()
                    if self.stretch is not None:
                        return
        finally:
            self._ai_busy = False

    # ----------------------------------------------------------------- chat

    async def chat(self, side: str, text: str) -> None:
        """A chat line to every player and into the save (a player's, or the server's own
        word on a checked stretch, `net.referee`)."""
        line = ChatLine(self.session.game.step_number, side, text)
        self.session.chat.append(line)
        self.session.write_autosave()
        await self._broadcast(frame("chat", step=line.step, side=side, text=text))
