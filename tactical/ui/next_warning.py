"""Next asks before it throws away an action: "Markgraf can still fire: pass anyway?".

The question is the session's (`session.forced.pass_loses`); this window only asks it,
once per go: Pass anyway, Keep my go, or Pass and stop asking (the play screen's setting,
which the same window's last button turns off; Shift+N passes without asking too).
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextBox, UIWindow

WINDOW_SIZE = (440, 170)
PASS, KEEP, STOP = "pass", "keep", "stop-asking"
LABELS = ((PASS, "Pass anyway"), (KEEP, "Keep my go"), (STOP, "Pass, stop asking"))


class NextWarning:
    """The question, its three buttons, and what was answered (`answer`)."""

    def __init__(
        self, manager: pygame_gui.UIManager, screen: tuple[int, int], question: str
    ) -> None:
        self.question = question
        rect = pygame.Rect(0, 0, *WINDOW_SIZE)
        rect.center = (screen[0] // 2, screen[1] // 2)
        self.window = UIWindow(rect, manager, "Pass?", resizable=False)
        width = WINDOW_SIZE[0] - 32
        self.text = UITextBox(
            question, pygame.Rect(8, 8, width, 64), manager, container=self.window
        )
        self.buttons: dict[str, UIButton] = {}
        button_width = (width - 16) // 3
        for index, (name, label) in enumerate(LABELS):
            left = 8 + index * (button_width + 8)
            self.buttons[name] = UIButton(
                pygame.Rect(left, 80, button_width, 30), label, manager, container=self.window
            )

    @property
    def alive(self) -> bool:
        return self.window.alive()

    def command(self, event: pygame.event.Event) -> str | None:
        """PASS, KEEP or STOP for a press of one of the buttons (the window then closes);
        KEEP when the window is closed by its own close button."""
        if not self.alive:
            return None
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            return KEEP
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        for name, button in self.buttons.items():
            if event.ui_element is button:
                self.close()
                return name
        return None

    def close(self) -> None:
        if self.alive:
            self.window.kill()


__all__ = ["KEEP", "PASS", "STOP", "NextWarning"]
