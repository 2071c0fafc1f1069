"""A lab run: the games still to play, played on a backend, stored as they arrive.

The run's row is found by its key (the same map, variants, players, terrain and run
seed give the same key), so running the same command again resumes it: only the
games not yet in the store are played. Each result is committed as it arrives, so a
run stopped at any moment (Ctrl+C, a crash, a killed machine) keeps every game it
finished, and no game is ever stored twice (the store's unique key).

The backend is the local process pool (`pool.LocalPool`) or Ray
(`cluster.RayCluster`): anything with `run(spec, chunks) -> Iterator[GameResult]`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from tactical.lab.plan import GameResult, GameTask, RunSpec, chunk_size, chunked
from tactical.lab.store import Store


class Backend(Protocol):
    def run(self, spec: RunSpec, chunks: Sequence[Sequence[GameTask]]) -> Iterator[GameResult]:
        """Play the chunks; yield each game's result as it arrives."""
        ...


@dataclass(frozen=True)
class RunOutcome:
    """What a run did: its id in the store, the games asked for (all variants), those
    stored before it started, those it played, and whether it was stopped."""

    run_id: int
    asked: int
    already: int
    played: int
    interrupted: bool
    seconds: float

    @property
    def done(self) -> int:
        return self.already + self.played

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def pending_tasks(spec: RunSpec, done: set[tuple[int, int]]) -> list[GameTask]:
    """The run's games not stored yet, in order."""
    return [task for task in spec.tasks() if (task.variant, task.number) not in done]


def run_games(
    spec: RunSpec,
    store: Store,
    backend: Backend,
    workers: int,
    show_progress: bool = True,
    on_result: Callable[[GameResult], None] | None = None,
) -> RunOutcome:
    """Play the run's missing games on `backend` into `store` (see the module docstring).
    Ctrl+C stops it cleanly: the outcome says `interrupted` and every finished game is kept."""
    stored = store.begin_run(spec)
    done = store.done(stored.id)
    tasks = pending_tasks(spec, done)
    asked = spec.games * len(spec.variants)
    chunks = chunked(tasks, chunk_size(len(tasks), workers))
    started = time.perf_counter()
    played = 0
    interrupted = False
    results = backend.run(spec, chunks) if tasks else iter(())
    progress = _progress(show_progress)
    try:
        with progress:
            already = asked - len(tasks)
            bar = progress.add_task("games", total=asked, completed=already, resumed_from=already)
            for result in results:
                played += store.add_results(stored.id, [result])
                progress.advance(bar)
                if on_result is not None:
                    on_result(result)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return RunOutcome(
        stored.id, asked, asked - len(tasks), played, interrupted, time.perf_counter() - started
    )


class _RateColumn(ProgressColumn):
    """Games per second over the run so far (rich's own speed is a short moving window)."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        played = task.completed - (task.fields.get("resumed_from", 0) or 0)
        if elapsed <= 0 or played <= 0:
            return Text("– games/s", style="progress.data.speed")
        return Text(f"{played / elapsed:.1f} games/s", style="progress.data.speed")


def _progress(visible: bool) -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        disable=not visible,
        transient=False,
    )
