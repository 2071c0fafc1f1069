"""The local process pool: one worker process per core, many games per task.

A small pool of our own rather than `concurrent.futures`, for two things a lab run
needs: results stream back game by game (each game is sent as soon as it is played,
not when its chunk ends), and a worker that dies (killed, out of memory) costs only
the game it was playing: the pool sees the process end, starts another, and hands
the unfinished games of its chunk out again. A game that kills its worker
`MAX_DEATHS` times stops the run (a bug to look at, with the game named).

Workers ignore SIGINT, from their start (it is blocked while one is started, and a new
interpreter inherits that; `_signals_held`): Ctrl+C reaches the main process only,
which stops the pool (`close`) and keeps every result it received.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from typing import Any

from tactical.lab.plan import GameResult, GameTask, RunSpec

PlayFunction = Callable[[RunSpec, GameTask], GameResult]
MAX_DEATHS = 3
START_METHOD = "spawn"  # a fresh interpreter: no threads or open files inherited


class GameFailed(RuntimeError):
    """A game raised an exception or kept killing its worker: a bug, named by its seed."""


def play_chunk(
    play: PlayFunction, spec: RunSpec, chunk: Sequence[GameTask]
) -> Iterator[GameResult]:
    """Play a chunk of games in order (what every backend's task does)."""
    for task in chunk:
        yield play(spec, task)


def _worker(connection: Connection, play: PlayFunction) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return  # the main process is gone (stopped, killed): nothing more to play
        if message is None:
            return
        spec, chunk = message
        for task in chunk:
            try:
                result = play(spec, task)
            except Exception:
                connection.send(("error", task, traceback.format_exc()))
                return
            connection.send(("game", task, result))
        connection.send(("done", None, None))


@contextlib.contextmanager
def _signals_held(spawning: bool) -> Iterator[None]:
    """While a worker starts: SIGINT blocked, so that the new interpreter inherits the
    block and a Ctrl+C during its start-up (it reaches the whole process group) never
    prints its traceback; and a Ctrl+C or SIGTERM for us held back until the worker is
    started (raised in the middle, it cut the worker's start-up data short, and the
    worker printed that). A signal another thread takes (numpy's) is held the same way."""
    main = threading.current_thread() is threading.main_thread()
    if not main or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    if spawning:
        # started first, on its own: starting it unblocks SIGINT behind our back
        resource_tracker.ensure_running()
    held: list[int] = []
    kinds = (signal.SIGINT, signal.SIGTERM)
    previous = {
        kind: signal.signal(kind, lambda signum, frame: held.append(signum)) for kind in kinds
    }
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        for kind, handler in previous.items():
            signal.signal(kind, handler if handler is not None else signal.SIG_DFL)
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)  # now, to the handler the run set


@dataclass
class _Worker:
    process: Any
    connection: Connection
    chunk: deque[GameTask] = field(default_factory=deque)
    ended: bool = False

    @property
    def idle(self) -> bool:
        return not self.chunk


class LocalPool:
    """`workers` processes playing `play` (a module-level function: it is pickled by name)."""

    def __init__(self, workers: int, play: PlayFunction, start_method: str = START_METHOD) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.workers = workers
        self.play = play
        self.context = multiprocessing.get_context(start_method)
        self._pool: list[_Worker] = []
        self.deaths = 0  # workers that ended without being asked to

    @property
    def pids(self) -> list[int]:
        return [w.process.pid for w in self._pool if w.process.pid is not None]

    def _start_worker(self) -> _Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(
            target=_worker, args=(theirs, self.play), daemon=True, name="tactical-lab-worker"
        )
        # a signal held while it starts comes once the worker is in the pool (`close`
        # then stops it, as it stops the others)
        with _signals_held(self.context.get_start_method() != "fork"):
            process.start()
            theirs.close()
            worker = _Worker(process, ours)
            self._pool.append(worker)
        return worker

    def run(self, spec: RunSpec, chunks: Sequence[Sequence[GameTask]]) -> Iterator[GameResult]:
        """Play every chunk; yields each game's result as it arrives (in no fixed order).
        Closing the iterator early (Ctrl+C in the consumer) stops the workers."""
        waiting: deque[tuple[GameTask, ...]] = deque(tuple(c) for c in chunks if c)
        deaths: dict[GameTask, int] = {}
        try:
            while len(self._pool) < min(self.workers, len(waiting)):
                self._start_worker()
            while waiting or any(not w.idle for w in self._pool):
                for worker in self._pool:
                    if worker.idle and waiting and not worker.ended:
                        chunk = waiting.popleft()
                        worker.chunk.extend(chunk)
                        try:
                            worker.connection.send((spec, chunk))
                        except (BrokenPipeError, OSError):
                            # it died idle: its sentinel hands the chunk back below
                            worker.ended = True
                ready = wait(
                    [w.connection for w in self._pool if not w.ended]
                    + [w.process.sentinel for w in self._pool]
                )
                for worker in list(self._pool):
                    if worker.connection in ready or worker.process.sentinel in ready:
                        # a dead worker's last results are read before it is replaced
                        yield from self._receive(worker)
                    if worker.process.sentinel in ready:
                        self._replace_dead(worker, waiting, deaths)
        finally:
            self.close()

    def _receive(self, worker: _Worker) -> Iterator[GameResult]:
        while not worker.ended and worker.connection.poll():
            try:
                kind, task, payload = worker.connection.recv()
            except (EOFError, OSError):
                worker.ended = True  # the pipe closed: the worker ended (its sentinel fires)
                return
            if kind == "game":
                worker.chunk.remove(task)
                yield payload
            elif kind == "error":
                raise GameFailed(
                    f"game {task.number} of variant {task.variant} (seed {task.seed}, seat "
                    f"{task.seat}) failed in a worker:\n{payload}"
                )

    def _replace_dead(
        self, worker: _Worker, waiting: deque[tuple[GameTask, ...]], deaths: dict[GameTask, int]
    ) -> None:
        """A worker ended on its own: its unfinished games go back to the queue."""
        worker.process.join()
        worker.connection.close()
        self._pool.remove(worker)
        self.deaths += 1
        if worker.chunk:
            playing = worker.chunk[0]
            deaths[playing] = deaths.get(playing, 0) + 1
            if deaths[playing] >= MAX_DEATHS:
                raise GameFailed(
                    f"game {playing.number} of variant {playing.variant} (seed {playing.seed}) "
                    f"killed its worker {MAX_DEATHS} times (exit code {worker.process.exitcode})"
                )
            waiting.appendleft(tuple(worker.chunk))
        if waiting:
            self._start_worker()

    def close(self) -> None:
        """Stop every worker (asked first, then terminated)."""
        for worker in self._pool:
            try:
                if worker.idle:
                    worker.connection.send(None)
            except (BrokenPipeError, OSError):
                pass
        for worker in self._pool:
            if not worker.idle:
                worker.process.terminate()
        for worker in self._pool:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.connection.close()
        self._pool.clear()
