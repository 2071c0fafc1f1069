"""The flow of play on the play screen: Next, the steps the game took, undo by decision.

A mixin of `PlayScreen` (its `session`, `services`, `replay`, `ai`, `sync`, `hold`,
`cancel_move`, `warn_autosave`). The steps the rules leave no choice for are the
session's (`tactical.session.forced`): here they are only said on the status line.
Next asks before a pass throws away an attack or a move (`next_warning`); Undo and Redo
go by decision (`Session.undo_decision`: in solo play back to the human's last one;
online, a request the other player accepts or declines, and there is no Redo).
Nothing here names a rule system.
"""

from __future__ import annotations

from typing import Any

import pygame

from tactical.errors import UserError
from tactical.rules.base import Action
from tactical.session.forced import pass_loses
from tactical.session.game import PASS, Step
from tactical.ui.next_warning import KEEP, STOP, NextWarning
from tactical.ui.online_play import asks_to_undo


class PlayFlow:
    """Next, the forced-steps setting, undo and redo of the play screen (see the module)."""

    session: Any
    services: Any
    replay: Any
    ai: Any
    warning: NextWarning | None
    ask_before_pass: bool

    def next_go(self, ask: bool = True) -> Step | None:
        """Next: the side to act passes its go (the tracker's Next, key N); not the computer's.
        Where the pass would throw away an attack or a move it asks first, once (unless
        `ask` is False or the player said to stop asking)."""
        if self.replay is not None:
            return None
        held = self.hold()
        if held:
            self.services.set_status(held[0])
            return None
        question = pass_loses(self.game) if ask and self.ask_before_pass else None
        if question is not None and self.warning is None:
            self.warning = NextWarning(self.services.manager, self.services.size, question)
            self.services.set_status(f"{question} (Shift+N passes without asking)")
            return None
        self.close_warning()
        try:
            step = self.session.submit(Action(PASS, self.session.side_to_act))
        except UserError as error:
            self.services.set_status(f"refused: {error.describe()}")
            return None
        if step is None:  # online: sent, its step comes back through `poll`
            self.services.set_status(self.session.sent_words("the pass"))
            return None
        self.cancel_move()
        passed = self.taken_words()
        self.sync()
        game = self.game
        self.services.set_status(
            f"{step.side} passed{passed} · turn {game.turn}, {game.phase_name}: "
            f"{game.side_to_act} to act"
        )
        return step

    def taken_words(self) -> str:
        """The steps the game took by itself after the last decision, for the status line
        ("" when none): the sides that passed, then the steps that were the only ones open."""
        taken = self.session.taken
        passed = list(dict.fromkeys(s.side for s in taken if s.is_pass))
        steps = [s.title for s in taken if not s.is_pass]
        words = ""
        if passed:
            words += " · " + ", ".join(passed) + " passed: nothing was open to them"
        if steps:
            listed = ", ".join(dict.fromkeys(steps))
            words += f" · taken for you (the only step open): {listed}"
        return words

    def close_warning(self) -> None:
        if self.warning is not None:
            self.warning.close()
            self.warning = None

    def warning_event(self, event: pygame.event.Event) -> bool:
        """An answer to Next's question: pass, keep the go, or pass and stop asking."""
        if self.warning is None:
            return False
        answer = self.warning.command(event)
        if answer is None:
            return False
        self.warning = None
        if answer == KEEP:
            self.services.set_status("the go goes on: nothing passed")
            return True
        if answer == STOP:
            self.ask_before_pass = False
        self.next_go(ask=False)
        return True

    def set_take_single(self, take: bool) -> None:
        """The game's setting "Take forced steps for me" (saved with the game); turned on, the
        step now open is taken at once if it is the only one."""
        if self.replay is not None:
            return
        try:
            self.session.set_take_single(take)
        except UserError as error:  # online: the server's setting holds
            self.services.set_status(error.describe())
            return
        self.cancel_move()
        self.sync()
        on = "on: a step that is the only one open is taken for you"
        state = on if take else "off: you click every step yourself"
        self.services.set_status(f"Take forced steps for me: {state}{self.taken_words()}")
        self.warn_autosave()

    def toggle_take_single(self) -> None:
        """The top bar's "Auto" toggle: "Take forced steps for me" on or off."""
        self.set_take_single(not self.session.take_single)

    def undo(self) -> None:
        """Back to before the last decision a person made: with it go the steps the game then
        took by itself and, in solo play, the computer's (`Session.undo_decision`)."""
        if self.replay is not None or not self.session.can_undo:
            self.services.set_status("nothing to undo")
            return
        if self.session.online and not getattr(self.session, "undo_at_once", False):  # a request
            try:
                self.session.undo_decision(self.ai.seats)
            except UserError as error:
                self.services.set_status(error.describe())
                return
            self.services.set_status(
                "asked the other player to undo the last decision: waiting for the answer"
            )
            self.sync()
            return
        self.session.undo_decision(self.ai.seats)
        self.cancel_move()
        self.sync()
        self.services.set_status(f"undone: back to step {self.session.step_number}")

    def redo(self) -> None:
        """The mirror of Undo: the next decision and every step that followed from it."""
        if asks_to_undo(self.session) and self.replay is None:
            self.services.set_status(
                "Redo: not in an online game (only an undo both players agree to goes back)"
            )
            return
        if self.replay is not None or not self.session.can_redo:
            self.services.set_status("nothing to redo")
            return
        self.session.redo_decision(self.ai.seats)
        self.sync()
        self.services.set_status(f"redone: step {self.session.step_number}")
