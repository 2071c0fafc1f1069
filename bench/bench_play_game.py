"""Play screen budgets on maps/stress-200.toml (200 ships, 40 pieces):

- a 1920x1080 frame with the move tool's live preview <= 12 ms median, the path changing
  every frame as in a drag (each frame plans the new path: sweep, collisions, snaking),
  and with the path at rest; against a naive frame that plans the path afresh and draws
  with a fresh renderer, measured in the same run;
- the odds of a hovered target ready within one frame: after the declaration is picked
  (its targets' odds computed ahead), the frame that handles the hover shows them.

Run: .venv/bin/pytest bench/bench_play_game.py --benchmark-enable -p no:cacheprovider
"""

from __future__ import annotations

import os
import time

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from conftest import RATIOS, is_quick, quick, record

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.present.declaration import unit_fields
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.history import History
from tactical.ui.app import App
from tactical.ui.move_tool import MoveTool
from tactical.ui.scene import SceneRenderer
from tactical.ui.table_view import TableView

FRAME_BUDGET = 0.012
SIZE = (1920, 1080)
FRAME_SECONDS = 1 / 60
RATIOS.append(
    ("move preview frame vs naive", "move preview frame (naive)", "move preview frame (drag)", 1.0)
)


def advanced_session(wanted) -> Session:
    """The stress map's game, played by the stand-in until `wanted(choice)` is offered."""
    games = [Session.new(load_map(builtin_map("stress-200")), 5).game]
    for _ in range(400):
        game = games[-1]
        if any(wanted(c, game) for c in game.choices()):
            return Session(History(tuple(games), len(games) - 1))
        games.append(autoplay.next_game(game))
    raise AssertionError("the stand-in never reached the wanted choice")


def _is_unit_move(choice, game) -> bool:
    return choice.kind == "move" and game.state.has_unit(choice.actor)


def _is_attack(choice, game) -> bool:
    ids = tuple(u.id for u in game.state.units)
    return bool(unit_fields(choice, ids)) and choice.actor in ids


@pytest.fixture(scope="module")
def moving_app() -> App:
    session = advanced_session(_is_unit_move)
    app = App(session.state, SIZE, headless=True, session=session)
    choice = next(c for c in session.choices() if _is_unit_move(c, session.game))
    app.play.actions.pick(choice)
    app.play.start_move(choice)
    assert app.play.move_tool is not None
    for _ in range(3):
        app.play.move_tool.draft = app.play.move_tool.draft.forward(1.0)
    app.step()
    app.frame()
    return app


def test_move_preview_frame_at_rest(benchmark, moving_app):
    app = moving_app
    benchmark(app.frame)
    record("move preview frame (at rest)", benchmark, FRAME_BUDGET)
    assert app.play.move_tool.plan is not None


def test_move_preview_frame_while_dragging(benchmark, moving_app):
    """Every frame a new path (the drag goes on): the plan is made again, then drawn."""
    app = moving_app
    tool = app.play.move_tool
    lengths = iter(range(10**9))

    def drag_frame() -> pygame.Surface:
        inches = 2.0 + (next(lengths) % 40) * 0.1  # 40 distinct paths, none cached twice in a row
        tool.draft = tool.draft.clear().forward(inches)
        app.step(FRAME_SECONDS)
        return app.frame()

    benchmark(drag_frame)
    record("move preview frame (drag)", benchmark, FRAME_BUDGET)
    assert tool.plan is not None


def test_move_preview_frame_naive(benchmark, moving_app):
    """Baseline: a fresh move tool (no plan cache) and a fresh renderer every frame."""
    app = moving_app
    tool = app.play.move_tool
    lengths = iter(range(10**9))

    def naive_frame() -> pygame.Surface:
        fresh = MoveTool(tool.unit, tool.rules, tool.preview, tool.names)
        fresh.draft = fresh.draft.forward(2.0 + (next(lengths) % 40) * 0.1)
        app.play.moves.tool = fresh  # `move_tool` reads the play screen's move control
        app.renderer = SceneRenderer()
        app.table = TableView(app.renderer)
        app.step(FRAME_SECONDS)
        return app.frame()

    try:
        benchmark.pedantic(naive_frame, rounds=quick(15, 1), iterations=1, warmup_rounds=1)
        record("move preview frame (naive)", benchmark)
    finally:
        app.play.moves.tool = tool


def test_hovered_targets_odds_are_ready_in_the_frame_that_handles_the_hover():
    session = advanced_session(_is_attack)
    app = App(session.state, SIZE, headless=True, session=session)
    ids = tuple(u.id for u in session.state.units)
    choice = next(c for c in session.choices() if _is_attack(c, session.game))
    app.select(choice.actor)
    app.play.actions.pick(choice)
    app.play.panel_command("picked", None)
    targets = app.play.target_ids()
    assert targets, "the declaration offers no target"
    app.play.odds.wait_idle(120.0)  # the prefetch: what happens while the user looks
    field = unit_fields(choice, ids)[0]
    app.frame()  # the table's first picture is drawn once, before any hover
    hover = app.play.hover
    odds_seconds = []

    def timed_hover(unit_id):
        started = time.perf_counter()
        hover(unit_id)
        odds_seconds.append(time.perf_counter() - started)

    app.play.hover = timed_hover
    delays = []
    for target_id in targets[:10]:
        target = session.state.unit(target_id)
        pos = app.view.camera.to_screen(target.x, target.y)
        started = time.perf_counter()
        app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        app.step(FRAME_SECONDS)
        app.frame()
        delays.append(time.perf_counter() - started)
        assert app.play.targets.hover_target == target_id
        assert app.play.actions.has_odds, f"odds for {field}={target_id} not shown in the frame"
    app.play.close()
    frame, odds = sorted(delays)[len(delays) // 2], sorted(odds_seconds)[len(odds_seconds) // 2]
    print(
        f"\nhover frame (card, pair panel, odds chart): median {frame * 1e3:.2f} ms; "
        f"of which the odds (cached report -> chart on the panel): median {odds * 1e3:.2f} ms "
        f"over {len(delays)} targets"
    )
    assert is_quick() or odds <= FRAME_BUDGET
