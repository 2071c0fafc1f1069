"""The play screen's threat layers, one key each: R reach, T threat map (Shift+T: whose
danger it shows, either side's), V move advice, and K the adjudication card of the
selected and hovered units.

`ThreatOverlays` keeps what is switched on and what was computed for which table
(`tactical.threat`: reach, heatmap, advice; one odds cache for the whole game), draws it
over the table each frame (the heatmap as one scaled picture, cached per camera) and
names it in the legend. Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from tactical.errors import UserError
from tactical.model import GameState
from tactical.threat.advice import Advice, move_advice
from tactical.threat.damage import DamageCache
from tactical.threat.heatmap import ThreatMap, threat_map
from tactical.threat.reach import Reach, reach
from tactical.ui.background import PENDING, Background
from tactical.ui.camera import Camera
from tactical.ui.card import write_card
from tactical.ui.files import free_name
from tactical.ui.fonts import Fonts
from tactical.ui.layers import LegendEntry, UnitShapes, draw_units
from tactical.ui.threat_layer import (
    draw_advice,
    draw_reach,
    heat_picture,
    threat_legend,
)
from tactical.ui.view import ViewState

THREAT_MODES = ("off", "weapons", "damage")
KEYS = {
    pygame.K_r: "reach",
    pygame.K_t: "threat",
    pygame.K_v: "advice",
    pygame.K_k: "card",
}


class ThreatOverlays:
    """Toggles and cached results of the threat layers (see the module docstring)."""

    def __init__(self) -> None:
        self.show_reach = False
        self.threat_mode = "off"
        self.threat_side: str | None = None  # whose danger the map shows (None: the side to act)
        self.show_advice = False
        self.cache = DamageCache()
        self._threat: tuple[tuple, ThreatMap] | None = None
        self._reach: tuple[tuple, Reach] | None = None
        self._advice = Background()
        self._announce: Callable[[str], None] | None = None
        self._picture: tuple[tuple, tuple[pygame.Surface, tuple[int, int]] | None] | None = None

    @property
    def active(self) -> bool:
        return self.show_reach or self.threat_mode != "off" or self.show_advice

    # ------------------------------------------------------------------ keys

    def key(
        self,
        event: pygame.event.Event,
        state: GameState,
        selected: str | None,
        hovered: str | None,
        side: str,
        status: Callable[[str], None],
    ) -> bool:
        """R, T, V, K (without Ctrl): switch a layer or write a card. True when used."""
        what = KEYS.get(event.key)
        if what is None or event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            return False
        try:
            if what == "reach":
                self.show_reach = not self.show_reach
                status(self._reach_status(state, selected) if self.show_reach else "reach off")
            elif what == "threat" and event.mod & pygame.KMOD_SHIFT:
                self.threat_side = self._other_side(state, side)
                if self.threat_mode == "off":
                    self.threat_mode = "weapons"
                status(self._threat_status(state, selected, side))
            elif what == "threat":
                self.threat_mode = THREAT_MODES[
                    (THREAT_MODES.index(self.threat_mode) + 1) % len(THREAT_MODES)
                ]
                status(self._threat_status(state, selected, side))
            elif what == "advice":
                self.show_advice = not self.show_advice
                status(self._advice_status(state, selected) if self.show_advice else "advice off")
                # the best move is said once the background work has it
                self._announce = status if self.show_advice else None
            else:
                status(self._write_card(state, selected, hovered))
        except UserError as error:
            status(error.describe())
        return True

    def shown_side(self, state: GameState, side: str) -> str:
        """The side whose danger the threat map shows: the one Shift+T chose, else `side`
        (the side to act)."""
        return self.threat_side if self.threat_side in state.sides else side

    def _other_side(self, state: GameState, side: str) -> str | None:
        """The side after the one shown, in the table's order (Shift+T)."""
        sides = state.sides
        if not sides:
            return None
        shown = self.shown_side(state, side)
        return sides[(sides.index(shown) + 1) % len(sides)] if shown in sides else sides[0]

    def _reach_status(self, state: GameState, selected: str | None) -> str:
        found = self.reach(state, selected)
        if found is None:
            return "reach: select a unit first"
        name = state.shown_names[found.unit_id]
        return f"reach of {name}: {len(found)} legal end positions (R hides it)"

    def _threat_status(self, state: GameState, selected: str | None, side: str) -> str:
        if self.threat_mode == "off":
            return "threat map off"
        found = self.threat(state, selected, side)
        if found is None:
            return "threat map: this rule system has no combat"
        shown = self.shown_side(state, side)
        sides = state.sides
        other = sides[(sides.index(shown) + 1) % len(sides)] if shown in sides else ""
        switch = f"; Shift+T: {other}'s" if other and other != shown else ""
        if self.threat_mode == "damage" and found.damage is None:
            return (
                f"threat map: danger to {shown}; select one of {shown}'s units to see the "
                f"damage it would take (T: next view{switch})"
            )
        what = (
            f"expected damage to {state.shown_names[found.target]} ({found.measure or 'none'})"
            if self.threat_mode == "damage" and found.target
            else f"enemy weapons that could bear on {shown}"
        )
        return f"threat map: danger to {shown}, {what} (T: next view{switch})"

    def _advice_status(self, state: GameState, selected: str | None) -> str:
        if selected is None or not state.has_unit(selected):
            return "advice: select a unit first"
        advice = self.advice_ready(state, selected)
        if advice is PENDING:
            name = state.shown_names[selected]
            return f"advice: working out the best moves of {name}... (V hides it)"
        if not advice:
            return "advice: no legal move found"
        best = advice[0]
        return (
            f"advice: best {best.path}, deals {best.dealt:.2f}, takes {best.taken:.2f} "
            "(nothing is moved; V hides it)"
        )

    def _write_card(self, state: GameState, selected: str | None, hovered: str | None) -> str:
        if selected is None or hovered is None or selected == hovered:
            return "card: select the firer, hover the target, then press K"
        target = free_name("tactical-card", ".png")
        written = write_card(state, selected, hovered, target)
        names = state.shown_names
        return f"adjudication card, {names[selected]} firing on {names[hovered]}: wrote {written}"

    # ------------------------------------------------------------------ results

    def threat(self, state: GameState, selected: str | None, side: str) -> ThreatMap | None:
        """The heatmap of the danger to the side shown (`shown_side`: the side to act unless
        Shift+T chose the other), the damage to the selected unit if it is theirs."""
        from tactical.rules import registry

        side = self.shown_side(state, side)
        if not registry.get(state.rules).has_combat or side not in state.sides:
            return None
        unit = selected if selected and state.has_unit(selected) else None
        if unit is not None and state.unit(unit).side != side:
            unit = None
        if unit is None and not any(u.side == side for u in state.units):
            return None
        key = (id(state), state.units, side, unit)
        if self._threat is None or self._threat[0] != key:
            self._threat = (key, threat_map(state, side, unit, cache=self.cache))
        return self._threat[1]

    def reach(self, state: GameState, selected: str | None) -> Reach | None:
        if selected is None or not state.has_unit(selected):
            return None
        key = (state.units, state.terrain, state.options, selected)
        if self._reach is None or self._reach[0] != key:
            self._reach = (key, reach(state, selected))
        return self._reach[1]

    def advice(self, state: GameState, selected: str | None) -> tuple[Advice, ...] | None:
        """The selected unit's advised moves, worked out now if need be (waits for it)."""
        if selected is None or not state.has_unit(selected):
            return None
        key = (state.units, state.terrain, state.options, selected)
        found = self._advice.wait(key, lambda: self._compute_advice(state, selected))
        return found

    def advice_ready(self, state: GameState, selected: str | None):
        """The advised moves if they are worked out, else `PENDING` while a background
        thread works them out (a cold odds cache takes up to about a second: the frames go
        on meanwhile). None without a unit."""
        if selected is None or not state.has_unit(selected):
            return None
        key = (state.units, state.terrain, state.options, selected)
        return self._advice.get(key, lambda: self._compute_advice(state, selected))

    def _compute_advice(self, state: GameState, selected: str) -> tuple[Advice, ...]:
        from tactical.rules import registry

        if not registry.get(state.rules).has_combat:
            return ()
        side = state.unit(selected).side
        threat = threat_map(state, side, selected, cache=self.cache)
        found = reach(state, selected)
        return move_advice(state, selected, cache=self.cache, threat=threat, found=found)

    # ------------------------------------------------------------------ drawing

    def draw(
        self,
        surface: pygame.Surface,
        camera: Camera,
        state: GameState,
        selected: str | None,
        side: str,
        fonts: Fonts,
        shapes: UnitShapes,
        labels: Callable[[pygame.Surface], None] | None = None,
    ) -> None:
        """The layers switched on, over the table (the bases drawn again over the heat, and
        `labels`: the names the table shows, as they were placed)."""
        if not self.active:
            return
        try:
            if self.threat_mode != "off":
                found = self.threat(state, selected, side)
                if found is not None:
                    self._draw_heat(surface, camera, state, found)
                    draw_units(surface, camera, shapes, fonts, selected, labels=False)
                    if labels is not None:
                        labels(surface)
            if self.show_reach and (found_reach := self.reach(state, selected)) is not None:
                draw_reach(surface, camera, found_reach)
            advice = self.advice_ready(state, selected) if self.show_advice else None
            if advice is not PENDING and self._announce is not None:
                self._announce(self._advice_status(state, selected))
                self._announce = None
            if advice and advice is not PENDING:
                left, top, _, _ = camera.screen_rect(state.board.bounds)
                place = (max(left, 0) + 8, max(top, 0) + 8)
                draw_advice(
                    surface,
                    camera,
                    state.unit(selected),
                    advice,
                    fonts,
                    list_at=place,
                    name=state.shown_names[selected],
                )
        except UserError:
            return  # a table the layers cannot be computed for shows none

    def _draw_heat(
        self, surface: pygame.Surface, camera: Camera, state: GameState, found: ThreatMap
    ) -> None:
        damage = self.threat_mode == "damage"
        key = (id(found), damage, camera)
        if self._picture is None or self._picture[0] != key:
            self._picture = (key, heat_picture(camera, state.board, found, damage))
        if self._picture[1] is not None:
            surface.blit(*self._picture[1])

    def scene_legend(self, state: GameState, view: ViewState, side: str) -> tuple[LegendEntry, ...]:
        """The legend entries the table shows: the layers' in play mode, none elsewhere."""
        return self.legend(state, view.selected, side) if view.mode == "play" else ()

    def legend(self, state: GameState, selected: str | None, side: str) -> tuple[LegendEntry, ...]:
        """Legend entries of the layers switched on."""
        if not self.active:
            return ()
        try:
            found = self.threat(state, selected, side) if self.threat_mode != "off" else None
            found_reach = self.reach(state, selected) if self.show_reach else None
            advice = self.advice_ready(state, selected) if self.show_advice else ()
            advice = () if advice is None or advice is PENDING else advice
        except UserError:
            return ()
        return tuple(
            threat_legend(
                found,
                self.threat_mode == "damage",
                found_reach,
                advice,
                names=state.shown_names,
            )
        )
