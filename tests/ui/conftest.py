"""Headless pygame for every ui test: no display, no audio; `display` for widget tests."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest


@pytest.fixture(scope="module")
def display():
    """pygame's display and fonts, with a 1x1 window where none is open: what pygame_gui's
    widgets need to be built and drawn without an App."""
    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1))
