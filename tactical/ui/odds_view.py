"""Odds in the play screen (issue 6): a background cache of exact odds, a bar chart, text lines.

Issue 6 budgets "the odds for a hovered target ready within one frame", but an exact
enumeration takes from a fraction of a millisecond to seconds. So the odds are
computed ahead on one background thread (`OddsBoard`) that hands each enumeration to a
child process (`ProcessOdds`), so the frames never wait for the interpreter lock while
it runs: the play screen prefetches
every target of the picked declaration, nearest first, and the target the user hovers
jumps the queue. A frame never waits for more than a small synchronous budget.

The odds are always `Game.odds(action)`: the very resolver that resolves the roll
(DESIGN.md "Odds come from the same code"). The worker only reads immutable values
(`Game`, `Action`, `OddsReport`) and never touches dice or the game; what it computes
is kept in a bounded LRU keyed on the game value and the action.

`odds_chart` draws an `OddsReport` as a bar chart for the action panel and `odds_lines`
renders it as text for the target card and the log. Neither knows any rule system:
they draw what the report publishes (sections, labels, facts, SPEC ids).
"""

from __future__ import annotations

import math
import multiprocessing
import re
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Literal

import pygame

from tactical.dice.exact import fraction_text
from tactical.errors import UserError
from tactical.rules.base import Action, OddsReport, OddsSection
from tactical.rules.status import words
from tactical.session.game import Game
from tactical.ui.fonts import Fonts
from tactical.ui.palette import TEXT, TEXT_DIM, Colour

Status = Literal["ready", "pending", "none", "error"]
Compute = Callable[[Game, Action], "OddsReport | None"]

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

    def _run(self, job: _Job) -> OddsResult:
        start = time.perf_counter()
        try:
            report = self._compute(job.game, job.action)
        except UserError as error:
            return OddsResult("error", message=str(error), seconds=time.perf_counter() - start)
        except Exception as error:
            # A bug in a rule system must not kill the worker (or reach the frame as a
            # traceback): it is shown as this action's odds, and the next job runs.
            message = f"the odds could not be computed: {type(error).__name__}: {error}"
            return OddsResult("error", message=message, seconds=time.perf_counter() - start)
        seconds = time.perf_counter() - start
        if report is None:
            return OddsResult("none", seconds=seconds)
        return OddsResult("ready", report, seconds=seconds)


def _warm(rules_id: str) -> str:
    """Runs in the odds process: import what the odds of `rules_id` need."""
    from tactical.rules import registry

    return registry.get(rules_id).id


def _odds_elsewhere(game: Game, action: Action) -> tuple[str, Any, str | None]:
    """Runs in the odds process: ("ready", report) or ("error", message, SPEC id)."""
    try:
        return ("ready", game.odds(action), None)
    except UserError as error:
        return ("error", error.message, error.spec_id)


class ProcessOdds:
    """`Game.odds` computed in a child process: a computation for `OddsBoard`.

    Threads share the interpreter lock, so a long enumeration on the board's thread
    slows every frame down (bench/bench_odds_hover.py measures it); with this, the
    board's thread only waits for the child, without the lock. The child is spawned
    (pygame is never forked) on first use, and gets only what the odds depend on: the
    state, the turn position and the sides, not the game's history. `close` stops it
    (`OddsBoard.shutdown` calls it).
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _started(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
            return self._pool

    def warm(self, rules_id: str) -> Future:
        """Start the child now and have it import the rule system, without waiting (the
        future says when it is done): the first odds of a game then come as fast as the
        later ones (a cold child takes seconds to start)."""
        return self._started().submit(_warm, rules_id)

    def __call__(self, game: Game, action: Action) -> OddsReport | None:
        pool = self._started()
        light = Game(game.state, game.seed, game.state, game.position, game.sides)
        status, value, spec_id = pool.submit(_odds_elsewhere, light, action).result()
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
        pool.shutdown(wait=False, cancel_futures=True)
        for child in children:
            child.kill()  # SIGKILL: a SIGTERM was seen to leave a child running


# --------------------------------------------------------------------------- text


CODE_WORD = re.compile(r"[a-z0-9]+(?:[_-][a-z0-9]+)+")


def outcome_text(outcome: Any) -> str:
    """An outcome as a short label: yes/no for booleans, tuples joined, numbers compact."""
    if isinstance(outcome, bool):
        return "yes" if outcome else "no"
    if outcome is None:
        return "none"
    if isinstance(outcome, float):
        return f"{outcome:g}"
    if isinstance(outcome, tuple):
        return ", ".join(_part_text(part) for part in outcome) if outcome else "none"
    if isinstance(outcome, Mapping):  # a table: its labelled values, never its repr
        return ", ".join(f"{words(str(k))} {outcome_text(v)}" for k, v in outcome.items())
    if isinstance(outcome, str) and CODE_WORD.fullmatch(outcome):
        return words(outcome)  # "no-effect", "shields_drained": a key, read as words
    return str(outcome)


def _part_text(part: Any) -> str:
    if isinstance(part, tuple):
        return "(" + " ".join(_part_text(inner) for inner in part) + ")"
    return outcome_text(part)


def percent_text(probability: Fraction, places: int = 2) -> str:
    """A probability as a percentage with `places` decimals; never rounds a possible outcome
    to 0% or an uncertain one to 100% ("<0.01%", ">99.99%" at the ends)."""
    if probability <= 0:
        return "0%"
    if probability >= 1:
        return "100%"
    value = float(probability * 100)
    step = 10.0**-places
    if value < step:
        return f"<{step:.{places}f}%"
    if value > 100 - step:
        return f">{100 - step:.{places}f}%"
    return f"{value:.{places}f}%"


def short_percent(probability: Fraction) -> str:
    """A percentage for a bar's top: whole numbers, "<1%" and ">99%" at the ends."""
    return percent_text(probability, 0)


def fact_text(name: str, value: Any) -> str:
    """One fact of a report as "name value" (floats to two decimals)."""
    if isinstance(value, float):
        shown = f"{value:.2f}".rstrip("0").rstrip(".")
    elif isinstance(value, tuple):
        shown = "[" + "; ".join(outcome_text(part) for part in value) + "]"
    else:
        shown = outcome_text(value)
    return f"{words(name)} {shown}"


def facts_line(report: OddsReport) -> str:
    """The report's facts (range, threshold, dice...) on one line, in the report's order."""
    return " · ".join(fact_text(name, value) for name, value in report.facts.items())


def section_title(section: OddsSection) -> str:
    """The section's name as words, with its rule."""
    name = words(section.name)
    return f"{name} ({section.spec_id})" if section.spec_id else name


def odds_lines(report: OddsReport, limit: int | None = None) -> list[str]:
    """The report as text: the facts, then per section its title and one line per outcome,
    "outcome: exact fraction = percent". With `limit`, each section lists its `limit`
    likeliest outcomes (in the section's order) and sums up the rest on one line."""
    lines = []
    facts = facts_line(report)
    if facts:
        lines.append(facts)
    for section in report.sections:
        lines.append(section_title(section) + ":")
        pairs = list(section.distribution.pairs)
        rest: list[tuple[Any, Fraction]] = []
        if limit is not None and len(pairs) > limit:
            kept = set(_likeliest(pairs, limit))
            rest = [pair for index, pair in enumerate(pairs) if index not in kept]
            pairs = [pair for index, pair in enumerate(pairs) if index in kept]
        for outcome, probability in pairs:
            lines.append(
                f"  {outcome_text(outcome)}: {fraction_text(probability)} = "
                f"{percent_text(probability)}"
            )
        if rest:
            others = sum((p for _, p in rest), Fraction(0))
            lines.append(
                f"  {len(rest)} more outcomes: {fraction_text(others)} = {percent_text(others)}"
            )
    return lines


def _likeliest(pairs: Sequence[tuple[Any, Fraction]], count: int) -> list[int]:
    """Indexes of the `count` likeliest pairs (ties: the earlier first)."""
    ranked = sorted(range(len(pairs)), key=lambda index: (-pairs[index][1], index))
    return sorted(ranked[:count])


# --------------------------------------------------------------------------- the chart

CHART_BACKGROUND: Colour = (22, 24, 31)
CHART_EDGE: Colour = (70, 74, 88)
BAR: Colour = (86, 168, 240)
BAR_OTHER: Colour = (120, 124, 138)  # the bar that sums up outcomes left off
AXIS: Colour = (110, 112, 120)

PAD = 6
CAPTION_LINE = 14  # pixels of the caption line over the chart
TITLE_SIZE = 13
FACTS_SIZE = 11
LABEL_SIZE = 11
ROW_SIZE = 11
ROW_HEIGHT = 13
MIN_PLOT = 52  # pixels of bar height kept before the later sections get rows
MIN_SLOT = LABEL_SIZE + 3  # pixels per column (a bar as wide as the text is tall, a gap)
BAR_ROW = LABEL_SIZE + 4  # pixels per row of a named outcome: a bar as thick as the text
MAX_NAMED_BARS = 12  # bars for outcomes that are not numbers (their labels need the room)


@dataclass(frozen=True)
class Bar:
    """One bar of the chart: its label, its probability, how many outcomes it stands for,
    and whether it is the bar that sums up the outcomes left off (`rest`)."""

    label: str
    probability: Fraction
    outcomes: int = 1
    rest: bool = False


def _numeric(outcome: Any) -> bool:
    return isinstance(outcome, int | float | Fraction) and not isinstance(outcome, bool)


def is_numeric(section: OddsSection) -> bool:
    """Whether every outcome is a number (drawn as columns on an ascending axis)."""
    return bool(section.distribution.pairs) and all(
        _numeric(outcome) for outcome, _ in section.distribution.pairs
    )


def chart_bars(section: OddsSection, most: int) -> list[Bar]:
    """At most `most` bars for a section: one per outcome while they fit.

    Numbers (damage totals, hits) are drawn in ascending order and, when there are too
    many, grouped into runs of neighbours ("10–13"); other outcomes keep the section's
    order, at most `MAX_NAMED_BARS` of them: when there are more, the likeliest keep a
    bar each and one more bar sums up the rest.
    """
    pairs = list(section.distribution.pairs)
    most = max(1, most)
    if is_numeric(section):
        pairs.sort(key=lambda pair: pair[0])
        if len(pairs) <= most:
            return [Bar(outcome_text(o), p) for o, p in pairs]
        size = math.ceil(len(pairs) / most)
        bars = []
        for start in range(0, len(pairs), size):
            run = pairs[start : start + size]
            first, last = outcome_text(run[0][0]), outcome_text(run[-1][0])
            label = first if len(run) == 1 else f"{first}–{last}"
            bars.append(Bar(label, sum((p for _, p in run), Fraction(0)), len(run)))
        return bars
    most = min(most, MAX_NAMED_BARS)
    if len(pairs) <= most:
        return [Bar(outcome_text(o), p) for o, p in pairs]
    kept = _likeliest(pairs, most - 1)
    chosen = set(kept)
    bars = [Bar(outcome_text(pairs[index][0]), pairs[index][1]) for index in kept]
    rest = [p for index, (_, p) in enumerate(pairs) if index not in chosen]
    bars.append(Bar(f"{len(rest)} others", sum(rest, Fraction(0)), len(rest), rest=True))
    return bars


@dataclass(frozen=True)
class ChartLayout:
    """Where the parts of a chart go (pixels): the plot of the columns, the line of their
    labels under it, and where the rows of the later sections start and how many fit."""

    plot: pygame.Rect
    labels_y: int
    rows_y: int
    rows: int

    @property
    def rows_area(self) -> pygame.Rect:
        """Room for outcomes drawn as rows: the plot with its percent and label lines."""
        top = self.plot.top - LABEL_SIZE - 2
        return pygame.Rect(self.plot.left, top, self.plot.width, self.rows_y - top - 2)


def chart_layout(size: tuple[int, int], sections: int, headline: bool = False) -> ChartLayout:
    width, height = size
    top = PAD + TITLE_SIZE + 3 + FACTS_SIZE + 4 + LABEL_SIZE + 2  # title, facts, top percents
    if headline:
        top += FACTS_SIZE + 3  # the effect on the target, under the title
    label_band = LABEL_SIZE + 3
    room = height - PAD - top - label_band - MIN_PLOT
    rows = max(0, min(sections - 1, room // ROW_HEIGHT))
    bottom = height - PAD - rows * ROW_HEIGHT - label_band
    plot = pygame.Rect(PAD, top, max(1, width - 2 * PAD), max(1, bottom - top))
    return ChartLayout(plot, plot.bottom + 2, plot.bottom + label_band, rows)


def odds_chart(
    report: OddsReport,
    size: tuple[int, int],
    fonts: Fonts,
    *,
    section: int = 0,
    details: bool = True,
    caption: str = "",
) -> pygame.Surface:
    """A bar chart of one section of `report` (the main one by default).

    Title and SPEC id, the facts on a line under it, then one bar per outcome with its
    label and percent, in proportion to the probabilities (the likeliest bar the full
    length): numbers as columns in ascending order (grouped when too many for the width),
    other outcomes as labelled rows (the likeliest, and one row for the rest, when too
    many for the height). The other sections follow as one-line rows while there is room
    (`details`; collapsed, the main one has all the room). A `caption` (which target, how
    long it took) heads the chart, dim.
    """
    width, height = max(40, int(size[0])), max(40, int(size[1]))
    surface = pygame.Surface((width, height))
    surface.fill(CHART_BACKGROUND)
    pygame.draw.rect(surface, CHART_EDGE, surface.get_rect(), 1)
    inner = width - 2 * PAD
    if caption:
        _text(surface, fonts, caption, (PAD, PAD - 2), FACTS_SIZE, TEXT_DIM, inner)
        chart = odds_chart(
            report, (width, height - CAPTION_LINE), fonts, section=section, details=details
        )
        surface.blit(chart, (0, CAPTION_LINE))
        return surface
    if not report.sections:
        _text(surface, fonts, "no outcomes", (PAD, PAD), TITLE_SIZE, TEXT_DIM, inner)
        return surface
    main = report.sections[section]
    others = [s for index, s in enumerate(report.sections) if index != section] if details else []
    lead = headline(report)
    layout = chart_layout((width, height), len(others) + 1, bool(lead))
    _text(surface, fonts, section_title(main), (PAD, PAD), TITLE_SIZE, TEXT, inner)
    y = PAD + TITLE_SIZE + 3
    if lead:
        _text(surface, fonts, lead, (PAD, y), FACTS_SIZE, TEXT, inner)
        y += FACTS_SIZE + 3
    facts = facts_line(report)
    if facts:
        _text(surface, fonts, facts, (PAD, y), FACTS_SIZE, TEXT_DIM, inner)
    if is_numeric(main):
        _draw_columns(surface, fonts, chart_bars(main, layout.plot.width // MIN_SLOT), layout)
    else:
        area = layout.rows_area
        _draw_rows(surface, fonts, chart_bars(main, area.height // BAR_ROW), area)
    for index, other in enumerate(others[: layout.rows]):
        row = f"{words(other.name)}: " + _summary(other)
        _text(surface, fonts, row, (PAD, layout.rows_y + index * ROW_HEIGHT), ROW_SIZE, TEXT, inner)
    return surface


def headline(report: OddsReport) -> str:
    """What the attack does to the target, first: the chance of each yes/no outcome
    ("destroyed 36%") and the average of each count ("hull points lost 0.6 on average")."""
    parts = []
    for section in report.sections:
        pairs = list(section.distribution.pairs)
        if not pairs:
            continue
        if all(isinstance(outcome, bool) for outcome, _ in pairs):
            chance = sum((p for outcome, p in pairs if outcome), Fraction(0))
            parts.append(f"{words(section.name)} {short_percent(chance)}")
        elif all(_numeric(outcome) for outcome, _ in pairs) and len(pairs) > 1:
            mean = sum((Fraction(outcome) * p for outcome, p in pairs), Fraction(0))
            parts.append(f"{words(section.name)} {float(mean):.1f} on average")
    return " · ".join(parts)


def _summary(section: OddsSection, count: int = 3) -> str:
    pairs = list(section.distribution.pairs)
    shown = [pairs[index] for index in _likeliest(pairs, count)]
    text = " · ".join(f"{outcome_text(o)} {short_percent(p)}" for o, p in shown)
    return text + (" …" if len(pairs) > count else "")


def bar_length(probability: Fraction, top: Fraction, span: int) -> int:
    """A bar's length in pixels: in proportion, the likeliest outcome the whole `span`."""
    if top <= 0:
        return 0
    return round(probability / top * span)


def _bar_colour(bar: Bar) -> Colour:
    return BAR_OTHER if bar.rest else BAR


def _draw_columns(
    surface: pygame.Surface, fonts: Fonts, bars: list[Bar], layout: ChartLayout
) -> None:
    plot = layout.plot
    pygame.draw.line(surface, AXIS, (plot.left, plot.bottom), (plot.right - 1, plot.bottom))
    if not bars:
        return
    top = max(bar.probability for bar in bars)
    slot = plot.width / len(bars)
    gap = 1 if slot < 8 else max(2, round(slot * 0.2))
    widest_label = max(fonts.width(bar.label, LABEL_SIZE) for bar in bars)
    every = max(1, math.ceil((widest_label + 4) / slot))
    for index, bar in enumerate(bars):
        left = plot.left + round(index * slot)
        right = plot.left + round((index + 1) * slot) - gap
        bar_width = max(1, right - left)
        tall = bar_length(bar.probability, top, plot.height)
        if tall > 0:
            rect = pygame.Rect(left, plot.bottom - tall, bar_width, tall)
            pygame.draw.rect(surface, _bar_colour(bar), rect)
        centre = left + bar_width / 2
        share = short_percent(bar.probability)
        if fonts.width(share, LABEL_SIZE) > slot + 2:
            share = share.rstrip("%")  # the number alone where the sign does not fit
        if fonts.width(share, LABEL_SIZE) <= slot + 2:
            _centred(surface, fonts, share, centre, plot.bottom - tall - LABEL_SIZE - 1, TEXT)
        if index % every == 0:
            _centred(surface, fonts, bar.label, centre, layout.labels_y, TEXT_DIM)


def _draw_rows(surface: pygame.Surface, fonts: Fonts, bars: list[Bar], area: pygame.Rect) -> None:
    if not bars:
        return
    top = max(bar.probability for bar in bars)
    row = max(BAR_ROW, min(2 * BAR_ROW, area.height // len(bars)))
    widest = max(fonts.width(bar.label, LABEL_SIZE) for bar in bars)
    label_room = min(int(area.width * 0.42), widest + 6)
    share_room = fonts.width(">99%", LABEL_SIZE) + 4
    span = max(1, area.width - label_room - share_room)
    thick = max(LABEL_SIZE, row - 4)  # never thinner than the text beside it
    text_top = (row - LABEL_SIZE) // 2
    for index, bar in enumerate(bars):
        y = area.top + index * row
        label_at = (area.left, y + text_top)
        _text(surface, fonts, bar.label, label_at, LABEL_SIZE, TEXT_DIM, label_room - 4)
        long = bar_length(bar.probability, top, span)
        x = area.left + label_room
        if long > 0:
            rect = pygame.Rect(x, y + (row - thick) // 2, long, thick)
            pygame.draw.rect(surface, _bar_colour(bar), rect)
        share = fonts.render(short_percent(bar.probability), LABEL_SIZE, TEXT)
        surface.blit(share, (x + long + 3, y + text_top))


def _text(
    surface: pygame.Surface,
    fonts: Fonts,
    text: str,
    at: tuple[int, int],
    size: int,
    colour: Colour,
    room: int,
) -> None:
    fitted = fonts.fit(text, size, room)
    if fitted:
        surface.blit(fonts.render(fitted, size, colour), at)


def _centred(
    surface: pygame.Surface,
    fonts: Fonts,
    text: str,
    centre: float,
    y: int,
    colour: Colour,
    room: int | None = None,
) -> None:
    fitted = fonts.fit(text, LABEL_SIZE, room) if room is not None else text
    if not fitted:
        return
    rendered = fonts.render(fitted, LABEL_SIZE, colour)
    left = round(centre - rendered.get_width() / 2)
    left = max(1, min(left, surface.get_width() - rendered.get_width() - 1))
    surface.blit(rendered, (left, y))
