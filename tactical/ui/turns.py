"""Whose go it really is: the order the rules produced and the sides that can only pass.

The session lets the sides take turns in a phase; the rule system says who may
really act (`RuleSystem.actions`) and, where it keeps one, the order unit by
unit (`RuleSystem.acting_order`: the initiative results, who has acted, who acts
now). The tracker shows that order; the play screen passes at once for a side
the rules give nothing to do while another side can act (a table move does not
count: it is the session's, not the rules'), with the reason in words. Nothing
here names a rule system.
"""

from __future__ import annotations

from dataclasses import dataclass

from tactical.errors import UserError
from tactical.rules.status import OrderEntry, Unavailable
from tactical.session.game import PASS, Game


@dataclass(frozen=True)
class NamedEntry:
    """One unit of the acting order as the tracker shows it."""

    name: str
    side: str
    result: str = ""
    done: bool = False
    acting: bool = False


def acting_order(game: Game) -> tuple[OrderEntry, ...]:
    """The rule system's order for the phase under way (none when it keeps none)."""
    try:
        return tuple(game.system.acting_order(game.state, game.position))
    except UserError:
        return ()


def named_order(game: Game) -> tuple[NamedEntry, ...]:
    """The acting order with each unit by its name."""
    state = game.state
    return tuple(
        NamedEntry(
            state.shown_names.get(e.unit, e.unit),
            e.side,
            e.result,
            e.done,
            e.acting,
        )
        for e in acting_order(game)
    )


def _others_can_act(game: Game, side: str) -> tuple[str, ...]:
    """The other sides the rules offer something to at this moment."""
    found = []
    for other in game.sides:
        if other == side:
            continue
        try:
            if game.system.actions(game.state, game.position, other):
                found.append(other)
        except UserError:
            continue
    return tuple(found)


def only_pass_reason(game: Game, refused: tuple[Unavailable, ...] = ()) -> str | None:
    """Why the side to act can only pass now, in words for the log; None when it can act.

    It can only pass when nothing but a pass is offered, or when the rules offer it
    nothing (the session's free table moves aside) while they name another side's unit
    as acting now or offer another side something: the go is really theirs."""
    if game.over:
        return None
    side = game.side_to_act
    choices = game.choices()
    if not choices:
        return None
    cited = f" ({game.phase_spec_id})" if game.phase_spec_id else ""
    if all(choice.kind == PASS for choice in choices):
        reason = f"{side} passed: nothing else is open to it now"
        if refused:
            first = refused[0]
            rule = f" ({first.spec_id})" if first.spec_id else ""
            reason += f"; {first.title}: {first.reason}{rule}"
        return reason
    if game.rule_choices():
        return None
    state = game.state
    acting = [e for e in acting_order(game) if e.acting]
    if acting and all(e.side != side for e in acting):
        names = ", ".join(state.shown_names.get(e.unit, e.unit) for e in acting)
        verb = "acts" if len(acting) == 1 else "act"
        return f"{side} passed: {names} {verb} now{cited}"
    others = _others_can_act(game, side)
    if others:
        acts = ", ".join(others)
        return f"{side} passed: the rules give it nothing to do now; {acts} to act{cited}"
    return None


__all__ = ["NamedEntry", "acting_order", "named_order", "only_pass_reason"]
