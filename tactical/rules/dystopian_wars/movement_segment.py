"""Segment 2 of an activation (R002.28), as choices and actions: 2a generator boosts
(R002.45, R002.48), launching a Wing (R002.61), each model's move (R002.30) or the Wing's
move in formation (R002.52), the end of movement; 2b the collisions with terrain
(Treacherous Terrain Tests, R002.35) and the rams. A failed Treacherous Terrain roll near
the Fleet Commodore offers its re-roll (R002.10 option a).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.geometry.shapes import Pose
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import Action, ActionChoice, Event, Field, Resolution, unit_name
from tactical.rules.dystopian_wars import (
    close_quarters,
    command,
    flyers,
    generators,
    maneuver,
    resolving,
    tracking,
)
from tactical.rules.dystopian_wars.cards import card, squadron_units
from tactical.rules.dystopian_wars.dicework import d6
from tactical.rules.dystopian_wars.schema import WING_TYPES
from tactical.rules.dystopian_wars.sequence import (
    Handler,
    choice,
    generator_flags,
    member,
    need_stage,
    options_of,
    params_of,
    set_activation,
    turn_number,
)

# --------------------------------------------------------------------------- choices


def movement_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    """R002.28 segment 2a: the Wing's move in formation, each model's Launch, generator
    boost and move, and the end of movement."""
    found = []
    moved = set(act.get("moved", ()))
    boosts = tracking.mapping(state, "boosts")
    wing = tuple(u for u in squadron_units(state, act["squadron"]) if card(u).is_tiny_flyer)
    path = maneuver.default_wing_path(state, wing) if wing and not moved else None
    if path is not None:
        found.append(
            choice(
                "move-wing",
                act["side"],
                "Move the Wing in formation",
                Field("path", "str", required=True, default=path, doc='e.g. "F10"'),
                spec="R002.52",
            )
        )
    for unit in squadron_units(state, act["squadron"]):
        if unit.id in moved or tracking.adrift(state, unit.id) or card(unit).is_tiny_flyer:
            continue
        profile = card(unit)
        if profile.is_carrier and not act.get("launched") and flyers.aboard(state, unit) >= 1:
            count = min(5, flyers.aboard(state, unit))
            wing_type = "fighter" if count >= 3 else "recon"
            found.append(
                choice(
                    "launch",
                    unit.id,
                    f"{unit_name(state, unit.id)}: launch a Wing",
                    Field("wing_type", "str", required=True, default=wing_type, choices=WING_TYPES),
                    Field(
                        "count",
                        "int",
                        required=True,
                        default=1 if wing_type == "recon" else count,
                        low=1,
                        high=flyers.aboard(state, unit),
                    ),
                    Field("x", "float", doc="first Tiny Flyer's position (default: beside)"),
                    Field("y", "float"),
                    Field("heading", "float", low=0, high=360),
                    spec="R002.61",
                )
            )
        rolled = tuple(boosts.get(unit.id) or ())
        # R002.48: each generator boosts once; a Tesla boost may join a Kinetic one
        if not rolled or options_of(state)["tesla_with_kinetic"]:
            usable = tuple(
                g for g in ("tesla", "kinetic") if g in profile.generators and g not in rolled
            )
            if usable:
                found.append(
                    choice(
                        "boost",
                        unit.id,
                        f"{unit_name(state, unit.id)}: generator boost",
                        Field(
                            "generator",
                            "str",
                            required=True,
                            default=usable[0],
                            choices=usable,
                            choice_titles=tuple(generators.GENERATOR_NAMES[g] for g in usable),
                        ),
                        spec=generators.BOOST_RULES[usable[0]],
                    )
                )
        found.append(
            choice(
                "move",
                unit.id,
                f"{unit_name(state, unit.id)}: move",
                Field(
                    "path",
                    "str",
                    required=True,
                    default=maneuver.default_path(state, unit),
                    doc='e.g. "F3 P45 F2"',
                    spec_id="GEO002.8",
                ),
                spec="R002.30",
            )
        )
    found.append(choice("end-movement", act["side"], "End movement", spec="R002.28"))
    return tuple(found)


# --------------------------------------------------------------------------- actions


def _under_way(state: GameState, unit: Unit) -> Unit:
    """R002.19: a Derelict model drifts in the End Phase; it does not move in its activation."""
    if tracking.is_derelict(state, unit.id):
        raise UserError(
            f"{unit_name(state, unit.id)} is Derelict: it does not move, it drifts in the End "
            "Phase",
            spec_id="R002.19",
        )
    return unit


def _boost(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "movement")
    unit = _under_way(state, member(state, act, action.actor))
    flags = generator_flags(state, act)(unit)
    return generators.boost(state, unit, str(params_of(action).get("generator", "")), dice, flags)


def _launch(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "movement")
    carrier = _under_way(state, member(state, act, action.actor))
    if carrier.id in act.get("moved", ()):
        raise UserError(
            f"{carrier.id!r} has moved: a Carrier Launches before moving", spec_id="R002.61"
        )
    if act.get("launched"):
        raise UserError("a Carrier Launches one Wing in its activation", spec_id="R002.61")
    params = params_of(action)
    wing_type = str(params.get("wing_type", ""))
    count = params.get("count")
    if not isinstance(count, int) or isinstance(count, bool):
        raise UserError(f"count is a whole number of Tiny Flyers, not {count!r}", spec_id="R002.53")
    start = None
    if params.get("x") is not None and params.get("y") is not None:
        start = Pose(
            float(params["x"]), float(params["y"]), float(params.get("heading", carrier.heading))
        )
    resolution = flyers.launch(state, carrier, wing_type, count, turn_number(state), start)
    new_state = set_activation(resolution.state, launched=carrier.id)
    return Resolution(new_state, resolution.events, resolution.summary)


def _move(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "movement")
    unit = _under_way(state, member(state, act, action.actor))
    if unit.id in act.get("moved", ()):
        raise UserError(f"{unit.id!r} has moved this activation", spec_id="R002.28")
    if card(unit).is_tiny_flyer:
        raise UserError(
            "a Tiny Flyer moves with its Wing (move-wing), keeping the Wing Formation at all times",
            spec_id="R002.52",
        )
    path = str(params_of(action).get("path", "")).strip()
    resolution, collision = maneuver.move(state, unit, path, dice)
    new_state = resolution.state
    moved = (*act.get("moved", ()), unit.id)
    collisions = tuple(act.get("collisions", ())) + ((collision,) if collision else ())
    new_state = set_activation(new_state, moved=moved, collisions=collisions)
    new_state = _treacherous_offer(new_state, unit, resolution.events)
    return Resolution(new_state, resolution.events, resolution.summary)


def _move_wing(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "movement")
    units = tuple(u for u in squadron_units(state, act["squadron"]) if card(u).is_tiny_flyer)
    if not units or {u.id for u in units} & set(act.get("moved", ())):
        raise UserError(
            "move-wing moves a Wing none of whose Tiny Flyers has moved", spec_id="R002.52"
        )
    path = str(params_of(action).get("path", "")).strip()
    resolution, collisions = maneuver.move_wing(state, units, path, dice)
    moved = (*act.get("moved", ()), *(u.id for u in units))
    new_state = set_activation(
        resolution.state, moved=moved, collisions=tuple(act.get("collisions", ())) + collisions
    )
    return Resolution(new_state, resolution.events, resolution.summary)


def _treacherous_offer(state: GameState, unit: Unit, events: tuple[Event, ...]) -> GameState:
    """R002.10 option a: a failed Treacherous Terrain roll near the Fleet Commodore."""
    failed = [e for e in events if e.kind == "treacherous-terrain" and e.get("failed")]
    if (
        not failed
        or not state.has_unit(unit.id)
        or not command.commodore_available(state, unit.side)
    ):
        return state
    letter = command.commodore_option(
        state, unit.side, "treacherous-terrain", state.unit(unit.id), options_of(state)
    )
    if letter is None:
        return state
    offer = FrozenMap(
        kind="treacherous", option=letter, unit=unit.id, turn=str(failed[-1].get("turn"))
    )
    return tracking.put_in(state, "offers", unit.side, offer)


def _end_movement(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "movement")
    units = squadron_units(state, act["squadron"])
    events = []
    if units and card(units[0]).is_tiny_flyer:
        flyers.check_formation(state, act["squadron"])
        events.append(Event.of("wing-formation", "R002.52", wing=act["squadron"], valid=True))
    still = tuple(u.id for u in units if u.id not in act.get("moved", ()))
    events.append(
        Event.of("movement-done", "R002.28", squadron=act["squadron"], did_not_move=still)
    )
    stage = "collisions" if act.get("collisions") else "declare"
    return Resolution(set_activation(state, stage=stage), tuple(events), stage)


def _resolve_collisions(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = need_stage(state, side, "collisions")
    events: list[Event] = []
    outcomes = []
    for record in act.get("collisions", ()):
        if not state.has_unit(record["unit"]):
            continue
        unit = state.unit(record["unit"])
        if record["kind"] == "terrain":
            state, more, failed = _treacherous_damage(
                state, unit, dice, f"collision with {record['obstacle']}", "R002.35"
            )
            events += more
            outcomes.append(("terrain", failed))
        elif state.has_unit(record["obstacle"]):
            target = state.unit(record["obstacle"])
            resolution = close_quarters.ram(state, unit, target, dice)
            state = resolution.state
            events += resolution.events
            outcomes.append(("ram", resolution.summary))
    state = set_activation(state, stage="declare")
    return Resolution(state, tuple(events), tuple(outcomes))


def _treacherous_damage(
    state: GameState, unit: Unit, dice: Dice, why: str, rule: str
) -> tuple[GameState, list[Event], bool]:
    """A Treacherous Terrain Test (external: 1D6, failed on a 1, costing one Hull Point)."""
    value, event = dice.chance(
        lambda source: d6(source, unit.id, f"Treacherous Terrain Test ({why})", rule),
        key=lambda r: r[0],
    )
    rules = maneuver.turning_rules(state, unit)
    failed = value <= rules.treacherous_fails_on
    events = [
        event,
        Event.of("treacherous-terrain", rule, unit=unit.id, roll=value, failed=failed, cause=why),
    ]
    if failed:
        lost = tracking.hull_lost(state, unit.id) + 1
        state = tracking.put_in(state, "hull_lost", unit.id, lost)
        if lost >= card(unit).hull_points:
            state = resolving.destroy(state, unit)
            events.append(Event.of("destroyed", "G.5", unit=unit.id))
    return state, events, failed


HANDLERS: dict[str, Handler] = {
    "boost": _boost,
    "launch": _launch,
    "move": _move,
    "move-wing": _move_wing,
    "end-movement": _end_movement,
    "resolve-collisions": _resolve_collisions,
}
