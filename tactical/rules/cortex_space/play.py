"""The Cortex Space actions applied: `apply` and one resolver per action kind.

`apply` checks the order of action (R003.11: only the vessels acting now take
activation actions); the resolvers check everything else, most of them those
of `combat`, `missiles`, `manoeuvres`, `collisions`, `bombardment` and `stations`.
`start_turn` is the turn's bookkeeping (per-turn keys reset, missiles a turn
closer and the arrivals striking, R003.39).

The game through the generic protocol is split along its seams: `sequence`
(the turn's phases and the order of action), `choices` (what a side is
offered), this module (the actions applied) and `odds` (the exact outcome
distribution of an action with a roll).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import GameState
from tactical.rules.base import Action, Event, Resolution
from tactical.rules.cortex_space import (
    acting,
    bombardment,
    collisions,
    combat,
    manoeuvres,
    missiles,
    stations,
    tracker,
)
from tactical.rules.cortex_space.sequence import ACTIVATION_KINDS, PASS, current_group, setup
from tactical.rules.cortex_space.units import vessel
from tactical.rules.lookups import table_unit

# --------------------------------------------------------------------------- applying


def _param(params: dict, name: str, default: Any = None) -> Any:
    return params.pop(name, default)


def apply(state: GameState, action: Action, dice: Dice) -> Resolution:
    """Resolve any declared action (see `actions`); a UserError when it is not allowed now."""
    params = dict(action.params)
    kind = action.kind
    if kind == "start-turn":
        return start_turn(state, int(params.get("turn", tracker.turn(state) + 1)), dice)
    if tracker.TURN not in state.rule_state:
        state = setup(state)
    if kind in ACTIVATION_KINDS:
        _check_turn_order(state, action.actor)
    resolver = _RESOLVERS.get(kind)
    if resolver is None:
        raise UserError(
            f"rule system 'cortex-space' has no action {kind!r}: expected one of "
            + ", ".join(("start-turn", *_RESOLVERS))
        )
    resolution = resolver(state, action.actor, params, dice)
    if params:
        raise UserError(f"action {kind!r} takes no {', '.join(sorted(params))}")
    return resolution


def _check_turn_order(state: GameState, actor: str) -> None:
    if not state.has_unit(actor):
        raise UserError(f"unknown unit {actor!r}")
    if tracker.is_done(state, actor):
        raise UserError(f"{actor!r} has ended its activation this turn", spec_id="R003.11")
    group = current_group(state)
    if actor not in group:
        waiting = ", ".join(group) or "nobody"
        raise UserError(
            f"it is not {actor!r}'s turn to act: acting now: {waiting}", spec_id="R003.11"
        )


def start_turn(state: GameState, number: int, dice: Dice) -> Resolution:
    """The turn's bookkeeping: per-turn keys reset, next turn's crew steps made current,
    missiles one turn closer and the arrivals striking (R003.39)."""
    if tracker.TURN not in state.rule_state:
        state = setup(state)
    current = tracker.turn(state)
    if number <= current:
        raise UserError(
            f"turn {current} is already under way (asked to start turn {number})", spec_id="R003.39"
        )
    fresh = tracker.next_turn(state)
    fresh = fresh.with_rule_state(**{tracker.TURN: number})
    impact = missiles.impacts(fresh, dice)
    events = (Event.of("turn", "R003.10", turn=number), *impact.events)
    summary = tuple(
        (target, sum(t.wound for t in key[0]), sum(t.stun for t in key[0]), key[2])
        for target, key in impact.hits
    )
    return Resolution(impact.state, events, summary)


def _attack(state, actor, params, dice) -> Resolution:
    weapon, target = str(_param(params, "weapon", "")), str(_param(params, "target", ""))
    given = {k: params.pop(k) for k in list(params) if k in combat.PARAMS[combat.GUN]}
    attack = combat.declare(state, actor, weapon, target, given)
    return combat.resolve_declared(state, attack, dice)


def _kind_of_attack(kind: str, acting_as: str, not_one: str, spec_id: str, extra: tuple = ()):
    """A handler for an attack with a weapon of `kind` only (its other parameters `extra`)."""

    def handle(state, actor, params, dice) -> Resolution:
        weapon = str(_param(params, "weapon", ""))
        unit = table_unit(state, actor, acting_as)
        if acting.weapon_of(unit, vessel(unit), weapon).kind != kind:
            raise UserError(f"{weapon} is not {not_one}", spec_id=spec_id)
        given = {k: params.pop(k) for k in list(params) if k in extra}
        attack = combat.declare(state, actor, weapon, str(_param(params, "target", "")), given)
        return combat.resolve_declared(state, attack, dice)

    return handle


_lock = _kind_of_attack(combat.MISSILE, "locking", "a missile launcher", "R003.38", ("gunner",))


def _fire(state, actor, params, dice) -> Resolution:
    return missiles.resolve_fire(
        state, actor, str(_param(params, "weapon", "")), str(_param(params, "target", ""))
    )


def _shoot_down(state, actor, params, dice) -> Resolution:
    return missiles.resolve_shoot_down(
        state, actor, str(_param(params, "weapon", "")), str(_param(params, "missile", "")), dice
    )


def _out_fly(state, actor, params, dice) -> Resolution:
    return missiles.resolve_out_fly(state, actor, str(_param(params, "missile", "")), dice)


def _distract(state, actor, params, dice) -> Resolution:
    return missiles.resolve_distract(
        state, actor, str(_param(params, "missile", "")), str(_param(params, "decoy", "")), dice
    )


def _collision(resolve, name: str, rolls: str):
    """A collision handler: what is hit (`name`), and whether its pilot rolls too (`rolls`)."""

    def handle(state, actor, params, dice) -> Resolution:
        also = {rolls: bool(_param(params, rolls, True))}
        return resolve(state, actor, str(_param(params, name, "")), dice, **also)

    return handle


_avoid = _collision(collisions.resolve_avoid, "obstacle", "other_rolls")
_ram = _collision(collisions.resolve_ram, "target", "target_rolls")


def _strafe(state, actor, params, dice) -> Resolution:
    return manoeuvres.resolve_strafe(state, actor, str(_param(params, "target", "")), dice)


def _join(state, actor, params, dice) -> Resolution:
    return manoeuvres.resolve_join(state, actor, str(_param(params, "wing", "")), dice)


def _bombard(state, actor, params, dice) -> Resolution:
    return bombardment.resolve_bombard(
        state,
        actor,
        str(_param(params, "weapon", "")),
        str(_param(params, "target", "")),
        dice,
        spotter=str(_param(params, "spotter", "") or ""),
    )


def _advantage(state, actor, params, dice) -> Resolution:
    return manoeuvres.resolve_advantage(state, actor, str(_param(params, "opponent", "")), dice)


def _initiative(state, actor, params, dice) -> Resolution:
    return manoeuvres.resolve_initiative(state, actor, dice)


_point_defense = _kind_of_attack(
    combat.POINT_DEFENSE, "point-defense", "a point-defense system", "R003.43"
)


def _pass(state, actor, params, dice) -> Resolution:
    """R003.11: the side `actor` ends the activation of its vessels in the group acting now."""
    group = current_group(state)
    own = [u for u in group if state.unit(u).side == actor]
    if not own:
        waiting = ", ".join(group) or "nobody"
        raise UserError(
            f"{actor!r} has no vessel acting now (acting now: {waiting})", spec_id="R003.11"
        )
    events = []
    for unit_id in own:
        state = tracker.mark_done(state, unit_id)
        events.append(Event.of("end-activation", "R003.11", unit=unit_id))
    return Resolution(state, tuple(events), "ended")


def _end(state, actor, params, dice) -> Resolution:
    return Resolution(
        tracker.mark_done(state, actor),
        (Event.of("end-activation", "R003.11", unit=actor),),
        "ended",
    )


def _station(kind: str) -> Callable:
    def resolve(state, actor, params, dice) -> Resolution:
        names = ("crew", "station", "via_comms", "gunner", "apply_to")
        given = {k: params.pop(k) for k in list(params) if k in names}
        return stations.resolve_station(state, actor, kind, given, dice)

    return resolve


_RESOLVERS: dict[str, Callable[..., Resolution]] = {
    "advantage": _advantage,
    "initiative": _initiative,
    "attack": _attack,
    "lock-missile": _lock,
    "fire-missile": _fire,
    "shoot-down": _shoot_down,
    "out-fly": _out_fly,
    "distract": _distract,
    "avoid-collision": _avoid,
    "ram": _ram,
    "strafe": _strafe,
    "join-wing": _join,
    "bombard": _bombard,
    "point-defense": _point_defense,
    "end": _end,
    PASS: _pass,
    **{kind: _station(kind) for kind in stations.STATION_ACTIONS},
}
