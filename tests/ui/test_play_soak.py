"""Soak: 10,000 seeded random events through the play screen raise nothing."""

from __future__ import annotations

import random

import pygame

from tactical.io.maps import dumps_map, load_map, loads_map
from tactical.io.paths import default_map_path
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
    app.roll_terrain(2)
    app.do_roll_off()
    rng = random.Random(20261122)
    for number in range(EVENTS):
        app.handle(random_event(rng, app.size))
        if number % 50 == 0:
            app.step()
            app.pump()
        if number % 1000 == 0:
            app.frame()
        if number == 5000:
            app.choose_edge("left")
    app.frame()
    # a valid state: same units, and it survives the map format unchanged
    assert [u.id for u in app.state.units] == [u.id for u in state.units]
    assert loads_map(dumps_map(app.state)) == app.state
    assert app.view.camera.scale > 0
