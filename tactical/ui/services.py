"""What a mode of the play screen receives from the window around it.

`App` owns the window, the loop and which mode is active; each mode (play,
setup) owns its input handling and its panels and reaches the few shared
things it needs through `Services`, never by importing `App`. The screen's
fixed bands (top bar, status line, tick band, legend, the play column) are
here too, so that every panel lays itself out from the same numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import pygame_gui

from tactical.model import GameState
from tactical.rules.base import RuleSystem
from tactical.ui.scene import SceneRenderer
from tactical.ui.view import ViewState

TOP_BAR = 36  # the buttons and the title
STATUS_BAR = 26  # the status line at the bottom
TICK_BAND = 36  # the inch ticks around the table
LEGEND_BAND = 40  # pixels kept under the fitted table for the legend
PANEL_WIDTH = 320  # the play column on the right of the window
OVERLAY_HEIGHT = 20  # pygame_gui layer of the cards and the help: above the panels


class Services(Protocol):
    """The shared services a mode uses: the view, the table, the status line, dialogs."""

    @property
    def view(self) -> ViewState: ...

    @property
    def state(self) -> GameState: ...

    @property
    def system(self) -> RuleSystem: ...

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def manager(self) -> pygame_gui.UIManager: ...

    @property
    def renderer(self) -> SceneRenderer: ...

    def set_state(self, state: GameState) -> None:
        """Replace the table shown (the selection survives if its unit does)."""

    def set_view(self, view: ViewState) -> None:
        """Replace the view (camera, selection, hover, ruler)."""

    def set_status(self, message: str) -> None:
        """One line on the status bar."""

    def select(self, unit_id: str | None) -> None:
        """Select a unit (None clears the selection)."""

    def ask_file(self, purpose: str, title: str, existing: bool) -> None:
        """A file dialog; its answer comes back to the mode by `purpose`."""

    def show_message(self, title: str, message: str) -> None:
        """A message window (a file that cannot be read or written)."""

    def adopt_map(self, state: GameState, path: Path | None) -> None:
        """The table a new game starts from."""

    def fit(self) -> None:
        """The whole table fitted to the window (a new table is shown whole at once)."""

    def map_saved(self, path: Path) -> None:
        """The map was saved as `path` (asked first when it replaced a file): the window's
        file and title follow it."""

    def refresh_card(self) -> None:
        """Re-word the hover card (a roll changed what it says)."""
