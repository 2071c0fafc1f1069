"""The game through the generic protocol: turn sequence, choices offered, actions applied.

Turn (R003.10, R003.11):

1. *Advantage / initiative* (alternating): a turn's first action is `start-turn`
   (missiles in flight come a turn closer and strike, R003.39; last turn's Advantage is
   remembered for R003.12); then every vessel rolls once: `advantage` against an enemy
   within the dogfight distance (opposed, R003.10-R003.14) or `initiative` (Agility +
   Alertness, base Cortex).
2. *Actions* (alternating): vessels act in order of their results, highest first; equal
   results act at the same time (R003.11, A003.6), so a vessel put out of action by
   one acting at the same time keeps its place in the order; being out of action, it is
   offered only `end` (the resolvers refuse a vessel out of action, base Cortex G.5).
   The vessels of the group in turn take actions (each further action of a character
   at -1 step more, R003.8) until they `end`.
   Point defense (R003.43) answers at any time on its side's go. A side with vessels in
   the group acting now passes by ending their activation (the rules' own `pass`), so
   the session's two passes in a row end the phase only once every vessel has acted.

`apply` checks the order of action; the resolvers check everything else. `actions`
offers only what they accept: every choice applies with its defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any

from tactical.dice import Dice, enumerate_outcomes
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import (
    Action,
    ActionChoice,
    Attack,
    Event,
    Field,
    OddsReport,
    OddsSection,
    Phase,
    Resolution,
    Stage,
    TurnPosition,
    TurnSequence,
    attack_declaration,
)
from tactical.rules.cortex_space import (
    acting,
    bombardment,
    combat,
    crew,
    manoeuvres,
    missiles,
    stations,
    tracker,
)
from tactical.rules.cortex_space.damage import target_of
from tactical.rules.cortex_space.positions import (
    band_index,
    band_of,
    centre_distance,
    edge_distance,
    in_formation,
    strafe_inches,
    terrain_distance,
)
from tactical.rules.cortex_space.tables import MISSILE_BY_RANGE, STRUCTURE_KINDS
from tactical.rules.cortex_space.units import MAX_WING, Vessel, settings, vessel

TURN_SEQUENCE = TurnSequence(
    (
        Phase("Advantage / initiative", "R003.10", alternating=True),
        Phase("Actions", "R003.11", alternating=True),
    )
)
ADVANTAGE_PHASE, ACTIONS_PHASE = 0, 1
PASS = "pass"  # the side's pass while its vessels act (the session's own kind, R003.11)

# kinds a vessel takes during its activation (checked against the order of action)
ACTIVATION_KINDS = (
    "attack",
    "lock-missile",
    "fire-missile",
    "shoot-down",
    "out-fly",
    "distract",
    "avoid-collision",
    "ram",
    "strafe",
    "join-wing",
    "bombard",
    *stations.STATION_ACTIONS,
    "end",
)


# --------------------------------------------------------------------------- setup


def setup(state: GameState) -> GameState:
    """Options and every unit's stats read once (UserError naming the problem), and the
    rule state at turn 1 (a game already under way, e.g. a saved one, is kept as it is)."""
    settings(state)
    for unit in state.units:
        vessel(unit)
    if tracker.TURN in state.rule_state:
        return state
    return tracker.initial(state)


def is_current(state: GameState, position: TurnPosition) -> bool:
    """Whether the bookkeeping has reached the position's turn."""
    return tracker.TURN in state.rule_state and tracker.turn(state) == position.turn


# --------------------------------------------------------------------------- order of action


def can_act(state: GameState, unit: Unit) -> bool:
    """Active, or put out of action by a vessel acting at the same time (R003.11)."""
    card = vessel(unit)
    if not (card.destroyed or card.disabled):
        return True
    wrecked = tracker.table(state, tracker.WRECKED)
    initiative = tracker.table(state, tracker.INITIATIVE)
    return unit.id in wrecked and initiative.get(unit.id) == wrecked[unit.id]


def current_group(state: GameState) -> tuple[str, ...]:
    """The vessels acting now: those yet to end their activation with the highest result
    (vessels that rolled nothing act last, together)."""
    initiative = tracker.table(state, tracker.INITIATIVE)
    waiting = [u for u in state.units if not tracker.is_done(state, u.id) and can_act(state, u)]
    if not waiting:
        return ()
    ranks = {u.id: initiative.get(u.id) for u in waiting}
    best = max((r for r in ranks.values() if r is not None), default=None)
    return tuple(u.id for u in waiting if ranks[u.id] == best)


def stage(state: GameState, position: TurnPosition) -> Stage | None:
    """R003.11: in the Actions phase of the turn under way, the vessels acting now (the
    highest initiative among those yet to end their activation) and their result."""
    if position.phase != ACTIONS_PHASE or not is_current(state, position):
        return None
    group = current_group(state)
    if not group:
        return None
    rolled = tracker.table(state, tracker.INITIATIVE).get(group[0])
    facts: dict[str, Any] = {"acting now": group}
    if rolled is not None:
        facts["initiative"] = rolled
    return Stage((), None, FrozenMap(facts))


# --------------------------------------------------------------------------- choices


def actions(state: GameState, position: TurnPosition, side: str) -> tuple[ActionChoice, ...]:
    """What `side` may declare now (see the module docstring)."""
    if tracker.TURN not in state.rule_state:
        state = setup(state)  # a map straight from its file: turn 1
    if not is_current(state, position):
        return (
            ActionChoice(
                "start-turn",
                side,
                f"Start turn {position.turn}",
                (
                    Field(
                        "turn",
                        "int",
                        required=True,
                        default=position.turn,
                        low=position.turn,
                        high=position.turn,
                    ),
                ),
                "R003.39",
            ),
        )
    options = settings(state)
    if position.phase == ADVANTAGE_PHASE:
        return _roll_choices(state, side, options)
    choices: list[ActionChoice] = []
    group = current_group(state)
    for unit in state.units:
        if unit.side == side and unit.id in group:
            choices.extend(_activation_choices(state, unit, options))
    choices.extend(_point_defense_choices(state, side, options))
    own = tuple(u for u in group if state.unit(u).side == side)
    if own:
        choices.append(_pass_choice(state, side, own))
    return tuple(choices)


def _pass_choice(state: GameState, side: str, own: tuple[str, ...]) -> ActionChoice:
    """R003.11: a side with vessels in the group acting now passes by ending their
    activation; the turn goes on to the next group. (The session's own pass, two in a row
    ending the phase, would end the Actions phase before the vessels later in the order of
    action have acted: the side waiting for them has only a pass to make.)"""
    names = ", ".join(state.unit(u).name or u for u in own)
    return ActionChoice(PASS, side, f"Pass: end the activation of {names}", (), "R003.11")


def _enemies(state: GameState, unit: Unit) -> list[Unit]:
    return [u for u in state.units if u.side != unit.side and not vessel(u).destroyed]


def _roll_choices(state: GameState, side: str, options) -> tuple[ActionChoice, ...]:
    rolled = tracker.table(state, tracker.INITIATIVE)
    choices = []
    reach = float(options["dogfight_inches"])
    for unit in state.units:
        card = vessel(unit)
        if unit.side != side or unit.id in rolled or card.destroyed or card.disabled:
            continue
        if options["dogfighting"]:
            opponents = tuple(
                u.id
                for u in _enemies(state, unit)
                if u.id not in rolled
                and not vessel(u).disabled
                and centre_distance(unit, u) <= reach + 1e-9
            )
            if opponents:
                choices.append(
                    ActionChoice(
                        "advantage",
                        unit.id,
                        f"{unit.name}: dogfight for the Advantage",
                        (
                            Field(
                                "opponent",
                                "str",
                                required=True,
                                default=opponents[0],
                                choices=opponents,
                            ),
                        ),
                        "R003.10",
                    )
                )
        choices.append(
            ActionChoice("initiative", unit.id, f"{unit.name}: roll Initiative", (), "R003.11")
        )
    return tuple(choices)


def _int_field(name: str, low: int, high: int, default: int, spec_id: str) -> Field:
    return Field(name, "int", default=default, low=low, high=high, spec_id=spec_id)


def _activation_choices(state: GameState, unit: Unit, options) -> list[ActionChoice]:
    card = vessel(unit)
    if not can_act(state, unit):
        return []
    end = ActionChoice("end", unit.id, f"{unit.name}: end activation", (), "R003.11")
    if card.destroyed or card.disabled:
        # still in its group (R003.11, A003.6) but out of action: every resolver refuses a
        # vessel out of action (base Cortex, G.5), so all that is left is to end
        return [end]
    choices: list[ActionChoice] = []
    enemies = _enemies(state, unit)
    gunner_field = _gunner_field(card, options)
    locks = tracker.get(state, tracker.LOCKS, ())
    for weapon in card.weapons:
        free = weapon.working - tracker.fired(state, unit.id, weapon.name)
        if weapon.kind == combat.GUN and free > 0:
            targets = tuple(
                u.id
                for u in enemies
                if _in_reach(unit, u, weapon, options) and _may_attack(state, unit, u, weapon)
            )
            if targets:
                extra = []
                if card.scale == "spacecraft" and options["weapon_batteries"] and free > 1:
                    extra.append(_int_field("battery", 1, min(MAX_WING, free), 1, "R003.35"))
                if card.is_wing and len(card.fighters) > 1:
                    # combined fire of more than one fighter needs the wing rules (R003.30)
                    alive = len(card.fighters) if options["fighter_wings"] else 1
                    extra.append(_int_field("fighters", 1, alive, alive, "R003.32"))
                choices.append(
                    ActionChoice(
                        "attack",
                        unit.id,
                        f"{unit.name}: fire {weapon.name}",
                        (
                            Field(
                                "weapon",
                                "str",
                                required=True,
                                default=weapon.name,
                                choices=(weapon.name,),
                            ),
                            Field(
                                "target", "str", required=True, default=targets[0], choices=targets
                            ),
                            *extra,
                            *gunner_field,
                            Field("called_shot", "bool", default=False, spec_id="R003.59"),
                        ),
                        "R003.7",
                    )
                )
        if (
            weapon.kind == combat.MISSILE
            and options["missile_locks"]
            and weapon.missiles > 0
            and weapon.working > 0  # a damaged launcher locks nothing (R003.29)
        ):
            targets = tuple(
                u.id
                for u in enemies
                if (band := band_of(centre_distance(unit, u), options)) is not None
                and MISSILE_BY_RANGE[band].lock is not None
                and band_index(band) <= weapon.max_band
                and _may_attack(state, unit, u, weapon)
                and (unit.id, weapon.name, u.id) not in locks
            )
            if targets:
                choices.append(
                    ActionChoice(
                        "lock-missile",
                        unit.id,
                        f"{unit.name}: lock {weapon.name}",
                        (
                            Field(
                                "weapon",
                                "str",
                                required=True,
                                default=weapon.name,
                                choices=(weapon.name,),
                            ),
                            Field(
                                "target", "str", required=True, default=targets[0], choices=targets
                            ),
                            *gunner_field,
                        ),
                        "R003.38",
                    )
                )
    for owner, weapon_name, target in tracker.get(state, tracker.LOCKS, ()):
        launcher = card.weapon(weapon_name)
        if (
            owner == unit.id
            and state.has_unit(target)
            and launcher is not None
            and launcher.missiles > 0  # locks outlive the magazine (R003.38)
        ):
            choices.append(
                ActionChoice(
                    "fire-missile",
                    unit.id,
                    f"{unit.name}: fire {weapon_name} at {target}",
                    (
                        Field(
                            "weapon",
                            "str",
                            required=True,
                            default=weapon_name,
                            choices=(weapon_name,),
                        ),
                        Field("target", "str", required=True, default=target, choices=(target,)),
                    ),
                    "R003.39",
                )
            )
    flying = missiles.missiles_in_flight(state)
    hostile = tuple(
        m["id"]
        for m in flying
        if state.has_unit(str(m["owner"])) and state.unit(str(m["owner"])).side != unit.side
    )
    shooters = tuple(
        w.name
        for w in card.weapons
        if w.kind in (combat.GUN, combat.POINT_DEFENSE)
        and w.working - tracker.fired(state, unit.id, w.name) > 0
    )
    if hostile and shooters:
        choices.append(
            ActionChoice(
                "shoot-down",
                unit.id,
                f"{unit.name}: shoot down a missile",
                (
                    Field("weapon", "str", required=True, default=shooters[0], choices=shooters),
                    Field("missile", "str", required=True, default=hostile[0], choices=hostile),
                ),
                "R003.40",
            )
        )
    rolled = tracker.get(state, tracker.OUTFLY_ROLLED, ())
    for entry in flying:
        if entry["target"] != unit.id:
            continue
        if entry["id"] not in rolled:
            choices.append(
                ActionChoice(
                    "out-fly",
                    unit.id,
                    f"{unit.name}: out-fly {entry['id']}",
                    (
                        Field(
                            "missile",
                            "str",
                            required=True,
                            default=entry["id"],
                            choices=(entry["id"],),
                        ),
                    ),
                    "R003.41",
                )
            )
        decoys = _near_things(state, unit, float(options["distract_inches"]))
        if decoys and options["collisions"]:
            choices.append(
                ActionChoice(
                    "distract",
                    unit.id,
                    f"{unit.name}: distract {entry['id']}",
                    (
                        Field(
                            "missile",
                            "str",
                            required=True,
                            default=entry["id"],
                            choices=(entry["id"],),
                        ),
                        Field("decoy", "str", required=True, default=decoys[0], choices=decoys),
                    ),
                    "R003.42",
                )
            )
    if options["collisions"]:
        contacts = _near_things(state, unit, float(options["contact_inches"]))
        choices.append(
            ActionChoice(
                "avoid-collision",
                unit.id,
                f"{unit.name}: avoid a collision",
                (
                    Field(
                        "obstacle",
                        "str",
                        required=True,
                        default=(*contacts, "random")[0],
                        choices=(*contacts, manoeuvres.RANDOM_OBSTACLE),
                    ),
                    Field("other_rolls", "bool", default=True, spec_id="R003.19"),
                ),
                "R003.15",
            )
        )
        rammable = tuple(
            u.id
            for u in enemies
            if edge_distance(unit, u) <= float(options["contact_inches"]) + 1e-9
        )
        if rammable:
            choices.append(
                ActionChoice(
                    "ram",
                    unit.id,
                    f"{unit.name}: ram",
                    (
                        Field(
                            "target", "str", required=True, default=rammable[0], choices=rammable
                        ),
                        Field("target_rolls", "bool", default=True, spec_id="R003.19"),
                    ),
                    "R003.20",
                )
            )
    if options["strafing_runs"] and card.scale == "planetcraft":
        reach = strafe_inches(options)
        hulls = tuple(
            u.id
            for u in enemies
            if vessel(u).scale == "spacecraft" and edge_distance(unit, u) <= reach + 1e-9
        )
        if hulls:
            choices.append(
                ActionChoice(
                    "strafe",
                    unit.id,
                    f"{unit.name}: strafing run",
                    (Field("target", "str", required=True, default=hulls[0], choices=hulls),),
                    "R003.21",
                )
            )
    if options["fighter_wings"] and not card.is_wing and card.scale != "spacecraft":
        wings = tuple(
            u.id
            for u in state.units
            if u.side == unit.side
            and u.id != unit.id
            and vessel(u).scale != "spacecraft"
            and not (vessel(u).destroyed or vessel(u).disabled)
            and (len(vessel(u).fighters) if vessel(u).is_wing else 1) < MAX_WING
            and in_formation(unit, u, options)
        )
        if wings:
            choices.append(
                ActionChoice(
                    "join-wing",
                    unit.id,
                    f"{unit.name}: join a wing",
                    (Field("wing", "str", required=True, default=wings[0], choices=wings),),
                    "R003.30",
                )
            )
    choices.extend(_bombard_choices(state, unit, card))
    choices.extend(_station_choices(state, unit, card, options))
    choices.append(end)
    return choices


def _bombard_choices(state: GameState, unit: Unit, card: Vessel) -> list[ActionChoice]:
    """R003.63-R003.67: a bombardment per gun with the ground targets T003.19 lets it hit."""
    spotters = tuple(
        u.id
        for u in state.units
        if u.side == unit.side
        and u.id != unit.id
        and not (vessel(u).destroyed or vessel(u).disabled)
        and not tracker.actions_taken(state, u.id)
        and not tracker.is_done(state, u.id)
    )
    choices = []
    for weapon in card.weapons:
        if (
            weapon.kind != combat.GUN
            or weapon.working - tracker.fired(state, unit.id, weapon.name) < 1
        ):
            continue
        targets = tuple(
            p.id
            for p in state.terrain
            if p.kind in STRUCTURE_KINDS and _can_bombard(p.kind, weapon.scale)
        )
        if not targets:
            continue
        choices.append(
            ActionChoice(
                "bombard",
                unit.id,
                f"{unit.name}: bombard with {weapon.name}",
                (
                    Field(
                        "weapon", "str", required=True, default=weapon.name, choices=(weapon.name,)
                    ),
                    Field("target", "str", required=True, default=targets[0], choices=targets),
                    Field("spotter", "str", default="", choices=("", *spotters), spec_id="R003.67"),
                ),
                "R003.63",
            )
        )
    return choices


def _can_bombard(kind: str, scale: str) -> bool:
    try:
        bombardment.bombardment_difficulty(kind, scale)
    except UserError:
        return False
    return True


def _gunner_field(card: Vessel, options) -> tuple[Field, ...]:
    names = tuple(p.name for p in crew.gunners(card, options))
    if not names:
        return ()
    return (Field("gunner", "str", default=names[0], choices=names, spec_id="R003.8"),)


def _in_reach(unit: Unit, other: Unit, weapon, options) -> bool:
    band = band_of(centre_distance(unit, other), options)
    return band is not None and band_index(band) <= weapon.max_band


def _may_attack(state: GameState, unit: Unit, other: Unit, weapon) -> bool:
    strafer = tracker.table(state, tracker.STRAFING).get(other.id)
    return not (strafer == unit.id and weapon.kind != combat.POINT_DEFENSE)


def _near_things(state: GameState, unit: Unit, reach: float) -> tuple[str, ...]:
    units = tuple(
        u.id for u in state.units if u.id != unit.id and edge_distance(unit, u) <= reach + 1e-9
    )
    pieces = tuple(
        p.id
        for p in state.terrain
        if p.kind in ("dense", "obstructing") and terrain_distance(unit, p) <= reach + 1e-9
    )
    return units + pieces


def _station_choices(state: GameState, unit: Unit, card: Vessel, options) -> list[ActionChoice]:
    choices = []
    used = tuple(tracker.table(state, tracker.STATIONS_USED).get(unit.id, ()))
    full = tracker.table(state, tracker.FULL_TURN).get(unit.id)
    pilot = crew.pilot_member(card, options)
    gunners = tuple(p.name for p in crew.gunners(card, options))
    variant = crew.variant(options)
    full_turn_kinds = ("offensive-manoeuvre", "evasive-manoeuvre") if variant == "A" else ()
    for kind, (_, _) in stations.STATION_ACTIONS.items():
        people = stations.station_members(card, options, kind)
        if kind == "station-roll":
            people = tuple(p for p in people if p.name not in used)
        if full and pilot is not None:
            people = tuple(p for p in people if p.name != pilot.name or kind == "agility-defense")
        if kind == "agility-defense" and full == "offensive-manoeuvre" and variant == "A":
            people = ()  # an EASY target after an offensive manoeuvre (R003.47)
        if kind in full_turn_kinds:  # a full-turn manoeuvre by someone yet to act (R003.47)
            people = tuple(
                p
                for p in people
                if not tracker.actions_taken(state, tracker.character_key(unit.id, p.name))
            )
        if kind == "forward-command" and not stations.pending_commands(state, unit.id):
            people = ()
        if kind in ("offensive-manoeuvre", "dradis-gunner") and not gunners:
            people = ()
        if not people:
            continue
        names = tuple(p.name for p in people)
        extra: list[Field] = [Field("crew", "str", default=names[0], choices=names)]
        if kind == "assist":
            others = tuple(p.name for p in card.crew if p.station not in ("co", "xo"))
            if not others:
                continue
            extra += [
                Field(
                    "station",
                    "str",
                    required=True,
                    default=others[0],
                    choices=others,
                    spec_id="R003.46",
                ),
                Field("via_comms", "bool", default=False, spec_id="R003.50"),
            ]
        if kind in ("offensive-manoeuvre", "dradis-gunner"):
            extra.append(Field("gunner", "str", default=gunners[0], choices=gunners))
        if kind == "station-roll" and any(p.station in ("co", "xo") for p in people):
            extra.append(
                Field(
                    "apply_to",
                    "str",
                    default="attack",
                    choices=("attack", "helm"),
                    spec_id="R003.52",
                )
            )
        spec = {"A": "R003.46", "B": "R003.51"}[variant]
        choices.append(
            ActionChoice(
                kind, unit.id, f"{unit.name}: {kind.replace('-', ' ')}", tuple(extra), spec
            )
        )
    return choices


def _point_defense_choices(state: GameState, side: str, options) -> list[ActionChoice]:
    if not options["point_defense"]:
        return []
    engaged = tracker.get(state, tracker.PD_ENGAGED, ())
    choices = []
    for unit in state.units:
        card = vessel(unit)
        if unit.side != side or card.destroyed or card.disabled:
            continue
        for weapon in card.weapons:
            if weapon.kind != combat.POINT_DEFENSE or weapon.working < 1:
                continue
            targets = tuple(
                u.id
                for u in _enemies(state, unit)
                if _in_reach(unit, u, weapon, options)
                and (unit.id, weapon.name, u.id) not in engaged
            )
            if targets:
                choices.append(
                    ActionChoice(
                        "point-defense",
                        unit.id,
                        f"{unit.name}: {weapon.name}",
                        (
                            Field(
                                "weapon",
                                "str",
                                required=True,
                                default=weapon.name,
                                choices=(weapon.name,),
                            ),
                            Field(
                                "target", "str", required=True, default=targets[0], choices=targets
                            ),
                        ),
                        "R003.43",
                    )
                )
    return choices


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


def _lock(state, actor, params, dice) -> Resolution:
    weapon = str(_param(params, "weapon", ""))
    unit = acting.unit_of(state, actor, "locking")
    if acting.weapon_of(unit, vessel(unit), weapon).kind != combat.MISSILE:
        raise UserError(f"{weapon} is not a missile launcher", spec_id="R003.38")
    given = {k: params.pop(k) for k in list(params) if k == "gunner"}
    attack = combat.declare(state, actor, weapon, str(_param(params, "target", "")), given)
    return combat.resolve_declared(state, attack, dice)


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


def _avoid(state, actor, params, dice) -> Resolution:
    return manoeuvres.resolve_avoid(
        state,
        actor,
        str(_param(params, "obstacle", "")),
        dice,
        other_rolls=bool(_param(params, "other_rolls", True)),
    )


def _ram(state, actor, params, dice) -> Resolution:
    return manoeuvres.resolve_ram(
        state,
        actor,
        str(_param(params, "target", "")),
        dice,
        target_rolls=bool(_param(params, "target_rolls", True)),
    )


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


def _point_defense(state, actor, params, dice) -> Resolution:
    weapon = str(_param(params, "weapon", ""))
    unit = acting.unit_of(state, actor, "point-defense")
    if acting.weapon_of(unit, vessel(unit), weapon).kind != combat.POINT_DEFENSE:
        raise UserError(f"{weapon} is not a point-defense system", spec_id="R003.43")
    attack = combat.declare(state, actor, weapon, str(_param(params, "target", "")), {})
    return combat.resolve_declared(state, attack, dice)


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

NO_ROLL = ("fire-missile", "end", "offensive-manoeuvre")


# --------------------------------------------------------------------------- odds


def _plain(summary: Any) -> Any:
    """A summary as plain hashable data: dataclasses become (field, value) pairs."""
    if is_dataclass(summary):
        return tuple((f.name, _plain(getattr(summary, f.name))) for f in fields(summary))
    return summary


def action_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """The exact outcome distribution of an action with a roll, by enumerating `apply`."""
    kind = action.kind
    if kind in ("attack", "lock-missile", "point-defense"):
        weapon, target, params = attack_declaration(action)
        attack = combat.declare(state, action.actor, weapon, target, params)
        return combat.attack_odds(state, attack, rules_id)
    if kind in NO_ROLL or (kind == "evasive-manoeuvre" and crew.variant(settings(state)) == "A"):
        return None
    if kind == "start-turn":
        return _impact_odds(state, action, rules_id)
    outcomes = enumerate_outcomes(lambda dice: _plain(apply(state, action, dice).summary))
    attack = Attack(
        action.actor, kind, str(action.params.get("target", "")), FrozenMap(action.params)
    )
    return OddsReport(
        rules_id,
        attack,
        FrozenMap(kind=kind),
        (OddsSection("outcome", _RULE_OF.get(kind), "outcome", outcomes),),
    )


def _impact_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """R003.39, R003.61, R003.62: the damage each target takes from the missiles due.

    One section a target: its missiles alone run through the very turn-start resolver.
    A missile's damage depends only on its own target, so each section is that target's
    exact marginal; the joint distribution over every target (a product of them) would be
    too large to compute or to read.
    """
    if tracker.TURN not in state.rule_state:
        state = setup(state)
    flying = missiles.missiles_in_flight(state)
    due = [m for m in flying if int(m["turns_left"]) <= 1]
    if not due:
        return None
    sections = []
    for target in dict.fromkeys(str(m["target"]) for m in due):
        alone = state.with_rule_state(
            **{tracker.MISSILES: tuple(m for m in flying if str(m["target"]) == target)}
        )
        outcomes = enumerate_outcomes(_damage_taken(alone, action, target)).sorted()
        sections.append(OddsSection(target, "R003.61", "damage", outcomes.map(_damage_text)))
    attack = Attack(action.actor, action.kind, "", FrozenMap(action.params))
    facts = FrozenMap(kind=action.kind, missiles=len(due), targets=len(sections))
    return OddsReport(rules_id, attack, facts, tuple(sections))


def _damage_taken(
    state: GameState, action: Action, target: str
) -> Callable[[Dice], tuple[int, int, bool]]:
    """The resolver as a function of the dice: (wound, stun, destroyed now) it deals `target`."""
    before = _damage_of(state, target)

    def damage(dice: Dice) -> tuple[int, int, bool]:
        after = _damage_of(apply(state, action, dice).state, target)
        return after[0] - before[0], after[1] - before[1], after[2] and not before[2]

    return damage


def _damage_of(state: GameState, unit_id: str) -> tuple[int, int, bool]:
    """(wound, stun, destroyed) of a unit; a unit gone from the table counts as destroyed."""
    if not state.has_unit(unit_id):
        return 0, 0, True
    damage = target_of(vessel(state.unit(unit_id)))
    return damage.wound, damage.stun, damage.destroyed


def _damage_text(damage: tuple[int, int, bool]) -> str:
    wound, stun, destroyed = damage
    text = f"+{wound} wound +{stun} stun"
    return f"{text}, destroyed" if destroyed else text


_RULE_OF = {
    "start-turn": "R003.39",
    "advantage": "R003.10",
    "initiative": "R003.11",
    "shoot-down": "R003.40",
    "out-fly": "R003.41",
    "distract": "R003.42",
    "avoid-collision": "R003.15",
    "ram": "R003.20",
    "strafe": "R003.21",
    "join-wing": "R003.30",
    "bombard": "R003.63",
    **{kind: "R003.46" for kind in stations.STATION_ACTIONS},
}
