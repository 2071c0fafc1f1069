"""Play mode of the play screen: turn, choices, moves, odds, rolls, log, files.

`PlayScreen` is the mode that plays: it holds the `Session` (the one object
that knows the game), the phase tracker, the action panel, the log panel, the
move being drawn (`MoveControl`) and the odds board, and turns their commands,
the keys and the table's clicks into session calls. It reaches the window
through `Services` (the status line, the file dialogs, the selection).
Everything shown comes from what the rule system publishes through the session
(phases, `ActionChoice` fields, odds reports, steps with their events and
rolls); nothing here names a rule system. While the computer has the go, or once
the game is over, the action panel lists nothing and says why (`hold`), and no
click, Enter or Next declares anything. The steps the rules leave no choice for are
the session's (`session.forced`): the screen only says what it took, and Undo and
Redo go by decision. Next asks before a pass throws away an attack or a move
(`next_warning`), unless told to stop asking. A game played with others elsewhere goes
through the same session hooks (`submit`, `hold_reason`, `poll`): `online_play`.
"""

from __future__ import annotations

import weakref
from dataclasses import replace
from pathlib import Path

import pygame

from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.rules.base import Action, ActionChoice
from tactical.rules.measuring import TableGeometry
from tactical.rules.status import Unavailable
from tactical.session.controller import Session
from tactical.session.game import PASS, Game, Step
from tactical.session.replay import Replay
from tactical.ui import palette
from tactical.ui.action_panel import ActionPanel
from tactical.ui.ai_player import AiDriver
from tactical.ui.fight_layer import FightLayer
from tactical.ui.handover import Handover  # each side's view on one screen, the cover
from tactical.ui.move_preview import move_card
from tactical.ui.move_tool import MoveTool
from tactical.ui.next_warning import NextWarning
from tactical.ui.odds_chart import odds_chart
from tactical.ui.odds_view import OddsBoard, ProcessOdds
from tactical.ui.online_play import OnlinePlay, with_chat
from tactical.ui.play_files import GameFiles
from tactical.ui.play_flow import PlayFlow
from tactical.ui.play_moves import MoveControl
from tactical.ui.play_panels import LogPanel, PhaseTracker, ReplayView, TrackerView
from tactical.ui.play_targets import TargetPicking
from tactical.ui.results import concerned, last_hits, log_lines, note_lines, step_status
from tactical.ui.selection import SelectionView
from tactical.ui.services import PANEL_WIDTH, Services
from tactical.ui.threat_overlays import ThreatOverlays

TRACKER_HEIGHT = 118  # four lines of the tracker in view; its text scrolls
LOG_HEIGHT = 168  # and so does the log's: five lines at 1280x800
TARGET_RING = (255, 230, 0)
MOVE_KEYS = (
    'drag the end or W/S ±1" (Shift 0.1"), A/D turn (Shift 5°), C rotate, Backspace takes'
    " back a step; Enter or Move confirms, Esc cancels"
)


class PlayScreen(Handover, PlayFlow, TargetPicking, GameFiles):
    """The game on the play screen: the session, its panels and tools (see module docstring)."""

    def __init__(self, services: Services, session: Session) -> None:
        self.services = services
        self.session = session
        self.replay: Replay | None = None
        self.moves = MoveControl(lambda: self.session)
        self.result: Step | None = None  # the last step played here (its roll on the cards)
        self.game_path: Path | None = None
        self._unavailable: tuple[Game, tuple[Unavailable, ...]] | None = None
        self._odds_process = ProcessOdds()
        self.odds = OddsBoard(self._odds_process)
        self.overlays = ThreatOverlays()  # R reach, T threat map, V advice, K card
        self.fight = FightLayer()  # the last attack drawn on the table
        # the worker thread holds the board, not the App: a screen dropped without close()
        # (a test's) still stops its worker when it is collected
        weakref.finalize(self, self.odds.shutdown)
        m = services.manager
        r = pygame.Rect(0, 0, PANEL_WIDTH, 100)
        self.tracker = PhaseTracker(m, r)
        self.actions = ActionPanel(m, r)
        self.log = LogPanel(m, r)
        self.actions.drawable = self.can_draw
        self.actions.naming = self.unit_name
        self.ai = AiDriver.of_screen(self, session.game.sides)  # the computer's sides (solo)
        self._shown_odds: tuple | None = None
        self._hover_target: str | None = None
        self._move_card_for: tuple | None = None
        self._choices_for: tuple | None = None
        self._log_for: tuple | None = None
        self._seats_for: tuple | None = None
        self.ask_before_pass = True  # Next asks before it throws away an attack or a move
        self._only_picked_for: Game | None = None
        # (game, unit) a click on a row selected (its move tool): the rows stay in place
        self._picked_from_list: tuple[Game, str | None] | None = None
        self.warning: NextWarning | None = None
        self.online = OnlinePlay(self)  # a game played with others elsewhere (its hooks)
        self.layout()

    # ------------------------------------------------------------------ where play stands

    @property
    def game(self):
        return self.session.game

    @property
    def active(self) -> bool:
        return self.services.view.mode == "play"

    @property
    def replaying(self) -> bool:
        return self.replay is not None

    def widgets(self) -> list:
        seats = [] if self.online.active else self.ai.widgets()  # online: the server's
        return [self.tracker.panel, self.actions.panel, self.log.panel, *seats,
                *self.online.widgets()]  # fmt: skip

    def show(self, visible: bool) -> None:
        for widget in self.widgets():
            if visible:
                widget.show()
            else:
                widget.hide()

    def layout(self) -> None:
        """The play column: tracker, action panel and log at fixed heights for a window size,
        so that nothing moves between clicks (the tracker and the log scroll)."""
        width, height = self.services.size
        size = (width, height)
        # under the side menus (solo play), or the online bar
        top = (self.online.bar_bottom(size) if self.online.active else self.ai.layout(size)) + 4
        bottom = height - 4 - self.online.chat_room()  # the status line runs under the table
        left = width - PANEL_WIDTH - 4
        column = bottom - top
        tracker = pygame.Rect(left, top, PANEL_WIDTH, min(TRACKER_HEIGHT, column // 4))
        log_height = min(LOG_HEIGHT, max(110, column // 4))
        log = pygame.Rect(left, bottom - log_height, PANEL_WIDTH, log_height)
        actions = pygame.Rect(left, tracker.bottom + 4, PANEL_WIDTH, log.top - tracker.bottom - 8)
        self.tracker.set_rect(tracker)
        self.actions.set_rect(actions)
        self.log.set_rect(log)
        self.online.place_chat(size)

    def warm_odds(self) -> None:
        """Start the odds process at once (the window calls this as it opens)."""
        self._odds_process.warm(self.session.game.rules)

    def new_game(self, session: Session) -> None:
        """Play another game (a new map, an opened save): everything shown follows it."""
        self.online.leaving(session)  # a game played online before ends here
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
        services = self.services
        if self.replay is not None:
            frame = self.replay.frame()
            services.set_state(frame.state)
            game = frame.game
        else:
            services.set_state(self.session.state)
            game = self.session.game
        colours = palette.side_colours(services.state.sides)
        view = TrackerView.of_game(game, colours)
        if self.replay is None:
            view = self.online.marked(self.ai.marked(view))  # who plays the side to act
        else:  # nobody plays a replay: the prompt says where it stands
            view = replace(view, replay=ReplayView(self.replay.index, self.replay.length))
        refusal = game.pass_refusal() if self.replay is None else None
        refused = None if refusal is None else _cited(refusal.reason, refusal.spec_id)
        held = self.hold()  # the computer's go, or the game over: Next is off, and says why
        self.tracker.update(
            view,
            can_pass=self.replay is None and not held,
            pass_refused=held[0] if held else refused,
        )
        self._update_choices()
        self._update_log()
        self.refresh_odds()

    def ordered_choices(self) -> tuple[ActionChoice, ...]:
        """The side's choices: the selected unit's first, then the side's own, then the rest;
        a pass last (it ends the go)."""
        if self.replay is not None:
            return ()
        choices = self.session.choices()
        selected = self.services.view.selected
        sides = set(self.game.sides)
        first = [c for c in choices if c.actor == selected]
        side = [c for c in choices if c.actor != selected and c.actor in sides]
        rest = [c for c in choices if c.actor != selected and c.actor not in sides]
        ordered = first + side + rest
        return tuple(
            [c for c in ordered if c.kind != PASS] + [c for c in ordered if c.kind == PASS]
        )

    def hold(self) -> tuple[str, ...]:
        """Why nobody at the mouse may declare now, in lines for the panel: the computer's go
        or the game over (`AiDriver.hold`), else the session's (`OnlinePlay.hold_lines`:
        another player's go, watching, the connection)."""
        if self.replay is not None:
            return ()
        return self.ai.hold(self.game) or self.online.hold_lines()

    def _update_choices(self) -> None:
        held = self.hold()
        game = self.game if self.replay is None else None
        key = (game, self.services.view.selected, self.replay, held)
        if key == self._choices_for:
            return
        if held and self.move_tool is not None:
            self.cancel_move()  # a move drawn for a side the computer now plays
        self._choices_for = key
        if held:
            self.actions.set_choices((), (), held)
        else:
            ordered = self.ordered_choices()
            if self._picked_from_list == (game, self.services.view.selected) and set(
                ordered
            ) == set(self.actions.choices):
                ordered = self.actions.choices  # a clicked row does not move the rows
            self.actions.set_choices(ordered, self.unavailable())
            self._pick_the_only_choice(game)

    def _pick_the_only_choice(self, game: Game | None) -> None:
        """Where one thing only is open (a decision: its values are the player's, else the
        game would have taken it) it is on the form at once: a click on its row would
        decide nothing. Once per game value: Esc drops it for good."""
        panel = self.actions
        if game is None or panel.picked is not None or len(panel.choices) != 1:
            return
        if self._only_picked_for is game:
            return
        self._only_picked_for = game
        choice = panel.pick(0)
        if choice is not None and self.can_draw(choice):
            self.start_move(choice)

    def unavailable(self) -> tuple[Unavailable, ...]:
        """The actions of the phase the side to act cannot take now, with the rules' reasons."""
        if self.replay is not None:
            return ()
        game = self.game
        if self._unavailable is not None and self._unavailable[0] is game:
            return self._unavailable[1]  # asked by the auto-pass and the action list alike
        try:
            found = game.system.unavailable(game.state, game.position, game.side_to_act)
        except UserError:
            found = ()
        self._unavailable = (game, found)
        return found

    def _update_log(self) -> None:
        session, limit = self.session, self.log.max_lines
        if self.replay is not None:
            replay = self.replay
            key = ("replay", id(replay), replay.index)
            if key == self._log_for:
                return
            self.log.update(
                log_lines(replay.frame().game, limit),
                step=replay.index,
                length=replay.length,
                can_undo=False,
                can_redo=False,
                replay=ReplayView(replay.index, replay.length),
            )
        else:
            key = ("game", session.game, session.history.length, len(session.chat))
            if key == self._log_for:
                return
            lines = self.ai.annotate(log_lines(session.game, limit), limit)
            self.log.update(
                with_chat(lines, session.chat, limit),  # what the players wrote, online
                step=session.step_number,
                length=session.history.length,
                can_undo=session.can_undo,
                can_redo=session.can_redo,
            )
        self.online.controls_shown(self.log, self.replay is not None)
        self._log_for = key

    def unit_name(self, value: str) -> str:
        """A unit's name for its id ("" for anything else): how the drop-downs list units."""
        state = self.session.state
        unit = state.unit(value) if value and state.has_unit(value) else None
        return state.shown_names[value] if unit is not None and unit.name else ""

    def wheel(self, pos: tuple[int, int], notches: int) -> bool:
        """The wheel over the declaration form scrolls it; False when it was not there."""
        if not self.active or not self.actions.form_rect().collidepoint(pos):
            return False
        return self.actions.scroll_form(-notches)

    def selection_changed(self) -> None:
        self._update_choices()
        self.refresh_odds()

    # ------------------------------------------------------------------ commands

    def handle_ui_event(self, event: pygame.event.Event) -> bool:
        """A pygame_gui event for one of the play widgets; True when it was theirs."""
        if not self.active or self.ai.handle_ui_event(event):
            return self.active
        if self.warning_event(event):
            return True
        if self.tracker.command(event) == "next":
            self.next_go()
            return True
        command = self.log.command(event)
        if command is not None:
            self.log_command(command.name, command.step)
            return True
        panel = self.actions.command(event)
        if panel is not None:
            self.panel_command(panel.name, panel.action, panel.reason)
            return True
        return False

    def log_command(self, name: str, step: int | None = None) -> None:
        commands = {
            "undo": self.undo,
            "redo": self.redo,
            "reset": self.reset_activation,
            "export-text": lambda: self.export_log(".txt"),
            "export-json": lambda: self.export_log(".json"),
            "replay": self.start_replay,
            "replay-prev": lambda: self.replay_step(-1),
            "replay-next": lambda: self.replay_step(1),
            "replay-end": self.end_replay,
        }
        if name == "goto" and step is not None:
            self.goto(step)
        elif name in commands:
            commands[name]()

    def panel_command(self, name: str, action: Action | None, reason: str = "") -> None:
        held = self.hold()
        if held and name in ("apply", "confirm-move", "move", "picked"):
            self.services.set_status(held[0])  # nothing declares for the computer
        elif name == "unavailable":
            self.services.set_status(reason)
        elif name == "details":
            self._shown_odds = None  # redrawn with the secondary sections shown or collapsed
            self.refresh_odds()
        elif name == "apply" and action is not None:
            self.do(action)
        elif name == "confirm-move":
            self.confirm_move()
        elif name == "move":
            choice = self.actions.picked
            if choice is not None:
                # its unit is selected as the tool starts: the rows stay where they were
                self._picked_from_list = (self.game, choice.actor)
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
        """Declare `action` for the side to act (`Session.submit`); a refusal is shown with its
        reason and rule. Online the action is sent: None, and its step comes with `poll`."""
        if self.replay is not None:
            self.services.set_status("replaying: exit the replay to play on")
            return None
        try:
            step = self.session.submit(action)
        except UserError as error:
            self.services.set_status(f"refused: {error.describe()}")
            return None
        if step is None:  # sent: the step comes back through `poll` (`OnlinePlay.update`)
            self.services.set_status(self.session.sent_words())
            return None
        self.result = step
        self.cancel_move()
        passed = self.taken_words()
        self.sync()
        self.services.set_status(step_status(step) + passed)
        self.warn_autosave()
        self.services.refresh_card()
        return step

    def warn_autosave(self) -> None:
        """A failed autosave is said at once: the game goes on, but is not kept safe."""
        problem = self.session.autosave_problem
        if problem:
            self.services.set_status(f"autosave failed: {problem}")

    def apply_current(self) -> Step | None:
        """Enter / Roll: the declaration on the panel (or the move being drawn)."""
        held = self.hold()
        if held:  # nothing is declared for the computer, nor once the game is over
            self.services.set_status(held[0])
            return None
        if self.move_tool is not None:
            return self.confirm_move()
        action = self.actions.action()
        if action is None:
            problem = self.actions.problem or "pick an action on the panel first"
            self.services.set_status(problem)
            return None
        return self.do(action)

    def goto(self, step: int) -> None:
        if self.replay is not None:
            self.replay.goto(step)
            self.sync()
            return
        try:
            self.session.goto(step)
        except UserError as error:
            self.services.set_status(error.describe())
            return
        self.cancel_move()
        self.sync()
        self.services.set_status(
            f"at step {self.session.step_number} of {self.session.history.length}"
        )

    def reset_activation(self) -> None:
        if self.replay is not None:
            return
        self.session.reset_activation()
        self.cancel_move()
        self.sync()
        self.services.set_status(
            f"reset to the start of the activation: step {self.session.step_number}"
        )

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
        key = (id(game), action, result.status, self.actions.odds_size(), self.actions.details)
        if key == self._shown_odds:
            return
        if result.status == "ready" and result.report is not None:
            target = self._hover_target or ""
            state = self.session.state
            if target and state.has_unit(target):
                target = state.shown_names[target]
            caption = f"odds{' vs ' + target if target else ''} ({result.seconds * 1000:.0f} ms)"
            surface = odds_chart(
                result.report,
                self.actions.odds_size(),
                self.services.renderer.fonts,
                details=self.actions.details,
                caption=caption,
                names={u.id: state.shown_names[u.id] for u in state.units if u.name},
            )
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
        key = (tool.draft, id(plan), self.actions.odds_size())
        if key == self._move_card_for:
            return
        self._move_card_for = key
        report = [*tool.report(), (MOVE_KEYS, "hint")]
        surface = move_card(report, self.actions.odds_size(), self.services.renderer.fonts)
        self.actions.show_move(surface, plan is not None and plan.legal, tool.draft.path)

    def _show_odds(self, surface: pygame.Surface | None, caption: str) -> None:
        if surface is None:
            self._shown_odds = None
        self.actions.show_odds(surface, caption)

    def update(self) -> None:
        """Once a frame: the computer's go (the panel says what it is at, the tracker who has
        the go); odds computed in the background, once ready; online, what the server sent."""
        self.online.update()
        self.ai.update()
        seats = tuple(self.ai.seats.items())
        if self.active and seats != self._seats_for:  # a side handed over (its menu)
            self._seats_for = seats
            self.sync()
        if self.active:
            self._update_choices()
        self.actions.update()
        if self.active and self.actions.picked is not None and self._shown_odds is None:
            self.refresh_odds()
        elif self._shown_odds is not None and self._shown_odds[2] == "pending":
            self._shown_odds = None
            self.refresh_odds()

    @property
    def busy(self) -> bool:
        """Something will change without an event: odds being computed, a move dragged."""
        pending = self._shown_odds is not None and self._shown_odds[2] == "pending"
        return pending or self.moves.dragging

    def card_lines(self, unit_id: str) -> tuple[str, ...]:
        """The last roll's words and dice on the card of a unit it concerned."""
        step = self.result
        if step is None or self.replay is not None or step.number > self.session.step_number:
            return ()
        if self.session.game.steps[step.number - 1] is not step:
            return ()  # undone, and another step played in its place
        units = {u.id for u in step.state_before.units} if step.state_before else {unit_id}
        if unit_id not in concerned(step, tuple(units)):
            return ()
        return note_lines(step)

    def last_hits(self, unit_id: str) -> tuple[str, ...]:
        """The latest steps that struck or aimed at the unit, in words, newest first."""
        game = self.replay.frame().game if self.replay is not None else self.session.game
        return last_hits(game, unit_id)

    def draw(self, surface: pygame.Surface) -> None:
        """The overlays of play: target rings and the move preview."""
        camera = self.services.view.camera
        state = self.services.state
        renderer = self.services.renderer
        self.overlays.draw(
            surface,
            camera,
            state,
            self.services.view.selected,
            self.session.side_to_act,
            renderer.fonts,
            renderer.unit_shapes(state),
            labels=lambda picture: renderer.redraw_labels(picture, camera),
        )
        # the last attack, its arrow and result in words, until a unit acts again
        game = self.replay.frame().game if self.replay is not None else self.session.game
        self.fight.draw(surface, camera, state, game, renderer.fonts, renderer.label_boxes)
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
        self.moves.draw(surface, camera, state, self.services.renderer.fonts)
        self.ai.draw(surface)  # the end of the game, once it is over

    # ------------------------------------------------------------------ moving

    @property
    def move_tool(self) -> MoveTool | None:
        """The move being drawn on the table, if any."""
        return self.moves.tool

    @property
    def move_choice(self) -> ActionChoice | None:
        return self.moves.choice

    @property
    def dragging(self) -> bool:
        return self.moves.dragging

    def moved_state(self) -> GameState | None:
        """The table with the mover where the drawn path ends (None without a path drawn)."""
        return self.moves.moved_state()

    def moved_geometry(self) -> TableGeometry:
        return self.moves.moved_geometry()

    def end_view(self, tool: MoveTool | None = None) -> SelectionView | None:
        """The mover's arcs and lines of sight from where the drawn path ends."""
        return self.moves.end_view()

    def can_draw(self, choice: ActionChoice) -> bool:
        return self.moves.can_draw(choice)

    def start_move(self, choice: ActionChoice) -> None:
        """The move tool for the choice's unit: drag, keys and handles draw the path."""
        state = self.session.state
        if not state.has_unit(choice.actor):
            self.services.set_status(f"{choice.title}: that unit is no longer on the table")
            return
        tool = self.moves.start(choice, self.actions.values.get("activation"))
        unit = tool.unit
        self.services.select(unit.id)
        self.services.set_status(
            f"moving {self.session.state.shown_names.get(unit.id, unit.id)}: drag ahead,"
            ' W/S ±1", A/D turn, Enter confirms, Esc cancels'
        )

    def cancel_move(self) -> None:
        self.moves.cancel()

    def confirm_move(self) -> Step | None:
        tool, choice = self.moves.tool, self.moves.choice
        if tool is None or choice is None:
            return None
        if not tool.draft.tokens:
            self.services.set_status("draw a path first: W or a drag moves ahead")
            return None
        problem = tool.problem()
        if problem:
            self.services.set_status(f"refused: {problem}")
            return None
        values = {k: v for k, v in self.actions.values.items() if k != "path"}
        values["path"] = tool.draft.path
        step = self.do(Action(choice.kind, choice.actor, FrozenMap(values)))
        if step is not None and self.actions.picked is not None:
            # the move is made: its declaration goes with it (a move still offered is picked
            # again to draw another, not left asking for a path no tool is drawing)
            self.actions.pick(None)
            self.refresh_odds()
        return step

    def press(self, point: tuple[float, float], unit_id: str | None = None) -> bool:
        """A left press on the table: the move tool's path end or turn handles first, then a
        unit that fills the open declaration's field. False: the press selects."""
        if not self.active:
            return False
        if self.moves.press(point, self.services.view.camera):
            self.services.set_status(self.moves.tool.status())  # type: ignore[union-attr]
            return True
        return unit_id is not None and self.click_unit(unit_id)

    def drag(self, point: tuple[float, float]) -> None:
        if self.moves.drag(point):
            self.services.set_status(self.moves.tool.status())  # type: ignore[union-attr]

    def release(self) -> None:
        self.moves.release()

    def escape(self) -> None:
        """Esc: the move being drawn, else the open declaration, is dropped."""
        if self.move_tool is not None:
            self.cancel_move()
            self.services.set_status("move cancelled")
        elif self.actions.picked is not None:
            self.actions.pick(None)
            self.refresh_odds()

    def key(self, event: pygame.event.Event) -> bool:
        """The game's keys: the move tool first, then Next, Roll, replay. True when used."""
        if self.move_key(event) or self.ai.key(event):
            return True
        key = event.key
        view = self.services.view
        if self.overlays.key(event, self.services.state, view.selected, view.hovered,
                             self.session.side_to_act, self.services.set_status):  # fmt: skip
            return True
        if key == pygame.K_n:
            self.next_go(ask=not event.mod & pygame.KMOD_SHIFT)  # Shift+N: without asking
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.apply_current()
        elif key == pygame.K_PAGEDOWN and self.replaying:
            self.replay_step(1)
        elif key == pygame.K_PAGEUP and self.replaying:
            self.replay_step(-1)
        else:
            return False
        return True

    def move_key(self, event: pygame.event.Event) -> bool:
        tool = self.move_tool
        if tool is None:
            return False
        verdict = tool.key(event)
        if verdict == "confirm":
            self.confirm_move()
        elif verdict == "cancel":
            self.cancel_move()
            self.services.set_status("move cancelled")
        else:
            self.services.set_status(tool.status())
        return verdict is not None or tool.handles_key(event)

    def close(self) -> None:
        self.close_warning()
        self.online.close()  # the link and the server, online
        self.ai.close()
        self.odds.shutdown()
        self.tracker.kill()
        self.actions.kill()
        self.log.kill()


def _cited(text: str, spec_id: str | None) -> str:
    """A reason as a player reads it, with the rule it comes from."""
    return f"{text} ({spec_id})" if spec_id else text


__all__ = ["PlayScreen"]
