"""Small pygame_gui pieces the screen's panels and windows share.

- `ButtonQuestion`: a window that asks one question by its buttons ("Pass anyway?",
  "Undo?"): the answer is the name of the button pressed, after which the window closes;
  its own close button gives the answer that changes nothing.
- `set_shown`: a panel shown or hidden as its mode is in view or not.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIWindow


def set_shown(element: Any, visible: bool) -> None:
    """Show `element` (a panel, a widget) when `visible`, else hide it."""
    if visible:
        element.show()
    else:
        element.hide()


class ButtonQuestion:
    """`window` with `buttons` (answer: button); `closed` is the answer its close button gives."""

    def __init__(self, window: UIWindow, buttons: dict[str, UIButton], closed: str) -> None:
        self.window = window
        self.buttons = buttons
        self.closed = closed

    @property
    def alive(self) -> bool:
        return self.window.alive()

    def widgets(self) -> list:
        return [self.window] if self.alive else []

    def command(self, event: pygame.event.Event) -> str | None:
        """The answer of the button `event` pressed (the window then closes), `closed` when
        the window's own close button shut it, else None."""
        if not self.alive:
            return None
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            return self.closed
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        for answer, button in self.buttons.items():
            if event.ui_element is button:
                self.close()
                return answer
        return None

    def close(self) -> None:
        if self.alive:
            self.window.kill()


__all__ = ["ButtonQuestion", "set_shown"]
