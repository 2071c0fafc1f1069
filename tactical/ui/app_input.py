"""The window's input: which event goes where.

`WindowInput` is the part of the `App` (tactical.ui.app) that takes every pygame event:
the window's own (closing, resizing), the widgets' (pygame_gui's events, to the online
windows, the mode's panel, the top bar or the file dialog), the shortcuts (they work while
a text field has the focus too), then the keys, the presses, drags and the wheel on the
table, given to the active mode first. It owns where the pointer is, the pan being dragged
and the press a click is measured from. No event ends the window with a traceback.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import replace

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from tactical.errors import UserError
from tactical.model import Unit
from tactical.ui.app_hover import HoverWords
from tactical.ui.app_window import Window
from tactical.ui.view import Ruler, UnitIndex, snap_tolerance
from tactical.ui.window_files import WindowFiles

# Where an exception escaping an event handler is logged (the screen shows one line of it).
EVENT_LOG = logging.getLogger("tactical.ui.events")
PAN_STEP = 60  # pixels per arrow key press
ZOOM_STEP = 1.15  # per wheel notch
CLICK_SLOP = 4  # pixels a press may move and still be a click
FUNCTION_KEYS = (pygame.K_F1, pygame.K_F2, pygame.K_F12)
POINTER_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)


class WindowInput:
    """See the module docstring. `window` is the `App`; `files` and `hover` its parts."""

    def __init__(self, window: Window, files: WindowFiles, hover: HoverWords) -> None:
        self.window = window
        self.files = files
        self.hover = hover
        size = window.size
        self.mouse = (size[0] // 2, size[1] // 2)  # where the pointer was last seen
        self.pan_from: tuple[int, int] | None = None  # a drag with the right button pans
        self._press: tuple[int, int] | None = None
        self._index: tuple[tuple[Unit, ...], UnitIndex] | None = None

    @property
    def index(self) -> UnitIndex:
        """What stands where on the current table, cached while its units are the same."""
        units = self.window.state.units
        if self._index is None or self._index[0] is not units:
            self._index = (units, UnitIndex(self.window.state))
        return self._index[1]

    def _view(self, **changes) -> None:
        window = self.window
        window.set_view(replace(window.view, **changes))

    # ------------------------------------------------------------------ where input goes

    def over_widget(self, pos: tuple[int, int]) -> bool:
        """Whether `pos` is on a widget (a click there is not a click on the table)."""
        # the card and the pair panel are not here: they keep away from the pointer, and a
        # click where they are goes to the table
        window = self.window
        widgets = [window.top.panel, *window.help.widgets(), window.status.label]
        widgets.extend(window.setup.widgets())
        widgets.extend(window.play.widgets())
        if window.view.mode == "adjust":
            widgets.extend(window.adjust.widgets())
        if self.files.dialog is not None:
            widgets.append(self.files.dialog[1])
        message = self.files.message
        if message is not None and message.alive():
            widgets.append(message)
        return any(w.visible and w.get_abs_rect().collidepoint(pos) for w in widgets)

    def typing(self) -> bool:
        """Whether a text is being typed (keys are letters, not commands)."""
        window = self.window
        focused = window.manager.get_focus_set() or ()
        typing_elsewhere = any(isinstance(element, UITextEntryLine) for element in focused)
        typing = window.setup.typing() or window.adjust.typing() or typing_elsewhere
        return typing or self.files.dialog is not None

    # ------------------------------------------------------------------ events

    def handle(self, event: pygame.event.Event) -> None:
        """One event. No event ends the play screen with a traceback: an exception escaping a
        handler is logged and shown as an error line; the game (immutable snapshots, replaced
        only by a finished action) stays as it was and the window open."""
        try:
            self._handle(event)
        except Exception as error:  # the screen must outlive any one bug
            self._handler_failed(event, error)

    def _handler_failed(self, event: pygame.event.Event, error: Exception) -> None:
        if isinstance(error, UserError):
            self.window.set_status(error.describe())
            return
        EVENT_LOG.error(
            "the play screen's %s handler failed",
            pygame.event.event_name(event.type),
            exc_info=error,
        )
        text = f"{type(error).__name__}: {error}".splitlines()[0][:160]
        self.window.set_status(
            f"Something went wrong with that input ({text}); the game is unchanged, "
            "the details are in the log"
        )

    def _handle(self, event: pygame.event.Event) -> None:
        """One event: the widgets first, then the table."""
        window = self.window
        if event.type == pygame.QUIT:
            window.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            # VIDEORESIZE has w, h; WINDOWSIZECHANGED x, y (a size of 0 is clamped by resize)
            wide, high = ("w", "h") if event.type == pygame.VIDEORESIZE else ("x", "y")
            window.resize((int(getattr(event, wide, 0)), int(getattr(event, high, 0))))
            return
        if window.view.mode == "play" and window.play.covering(event):
            return  # a hot-seat screen changing hands: Space lifts the cover
        if event.type == pygame.USEREVENT or event.type >= pygame.USEREVENT:
            self._ui_event(event)
        # function keys type nothing: they work while a text entry has the focus too, and
        # so does Ctrl+S (a save must not wait for the player to leave a field)
        if (
            event.type == pygame.KEYDOWN
            and (event.key in FUNCTION_KEYS or self._saving_key(event) or not self.typing())
            and self._shortcut(event)
        ):
            return
        try:
            consumed = window.manager.process_events(event)
        except IndexError as error:
            # pygame_gui's text lines (the file dialog's path) can lose track of their
            # selection and raise "No selected rows." on an edit: that one edit is dropped
            EVENT_LOG.warning("a text field dropped an edit: %s", error)
            consumed = True
        if event.type in POINTER_EVENTS:
            self.mouse = tuple(int(v) for v in event.pos)  # type: ignore[assignment]
        if consumed and event.type != pygame.MOUSEMOTION:
            return
        if event.type == pygame.MOUSEBUTTONDOWN and not self.over_widget(event.pos):
            self._button(event, down=True)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._button(event, down=False)
        elif event.type == pygame.MOUSEMOTION:
            self._mouse_motion(event)
        elif event.type == pygame.MOUSEWHEEL and not self.over_widget(self.mouse):
            self._wheel(event)
        elif event.type == pygame.MOUSEWHEEL:
            window.play.wheel(self.mouse, event.y)
        elif event.type == pygame.KEYDOWN and not self.typing():
            self._key(event)

    def _ui_event(self, event: pygame.event.Event) -> None:
        window = self.window
        play, mode = window.play, window.view.mode
        if play.online.ui_event(event):  # its windows answer in any mode
            return
        if mode == "play" and play.handle_ui_event(event):
            return
        if mode == "setup" and window.setup.ui_event(event):
            return
        # "Save map as…" over a file asks in any mode, and the answer is the adjust mode's
        answer = event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED
        if (mode == "adjust" or answer) and window.adjust.ui_event(event):
            return
        if (
            event.type == pygame_gui.UI_BUTTON_PRESSED
            and window.adjust.panel.command(event.ui_element) == "done"
        ):
            window.toggle_adjust()
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            files = self.files
            actions = {
                "mode": window.toggle_mode,
                "measure": window.toggle_measure,
                "fit": window.fit,
                "open": files.ask_open,
                "save": files.save_for_mode,
                "png": files.export_png,
                "help": window.toggle_help,
                "adjust": window.toggle_adjust,
                "auto": play.toggle_take_single,
                "host": lambda: self._in_play(play.online.hosting.ask_host),
                "join": lambda: self._in_play(play.online.hosting.ask_join),
            }
            name = window.top.command(event.ui_element)
            if name is not None:
                actions[name]()
        else:
            self.files.dialog_event(event)

    def _in_play(self, then: Callable[[], None]) -> None:
        """Host… and Join… act on the game: from setup or adjust mode, play mode first."""
        window = self.window
        if window.view.mode != "play":
            window.toggle_mode()
        if window.view.mode == "play":
            then()

    # ------------------------------------------------------------------ keys

    def _saving_key(self, event: pygame.event.Event) -> bool:
        """Ctrl+S (Ctrl+Shift+S), typed in a field of the window; not in a file dialog."""
        ctrl = event.mod & pygame.KMOD_CTRL
        return bool(ctrl) and event.key == pygame.K_s and self.files.dialog is None

    def _shortcut(self, event: pygame.event.Event) -> bool:
        window, files = self.window, self.files
        play, adjust = window.play, window.adjust
        ctrl = event.mod & pygame.KMOD_CTRL
        shift = event.mod & pygame.KMOD_SHIFT
        playing = window.view.mode == "play"
        adjusting = window.view.mode == "adjust"
        if event.key == pygame.K_F2:
            window.toggle_adjust()
        elif ctrl and adjusting and event.key in (pygame.K_z, pygame.K_y):
            adjust.undo() if event.key == pygame.K_z else adjust.redo()
        elif ctrl and event.key == pygame.K_s and (shift or not playing):
            files.save()
        elif ctrl and event.key == pygame.K_s:
            play.save_game()
        elif ctrl and event.key == pygame.K_z and playing:
            play.undo()
        elif ctrl and event.key == pygame.K_y and playing:
            play.redo()
        elif ctrl and event.key == pygame.K_r and playing:
            play.reset_activation()
        elif ctrl and event.key == pygame.K_o:
            files.ask_open()
        elif event.key == pygame.K_F12 and event.mod & pygame.KMOD_SHIFT:
            files.ask_file("png", "Export the view as PNG", False)
        elif event.key == pygame.K_F12:
            files.export_png()
        elif event.key == pygame.K_F1:
            window.toggle_help()
        else:
            return False
        return True

    def _key(self, event: pygame.event.Event) -> None:
        window = self.window
        key, mode = event.key, window.view.mode
        arrows = {
            pygame.K_LEFT: (PAN_STEP, 0),
            pygame.K_RIGHT: (-PAN_STEP, 0),
            pygame.K_UP: (0, PAN_STEP),
            pygame.K_DOWN: (0, -PAN_STEP),
        }
        if mode == "play" and window.play.key(event):
            return
        if mode == "setup" and window.setup.key(event):
            return
        if mode == "adjust" and window.adjust.key(event):
            return
        if key in arrows:
            self._view(camera=window.view.camera.panned(*arrows[key]))
        elif key in (pygame.K_f, pygame.K_HOME):
            window.fit()
        elif key == pygame.K_m:
            window.toggle_measure()
        elif key == pygame.K_TAB:
            window.toggle_mode()
        elif key == pygame.K_ESCAPE:
            window.setup.escape()
            window.adjust.escape()
            window.play.escape()
            self._view(ruler=None, help_visible=False)
            window.help.show(False)

    # ------------------------------------------------------------------ the pointer

    def _button(self, event: pygame.event.Event, down: bool) -> None:
        """A mouse button: the middle and right ones pan the view, the left one is the
        table's (a press there, a release)."""
        pos: tuple[int, int] = tuple(event.pos)  # type: ignore[assignment]
        if event.button in (2, 3):
            self.pan_from = pos if down else None
        elif event.button == 1 and down:
            self._left_down(pos)
        elif event.button == 1:
            self._left_up(pos)

    def _left_down(self, pos: tuple[int, int]) -> None:
        window = self.window
        self._press = pos
        point = window.world(pos)
        if window.view.tool == "measure":
            snapped, _ = self.index.snap(point, snap_tolerance(window.view.camera))
            ruler = window.view.ruler
            if ruler is None or ruler.done:
                self._view(ruler=Ruler(snapped, None))
            else:
                self._finish_ruler(Ruler(ruler.start, snapped, done=True))
            return
        unit_id = self.index.unit_at(point)
        if window.view.mode == "setup":
            window.setup.placing.press(point, unit_id)
        elif window.view.mode == "adjust":
            window.adjust.pointer.press(point, unit_id, pygame.key.get_mods())
        elif not window.play.press(point, unit_id):
            window.select(unit_id)

    def _left_up(self, pos: tuple[int, int]) -> None:
        window = self.window
        press, self._press = self._press, None
        window.play.release()
        moved = press is not None and math.dist(press, pos) > CLICK_SLOP
        ruler = window.view.ruler
        if window.view.tool == "measure" and ruler is not None and not ruler.done and moved:
            snapped, _ = self.index.snap(window.world(pos), snap_tolerance(window.view.camera))
            self._finish_ruler(Ruler(ruler.start, snapped, done=True))
            return
        window.setup.placing.release(window.world(pos), moved)
        window.adjust.pointer.release(window.world(pos), moved)

    def _mouse_motion(self, event: pygame.event.Event) -> None:
        window = self.window
        pos = tuple(event.pos)
        if self.pan_from is not None:
            dx, dy = pos[0] - self.pan_from[0], pos[1] - self.pan_from[1]
            self.pan_from = pos
            self._view(camera=window.view.camera.panned(dx, dy))
            return
        point = window.world(pos)
        ruler = window.view.ruler
        if window.view.tool == "measure" and ruler is not None and not ruler.done:
            snapped, _ = self.index.snap(point, snap_tolerance(window.view.camera))
            self._view(ruler=Ruler(ruler.start, snapped))
        window.setup.placing.drag(point)
        window.adjust.pointer.drag(point)
        window.play.drag(point)
        hovered = None if self.over_widget(pos) else self.index.unit_at(point)
        if hovered != window.view.hovered:
            self._view(hovered=hovered)
            window.play.hover(hovered)
        self.hover.update(pos)

    def _wheel(self, event: pygame.event.Event) -> None:
        window = self.window
        notches = event.y
        if not notches:
            return
        under = self.index.unit_at(window.world(self.mouse))
        if window.view.mode == "setup" and window.setup.placing.wheel(notches, under):
            return
        if window.view.mode == "adjust" and window.adjust.pointer.wheel(notches, under):
            return
        self._view(camera=window.view.camera.zoomed(ZOOM_STEP**notches, self.mouse))

    def _finish_ruler(self, ruler: Ruler) -> None:
        self._view(ruler=ruler)
        self.window.set_status(
            f'ruler: {ruler.length:.2f}" from ({ruler.start[0]:.2f}, {ruler.start[1]:.2f}) '
            f"to ({ruler.end[0]:.2f}, {ruler.end[1]:.2f})"  # type: ignore[index]
        )
