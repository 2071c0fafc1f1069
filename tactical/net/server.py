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

Undo is a request: the other players accept or decline it (a computer seat accepts).
Chat lines go to every player and into the save. The game is autosaved after every change;
the seats' tokens and the chain's secret go in a file of the server's own (`ServerFile`,
readable by its owner only), so that `--resume` after a crash goes on with the same
tokens and the same committed chain.

Every connection is limited in message size (`protocol.MAX_MESSAGE`) and rate; a bad
message gets an error frame and changes nothing; a hostile client cannot stop the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tactical.dice.fair import (
    CHAIN_LENGTH,
    Commitment,
    FairLedger,
    FairRoll,
    HashChain,
    next_index,
)
from tactical.errors import UserError
from tactical.io.files import write_text_atomic
from tactical.io.saves import ChatLine, dumps_save
from tactical.model import FrozenMap, freeze, thaw
from tactical.net.protocol import FRAME_LIMIT, ProtocolError, frame, read_client
from tactical.rules.base import Action
from tactical.session.adjust import ADJUST
from tactical.session.controller import Session
from tactical.session.digest import game_digest
from tactical.session.forced import MAX_FORCED, forced_step
from tactical.session.history import History
from tactical.session.saving import UNTRUSTED_FAULTS, saved_game

REVEALER = "server"  # the party name of the server's chain in the ledger
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

    async def send(self, text: str) -> None:
        """Send, or drop a client that stopped reading (it must not hold up the others)."""
        try:
            await asyncio.wait_for(self.socket.send(text), SEND_SECONDS)
        except ConnectionClosed:
            pass
        except TimeoutError:
            self.socket.transport.abort()


@dataclass
class _NonceWait:
    """A step waiting for the players' fresh nonces."""

    step: int
    needed: frozenset[str]
    title: str
    got: dict[str, str] = field(default_factory=dict)
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class ServerFile:
    """What a server keeps of its own next to the autosave (never sent, never in the save):
    the seats and their tokens, and the secrets of its chains (one per commitment)."""

    seats: Mapping[str, str]
    tokens: Mapping[str, str]
    chains: tuple[str, ...]

    def write(self, path: Path) -> None:
        text = json.dumps(
            {"seats": dict(self.seats), "tokens": dict(self.tokens), "chains": list(self.chains)}
        )
        write_text_atomic(path, text)
        with contextlib.suppress(OSError):
            os.chmod(path, 0o600)  # the tokens and secrets are its owner's only

    @classmethod
    def read(cls, path: Path) -> ServerFile:
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
            seats, tokens, chains = document["seats"], document["tokens"], document["chains"]
            assert isinstance(seats, dict) and isinstance(tokens, dict)
            assert isinstance(chains, list) and all(isinstance(c, str) for c in chains)
            assert all(isinstance(v, str) for v in (*seats.values(), *tokens.values()))
        except (OSError, ValueError, KeyError, TypeError, AssertionError):
            raise UserError(
                f"{str(path)!r}: not a server file of tactical (the seats, tokens and dice "
                "secrets of a hosted game): cannot resume"
            ) from None
        return cls(seats, tokens, tuple(chains))


def server_file_of(autosave: Path) -> Path:
    """Where a hosted game's server file lives: next to its autosave."""
    return autosave.with_name(autosave.name + ".server")


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
    ) -> None:
        sides = session.game.sides
        for side in sides:
            if seats.get(side) is None:
                raise UserError(f"no seat for {side}")
        self.session = session
        self.seats = dict(seats)
        self.tokens = dict(tokens or {})
        for side in sides:
            if not self.seats[side].startswith("ai") and side not in self.tokens:
                self.tokens[side] = secrets.token_urlsafe(16)
        self.host, self.port = host, port
        self.server_file = server_file
        self.secrets = list(chains)
        self.clients: list[_Client] = []
        # the game's version counts changes from a number drawn when the server starts, so
        # that an action chosen before a restart never matches a version after it
        self.version = secrets.randbelow(2**31) << 20
        self.lock: asyncio.Lock | None = None
        self.nonce_wait: _NonceWait | None = None
        self.undo_asked: tuple[str, int] | None = None  # (by side, at version)
        self.applied: dict[str | None, str] = {}  # each seat's last action applied, by its id
        self.ready = threading.Event()  # set once the port is open
        self.problem = ""  # why the server could not start
        self.stopping: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._chains: dict[int, HashChain] = {}
        self._ai_busy = False
        self._tasks: set[asyncio.Task] = set()
        self._ledger_ready()

    # ----------------------------------------------------------------- the dice ledger

    @property
    def players(self) -> tuple[str, ...]:
        """The sides whose nonces every roll needs: the ones played from elsewhere."""
        return tuple(s for s in self.session.game.sides if self.seats[s] == "remote")

    def _ledger_ready(self) -> None:
        """A chain committed for the rolls to come: the one this server kept (resumed), or a
        new one published now (a new game, or a save hosted by a server without its secret)."""
        ledger = self.session.fair or FairLedger((), self.players)
        ours = ledger.chains_of(REVEALER)
        have = [HashChain(secret) for secret in self.secrets]
        if not ours or len(have) < len(ours) or have[len(ours) - 1].head != ours[-1].head:
            chain = HashChain.new()
            history = self.session.history
            start = history.first.step_number + history.cursor + 1  # the next step's number
            ledger = ledger.with_commitment(Commitment(REVEALER, chain.head, start))
            self.secrets = [*self.secrets[: len(ours)], chain.secret]
        if ledger.players != self.players:
            ledger = FairLedger(ledger.commitments, self.players, ledger.withdrawn)
        self.session.fair = ledger
        self._write_server_file()
        self.session.write_autosave()

    def _chain(self, number: int) -> HashChain:
        if number not in self._chains:
            self._chains[number] = HashChain(self.secrets[number])
        return self._chains[number]

    def _write_server_file(self) -> None:
        if self.server_file is not None:
            ServerFile(self.seats, self.tokens, tuple(self.secrets)).write(self.server_file)

    def reveal(self, chain: int, index: int) -> str:
        """The value of the server's chain revealed for a roll (a test's cheating server
        changes this: the players catch it)."""
        return self._chain(chain).value(index)

    async def _revealed(self, chain: int, index: int) -> str:
        """The reveal, once every nonce is in (a test's server that stops answering then
        never returns from here)."""
        return self.reveal(chain, index)

    def _next_value(self) -> tuple[int, int]:
        """(chain number, index) of the next value to reveal; a new chain is committed when
        the last runs out."""
        ledger = self.session.fair
        assert ledger is not None
        chain = len(ledger.chains_of(REVEALER)) - 1
        records = (step.fair for step in self.session.game.steps)
        index = next_index(records, REVEALER, chain, ledger)
        if index > CHAIN_LENGTH:
            fresh = HashChain.new()
            step = self.session.game.step_number + 1
            self.session.fair = ledger.with_commitment(Commitment(REVEALER, fresh.head, step))
            self.secrets.append(fresh.secret)
            self._write_server_file()
            self.session.write_autosave()  # published before it is used
            return chain + 1, 1
        return chain, index

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

    def _game_text(self) -> str:
        return dumps_save(saved_game(self.session.history, self.session.fair, self.session.chat))

    def _welcome(self, client: _Client) -> str:
        return frame(
            "welcome",
            role=WATCHER if client.side is None else "player",
            side=client.side,
            seats=self.seats,
            version=self.version,
            game=self._game_text(),
            connected=self._connected(),
        )

    def _connected(self) -> list[str]:
        return sorted({c.side for c in self.clients if c.side is not None})

    async def _after_joining(self, client: _Client) -> None:
        wait = self.nonce_wait
        if wait is not None and client.side in wait.needed and client.side not in wait.got:
            await client.send(frame("nonce_wanted", step=wait.step, title=wait.title))
        asked = self.undo_asked
        if asked is not None and client.side is not None and client.side != asked[0]:
            await client.send(frame("undo_asked", by=asked[0]))
        await self._broadcast_presence()

    async def _broadcast_presence(self) -> None:
        await self._broadcast(frame("presence", connected=self._connected()))

    async def _broadcast(self, text: str) -> None:
        await asyncio.gather(*(client.send(text) for client in list(self.clients)))

    async def _received(self, client: _Client, text: str | bytes) -> None:
        if not client.bucket.take():
            client.over_rate += 1
            if client.over_rate > ABUSE_LIMIT:
                await client.socket.close(4008, "too many messages")
                return
            await client.send(frame("error", message="too many messages: slow down"))
            return
        try:
            message = read_client(text)
        except ProtocolError as error:
            await client.send(frame("error", message=str(error)))
            return
        kind = message["type"]
        if kind == "ping":
            await client.send(frame("pong"))
        elif kind == "sync":
            await client.send(frame("game", version=self.version, game=self._game_text()))
        elif kind == "hello":
            await client.send(frame("error", message="already joined"))
        elif kind == "nonce":
            await self._nonce(client, message)
        elif client.side is None:
            await client.send(frame("error", message="watching: a watcher cannot change the game"))
        elif kind == "action":
            # a task of its own: the step may wait for nonces, this connection's among them
            self._spawn(self._declared(client, message))
        elif kind == "undo":
            await self._undo_asked(client, message["version"])
        elif kind == "undo_answer":
            await self._undo_answered(client, message["accept"])
        elif kind == "chat":
            await self._chat(client.side, message["text"])

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
                    await client.send(frame("game", version=self.version, game=self._game_text()))
                return
            try:
                params = freeze(message.get("params") or {})
            except (TypeError, ValueError):
                await client.send(frame("refused", reason="parameters that are plain values"))
                return
            action = Action(message["kind"], message["actor"], FrozenMap(params))
            if await self._play(action, "", client) and given is not None:
                self.applied[client.side] = given
        self._kick_ai()

    def _refusal(self, side: str | None, message: Mapping[str, Any]) -> str | None:
        game = self.session.game
        if message["version"] != self.version:
            return (
                f"the game moved on since that was chosen (you saw version {message['version']},"
                f" it is at {self.version}): here is the game as it stands"
            )
        if self.undo_asked is not None:
            return f"{self.undo_asked[0]} asked to undo: answer that first"
        if message["kind"] == ADJUST:
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
        fair = await self._fair_roll(step.number, step.title) if step.rolls else None
        self.session.history = self.session.history.apply(step.action, forced, fair)
        await self._published()

    async def _fair_roll(self, number: int, title: str) -> FairRoll:
        """The fair record of step `number`: every player's fresh nonce, then the reveal."""
        needed = frozenset(self.players)
        fresh: dict[str, str] = {}
        if needed:
            wait = _NonceWait(number, needed, title)
            self.nonce_wait = wait
            await self._broadcast(
                frame("waiting", on=sorted(needed), what=f"a nonce for step {number} ({title})")
            )
            for client in list(self.clients):
                if client.side in needed:
                    await client.send(frame("nonce_wanted", step=number, title=title))
            await wait.done.wait()
            self.nonce_wait = None
            fresh = dict(wait.got)
        chain, index = self._next_value()
        revealed = await self._revealed(chain, index)
        return FairRoll(REVEALER, chain, index, revealed, tuple(sorted(fresh.items())))

    async def _nonce(self, client: _Client, message: Mapping[str, Any]) -> None:
        wait = self.nonce_wait
        if wait is None or message["step"] != wait.step or client.side not in wait.needed:
            await client.send(frame("error", message="no nonce is wanted from you for that step"))
            return
        if client.side in wait.got:
            await client.send(frame("error", message="your nonce for that step is already in"))
            return
        wait.got[client.side] = message["nonce"]
        if set(wait.got) == wait.needed:
            wait.done.set()

    async def _published(self) -> None:
        """The step just applied, autosaved and sent to everyone with its digest."""
        self.version += 1
        self.session.write_autosave()
        game = self.session.game
        step = game.last_step
        assert step is not None
        await self._broadcast(
            frame(
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
        )

    # ----------------------------------------------------------------- the computer

    def _kick_ai(self) -> None:
        """Let the computer play when its go comes (in a thread, so the server answers on)."""
        game = self.session.game
        if self._ai_busy or game.over:
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
        finally:
            self._ai_busy = False

    # ----------------------------------------------------------------- undo and chat

    def _humans_but(self, side: str) -> list[str]:
        return [s for s, seat in self.seats.items() if s != side and not seat.startswith("ai")]

    async def _undo_asked(self, client: _Client, version: int) -> None:
        assert client.side is not None
        if version != self.version or not self.session.can_undo:
            why = "nothing to undo" if not self.session.can_undo else "the game moved on"
            await client.send(frame("refused", reason=f"undo: {why}", version=self.version))
            return
        others = self._humans_but(client.side)
        if not others:  # the computer accepts
            await self._undo()
            return
        self.undo_asked = (client.side, version)
        for other in list(self.clients):
            if other.side in others:
                await other.send(frame("undo_asked", by=client.side))
        await client.send(frame("waiting", on=others, what="an answer to your undo request"))

    async def _undo_answered(self, client: _Client, accept: bool) -> None:
        asked = self.undo_asked
        if asked is None or client.side == asked[0]:
            await client.send(frame("error", message="no undo request is waiting for you"))
            return
        self.undo_asked = None
        if not accept:
            await self._broadcast(frame("undo_declined", by=client.side))
            return
        await self._undo()

    async def _undo(self) -> None:
        """Back to before the last decision; the dice values its steps used stay used."""
        assert self.lock is not None
        async with self.lock:
            computer = [s for s, seat in self.seats.items() if seat.startswith("ai")]
            old = self.session.history
            back = old.undo_decision(computer)
            cut = History.of_line(back.first, back.game, back.cursor, back.take_single)
            offset = old.first.step_number
            dropped = [
                (step.number, step.fair)
                for step in old.steps[offset + back.cursor :]
                if step.fair is not None
            ]
            assert self.session.fair is not None
            self.session.fair = self.session.fair.with_withdrawn(dropped)
            self.session.history = cut
            self.version += 1
            self.session.write_autosave()
            await self._broadcast(frame("game", version=self.version, game=self._game_text()))
        self._kick_ai()

    async def _chat(self, side: str, text: str) -> None:
        line = ChatLine(self.session.game.step_number, side, text)
        self.session.chat.append(line)
        self.session.write_autosave()
        await self._broadcast(frame("chat", step=line.step, side=side, text=text))
