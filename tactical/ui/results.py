"""The steps' words for the screen: they are decided in `tactical.present.results` (no
pygame there); the ui's modules that draw them find them here too."""

from __future__ import annotations

from tactical.present.results import (
    concerned,
    dice_line,
    last_hits,
    log_lines,
    note_lines,
    step_log_lines,
    step_status,
    step_units,
)

__all__ = [
    "concerned",
    "dice_line",
    "last_hits",
    "log_lines",
    "note_lines",
    "step_log_lines",
    "step_status",
    "step_units",
]
