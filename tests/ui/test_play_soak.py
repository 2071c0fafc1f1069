"""Soak: seeded random events through the play screen raise nothing.

The first soak sets up a table (setup mode, terrain, deployment); the second plays games of
every rule system through the game's keys and the play column's widgets.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pygame
import pytest

from tactical.io.maps import dumps_map, load_map, loads_map
from tactical.io.paths import builtin_map, default_map_path
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.session.saving import load_game
from tactical.ui.app import App

EVENTS = 10_000
KEYS = (
    pygame.K_LEFT,
    pygame.K_RIGHT,
    pygame.K_UP,
    pygame.K_DOWN,
    pygame.K_f,
    pygame.K_HOME,
    pygame.K_m,
    pygame.K_TAB,
    pygame.K_q,
    pygame.K_e,
    pygame.K_ESCAPE,
    pygame.K_F1,
    pygame.K_RETURN,
    pygame.K_a,
)


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch):
    """Random presses of Log .txt / .json and F12 write files into the current folder."""
    monkeypatch.chdir(tmp_path)


def random_event(rng: random.Random, size: tuple[int, int]) -> pygame.event.Event:
    kind = rng.random()
    pos = (rng.randrange(-20, size[0] + 20), rng.randrange(-20, size[1] + 20))
    if kind < 0.45:
        return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    if kind < 0.6:
        return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=rng.choice((1, 1, 2, 3)))
    if kind < 0.75:
        return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=rng.choice((1, 1, 2, 3)))
    if kind < 0.85:
        return pygame.event.Event(
            pygame.MOUSEWHEEL, x=0, y=rng.choice((-2, -1, 1, 2)), flipped=False
        )
    if kind < 0.999:
        mod = rng.choice((0, 0, pygame.KMOD_SHIFT))
        return pygame.event.Event(
            pygame.KEYDOWN, key=rng.choice(KEYS), mod=mod, unicode="", scancode=0
        )
    return pygame.event.Event(
        pygame.VIDEORESIZE, w=rng.randrange(320, 1400), h=rng.randrange(240, 900), size=None
    )


def test_ten_thousand_random_events_raise_nothing():
    state = load_map(default_map_path())
    app = App(state, (1024, 700), headless=True)
    app.toggle_mode()
    app.setup.roll_terrain(2)
    app.setup.do_roll_off()
    rng = random.Random(20261122)
    for number in range(EVENTS):
        app.handle(random_event(rng, app.size))
        if number % 50 == 0:
            app.step()
            app.pump()
        if number % 1000 == 0:
            app.frame()
        if number == 5000:
            app.setup.choose_edge("left")
    app.frame()
    # a valid state: same units; the table survives the map format unchanged, and the
    # game shown is the session's (the map format has no place for the rule state)
    assert [u.id for u in app.state.units] == [u.id for u in state.units]
    assert loads_map(dumps_map(app.map_state)) == app.map_state
    if app.view.mode == "play" and not app.play.replaying:
        assert app.state == app.play.session.state
        assert app.play.session.game.initial == app.map_state
    assert loads_map(dumps_map(app.state)) == replace(app.state, rule_state=FrozenMap())
    assert app.view.camera.scale > 0


GAME_EVENTS = 600
GAME_KEYS = (
    (pygame.K_n, 0),
    (pygame.K_z, pygame.KMOD_CTRL),
    (pygame.K_y, pygame.KMOD_CTRL),
    (pygame.K_r, pygame.KMOD_CTRL),
    (pygame.K_PAGEUP, 0),
    (pygame.K_PAGEDOWN, 0),
    (pygame.K_w, 0),
    (pygame.K_s, 0),
    (pygame.K_s, pygame.KMOD_SHIFT),
    (pygame.K_a, 0),
    (pygame.K_d, 0),
    (pygame.K_RETURN, 0),
    (pygame.K_ESCAPE, 0),
    (pygame.K_TAB, 0),
)


def press_in_play_column(app: App, rng: random.Random) -> None:
    """A click somewhere on the play column (tracker, choices, fields, odds, log), with the
    frames between that pygame_gui needs to see a press."""
    width, height = app.size
    pos = (rng.randrange(width - 330, width), rng.randrange(40, height - 30))
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.step()
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.step()
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.step()
    app.pump()


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_random_play_of_every_rule_system_raises_nothing(rules_id, tmp_path):
    """Game keys, play-column clicks and table events: the game shown stays the session's,
    and the session's history saves and loads back to the same game."""
    app = App(load_map(builtin_map(rules_id)), (1280, 800), headless=True)
    rng = random.Random(f"play {rules_id}")
    for number in range(GAME_EVENTS):
        roll = rng.random()
        if roll < 0.3:
            code, mod = rng.choice(GAME_KEYS)
            app.handle(
                pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="", scancode=0)
            )
        elif roll < 0.5:
            press_in_play_column(app, rng)
        else:
            app.handle(random_event(rng, app.size))
        if number % 50 == 0:
            app.step()
            app.pump()
            app.frame()
    app.frame()
    session = app.play.session
    assert session.step_number > 0  # the soak played, not only looked
    if not app.play.replaying:
        assert app.state == session.state
    target = tmp_path / "soak.json"
    session.save(target)
    history = load_game(target)
    assert history.cursor == session.step_number
    assert history.game.state == session.state
    app.play.close()


@pytest.mark.parametrize("size", [(1024, 700), (1280, 744), (1280, 346)])
def test_a_scroll_view_two_arrows_tall_breaks_no_window(size):
    """pygame_gui 0.6.14's vertical scroll bar divides by its track's length, which is 0 when a
    scrolled view is exactly two arrow buttons and the border tall (46 px): these window
    sizes made the log view that tall. The play column keeps its views off that height."""
    app = App(load_map(builtin_map("battlefleet-mars")), size, headless=True)
    assert app.frame().get_size() == size
    for height in range(240, 900, 7):
        app.resize((size[0], height))
        app.frame()
    app.play.close()
