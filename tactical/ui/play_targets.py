"""The open declaration's targets and odds on the play screen.

A click on a unit fills the declaration's unit field, hovering a unit it may take shows
that target's odds (computed ahead for every target, nearest first), the targets are
ringed, and the pair panel measures from the attacker (which units, and the
declarations against them: `tactical.present.targets`). The chart on the action panel
is the hovered target's odds, else the declaration's; while a move is drawn, the move
tool's card. `TargetPicking` is a part of `PlayScreen` that owns the hovered target and
what the chart shows; it works through the screen it is given (its `session`,
`services`, `replay`, `actions`, `odds`, `move_tool`).
"""

from __future__ import annotations

from typing import Any

import pygame

from tactical.present.flow import MOVE_KEYS
from tactical.present.odds import odds_caption, waiting_words
from tactical.present.targets import (
    against,
    attacker,
    nearest_targets,
    open_targets,
    takes_a_unit,
)
from tactical.ui.move_preview import move_card
from tactical.ui.move_tool import MoveTool
from tactical.ui.odds_chart import odds_chart


class TargetPicking:
    """The declaration's targets: clicked, hovered, prefetched, ringed; its odds shown."""

    hover_target: str | None = None
    # what the chart shows: (game id, action, status, size, details), None for nothing
    shown_odds: tuple | None = None
    _move_card_for: tuple | None = None  # the move card shown: (draft, plan, size)

    def __init__(self, screen: Any) -> None:
        self.screen = screen

    def _picked(self):
        """The open declaration's choice while one is picked and no move is drawn, in play."""
        screen = self.screen
        if screen.replay is not None or screen.move_tool is not None:
            return None
        return screen.actions.picked

    def click_unit(self, unit_id: str) -> bool:
        """A click on a unit while a declaration is open: it fills a unit field (a target)."""
        screen = self.screen
        actions = screen.actions
        if self._picked() is None:
            return False
        field = actions.offer_unit(unit_id)
        if field is None:
            return False
        spec = next((f for f in actions.picked.fields if f.name == field), None)
        shown = screen.session.state.shown_names.get(unit_id, unit_id)
        screen.services.set_status(f"{spec.label if spec else field}: {shown}")
        self.refresh_odds()
        return True

    def hover(self, unit_id: str | None) -> None:
        """Hovering a unit a declaration could take: its odds are shown (computed ahead)."""
        screen = self.screen
        choice = screen.actions.picked
        target = None
        if (
            unit_id is not None
            and choice is not None
            and screen.move_tool is None
            and unit_id in open_targets(choice, screen.session.state)
        ):
            target = unit_id
        if target != self.hover_target:
            self.hover_target = target
            self.refresh_odds()

    def prefetch_targets(self) -> None:
        """The odds of the picked declaration against every unit it may take, nearest first."""
        screen = self.screen
        choice = screen.actions.picked
        if choice is None or screen.replay is not None:
            return
        state = screen.session.state
        if not takes_a_unit(choice, state):
            return
        actions = nearest_targets(choice, screen.actions.values, state)
        screen.odds.prefetch(screen.session.game, list(actions))

    def pair_source(self) -> str | None:
        """During an attack (a declaration with a unit to take is open), the attacker: the
        pair panel measures from it to the hovered unit."""
        choice = self._picked()
        return None if choice is None else attacker(choice, self.screen.session.state)

    def target_ids(self) -> tuple[str, ...]:
        """Units the open declaration may still take: ringed on the table."""
        choice = self._picked()
        return () if choice is None else open_targets(choice, self.screen.session.state)

    # ------------------------------------------------------------------ the chart

    @property
    def pending(self) -> bool:
        """The odds shown are still being computed."""
        return self.shown_odds is not None and self.shown_odds[2] == "pending"

    def refresh_odds(self) -> None:
        """The chart on the panel: the hovered target's odds, else the declaration's; while a
        move is drawn, the move tool's card."""
        screen = self.screen
        actions = screen.actions
        if screen.move_tool is not None and screen.replay is None:
            self._show_move_card(screen.move_tool)
            return
        self._move_card_for = None
        if screen.replay is not None or actions.picked is None:
            self._show_odds(None, "")
            return
        state = screen.session.state
        hovered = None
        if self.hover_target is not None:
            hovered = against(actions.picked, actions.values, state, self.hover_target)
        action = hovered or actions.action()
        if action is None:
            self._show_odds(None, "")  # the panel shows its own problem line
            return
        game = screen.game
        screen.odds.request(game, action)
        result = screen.odds.get(game, action)
        key = (id(game), action, result.status, actions.odds_size(), actions.details)
        if key == self.shown_odds:
            return
        if result.status == "ready" and result.report is not None:
            target = self.hover_target or ""
            if target and state.has_unit(target):
                target = state.shown_names[target]
            caption = odds_caption(target, result.seconds)
            surface = odds_chart(
                result.report,
                actions.odds_size(),
                screen.services.renderer.fonts,
                details=actions.details,
                caption=caption,
                names={u.id: state.shown_names[u.id] for u in state.units if u.name},
            )
            self._show_odds(surface, caption)
        else:
            self._show_odds(None, waiting_words(result.status, result.message))
        self.shown_odds = key

    def _show_move_card(self, tool: MoveTool) -> None:
        actions = self.screen.actions
        plan = tool.plan
        key = (tool.draft, id(plan), actions.odds_size())
        if key == self._move_card_for:
            return
        self._move_card_for = key
        report = [*tool.report(), (MOVE_KEYS, "hint")]
        surface = move_card(report, actions.odds_size(), self.screen.services.renderer.fonts)
        actions.show_move(surface, plan is not None and plan.legal, tool.draft.path)

    def _show_odds(self, surface: pygame.Surface | None, caption: str) -> None:
        if surface is None:
            self.shown_odds = None
        self.screen.actions.show_odds(surface, caption)
