"""The End Phase (R002.19), as choices and actions: the check for the End of Game (turns
or time, A002.20) and the Compulsory Actions, then each side's Damage Repair rolls, the
Broken squadrons' Bravery Tests (R002.27) and the Drift of the Prizes and the Derelict
models (R002.19: a Prize is drifted by its captor, a Derelict by its own fleet), then the
end of the turn (Game Markers rationalised, Game Cards drawn, the next turn).
"""

from __future__ import annotations

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Action, ActionChoice, Event, Field, Resolution, unit_name
from tactical.rules.dystopian_wars import command, maneuver, tracking, victory
from tactical.rules.dystopian_wars.activation_end import close_activation, morale_test
from tactical.rules.dystopian_wars.cards import squadron_units, squadron_words
from tactical.rules.dystopian_wars.criticals import critical_name
from tactical.rules.dystopian_wars.dicework import d6
from tactical.rules.dystopian_wars.sequence import (
    Handler,
    choice,
    current_activation,
    options_of,
    params_of,
    turn_number,
    unit_of,
)

# --------------------------------------------------------------------------- choices


def end_phase_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    """R002.19: the End of Game check, then `side`'s Damage Repairs, Bravery Tests and
    Drifts, and the end of the turn once no side has one left."""
    end = tracking.mapping(state, "end_phase")
    if tracking.get(state, "turn_closed"):
        return ()
    if not end.get("started"):
        fields = ()
        if tracking.mapping(state, "setup").get("game_length") == "time":
            fields = (Field("time_up", "bool", default=False, spec_id="A002.20"),)
        return (
            choice("end-phase", side, "End Phase: check for End of Game", *fields, spec="R002.19"),
        )
    found = []
    for unit in repairable(state, side):
        found.append(
            choice(
                "damage-repair",
                unit.id,
                f"{unit_name(state, unit.id)}: Damage Repair",
                spec="R002.19",
            )
        )
    for key in bravery_due(state, side):
        found.append(
            choice(
                "bravery-test",
                side,
                f"Bravery Test: the {squadron_words(state, key)}",  # not "B:frigates"
                Field("squadron", "str", required=True, default=key, choices=(key,)),
                spec="R002.27",
            )
        )
    for unit in drifting(state, side):
        found.append(
            choice("drift", unit.id, f"{unit_name(state, unit.id)}: Drift", spec="R002.19")
        )
    if not any(
        repairable(state, s) or bravery_due(state, s) or drifting(state, s) for s in state.sides
    ):
        found.append(choice("end-turn", side, "End the turn", spec="R002.19"))
    return tuple(found)


def repairable(state: GameState, side: str) -> tuple[Unit, ...]:
    """R002.19: `side`'s models with critical effects still to roll Damage Repair for."""
    done = set(tracking.mapping(state, "end_phase").get("repaired", ()))
    return tuple(
        u
        for u in state.units
        if u.side == side
        and u.id not in done
        and tracking.effects(state, u.id)
        and not tracking.is_prize(state, u.id)
    )


def bravery_due(state: GameState, side: str) -> tuple[str, ...]:
    """R002.27: `side`'s Broken squadrons still to take a Bravery Test."""
    done = set(tracking.mapping(state, "end_phase").get("bravery", ()))
    return tuple(
        key
        for key in tracking.get(state, "broken", ())
        if key.startswith(f"{side}:") and key not in done and squadron_units(state, key)
    )


def drifting(state: GameState, side: str) -> tuple[Unit, ...]:
    """R002.19: the Prizes `side` captured and its own Derelict models (not Prizes) that
    have still to Drift."""
    done = set(tracking.mapping(state, "end_phase").get("drifted", ()))
    prizes = tracking.mapping(state, "prizes")
    found = [uid for uid, captor in prizes.items() if captor == side]
    found += [
        uid
        for uid in tracking.get(state, "derelicts") or ()
        if uid not in prizes and state.has_unit(uid) and state.unit(uid).side == side
    ]
    return tuple(state.unit(uid) for uid in found if uid not in done and state.has_unit(uid))


# --------------------------------------------------------------------------- actions


def _end_phase(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    if tracking.mapping(state, "end_phase").get("started") or tracking.get(state, "turn_closed"):
        raise UserError("the End Phase has begun", spec_id="R002.19")
    events: list[Event] = []
    if current_activation(state) is not None:
        state, more = close_activation(state)
        events += more
    setup_choices = tracking.mapping(state, "setup")
    turn = turn_number(state)
    time_up = bool(params_of(action).get("time_up", False))
    ends = (
        setup_choices.get("game_length") == "turns"
        and turn >= int(setup_choices.get("game_turns", 6))
    ) or time_up
    events.append(Event.of("end-of-game-check", "R002.19", turn=turn, ends=ends, time_up=time_up))
    if ends:
        state, more = victory.end_of_game(state)
        return Resolution(state, tuple(events + more), "game-over")
    events.append(Event.of("compulsory-actions", "R002.19", performed=()))
    state = tracking.put(state, end_phase=FrozenMap(started=True))
    return Resolution(state, tuple(events), "tests")


def _end_phase_mark(state: GameState, key: str, item: str) -> GameState:
    end = tracking.plain(tracking.mapping(state, "end_phase"))
    end[key] = (*end.get(key, ()), item)
    return tracking.put(state, end_phase=FrozenMap(end))


def _need_end_phase(state: GameState) -> None:
    if not tracking.mapping(state, "end_phase").get("started"):
        raise UserError("the End Phase has not begun (end-phase first)", spec_id="R002.19")


def repair_test(dice: Dice, unit: str, code: str, repair_on: int) -> tuple[bool, tuple[Event, ...]]:
    """A Damage Repair roll for one critical effect (external: 1D6, repaired on `repair_on`+)."""
    value, event = d6(dice, unit, f"Damage Repair ({critical_name(code)})", "R002.19")
    repaired = value >= repair_on
    return repaired, (
        event,
        Event.of(
            "damage-repair",
            "R002.19",
            unit=unit,
            effect=code,
            name=critical_name(code),
            roll=value,
            needed=repair_on,
            repaired=repaired,
        ),
    )


def _damage_repair(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    _need_end_phase(state)
    unit = unit_of(state, action.actor)
    if unit not in repairable(state, side):
        raise UserError(f"{unit.id!r} has no Damage Repair to make", spec_id="R002.19")
    repair_on = int(options_of(state)["repair_on"])
    events: list[Event] = []
    repaired = []
    failed = None
    for code in tracking.effects(state, unit.id):
        ok, more = dice.chance(
            lambda source, code=code: repair_test(source, unit.id, code, repair_on),
            key=lambda r: r[0],
        )
        events += more
        if ok:
            state = tracking.remove_effect(state, unit.id, code)
            repaired.append(code)
        else:
            failed = code
    state = _end_phase_mark(state, "repaired", unit.id)
    if failed is not None and command.commodore_available(state, side):
        letter = command.commodore_option(state, side, "damage-repair", unit, options_of(state))
        if letter is not None:
            state = tracking.put_in(
                state,
                "offers",
                side,
                FrozenMap(kind="repair", option=letter, unit=unit.id, code=failed),
            )
    return Resolution(state, tuple(events), tuple(repaired))


def _bravery_test(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    _need_end_phase(state)
    key = str(params_of(action).get("squadron", ""))
    if key not in bravery_due(state, side):
        raise UserError(f"{key!r} is not a Broken squadron of {side!r} to test", spec_id="R002.27")
    state, events, failed = morale_test(state, key, dice, "Bravery Test", "R002.27")
    if not failed:
        state = tracking.put(
            state, broken=tuple(k for k in tracking.get(state, "broken", ()) if k != key)
        )
        events.append(Event.of("rallied", "R002.27", squadron=key))
    state = _end_phase_mark(state, "bravery", key)
    return Resolution(state, tuple(events), not failed)


def _drift(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    """R002.19: a Prize or a Derelict drifts in the End Phase (external: 1D6" straight
    ahead, stopping at the first contact or the table's edge)."""
    _need_end_phase(state)
    unit = unit_of(state, action.actor)
    if unit not in drifting(state, side):
        raise UserError(
            f"{unit_name(state, unit.id)} is not a Prize or Derelict model of {side} left to drift",
            spec_id="R002.19",
        )
    value, event = dice.chance(
        lambda source: d6(source, unit.id, "Drift", "R002.19"), key=lambda r: r[0]
    )
    found = maneuver.plan(state, unit, f"F{value}")
    final = found.final  # stopped at the first contact or the edge
    state = state.replace_unit(unit.moved_to(final))
    state = _end_phase_mark(state, "drifted", unit.id)
    events = (
        event,
        Event.of("drift", "R002.19", unit=unit.id, inches=value, stopped_by=found.contact_id),
    )
    return Resolution(state, events, value)


def _end_turn(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    _need_end_phase(state)
    if any(
        repairable(state, s) or bravery_due(state, s) or drifting(state, s) for s in state.sides
    ):
        raise UserError("Damage Repair, Bravery Tests and Drift come first", spec_id="R002.19")
    state, events = close_turn(state)
    return Resolution(state, tuple(events), turn_number(state))


def close_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """Rationalise Game Markers (until-End-Phase effects end), draw Game Cards (external:
    none), and start the next turn."""
    expired = tracking.mapping(state, "until_end")
    turn = turn_number(state)
    state = tracking.put(
        state,
        until_end=FrozenMap(),
        end_phase=FrozenMap(),
        activated=(),
        initiative=None,
        fc_used=(),
        offers=FrozenMap(),
        turn=turn + 1,
        activation=None,
        boosts=FrozenMap(),
        turn_closed=True,
    )
    return state, [
        Event.of("markers-rationalised", "R002.19", expired=FrozenMap(expired)),
        Event.of("game-cards", "R002.19", drawn=()),
        Event.of("turn-ends", "R002.19", turn=turn),
    ]


HANDLERS: dict[str, Handler] = {
    "end-phase": _end_phase,
    "damage-repair": _damage_repair,
    "bravery-test": _bravery_test,
    "drift": _drift,
    "end-turn": _end_turn,
}
