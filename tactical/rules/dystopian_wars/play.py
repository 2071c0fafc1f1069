"""Play through the generic protocol: the turn sequence, `setup`, `actions` and `apply`.

Turn sequence (R002.19, R002.20, R002.28, T002.5):

1. Field Orders (R002.20) — turn 1 only: each fleet rolls (or takes FO 1, R002.21).
2. Initiative (base game, external) — the first side's go rolls the roll-off (1D6 each,
   ties re-rolled); the winner activates first.
3. Squadron Activation Sequence (R002.28), alternating: a side whose go it is activates
   one squadron and plays its segments as actions — 1 `command`; 2a `boost` / `launch` /
   `move`, `end-movement`; 2b `resolve-collisions`; 3a `declare-attack` (and the
   generators' `tesla-effect` / `ultrasonic`), `end-declarations`; 3b the targeted side's
   `counterattack`, `end-counterattacks`; 3b-3d `resolve-attack` step by step; 4 `board`,
   `end-boarding`; 5 `break-tests`; a Wing may then `land` / `attach-cap` before
   `end-activation`. While a squadron is active the other side's go offers only its
   Counterattack declarations (or nothing: it passes), so the sides alternate whole
   activations; a side with no squadron left passes and the other continues (R002.18
   style); the phase ends when both pass. A side may pass only when no step is left to
   it (`status.pass_refused`: a squadron to activate, its activation under way, its
   Counterattacks to declare or end; likewise the Field Order and initiative rolls and
   the End Phase's steps): one fleet's pass never ends the activations of both.
4. End Phase (R002.19), alternating: `end-phase` (check for End of Game, Compulsory
   Actions), then each side's `damage-repair` and `bravery-test` and the Prizes' `drift`,
   then `end-turn` (rationalise markers, draw Game Cards, next turn).

A side may re-roll with its Fleet Commodore (`commodore-reroll`, R002.10) while it has
an offer (the offer lapses when that side does anything else). Every action returns its
events (each citing its SPEC id); `action_odds` enumerates `apply` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tactical.dice import Dice, enumerate_outcomes
from tactical.errors import UserError
from tactical.geometry.shapes import Pose
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
    StageStep,
    TurnPosition,
    TurnSequence,
    unit_name,
)
from tactical.rules.dystopian_wars import (
    RULE_SYSTEM,
    combat,
    command,
    fleet,
    flyers,
    generators,
    maneuver,
    tracking,
    victory,
)
from tactical.rules.dystopian_wars.cards import card, squadron_units, squadrons
from tactical.rules.dystopian_wars.criticals import critical_name, is_critical
from tactical.rules.dystopian_wars.dicework import critical_roll, d6, roll_off, two_d6
from tactical.rules.dystopian_wars.measures import within_edges
from tactical.rules.dystopian_wars.schema import WING_TYPES
from tactical.rules.dystopian_wars.tables import COMBAT_STEPS

FIELD_ORDERS, INITIATIVE, ACTIVATION, END_PHASE = (
    "Field Orders",
    "Initiative",
    "Squadron Activation Sequence",
    "End Phase",
)
TURN_SEQUENCE = TurnSequence(
    (
        Phase(FIELD_ORDERS, "R002.20"),
        Phase(INITIATIVE, "R002.19"),
        Phase(ACTIVATION, "R002.28", alternating=True),
        Phase(END_PHASE, "R002.19", alternating=True),
    )
)
SIMULTANEOUS = {name for name, simultaneous in COMBAT_STEPS if simultaneous}
STEP_ORDER = [name for name, _ in COMBAT_STEPS]


def _system():
    return RULE_SYSTEM


def options_of(state: GameState) -> Mapping[str, Any]:
    return combat.settings(state)


# --------------------------------------------------------------------------- setup


def setup(state: GameState) -> GameState:
    """The state at the start of play: rule_state initialised (idempotent)."""
    if "turn" in state.rule_state:
        return state
    system = _system()
    problems = system.check_options(state.options)
    if problems:
        problem = problems[0]
        raise UserError(
            f"option {problem.key}: expected {problem.expected}", spec_id=problem.spec_id
        )
    options = options_of(state)
    game = fleet.game_setup(state, options)
    fleet.check_fleets(state, game)
    fleets = {
        side: tuple(FrozenMap(tracking.loss_record(u, "")) for u in state.units if u.side == side)
        for side in state.sides
    }
    orders = {}
    if not game.field_orders:
        orders = {side: FrozenMap(order=1, roll=None, chose_default=True) for side in state.sides}
    aboard = {u.id: card(u).tiny_flyers_aboard for u in state.units if card(u).is_carrier}
    return state.with_rule_state(
        turn=1,
        setup=FrozenMap(game.as_rule_state()),
        mfv=FrozenMap(game.mfv),
        core_forces=FrozenMap(game.core_forces),
        fleets=FrozenMap(fleets),
        field_orders=FrozenMap(orders),
        wings=FrozenMap(flyers.initial_wings(state)),
        aboard=FrozenMap(aboard),
        activated=(),
        fc_used=(),
    )


# --------------------------------------------------------------------------- stage

# T002.5 as the tracker shows it: the rules' step numbers with short names
ACTIVATION_STEPS = (
    StageStep("1", "Command", "R002.28"),
    StageStep("2a", "Movement", "R002.28"),
    StageStep("2b", "Collisions and rams", "R002.28"),
    StageStep("3a", "Declare attacks", "R002.28"),
    StageStep("3b", "Counterattacks", "R002.28"),
    StageStep("3c", "Tiny Flyer combat", "R002.28"),
    StageStep("3d", "Resolve attacks", "R002.28"),
    StageStep("4", "Boarding", "R002.28"),
    StageStep("5", "Break tests", "R002.27"),
    StageStep("end", "Wing lands or attaches CAP", "R002.60"),
)
_STEP_OF_STAGE = {
    "command": "1",
    "movement": "2a",
    "collisions": "2b",
    "declare": "3a",
    "counter": "3b",
    "boarding": "4",
    "morale": "5",
    "wing-end": "end",
}


def stage(state: GameState) -> Stage | None:
    """R002.28: the squadron being activated, and the segment of T002.5 it is in (for the
    resolution of attacks, the combat step whose attacks are resolved now)."""
    act = _activation(state)
    if not act:
        return None
    code = _STEP_OF_STAGE.get(act["stage"])
    if act["stage"] == "resolve":
        step = _current_step(act)
        code = step.split("-")[0] if step is not None else None
    codes = [s.code for s in ACTIVATION_STEPS]
    current = codes.index(code) if code in codes else None
    facts = {"side": act["side"], "squadron": act["squadron"]}
    if act["stage"] == "counter" and act.get("defenders"):
        facts["counterattacking"] = tuple(act["defenders"])
    return Stage(ACTIVATION_STEPS, current, FrozenMap(facts))


# --------------------------------------------------------------------------- helpers


def _turn(state: GameState) -> int:
    return int(tracking.get(state, "turn", 1))


def _activation(state: GameState) -> Mapping[str, Any] | None:
    return tracking.get(state, "activation")


def _set_activation(state: GameState, **changes: Any) -> GameState:
    current = dict(_activation(state) or {})
    current.update(changes)
    return tracking.put(state, activation=FrozenMap(current))


def _side_of(state: GameState, actor: str) -> str:
    if actor in state.sides:
        return actor
    if state.has_unit(actor):
        # a Prize is handled by the side that captured it (its Drift, R002.19)
        captor = tracking.mapping(state, "prizes").get(actor)
        return str(captor) if captor else state.unit(actor).side
    for record in (_activation(state) or {}).get("declared", ()):
        if record["attacker"] == actor:
            return str(record["side"])
    raise UserError(f"unknown actor {actor!r}: a side ({', '.join(state.sides)}) or a unit id")


def _unit(state: GameState, unit_id: str) -> Unit:
    return combat.find_unit(state, unit_id, "unit")


def activatable(state: GameState, side: str) -> tuple[str, ...]:
    """Squadrons of `side` that can still activate this turn (R002.28, R002.61)."""
    done = set(tracking.get(state, "activated", ()))
    found = []
    for key, units in squadrons(state, side).items():
        if key in done or all(tracking.is_prize(state, u.id) for u in units):
            continue
        if not flyers.can_be_activated(state, key, _turn(state)):
            continue
        found.append(key)
    return tuple(found)


def _params(action: Action) -> dict[str, Any]:
    return dict(action.params)


def _choice(
    kind: str, actor: str, title: str, *fields: Field, spec: str | None = None
) -> ActionChoice:
    return ActionChoice(kind, actor, title, tuple(fields), spec)


# --------------------------------------------------------------------------- actions


def actions(state: GameState, position: TurnPosition, side: str) -> tuple[ActionChoice, ...]:
    """What `side` may declare at `position` (see the module doc)."""
    state = setup(state)
    if tracking.game_over(state) or side not in state.sides:
        return ()
    phase = TURN_SEQUENCE.phase(position).name
    if phase == FIELD_ORDERS:
        found = _field_order_choices(state, side)
    elif phase == INITIATIVE:
        found = _initiative_choices(state, side)
    elif phase == ACTIVATION:
        found = _activation_choices(state, side)
    else:
        found = _end_phase_choices(state, side)
    return found + _commodore_choices(state, side)


def _field_order_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    if _turn(state) != 1 or side in tracking.mapping(state, "field_orders"):
        return ()
    return (
        _choice(
            "field-order",
            side,
            f"{side}: roll the Field Order",
            Field(
                "take_default", "bool", default=False, doc="take FO 1 instead", spec_id="R002.21"
            ),
            spec="R002.20",
        ),
    )


def _initiative_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    if tracking.get(state, "initiative") is not None or side != state.sides[0]:
        return ()
    return (_choice("initiative", side, "Roll for initiative", spec="G.5"),)


def _activation_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    act = _activation(state)
    if act is None:
        if _passive_until_winner(state, side):
            return ()
        keys = activatable(state, side)
        if not keys:
            return ()
        return (
            _choice(
                "activate",
                side,
                f"{side}: activate a squadron",
                Field("squadron", "str", required=True, default=keys[0], choices=keys),
                spec="R002.28",
            ),
        )
    if act["side"] != side:
        if act["stage"] == "counter" and side in act.get("defenders", ()):
            return _counter_choices(state, side)
        return ()
    stage = act["stage"]
    builders: dict[str, Callable[[GameState, Mapping[str, Any]], tuple[ActionChoice, ...]]] = {
        "command": _command_choices,
        "movement": _movement_choices,
        "collisions": lambda s, a: (
            _choice("resolve-collisions", side, "Resolve collisions and rams", spec="R002.28"),
        ),
        "declare": _declare_choices,
        "counter": lambda s, a: (),
        "resolve": _resolve_choices,
        "boarding": _boarding_choices,
        "morale": lambda s, a: (
            _choice("break-tests", side, "Resolve all Break Tests", spec="R002.27"),
        ),
        "wing-end": _wing_end_choices,
    }
    return builders[stage](state, act)


def _passive_until_winner(state: GameState, side: str) -> bool:
    """Initiative: until the winner has activated, the other side waits (if the winner can)."""
    initiative = tracking.get(state, "initiative")
    if initiative is None or tracking.get(state, "activated", ()):
        return False
    winner = str(initiative["winner"])
    return winner != side and bool(activatable(state, winner))


def _command_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    units = squadron_units(state, act["squadron"])
    element = command.command_element(units, float(options_of(state)["command_distance"]))
    return (
        _choice(
            "command",
            act["side"],
            "Declare the Commanded Element",
            Field(
                "commander",
                "str",
                required=True,
                default=element.commander,
                choices=tuple(u.id for u in units),
                spec_id="R002.25",
            ),
            spec="R002.25",
        ),
    )


def _movement_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    found = []
    moved = set(act.get("moved", ()))
    boosts = tracking.mapping(state, "boosts")
    wing = tuple(u for u in squadron_units(state, act["squadron"]) if card(u).is_tiny_flyer)
    path = maneuver.default_wing_path(state, wing) if wing and not moved else None
    if path is not None:
        found.append(
            _choice(
                "move-wing",
                act["side"],
                "Move the Wing in formation",
                Field("path", "str", required=True, default=path, doc='e.g. "F10"'),
                spec="R002.52",
            )
        )
    for unit in squadron_units(state, act["squadron"]):
        if unit.id in moved or tracking.is_prize(state, unit.id) or card(unit).is_tiny_flyer:
            continue
        profile = card(unit)
        if profile.is_carrier and not act.get("launched") and flyers.aboard(state, unit) >= 1:
            count = min(5, flyers.aboard(state, unit))
            wing_type = "fighter" if count >= 3 else "recon"
            found.append(
                _choice(
                    "launch",
                    unit.id,
                    f"{unit.name}: launch a Wing",
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
        if unit.id not in boosts:
            usable = tuple(g for g in ("tesla", "kinetic") if g in profile.generators)
            if usable:
                found.append(
                    _choice(
                        "boost",
                        unit.id,
                        f"{unit.name}: generator boost",
                        Field("generator", "str", required=True, default=usable[0], choices=usable),
                        spec=generators.BOOST_RULES[usable[0]],
                    )
                )
        found.append(
            _choice(
                "move",
                unit.id,
                f"{unit.name}: move",
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
    found.append(_choice("end-movement", act["side"], "End movement", spec="R002.28"))
    return tuple(found)


def _targets_for(
    state: GameState, unit: Unit, weapon: str, launched: bool, **params: Any
) -> tuple[str, ...]:
    found = []
    for target in state.units:
        if target.side == unit.side:
            continue
        try:
            combat.declare(state, unit.id, weapon, target.id, params, launched=launched)
        except UserError:
            continue
        found.append(target.id)
    return tuple(found)


def _used(act: Mapping[str, Any]) -> set[tuple[str, str]]:
    return {tuple(entry) for entry in act.get("used_weapons", ())}  # type: ignore[misc]


def _declare_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    found = []
    used = _used(act)
    flags_of = _flags_of(state, act)
    for unit in squadron_units(state, act["squadron"]):
        if tracking.is_prize(state, unit.id):
            continue
        launched = act.get("launched") == unit.id
        for weapon in card(unit).weapons:
            if (unit.id, weapon.name) in used:
                continue
            targets = _targets_for(state, unit, weapon.name, launched)
            engaged = act.get("engaged", {}).get(unit.id, ())
            if engaged and command.restricted(state, unit, options_of(state)):
                targets = tuple(t for t in targets if t in engaged)  # no Split Fire (R002.26)
            if not targets:
                continue
            found.append(
                _choice(
                    "declare-attack",
                    unit.id,
                    f"{unit.name}: {weapon.name}",
                    Field(
                        "weapon", "str", required=True, default=weapon.name, choices=(weapon.name,)
                    ),
                    Field("target", "str", required=True, default=targets[0], choices=targets),
                    Field(
                        "linked",
                        "str",
                        default="",
                        doc="squadron models linking fire (ids)",
                        spec_id="A002.17",
                    ),
                    Field(
                        "combined", "str", default="", doc="Escorts / Wing (ids)", spec_id="R002.42"
                    ),
                    Field("indirect", "bool", default=False, spec_id="R002.43"),
                    spec="R002.36",
                )
            )
        flags = flags_of(unit)
        for generator, kind, rule in (
            ("tesla", "tesla-effect", "R002.46"),
            ("ultrasonic", "ultrasonic", "R002.47"),
        ):
            if generator not in card(unit).generators:
                continue
            targets = _generator_targets(state, unit, kind, flags)
            if targets:
                found.append(
                    _choice(
                        kind,
                        unit.id,
                        f"{unit.name}: {generator} generator",
                        Field("target", "str", required=True, default=targets[0], choices=targets),
                        spec=rule,
                    )
                )
    found.append(_choice("end-declarations", act["side"], "End declarations", spec="R002.28"))
    return tuple(found)


def _generator_targets(
    state: GameState, unit: Unit, kind: str, flags: generators.ActivationFlags
) -> tuple[str, ...]:
    check = (
        generators.check_tesla_alternative
        if kind == "tesla-effect"
        else generators.check_ultrasonic
    )
    found = []
    for target in state.units:
        if target.side == unit.side:
            continue
        try:
            check(unit, target, flags)
        except UserError:
            continue
        found.append(target.id)
    return tuple(found)


def _flags_of(
    state: GameState, act: Mapping[str, Any]
) -> Callable[[Unit], generators.ActivationFlags]:
    boosts = tracking.mapping(state, "boosts")
    used = tracking.mapping(state, "generators_used")

    def flags(unit: Unit) -> generators.ActivationFlags:
        boost = boosts.get(unit.id)
        return generators.ActivationFlags(
            moved=unit.id in act.get("moved", ()) or act["stage"] not in ("command", "movement"),
            boosted=next(iter(boost)) if boost else None,
            launched=act.get("launched") == unit.id,
            used_generators=tuple(used.get(unit.id, ())),
        )

    return flags


def counter_weapons(
    state: GameState, act: Mapping[str, Any], side: str
) -> Iterator[tuple[Unit, Any, tuple[Unit, ...]]]:
    """R002.29: each auxiliary weapon of `side` not yet used this activation, on a model of
    a squadron the active squadron targeted (prizes aside), with the active squadron's
    models it may answer: (model, weapon, attackers)."""
    used = _used(act)
    attackers = squadron_units(state, act["squadron"])
    for key in act.get("targeted", ()):
        for unit in squadron_units(state, key):
            if unit.side != side or tracking.is_prize(state, unit.id):
                continue
            for weapon in card(unit).weapons:
                if weapon.auxiliary and (unit.id, weapon.name) not in used:
                    yield unit, weapon, attackers


def _counter_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    act = _activation(state)
    assert act is not None
    found = []
    for unit, weapon, attackers in counter_weapons(state, act, side):
        targets = tuple(
            t.id for t in attackers if _legal(state, unit.id, weapon.name, t.id, counter=True)
        )
        if targets:
            found.append(
                _choice(
                    "counterattack",
                    unit.id,
                    f"{unit.name}: {weapon.name} (counterattack)",
                    Field(
                        "weapon", "str", required=True, default=weapon.name, choices=(weapon.name,)
                    ),
                    Field("target", "str", required=True, default=targets[0], choices=targets),
                    spec="R002.29",
                )
            )
    found.append(_choice("end-counterattacks", side, "End counterattacks", spec="R002.28"))
    return tuple(found)


def _legal(state: GameState, attacker: str, weapon: str, target: str, **params: Any) -> bool:
    try:
        combat.declare(state, attacker, weapon, target, params)
    except UserError:
        return False
    return True


def _current_step(act: Mapping[str, Any]) -> str | None:
    pending = [r["step"] for r in act.get("declared", ()) if not r["resolved"]]
    for step in STEP_ORDER:
        if step in pending:
            return step
    return None


def _named(state: GameState, record: Mapping[str, Any], role: str) -> str:
    """A declared attack's attacker or target by name, "(gone)" once it has left the
    table."""
    unit_id = str(record[role])
    if state.has_unit(unit_id):
        return unit_name(state, unit_id)
    return f"{record.get(f'{role}_name', unit_id)} (gone)"


def _resolve_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    step = _current_step(act)
    found = []
    for index, record in enumerate(act.get("declared", ())):
        if record["resolved"] or record["step"] != step:
            continue
        found.append(
            _choice(
                "resolve-attack",
                str(act["side"]),
                f"{_named(state, record, 'attacker')}: {record['weapon']} at "
                f"{_named(state, record, 'target')} ({step})",
                Field(
                    "attack",
                    "int",
                    required=True,
                    default=index,
                    choices=None,
                    low=index,
                    high=index,
                ),
                spec="R002.28",
            )
        )
    return tuple(found)


def _boarding_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    found = []
    done = set(act.get("boarded", ()))
    options = options_of(state)
    for unit in squadron_units(state, act["squadron"]):
        if unit.id in done or card(unit).assault_points <= 0 or tracking.is_prize(state, unit.id):
            continue
        if command.restricted(state, unit, options):
            continue
        targets = _boarding_targets(state, unit)
        if targets:
            found.append(
                _choice(
                    "board",
                    unit.id,
                    f"{unit.name}: Boarding Assault",
                    Field("target", "str", required=True, default=targets[0], choices=targets),
                    spec="R002.26",
                )
            )
    found.append(_choice("end-boarding", act["side"], "End boarding", spec="R002.28"))
    return tuple(found)


def _boarding_targets(state: GameState, unit: Unit) -> tuple[str, ...]:
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


def _wing_end_choices(state: GameState, act: Mapping[str, Any]) -> tuple[ActionChoice, ...]:
    side = act["side"]
    found = []
    carriers = flyers.carriers_in_reach(state, act["squadron"])
    if carriers:
        found.append(
            _choice(
                "land",
                side,
                "Land the Wing",
                Field("carrier", "str", required=True, default=carriers[0], choices=carriers),
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
                _choice(
                    "attach-cap",
                    side,
                    "Attach as Combat Air Patrol",
                    Field("parent", "str", required=True, default=parents[0], choices=parents),
                    spec="R002.57",
                )
            )
    found.append(_choice("end-activation", side, "End the activation", spec="R002.28"))
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


def _end_phase_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    end = tracking.mapping(state, "end_phase")
    if tracking.get(state, "turn_closed"):
        return ()
    if not end.get("started"):
        fields = ()
        if tracking.mapping(state, "setup").get("game_length") == "time":
            fields = (Field("time_up", "bool", default=False, spec_id="A002.20"),)
        return (
            _choice("end-phase", side, "End Phase: check for End of Game", *fields, spec="R002.19"),
        )
    found = []
    for unit in _repairable(state, side):
        found.append(
            _choice("damage-repair", unit.id, f"{unit.name}: Damage Repair", spec="R002.19")
        )
    for key in _bravery_due(state, side):
        found.append(
            _choice(
                "bravery-test",
                side,
                f"Bravery Test: {key}",
                Field("squadron", "str", required=True, default=key, choices=(key,)),
                spec="R002.27",
            )
        )
    for unit in _drifting(state, side):
        found.append(_choice("drift", unit.id, f"{unit.name}: Drift", spec="R002.19"))
    if not any(
        _repairable(state, s) or _bravery_due(state, s) or _drifting(state, s) for s in state.sides
    ):
        found.append(_choice("end-turn", side, "End the turn", spec="R002.19"))
    return tuple(found)


def _repairable(state: GameState, side: str) -> tuple[Unit, ...]:
    done = set(tracking.mapping(state, "end_phase").get("repaired", ()))
    return tuple(
        u
        for u in state.units
        if u.side == side
        and u.id not in done
        and tracking.effects(state, u.id)
        and not tracking.is_prize(state, u.id)
    )


def _bravery_due(state: GameState, side: str) -> tuple[str, ...]:
    done = set(tracking.mapping(state, "end_phase").get("bravery", ()))
    return tuple(
        key
        for key in tracking.get(state, "broken", ())
        if key.startswith(f"{side}:") and key not in done and squadron_units(state, key)
    )


def _drifting(state: GameState, side: str) -> tuple[Unit, ...]:
    done = set(tracking.mapping(state, "end_phase").get("drifted", ()))
    prizes = tracking.mapping(state, "prizes")
    return tuple(
        state.unit(uid)
        for uid, captor in prizes.items()
        if captor == side and uid not in done and state.has_unit(uid)
    )


def _commodore_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    offer = tracking.mapping(state, "offers").get(side)
    if offer is None or not command.commodore_available(state, side):
        return ()
    return (
        _choice(
            "commodore-reroll",
            side,
            f"Fleet Commodore re-roll ({offer['kind']}, option {offer['option']})",
            spec="R002.10",
        ),
    )


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action, dice: Dice) -> Resolution:
    """Resolve any declared action (see the module doc); pure: events and a new state."""
    state = setup(state)
    if tracking.game_over(state):
        raise UserError("the game is over", spec_id="R002.22")
    handler = HANDLERS.get(action.kind)
    if handler is None:
        known = ", ".join(sorted(HANDLERS))
        raise UserError(f"Dystopian Wars has no action {action.kind!r} (actions: {known})")
    side = _side_of(state, action.actor)
    if action.kind != "commodore-reroll":
        state = tracking.put_in(state, "offers", side, None)
    resolution = handler(state, action, dice, side)
    new_state, events = victory.check_victory(resolution.state)
    return Resolution(new_state, resolution.events + tuple(events), resolution.summary)


def _need_stage(state: GameState, side: str, *stages: str) -> Mapping[str, Any]:
    act = _activation(state)
    if act is None:
        raise UserError("no squadron is active: activate one first", spec_id="R002.28")
    if act["stage"] not in stages:
        raise UserError(
            f"the active squadron is in segment {act['stage']!r}, not {' / '.join(stages)}",
            spec_id="R002.28",
        )
    if act["side"] != side and "counter" not in stages:
        raise UserError(f"it is {act['side']!r}'s squadron that is active", spec_id="R002.28")
    return act


def _member(state: GameState, act: Mapping[str, Any], unit_id: str) -> Unit:
    unit = _unit(state, unit_id)
    if card(unit).squadron != act["squadron"]:
        raise UserError(
            f"{unit_id!r} is not in the active squadron {act['squadron']!r}", spec_id="R002.28"
        )
    if tracking.is_prize(state, unit_id):
        raise UserError(f"{unit_id!r} has been captured (a Prize)", spec_id="G.5")
    return unit


def _field_order(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    take_default = _params(action).get("take_default", False)
    if not isinstance(take_default, bool):
        raise UserError(
            f"take_default must be true or false, not {take_default!r}", spec_id="R002.21"
        )
    return victory.roll_field_order(state, side, dice, take_default)


def _initiative(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    if tracking.get(state, "initiative") is not None:
        raise UserError("initiative is rolled once a turn", spec_id="G.5")
    events: list[Event] = []
    if not tracking.get(state, "turn_closed") and (
        tracking.get(state, "activated", ()) or tracking.mapping(state, "end_phase")
    ):
        state, events = _close_turn(state)
    sides = state.sides
    if len(sides) < 2:
        winner = sides[0]
        result_events: tuple[Event, ...] = ()
    else:
        off = dice.chance(
            lambda source: roll_off(source, sides[0], sides[1], "initiative", "G.5"),
            key=lambda r: r.winner,
        )
        winner, result_events = off.winner, off.events
    state = tracking.put(state, initiative=FrozenMap(winner=winner), fc_used=(), turn_closed=None)
    events += [*result_events, Event.of("initiative", "G.5", winner=winner, turn=_turn(state))]
    return Resolution(state, tuple(events), winner)


def _activate(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    if _activation(state) is not None:
        raise UserError("a squadron is active: finish its activation first", spec_id="R002.28")
    key = str(_params(action).get("squadron", ""))
    if ":" not in key:
        key = f"{side}:{key}"
    if key not in activatable(state, side):
        choices = ", ".join(activatable(state, side)) or "none"
        raise UserError(
            f"{key!r} cannot activate now (squadrons left: {choices})", spec_id="R002.28"
        )
    if _passive_until_winner(state, side):
        raise UserError("the side that won the initiative activates first", spec_id="G.5")
    state = tracking.put(
        state,
        activation=FrozenMap(side=side, squadron=key, stage="command"),
        boosts=FrozenMap(),
        generators_used=FrozenMap(),
    )
    events = [Event.of("activate", "R002.28", side=side, squadron=key, turn=_turn(state))]
    state, fuel_events = flyers.spend_fuel(state, key)
    events += fuel_events
    return Resolution(state, tuple(events), key)


def _command(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "command")
    units = squadron_units(state, act["squadron"])
    distance = float(options_of(state)["command_distance"])
    chosen = _params(action).get("commander")
    element = command.command_element(units, distance, str(chosen) if chosen else None)
    state = tracking.put_in(state, "commanders", act["squadron"], element.commander)
    state = _set_activation(state, stage="movement")
    return Resolution(state, command.element_events(element, distance), element.out_of_command)


def _boost(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "movement")
    unit = _member(state, act, action.actor)
    flags = _flags_of(state, act)(unit)
    return generators.boost(state, unit, str(_params(action).get("generator", "")), dice, flags)


def _launch(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "movement")
    carrier = _member(state, act, action.actor)
    if carrier.id in act.get("moved", ()):
        raise UserError(
            f"{carrier.id!r} has moved: a Carrier Launches before moving", spec_id="R002.61"
        )
    if act.get("launched"):
        raise UserError("a Carrier Launches one Wing in its activation", spec_id="R002.61")
    params = _params(action)
    wing_type = str(params.get("wing_type", ""))
    count = params.get("count")
    if not isinstance(count, int) or isinstance(count, bool):
        raise UserError(f"count is a whole number of Tiny Flyers, not {count!r}", spec_id="R002.53")
    start = None
    if params.get("x") is not None and params.get("y") is not None:
        start = Pose(
            float(params["x"]), float(params["y"]), float(params.get("heading", carrier.heading))
        )
    resolution = flyers.launch(state, carrier, wing_type, count, _turn(state), start)
    new_state = _set_activation(resolution.state, launched=carrier.id)
    return Resolution(new_state, resolution.events, resolution.summary)


def _move(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "movement")
    unit = _member(state, act, action.actor)
    if unit.id in act.get("moved", ()):
        raise UserError(f"{unit.id!r} has moved this activation", spec_id="R002.28")
    if card(unit).is_tiny_flyer:
        raise UserError(
            "a Tiny Flyer moves with its Wing (move-wing), keeping the Wing Formation at all times",
            spec_id="R002.52",
        )
    path = str(_params(action).get("path", "")).strip()
    resolution, collision = maneuver.move(state, unit, path, dice)
    new_state = resolution.state
    moved = (*act.get("moved", ()), unit.id)
    collisions = tuple(act.get("collisions", ())) + ((collision,) if collision else ())
    new_state = _set_activation(new_state, moved=moved, collisions=collisions)
    new_state = _treacherous_offer(new_state, unit, resolution.events)
    return Resolution(new_state, resolution.events, resolution.summary)


def _move_wing(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "movement")
    units = tuple(u for u in squadron_units(state, act["squadron"]) if card(u).is_tiny_flyer)
    if not units or {u.id for u in units} & set(act.get("moved", ())):
        raise UserError(
            "move-wing moves a Wing none of whose Tiny Flyers has moved", spec_id="R002.52"
        )
    path = str(_params(action).get("path", "")).strip()
    resolution, collisions = maneuver.move_wing(state, units, path, dice)
    moved = (*act.get("moved", ()), *(u.id for u in units))
    new_state = _set_activation(
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
    act = _need_stage(state, side, "movement")
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
    return Resolution(_set_activation(state, stage=stage), tuple(events), stage)


def _resolve_collisions(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "collisions")
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
            resolution = combat.ram(state, unit, target, dice)
            state = resolution.state
            events += resolution.events
            outcomes.append(("ram", resolution.summary))
    state = _set_activation(state, stage="declare")
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
            state = combat.destroy(state, unit)
            events.append(Event.of("destroyed", "G.5", unit=unit.id))
    return state, events, failed


def _declare_attack(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "declare")
    unit = _member(state, act, action.actor)
    params = _params(action)
    weapon = str(params.pop("weapon", ""))
    target = str(params.pop("target", ""))
    declared = {k: v for k, v in params.items() if v not in ("", None, False)}
    return _record_attack(state, act, unit, weapon, target, declared, counter=False)


def _record_attack(
    state: GameState,
    act: Mapping[str, Any],
    unit: Unit,
    weapon: str,
    target: str,
    params: dict[str, Any],
    *,
    counter: bool,
) -> Resolution:
    used = _used(act)
    if (unit.id, weapon) in used:
        raise UserError(f"{unit.id!r} has declared its {weapon} this activation", spec_id="R002.28")
    if counter:
        params["counter"] = True
    attack = combat.declare(
        state, unit.id, weapon, target, params, launched=act.get("launched") == unit.id
    )
    engaged = tracking.plain(act.get("engaged", {}))
    targets = set(engaged.get(unit.id, ()))
    if targets and target not in targets:
        command.check_firing_option(state, unit, "split", options_of(state))
    contributors = [(str(e[0]), str(e[1])) for e in attack.params["pool"]]
    for contributor in contributors[1:]:
        if contributor in used:
            raise UserError(
                f"{contributor[0]!r} has declared its {contributor[1]} this activation",
                spec_id="R002.28",
            )
    engaged[unit.id] = tuple(sorted(targets | {target}))
    target_unit = state.unit(target)
    step = combat_step(unit, attack.weapon, target_unit, counter)
    record = FrozenMap(
        attacker=unit.id,
        side=unit.side,
        weapon=weapon,
        target=target,
        # the names as declared: a model destroyed before the roll is still named so
        attacker_name=unit.name or unit.id,
        target_name=target_unit.name or target,
        step=step,
        params=FrozenMap({k: v for k, v in params.items()}),
        counter=counter,
        resolved=False,
    )
    targeted = set(act.get("targeted", ()))
    if not counter:
        targeted.add(card(target_unit).squadron)
    state = _set_activation(
        state,
        declared=(*act.get("declared", ()), record),
        used_weapons=tuple(sorted(used | set(contributors))),
        engaged=FrozenMap(engaged),
        targeted=tuple(sorted(targeted)),
    )
    event = Event.of(
        "declared",
        "R002.29" if counter else "R002.28",
        attacker=unit.id,
        weapon=weapon,
        target=target,
        step=step,
        pool=attack.params["pool"],
    )
    return Resolution(state, (event,), step)


def combat_step(attacker: Unit, weapon_name: str, target: Unit, counter: bool) -> str:
    """R002.28: the combat step (3b-3d) in which an attack is resolved."""
    weapon = card(attacker).weapon(weapon_name)
    assert weapon is not None
    a, t = card(attacker), card(target)
    if weapon.kind == "ack-ack":
        if a.is_tiny_flyer and t.is_tiny_flyer:
            return "3c-i"
        if (a.is_tiny_flyer and t.airborne) or (t.is_tiny_flyer and a.airborne):
            return "3c-ii"
        if counter and t.airborne:
            return "3b-ack-ack"
    if counter and weapon.kind == "concussion" and t.height == "diving":
        return "3b-concussion"
    if a.is_tiny_flyer and weapon.weapon_class == "ordnance":
        return "3c-iii"
    return "3d"


def _generator_action(kind: str):
    def handler(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
        act = _need_stage(state, side, "declare")
        unit = _member(state, act, action.actor)
        target = _unit(state, str(_params(action).get("target", "")))
        flags = _flags_of(state, act)(unit)
        fn = generators.tesla_alternative if kind == "tesla-effect" else generators.ultrasonic
        return fn(state, unit, target, dice, flags)

    return handler


def _end_declarations(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "declare")
    defenders = tuple(s for s in state.sides if s != side and _counter_available(state, act, s))
    if defenders:
        stage = "counter"
    elif act.get("declared"):
        stage = "resolve"
    else:
        stage = "boarding"
    state = _set_activation(state, stage=stage, defenders=defenders)
    event = Event.of(
        "declarations-done",
        "R002.28",
        declared=len(act.get("declared", ())),
        counter_sides=defenders,
    )
    return Resolution(state, (event,), stage)


def _counter_available(state: GameState, act: Mapping[str, Any], side: str) -> bool:
    probe = _set_activation(state, stage="counter", defenders=(side,))
    return any(c.kind == "counterattack" for c in _counter_choices(probe, side))


def _counterattack(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "counter")
    if side not in act.get("defenders", ()):
        raise UserError(f"{side!r} has no squadron targeted this activation", spec_id="R002.28")
    unit = _unit(state, action.actor)
    if card(unit).squadron not in act.get("targeted", ()):
        raise UserError(
            f"{unit.id!r}'s squadron was not targeted: no Counterattack", spec_id="R002.28"
        )
    params = _params(action)
    weapon = str(params.pop("weapon", ""))
    target = str(params.pop("target", ""))
    if card(_unit(state, target)).squadron != act["squadron"]:
        raise UserError("a Counterattack targets the active squadron", spec_id="R002.28")
    return _record_attack(state, act, unit, weapon, target, {}, counter=True)


def _end_counterattacks(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "counter")
    remaining = tuple(s for s in act.get("defenders", ()) if s != side)
    stage = "counter" if remaining else ("resolve" if act.get("declared") else "boarding")
    state = _set_activation(state, defenders=remaining, stage=stage)
    return Resolution(state, (Event.of("counterattacks-done", "R002.28", side=side),), stage)


def _resolve_attack(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "resolve")
    index = _params(action).get("attack")
    records = list(act.get("declared", ()))
    if not isinstance(index, int) or not 0 <= index < len(records) or records[index]["resolved"]:
        raise UserError(f"no declared attack {index!r} waiting to be resolved", spec_id="R002.28")
    record = records[index]
    step = _current_step(act)
    if record["step"] != step:
        raise UserError(
            f"attacks of step {step} are resolved before those of step {record['step']}",
            spec_id="R002.28",
        )
    simultaneous = step in SIMULTANEOUS
    resolution = _resolve_record(state, record, dice, simultaneous)
    state = resolution.state
    records[index] = record.set("resolved", True)
    state = _set_activation(state, declared=tuple(records))
    events = list(resolution.events)
    act = _activation(state)
    assert act is not None
    if _current_step(act) != step:
        state, more = _end_step(state, step)
        events += more
    if _current_step(_activation(state) or {}) is None:
        state = _set_activation(state, stage="boarding")
    return Resolution(state, tuple(events), resolution.summary)


def _resolve_record(
    state: GameState, record: Mapping[str, Any], dice: Dice, simultaneous: bool
) -> Resolution:
    pending = set(tracking.get(state, "pending_removals", ()))
    attacker, target = str(record["attacker"]), str(record["target"])
    gone = [
        u
        for u in (attacker, target)
        if not state.has_unit(u) or (u in pending and not simultaneous)
    ]
    if gone:
        event = Event.of(
            "attack-void", "R002.28", attacker=attacker, target=target, gone=tuple(gone)
        )
        return Resolution(state, (event,), "void")
    params = dict(record["params"])
    for key in ("linked", "combined"):
        if key in params:
            ids = combat._ids(params[key], key)
            params[key] = tuple(i for i in ids if state.has_unit(i))
    try:
        attack = combat.declare(state, attacker, str(record["weapon"]), target, params)
    except UserError as error:
        event = Event.of(
            "attack-void", "R002.28", attacker=attacker, target=target, reason=error.message
        )
        return Resolution(state, (event,), "void")
    return combat.resolve_declared(state, attack, dice, defer=simultaneous)


def _end_step(state: GameState, step: str) -> tuple[GameState, list[Event]]:
    """The end of a combat step: units destroyed in a simultaneous step leave the table."""
    pending = tuple(tracking.get(state, "pending_removals", ()))
    for unit_id in pending:
        if state.has_unit(unit_id):
            state = state.without_unit(unit_id)
    state = tracking.put(state, pending_removals=())
    return state, [Event.of("step-done", "R002.28", step=step, removed=pending)]


def _board(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "boarding")
    unit = _member(state, act, action.actor)
    command.check_boarding(state, unit, options_of(state))
    if unit.id in act.get("boarded", ()):
        raise UserError(f"{unit.id!r} has made its Boarding Assault", spec_id="R002.28")
    target_id = str(_params(action).get("target", ""))
    if target_id not in _boarding_targets(state, unit):
        raise UserError(f"{target_id!r} is not a model {unit.id!r} can board", spec_id="G.5")
    resolution = combat.boarding(state, unit, state.unit(target_id), dice)
    state = _set_activation(resolution.state, boarded=(*act.get("boarded", ()), unit.id))
    return Resolution(state, resolution.events, resolution.summary)


def _end_boarding(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    _need_stage(state, side, "boarding")
    state = _set_activation(state, stage="morale")
    return Resolution(state, (Event.of("boarding-done", "R002.28"),), "morale")


def _break_tests(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    act = _need_stage(state, side, "morale")
    events: list[Event] = []
    broken = []
    for key in break_tests_due(state):
        state, more, result = _morale_test(state, key, dice, "Break Test", "R002.27")
        events += more
        state = tracking.add_to(state, "tested", key)
        if result:
            state = tracking.add_to(state, "broken", key)
            broken.append(key)
    units = squadron_units(state, act["squadron"])
    if units and card(units[0]).is_tiny_flyer:
        state = _set_activation(state, stage="wing-end")
    else:
        state, more = _close_activation(state)
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


def _morale_test(
    state: GameState, key: str, dice: Dice, what: str, rule: str
) -> tuple[GameState, list[Event], bool]:
    """A Break (or Bravery) Test for a whole squadron: 2D6, passed on `morale_pass_max` or less."""
    limit = int(options_of(state)["morale_pass_max"])
    roll, event = dice.chance(
        lambda source: two_d6(source, key, what, rule), key=lambda r: r[0].total <= limit
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
        act = _need_stage(state, side, "wing-end")
        if kind == "land":
            resolution = flyers.land(
                state, act["squadron"], str(_params(action).get("carrier", ""))
            )
            state, events = _close_activation(resolution.state)
            return Resolution(state, resolution.events + tuple(events), resolution.summary)
        if kind == "attach-cap":
            return flyers.attach_cap(state, act["squadron"], str(_params(action).get("parent", "")))
        state, events = _close_activation(state)
        return Resolution(state, tuple(events), "closed")

    return handler


def _close_activation(state: GameState) -> tuple[GameState, list[Event]]:
    act = _activation(state)
    assert act is not None
    key = act["squadron"]
    state, events = flyers.out_of_fuel(state, key)
    state = tracking.add_to(state, "activated", key)
    state = tracking.put(state, activation=None, boosts=FrozenMap(), generators_used=FrozenMap())
    return state, [*events, Event.of("activation-done", "R002.28", squadron=key)]


# --------------------------------------------------------------------------- end phase


def _end_phase(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    if tracking.mapping(state, "end_phase").get("started") or tracking.get(state, "turn_closed"):
        raise UserError("the End Phase has begun", spec_id="R002.19")
    events: list[Event] = []
    if _activation(state) is not None:
        state, more = _close_activation(state)
        events += more
    setup_choices = tracking.mapping(state, "setup")
    turn = _turn(state)
    time_up = bool(_params(action).get("time_up", False))
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
    unit = _unit(state, action.actor)
    if unit not in _repairable(state, side):
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
    key = str(_params(action).get("squadron", ""))
    if key not in _bravery_due(state, side):
        raise UserError(f"{key!r} is not a Broken squadron of {side!r} to test", spec_id="R002.27")
    state, events, failed = _morale_test(state, key, dice, "Bravery Test", "R002.27")
    if not failed:
        state = tracking.put(
            state, broken=tuple(k for k in tracking.get(state, "broken", ()) if k != key)
        )
        events.append(Event.of("rallied", "R002.27", squadron=key))
    state = _end_phase_mark(state, "bravery", key)
    return Resolution(state, tuple(events), not failed)


def _drift(state: GameState, action: Action, dice: Dice, side: str) -> Resolution:
    """R002.19: a Prize drifts in the End Phase (external: 1D6" straight ahead, stopping at
    the first contact or the table's edge)."""
    _need_end_phase(state)
    unit = _unit(state, action.actor)
    if unit not in _drifting(state, side):
        raise UserError(f"{unit.id!r} is not a Prize of {side!r} left to drift", spec_id="R002.19")
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
        _repairable(state, s) or _bravery_due(state, s) or _drifting(state, s) for s in state.sides
    ):
        raise UserError("Damage Repair, Bravery Tests and Drift come first", spec_id="R002.19")
    state, events = _close_turn(state)
    return Resolution(state, tuple(events), _turn(state))


def _close_turn(state: GameState) -> tuple[GameState, list[Event]]:
    """Rationalise Game Markers (until-End-Phase effects end), draw Game Cards (external:
    none), and start the next turn."""
    expired = tracking.mapping(state, "until_end")
    turn = _turn(state)
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


# --------------------------------------------------------------------------- Fleet Commodore


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


HANDLERS: dict[str, Callable[[GameState, Action, Dice, str], Resolution]] = {
    "field-order": _field_order,
    "initiative": _initiative,
    "activate": _activate,
    "command": _command,
    "boost": _boost,
    "launch": _launch,
    "move": _move,
    "move-wing": _move_wing,
    "end-movement": _end_movement,
    "resolve-collisions": _resolve_collisions,
    "declare-attack": _declare_attack,
    "tesla-effect": _generator_action("tesla-effect"),
    "ultrasonic": _generator_action("ultrasonic"),
    "end-declarations": _end_declarations,
    "counterattack": _counterattack,
    "end-counterattacks": _end_counterattacks,
    "resolve-attack": _resolve_attack,
    "board": _board,
    "end-boarding": _end_boarding,
    "break-tests": _break_tests,
    "land": _wing_end_action("land"),
    "attach-cap": _wing_end_action("attach-cap"),
    "end-activation": _wing_end_action("end-activation"),
    "end-phase": _end_phase,
    "damage-repair": _damage_repair,
    "bravery-test": _bravery_test,
    "drift": _drift,
    "end-turn": _end_turn,
    "commodore-reroll": _commodore_reroll,
}


# --------------------------------------------------------------------------- odds

ROLLING = {
    "field-order",
    "initiative",
    "boost",
    "move",
    "move-wing",
    "resolve-collisions",
    "tesla-effect",
    "ultrasonic",
    "board",
    "break-tests",
    "damage-repair",
    "bravery-test",
    "drift",
    "commodore-reroll",
}


def action_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """Exact odds of an action before its roll: an attack's full report, otherwise the
    distribution of `apply`'s summary (the same code, enumerated)."""
    state = setup(state)
    params = _params(action)
    if action.kind in ("declare-attack", "counterattack"):
        weapon, target = str(params.pop("weapon", "")), str(params.pop("target", ""))
        if action.kind == "counterattack":
            params["counter"] = True
        declared = {k: v for k, v in params.items() if v not in ("", None, False)}
        attack = combat.declare(state, action.actor, weapon, target, declared)
        return combat.attack_odds(state, attack, rules_id)
    if action.kind == "resolve-attack":
        act = _activation(state) or {}
        index = params.get("attack")
        records = act.get("declared", ())
        if not isinstance(index, int) or not 0 <= index < len(records):
            raise UserError(f"no declared attack {index!r}", spec_id="R002.28")
        record = records[index]
        attack = combat.declare(
            state,
            str(record["attacker"]),
            str(record["weapon"]),
            str(record["target"]),
            dict(record["params"]),
        )
        return combat.attack_odds(state, attack, rules_id)
    if action.kind not in ROLLING:
        return None
    outcomes = enumerate_outcomes(lambda dice: _odds_summary(apply(state, action, dice).summary))
    return OddsReport(
        rules_id,
        Attack(action.actor, action.kind, str(params.get("target", "")), action.params),
        FrozenMap(action=action.kind),
        (OddsSection("outcome", ODDS_RULES.get(action.kind), "outcome", outcomes),),
    )


def _odds_summary(summary: Any) -> Any:
    if is_critical(summary):  # a critical effect by its name, as the player reads it
        return critical_name(summary)
    if isinstance(summary, tuple):
        return tuple(_odds_summary(s) for s in summary)
    if isinstance(summary, FrozenMap):
        return tuple(sorted(summary.items()))
    return summary


ODDS_RULES = {
    "field-order": "R002.20",
    "initiative": "G.5",
    "boost": "R002.45",
    "move": "R002.34",
    "move-wing": "R002.34",
    "resolve-collisions": "R002.35",
    "tesla-effect": "R002.46",
    "ultrasonic": "R002.47",
    "board": "G.5",
    "break-tests": "R002.27",
    "damage-repair": "R002.19",
    "bravery-test": "R002.27",
    "drift": "R002.19",
    "commodore-reroll": "R002.10",
}
