"""Setup mode of the play screen: terrain, deployment and the units' exact poses.

`SetupMode` owns its panel (terrain seed and roll, roll-off and edge, the
selected unit's typed pose, the table's fairness and *Fair roll*; its words:
tactical.present.setup_fairness) and the shading of the deployment zones by what the
enemy can hit on turn one; its `placing` (tactical.ui.setup_placing) drags and turns the
units and terrain pieces by hand. It changes the table through `Services`; the game
starts from the table as set up when the player goes back to play.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import replace

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UIPanel,
    UITextBox,
    UITextEntryLine,
)
from pygame_gui.windows import UIConfirmationDialog

from tactical.errors import UserError
from tactical.geometry.shapes import normalise_heading
from tactical.present.setup_fairness import fairness_html
from tactical.present.setup_rolloff import roll_off_html, seeded_roll_off
from tactical.session.deployment import (
    DEPLOYMENT_RULES,
    ROLL_OFF_RULE,
    ZONE_RULE,
    Deployment,
    RollOff,
    choose_edges,
)
from tactical.session.terrain_setup import TERRAIN_RULE, TerrainSetup, seeded_setup
from tactical.threat.fairness import FairnessScore, fairest, score_layout
from tactical.ui.services import TOP_BAR, Services
from tactical.ui.setup_placing import ROTATE_STEP, SetupPlacing
from tactical.ui.widgets import set_shown

SIDE_PANEL = 270
EDGES = ("bottom", "top", "left", "right")
NEW_SEEDS = 1_000_000  # New seed draws below this: six digits fit the entry and copy easily
FAIR_TRIES = 20  # layouts a Fair roll draws (as `tactical terrain --fair`'s default)
SAFE_TINT = (40, 190, 90, 80)  # a zone cell no enemy can hit on turn one
HIT_TINT = (215, 50, 40)  # ... one it can: more alpha for each kind of enemy unit that can
HIT_ALPHA = (55, 15, 110)  # alpha for one kind of unit, more for each other kind, at most


class SetupMode:
    """The table before the game: see the module docstring."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.seed = 1
        self._rolloff_count = 0
        self.rolloff: RollOff | None = None
        self.deployment: Deployment | None = None
        self.placing = SetupPlacing(services, lambda: self.deployment)
        self.confirm: UIConfirmationDialog | None = None
        self._asked_seed: int | None = None
        self._rolled = False  # the terrain shown is a roll of ours (replacing it asks nothing)
        self._fair_ask = False  # the confirmation asked is for a fair roll
        self.score: FairnessScore | None = None
        self._score_key: object = None
        self.shading = True
        self._build(services.manager)
        self.panel.hide()

    def _build(self, m: pygame_gui.UIManager) -> None:
        self.panel = c = UIPanel(pygame.Rect(0, 0, SIDE_PANEL, 660), manager=m)
        UILabel(pygame.Rect(8, 6, 250, 22), f"Terrain ({TERRAIN_RULE})", m, container=c)
        UILabel(pygame.Rect(4, 32, 48, 28), "Seed", m, container=c)
        self.seed_entry = UITextEntryLine(pygame.Rect(52, 32, 68, 28), m, container=c)
        self.seed_entry.set_text("1")
        self.roll_button = UIButton(pygame.Rect(124, 32, 56, 28), "Roll", m, container=c)
        self.reroll_button = UIButton(
            pygame.Rect(182, 32, 78, 28),
            "New seed",
            m,
            container=c,
            tool_tip_text="roll the terrain with a fresh random seed (shown in Seed)",
        )
        UILabel(pygame.Rect(8, 70, 250, 22), f"Deployment ({DEPLOYMENT_RULES})", m, container=c)
        self.rolloff_button = UIButton(pygame.Rect(8, 96, 90, 28), "Roll-off", m, container=c)
        self.edge_menu = UIDropDownMenu(
            ["edge…", *EDGES], "edge…", pygame.Rect(104, 96, 100, 28), m, container=c
        )
        self.clear_zones = UIButton(pygame.Rect(208, 96, 54, 28), "Free", m, container=c)
        self.rolloff_label = UITextBox("", pygame.Rect(8, 128, 254, 72), m, container=c)
        UILabel(pygame.Rect(8, 204, 254, 22), "Selected unit pose", m, container=c)
        self.pose_entries: dict[str, UITextEntryLine] = {}
        for i, key in enumerate(("x", "y", "heading")):
            UILabel(pygame.Rect(8 + i * 84, 228, 80, 20), key, m, container=c)
            self.pose_entries[key] = UITextEntryLine(
                pygame.Rect(8 + i * 84, 250, 80, 28), m, container=c
            )
        UILabel(pygame.Rect(8, 286, 254, 22), "Fairness of the table", m, container=c)
        self.fair_button = UIButton(
            pygame.Rect(8, 310, 120, 28),
            "Fair roll",
            m,
            container=c,
            tool_tip_text=f"roll the terrain {FAIR_TRIES} times ({TERRAIN_RULE}) and keep the "
            "fairest table (its seed shown in Seed)",
        )
        self.shading_button = UIButton(
            pygame.Rect(134, 310, 128, 28),
            "Hide shading",
            m,
            container=c,
            tool_tip_text="shade each deployment zone: red where the enemy can hit it on "
            "turn one, green where it cannot",
        )
        self.fairness_box = UITextBox("", pygame.Rect(8, 342, 254, 310), m, container=c)

    # ------------------------------------------------------------------ the mode's frame

    def layout(self, size: tuple[int, int]) -> None:
        self.panel.set_relative_position((size[0] - SIDE_PANEL - 4, TOP_BAR + 4))

    def show(self, visible: bool) -> None:
        set_shown(self.panel, visible)
        if not visible:
            self.placing.cancel()

    def widgets(self) -> list:
        if self.confirm is not None and self.confirm.alive():
            return [self.panel, self.confirm]
        return [self.panel]

    def typing(self) -> bool:
        return any(entry.is_focused for entry in (self.seed_entry, *self.pose_entries.values()))

    def forget_table(self) -> None:
        """A new map: its roll-off and zones are not this one's."""
        self.rolloff = self.deployment = None
        self.placing.cancel()
        self._rolled = False

    # ------------------------------------------------------------------ input

    def ui_event(self, event: pygame.event.Event) -> bool:
        """A pygame_gui event of the setup panel; True when it was ours."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            actions = {
                self.roll_button: lambda: self.request_terrain(self._seed_from_entry()),
                self.reroll_button: lambda: self.request_terrain(secrets.randbelow(NEW_SEEDS)),
                self.rolloff_button: self.do_roll_off,
                self.clear_zones: self.free_placement,
                self.fair_button: self.request_fair_roll,
                self.shading_button: self.toggle_shading,
            }
            action = actions.get(event.ui_element)
            if action is not None:
                action()
                return True
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.edge_menu and event.text in EDGES:
                self.choose_edge(event.text)
                return True
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            if event.ui_element in self.pose_entries.values():
                self.apply_pose_entries()
                return True
            if event.ui_element is self.seed_entry:
                self.request_terrain(self._seed_from_entry())
                return True
        elif (
            event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED
            and event.ui_element is self.confirm
            and self._asked_seed is not None
        ):
            seed, self._asked_seed = self._asked_seed, None
            if self.confirm.alive():
                self.confirm.kill()
            if self._fair_ask:
                self.fair_roll(seed)
            else:
                self.roll_terrain(seed)
            return True
        return False

    def key(self, event: pygame.event.Event) -> bool:
        """Q / E rotate the selected unit (Shift: by 1°)."""
        if event.key in (pygame.K_q, pygame.K_e):
            step = 1.0 if event.mod & pygame.KMOD_SHIFT else ROTATE_STEP
            self.placing.rotate_selected(-step if event.key == pygame.K_q else step)
            return True
        return False

    def escape(self) -> None:
        self.placing.cancel()

    # ------------------------------------------------------------------ terrain and deployment

    def _seed_from_entry(self) -> int:
        try:
            return int(self.seed_entry.get_text().strip())
        except ValueError:
            return self.seed

    def request_terrain(self, seed: int, fair: bool = False) -> None:
        """Roll, but first ask before replacing terrain the table came with (a scenario's)."""
        self.seed_entry.set_text(str(seed))
        pieces = len(self.services.state.terrain)
        self._fair_ask = fair
        if pieces and not self._rolled:
            size = self.services.size
            rect = pygame.Rect(0, 0, 440, 200)
            rect.center = (size[0] // 2, size[1] // 2)
            self._asked_seed = seed
            self.confirm = UIConfirmationDialog(
                rect,
                f"Replace this table's {pieces} terrain pieces with "
                + (f"the fairest of {FAIR_TRIES} random tables" if fair else "random terrain")
                + f" (seed {seed})? Ctrl+O reopens the map to get them back.",
                self.services.manager,
                window_title="Random terrain",
                action_short_name="Replace",
            )
            self.services.set_status(f"seed {seed}: confirm to replace the table's terrain")
            return
        if fair:
            self.fair_roll(seed)
        else:
            self.roll_terrain(seed)

    def request_fair_roll(self) -> None:
        """Fair roll: the fairest of FAIR_TRIES layouts from a fresh seed (asks first, as Roll)."""
        self.request_terrain(secrets.randbelow(NEW_SEEDS), fair=True)

    def fair_roll(self, seed: int) -> None:
        """R002.9 from `seed` and the FAIR_TRIES - 1 seeds after it, each laid as Roll lays
        one; the fairest for the fleets on the table is kept and its seed shown."""
        services = self.services
        state = services.state
        try:
            kept = fairest(
                state,
                range(seed, seed + FAIR_TRIES),
                self._first_edge(),
                avoid=self._avoid(),
                keep_clear=[unit.footprint for unit in state.units],
            )
        except UserError as error:
            services.set_status(f"no fair roll: {error.describe()}")
            return
        self._show_setup(kept.seed, kept.setup)
        services.set_status(
            f"fair roll: seed {kept.seed}, the fairest of {FAIR_TRIES} tables with terrain, "
            f"{kept.score.summary()} ({TERRAIN_RULE})"
        )

    def toggle_shading(self) -> None:
        self.shading = not self.shading
        self.shading_button.set_text("Hide shading" if self.shading else "Show shading")

    def _avoid(self) -> tuple:
        return tuple(self.deployment.zones.values()) if self.deployment else ()

    def _first_edge(self) -> str | None:
        """The edge of the first side's zone: the roll-off's, else (None) the edge its units
        stand nearest."""
        state = self.services.state
        if self.deployment is not None:
            for side in state.sides:
                if side in self.deployment.edges:
                    return self.deployment.edges[side]
        return None

    def roll_terrain(self, seed: int) -> None:
        """R002.9 with dice and placement seeded from `seed`; every area's rolls shown. No
        piece is placed under a unit (the placing side's choice of spot, see
        `terrain_setup.setup_terrain`)."""
        services = self.services
        footprints = [unit.footprint for unit in services.state.units]
        setup = seeded_setup(services.state.board, seed, avoid=self._avoid(), keep_clear=footprints)
        self._show_setup(seed, setup)
        unplaced = sum(area.unplaced for area in setup.areas)
        note = f", {unplaced} found no spot clear of the units" if unplaced else ""
        services.set_status(
            f"terrain seed {seed}: {len(setup.terrain)} pieces placed{note} ({TERRAIN_RULE})"
        )

    def _show_setup(self, seed: int, setup: TerrainSetup) -> None:
        """The rolled terrain on the table, its seed in the entry, every area's rolls shown."""
        services = self.services
        self._rolled = True
        self.seed = seed
        self.seed_entry.set_text(str(seed))
        services.set_state(services.state.with_terrain(setup.terrain))
        labels = tuple(
            (area.area, " / ".join(f"{side} {roll}" for side, roll in area.rolls.items()))
            for area in setup.areas
        )
        services.set_view(replace(services.view, area_rolls=labels))

    # ------------------------------------------------------------------ fairness

    def update_fairness(self) -> None:
        """Score the table when its terrain, fleets or zones changed (not while dragging:
        the score is of the table as it stands)."""
        state = self.services.state
        edge = self._first_edge()
        chosen = self.deployment is not None  # the panel says whether the zones are chosen
        key = (state.rules, state.board, state.terrain, state.units, state.options, edge, chosen)
        if key == self._score_key:
            return
        self._score_key = key
        try:
            self.score = score_layout(state, edge)
        except UserError as error:
            self.score = None
            self.fairness_box.set_text(error.describe())
            return
        self.fairness_box.set_text(fairness_html(self.score, not chosen))

    def draw(self, surface: pygame.Surface) -> None:
        """The zones shaded by what the enemy can hit there on turn one."""
        self.update_fairness()
        if not self.shading or self.score is None:
            return
        camera = self.services.view.camera
        half = self.score.grid / 2
        size = max(1, math.ceil(self.score.grid * camera.scale))
        cell = pygame.Surface((size, size), pygame.SRCALPHA)
        for zone in self.score.zones:
            for (x, y), hits in zip(zone.points, zone.hits, strict=True):
                rect = pygame.Rect(camera.screen_rect((x - half, y - half, x + half, y + half)))
                if hits:
                    first, more, most = HIT_ALPHA
                    cell.fill((*HIT_TINT, min(most, first + more * (int(hits) - 1))))
                else:
                    cell.fill(SAFE_TINT)
                surface.blit(cell, rect.topleft)

    def do_roll_off(self) -> None:
        """R002.16: 2D6 each, ties re-roll; the dice shown, the winner picks an edge."""
        state = self.services.state
        sides = state.sides[:2] if len(state.sides) >= 2 else ("A", "B")
        # a fresh, reproducible throw each press: the terrain seed and the press count
        self._rolloff_count += 1
        self.rolloff = seeded_roll_off(self.seed, self._rolloff_count, sides)
        self.rolloff_label.set_text(roll_off_html(self.rolloff))
        self.services.set_status(
            f"roll-off: {self.rolloff.winner} wins and picks an edge ({ROLL_OFF_RULE})"
        )

    def choose_edge(self, edge: str) -> None:
        if self.rolloff is None:
            self.services.set_status(f"roll off first: the winner picks the edge ({ROLL_OFF_RULE})")
            return
        sides = tuple(self.rolloff.rounds[0].dice)
        self.deployment = choose_edges(self.services.state.board, self.rolloff.winner, edge, sides)
        edges = ", ".join(f"{s}: {e}" for s, e in self.deployment.edges.items())
        self.services.set_status(
            f"deployment zones {edges}: drag units into their zone ({ZONE_RULE})"
        )

    def free_placement(self) -> None:
        self.deployment = None
        self.services.set_status("free placement: units move anywhere on the table")

    def apply_pose_entries(self) -> None:
        """The typed x, y and heading set the selected unit's exact pose."""
        services = self.services
        unit_id = services.view.selected
        if unit_id is None:
            services.set_status("select a unit first, then type its x, y and heading")
            return
        try:
            x, y, heading = (float(self.pose_entries[k].get_text()) for k in ("x", "y", "heading"))
        except ValueError:
            services.set_status("x, y and heading must be numbers (inches, degrees)")
            return
        if not all(math.isfinite(v) for v in (x, y, heading)):
            services.set_status("x, y and heading must be finite numbers")
            return
        self.placing.place_unit(unit_id, (x, y), normalise_heading(heading))

    def update_pose_entries(self) -> None:
        """The selected unit's pose in the entries (not while one is being typed in)."""
        state = self.services.state
        unit_id = self.services.view.selected
        if unit_id is None or not state.has_unit(unit_id):
            values = ("", "", "")
        else:
            unit = state.unit(unit_id)
            values = (f"{unit.x:.2f}", f"{unit.y:.2f}", f"{unit.heading:g}")
        for entry, value in zip(self.pose_entries.values(), values, strict=True):
            if not entry.is_focused:
                entry.set_text(value)
