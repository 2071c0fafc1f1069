"""Headless pygame for every ui test: no display, no audio; `display` for widget tests."""

from __future__ import annotations

import logging
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


class _Caught(logging.Handler):
    def __init__(self, records: list) -> None:
        super().__init__(logging.ERROR)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def ui_event_errors():
    """The play screen catches any exception escaping an event handler, logs it and goes on
    (no traceback): in tests each one is still a failure, unless the test takes and clears them."""
    records: list = []
    handler = _Caught(records)
    logger = logging.getLogger("tactical.ui.events")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)
    assert not records, "an event handler failed: " + "; ".join(
        r.getMessage() + f" ({r.exc_info[1]!r})" if r.exc_info else r.getMessage() for r in records
    )
