"""Odds in the play screen: the background odds board, the bar chart, the text lines.

The board is checked against the session's own odds on real scenario attacks, and its
queue (order, overtaking, clearing) with an injected computation that blocks until the
test lets it go, so the order the worker takes jobs in is observed, not guessed. The
chart is checked on pixels: bar lengths measured in the surface.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pygame
import pytest

from tactical.dice import Distribution
from tactical.errors import UserError
from tactical.io.maps import load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action, Attack, OddsReport, OddsSection
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.ui.fonts import Fonts
from tactical.ui.odds_chart import (
    BAR,
    BAR_OTHER,
    LABEL_SIZE,
    MAX_NAMED_BARS,
    MIN_SLOT,
    chart_bars,
    chart_layout,
    headline,
    odds_chart,
    odds_lines,
    outcome_text,
    percent_text,
    section_title,
)
from tactical.ui.odds_view import OddsBoard, OddsResult, ProcessOdds

TIMEOUT = 30.0


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts()


@pytest.fixture(scope="module")
def bfm_game() -> Game:
    return Session.new(load_map("maps/battlefleet-mars.toml"), 1).game


@pytest.fixture
def boards():
    made: list[OddsBoard] = []

    def make(*args: Any, **kwargs: Any) -> OddsBoard:
        board = OddsBoard(*args, **kwargs)
        made.append(board)
        return board

    yield make
    for board in made:
        board.shutdown(timeout=5.0)


def first_attack(game: Game, kind: str, max_steps: int = 80) -> tuple[Game, Action]:
    """The first `kind` choice with a target that autoplay's game reaches, as an action."""
    for _ in range(max_steps):
        for choice in game.rule_choices():
            if choice.kind == kind and any(f.name == "target" for f in choice.fields):
                params = next(autoplay.candidate_params(choice))
                return game, Action(choice.kind, choice.actor, params)
        game = autoplay.next_game(game)
    raise AssertionError(f"no {kind!r} offered in {max_steps} steps")


def same_odds(left: OddsReport, right: OddsReport) -> None:
    assert left.attack == right.attack
    assert dict(left.facts) == dict(right.facts)
    assert [(s.name, s.spec_id, s.label) for s in left.sections] == [
        (s.name, s.spec_id, s.label) for s in right.sections
    ]
    for mine, theirs in zip(left.sections, right.sections, strict=True):
        assert mine.distribution.pairs == theirs.distribution.pairs


# --------------------------------------------------------------------------- the board


def test_board_gives_the_sessions_odds_for_a_bfm_attack(bfm_game, boards):
    game, action = first_attack(bfm_game, "attack")
    result = boards().wait(game, action, TIMEOUT)
    assert result.status == "ready" and result.seconds > 0
    assert result.report is game.odds(action)  # the very report Game.odds gives
    fresh = game.system.action_odds(game.state, game.completed(action)[0])
    same_odds(result.report, fresh)
    assert result.report.sections[0].distribution.total == 1


def test_board_gives_the_sessions_odds_for_a_dw_attack(boards):
    start = Session.new(load_map("maps/dystopian-wars.toml"), 1).game
    game, action = first_attack(start, "declare-attack")
    result = boards().wait(game, action, TIMEOUT)
    assert result.status == "ready"
    fresh = game.system.action_odds(game.state, game.completed(action)[0])
    same_odds(result.report, fresh)
    assert len(result.report.sections) > 1


def _gated(log: list[str]) -> tuple[Callable[[Game, Action], Any], threading.Event]:
    """A computation that records each action's target and waits for the gate first."""
    gate = threading.Event()

    def compute(game: Game, action: Action) -> Any:
        log.append(action.params["target"])
        if not gate.wait(TIMEOUT):
            raise AssertionError("the test never opened the gate")
        return game.odds(Action("pass", game.side_to_act))

    return compute, gate


def _aim(*targets: str) -> list[Action]:
    return [Action("attack", "u", FrozenMap(target=t)) for t in targets]


def _started(log: list[str], count: int) -> None:
    """Wait until the worker has begun `count` jobs."""
    for _ in range(int(TIMEOUT / 0.005)):
        if len(log) >= count:
            return
        threading.Event().wait(0.005)
    raise AssertionError(f"the worker did not start {count} job(s)")


def test_pending_then_ready(bfm_game, boards):
    log: list[str] = []
    compute, gate = _gated(log)
    board = boards(compute, sync_budget=0.002)
    (action,) = _aim("t1")
    assert board.get(bfm_game, action).status == "pending"
    assert board.get(bfm_game, action) == OddsResult("pending")  # asked again: no wait
    assert board.peek(bfm_game, action).status == "pending"
    revision = board.revision
    gate.set()
    result = board.wait(bfm_game, action, TIMEOUT)
    assert result.status == "none" and result.done  # the gated computation asks for a pass
    assert board.revision == revision + 1
    assert board.get(bfm_game, action) is result  # a cache hit
    assert log == ["t1"]


def test_get_within_the_budget_is_ready_at_once(bfm_game, boards):
    game, action = first_attack(bfm_game, "attack")
    board = boards(sync_budget=TIMEOUT)
    result = board.get(game, action)
    assert result.status == "ready" and result.report is game.odds(action)


def test_prefetch_order_and_the_hovered_request_overtakes(bfm_game, boards):
    log: list[str] = []
    compute, gate = _gated(log)
    board = boards(compute)
    board.prefetch(bfm_game, _aim("t0", "t1", "t2", "t3", "t4"))
    _started(log, 1)
    board.prefetch(bfm_game, _aim("t2", "t5"))  # already queued: stays where it was
    board.request(bfm_game, _aim("t3")[0])
    board.request(bfm_game, _aim("t6")[0])  # the latest hover goes first of all
    assert [a.params["target"] for a in board.queued] == ["t6", "t3", "t1", "t2", "t4", "t5"]
    gate.set()
    assert board.wait_idle(TIMEOUT)
    assert log == ["t0", "t6", "t3", "t1", "t2", "t4", "t5"]
    assert len(board) == 7


def test_clear_drops_the_queue_and_the_work_under_way(bfm_game, boards):
    log: list[str] = []
    compute, gate = _gated(log)
    board = boards(compute)
    first, *rest = _aim("t0", "t1", "t2")
    board.prefetch(bfm_game, [first, *rest])
    _started(log, 1)
    board.clear()
    assert board.queued == ()
    gate.set()
    assert board.wait_idle(TIMEOUT)
    assert log == ["t0"]
    assert len(board) == 0 and board.revision == 0
    assert board.peek(bfm_game, first).status == "pending"  # its result was discarded
    assert board.wait(bfm_game, first, TIMEOUT).status == "none"  # asked again: computed


def test_a_pass_has_no_odds(bfm_game, boards):
    board = boards()
    result = board.wait(bfm_game, Action("pass", bfm_game.side_to_act), TIMEOUT)
    assert result == OddsResult("none", seconds=result.seconds)
    assert result.report is None


def test_an_impossible_attack_is_an_error_with_the_users_message(bfm_game, boards):
    game, offered = first_attack(bfm_game, "attack")
    action = Action(offered.kind, offered.actor, offered.params.set("target", "nobody"))
    with pytest.raises(UserError) as raised:
        game.odds(action)
    result = boards().wait(game, action, TIMEOUT)
    assert result.status == "error" and result.report is None
    assert result.message == str(raised.value)
    assert "nobody" in result.message


def test_a_failing_computation_is_an_error_and_the_worker_goes_on(bfm_game, boards):
    def compute(game: Game, action: Action) -> Any:
        if action.params["target"] == "bad":
            raise ZeroDivisionError("division by zero")
        return None

    board = boards(compute)
    bad, good = _aim("bad", "good")
    assert board.wait(bfm_game, bad, TIMEOUT).message == (
        "the odds could not be computed: ZeroDivisionError: division by zero"
    )
    assert board.wait(bfm_game, good, TIMEOUT).status == "none"


def test_the_cache_is_bounded_least_recently_used_first(bfm_game, boards):
    board = boards(lambda game, action: None, capacity=2)
    a, b, c = _aim("a", "b", "c")
    board.wait(bfm_game, a, TIMEOUT)
    board.wait(bfm_game, b, TIMEOUT)
    assert board.peek(bfm_game, a).status == "none"  # a is now the most recently used
    board.wait(bfm_game, c, TIMEOUT)
    assert len(board) == 2
    assert board.peek(bfm_game, b).status == "pending"
    assert board.peek(bfm_game, a).status == "none"


def test_games_are_keys_by_identity(bfm_game, boards):
    board = boards(lambda game, action: None)
    (action,) = _aim("a")
    board.wait(bfm_game, action, TIMEOUT)
    other = Session.new(load_map("maps/battlefleet-mars.toml"), 1).game
    assert board.peek(other, action).status == "pending"


def test_a_shut_down_board_takes_no_more_work(bfm_game, boards):
    board = boards()
    board.shutdown(timeout=5.0)
    with pytest.raises(RuntimeError):
        board.request(bfm_game, Action("pass", bfm_game.side_to_act))


def test_odds_computed_in_a_child_process_are_the_sessions(bfm_game, boards):
    """ProcessOdds: the same report as Game.odds, and a UserError's message and SPEC id."""
    game, action = first_attack(bfm_game, "attack")
    wrong = Action(action.kind, action.actor, action.params.set("target", "nobody"))
    board = boards(ProcessOdds())
    started = time.perf_counter()
    result = board.wait(game, action, 120.0)
    waited = time.perf_counter() - started  # the child's start-up with it
    assert result.status == "ready" and 0 < result.seconds < waited
    same_odds(result.report, game.odds(action))
    with pytest.raises(UserError) as raised:
        game.odds(wrong)
    failed = board.wait(game, wrong, TIMEOUT)
    assert failed.status == "error" and failed.message == str(raised.value)
    assert board.wait(game, Action("pass", game.side_to_act), TIMEOUT).status == "none"


def test_the_caption_times_the_odds_not_the_wait_for_the_child(bfm_game, boards):
    """The first odds of a game wait for the child process to start (seconds on a busy
    machine): the caption's figure is the enumeration's own time, as the child measured it."""
    game, action = first_attack(bfm_game, "attack")

    class SlowToStart:
        last_seconds = None

        def __call__(self, game, action):
            time.sleep(0.05)  # the wait for a cold child
            self.last_seconds = 0.003  # what the enumeration itself took there
            return game.odds(action)

    result = boards(SlowToStart()).wait(game, action, TIMEOUT)
    assert result.status == "ready" and result.seconds == 0.003


# --------------------------------------------------------------------------- text

ATTACK = Attack("u1", "gun", "u2")


def _report(*sections: OddsSection, **facts: Any) -> OddsReport:
    return OddsReport("test-rules", ATTACK, FrozenMap(facts), sections)


def _section(name: str, pairs: dict[Any, Fraction], spec_id: str | None = "R9.9") -> OddsSection:
    return OddsSection(name, spec_id, name, Distribution(tuple(pairs.items())))


DAMAGE = _section("damage", {1: Fraction(3, 4), 2: Fraction(1, 4)})
RESULT = _section("result", {"hit": Fraction(2, 5), "miss": Fraction(3, 5)}, spec_id=None)


def test_odds_lines_exact_text():
    report = _report(DAMAGE, RESULT, range=12.5, hit_on=4, arcs=("fore", "port"))
    assert odds_lines(report) == [
        "range 12.5 · hit on 4 · arcs fore, port",
        "damage (R9.9):",
        "  1: 3/4 = 75.00%",
        "  2: 1/4 = 25.00%",
        "result:",
        "  hit: 2/5 = 40.00%",
        "  miss: 3/5 = 60.00%",
    ]


def test_odds_lines_limit_sums_up_the_rest():
    spread = _section("total", {k: Fraction(k, 15) for k in range(1, 6)})
    assert odds_lines(_report(spread), limit=2) == [
        "total (R9.9):",
        "  4: 4/15 = 26.67%",
        "  5: 1/3 = 33.33%",
        "  3 more outcomes: 2/5 = 40.00%",
    ]


def test_percent_and_outcome_text():
    assert percent_text(Fraction(1, 10**6)) == "<0.01%"
    assert percent_text(1 - Fraction(1, 10**6)) == ">99.99%"
    assert percent_text(Fraction(0)) == "0%" and percent_text(Fraction(1)) == "100%"
    assert outcome_text(True) == "yes" and outcome_text(None) == "none"
    assert outcome_text((("a", 1, ()), 2.5)) == "(a 1 ()), 2.5"


# --------------------------------------------------------------------------- the chart


def _runs(surface: pygame.Surface, colour, *, column: int | None = None, row: int | None = None):
    """How many pixels of `colour` a column (or row) of the surface has."""
    if column is not None:
        return sum(surface.get_at((column, y))[:3] == colour for y in range(surface.get_height()))
    assert row is not None
    return sum(surface.get_at((x, row))[:3] == colour for x in range(surface.get_width()))


def _columns_of(surface: pygame.Surface, colour) -> list[int]:
    """Bar lengths of the column chart, left to right (one figure per bar)."""
    heights = []
    previous = 0
    for x in range(surface.get_width()):
        tall = _runs(surface, colour, column=x)
        if tall and not previous:
            heights.append(tall)
        previous = tall
    return heights


def _column_widths(surface: pygame.Surface, colour) -> list[int]:
    """The widths of the column chart's bars, left to right."""
    widths, run = [], 0
    for x in range(surface.get_width()):
        if _runs(surface, colour, column=x):
            run += 1
        elif run:
            widths.append(run)
            run = 0
    return widths + ([run] if run else [])


@pytest.mark.parametrize("size", [(300, 220), (296, 170)])
def test_chart_column_heights_are_proportional(fonts, size):
    surface = odds_chart(_report(DAMAGE, range=12.5), size, fonts)
    assert surface.get_size() == size
    report = _report(DAMAGE, range=12.5)
    plot = chart_layout(size, 1, bool(headline(report))).plot
    assert _columns_of(surface, BAR) == [plot.height, round(plot.height / 3)]


def test_the_chart_leads_with_the_effect_on_the_target(fonts):
    """A line under the title says what the attack does: the average of each
    count and the chance of each yes/no outcome."""
    assert headline(_report(DAMAGE, range=12.5)).endswith("on average")
    drawn = []

    class Recording(type(fonts)):
        def render(self, text, size, colour):
            drawn.append(text)
            return super().render(text, size, colour)

    recording = Recording()
    odds_chart(_report(DAMAGE, range=12.5), (300, 220), recording)
    assert headline(_report(DAMAGE, range=12.5)) in drawn


def test_chart_rows_for_named_outcomes_are_proportional(fonts):
    surface = odds_chart(_report(RESULT, DAMAGE), (300, 220), fonts)
    lengths = []
    for y in range(surface.get_height()):
        run = _runs(surface, BAR, row=y)
        if run and (not lengths or lengths[-1] != run):
            lengths.append(run)
    assert len(lengths) == 2
    assert lengths[1] * 2 == pytest.approx(lengths[0] * 3, abs=3)  # 3/5 against 2/5
    # each bar as thick as its label's text is tall
    thick = [sum(1 for y in range(surface.get_height()) if _runs(surface, BAR, row=y) == n)
             for n in lengths]  # fmt: skip
    assert min(thick) >= LABEL_SIZE


def test_many_outcomes_still_fit(fonts):
    forty = _section("damage", {k: Fraction(1, 40) for k in range(40)})
    bars = chart_bars(forty, chart_layout((296, 170), 1).plot.width // 4)
    assert len(bars) == 40 and [b.label for b in bars[:3]] == ["0", "1", "2"]
    surface = odds_chart(_report(forty), (296, 170), fonts)
    # a column is never narrower than the text is tall: forty outcomes in 296 px
    # are grouped two by two
    slots = chart_layout((296, 170), 1).plot.width // MIN_SLOT
    assert len(_columns_of(surface, BAR)) == 20 <= slots
    assert min(_column_widths(surface, BAR)) >= LABEL_SIZE
    many = _section("damage", {k: Fraction(1, 500) for k in range(500)})
    grouped = chart_bars(many, 71)
    assert len(grouped) <= 71 and grouped[0].label == "0–7" and grouped[0].outcomes == 8
    assert sum(b.probability for b in grouped) == 1
    surface = odds_chart(_report(many), (296, 170), fonts)
    assert 10 <= len(_columns_of(surface, BAR)) <= slots
    assert min(_column_widths(surface, BAR)) >= LABEL_SIZE


def test_many_named_outcomes_keep_the_likeliest_and_sum_up_the_rest(fonts):
    named = _section("fate", {f"fate {k}": Fraction(k + 1, 210) for k in range(20)})
    bars = chart_bars(named, 40)
    assert len(bars) == MAX_NAMED_BARS and bars[-1].rest
    assert [b.label for b in bars[:2]] == ["fate 9", "fate 10"]
    assert sum(b.probability for b in bars) == 1
    surface = odds_chart(_report(named), (300, 220), fonts)
    assert any(_runs(surface, BAR_OTHER, row=y) for y in range(220))


def test_fonts_fit_shortens_with_an_ellipsis(fonts):
    text = "a very long line of facts " * 12
    fitted = fonts.fit(text, 11, 120)
    assert fitted is not None and fitted.endswith("…")
    assert fonts.width(fitted, 11) <= 120 < fonts.width(fitted[:-1] + "x…", 11)
    assert fonts.fit("short", 11, 200) == "short"
    assert fonts.fit("wide", 11, 1) is None


def test_closing_the_child_process_kills_the_enumeration_under_way(bfm_game):
    """A screen that closes must not leave a core busy with odds nobody will read."""
    import multiprocessing

    game, action = first_attack(bfm_game, "attack")
    before = set(multiprocessing.active_children())  # earlier screens' children may linger
    odds = ProcessOdds()
    odds(game, action)  # the child is up
    (child,) = set(multiprocessing.active_children()) - before
    busy = odds._pool.submit(time.sleep, 60)  # a long enumeration, as far as close knows
    time.sleep(0.2)
    assert child.is_alive() and not busy.done()
    start = time.monotonic()
    odds.close()
    # the executor's own thread may reap the killed child first: our join then sees no
    # status yet (ECHILD) and is_alive stays true until that thread records it
    while child.is_alive() and time.monotonic() - start < 10:
        child.join(0.1)
    assert not child.is_alive() and time.monotonic() - start < 10


def test_the_secondary_sections_can_be_collapsed(fonts):
    """The other sections follow the main one and can be collapsed; collapsed,
    the main plot takes their room."""
    drawn = []

    class Recording(type(fonts)):
        def render(self, text, size, colour):
            drawn.append(text)
            return super().render(text, size, colour)

    report = _report(RESULT, DAMAGE)
    odds_chart(report, (300, 220), Recording())
    shown = list(drawn)
    drawn.clear()
    odds_chart(report, (300, 220), Recording(), details=False)
    second = section_title(report.sections[1]).split(" (")[0]
    assert any(text.startswith(second + ":") for text in shown)
    assert not any(text.startswith(second + ":") for text in drawn)
    assert chart_layout((300, 220), 1).plot.height > chart_layout((300, 220), 2).plot.height
