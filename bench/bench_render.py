"""Renderer budgets: a 1920x1080 frame of maps/stress-200.toml (200 units, 40 terrain pieces)
with a selected unit's arcs, range rings and lines of sight, static layer cached:
<= 8 ms median, against a naive renderer that redraws everything every frame (measured
in the same run). Also reported: a frame after the selection changes and a frame after
the camera moves (what a pan or zoom costs).

Run: .venv/bin/pytest bench/bench_render.py --benchmark-enable -p no:cacheprovider
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
from tactical.ui.camera import Camera, Margins
from tactical.ui.scene import SceneRenderer

FRAME_BUDGET = 0.008
SIZE = (1920, 1080)

RATIOS.append(("render: naive / cached frame", "render naive frame", "render cached frame", 3.0))


@pytest.fixture(scope="module")
def scene():
    state = load_map(builtin_map("stress-200"))
    assert len(state.units) == 200 and len(state.terrain) >= 40
    system = registry.get(state.rules)
    camera = Camera.fit(state.board.bounds, SIZE, Margins(36, 36, 36, 36))
    target = pygame.Surface(SIZE)
    renderer = SceneRenderer()
    selected = state.units[0].id
    view = renderer.draw(target, state, camera, system, selected=selected)
    assert view is not None and view.arcs and view.sight_lines
    return state, system, camera, target, renderer, selected


def test_render_cached_frame(benchmark, scene):
    """Per frame: blit the cached table (with the selection's arcs), sight lines, 200 units."""
    state, system, camera, target, renderer, selected = scene
    benchmark(renderer.draw, target, state, camera, system, selected)
    record("render cached frame", benchmark, FRAME_BUDGET)
    if benchmark.stats is not None:
        assert benchmark.stats.stats.median <= FRAME_BUDGET


def test_render_naive_frame(benchmark, scene):
    """Baseline: a fresh renderer every frame, so the table, terrain, arcs and LOS are redone."""
    state, system, camera, target, _, selected = scene

    def naive() -> None:
        SceneRenderer(fonts=scene[4].fonts).draw(target, state, camera, system, selected)

    benchmark(naive)
    record("render naive frame", benchmark)


def test_render_selection_change_frame(benchmark, scene):
    """A frame right after another unit is selected: its view and arcs are recomputed."""
    state, system, camera, target, renderer, _ = scene
    picks = [state.units[0].id, state.units[1].id]
    counter = iter(range(10**9))

    def reselect() -> None:
        renderer.draw(target, state, camera, system, picks[next(counter) % 2])

    benchmark(reselect)
    record("render selection-change frame", benchmark)


def test_render_camera_change_frame(benchmark, scene):
    """A frame right after the camera moves: the static layer and the arcs are redrawn."""
    state, system, camera, target, renderer, selected = scene
    counter = iter(range(10**9))

    def pan() -> None:
        moved = camera.panned(next(counter) % 2, 0)
        renderer.draw(target, state, moved, system, selected)

    benchmark(pan)
    record("render camera-change frame", benchmark)
