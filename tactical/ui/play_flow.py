"""The flow of play on the play screen: declaring, Next, undo and redo by decision, the
steps the game took, the last roll on the cards.

`PlayFlow` is a part of `PlayScreen` that owns the last step played here (`result`), Next's
question (`warning`) and whether Next asks (`ask_before_pass`). It works through the
screen it is given (its `session`, `services`, `replay`, `ai`, `hold`, `sync`,
`cancel_move`). The steps the rules leave no choice for are the session's
(`tactical.session.forced`): here they are only said on the status line. Next asks
before a pass throws away an attack or a move (`next_warning`); Undo and Redo go by
decision (`Session.undo_decision`: in solo play back to the human's last one; online, a
request the other player accepts or declines, and there is no Redo). Nothing here names
a rule system.
"""

from __future__ import annotations

from typing import Any

import pygame

from tactical.errors import UserError
from tactical.present.flow import passed_words, take_single_words, taken_words
from tactical.present.results import concerned, last_hits, note_lines, step_status
from tactical.rules.base import Action
from tactical.session.forced import pass_loses
from tactical.session.game import PASS, Step
from tactical.ui.next_warning import KEEP, STOP, NextWarning
from tactical.ui.online_play import asks_to_undo


class PlayFlow:
    """Declaring, Next, the forced-steps setting, undo and redo (see the module)."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.result: Step | None = None  # the last step played here (its roll on the cards)
        self.warning: NextWarning | None = None
        self.ask_before_pass = True  # Next asks before it throws away an attack or a move

    def _status(self, text: str) -> None:
        self.screen.services.set_status(text)

    # ------------------------------------------------------------------ declaring

    def do(self, action: Action) -> Step | None:
        """Declare `action` for the side to act (`Session.submit`); a refusal is shown with its
        reason and rule. Online the action is sent: None, and its step comes with `poll`."""
        screen = self.screen
        if screen.replay is not None:
            self._status("replaying: exit the replay to play on")
            return None
        try:
            step = screen.session.submit(action)
        except UserError as error:
            self._status(f"refused: {error.describe()}")
            return None
        if step is None:  # sent: the step comes back through `poll` (`OnlinePlay.update`)
            self._status(screen.session.sent_words())
            return None
        self.result = step
        screen.cancel_move()
        passed = taken_words(screen.session.taken)
        screen.sync()
        self._status(step_status(step) + passed)
        self.warn_autosave()
        screen.services.refresh_card()
        return step

    def warn_autosave(self) -> None:
        """A failed autosave is said at once: the game goes on, but is not kept safe."""
        problem = self.screen.session.autosave_problem
        if problem:
            self._status(f"autosave failed: {problem}")

    def apply_current(self) -> Step | None:
        """Enter / Roll: the declaration on the panel (or the move being drawn)."""
        screen = self.screen
        held = screen.hold()
        if held:  # nothing is declared for the computer, nor once the game is over
            self._status(held[0])
            return None
        if screen.move_tool is not None:
            return screen.confirm_move()
        action = screen.actions.action()
        if action is None:
            self._status(screen.actions.problem or "pick an action on the panel first")
            return None
        return self.do(action)

    # ------------------------------------------------------------------ Next

    def next_go(self, ask: bool = True) -> Step | None:
        """Next: the side to act passes its go (the tracker's Next, key N); not the computer's.
        Where the pass would throw away an attack or a move it asks first, once (unless
        `ask` is False or the player said to stop asking)."""
        screen = self.screen
        if screen.replay is not None:
            return None
        held = screen.hold()
        if held:
            self._status(held[0])
            return None
        question = pass_loses(screen.game) if ask and self.ask_before_pass else None
        if question is not None and self.warning is None:
            services = screen.services
            self.warning = NextWarning(services.manager, services.size, question)
            self._status(f"{question} (Shift+N passes without asking)")
            return None
        self.close_warning()
        session = screen.session
        try:
            step = session.submit(Action(PASS, session.side_to_act))
        except UserError as error:
            self._status(f"refused: {error.describe()}")
            return None
        if step is None:  # online: sent, its step comes back through `poll`
            self._status(session.sent_words("the pass"))
            return None
        screen.cancel_move()
        passed = taken_words(screen.session.taken)
        screen.sync()
        self._status(passed_words(step, screen.game, passed))
        return step

    def close_warning(self) -> None:
        if self.warning is not None:
            self.warning.close()
            self.warning = None

    def warning_event(self, event: pygame.event.Event) -> bool:
        """An answer to Next's question: pass, keep the go, or pass and stop asking."""
        answer = None if self.warning is None else self.warning.command(event)
        if answer is None:
            return False
        self.warning = None
        if answer == KEEP:
            self._status("the go goes on: nothing passed")
            return True
        if answer == STOP:
            self.ask_before_pass = False
        self.next_go(ask=False)
        return True

    def set_take_single(self, take: bool) -> None:
        """The game's setting "Take forced steps for me" (saved with the game); turned on, the
        step now open is taken at once if it is the only one."""
        screen = self.screen
        if screen.replay is not None:
            return
        try:
            screen.session.set_take_single(take)
        except UserError as error:  # online: the server's setting holds
            self._status(error.describe())
            return
        screen.cancel_move()
        screen.sync()
        self._status(take_single_words(take, taken_words(screen.session.taken)))
        self.warn_autosave()

    def toggle_take_single(self) -> None:
        """The top bar's "Auto" toggle: "Take forced steps for me" on or off."""
        self.set_take_single(not self.screen.session.take_single)

    # ------------------------------------------------------------------ going back

    def undo(self) -> None:
        """Back to before the last decision a person made: with it go the steps the game then
        took by itself and, in solo play, the computer's (`Session.undo_decision`)."""
        screen = self.screen
        session = screen.session
        if screen.replay is not None or not session.can_undo:
            self._status("nothing to undo")
            return
        if session.online and not getattr(session, "undo_at_once", False):  # a request
            try:
                session.undo_decision(screen.ai.seats)
            except UserError as error:
                self._status(error.describe())
                return
            self._status("asked the other player to undo the last decision: waiting for the answer")
            screen.sync()
            return
        session.undo_decision(screen.ai.seats)
        screen.cancel_move()
        screen.sync()
        self._status(f"undone: back to step {screen.session.step_number}")

    def redo(self) -> None:
        """The mirror of Undo: the next decision and every step that followed from it."""
        screen = self.screen
        if asks_to_undo(screen.session) and screen.replay is None:
            self._status(
                "Redo: not in an online game (only an undo both players agree to goes back)"
            )
            return
        if screen.replay is not None or not screen.session.can_redo:
            self._status("nothing to redo")
            return
        screen.session.redo_decision(screen.ai.seats)
        screen.sync()
        self._status(f"redone: step {screen.session.step_number}")

    def goto(self, step: int) -> None:
        """The log's slider: the game (or the replay) at step `step`."""
        screen = self.screen
        if screen.replay is not None:
            screen.replay.goto(step)
            screen.sync()
            return
        session = screen.session
        try:
            session.goto(step)
        except UserError as error:
            self._status(error.describe())
            return
        screen.cancel_move()
        screen.sync()
        self._status(f"at step {screen.session.step_number} of {screen.session.history.length}")

    def reset_activation(self) -> None:
        screen = self.screen
        if screen.replay is not None:
            return
        screen.session.reset_activation()
        screen.cancel_move()
        screen.sync()
        self._status(f"reset to the start of the activation: step {screen.session.step_number}")

    # ------------------------------------------------------------------ the cards

    def card_lines(self, unit_id: str) -> tuple[str, ...]:
        """The last roll's words and dice on the card of a unit it concerned."""
        step = self.result
        session = self.screen.session
        if step is None or self.screen.replay is not None or step.number > session.step_number:
            return ()
        if session.game.steps[step.number - 1] is not step:
            return ()  # undone, and another step played in its place
        units = {u.id for u in step.state_before.units} if step.state_before else {unit_id}
        if unit_id not in concerned(step, tuple(units)):
            return ()
        return note_lines(step)

    def last_hits(self, unit_id: str) -> tuple[str, ...]:
        """The latest steps that struck or aimed at the unit, in words, newest first."""
        screen = self.screen
        game = screen.replay.frame().game if screen.replay is not None else screen.session.game
        return last_hits(game, unit_id)
