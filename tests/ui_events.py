"""Synthetic input for headless App tests: what a person's mouse and keyboard would send."""

from __future__ import annotations

import pygame


def screen(app, x: float, y: float) -> tuple[int, int]:
    px, py = app.view.camera.to_screen(x, y)
    return round(px), round(py)


def move(app, pos, buttons=(0, 0, 0)) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons))


def click(app, pos, button: int = 1) -> None:
    move(app, pos)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def drag(app, start, end, button: int = 1, steps: int = 4) -> None:
    move(app, start)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=button))
    for i in range(1, steps + 1):
        pos = (
            round(start[0] + (end[0] - start[0]) * i / steps),
            round(start[1] + (end[1] - start[1]) * i / steps),
        )
        move(app, pos, buttons=(1, 0, 0))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=button))


def key(app, code: int, mod: int = 0, unicode: str = "") -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode=unicode, scancode=0))
    app.handle(pygame.event.Event(pygame.KEYUP, key=code, mod=mod, unicode=unicode, scancode=0))


def wheel(app, notches: int) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False))


def press_at(app, pos) -> None:
    """Click a point of a pygame_gui widget as a person would: hover, press, release, pump."""
    move(app, pos)
    app.step()
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.step()
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    settle(app)


def settle(app, frames: int = 3) -> None:
    """Frames as the App's loop runs them: pygame_gui answers an event with posted events
    (a pressed list row posts its selection) that arrive one frame later."""
    for _ in range(frames):
        app.step()
        app.pump()


def press_button(app, button) -> None:
    """Click a pygame_gui widget at its centre."""
    press_at(app, button.get_abs_rect().center)


def type_text(app, text: str) -> None:
    """Type into the focused text entry (pygame_gui reads TEXTINPUT for characters)."""
    for char in text:
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text=char))
    settle(app)


def pump_commands(manager, widget, rounds: int = 3) -> list:
    """Hand pygame_gui the events it posted (a button posts, a list answers) and collect what
    the widget's `command` makes of them: for widget tests without an App."""
    commands = []
    for _ in range(rounds):
        manager.update(1 / 60)
        for event in pygame.event.get():
            manager.process_events(event)
            command = widget.command(event)
            if command is not None:
                commands.append(command)
    return commands
