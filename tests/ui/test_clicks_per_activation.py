"""Every click a decision: a scripted Dystopian Wars game through the play screen's input.

Three turns of the built-in scenario are played hot-seat, with synthetic clicks and keys
only, as an efficient person would: the stand-in player (`tactical.session.autoplay`)
says which action comes next, the script makes it on the screen (a click on its row, a
click on a target that is not the one offered first, a drag of the base for a move, Enter
to roll, N to pass) and counts every mouse press and key press. Steps the game takes by
itself (a side that can only pass, a step that is the only thing a side can do) cost
nothing, and each is in the log with its reason.
"""

from __future__ import annotations

import math

import pygame
from ui_events import move, press_button, screen, settle
from ui_play_driver import DriverError, choice_for, draw_path, pick_row, set_field

from tactical.geometry.movement import StepKind, parse_path
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.ui.app import App

SEED = 11
TURNS = 3
ACTIVATE = "activate"


class Counted:
    """The player's presses: every mouse button and every key pressed on the app."""

    def __init__(self, app) -> None:
        self.app = app
        self.presses = 0
        handle = app.handle

        def counting(event: pygame.event.Event) -> None:
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
                self.presses += 1
            handle(event)

        app.handle = counting


def _key(app, code: int, mod: int = 0) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="", scancode=0))
    app.handle(pygame.event.Event(pygame.KEYUP, key=code, mod=mod, unicode="", scancode=0))
    settle(app, 1)


def _aim(app, unit, inches: float) -> tuple[int, int]:
    """The pixel nearest the point `inches` straight ahead of the unit whose distance along
    its heading is nearest `inches` (as a player lets go where the card reads the move)."""
    radians = math.radians(unit.pose.heading)
    ahead = (math.sin(radians), math.cos(radians))
    px, py = screen(app, unit.x + inches * ahead[0], unit.y + inches * ahead[1])
    camera = app.view.camera

    def error(pixel):
        x, y = camera.to_world(*pixel)
        return abs((x - unit.x) * ahead[0] + (y - unit.y) * ahead[1] - inches)

    return min(((px + dx, py + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)), key=error)


def _drag_ahead(app, inches: float) -> None:
    """Drag the mover's base straight ahead by `inches` (one press), then set the last
    tenth with Shift+W / Shift+S where the pixels fell short or long."""
    tool = app.play.move_tool
    unit = tool.unit
    start = screen(app, unit.x, unit.y)
    end = _aim(app, unit, inches)
    move(app, start)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for i in range(1, 5):
        pos = (
            round(start[0] + (end[0] - start[0]) * i / 4),
            round(start[1] + (end[1] - start[1]) * i / 4),
        )
        move(app, pos, buttons=(1, 0, 0))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    settle(app, 1)
    for _ in range(20):
        drawn = app.play.move_tool.draft.last
        length = drawn.amount if drawn is not None else 0.0
        if abs(length - inches) < 1e-6:
            return
        _key(app, pygame.K_w if length < inches else pygame.K_s, pygame.KMOD_SHIFT)
    raise DriverError(f"the drag drew {app.play.move_tool.draft.path!r}, not F{inches:g}")


def _draw(app, path: str) -> None:
    steps = parse_path(path)
    if len(steps) == 1 and steps[0].kind is StepKind.FORWARD:
        _drag_ahead(app, steps[0].amount)
    else:
        draw_path(app, path)


def make(app, action) -> None:
    """The action on the screen: its row, the fields not already right, the roll."""
    choice = choice_for(app, action)
    panel = app.play.actions
    if panel.picked != choice:
        pick_row(app, choice)
    moving = app.play.can_draw(choice)
    for spec in choice.fields:
        if spec.name not in action.params or (moving and spec.name == "path"):
            continue
        wanted = action.params[spec.name]
        if panel.values.get(spec.name) != wanted:
            set_field(app, spec.name, wanted)
    if moving:
        _draw(app, action.params["path"])
    _key(app, pygame.K_RETURN)


def play_counted(app, turns: int = TURNS, limit: int = 3000) -> tuple[int, int, int]:
    """The stand-in's game made on the screen for `turns` turns: (presses, the player's
    decisions, activations)."""
    counter = Counted(app)
    for _ in range(limit):
        game = app.play.game
        if game.turn > turns or game.over:
            break
        expected = autoplay.next_game(game).last_step
        if expected.is_pass:
            _key(app, pygame.K_n)
            if app.play.warning is not None:  # a pass that throws an attack away asks first
                press_button(app, app.play.warning.buttons["pass"])
        else:
            make(app, expected.action)
        after = app.play.game
        if len(after.steps) <= len(game.steps):
            raise DriverError(f"{expected.action} was not made: {app.view.status!r}")
        if after.steps[len(game.steps)].action != expected.action:
            raise DriverError(f"the screen made {after.steps[len(game.steps)].action}")
    else:
        raise DriverError(f"turn {turns} did not end in {limit} steps")
    steps = [s for s in app.play.game.steps if s.before.turn <= turns]
    activations = sum(1 for s in steps if s.action.kind == ACTIVATE)
    decisions = sum(1 for s in steps if not s.forced)
    # every step taken for the player is in the log, with its reason
    taken = [s for s in app.play.game.steps if s.forced]
    lines = app.play.session.log_text().splitlines()
    marked = [line for line in lines if " — taken by the game: " in line]
    assert len(taken) > len(steps) // 3 and len(marked) == len(taken)
    assert all(line.startswith(f"#{s.number} ") and line.endswith(s.forced)
               for line, s in zip(marked, taken, strict=True))  # fmt: skip
    return counter.presses, decisions, activations


def test_a_squadron_activation_takes_six_decisions_or_fewer_on_average():
    state = load_map(builtin_map("dystopian-wars"))
    app = App(state, (1280, 800), headless=True, session=Session.new(state, SEED))
    presses, decisions, activations = play_counted(app)
    app.play.close()
    print(
        f"activations {activations}: decisions {decisions} ({decisions / activations:.2f} "
        f"each), presses {presses} ({presses / activations:.2f} each)"
    )
    assert activations >= 6
    assert decisions / activations <= 6.0  # 13.5 when every step was the player's
    assert presses / activations <= 12.0  # 24.8 before
