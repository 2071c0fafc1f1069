"""What the window's own parts reach of the window around them.

`App` (tactical.ui.app) owns the window, the loop, the table shown and which mode is
active. Its parts are objects of their own, each with its own state: the input
(`WindowInput`, tactical.ui.app_input: which event goes where), the hover card and pair
panel's words (`HoverWords`, tactical.ui.app_hover) and the window's files
(`WindowFiles`, tactical.ui.window_files). They reach the window through `Window`, never
by importing `App`, as a mode reaches it through `Services`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import pygame

from tactical.model import GameState
from tactical.ui.adjust_mode import AdjustMode
from tactical.ui.camera import Camera
from tactical.ui.chrome import HelpOverlay, StatusLine, TopBar
from tactical.ui.hover_panels import PairPanel, UnitCard
from tactical.ui.play_mode import PlayScreen
from tactical.ui.services import Services
from tactical.ui.setup_mode import SetupMode
from tactical.ui.table_view import TableView


class Window(Services, Protocol):
    """The window: the shared services, its bars and modes, and the steps its parts ask of
    it (switching modes, fitting the table, drawing a frame)."""

    path: Path | None  # the map file of the table (None: a table made here, not yet saved)
    map_state: GameState  # the table as set up, before the game's first action
    game_seed: int
    running: bool
    top: TopBar
    status: StatusLine
    help: HelpOverlay
    card: UnitCard
    pair_panel: PairPanel
    table: TableView
    play: PlayScreen
    setup: SetupMode
    adjust: AdjustMode

    def fitted_camera(self) -> Camera:
        """The camera showing the whole table in the window."""

    def frame(self) -> pygame.Surface:
        """One frame drawn; returns it."""

    def show_mode(self) -> None:
        """The mode's panels shown, the others hidden; the top bar says which."""

    def resize(self, size: tuple[int, int]) -> None:
        """A new window size."""

    def toggle_mode(self) -> None:
        """Play <-> setup (adjust mode: back to play)."""

    def toggle_adjust(self) -> None:
        """Adjust mode from play or setup, and back to play."""

    def toggle_measure(self) -> None:
        """The ruler on or off."""

    def toggle_help(self) -> None:
        """The help shown or hidden."""

    def table_area(self) -> pygame.Rect:
        """The window between the bars and left of the mode's panel."""

    def world(self, pos: tuple[int, int]) -> tuple[float, float]:
        """Table inches under a window pixel."""
