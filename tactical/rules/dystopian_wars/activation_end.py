"""The end of an activation (R002.28), as choices and actions: segment 4, Boarding Assaults
(R002.26); segment 5, the Break Tests (R002.27); a Wing then Lands on a Carrier (R002.60)
or attaches as Combat Air Patrol (R002.57); and the activation closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Action, ActionChoice, Event, Resolution, unit_name
from tactical.rules.dystopian_wars import close_quarters, command, flyers, tracking
from tactical.rules.dystopian_wars.cards import card, squadron_units, squadron_words, squadrons
from tactical.rules.dystopian_wars.dicework import two_d6
from tactical.rules.dystopian_wars.measures import within_edges
from tactical.rules.dystopian_wars.sequence import (
    Handler,
    choice,
    current_activation,
    member,
    need_stage,
    options_of,
    params_of,
    set_activation,
)
from tactical.rules.values import pick_field

# --------------------------------------------------------------------------- choices


def boarding_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    """R002.28 segment 4: each model that may start a Boarding Assault, and the end of boarding."""
    found = []
    done = set(act.get("boarded", ()))
    options = options_of(state)
    for unit in squadron_units(state, act["squadron"]):
        if unit.id in done or card(unit).assault_points <= 0 or tracking.is_prize(state, unit.id):
            continue
        if command.restricted(state, unit, options):
            continue
        targets = boarding_targets(state, unit)
        if targets:
            found.append(
                choice(
                    "board",
                    unit.id,
                    f"{unit_name(state, unit.id)}: Boarding Assault",
                    pick_field("target", targets),
                    spec="R002.26",
                )
            )
    found.append(choice("end-boarding", act["side"], "End boarding", spec="R002.28"))
    return tuple(found)


def boarding_targets(state: GameState, unit: Unit) -> tuple[str, ...]:
    """The enemy models `unit` may board: at its Height Level, within the boarding range, no
    Tiny Flyers, no Prizes."""
    reach = float(options_of(state)["boarding_range"])
    return tuple(
        t.id
        for t in state.units
        if t.side != unit.side
        and not card(t).is_tiny_flyer
        and not tracking.is_prize(state, t.id)
        and card(t).height == card(unit).height
        and within_edges(unit, t, reach)
    )


def wing_end_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    """R002.60 / R002.57: a Wing Lands on a Carrier in reach or attaches as Combat Air
    Patrol, before the activation ends."""
    side = act["side"]
    found = []
    carriers = flyers.carriers_in_reach(state, act["squadron"])
    if carriers:
        found.append(
            choice(
                "land",
                side,
                "Land the Wing",
                pick_field("carrier", carriers),
                spec="R002.60",
            )
        )
    units = squadron_units(state, act["squadron"])
    if (
        units
        and card(units[0]).wing_type == "fighter"
        and act["squadron"] not in tracking.mapping(state, "cap")
    ):
        parents = _cap_parents(state, act["squadron"])
        if parents:
            found.append(
                choice(
                    "attach-cap",
                    side,
                    "Attach as Combat Air Patrol",
                    pick_field("parent", parents),
                    spec="R002.57",
                )
            )
    found.append(choice("end-activation", side, "End the activation", spec="R002.28"))
    return tuple(found)


def _cap_parents(state: GameState, squadron: str) -> tuple[str, ...]:
    found = []
    for unit in state.units:
        try:
            flyers.attach_cap(state, squadron, unit.id)
        except (UserError, KeyError):
            continue
        found.append(unit.id)
    return tuple(found)


# --------------------------------------------------------------------------- actions


def _board(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "boarding")
    unit = member(state, act, action.actor)
    command.check_boarding(state, unit, options_of(state))
    if unit.id in act.get("boarded", ()):
        raise UserError(f"{unit.id!r} has made its Boarding Assault", spec_id="R002.28")
    target_id = str(params_of(action).get("target", ""))
    if target_id not in boarding_targets(state, unit):
        raise UserError(f"{target_id!r} is not a model {unit.id!r} can board", spec_id="G.5")
    resolution = close_quarters.boarding(state, unit, state.unit(target_id), dice)
    state = set_activation(resolution.state, boarded=(*act.get("boarded", ()), unit.id))
    return Resolution(state, resolution.events, resolution.summary)


def _end_boarding(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    need_stage(state, side, "boarding")
    state = set_activation(state, stage="morale")
    return Resolution(state, (Event.of("boarding-done", "R002.28"),), "morale")


def _break_tests(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "morale")
    events: list[Event] = []
    broken = []
    for key in break_tests_due(state):
        state, more, result = morale_test(state, key, dice, "Break Test", "R002.27")
        events += more
        state = tracking.add_to(state, "tested", key)
        if result:
            state = tracking.add_to(state, "broken", key)
            broken.append(key)
    units = squadron_units(state, act["squadron"])
    if units and card(units[0]).is_tiny_flyer:
        state = set_activation(state, stage="wing-end")
    else:
        state, more = close_activation(state)
        events += more
    return Resolution(state, tuple(events), tuple(broken))


def break_tests_due(state: GameState) -> tuple[str, ...]:
    """Squadrons that must take a Break Test (external: at half strength, once; R002.27 the
    test is for the whole squadron): lost half their models, or a lone model at half its
    Hull Points or less."""
    fleets = tracking.mapping(state, "fleets")
    done = set(tracking.get(state, "tested", ())) | set(tracking.get(state, "broken", ()))
    due = []
    for key, units in squadrons(state).items():
        if key in done or card(units[0]).is_tiny_flyer:
            continue
        side = key.split(":", 1)[0]
        started = [m for m in fleets.get(side, ()) if m["squadron"] == key]
        if len(started) > 1:
            if 2 * len(units) <= len(started):
                due.append(key)
        elif units and 2 * tracking.hull_left(state, units[0]) <= card(units[0]).hull_points:
            due.append(key)
    return tuple(due)


def morale_test(
    state: GameState, key: str, dice: Dice, what: str, rule: str
) -> tuple[GameState, list[Event], bool]:
    """A Break (or Bravery) Test for a whole squadron: 2D6, passed on `morale_pass_max` or less."""
    limit = int(options_of(state)["morale_pass_max"])
    who = squadron_words(state, key)  # the log reads the squadron by name, never its key
    roll, event = dice.chance(
        lambda source: two_d6(source, who, what, rule), key=lambda r: r[0].total <= limit
    )
    passed = roll.total <= limit
    return (
        state,
        [
            event,
            Event.of(
                "morale",
                rule,
                squadron=key,
                test=what,
                total=roll.total,
                pass_max=limit,
                passed=passed,
            ),
        ],
        not passed,
    )


def _wing_end_action(kind: str):
    def handler(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
        act = need_stage(state, side, "wing-end")
        if kind == "land":
            resolution = flyers.land(
                state, act["squadron"], str(params_of(action).get("carrier", ""))
            )
            state, events = close_activation(resolution.state)
            return Resolution(state, resolution.events + tuple(events), resolution.summary)
        if kind == "attach-cap":
            return flyers.attach_cap(
                state, act["squadron"], str(params_of(action).get("parent", ""))
            )
        state, events = close_activation(state)
        return Resolution(state, tuple(events), "closed")

    return handler


def close_activation(state: GameState) -> tuple[GameState, list[Event]]:
    """R002.28: the activation ends (a Wing out of fuel is lost): the squadron has
    activated, the boosts and generator uses lapse."""
    act = current_activation(state)
    assert act is not None
    key = act["squadron"]
    state, events = flyers.out_of_fuel(state, key)
    state = tracking.add_to(state, "activated", key)
    state = tracking.put(state, activation=None, boosts=FrozenMap(), generators_used=FrozenMap())
    return state, [*events, Event.of("activation-done", "R002.28", squadron=key)]


HANDLERS: dict[str, Handler] = {
    "board": _board,
    "end-boarding": _end_boarding,
    "break-tests": _break_tests,
    "land": _wing_end_action("land"),
    "attach-cap": _wing_end_action("attach-cap"),
    "end-activation": _wing_end_action("end-activation"),
}
