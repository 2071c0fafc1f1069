"""The Fleet Commodore's re-roll (R002.10), as a choice and an action: a side holding an
offer (a Critical Hit, a Damage Repair or a Treacherous Terrain Test its Fleet Commodore
may re-roll) may re-roll it once a turn; the offer lapses when that side does anything
else (see `play.apply`).
"""

from __future__ import annotations

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import Action, ActionChoice, Event, Resolution, unit_name
from tactical.rules.dystopian_wars import command, maneuver, tracking
from tactical.rules.dystopian_wars.criticals import critical_name
from tactical.rules.dystopian_wars.dicework import critical_roll, d6
from tactical.rules.dystopian_wars.end_phase import repair_test
from tactical.rules.dystopian_wars.sequence import Handler, choice, options_of

# --------------------------------------------------------------------------- choices


def commodore_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    """R002.10: the Fleet Commodore's re-roll of the roll offered to `side`, while unused
    and while its model is on the table (a re-roll for a model gone changes nothing)."""
    offer = tracking.mapping(state, "offers").get(side)
    if offer is None or not command.commodore_available(state, side):
        return ()
    if not _on_table(state, str(offer.get("unit", ""))):
        return ()
    return (
        choice(
            "commodore-reroll",
            side,
            f"Re-roll {_offered_roll(state, offer)} (Fleet Commodore, option {offer['option']})",
            spec="R002.10",
        ),
    )


def _on_table(state: GameState, unit_id: str) -> bool:
    """Whether the model stays on the table (not removed, nor leaving it at the end of a
    simultaneous step)."""
    leaving = tuple(tracking.get(state, "pending_removals", ()))
    return state.has_unit(unit_id) and unit_id not in leaving


def _offered_roll(state: GameState, offer) -> str:
    """The roll on offer, what matters first (a list cuts long titles): "Critical Hit Table 7
    on Ruler", "Damage Repair of Hard Pounding on Ruler", "Treacherous Terrain Test of
    Ruler" (its model is on the table: `commodore_choices`)."""
    unit_id = str(offer.get("unit", ""))
    name = unit_name(state, unit_id)
    code = str(offer.get("code") or "")
    kind = str(offer["kind"])
    if kind == "critical":
        return f"{critical_name(code)} on {name}"
    if kind == "repair":
        return f"Damage Repair of {critical_name(code)} on {name}"
    what = "Treacherous Terrain Test" if kind == "treacherous" else kind
    return f"{what} of {name}"


# --------------------------------------------------------------------------- actions


def _commodore_reroll(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    """R002.10: re-roll the offered roll with the Fleet Commodore (once a turn)."""
    offer = tracking.mapping(state, "offers").get(side)
    if offer is None:
        raise UserError(
            f"{side!r} has no roll its Fleet Commodore may re-roll now", spec_id="R002.10"
        )
    if not command.commodore_available(state, side):
        raise UserError(
            f"{side!r} has used its Fleet Commodore's re-roll this turn", spec_id="R002.10"
        )
    state = tracking.add_to(state, "fc_used", side)
    state = tracking.put_in(state, "offers", side, None)
    unit_id = str(offer["unit"])
    events = [
        Event.of(
            "commodore-reroll",
            "R002.10",
            side=side,
            option=offer["option"],
            roll=offer["kind"],
            unit=unit_id,
        )
    ]
    if not state.has_unit(unit_id):
        return Resolution(state, tuple(events), "gone")
    unit = state.unit(unit_id)
    if offer["kind"] == "critical":
        crit = dice.chance(
            lambda source: critical_roll(source, unit_id, "R002.10"), key=lambda c: c.code
        )
        state = tracking.replace_last_effect(state, unit_id, str(offer["code"]), crit.code)
        return Resolution(state, tuple(events) + crit.events, crit.code)
    if offer["kind"] == "repair":
        ok, more = dice.chance(
            lambda source: repair_test(
                source, unit_id, str(offer["code"]), int(options_of(state)["repair_on"])
            ),
            key=lambda r: r[0],
        )
        if ok:
            state = tracking.remove_effect(state, unit_id, str(offer["code"]))
        return Resolution(state, tuple(events) + more, ok)
    value, event = dice.chance(
        lambda source: d6(source, unit_id, "Treacherous Terrain Test (re-roll)", "R002.10"),
        key=lambda r: r[0],
    )
    failed = value <= maneuver.turning_rules(state, unit).treacherous_fails_on
    if not failed:
        lost = max(0, tracking.hull_lost(state, unit_id) - 1)
        state = tracking.put_in(state, "hull_lost", unit_id, lost or None)
    events += [
        event,
        Event.of("treacherous-terrain", "R002.10", unit=unit_id, roll=value, failed=failed),
    ]
    return Resolution(state, tuple(events), not failed)


HANDLERS: dict[str, Handler] = {
    "commodore-reroll": _commodore_reroll,
}
