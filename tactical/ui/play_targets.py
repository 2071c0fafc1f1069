"""The open declaration's targets on the table, during play: a click on a unit fills the
declaration's unit field, hovering a unit it may take shows that target's odds (computed
ahead for every target, nearest first), the targets are ringed, and the pair panel measures
from the attacker. `PlayScreen` is built on `TargetPicking`, as on `GameFiles`.
"""

from __future__ import annotations

from collections.abc import Callable

from tactical.model import FrozenMap
from tactical.rules.base import Action, ActionChoice
from tactical.session.controller import Session
from tactical.session.replay import Replay
from tactical.ui.action_panel import ActionPanel
from tactical.ui.declaration import unit_fields
from tactical.ui.move_tool import MoveTool
from tactical.ui.odds_view import OddsBoard
from tactical.ui.services import Services

MAX_PREFETCH = 40  # targets of one declaration whose odds are computed ahead


class TargetPicking:
    """The declaration's targets: clicked, hovered, prefetched, ringed (see the docstring)."""

    services: Services
    session: Session
    replay: Replay | None
    actions: ActionPanel
    odds: OddsBoard
    _hover_target: str | None
    # the play mode's own, which these read and call (PlayScreen defines them)
    move_tool: MoveTool | None
    refresh_odds: Callable[[], None]

    def click_unit(self, unit_id: str) -> bool:
        """A click on a unit while a declaration is open: it fills a unit field (a target)."""
        if self.replay is not None or self.actions.picked is None or self.move_tool is not None:
            return False
        field = self.actions.offer_unit(unit_id)
        if field is None:
            return False
        spec = next((f for f in self.actions.picked.fields if f.name == field), None)
        shown = self.session.state.shown_names.get(unit_id, unit_id)
        self.services.set_status(f"{spec.label if spec else field}: {shown}")
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
        self.odds.prefetch(self.session.game, actions)

    def pair_source(self) -> str | None:
        """During an attack (a declaration with a unit to take is open), the attacker: the
        pair panel measures from it to the hovered unit."""
        choice = self.actions.picked
        if choice is None or self.move_tool is not None or self.replay is not None:
            return None
        if not self.session.state.has_unit(choice.actor) or not self._open_unit_choices(choice):
            return None
        return choice.actor

    def target_ids(self) -> tuple[str, ...]:
        """Units the open declaration may still take: ringed on the table."""
        choice = self.actions.picked
        if choice is None or self.move_tool is not None or self.replay is not None:
            return ()
        return self._open_unit_choices(choice)
