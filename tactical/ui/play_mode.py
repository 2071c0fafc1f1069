"""The game side of the play screen (issue 6): turn, choices, moves, odds, rolls, log, files.

`PlayScreen` is the part of the `App` that plays: it holds the `Session` (the
one object that knows the game), the phase tracker, the action panel, the log
panel, the move tool and the odds board, and turns their commands and the
table's clicks into session calls. Everything shown comes from what the rule
system publishes through the session (phases, `ActionChoice` fields, odds
reports, steps with their events and rolls); nothing here names a rule system.
"""

from __future__ import annotations

import os
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.rules.base import Action, ActionChoice
from tactical.rules.measuring import TableGeometry
from tactical.session.controller import Session
from tactical.session.game import Step
from tactical.session.log import tail_lines
from tactical.session.movement import turning_rules_for
from tactical.session.replay import Replay
from tactical.ui import palette
from tactical.ui.action_panel import ActionPanel, is_move_choice, unit_fields
from tactical.ui.move_preview import draw_end_view, draw_handles, draw_move_preview, move_card
from tactical.ui.move_tool import MoveTool
from tactical.ui.odds_view import OddsBoard, ProcessOdds, odds_chart, odds_lines
from tactical.ui.play_panels import LogPanel, PhaseTracker, ReplayView, TrackerView
from tactical.ui.selection import SelectionView, selection_view

if TYPE_CHECKING:
    from tactical.ui.app import App

PANEL_WIDTH = 320  # the play column on the right of the window
TRACKER_HEIGHT = 176
LOG_HEIGHT = 250
CHART_SIZE = (296, 170)
TARGET_RING = (255, 230, 0)
MOVE_KEYS = (
    'drag the end or W/S ±1" (Shift 0.1"), A/D turn (Shift 5°), C rotate, Backspace takes'
    " back a step; Enter or Move confirms, Esc cancels"
)
MAX_PREFETCH = 40  # targets of one declaration whose odds are computed ahead


@dataclass(frozen=True)
class ResultNote:
    """What the last roll did, for the cards of the units it touched."""

    step: int
    units: tuple[str, ...]
    lines: tuple[str, ...]


def step_result_lines(step: Step) -> tuple[str, ...]:
    """The outcome and every die of a step, as the cards and the status show them."""
    lines = [f"#{step.number} {step.title}"]
    if step.summary is not None:
        lines.append(f"result: {summary_text(step.summary)}")
    outcomes = [e for e in step.events if e.kind == "outcome"]
    for event in outcomes[-3:]:
        lines.append(event.describe())
    if step.rolls:
        dice = ", ".join(f"{roll.die}={roll.result}" for roll in step.rolls[:24])
        more = f" (+{len(step.rolls) - 24} more)" if len(step.rolls) > 24 else ""
        lines.append(f"dice: {dice}{more}")
    return tuple(lines)


def summary_text(summary: object) -> str:
    if isinstance(summary, tuple | list):
        return ", ".join(summary_text(part) for part in summary)
    if isinstance(summary, dict | FrozenMap):
        return ", ".join(f"{key}={summary_text(value)}" for key, value in summary.items())
    return str(summary)


def units_named(step: Step, unit_ids: set[str]) -> tuple[str, ...]:
    """The units a step concerned: its actor and every unit id among its parameters."""
    found = [step.action.actor] if step.action.actor in unit_ids else []
    for value in step.action.params.values():
        values = value if isinstance(value, tuple | list) else (value,)
        found.extend(v for v in values if isinstance(v, str) and v in unit_ids and v not in found)
    return tuple(found)


def free_name(stem: str, suffix: str) -> Path:
    """`stem-N.suffix` in the current folder with the first N not taken."""
    number = 1
    while (target := Path.cwd() / f"{stem}-{number}{suffix}").exists():
        number += 1
    return target


class PlayScreen:
    """The game on the play screen: the session, its panels and tools (see module docstring)."""

    def __init__(self, app: App, session: Session) -> None:
        self.app = app
        self.session = session
        self.replay: Replay | None = None
        self.move_tool: MoveTool | None = None
        self.move_choice: ActionChoice | None = None
        self.result: ResultNote | None = None
        self.game_path: Path | None = None
        self.odds = OddsBoard(ProcessOdds())
        # the worker thread holds the board, not the App: a screen dropped without close()
        # (a test's) still stops its worker when it is collected
        weakref.finalize(self, self.odds.shutdown)
        m = app.manager
        r = pygame.Rect(0, 0, PANEL_WIDTH, 100)
        self.tracker = PhaseTracker(m, r)
        self.actions = ActionPanel(m, r)
        self.log = LogPanel(m, r)
        self.actions.drawable = self.can_draw
        self._shown_odds: tuple | None = None
        self._hover_target: str | None = None
        self._move_card_for: tuple | None = None
        self._end_view: tuple[GameState, bool, SelectionView | None] | None = None
        self._moved: tuple[tuple, GameState, TableGeometry | None] | None = None
        self._choices_for: tuple | None = None
        self._log_for: tuple | None = None
        self._dragging = False
        self._synced = False
        self.layout()

    # ------------------------------------------------------------------ where play stands

    @property
    def game(self):
        return self.session.game

    @property
    def active(self) -> bool:
        return self.app.view.mode == "play"

    @property
    def replaying(self) -> bool:
        return self.replay is not None

    def widgets(self) -> list:
        return [self.tracker.panel, self.actions.panel, self.log.panel]

    def show(self, visible: bool) -> None:
        for widget in self.widgets():
            if visible:
                widget.show()
            else:
                widget.hide()

    def layout(self) -> None:
        width, height = self.app.size
        top = self.app.top_bar + 4
        bottom = height - self.app.status_bar - 4
        left = width - PANEL_WIDTH - 4
        wanted = self.tracker.wanted_height() if self._synced else TRACKER_HEIGHT
        tracker = pygame.Rect(left, top, PANEL_WIDTH, min(wanted, (bottom - top) // 3))
        log_height = min(LOG_HEIGHT, max(120, (bottom - tracker.bottom) // 3))
        log = pygame.Rect(left, bottom - log_height, PANEL_WIDTH, log_height)
        actions = pygame.Rect(left, tracker.bottom + 4, PANEL_WIDTH, log.top - tracker.bottom - 8)
        self.tracker.set_rect(tracker)
        self.actions.set_rect(actions)
        self.log.set_rect(log)

    def new_game(self, session: Session) -> None:
        """Play another game (a new map, an opened save): everything shown follows it."""
        self.session = session
        self.replay = None
        self.cancel_move()
        self.result = None
        self.odds.clear()
        self._choices_for = self._log_for = None
        self.sync()

    # ------------------------------------------------------------------ keeping in step

    def sync(self) -> None:
        """After any change of the game: the table, the tracker, the choices and the log."""
        app = self.app
        if self.replay is not None:
            frame = self.replay.frame()
            app.set_state(frame.state)
            game = frame.game
        else:
            app.set_state(self.session.state)
            game = self.session.game
        colours = palette.side_colours(app.state.sides)
        height = self.tracker.wanted_height() if self._synced else None
        self.tracker.update(TrackerView.of_game(game, colours), can_pass=self.replay is None)
        self._synced = True
        if self.tracker.wanted_height() != height:
            self.layout()
        self._update_choices()
        self._update_log()
        self.refresh_odds()

    def ordered_choices(self) -> tuple[ActionChoice, ...]:
        """The side's choices: the selected unit's first, then the side's own, then the rest."""
        if self.replay is not None:
            return ()
        choices = self.session.choices()
        selected = self.app.view.selected
        sides = set(self.game.sides)
        first = [c for c in choices if c.actor == selected]
        side = [c for c in choices if c.actor != selected and c.actor in sides]
        rest = [c for c in choices if c.actor != selected and c.actor not in sides]
        return tuple(first + side + rest)

    def _update_choices(self) -> None:
        key = (self.game if self.replay is None else None, self.app.view.selected, self.replay)
        if key == self._choices_for:
            return
        self._choices_for = key
        self.actions.set_choices(self.ordered_choices())

    def _update_log(self) -> None:
        session, limit = self.session, self.log.max_lines
        if self.replay is not None:
            replay = self.replay
            key = ("replay", id(replay), replay.index)
            if key == self._log_for:
                return
            self.log.update(
                tail_lines(replay.frame().game, limit),
                step=replay.index,
                length=replay.length,
                can_undo=False,
                can_redo=False,
                replay=ReplayView(replay.index, replay.length),
            )
        else:
            key = ("game", session.game, session.history.length)
            if key == self._log_for:
                return
            self.log.update(
                tail_lines(session.game, limit),
                step=session.step_number,
                length=session.history.length,
                can_undo=session.can_undo,
                can_redo=session.can_redo,
            )
        self._log_for = key

    def selection_changed(self) -> None:
        self._update_choices()
        self.refresh_odds()

    # ------------------------------------------------------------------ commands

    def handle_ui_event(self, event: pygame.event.Event) -> bool:
        """A pygame_gui event for one of the play widgets; True when it was theirs."""
        if not self.active:
            return False
        if self.tracker.command(event) == "next":
            self.next_go()
            return True
        command = self.log.command(event)
        if command is not None:
            self.log_command(command.name, command.step)
            return True
        panel = self.actions.command(event)
        if panel is not None:
            self.panel_command(panel.name, panel.action)
            return True
        return False

    def log_command(self, name: str, step: int | None = None) -> None:
        commands = {
            "undo": self.undo,
            "redo": self.redo,
            "reset": self.reset_activation,
            "export-text": lambda: self.export_log(".txt"),
            "export-json": lambda: self.export_log(".json"),
            "save-game": lambda: self.save_game(),
            "open-game": lambda: self.app.ask_open(),
            "replay": self.start_replay,
            "replay-prev": lambda: self.replay_step(-1),
            "replay-next": lambda: self.replay_step(1),
            "replay-end": self.end_replay,
        }
        if name == "goto" and step is not None:
            self.goto(step)
        elif name in commands:
            commands[name]()

    def panel_command(self, name: str, action: Action | None) -> None:
        if name == "apply" and action is not None:
            self.do(action)
        elif name == "confirm-move":
            self.confirm_move()
        elif name == "move":
            choice = self.actions.picked
            if choice is not None:
                self.start_move(choice)
        elif name == "cancel":
            self.cancel_move()
            self.refresh_odds()
        elif name in ("picked", "changed"):
            choice = self.actions.picked
            if choice is not None and self.can_draw(choice):
                self.start_move(choice)
            elif self.move_tool is not None:
                self.cancel_move()
            self.refresh_odds()
            self.prefetch_targets()

    def do(self, action: Action) -> Step | None:
        """Declare `action` for the side to act; a refusal is shown with its reason and rule."""
        if self.replay is not None:
            self.app.set_status("replaying: exit the replay to play on")
            return None
        try:
            step = self.session.apply(action)
        except UserError as error:
            self.app.set_status(f"refused: {error.describe()}")
            return None
        unit_ids = {unit.id for unit in step_state_units(self.session)}
        self.result = ResultNote(step.number, units_named(step, unit_ids), step_result_lines(step))
        self.cancel_move()
        self.sync()
        self.app.set_status(" · ".join(self.result.lines[:1] + self.result.lines[1:2]))
        self.warn_autosave()
        self.app.refresh_card()
        return step

    def warn_autosave(self) -> None:
        """A failed autosave is said at once: the game goes on, but is not kept safe."""
        problem = self.session.autosave_problem
        if problem:
            self.app.set_status(f"autosave failed: {problem}")

    def apply_current(self) -> Step | None:
        """Enter / Roll: the declaration on the panel (or the move being drawn)."""
        if self.move_tool is not None:
            return self.confirm_move()
        action = self.actions.action()
        if action is None:
            problem = self.actions.problem or "pick an action on the panel first"
            self.app.set_status(problem)
            return None
        return self.do(action)

    def next_go(self) -> Step | None:
        """Next: the side to act passes its go (the tracker's Next, key N)."""
        if self.replay is not None:
            return None
        try:
            step = self.session.pass_go()
        except UserError as error:
            self.app.set_status(f"refused: {error.describe()}")
            return None
        self.cancel_move()
        self.sync()
        game = self.game
        self.app.set_status(
            f"{step.side} passed · turn {game.turn}, {game.phase_name}: {game.side_to_act} to act"
        )
        return step

    def undo(self) -> None:
        if self.replay is not None or not self.session.can_undo:
            self.app.set_status("nothing to undo")
            return
        self.session.undo()
        self.cancel_move()
        self.sync()
        self.app.set_status(f"undone: back to step {self.session.step_number}")

    def redo(self) -> None:
        if self.replay is not None or not self.session.can_redo:
            self.app.set_status("nothing to redo")
            return
        self.session.redo()
        self.sync()
        self.app.set_status(f"redone: step {self.session.step_number}")

    def goto(self, step: int) -> None:
        if self.replay is not None:
            self.replay.goto(step)
            self.sync()
            return
        try:
            self.session.goto(step)
        except UserError as error:
            self.app.set_status(error.describe())
            return
        self.cancel_move()
        self.sync()
        self.app.set_status(f"at step {self.session.step_number} of {self.session.history.length}")

    def reset_activation(self) -> None:
        if self.replay is not None:
            return
        self.session.reset_activation()
        self.cancel_move()
        self.sync()
        self.app.set_status(
            f"reset to the start of the activation: step {self.session.step_number}"
        )

    # ------------------------------------------------------------------ the table

    def click_unit(self, unit_id: str) -> bool:
        """A click on a unit while a declaration is open: it fills a unit field (a target)."""
        if self.replay is not None or self.actions.picked is None or self.move_tool is not None:
            return False
        field = self.actions.offer_unit(unit_id)
        if field is None:
            return False
        self.app.set_status(f"{field}: {unit_id}")
        self.refresh_odds()
        return True

    def hover(self, unit_id: str | None) -> None:
        """Hovering a unit a declaration could take: its odds are shown (computed ahead)."""
        target = None
        choice = self.actions.picked
        if (
            unit_id is not None
            and choice is not None
            and self.move_tool is None
            and unit_id in self._open_unit_choices(choice)
        ):
            target = unit_id
        if target != self._hover_target:
            self._hover_target = target
            self.refresh_odds()

    def _open_unit_choices(self, choice: ActionChoice) -> tuple[str, ...]:
        unit_ids = tuple(unit.id for unit in self.session.state.units)
        names = unit_fields(choice, unit_ids)
        if not names:
            return ()
        field = next(f for f in choice.fields if f.name == names[0])
        return tuple(field.choices or ())

    def _hover_action(self) -> Action | None:
        choice = self.actions.picked
        if self._hover_target is None or choice is None:
            return None
        names = unit_fields(choice, tuple(unit.id for unit in self.session.state.units))
        values = {**self.actions.values, names[0]: self._hover_target}
        return Action(choice.kind, choice.actor, FrozenMap(values))

    def prefetch_targets(self) -> None:
        """The odds of the picked declaration against every unit it may take, nearest first."""
        choice = self.actions.picked
        if choice is None or self.replay is not None:
            return
        unit_ids = tuple(unit.id for unit in self.session.state.units)
        names = unit_fields(choice, unit_ids)
        if not names:
            return
        field = next(f for f in choice.fields if f.name == names[0])
        state = self.session.state
        # a field may offer "" (none: a spotter left out) besides the units
        candidates = [uid for uid in field.choices or () if uid and state.has_unit(uid)]
        if state.has_unit(choice.actor):
            actor = state.unit(choice.actor)
            candidates.sort(
                key=lambda uid: (
                    (state.unit(uid).x - actor.x) ** 2 + (state.unit(uid).y - actor.y) ** 2
                )
            )
        base = self.actions.values
        actions = [
            Action(choice.kind, choice.actor, FrozenMap({**base, names[0]: uid}))
            for uid in candidates[:MAX_PREFETCH]
        ]
        self.odds.prefetch(self.game, actions)

    def refresh_odds(self) -> None:
        """The chart on the panel: the hovered target's odds, else the declaration's; while a
        move is drawn, the move tool's card."""
        if self.move_tool is not None and self.replay is None:
            self._show_move_card(self.move_tool)
            return
        self._move_card_for = None
        if self.replay is not None or self.actions.picked is None:
            self._show_odds(None, "")
            return
        action = self._hover_action() or self.actions.action()
        if action is None:
            self._show_odds(None, "")  # the panel shows its own problem line
            return
        game = self.game
        self.odds.request(game, action)
        result = self.odds.get(game, action)
        key = (id(game), action, result.status)
        if key == self._shown_odds:
            return
        if result.status == "ready" and result.report is not None:
            surface = odds_chart(result.report, CHART_SIZE, self.app.renderer.fonts)
            target = self._hover_target or ""
            caption = f"odds{' vs ' + target if target else ''} ({result.seconds * 1000:.0f} ms)"
            self._show_odds(surface, caption)
        elif result.status == "pending":
            self._show_odds(None, "computing the exact odds…")
        elif result.status == "error":
            self._show_odds(None, result.message)
        else:
            self._show_odds(None, "no roll: applies as declared")
        self._shown_odds = key

    def _show_move_card(self, tool: MoveTool) -> None:
        plan = tool.plan
        key = (tool.draft, id(plan))
        if key == self._move_card_for:
            return
        self._move_card_for = key
        report = [*tool.report(), (MOVE_KEYS, "hint")]
        surface = move_card(report, CHART_SIZE, self.app.renderer.fonts)
        self.actions.show_move(surface, plan is not None and plan.legal, tool.draft.path)

    def _show_odds(self, surface: pygame.Surface | None, caption: str) -> None:
        if surface is None:
            self._shown_odds = None
        self.actions.show_odds(surface, caption)

    def update(self) -> None:
        """Once a frame: odds computed in the background appear when they are ready."""
        if self.active and self.actions.picked is not None and self._shown_odds is None:
            self.refresh_odds()
        elif self._shown_odds is not None and self._shown_odds[2] == "pending":
            self._shown_odds = None
            self.refresh_odds()

    def card_lines(self, unit_id: str) -> tuple[str, ...]:
        """The last roll's result and dice on the card of a unit it concerned."""
        note = self.result
        if note is None or unit_id not in note.units or self.replay is not None:
            return ()
        if note.step > self.session.step_number:
            return ()
        return note.lines

    def target_ids(self) -> tuple[str, ...]:
        """Units the open declaration may still take: ringed on the table."""
        choice = self.actions.picked
        if choice is None or self.move_tool is not None or self.replay is not None:
            return ()
        return self._open_unit_choices(choice)

    def draw(self, surface: pygame.Surface) -> None:
        """The overlays of play: target rings and the move preview."""
        camera = self.app.view.camera
        state = self.app.state
        targets = self.target_ids()
        if targets:
            scale = camera.scale
            for uid in targets:
                if not state.has_unit(uid):
                    continue
                unit = state.unit(uid)
                x0, y0, x1, y1 = unit.footprint.bounds
                radius = max(6, round(max(x1 - x0, y1 - y0) * scale * 0.6) + 4)
                centre = camera.to_screen(unit.x, unit.y)
                pygame.draw.circle(surface, TARGET_RING, centre, radius, 2)
        tool = self.move_tool
        if tool is None:
            return
        unit = self.session.state.unit(tool.unit.id)
        colour = palette.side_colours(state.sides).get(unit.side, (230, 230, 230))
        if tool.plan is not None:
            end_view = self.end_view(tool)
            if end_view is not None:
                draw_end_view(surface, camera, end_view, state.board)
            draw_move_preview(surface, camera, tool.plan, unit, self.app.renderer.fonts, colour)
        else:
            draw_handles(surface, tool.handles(camera), colour)

    # ------------------------------------------------------------------ moving

    def moved_state(self) -> GameState | None:
        """The table with the mover where the drawn path ends (None without a path drawn);
        the same object while the path ends in the same place."""
        tool = self.move_tool
        plan = tool.plan if tool is not None else None
        if plan is None:
            return None
        state = self.session.state
        key = (tool.unit.id, plan.final, state)
        if self._moved is None or self._moved[0] != key:
            moved = state.replace_unit(state.unit(tool.unit.id).moved_to(plan.final))
            self._moved = (key, moved, None)
        return self._moved[1]

    def moved_geometry(self) -> TableGeometry:
        """`TableGeometry` of `moved_state()`, built once for it."""
        moved = self.moved_state()
        if moved is None:
            raise UserError("no move is being drawn")
        key, state, geometry = self._moved
        if geometry is None:
            geometry = TableGeometry.of(state, self.app.system)
            self._moved = (key, state, geometry)
        return geometry

    def end_view(self, tool: MoveTool) -> SelectionView | None:
        """The mover's arcs and range rings where the drawn path ends, and its lines of sight
        from there once the path is not being dragged (computed once per end pose): where it
        will be able to fire from."""
        moved = self.moved_state()
        if moved is None:
            return None
        sight = not self._dragging
        cached = self._end_view
        if cached is None or cached[0] is not moved or cached[1] != sight:
            geometry = self.moved_geometry() if sight else None
            try:
                view = selection_view(
                    moved, self.app.system, tool.unit.id, sight, table_geometry=geometry
                )
            except UserError:
                view = None
            self._end_view = (moved, sight, view)
        return self._end_view[2]

    def can_draw(self, choice: ActionChoice) -> bool:
        """A path drawn with the move tool: a move of one unit on the table (a move of several,
        a wing in formation say, has its path typed on the panel)."""
        return is_move_choice(choice) and self.session.state.has_unit(choice.actor)

    def start_move(self, choice: ActionChoice) -> None:
        """The move tool for the choice's unit: drag, keys and handles draw the path."""
        state = self.session.state
        if not state.has_unit(choice.actor):
            self.app.set_status(f"{choice.title}: no unit {choice.actor!r} to move")
            return
        unit = state.unit(choice.actor)
        activation = self.actions.values.get("activation")
        rules = turning_rules_for(self.session.game.system, state, unit, activation)
        session = self.session

        def preview(unit_id: str, path: str):
            return session.preview_move(unit_id, path, activation)

        self.move_tool = MoveTool(unit, rules, preview)
        self.move_choice = choice
        self.app.select(unit.id)
        self.app.set_status(
            f'moving {unit.name or unit.id}: drag ahead, W/S ±1", A/D turn,'
            " Enter confirms, Esc cancels"
        )

    def cancel_move(self) -> None:
        self.move_tool = None
        self.move_choice = None

    def confirm_move(self) -> Step | None:
        tool, choice = self.move_tool, self.move_choice
        if tool is None or choice is None:
            return None
        if not tool.draft.tokens:
            self.app.set_status("draw a path first: W or a drag moves ahead")
            return None
        problem = tool.problem()
        if problem:
            self.app.set_status(f"refused: {problem}")
            return None
        values = {k: v for k, v in self.actions.values.items() if k != "path"}
        values["path"] = tool.draft.path
        return self.do(Action(choice.kind, choice.actor, FrozenMap(values)))

    @property
    def dragging(self) -> bool:
        return self._dragging

    def press(self, point: tuple[float, float]) -> bool:
        """A left press on the table: the move tool's path end or turn handles first."""
        tool = self.move_tool
        if tool is None or not self.active:
            return False
        self._dragging = tool.press(point, self.app.view.camera)
        if self._dragging:
            self.app.set_status(tool.status())
        return self._dragging

    def drag(self, point: tuple[float, float]) -> None:
        tool = self.move_tool
        if tool is not None and self._dragging:
            tool.drag(point)
            self.app.set_status(tool.status())

    def release(self) -> None:
        if self.move_tool is not None and self._dragging:
            self.move_tool.release()
        self._dragging = False

    def escape(self) -> None:
        """Esc: the move being drawn, else the open declaration, is dropped."""
        if self.move_tool is not None:
            self.cancel_move()
            self.app.set_status("move cancelled")
        elif self.actions.picked is not None:
            self.actions.pick(None)
            self.refresh_odds()

    def move_key(self, event: pygame.event.Event) -> bool:
        tool = self.move_tool
        if tool is None:
            return False
        verdict = tool.key(event)
        if verdict == "confirm":
            self.confirm_move()
        elif verdict == "cancel":
            self.cancel_move()
            self.app.set_status("move cancelled")
        else:
            self.app.set_status(tool.status())
        return verdict is not None or tool.handles_key(event)

    # ------------------------------------------------------------------ files

    def save_game(self, path: str | os.PathLike[str] | None = None) -> bool:
        target = Path(path) if path is not None else self.game_path
        if target is None:
            self.app.ask_file("save-game", "Save the game as (JSON)", existing=False)
            return False
        try:
            self.session.save(target)
        except (UserError, OSError) as error:
            message = error.describe() if isinstance(error, UserError) else str(error)
            self.app.show_message("Cannot save the game", message)
            return False
        self.game_path = target
        self.app.set_status(f"saved the game ({self.session.step_number} steps) to {target}")
        return True

    def open_game(self, path: str | os.PathLike[str]) -> bool:
        try:
            session = Session.open(path, self.session.autosave)
        except UserError as error:
            self.app.show_message("Cannot open the game", error.describe())
            return False
        self.game_path = Path(path)
        self.app.adopt_map(session.game.initial, None)
        self.new_game(session)
        session.write_autosave()
        self.app.set_status(f"opened {path}: step {session.step_number}, {session.game.phase_name}")
        return True

    def export_log(self, suffix: str, path: str | os.PathLike[str] | None = None) -> Path | None:
        target = Path(path) if path is not None else free_name("tactical-log", suffix)
        try:
            self.session.export_log(target)
        except (UserError, OSError) as error:
            message = error.describe() if isinstance(error, UserError) else str(error)
            self.app.show_message("Cannot export the log", message)
            return None
        self.app.set_status(f"wrote the log to {target}")
        return target

    def start_replay(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Step through a saved game (or this one) without changing it."""
        try:
            replay = Replay.open(path) if path is not None else self.session.replay()
        except UserError as error:
            self.app.show_message("Cannot replay", error.describe())
            return False
        self.cancel_move()
        self.replay = replay
        self._choices_for = self._log_for = None
        self.sync()
        self.app.set_status(f"replay: step 0 of {replay.length} (Page Down / Page Up step)")
        return True

    def replay_step(self, delta: int) -> None:
        replay = self.replay
        if replay is None:
            return
        frame = replay.next() if delta > 0 else replay.previous()
        if frame is None:
            self.app.set_status("the replay is at its end" if delta > 0 else "at the start")
            return
        self.sync()
        lines = [entry.text() for entry in frame.entries][:2]
        self.app.set_status(f"replay step {frame.step} of {replay.length}: " + " · ".join(lines))

    def end_replay(self) -> None:
        if self.replay is None:
            return
        self.replay = None
        self._choices_for = self._log_for = None
        self.sync()
        self.app.set_status("replay closed: back to the game")

    def close(self) -> None:
        self.odds.shutdown()
        self.tracker.kill()
        self.actions.kill()
        self.log.kill()


def step_state_units(session: Session):
    """The units of the game before and after the last step (a unit may have been removed)."""
    game = session.game
    units = list(game.state.units)
    history = session.history
    if history.cursor > 0:
        units.extend(history.games[history.cursor - 1].state.units)
    return units


__all__ = ["PlayScreen", "odds_lines", "step_result_lines"]
