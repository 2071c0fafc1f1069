"""Solo play on the play screen: computer players for some sides.

- `parse_seats("B:search")`: the `--ai` option, a side and optionally a level.
- `SeatBar`: a Human / AI-level menu per side at the top of the play column, changeable
  at any time; the pace of the AI's go (a pause after each of its actions, none, or
  Space to step) is changed with P.
- `AiDriver`: when a side played by the computer is to act, the decision is computed off
  the frame loop, in a spawned child process (`ProcessWorker`: frames never wait for the
  interpreter lock; closing the screen terminates it), then applied through the play
  screen like a player's declaration. Each action's one-line "why" (the expected effect
  or the positional gain it chose by) is shown in the log under the action's line and on
  the status line. A decision for a game that has changed meanwhile (an undo, a player's
  action, a menu changed) is dropped.
- Undo in solo play goes back to the human's last decision: the play screen hands the
  computer's sides (`seats`) to `Session.undo_decision`.
- `end_banner`: the result, the score and why, drawn over the table once the game is over.
- `AiDriver.hold`: what the action panel says instead of its choices while the computer
  has the go (its level, what it is at) or the game is over, and what the human may do.

Nothing here names a rule system.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import replace
from multiprocessing.connection import wait
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIDropDownMenu, UIPanel

from tactical.errors import UserError
from tactical.present.players import LEVELS, decide_elsewhere
from tactical.processes import child_pool, manager_of, manager_stopped
from tactical.rules.base import Action
from tactical.rules.ending import Outcome
from tactical.session.game import Game, Step
from tactical.ui.fonts import Fonts
from tactical.ui.handover import played
from tactical.ui.play_panels import TrackerView
from tactical.ui.services import PANEL_WIDTH, TOP_BAR
from tactical.ui.widgets import set_shown

HUMAN = "human"
DEFAULT_LEVEL = "greedy"
SEAT_LABELS = {HUMAN: "Human", **{level: level for level in LEVELS}}  # on the side menus
PLAYED_BY = {HUMAN: "a human", **{level: f"AI: {level}" for level in LEVELS}}
PACES = {"Pause 0.6 s": 0.6, "Pause 2 s": 2.0, "No pause": 0.0, "Space steps": None}
DEFAULT_PACE = "Pause 0.6 s"
SEARCH_SECONDS = 1.0  # the search level's time per decision on screen
CLOSE_WAIT = 2.0  # seconds closing waits at most for the killed decision child to go
ROW_HEIGHT = 26
BAR_HEIGHT = SEAT_BAR_HEIGHT = ROW_HEIGHT + 6  # one row of side menus
BANNER_BACK = (20, 24, 30)
BANNER_TEXT = (250, 236, 160)


def parse_seats(text: str | None, sides: Sequence[str]) -> dict[str, str]:
    """`--ai B`, `--ai B:search`, `--ai A:random,B`: the sides the computer plays and how.

    UserError naming the sides (or the levels) for a side or level that does not exist."""
    seats: dict[str, str] = {}
    if not text:
        return seats
    for part in text.split(","):
        side, _, level = part.strip().partition(":")
        level = level.strip() or DEFAULT_LEVEL
        if side not in sides:
            raise UserError(
                f"--ai {text}: no side {side!r} in this game; its sides are {', '.join(sides)}"
            )
        if level not in LEVELS:
            raise UserError(f"--ai {text}: unknown level {level!r}: one of {', '.join(LEVELS)}")
        seats[side] = level
    return seats


# --------------------------------------------------------------------------- the worker


class ProcessWorker:
    """Decisions computed in a spawned child process (pygame is never forked) that ends
    with this one, however it ends (`tactical.processes`)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._children: dict[int, Any] = {}  # every child the pool started, by pid

    def submit(self, game: Game, level: str, seed: int, options: Mapping[str, Any]) -> Future:
        with self._lock:
            if self._pool is None:
                self._pool = child_pool()  # it ends with this process, even a killed one
            pool = self._pool
        # the game without its caches: only what the decision depends on crosses over
        light = Game(game.initial, game.seed, game.state, game.position, game.sides, game.steps)
        future = pool.submit(decide_elsewhere, light, level, seed, dict(options))
        # kept here: the pool forgets a child it has let go, but closing must still stop it
        self._children.update(getattr(pool, "_processes", None) or {})
        return future

    def close(self) -> None:
        """Stop the child at once, a decision under way with it."""
        with self._lock:
            pool, self._pool = self._pool, None
        manager = None
        if pool is not None:
            self._children.update(getattr(pool, "_processes", None) or {})
            manager = manager_of(pool)
            pool.shutdown(wait=False, cancel_futures=True)
        children, self._children = list(self._children.values()), {}
        for child in children:
            child.kill()  # SIGKILL: a SIGTERM was seen to leave a child running
        # gone once its sentinel is ready (a killed child goes at once). Not `is_alive`:
        # the pool's thread reaps the child as well, and `Popen.poll` can then take the
        # lost race for "still running" (cpython gh-130895)
        if children:  # `wait` on no sentinel at all would sleep out the whole timeout
            wait([child.sentinel for child in children], timeout=CLOSE_WAIT)
        manager_stopped(manager, CLOSE_WAIT)


class InlineWorker:
    """Decisions computed at once in this process (tests; a script without a window)."""

    def submit(self, game: Game, level: str, seed: int, options: Mapping[str, Any]) -> Future:
        future: Future = Future()
        try:
            future.set_result(decide_elsewhere(game, level, seed, options))
        except Exception as error:  # handed to the driver, which shows it
            future.set_exception(error)
        return future

    def close(self) -> None:
        return None


# --------------------------------------------------------------------------- the seat bar


class SeatBar:
    """A Human / AI menu per side and the pace of the AI's go, over the top of the table."""

    def __init__(self, manager: pygame_gui.UIManager, sides: Sequence[str]) -> None:
        self.manager = manager
        self.sides = tuple(sides)
        self.panel = UIPanel(pygame.Rect(0, 0, PANEL_WIDTH, BAR_HEIGHT), manager=manager)
        self.menus: dict[str, UIDropDownMenu] = {}
        self.rects: dict[str, pygame.Rect] = {}
        count = max(1, len(self.sides))
        width = (PANEL_WIDTH - 8 - 4 * (count - 1)) // count
        for index, side in enumerate(self.sides):
            rect = self.rects[side] = pygame.Rect(4 + index * (width + 4), 3, width, ROW_HEIGHT)
            self.menus[side] = self._seat_menu(side, HUMAN, rect)

    def _seat_menu(self, side: str, seat: str, rect: pygame.Rect) -> UIDropDownMenu:
        return UIDropDownMenu(
            [f"{side}: {label}" for label in SEAT_LABELS.values()],
            f"{side}: {SEAT_LABELS[seat]}",
            rect,
            self.manager,
            container=self.panel,
        )

    def layout(self, size: tuple[int, int]) -> None:
        """At the top of the play column, over the phase tracker."""
        self.panel.set_relative_position((size[0] - PANEL_WIDTH - 4, TOP_BAR + 4))

    def show(self, visible: bool) -> None:
        set_shown(self.panel, visible)

    def set_seat(self, side: str, seat: str) -> None:
        """Show `seat` on the side's menu (a menu keeps its own selection once changed)."""
        menu = self.menus.get(side)
        if menu is None:
            return
        menu.kill()
        self.menus[side] = self._seat_menu(side, seat, self.rects[side])

    def command(self, event: pygame.event.Event) -> tuple[str, str] | None:
        """("seat", side:seat) for a change of one of our menus."""
        if event.type != pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            return None
        for side, menu in self.menus.items():
            if event.ui_element is menu:
                label = event.text.split(": ", 1)[1]
                seat = next(key for key, text in SEAT_LABELS.items() if text == label)
                return ("seat", f"{side}:{seat}")
        return None

    def kill(self) -> None:
        self.panel.kill()


# --------------------------------------------------------------------------- the driver


class AiDriver:
    """Plays the computer's sides of a play screen (see the module docstring).

    `screen` is the play screen (its `session`, `game`, `do`, `replaying`, `services`);
    `worker` computes the decisions (a `ProcessWorker` unless given); `clock` gives seconds.
    """

    def __init__(
        self,
        screen: Any,
        worker: ProcessWorker | InlineWorker | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.screen = screen
        self.worker = worker or ProcessWorker()
        self.clock = clock
        self.seats: dict[str, str] = {}
        self.pace: float | None = PACES[DEFAULT_PACE]
        self.search = {"seconds": SEARCH_SECONDS}
        self.bar: SeatBar | None = None
        self.whys: dict[int, tuple[Action, str]] = {}
        self._future: Future | None = None
        self._asked_for: tuple[Game, str, str] | None = None
        self._ready_at = 0.0
        self._step_allowed = False
        self._shown_end: Outcome | None = None

    @classmethod
    def of_screen(cls, screen: Any, sides: Sequence[str]) -> AiDriver:
        """The driver of a play screen, its seat bar built; the worker stops with the screen
        (one dropped without `close`, a test's, included)."""
        driver = cls(screen)
        weakref.finalize(screen, driver.worker.close)
        driver.attach(screen.services.manager, sides)
        return driver

    # ------------------------------------------------------------------ seats

    def attach(self, manager: pygame_gui.UIManager, sides: Sequence[str]) -> None:
        """The seat bar for these sides (a new game: the seats start as they were)."""
        self.whys.clear()
        if self.bar is not None:
            self.bar.kill()
        self.bar = SeatBar(manager, sides)
        self.bar.layout(self.screen.services.size)
        for side, seat in self.seats.items():
            self.bar.set_seat(side, seat)

    def layout(self, size: tuple[int, int]) -> int:
        """The seat bar placed; the y where the panels under it start."""
        if self.bar is not None:
            self.bar.layout(size)
        return TOP_BAR + 4 + SEAT_BAR_HEIGHT

    def widgets(self) -> list:
        return [self.bar.panel] if self.bar is not None else []

    def set_seats(self, seats: Mapping[str, str]) -> None:
        for side, seat in seats.items():
            self.set_seat(side, seat)

    def set_seat(self, side: str, seat: str) -> None:
        if seat == HUMAN:
            self.seats.pop(side, None)
        else:
            self.seats[side] = seat
        if self.bar is not None:
            self.bar.set_seat(side, seat)
        self._drop()

    def seat(self, side: str) -> str:
        return self.seats.get(side, HUMAN)

    def is_ai(self, side: str) -> bool:
        return side in self.seats

    def set_pace(self, name: str) -> None:
        self.pace = PACES.get(name, self.pace)

    # ------------------------------------------------------------------ events

    def handle_ui_event(self, event: pygame.event.Event) -> bool:
        if self.bar is None:
            return False
        command = self.bar.command(event)
        if command is None:
            return False
        side, seat = command[1].split(":", 1)
        self.set_seat(side, seat)
        who = "a human" if seat == HUMAN else f"the computer ({seat})"
        # "Side: played by …" reads right for a plural side's name too ("Cylons")
        self.screen.services.set_status(f"{side}: played by {who}")
        return True

    def key(self, event: pygame.event.Event) -> bool:
        """Space: the computer's next action now (it waits for it in the Space pace);
        P: the next pace (a pause after each action of 0.6 s, 2 s, none, Space steps)."""
        if event.key == pygame.K_p:
            names = list(PACES)
            current = next((n for n in names if PACES[n] == self.pace), names[0])
            following = names[(names.index(current) + 1) % len(names)]
            self.set_pace(following)
            self.screen.services.set_status(f"computer players' pace: {following}")
            return True
        if event.key != pygame.K_SPACE or not self.seats:
            return False
        self._step_allowed = True
        self._ready_at = 0.0
        return True

    # ------------------------------------------------------------------ the loop

    @property
    def thinking(self) -> bool:
        return self._future is not None

    def update(self) -> None:
        """Once a frame: start a decision when the computer is to act, apply one that is in."""
        screen = self.screen
        if screen.replaying:
            self._drop()
            return
        game: Game = played(screen.session).game  # the true game
        if self.bar is not None and self.bar.sides != game.sides:  # another game opened
            self.attach(screen.services.manager, game.sides)
        outcome = game.outcome
        if outcome is not None:
            self._drop()
            if outcome is not self._shown_end:
                self._shown_end = outcome
                screen.services.set_status(f"game over: {outcome.headline()}")
            return
        self._shown_end = None
        if self._future is not None:
            if self._asked_for is None or self._asked_for[0] is not game:
                self._drop()
            elif self._future.done():
                self._apply(game)
            return
        side = game.side_to_act
        if not self.is_ai(side):
            return
        if self.pace is None and not self._step_allowed:
            return
        if self.clock() < self._ready_at:
            return
        self._step_allowed = False
        level = self.seats[side]
        seed = game.seed * 31 + game.sides.index(side)
        options = self.search if level == "search" else {}
        self._asked_for = (game, side, level)
        self._future = self.worker.submit(game, level, seed, options)
        screen.services.set_status(f"{side} ({PLAYED_BY[level]}) is thinking…")

    def _apply(self, game: Game) -> None:
        future, asked = self._future, self._asked_for
        self._future = self._asked_for = None
        assert future is not None and asked is not None
        _, side, level = asked
        try:
            action, why = future.result()
        except Exception as error:
            self.screen.services.set_status(f"the computer could not decide: {error}")
            self.set_seat(side, HUMAN)
            return
        number = game.step_number + 1
        self.whys[number] = (action, why)
        step: Step | None = self.screen.do(action)
        if step is None:  # refused: never expected, and the side is handed back
            self.whys.pop(number, None)
            self.set_seat(side, HUMAN)
            return
        self._ready_at = self.clock() + (self.pace or 0.0)
        self.screen.services.set_status(f"{side} ({PLAYED_BY[level]}): {why}")

    def _drop(self) -> None:
        """Forget a decision under way (the game it was for has changed)."""
        self._future = None
        self._asked_for = None

    def hold(self, game: Game) -> tuple[str, ...]:
        """The action panel's lines while nobody at the mouse may declare, () while a human
        has the go: the first says why and stays while the computer's go lasts (the tracker
        shows it on Next), the next what the computer is at, the last what the human may do."""
        if game.outcome is not None:
            return (f"Game over: {game.outcome.headline()}", "Undo goes back before the end.")
        side = game.side_to_act
        level = self.seats.get(side)
        if level is None:
            return ()
        if self._future is not None:
            doing = "It is thinking…"
        elif self.pace is None and not self._step_allowed:
            doing = "It waits for Space to act (P changes the pace)."
        else:
            doing = "It acts on its own; Space hurries it, P changes the pace."
        undo = "Undo goes back to the last human decision."
        menu = f"Set the {side} menu above to Human to play it yourself."
        return (f"{side}: played by the computer ({level})", doing, f"{undo} {menu}")

    # ------------------------------------------------------------------ the log, undo, end

    def annotate(self, lines: Sequence[str], limit: int) -> tuple[str, ...]:
        """The log's lines with the computer's why under each of its actions."""
        game: Game = self.screen.session.game  # as shown: no why under a hidden step
        found: list[str] = []
        for line in lines:
            found.append(line)
            head = line.split(" ", 1)[0]
            if not head.startswith("#") or not head[1:].isdigit():
                continue
            number = int(head[1:])
            kept = self.whys.get(number)
            if kept is None or number > game.step_number:
                continue
            step = game.steps[number - 1]
            action, why = kept
            if step.action == action and line.startswith(f"#{number} {step.side}: "):
                found.append(f"#{number}   why: {why}")
        return tuple(found[-limit:]) if limit > 0 else tuple(found)

    def marked(self, view: TrackerView) -> TrackerView:
        """The tracker's view of the game played, saying when the side to act is the
        computer's and at which level."""
        return replace(view, computer=self.seats.get(view.side_to_act, ""))

    def draw(self, surface: pygame.Surface) -> None:
        """The end banner over the table once the game is over (not during a replay)."""
        outcome = self.screen.session.outcome
        if outcome is not None and not self.screen.replaying:
            end_banner(surface, outcome, self.screen.services.renderer.fonts)

    def close(self) -> None:
        self._drop()
        self.worker.close()
        if self.bar is not None:
            self.bar.kill()
            self.bar = None


def end_banner(surface: pygame.Surface, outcome: Outcome, fonts: Fonts) -> None:
    """The result, the score and why, in a band over the top of the table."""
    text = f"Game over · {outcome.headline()}"
    image = fonts.render(text, 16, BANNER_TEXT)
    width = min(surface.get_width() - 16, image.get_width() + 24)
    band = pygame.Rect(8, TOP_BAR + 12, width, image.get_height() + 12)
    pygame.draw.rect(surface, BANNER_BACK, band, border_radius=6)
    pygame.draw.rect(surface, BANNER_TEXT, band, 1, border_radius=6)
    surface.blit(image, (band.x + 12, band.y + 6))
