"""A player's (or a watcher's) copy of an online game: `RemoteSession`.

The play screen asks a `RemoteSession` what it asks any `Session`; the difference is where
steps come from. `submit` sends the action, with the version of the game it was chosen
on, to the server; the step comes back through `poll`, which the screen calls once a
frame, and is applied to this copy with the same rules and the same dice seed
(`dice.fair`), then checked against the server's digest of the game (`session.digest`):
a copy that differs, or that missed a step, asks for the whole game and catches up.

The network runs in a thread of its own (`_Link`: asyncio and `websockets`), so the
window never waits on it. That thread answers the server's requests for a fresh nonce at
once, with the operating system's randomness (no one has a choice to make), and
reconnects by itself with backoff when the connection drops, saying so in `status`.
Every value the server reveals is checked against the chain head it published before
play (`dice.fair.follows`): a server that changes a roll is named on screen and in the
save (`tactical verify`).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import secrets
import threading
import time
from collections.abc import Callable, Collection
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from tactical.dice.fair import (
    FairRoll,
    check_rolls,
    follows,
    fresh_nonce,
    is_nonce,
)
from tactical.errors import UserError
from tactical.io.saves import SaveError, loads_save
from tactical.model import thaw
from tactical.net.arrivals import Arrivals
from tactical.net.owner import OwnReferee
from tactical.net.protocol import (
    DEFAULT_PORT,
    ProtocolError,
    address_of,
    frame,
    read_server,
)
from tactical.rules.base import Action
from tactical.session.controller import Session
from tactical.session.game import Game, Step
from tactical.session.replay import Replay
from tactical.session.saving import Autosave, history_from_saved

GAME_FRAME_LIMIT = 256 << 20  # a whole game sent by the server (a long game's save is big)
RETRY_SECONDS = (0.25, 0.5, 1, 2, 4, 8)  # waits between reconnection tries, then the last
MAX_TRIES = 90  # tries before giving up (about ten minutes)
REVEAL_SECONDS = 15.0  # after our nonce, how long before a silent server is reported
JOIN_SECONDS = 10.0


class _Link:
    """The connection to the server, in a thread of its own (see the module docstring)."""

    def __init__(self, uri: str, hello: dict[str, Any]) -> None:
        self.uri, self.hello = uri, hello
        self.inbox: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.outbox: asyncio.Queue[str] | None = None
        self.closed = threading.Event()
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, name="tactical-link", daemon=True)
        self.nonces_sent: dict[int, float] = {}  # step: when our nonce for it went

    def start(self) -> None:
        self.thread.start()
        self.started.wait(5)

    def send(self, text: str) -> None:
        """Queue a message (from any thread): sent now, or once connected again."""
        loop, outbox = self.loop, self.outbox
        if loop is not None and outbox is not None and not self.closed.is_set():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(outbox.put_nowait, text)

    def close(self) -> None:
        self.closed.set()
        loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(lambda: None)  # wake it
        self.thread.join(3)

    def _status(self, text: str, **more: Any) -> None:
        self.inbox.put({"type": "link", "text": text, **more})

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.outbox = asyncio.Queue()
        self.started.set()
        tries = 0
        while not self.closed.is_set():
            try:
                async with connect(
                    self.uri, max_size=GAME_FRAME_LIMIT, open_timeout=5, ping_interval=20
                ) as socket:
                    tries = 0
                    await socket.send(frame("hello", **self.hello))
                    self._status("connected", connected=True)
                    await self._session(socket)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if code in (4001, 4002):  # the server refused our seat: trying again won't help
                    reason = closed.rcvd.reason if closed.rcvd is not None else ""
                    self._status(f"the server refused this seat: {reason}", final=True)
                    return
                if code == 4000:
                    self._status("this seat was taken up by another connection", final=True)
                    return
            except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as error:
                if isinstance(error, InvalidURI):
                    self._status(f"not an address: {self.uri}", final=True)
                    return
            if self.closed.is_set():
                return
            tries += 1
            if tries > MAX_TRIES:
                self._status("gave up reconnecting: the server is gone", final=True)
                return
            wait = RETRY_SECONDS[min(tries - 1, len(RETRY_SECONDS) - 1)]
            self._status(
                f"connection lost: reconnecting in {wait:g} s (try {tries})", connected=False
            )
            await self._sleep(wait)

    async def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not self.closed.is_set():
            await asyncio.sleep(min(0.05, seconds))

    async def _session(self, socket: Any) -> None:
        assert self.outbox is not None
        writer = asyncio.create_task(self._write(socket))
        closer = asyncio.create_task(self._watch_close(socket))
        try:
            async for text in socket:
                try:
                    message = read_server(text)
                except ProtocolError as error:
                    self._status(f"the server sent something unreadable: {error}")
                    continue
                if message["type"] == "nonce_wanted":
                    step = message.get("step")
                    if isinstance(step, int) and not isinstance(step, bool):
                        await socket.send(frame("nonce", step=step, nonce=fresh_nonce()))
                        self.nonces_sent[step] = time.monotonic()
                self.inbox.put(message)
        finally:
            writer.cancel()
            closer.cancel()

    async def _write(self, socket: Any) -> None:
        assert self.outbox is not None
        while True:
            text = await self.outbox.get()
            try:
                await socket.send(text)
            except ConnectionClosed:
                self.outbox.put_nowait(text)  # sent again once reconnected: nothing is lost
                return

    async def _watch_close(self, socket: Any) -> None:
        while not self.closed.is_set():
            await asyncio.sleep(0.05)
        await socket.close()


class RemoteSession(Session):
    """A game played with others through a server (see the module docstring).

    `side` is the side this screen plays (None: watching). `status` is one line on the
    connection; `waiting_on` the sides the game waits for; `undo_asked_by` the side that
    asked to undo, waiting for this player's answer; `problems` what the checks of the
    server's reveals and digests found."""

    online = True

    def __init__(self, link: _Link, address: str, autosave: Autosave | None = None) -> None:
        self.link = link
        self.address = address
        self.side: str | None = None
        self.watching = False
        self.version = -1
        self.seats: dict[str, str] = {}
        self.connected_sides: tuple[str, ...] = ()
        self.status = "connecting"
        self.final = False  # the link gave up, or the seat was refused
        self.waiting_on: tuple[str, ...] = ()
        self.waiting_what = ""
        self.undo_asked_by: str | None = None
        # (version, when, message) of our last action, until its step or refusal comes back
        self.sent: tuple[int, float, str] | None = None
        self.problems: list[str] = []
        self.steps_seen = 0  # steps received from the server
        # while the rules hide something from this side, the server sends its view of the
        # game (`net.views`), which is drawn and decided from but cannot be replayed
        self.viewing = False
        self.sees: str | None = None  # whose view it is sent (None: both sides')
        self.owner = OwnReferee(self)  # refereeing its own hidden moves (`net.owner`)
        self.arrivals = Arrivals(self)  # what it does with each message (`net.arrivals`)
        self.on_step: Callable[[Step], None] | None = None  # a bench's stopwatch
        self._known: dict[tuple[str, int], tuple[int, str]] = {}  # chain: last (index, value)
        self._autosave_target = autosave
        self._reported_silence: set[int] = set()
        self.reveal_seconds = REVEAL_SECONDS  # a silent server is reported after this
        # what `Session.__init__` sets; the history itself arrives with the welcome (`join`
        # returns once it has)
        self.autosave = None
        self.autosave_problem = ""
        self.taken = ()
        self.fair = None
        self.chat = []

    # ----------------------------------------------------------------- joining

    @classmethod
    def join(
        cls,
        address: str,
        token: str | None = None,
        *,
        watch: bool = False,
        autosave: Autosave | None = None,
        seconds: float = JOIN_SECONDS,
    ) -> RemoteSession:
        """Connect to a game at `address` ("HOST:PORT") with a seat's token (or to watch),
        and wait until the whole game has arrived. UserError saying why when it cannot."""
        try:
            host, port = address_of(address, DEFAULT_PORT)
        except ValueError as error:
            raise UserError(f"join: {error}") from None
        if token is None and not watch:
            raise UserError("join: give the token of your seat (--token), or --watch")
        hello: dict[str, Any] = {"watch": True} if watch else {}
        if token is not None:
            hello["token"] = token
        shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        link = _Link(f"ws://{shown}", hello)
        session = cls(link, shown, autosave)
        link.start()
        end = time.monotonic() + seconds
        while session.version < 0:
            session.poll()
            if session.final or time.monotonic() > end:
                link.close()
                why = session.status if session.final else "no answer"
                raise UserError(f"join {shown}: {why}")
            time.sleep(0.02)
        return session

    def close(self) -> None:
        self.link.close()

    # ----------------------------------------------------------------- the screen's hooks

    def submit(self, action: Action) -> Step | None:
        held = self.hold_reason()
        if held is not None:
            raise UserError(held)
        text = self.owner.declared(action) or frame(
            "action",
            version=self.version,
            kind=action.kind,
            actor=action.actor,
            params=thaw(action.params),
            id=secrets.token_hex(8),  # a resent action is applied once (the server knows it)
        )
        self.sent = (self.version, time.monotonic(), text)
        self.link.send(text)
        return None

    def apply(self, action: Action) -> Step | None:  # type: ignore[override]
        """In an online game a step comes from the server: the action is sent (`submit`)
        and its step arrives through `poll`."""
        return self.submit(action)

    def hold_reason(self) -> str | None:
        if self.watching:
            return "watching: read-only"
        if self.final or self.version < 0:
            return self.status
        # while the link is down an action may still be declared: it is sent once the link
        # is back (and applied once, whatever happened to the first try)
        if self.undo_asked_by is not None:
            return f"{self.undo_asked_by} asks to undo the last decision: accept or decline"
        if self.sent is not None and self.sent[0] == self.version:
            return "sent: waiting for the server"
        if self.waiting_on and self.side not in self.waiting_on:
            return f"waiting for {', '.join(self.waiting_on)}…"
        game = self.game
        if not game.over and game.side_to_act != self.side:
            return f"waiting for {game.side_to_act}…"
        return None

    def poll(self) -> tuple[str, ...]:
        said: list[str] = []
        while True:
            try:
                message = self.link.inbox.get_nowait()
            except queue.Empty:
                break
            line = self._received(message)
            if line:
                said.append(line)
        said.extend(self._silent_server())
        return tuple(said)

    # ----------------------------------------------------------------- requests

    def ask_undo(self) -> None:
        """Ask the other players to take back the last decision (they accept or decline)."""
        if self.watching:
            raise UserError("watching: read-only")
        self.link.send(frame("undo", version=self.version))

    def answer_undo(self, accept: bool) -> None:
        self.undo_asked_by = None
        self.link.send(frame("undo_answer", accept=bool(accept)))

    def say(self, text: str) -> None:
        """One line of chat to the other players (and into the save)."""
        line = " ".join(text.split())[:500]
        if not line:
            return
        if self.watching:
            raise UserError("watching: a watcher cannot write to the players")
        self.link.send(frame("chat", text=line))

    def undo_decision(self, computer: Collection[str] = ()) -> Game:
        self.ask_undo()
        return self.game

    def _refused_locally(self, *_: Any, **__: Any) -> Game:
        raise UserError("in an online game only an undo both players agree to goes back")

    redo_decision = undo = redo = goto = reset_activation = _refused_locally

    def replay(self) -> Replay:
        """A replay of this copy of the game; not while it is a view (its hidden steps
        cannot be stepped through: the replay opens once the whole game has arrived)."""
        if self.viewing:
            raise UserError(
                "the rules hide some of the other side's moves from you: the replay opens "
                "once they are revealed (a cloaked ship's moves, when its cloak drops)"
            )
        return super().replay()

    def set_take_single(self, take: bool) -> tuple[Step, ...]:
        raise UserError("in an online game the server's setting for single-choice steps holds")

    # ----------------------------------------------------------------- what arrives

    def _received(self, message: dict[str, Any]) -> str:
        kind = message.get("type")
        try:
            handler = getattr(self.arrivals, f"on_{kind}", None) or getattr(
                self.owner, f"on_{kind}", None
            )
            return handler(message) if handler is not None else ""
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            self.link.send(frame("sync"))
            return f"the server sent a {kind} message this copy cannot use ({error}): catching up"

    def load(self, text: str, version: int) -> None:
        try:
            saved = loads_save(text, "the server's game")
            history = history_from_saved(saved, "the server's game")
        except (SaveError, UserError) as error:
            self.problems.append(f"the server's game cannot be replayed here: {error.describe()}")
            return
        self.history, self.fair, self.chat = history, saved.fair, list(saved.chat)
        self.version = version
        self.sent = None
        self.waiting_on = ()
        self.viewing = False
        self.check_ledger()
        self.own_autosave()

    def check_ledger(self) -> None:
        """Every reveal in the game received checked against its chain; the last value of
        each chain remembered to check the next reveals as they arrive."""
        ledger = self.fair
        if ledger is None:
            return
        steps = self.history.steps
        problem = check_rolls(ledger, ((s.number, s.fair, bool(s.rolls)) for s in steps))
        if problem is not None:
            self.problems.append(f"step {problem.step}: {problem.reason}")
        self._known = {}
        for _, fair in (*((s.number, s.fair) for s in steps), *ledger.withdrawn):
            if fair is not None:
                key = (fair.by, fair.chain)
                if fair.index > self._known.get(key, (0, ""))[0]:
                    self._known[key] = (fair.index, fair.reveal)

    def took_step(self) -> None:
        """A step joined this copy of the game (sent by the server, or played here as the
        referee of a stretch): the waits for it end, the autosave follows."""
        step = self.game.last_step
        if step is not None:
            self._reported_silence.discard(step.number)
            self.link.nonces_sent.pop(step.number, None)
        self.steps_seen += 1
        if step is not None and self.on_step is not None:
            self.on_step(step)
        self.own_autosave()

    def check_reveal(self, fair: FairRoll | None, number: int) -> str:
        """A reveal that does not follow the chain its server committed to, in words (""
        when it follows); the chain's last value known moves on."""
        if fair is None or self.fair is None:
            return ""
        chains = self.fair.chains_of(fair.by)
        if fair.chain >= len(chains) or not is_nonce(fair.reveal):
            return self.note_problem(number, f"{fair.by} revealed from a chain it never published")
        index, value = self._known.get((fair.by, fair.chain), (0, chains[fair.chain].head))
        if fair.index <= index:
            return self.note_problem(number, f"{fair.by} revealed value {fair.index} again")
        if not follows(value, fair.reveal, fair.index - index):
            return self.note_problem(
                number,
                f"{fair.by}'s revealed value does not match what it committed to before play: "
                "the roll may have been tampered with",
            )
        self._known[(fair.by, fair.chain)] = (fair.index, fair.reveal)
        return ""

    def note_problem(self, number: int, text: str) -> str:
        line = f"step {number}: {text}"
        self.problems.append(line)
        return line

    def _silent_server(self) -> list[str]:
        """A server that does not reveal its value long after our nonce is reported."""
        said = []
        now = time.monotonic()
        for step, when in list(self.link.nonces_sent.items()):
            if now - when > self.reveal_seconds and step not in self._reported_silence:
                self._reported_silence.add(step)
                said.append(
                    self.note_problem(
                        step,
                        f"the server has not revealed its value {self.reveal_seconds:g} s "
                        "after our nonce; if it never does, the game stops before this roll "
                        "and the save shows the step was never played",
                    )
                )
        return said

    def own_autosave(self) -> None:
        """This player's own copy of the game (what `tactical verify` checks afterwards):
        not while it holds a view (the truth comes, and is saved, once nothing is hidden)."""
        if self._autosave_target is not None and not self.viewing:
            self.autosave = self._autosave_target
            self._autosave()

    # ----------------------------------------------------------------- waiting (tests, bench)

    def wait_until(self, done: Callable[[RemoteSession], bool], seconds: float = 10.0) -> bool:
        """Poll until `done(self)` or `seconds` have passed (no window: tests and benches)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.poll()
            if done(self):
                return True
            time.sleep(0.002)
        self.poll()
        return done(self)
