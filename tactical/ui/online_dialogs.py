"""The windows of online play: Host…, Join…, the invitation to copy, and an undo request.

- `HostDialog`: the side this window plays (or nobody: serve the game and watch it), the
  side the computer plays and at which level, the port, and whether machines other than
  this one may join. Its answer is a `HostChoice`.
- `JoinDialog`: the address (HOST:PORT), the seat's token, or "watch only". Its answer is
  a `JoinChoice`; a refusal (`UserError`) is shown in it, in words.
- `InviteWindow`: what the host gives the other players, a line per seat to type
  ("tactical join ADDRESS --token T") and the watchers' line, each read-only but
  selectable, with a Copy button that puts it on the clipboard. The tokens are shown here
  only: whoever has a seat's token plays that side.
- `UndoQuestion`: "<side> asks to undo the last decision", Accept or Decline.

None of them talks to the network: the play screen's online part (`online_play`) does.
Nothing here names a rule system.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UICheckBox,
    UIDropDownMenu,
    UILabel,
    UITextBox,
    UITextEntryLine,
    UIWindow,
)

from tactical.errors import UserError
from tactical.present.players import LEVELS
from tactical.ui.widgets import ButtonQuestion

DEFAULT_PORT = 8765
NOBODY_PLAYS = "nobody: serve and watch"
NO_COMPUTER = "nobody"
WATCHERS_BOTH = "watchers: both sides"  # what watchers see where anything is hidden
DEFAULT_LEVEL = "greedy"
HOST_SIZE = (470, 330)
JOIN_SIZE = (470, 270)
INVITE_WIDTH = 700
UNDO_SIZE = (420, 150)
ROW = 28
PROBLEM = "#ff8080"  # a refusal in the dialog: the play screen's red
HOST_HINT = (
    "Once the server is up, each player elsewhere gets a line to type, with the token of "
    "their seat: whoever has it plays that side. Anyone may watch."
)
JOIN_HINT = "Type what the host's window shows: the address and the token of your seat."


@dataclass(frozen=True)
class HostChoice:
    """What the host chose: the side played here (None: nobody), the computer's sides
    with their levels, the port (0: any free one), whether other machines may join, and
    the side whose view watchers see where the rules hide something (None: both sides')."""

    side: str | None
    computer: Mapping[str, str]
    port: int
    public: bool
    watchers: str | None = None


@dataclass(frozen=True)
class JoinChoice:
    """Where to join and with which seat's token (None: to watch)."""

    address: str
    token: str | None
    watch: bool


def _centred(size: tuple[int, int], screen: tuple[int, int]) -> pygame.Rect:
    rect = pygame.Rect(0, 0, min(size[0], screen[0] - 20), min(size[1], screen[1] - 20))
    rect.center = (screen[0] // 2, screen[1] // 2)
    return rect


def _problem_html(text: str) -> str:
    return f"<font color='{PROBLEM}'>{escape(text)}</font>" if text else ""


def parse_port(text: str) -> int:
    """The port typed in the Host window: a whole number 0 to 65535 (0: any free port)."""
    words = text.strip()
    if not words.isdigit() or int(words) > 65535:
        raise UserError(
            f"port: a whole number from 1 to 65535 (0 takes any free one), not {words!r}"
        )
    return int(words)


class _Dialog(ABC):
    """A window with a line for what went wrong and its two buttons."""

    window: UIWindow
    problem: UITextBox
    ok: UIButton
    cancel: UIButton

    @property
    def alive(self) -> bool:
        return self.window.alive()

    def widgets(self) -> list:
        return [self.window] if self.alive else []

    def show_problem(self, text: str) -> None:
        """What went wrong, in red in the window; the buttons work again."""
        self.problem.set_text(_problem_html(text))
        self._buttons(True)

    def working(self, text: str) -> None:
        """Under way (the server starting, the game arriving): said, the buttons off."""
        self.problem.set_text(escape(text))
        self._buttons(False)

    def _buttons(self, enabled: bool) -> None:
        for button in (self.ok, self.cancel):
            if enabled:
                button.enable()
            else:
                button.disable()

    def closed(self, event: pygame.event.Event) -> bool:
        """Cancel pressed, or the window's own close button."""
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            return True
        return event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.cancel

    def close(self) -> None:
        if self.alive:
            self.window.kill()

    @abstractmethod
    def choice(self) -> HostChoice | JoinChoice:
        """The values typed, checked: UserError saying what is missing."""

    def chosen(self, event: pygame.event.Event) -> bool:
        """Whether `event` asks for the dialog's choice (its button, by default)."""
        return event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.ok

    def command(self, event: pygame.event.Event) -> HostChoice | JoinChoice | str | None:
        """The choice when asked for with good values (a bad one is said in the window),
        "cancel" when closed, else None."""
        if not self.alive:
            return None
        if self.closed(event):
            self.close()
            return "cancel"
        if self.chosen(event):
            try:
                return self.choice()
            except UserError as error:
                self.show_problem(error.describe())
        return None


class HostDialog(_Dialog):
    """Host…: serve this game to players elsewhere (see the module docstring)."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        screen: tuple[int, int],
        sides: Sequence[str],
        side_to_act: str,
    ) -> None:
        self.sides = tuple(sides)
        self.window = UIWindow(
            _centred(HOST_SIZE, screen), manager, "Host this game online", resizable=False
        )
        w, m = self.window, manager
        UILabel(pygame.Rect(8, 8, 150, ROW), "You play", m, container=w)
        start = side_to_act if side_to_act in self.sides else self.sides[0]
        self.side = UIDropDownMenu(
            [*self.sides, NOBODY_PLAYS], start, pygame.Rect(160, 8, 270, ROW), m, container=w
        )
        UILabel(pygame.Rect(8, 44, 150, ROW), "The computer plays", m, container=w)
        self.computer = UIDropDownMenu(
            [NO_COMPUTER, *self.sides], NO_COMPUTER, pygame.Rect(160, 44, 150, ROW), m,
            container=w,
        )  # fmt: skip
        self.level = UIDropDownMenu(
            list(LEVELS), DEFAULT_LEVEL, pygame.Rect(316, 44, 114, ROW), m, container=w
        )
        UILabel(pygame.Rect(8, 80, 150, ROW), "Port", m, container=w)
        self.port = UITextEntryLine(
            pygame.Rect(160, 80, 90, ROW), m, container=w, initial_text=str(DEFAULT_PORT)
        )
        self.port.set_tooltip("0 takes any free port")
        self.watchers = UIDropDownMenu(
            [WATCHERS_BOTH, *(f"watchers: {side}" for side in self.sides)],
            WATCHERS_BOTH,
            pygame.Rect(256, 80, 174, ROW),
            m,
            container=w,
        )
        self.watchers.set_tooltip(
            "where the rules hide something (a cloaked ship), what people watching the game "
            "see: both sides' view, or one side's"
        )
        self.public = UICheckBox(
            pygame.Rect(160, 118, 20, 20),
            "let other machines join",
            m,
            container=w,
            tool_tip_text="off: only this machine can join; on: every machine that can "
            "reach this one (mind your firewall)",
        )
        self.problem = UITextBox(escape(HOST_HINT), pygame.Rect(8, 148, 422, 84), m, container=w)
        self.ok = UIButton(pygame.Rect(204, 240, 110, 30), "Host", m, container=w)
        self.cancel = UIButton(pygame.Rect(320, 240, 110, 30), "Cancel", m, container=w)

    def choice(self) -> HostChoice:
        """The values chosen, checked: UserError saying which one is wrong."""
        picked = self.side.selected_option[0]
        side = None if picked == NOBODY_PLAYS else picked
        computer: dict[str, str] = {}
        who = self.computer.selected_option[0]
        if who != NO_COMPUTER:
            if who == side:
                raise UserError(f"the computer cannot play {who}: you play it")
            computer[who] = self.level.selected_option[0]
        seen = self.watchers.selected_option[0]
        watchers = None if seen == WATCHERS_BOTH else seen.removeprefix("watchers: ")
        port = parse_port(self.port.get_text())
        return HostChoice(side, computer, port, self.public.is_checked, watchers)


class JoinDialog(_Dialog):
    """Join…: the address and the seat's token the host gave you (see the module)."""

    def __init__(self, manager: pygame_gui.UIManager, screen: tuple[int, int]) -> None:
        self.window = UIWindow(
            _centred(JOIN_SIZE, screen), manager, "Join a game online", resizable=False
        )
        w, m = self.window, manager
        UILabel(pygame.Rect(8, 8, 110, ROW), "Address", m, container=w)
        self.address = UITextEntryLine(
            pygame.Rect(120, 8, 310, ROW), m, container=w, placeholder_text="HOST:PORT"
        )
        UILabel(pygame.Rect(8, 44, 110, ROW), "Token", m, container=w)
        self.token = UITextEntryLine(
            pygame.Rect(120, 44, 310, ROW), m, container=w,
            placeholder_text="your seat's token (from the host)",
        )  # fmt: skip
        self.watch = UICheckBox(
            pygame.Rect(120, 82, 20, 20),
            "watch only (no token needed)",
            m,
            container=w,
        )
        self.problem = UITextBox(escape(JOIN_HINT), pygame.Rect(8, 110, 422, 76), m, container=w)
        self.ok = UIButton(pygame.Rect(204, 192, 110, 30), "Join", m, container=w)
        self.cancel = UIButton(pygame.Rect(320, 192, 110, 30), "Cancel", m, container=w)

    def choice(self) -> JoinChoice:
        """The values typed, checked: UserError saying what is missing."""
        address = self.address.get_text().strip()
        if not address:
            raise UserError("address: the host's HOST:PORT (the host's window shows it)")
        watch = bool(self.watch.is_checked)
        token = self.token.get_text().strip() or None
        if token is None and not watch:
            raise UserError("token: the one the host gave you for your side, or tick watch only")
        return JoinChoice(address, None if watch else token, watch)

    def chosen(self, event: pygame.event.Event) -> bool:
        """Join pressed, or Enter in the address or the token (not while joining)."""
        entered = event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element in (
            self.address,
            self.token,
        )
        return (super().chosen(event) or entered) and self.ok.is_enabled


class ReadOnlyLine(UITextEntryLine):
    """A line of text to select and copy (Ctrl+C) but not to change: an edit is undone."""

    def __init__(self, *args, text: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fixed = text
        self.set_text(text)

    def process_event(self, event: pygame.event.Event) -> bool:
        consumed = super().process_event(event)
        if self.get_text() != self.fixed:
            self.set_text(self.fixed)
        return consumed


def copy_to_clipboard(text: str) -> bool:
    """Put `text` on the system's clipboard (pygame.scrap); False where there is none."""
    try:
        pygame.scrap.put_text(text)
    except (pygame.error, AttributeError, NotImplementedError):
        return False
    return True


class InviteWindow:
    """The lines the other players type to join, to select or copy (see the module)."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        screen: tuple[int, int],
        heading: Sequence[str],
        lines: Mapping[str, str],
        watch_line: str,
    ) -> None:
        rows = [*lines.items(), ("to watch", watch_line)]
        height = 80 + 20 * len(heading) + 36 * len(rows)
        rect = _centred((INVITE_WIDTH, height), screen)
        self.window = UIWindow(rect, manager, "Give the other players their line", resizable=False)
        w, m = self.window, manager
        inner = rect.width - 32
        text = "<br>".join(escape(line) for line in heading)
        self.heading = UITextBox(text, pygame.Rect(8, 4, inner, 20 * len(heading) + 18), m,
                                 container=w)  # fmt: skip
        top = 20 * len(heading) + 28
        self.lines: dict[str, ReadOnlyLine] = {}
        self.copy: dict[str, UIButton] = {}
        for who, line in rows:
            UILabel(pygame.Rect(8, top, 96, ROW), who, m, container=w)
            self.lines[who] = ReadOnlyLine(
                pygame.Rect(108, top, inner - 108 - 74, ROW), m, container=w, text=line
            )
            self.copy[who] = UIButton(
                pygame.Rect(inner - 66, top, 66, ROW), "Copy", m, container=w,
                tool_tip_text=f"put the line for {who} on the clipboard",
            )  # fmt: skip
            top += 36

    @property
    def alive(self) -> bool:
        return self.window.alive()

    def widgets(self) -> list:
        return [self.window] if self.alive else []

    def command(self, event: pygame.event.Event) -> tuple[str, str] | None:
        """("copy", who) for a Copy pressed; ("closed", "") once the window is closed."""
        if not self.alive:
            return None
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            return ("closed", "")
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        for who, button in self.copy.items():
            if event.ui_element is button:
                return ("copy", who)
        return None

    def text_of(self, who: str) -> str:
        return self.lines[who].fixed

    def close(self) -> None:
        if self.alive:
            self.window.kill()


ACCEPT, DECLINE = "accept", "decline"


class UndoQuestion(ButtonQuestion):
    """The other player's request, "<side> asks to undo the last decision": Accept or
    Decline (`command`: the answer; the window's own close button declines)."""

    def __init__(self, manager: pygame_gui.UIManager, screen: tuple[int, int], side: str) -> None:
        self.side = side
        self.question = f"{side} asks to undo the last decision"
        window = UIWindow(_centred(UNDO_SIZE, screen), manager, "Undo?", resizable=False)
        w, m = window, manager
        inner = UNDO_SIZE[0] - 32
        self.text = UITextBox(escape(self.question), pygame.Rect(8, 8, inner, 44), m,
                              container=w)  # fmt: skip
        buttons = {
            ACCEPT: UIButton(pygame.Rect(inner - 228, 60, 110, 30), "Accept", m, container=w),
            DECLINE: UIButton(pygame.Rect(inner - 110, 60, 110, 30), "Decline", m, container=w),
        }
        super().__init__(window, buttons, DECLINE)


__all__ = [
    "ACCEPT",
    "DECLINE",
    "HostChoice",
    "HostDialog",
    "InviteWindow",
    "JoinChoice",
    "JoinDialog",
    "ReadOnlyLine",
    "UndoQuestion",
    "copy_to_clipboard",
    "parse_port",
]
