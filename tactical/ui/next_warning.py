"""Next asks before it throws away an action: "Markgraf can still fire: pass anyway?".

The question is the session's (`session.forced.pass_loses`); this window only asks it,
once per go: Pass anyway, Keep my go, or Pass and stop asking (the play screen's setting,
which the same window's last button turns off; Shift+N passes without asking too).
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextBox, UIWindow

from tactical.ui.widgets import ButtonQuestion

WINDOW_SIZE = (440, 170)
PASS, KEEP, STOP = "pass", "keep", "stop-asking"
LABELS = ((PASS, "Pass anyway"), (KEEP, "Keep my go"), (STOP, "Pass, stop asking"))


class NextWarning(ButtonQuestion):
    """The question and its three buttons: `command` gives PASS, KEEP or STOP for a press
    of one of them (the window then closes), KEEP when the window's own close button
    shuts it."""

    def __init__(
        self, manager: pygame_gui.UIManager, screen: tuple[int, int], question: str
    ) -> None:
        self.question = question
        rect = pygame.Rect(0, 0, *WINDOW_SIZE)
        rect.center = (screen[0] // 2, screen[1] // 2)
        window = UIWindow(rect, manager, "Pass?", resizable=False)
        width = WINDOW_SIZE[0] - 32
        self.text = UITextBox(question, pygame.Rect(8, 8, width, 64), manager, container=window)
        buttons: dict[str, UIButton] = {}
        button_width = (width - 16) // 3
        for index, (name, label) in enumerate(LABELS):
            left = 8 + index * (button_width + 8)
            buttons[name] = UIButton(
                pygame.Rect(left, 80, button_width, 30), label, manager, container=window
            )
        super().__init__(window, buttons, KEEP)


__all__ = ["KEEP", "PASS", "STOP", "NextWarning"]
