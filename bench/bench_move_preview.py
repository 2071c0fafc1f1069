"""Move preview budget: a 1920x1080 frame of maps/stress-200.toml (200
units, 40 terrain pieces) while a unit's move is drawn: blit the cached table, draw the move
preview of a 3-token path and the tool's status line. <= 12 ms median when the path changes
every frame (replan + redraw) and when it does not (everything cached), against a naive frame
that replans and redraws the whole table with a fresh SceneRenderer (measured in the same run).

Run: .venv/bin/pytest bench/bench_move_preview.py --benchmark-enable -p no:cacheprovider
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
from conftest import RATIOS, record

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.session.movement import plan_move
from tactical.ui import palette
from tactical.ui.camera import Camera, Margins
from tactical.ui.draw import text
from tactical.ui.move_preview import draw_move_preview
from tactical.ui.move_tool import MoveTool
from tactical.ui.scene import SceneRenderer

FRAME_BUDGET = 0.012
SIZE = (1920, 1080)
LENGTHS = 100  # distinct trailing straights cycled through: more than the tool's plan cache
COLOUR = palette.SIDE_COLOURS["A"]

RATIOS.append(
    ("move preview: naive / changing path", "move naive frame", "move changing-path frame", 2.0)
)
RATIOS.append(
    ("move preview: naive / unchanged path", "move naive frame", "move unchanged-path frame", 5.0)
)


@pytest.fixture(scope="module")
def table():
    state = load_map(builtin_map("stress-200"))
    assert len(state.units) == 200 and len(state.terrain) >= 40
    system = registry.get(state.rules)
    camera = Camera.fit(state.board.bounds, SIZE, Margins(36, 36, 36, 36))
    renderer = SceneRenderer()
    cached_table = pygame.Surface(SIZE)
    renderer.draw(cached_table, state, camera, system)
    unit = state.units[0]
    rules = system.turning_rules(unit, state.options)

    def preview(unit_id: str, path: str):
        return plan_move(state, unit_id, path)

    tool = MoveTool(unit, rules, preview)
    template = rules.max_turn_per_step or 45
    tool.draft = tool.draft.forward(4).turn("S", template, rules.max_turn_per_step).forward(2)
    assert len(tool.draft.tokens) == 3 and tool.plan is not None
    return state, system, camera, renderer, cached_table, tool, pygame.Surface(SIZE)


def frame(target, cached_table, camera, tool, fonts) -> None:
    """What the App draws per frame while the move tool is open."""
    target.blit(cached_table, (0, 0))
    draw_move_preview(target, camera, tool.plan, tool.unit, fonts, COLOUR)
    text(target, fonts, tool.status(), (12, SIZE[1] - 24), 14, palette.TEXT, "topleft")


def test_move_preview_unchanged_path_frame(benchmark, table):
    """The path stays: the plan, screen shapes and status text all come from caches."""
    _, _, camera, renderer, cached_table, tool, target = table
    benchmark(frame, target, cached_table, camera, tool, renderer.fonts)
    record("move unchanged-path frame", benchmark, FRAME_BUDGET)
    if benchmark.stats is not None:
        assert benchmark.stats.stats.median <= FRAME_BUDGET


def test_move_preview_changing_path_frame(benchmark, table):
    """The trailing straight changes every frame (a drag): replan, rebuild shapes, redraw."""
    _, _, camera, renderer, cached_table, tool, target = table
    counter = iter(range(10**9))

    def dragged() -> None:
        tool.draft = tool.draft.set_last_straight(1.0 + (next(counter) % LENGTHS) * 0.1)
        frame(target, cached_table, camera, tool, renderer.fonts)

    benchmark(dragged)
    record("move changing-path frame", benchmark, FRAME_BUDGET)
    if benchmark.stats is not None:
        assert benchmark.stats.stats.median <= FRAME_BUDGET


def test_move_preview_naive_frame(benchmark, table):
    """Baseline: replan and redraw the whole table (a fresh SceneRenderer) every frame."""
    state, system, camera, renderer, _, tool, target = table
    counter = iter(range(10**9))
    unit_id = tool.unit.id
    base = tool.draft.pop().path

    def naive() -> None:
        plan = plan_move(state, unit_id, f"{base} F{1.0 + (next(counter) % LENGTHS) * 0.1:.1f}")
        SceneRenderer(fonts=renderer.fonts).draw(target, state, camera, system)
        draw_move_preview(target, camera, plan, tool.unit, renderer.fonts, COLOUR)

    benchmark(naive)
    record("move naive frame", benchmark)
