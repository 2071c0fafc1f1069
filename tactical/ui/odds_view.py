"""Odds in the play screen: a background cache of exact odds, computed in a child.

The budget is "the odds for a hovered target ready within one frame", but an exact
enumeration takes from a fraction of a millisecond to seconds. So the odds are
computed ahead on one background thread (`OddsBoard`) that hands each enumeration to a
child process (`ProcessOdds`), so the frames never wait for the interpreter lock while
it runs: the play screen prefetches
every target of the picked declaration, nearest first, and the target the user hovers
jumps the queue. A frame never waits for more than a small synchronous budget.

The odds are always `Game.odds(action)`: the very resolver that resolves the roll
(docs/architecture.md "Odds come from the same code"). The worker only reads immutable values
(`Game`, `Action`, `OddsReport`) and never touches dice or the game; what it computes
is kept in a bounded LRU keyed on the game value and the action.

The chart and the text of a report are `tactical.ui.odds_chart`'s.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from tactical.errors import UserError
from tactical.processes import child_pool, manager_of, manager_stopped
from tactical.rules.base import Action, OddsReport
from tactical.session.game import Game

Status = Literal["ready", "pending", "none", "error"]
Compute = Callable[[Game, Action], "OddsReport | None"]

CLOSE_WAIT = 2.0  # seconds closing waits at most for the pool's manager thread to end
SYNC_BUDGET = 0.004  # seconds a frame may wait for odds it asks for the first time
CACHE_SIZE = 256  # reports kept (an LRU: the game values they belong to stay alive with them)


@dataclass(frozen=True)
class OddsResult:
    """Where the odds of one action stand.

    `status`: "ready" (`report` holds them), "pending" (queued or being computed),
    "none" (the action has no roll, `Game.odds` gave None) or "error" (`message` says
    why, a UserError's text). `seconds` is how long the computation took.
    """

    status: Status
    report: OddsReport | None = None
    message: str = ""
    seconds: float = 0.0

    @property
    def done(self) -> bool:
        return self.status != "pending"


PENDING = OddsResult("pending")


def game_odds(game: Game, action: Action) -> OddsReport | None:
    """The default computation: the session's own odds of `action` in `game`."""
    return game.odds(action)


@dataclass(frozen=True, eq=False)
class _Job:
    key: Hashable
    game: Game
    action: Action
    generation: int


def _key(game: Game, action: Action) -> Hashable:
    """The cache key: the game value by identity (a Game is immutable and compares by
    identity, so the key also keeps it alive) and the action by value."""
    try:
        hash(action)
    except TypeError:
        return (game, action.kind, action.actor, repr(action.params))
    return (game, action)


class OddsBoard:
    """A cache of exact odds filled by one background worker (see the module docstring).

    `get` answers at once from the cache, or queues the action at the front and waits at
    most `sync_budget` seconds (the first time only) before answering "pending";
    `request` queues at the front (what the user hovers now), `prefetch` at the back in
    the order given; `clear` drops the queue and discards work under way (a new game
    state); `revision` grows by one each time a result is stored, so a frame can tell
    cheaply that something new is ready. `on_ready`, if given, is called on the worker
    thread with each stored result (e.g. to post a pygame event).
    """

    _live: ClassVar[weakref.WeakSet[OddsBoard]] = weakref.WeakSet()

    @classmethod
    def shutdown_all(cls) -> None:
        """Stop the worker of every board not yet shut down (a test's end, the process's)."""
        for board in list(cls._live):
            board.shutdown()

    def __init__(
        self,
        compute: Compute = game_odds,
        *,
        sync_budget: float = SYNC_BUDGET,
        capacity: int = CACHE_SIZE,
        on_ready: Callable[[OddsResult], None] | None = None,
    ) -> None:
        if capacity < 1:
            raise ValueError("an odds cache needs room for at least one report")
        self._compute = compute
        self.sync_budget = sync_budget
        self._capacity = capacity
        self._on_ready = on_ready
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._cache: OrderedDict[Hashable, OddsResult] = OrderedDict()
        self._queue: deque[_Job] = deque()
        self._queued: dict[Hashable, _Job] = {}
        self._running: _Job | None = None
        self._waited: set[Hashable] = set()
        self._generation = 0
        self._revision = 0
        self._closed = False
        self._worker: threading.Thread | None = None
        OddsBoard._live.add(self)

    # ----------------------------------------------------------------- asking

    def get(self, game: Game, action: Action) -> OddsResult:
        """The odds of `action` in `game` if known; else queued first and "pending" unless
        they are ready within the synchronous budget (waited for once per action)."""
        key = _key(game, action)
        with self._lock:
            known = self._hit(key)
            if known is not None:
                return known
            self._submit(key, game, action, front=key not in self._queued)
            if key in self._waited or self.sync_budget <= 0:
                return PENDING
            self._waited.add(key)
            return self._await(key, self.sync_budget)

    def request(self, game: Game, action: Action) -> None:
        """Queue `action` ahead of everything else (what the user hovers now)."""
        key = _key(game, action)
        with self._lock:
            if self._hit(key) is None:
                self._submit(key, game, action, front=True)

    def prefetch(self, game: Game, actions: Iterable[Action]) -> None:
        """Queue `actions` behind what is already queued, in the order given."""
        with self._lock:
            for action in actions:
                key = _key(game, action)
                if key not in self._cache and key not in self._queued:
                    self._submit(key, game, action, front=False)

    def peek(self, game: Game, action: Action) -> OddsResult:
        """The odds if known, else "pending" — queues nothing and never waits."""
        with self._lock:
            return self._hit(_key(game, action)) or PENDING

    def wait(self, game: Game, action: Action, timeout: float) -> OddsResult:
        """Queue `action` first and wait up to `timeout` seconds for it (tests, scripts)."""
        key = _key(game, action)
        with self._lock:
            known = self._hit(key)
            if known is not None:
                return known
            self._submit(key, game, action, front=True)
            return self._await(key, timeout)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is queued or running; whether that happened within `timeout`."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._queue or self._running is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True

    # ----------------------------------------------------------------- state

    @property
    def revision(self) -> int:
        """How many results have been stored so far."""
        return self._revision

    @property
    def queued(self) -> tuple[Action, ...]:
        """The actions waiting, in the order they will be computed."""
        with self._lock:
            return tuple(job.action for job in self._queue)

    def __len__(self) -> int:
        """How many results are cached."""
        with self._lock:
            return len(self._cache)

    def clear(self) -> None:
        """A new game state: drop the queue and discard the result of work under way.

        Cached results stay: they are keyed on immutable game values, so they are still
        right if an undo brings an old game back, and the LRU bounds them.
        """
        with self._lock:
            self._generation += 1
            self._queue.clear()
            self._queued.clear()
            self._waited.clear()
            self._changed.notify_all()

    def shutdown(self, timeout: float = 0.0) -> None:
        """Stop the worker (it finishes the computation under way, whose result is dropped)
        and close the computation if it has a `close` (a `ProcessOdds`)."""
        with self._lock:
            self._closed = True
            self._generation += 1
            self._queue.clear()
            self._queued.clear()
            self._changed.notify_all()
            worker = self._worker
        close = getattr(self._compute, "close", None)
        if close is not None:
            close()
        OddsBoard._live.discard(self)
        if worker is not None and timeout > 0:
            worker.join(timeout)

    # ----------------------------------------------------------------- inside (lock held)

    def _hit(self, key: Hashable) -> OddsResult | None:
        result = self._cache.get(key)
        if result is not None:
            self._cache.move_to_end(key)
        return result

    def _submit(self, key: Hashable, game: Game, action: Action, *, front: bool) -> None:
        if self._closed:
            raise RuntimeError("the odds board has been shut down")
        if self._running is not None and self._running.key == key:
            return
        job = self._queued.get(key)
        if job is not None:
            if not front:
                return
            self._queue.remove(job)
        else:
            job = _Job(key, game, action, self._generation)
            self._queued[key] = job
        if front:
            self._queue.appendleft(job)
        else:
            self._queue.append(job)
        self._start_worker()
        self._changed.notify_all()

    def _await(self, key: Hashable, timeout: float) -> OddsResult:
        deadline = time.monotonic() + timeout
        while key not in self._cache:
            left = deadline - time.monotonic()
            if left <= 0:
                return PENDING
            self._changed.wait(left)
        return self._cache[key]

    def _start_worker(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name="odds-board", daemon=True)
            self._worker.start()

    # ----------------------------------------------------------------- the worker

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
                job = self._queue.popleft()
                del self._queued[job.key]
                self._running = job
            result = self._run(job)
            with self._lock:
                self._running = None
                stored = job.generation == self._generation and not self._closed
                if stored:
                    self._cache[job.key] = result
                    self._cache.move_to_end(job.key)
                    while len(self._cache) > self._capacity:
                        self._cache.popitem(last=False)
                    self._revision += 1
                self._changed.notify_all()
            if stored and self._on_ready is not None:
                self._on_ready(result)

    def _took(self, start: float) -> float:
        """The odds' own time: what the computation measured where it says so (the child
        process's enumeration, `ProcessOdds.last_seconds`), else the time since `start`."""
        measured = getattr(self._compute, "last_seconds", None)
        return measured if measured is not None else time.perf_counter() - start

    def _run(self, job: _Job) -> OddsResult:
        start = time.perf_counter()
        try:
            report = self._compute(job.game, job.action)
        except UserError as error:
            return OddsResult("error", message=str(error), seconds=self._took(start))
        except Exception as error:
            # A bug in a rule system must not kill the worker (or reach the frame as a
            # traceback): it is shown as this action's odds, and the next job runs.
            message = f"the odds could not be computed: {type(error).__name__}: {error}"
            return OddsResult("error", message=message, seconds=self._took(start))
        seconds = self._took(start)
        if report is None:
            return OddsResult("none", seconds=seconds)
        return OddsResult("ready", report, seconds=seconds)


def _warm(rules_id: str) -> str:
    """Runs in the odds process: import what the odds of `rules_id` need."""
    from tactical.rules import registry

    return registry.get(rules_id).id


def _odds_elsewhere(game: Game, action: Action) -> tuple[str, Any, str | None, float]:
    """Runs in the odds process: ("ready", report, None, seconds) or ("error", message,
    SPEC id, seconds), `seconds` the enumeration's own time (not the wait for the child)."""
    start = time.perf_counter()
    try:
        return ("ready", game.odds(action), None, time.perf_counter() - start)
    except UserError as error:
        return ("error", error.message, error.spec_id, time.perf_counter() - start)


class ProcessOdds:
    """`Game.odds` computed in a child process: a computation for `OddsBoard`.

    Threads share the interpreter lock, so a long enumeration on the board's thread
    slows every frame down (bench/bench_odds_hover.py measures it); with this, the
    board's thread only waits for the child, without the lock. The child is spawned
    (pygame is never forked) on first use, and gets only what the odds depend on: the
    state, the turn position and the sides, not the game's history. `close` stops it
    (`OddsBoard.shutdown` calls it); if this process is killed, it ends by itself
    (`tactical.processes`).
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        # how long the last odds took in the child: the caption's figure, which must not
        # count the child starting (seconds, the first time) or waiting for a core
        self.last_seconds: float | None = None

    def _started(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = child_pool()  # it ends with this process, even a killed one
            return self._pool

    def warm(self, rules_id: str) -> Future:
        """Start the child now and have it import the rule system, without waiting (the
        future says when it is done): the first odds of a game then come as fast as the
        later ones (a cold child takes seconds to start)."""
        return self._started().submit(_warm, rules_id)

    def __call__(self, game: Game, action: Action) -> OddsReport | None:
        self.last_seconds = None  # until the child says (a crash leaves none)
        pool = self._started()
        light = Game(game.state, game.seed, game.state, game.position, game.sides)
        status, value, spec_id, seconds = pool.submit(_odds_elsewhere, light, action).result()
        self.last_seconds = seconds
        if status == "error":
            raise UserError(value, spec_id=spec_id)
        return value

    def close(self) -> None:
        """Stop the child, killing an enumeration under way: nobody will read its result,
        and a long one would go on taking a core after the screen is gone."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is None:
            return
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
        if terminate is not None:
            terminate()
            return
        children = list((getattr(pool, "_processes", None) or {}).values())
        manager = manager_of(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        for child in children:
            child.kill()  # SIGKILL: a SIGTERM was seen to leave a child running
        manager_stopped(manager, CLOSE_WAIT)
