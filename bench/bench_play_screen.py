"""The play screen speaks to the player: odds latency, idle CPU, status tokens.

Run: .venv/bin/pytest bench/bench_play_screen.py --benchmark-enable -p no:cacheprovider -s

- Odds latency: the first odds of a game from a cold odds process (the naive baseline:
  today's 2.1 s for a plain laser) against the first odds once the process was warmed as
  the window opened (`ProcessOdds.warm`), and a later, uncached odds. Budget: <= 100 ms.
- Idle CPU: the play loop (`App.run`) with no event for a few seconds, after the widgets
  settled: CPU seconds per wall second. Budget: < 5% of a core. Baseline: the same loop
  drawing every frame at 60 fps (what it did before).
- Status tokens: a frame of maps/stress-200.toml at 1280x800 (the tokens live in the
  cached table picture) and a table redraw with the 200 tokens (after a roll).
  Budget: <= 8 ms median for the frame.
"""

from __future__ import annotations

import os
import threading
import time

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from conftest import FIGURES, RATIOS, is_quick, quick, record

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules.base import Action
from tactical.session import autoplay
from tactical.session.game import Game
from tactical.ui.app import App
from tactical.ui.odds_view import ProcessOdds

ODDS_BUDGET = 0.100
IDLE_BUDGET = 0.05
FRAME_BUDGET = 0.008
IDLE_SECONDS = quick(4.0, 1.0)


def laser_game() -> tuple[Game, Action, Action]:
    """Battlefleet Mars at its first combat go: two laser attacks (2d... a d10 to hit, one
    for damage) that differ, so the second is not a cache hit."""
    game = Game.new(load_map(builtin_map("battlefleet-mars")), 1)
    while not any(c.kind == "attack" for c in game.choices()):
        game = autoplay.next_game(game)
    attacks = [c for c in game.choices() if c.kind == "attack"]
    first = next(autoplay.candidate_params(attacks[0]))
    second = next(autoplay.candidate_params(attacks[1]))
    return (
        game,
        Action(attacks[0].kind, attacks[0].actor, first),
        Action(attacks[1].kind, attacks[1].actor, second),
    )


def test_first_odds_cold(benchmark):
    """Baseline: the first odds with the odds process started by the request."""
    game, action, _ = laser_game()
    processes = []

    def setup():
        processes.append(ProcessOdds())
        return (processes[-1],), {}

    benchmark.pedantic(lambda odds: odds(game, action), setup=setup, rounds=3, iterations=1)
    for odds in processes:
        odds.close()
    record("odds first, cold process", benchmark)


def test_first_odds_warmed(benchmark):
    """The first odds of a game after the window warmed the process as it opened."""
    game, action, _ = laser_game()
    processes = []

    def setup():
        odds = ProcessOdds()
        odds.warm(game.rules).result(timeout=60)  # the player's first seconds on the screen
        processes.append(odds)
        return (odds,), {}

    benchmark.pedantic(lambda odds: odds(game, action), setup=setup, rounds=3, iterations=1)
    for odds in processes:
        odds.close()
    record("odds first, warmed process", benchmark, ODDS_BUDGET)
    RATIOS.append(
        ("first odds: warmed vs cold", "odds first, cold process", "odds first, warmed process", 5)
    )
    if benchmark.stats is not None:
        assert benchmark.stats.stats.median <= ODDS_BUDGET


def test_later_odds(benchmark):
    """A later odds of the same game (not in any cache)."""
    game, first, second = laser_game()
    odds = ProcessOdds()
    odds(game, first)
    benchmark.pedantic(lambda: odds(game, second), rounds=5, iterations=1)
    odds.close()
    record("odds later", benchmark, ODDS_BUDGET)
    if benchmark.stats is not None:
        assert benchmark.stats.stats.median <= ODDS_BUDGET


def idle_cpu(app: App, seconds: float) -> float:
    """CPU seconds per wall second of `app.run()` over `seconds` with no event, once the
    widgets have settled."""
    pygame.event.clear()
    quit_at = time.monotonic() + seconds + 2.0
    measured: dict[str, float] = {}

    def mark() -> None:
        time.sleep(2.0)  # the settle time after the last event (and the odds warm-up)
        measured["cpu"], measured["wall"] = time.process_time(), time.monotonic()
        time.sleep(max(0.0, quit_at - time.monotonic()))
        measured["cpu_end"], measured["wall_end"] = time.process_time(), time.monotonic()
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    timer = threading.Thread(target=mark)
    timer.start()
    app.run()
    timer.join()
    return (measured["cpu_end"] - measured["cpu"]) / (measured["wall_end"] - measured["wall"])


def test_idle_cpu(benchmark):
    """The play loop idle: it waits for events instead of drawing 60 frames a second."""
    state = load_map(builtin_map("battlefleet-mars"))
    app = App(state, (1280, 800), headless=True)
    share = idle_cpu(app, IDLE_SECONDS)
    FIGURES["idle loop: CPU per wall second"] = share
    benchmark.pedantic(lambda: None, rounds=1)
    assert is_quick() or share < IDLE_BUDGET


def test_busy_loop_cpu(benchmark):
    """Baseline: the same window drawing a frame 60 times a second, as before."""
    state = load_map(builtin_map("battlefleet-mars"))
    app = App(state, (1280, 800), headless=True)
    clock = pygame.time.Clock()
    start_cpu, start = time.process_time(), time.monotonic()
    while time.monotonic() - start < IDLE_SECONDS / 2:
        pygame.event.get()
        app.step(clock.tick(60) / 1000)
        app.frame()
    share = (time.process_time() - start_cpu) / (time.monotonic() - start)
    FIGURES["60 fps loop: CPU per wall second"] = share
    app.play.close()
    benchmark.pedantic(lambda: None, rounds=1)


@pytest.fixture(scope="module")
def crowded() -> App:
    state = load_map(builtin_map("stress-200"))
    app = App(state, (1280, 800), headless=True)
    app.frame()
    return app


def test_frame_with_status_tokens(benchmark, crowded):
    """A frame of the 200-unit map with every unit's token (kept in the table picture)."""
    assert len(crowded.table.tokens.statuses(crowded.state, crowded.system)) == 200
    benchmark(crowded.frame)
    record("frame with 200 status tokens", benchmark, FRAME_BUDGET)
    if benchmark.stats is not None:
        assert benchmark.stats.stats.median <= FRAME_BUDGET


def test_table_redraw_with_status_tokens(benchmark, crowded):
    """The table redrawn with its 200 tokens (a roll changed the state): statuses asked
    again, tokens drawn."""

    def redraw():
        crowded.table.base = crowded.table.composite = None
        crowded.table.tokens = type(crowded.table.tokens)()
        return crowded.frame()

    benchmark(redraw)
    record("table redraw with 200 status tokens", benchmark)
