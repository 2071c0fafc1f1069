"""Play mode of the play screen: turn, choices, moves, odds, rolls, log, files.

`PlayScreen` is the mode that plays. It is built of parts, each owning its own state:
the true session and each side's view of it (`Handover`), the flow of play (`PlayFlow`:
declaring, Next, undo and redo, the last roll), the move being drawn (`MoveControl`), the
open declaration's targets and odds (`TargetPicking`) and the game's files and replays
(`GameFiles`), beside the phase tracker, the action panel, the log panel and the odds
board. What they show is decided by the presenter layer (`tactical.present`) from the
`Session`, the one object that knows the game; the screen turns the widgets' commands,
the keys and the table's clicks into calls on its parts. It reaches the window through
`Services` (the status line, the file dialogs, the selection). Nothing here names a
rule system. While the computer has the go, or once the game is over, the action panel
lists nothing and says why (`hold`), and no click, Enter or Next declares anything. A
game played with others elsewhere goes through the same session hooks (`submit`,
`hold_reason`, `poll`): `online_play`.
"""

from __future__ import annotations

import weakref
from dataclasses import replace

import pygame

from tactical.present.declaring import cited
from tactical.present.flow import menu_name, ordered_choices, unavailable_now
from tactical.present.results import log_lines
from tactical.present.tracker import ReplayView, TrackerView
from tactical.rules.base import Action, ActionChoice
from tactical.rules.status import Unavailable
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.session.replay import Replay
from tactical.ui import palette
from tactical.ui.action_panel import ActionPanel
from tactical.ui.ai_player import AiDriver
from tactical.ui.fight_layer import FightLayer
from tactical.ui.handover import Handover  # each side's view on one screen, the cover
from tactical.ui.odds_view import OddsBoard, ProcessOdds
from tactical.ui.online_play import OnlinePlay, with_chat
from tactical.ui.parts import forwards
from tactical.ui.play_files import GameFiles
from tactical.ui.play_flow import PlayFlow
from tactical.ui.play_moves import MoveControl
from tactical.ui.play_panels import LogPanel, PhaseTracker
from tactical.ui.play_targets import TargetPicking
from tactical.ui.services import PANEL_WIDTH, Services
from tactical.ui.threat_overlays import ThreatOverlays
from tactical.ui.widgets import set_shown

TRACKER_HEIGHT = 118  # four lines of the tracker in view; its text scrolls
LOG_HEIGHT = 168  # and so does the log's: five lines at 1280x800
TARGET_RING = (255, 230, 0)


@forwards(
    # the true session and each side's view of it (hot seat: the cover between goes)
    handover="session played_session covered_for covering draw_cover",
    # the flow of play: declaring, Next, undo and redo, the last roll on the cards
    flow="result warning ask_before_pass do warn_autosave apply_current next_go"
    " set_take_single toggle_take_single undo redo goto reset_activation card_lines last_hits",
    # the move being drawn
    moves="move_tool=tool move_choice=choice dragging moved_state moved_geometry end_view"
    " can_draw start_move cancel_move=cancel confirm_move move_key drag release",
    # the open declaration's targets and odds
    targets="click_unit hover prefetch_targets pair_source target_ids refresh_odds"
    " _shown_odds=shown_odds",
    # the game's files and replays
    files="game_path save_game open_game export_log start_replay replay_step end_replay",
)
class PlayScreen:
    """The game on the play screen: the session, its panels and tools (see module docstring).

    The attributes named in `forwards` above are its parts' own: the window, the online
    play and the computer players call them on the screen."""

    def __init__(self, services: Services, session: Session) -> None:
        self.services = services
        self.replay: Replay | None = None
        self.handover = Handover(self, session)
        self.flow = PlayFlow(self)
        self.moves = MoveControl(self)
        self.targets = TargetPicking(self)
        self.files = GameFiles(self)
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
        self.actions.naming = lambda value: menu_name(self.session.state, value)
        self.ai = AiDriver.of_screen(self, session.game.sides)  # the computer's sides (solo)
        self._choices_for: tuple | None = None
        self._log_for: tuple | None = None
        self._seats_for: tuple | None = None
        self._only_picked_for: Game | None = None
        # (game, unit) a click on a row selected (its move tool): the rows stay in place
        self._picked_from_list: tuple[Game, str | None] | None = None
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
            set_shown(widget, visible)

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

    def show_replay(self, replay: Replay | None) -> None:
        """Show a replay (None: back to the game); everything shown follows it."""
        self.replay = replay
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
        refused = None if refusal is None else cited(refusal.reason, refusal.spec_id)
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
        selected = self.services.view.selected
        return ordered_choices(self.session.choices(), selected, self.game.sides)

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
        found = unavailable_now(game)
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
        if self.flow.warning_event(event):
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
        elif self.targets.pending:
            self._shown_odds = None
            self.refresh_odds()

    @property
    def busy(self) -> bool:
        """Something will change without an event: odds being computed, a move dragged."""
        return self.targets.pending or self.moves.dragging

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

    # ------------------------------------------------------------------ pointer and keys

    def press(self, point: tuple[float, float], unit_id: str | None = None) -> bool:
        """A left press on the table: the move tool's path end or turn handles first, then a
        unit that fills the open declaration's field. False: the press selects."""
        if not self.active:
            return False
        if self.moves.press(point, self.services.view.camera):
            return True
        return unit_id is not None and self.click_unit(unit_id)

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

    def close(self) -> None:
        self.flow.close_warning()
        self.online.close()  # the link and the server, online
        self.ai.close()
        self.odds.shutdown()
        self.tracker.kill()
        self.actions.kill()
        self.log.kill()


__all__ = ["PlayScreen"]
