"""The generic action protocol for sw-d6-capital: turn sequence, choices, apply, odds.

The turn (T004.1, R004.10) is five phases, each *alternating* in the generic
sequence: the sides take turns, one action each, until every side has passed
in a row. Which captain may act is the rule system's business (R004.14):
`actions()` offers a side its choices only when one of its ships is next —
orders lowest to highest Initiative, fire highest to lowest (a round of
actions at a time, R004.25), movement lowest to highest. A side that passes
while its ship is next holds: the other sides' captains go on (the passes just
made are read from `TurnPosition.passes`), and it may act again later.

Action kinds (the `Action.kind`; `actor` is a unit id except for Initiative):

- Initiative: `initiative` (actor: a side; R004.11-R004.13), `force-point` (R004.13).
- Command: `command` (R004.15, R004.16); `orders` with `order`, `speed` (R004.17,
  R004.39, A004.31).
- Damage Control: `damage-control` with `extra_actions`, `repair_damage`, `shield_dice`,
  `prefer` (R004.18-R004.23); `astromech` with `what` (R004.53); `reactor-shutdown`
  (T004.9 #2); `angle-shields` with `front`, `right`, `rear`, `left` (R004.24).
- Action: `attack` with `weapon`, `target`, `battery_damage`, `location`, `batch`
  (R004.25-R004.40); `maneuver` with `path`, `batch` (R004.40, the Tactical
  Masterstroke); `hold-fire` (R004.25).
- Movement: `move` with `path` (R004.50, R004.51, GEO004.7); `recover` (R004.57);
  `hold-position` (R004.50).

Automatic steps happen inside the first action that needs them and are in its
events: a new turn (Initiative: per-turn flags cleared, 1D of Ionization rolls
off, countdowns, blazing hulks, returning fighter units), and the regeneration
of shields as the Damage Control phase begins (R004.19, once per turn).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tactical.dice import D6, Dice, Distribution, enumerate_outcomes, fraction_text, percent
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
    TurnPosition,
    TurnSequence,
)
from tactical.rules.sw_d6_capital import (
    combat,
    command,
    fighters,
    initiative,
    ledger,
    maneuver,
    repair,
)
from tactical.rules.sw_d6_capital.codes import code_text
from tactical.rules.sw_d6_capital.condition import (
    Condition,
    initial_condition,
    shield_repair_pips,
)
from tactical.rules.sw_d6_capital.deck import deck_of
from tactical.rules.sw_d6_capital.tables import (
    ACTION,
    ARCS,
    COMMAND,
    DAMAGE_CONTROL,
    DESTROYED,
    INITIATIVE,
    LOCATIONS,
    MOVEMENT,
    NONE,
    ORDERS,
    STEADY,
    max_repair_actions,
    shield_units,
)
from tactical.rules.sw_d6_capital.tables import (
    TURN_SEQUENCE as PHASE_TABLE,
)

TURN_SEQUENCE = TurnSequence(
    tuple(Phase(name, spec_id, alternating=True) for name, spec_id, _ in PHASE_TABLE)
)
PHASES = tuple(name for name, _, _ in PHASE_TABLE)
PHASE_OF = {
    "initiative": INITIATIVE,
    "force-point": INITIATIVE,
    "command": COMMAND,
    "orders": COMMAND,
    "damage-control": DAMAGE_CONTROL,
    "astromech": DAMAGE_CONTROL,
    "reactor-shutdown": DAMAGE_CONTROL,
    "angle-shields": DAMAGE_CONTROL,
    "attack": ACTION,
    "maneuver": ACTION,
    "hold-fire": ACTION,
    "move": MOVEMENT,
    "recover": MOVEMENT,
    "hold-position": MOVEMENT,
}


# --------------------------------------------------------------------------- setup


def setup(state: GameState) -> GameState:
    """rule_state at the start of play: turn 0 and every ship's starting condition."""
    ships = {u.id: initial_condition(deck_of(u)).to_plain() for u in state.units}
    return state.with_rule_state(turn=0, ships=ships, dc_turn=0, initiative={}, batch=None)


def ensure_setup(state: GameState) -> GameState:
    if "ships" in state.rule_state:
        return state
    return setup(state)


def prepare(state: GameState, phase: str) -> tuple[GameState, tuple[Event, ...]]:
    """The automatic steps before an action of `phase`: shields regenerate as the Damage
    Control phase begins (R004.19); an unfinished firing action ends with the Action Phase."""
    state = ensure_setup(state)
    events: list[Event] = []
    turn = ledger.turn_of(state)
    index = PHASES.index(phase)
    regenerate = index >= PHASES.index(DAMAGE_CONTROL) and turn >= 1
    if regenerate and int(state.rule_state.get("dc_turn", 0)) < turn:
        state, regenerated = _regenerate_all(state)
        state = state.with_rule_state(dc_turn=turn)
        events.extend(regenerated)
    if index >= PHASES.index(MOVEMENT) and ledger.batch(state) is not None:
        state = state.with_rule_state(batch=None)
    return state, tuple(events)


def _regenerate_all(state: GameState) -> tuple[GameState, list[Event]]:
    updates: dict[str, Condition] = {}
    events: list[Event] = []
    for unit in state.units:
        cond = ledger.condition(state, unit.id)
        updated, happened = repair.regenerate(cond, deck_of(unit))
        if happened:
            updates[unit.id] = updated
            events.extend(_tag(unit.id, happened))
    return ledger.with_conditions(state, updates), events


def _tag(unit_id: str, events: Sequence[Event]) -> list[Event]:
    return [Event(e.kind, e.spec_id, (("unit", unit_id), *e.data)) for e in events]


# --------------------------------------------------------------------------- who is next


def _excluded_sides(state: GameState, position: TurnPosition) -> frozenset[str]:
    """The sides that have just passed, one after the other (they hold for now)."""
    sides = state.sides
    if not sides or position.passes <= 0:
        return frozenset()
    return frozenset(sides[(position.side - k) % len(sides)] for k in range(1, position.passes + 1))


def _active(state: GameState, unit_id: str) -> bool:
    return not ledger.condition(state, unit_id).out_of_action(ledger.turn_of(state))


def order_head(state: GameState, excluded: frozenset[str]) -> Unit | None:
    """R004.14: the next captain to give orders, lowest Initiative first."""
    for unit_id in initiative.ordered(ledger.initiative_order(state), "lowest-first"):
        unit = state.unit(unit_id)
        if unit.side in excluded or not _active(state, unit_id):
            continue
        if ledger.condition(state, unit_id).order is None:
            return unit
    return None


def move_head(state: GameState, excluded: frozenset[str]) -> Unit | None:
    """R004.14 / R004.50: the next ship to move, lowest Initiative first."""
    for unit_id in initiative.ordered(ledger.initiative_order(state), "lowest-first"):
        unit = state.unit(unit_id)
        if unit.side in excluded or not _active(state, unit_id):
            continue
        cond = ledger.condition(state, unit_id)
        if cond.moved or cond.controls_dead:
            continue
        if maneuver.effective_speed(unit, deck_of(unit), cond) == "stationary":
            continue
        return unit
    return None


def fire_head(state: GameState, excluded: frozenset[str]) -> Unit | None:
    """R004.25: the captain to act — the one in an unfinished action, else, of those with
    something left to do, the one with the fewest actions taken, highest Initiative first."""
    current = ledger.batch(state)
    if current is not None and state.has_unit(current["ship"]):
        unit = state.unit(current["ship"])
        if unit.side not in excluded and _action_choices(state, unit):
            return unit
    best: tuple[int, int, Unit] | None = None
    for rank, unit_id in enumerate(ledger.initiative_order(state)):
        unit = state.unit(unit_id)
        if unit.side in excluded:
            continue
        cond = ledger.condition(state, unit_id)
        if cond.done or not _action_choices(state, unit):
            continue
        key = (cond.batches, rank)
        if best is None or key < best[:2]:
            best = (cond.batches, rank, unit)
    return best[2] if best else None


# --------------------------------------------------------------------------- choices


def actions(state: GameState, position: TurnPosition, side: str) -> tuple[ActionChoice, ...]:
    """What `side` may declare at `position` (module docstring)."""
    state = ensure_setup(state)
    if ledger.turn_of(state) < position.turn:
        return (
            ActionChoice(
                "initiative",
                side,
                f"Turn {ledger.turn_of(state) + 1}: every captain rolls Initiative",
                (),
                "R004.11",
            ),
        )
    phase = TURN_SEQUENCE.phases[position.phase].name
    state, _ = prepare(state, phase)
    excluded = _excluded_sides(state, position)
    if phase == INITIATIVE:
        return _force_point_choices(state, side)
    if phase == COMMAND:
        return _command_choices(state, side, excluded)
    if phase == DAMAGE_CONTROL:
        return _repair_choices(state, side)
    if phase == ACTION:
        head = fire_head(state, excluded)
        if head is None or head.side != side:
            return ()
        return _action_choices(state, head)
    head = move_head(state, excluded)
    if head is None or head.side != side:
        return ()
    return _move_choices(state, head)


def _force_point_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    info = ledger.initiative_info(state)
    winner = info.get("winner")
    if not winner or info.get("masterstroke") or not state.has_unit(winner):
        return ()
    unit = state.unit(winner)
    if unit.side != side or ledger.condition(state, winner).force_points < 1:
        return ()
    return (
        ActionChoice(
            "force-point",
            winner,
            f"{unit.name}: spend a Force Point for a Tactical Masterstroke",
            (),
            "R004.13",
        ),
    )


def _command_choices(
    state: GameState, side: str, excluded: frozenset[str]
) -> tuple[ActionChoice, ...]:
    choices = []
    for unit in state.units:
        if unit.side != side or not _active(state, unit.id):
            continue
        cond = ledger.condition(state, unit.id)
        if not cond.command_rolled:
            deck = deck_of(unit)
            choices.append(
                ActionChoice(
                    "command",
                    unit.id,
                    f"{unit.name}: Command roll {code_text(command.command_code(deck, cond))} "
                    f"vs {deck.command_difficulty}",
                    (),
                    "R004.15",
                )
            )
    head = order_head(state, excluded)
    if head is not None and head.side == side:
        deck, cond = deck_of(head), ledger.condition(state, head.id)
        current = str(head.stats.get("speed", deck.speed))
        speeds = command.speeds_for(deck, cond, current)
        choices.append(
            ActionChoice(
                "orders",
                head.id,
                f"{head.name}: give orders",
                (
                    Field("order", "str", required=True, default=STEADY, choices=ORDERS),
                    Field(
                        "speed",
                        "str",
                        default=current if current in speeds else speeds[-1],
                        choices=speeds,
                        spec_id="R004.39",
                    ),
                ),
                "R004.17",
            )
        )
    return tuple(choices)


def _repair_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    turn = ledger.turn_of(state)
    choices = []
    for unit in state.units:
        if unit.side != side or not _active(state, unit.id):
            continue
        deck, cond = deck_of(unit), ledger.condition(state, unit.id)
        downed = shield_repair_pips(cond)
        if not cond.dc_done and (cond.level != NONE or downed):
            cap = max_repair_actions(cond.current_cso(deck, turn))
            units = shield_units(downed)
            choices.append(
                ActionChoice(
                    "damage-control",
                    unit.id,
                    f"{unit.name}: Damage Control roll",
                    (
                        Field(
                            "extra_actions", "int", default=0, low=0, high=cap, spec_id="R004.20"
                        ),
                        Field(
                            "repair_damage",
                            "bool",
                            default=cond.level != NONE,
                            spec_id="R004.22",
                        ),
                        Field(
                            "shield_dice",
                            "int",
                            default=units,
                            low=0,
                            high=units,
                            spec_id="R004.22",
                        ),
                        Field(
                            "prefer",
                            "str",
                            default="damage",
                            choices=("damage", "shields"),
                            spec_id="R004.23",
                        ),
                    ),
                    "R004.20",
                )
            )
        if deck.astromech is not None and deck.fighter and not cond.astromech_done:
            options = tuple(
                what
                for what, ok in (("damage", cond.level == "light"), ("shields", downed > 0))
                if ok
            )
            if options:
                choices.append(
                    ActionChoice(
                        "astromech",
                        unit.id,
                        f"{unit.name}: astromech repair",
                        (Field("what", "str", default=options[0], choices=options),),
                        "R004.53",
                    )
                )
        if cond.reactor_countdown is not None and not cond.shutdown_tried:
            choices.append(
                ActionChoice(
                    "reactor-shutdown",
                    unit.id,
                    f"{unit.name}: shut down the overloading reactor",
                    (),
                    "T004.9",
                )
            )
        if not cond.angled and deck.shields.pips > 0:
            choices.append(
                ActionChoice(
                    "angle-shields",
                    unit.id,
                    f"{unit.name}: angle deflector shields "
                    f"({code_text(cond.shields_available(deck))} available)",
                    tuple(
                        Field(arc, "str", default=code_text(cond.shield_arcs[i]), spec_id="R004.24")
                        for i, arc in enumerate(ARCS)
                    ),
                    "R004.24",
                )
            )
    return tuple(choices)


def _fire_choices(state: GameState, unit: Unit) -> list[ActionChoice]:
    deck, cond = deck_of(unit), ledger.condition(state, unit.id)
    if combat.fire_block(state, unit, deck, cond) is not None:
        return []
    current = ledger.batch(state)
    continuing = current is not None and current.get("ship") == unit.id
    open_count = combat.open_actions(state, unit, deck, cond)
    choices = []
    for weapon in deck.weapons:
        if combat.weapon_block(cond, weapon) is not None:
            continue
        for target in state.units:
            if target.side == unit.side:
                continue
            try:
                facts = combat.fire_facts(state, unit.id, weapon.id, target.id, {})
            except UserError:
                continue
            fields = [
                Field("weapon", "str", required=True, default=weapon.id, choices=(weapon.id,)),
                Field("target", "str", required=True, default=target.id, choices=(target.id,)),
                Field(
                    "battery_damage",
                    "int",
                    default=0,
                    low=0,
                    high=facts.battery_cap,
                    doc="Battery Dice (pips) into Damage; the rest to Gunnery Fire Control",
                    spec_id="R004.31",
                ),
                Field(
                    "location",
                    "str",
                    default=combat.NO_LOCATION,
                    choices=(combat.NO_LOCATION, *LOCATIONS),
                    spec_id="R004.32",
                ),
            ]
            if not continuing:
                fields.append(
                    Field(
                        "batch", "int", default=1, low=1, high=max(open_count, 1), spec_id="R004.27"
                    )
                )
            choices.append(
                ActionChoice(
                    "attack",
                    unit.id,
                    f"{unit.name}: {weapon.name} ({weapon.arc}) at {target.name} — "
                    f"{facts.band}, Difficulty {facts.difficulty}",
                    tuple(fields),
                    "R004.26",
                )
            )
    return choices


def _action_choices(state: GameState, unit: Unit) -> tuple[ActionChoice, ...]:
    """The head captain's choices: fire, a Tactical Masterstroke move, or hold fire."""
    deck, cond = deck_of(unit), ledger.condition(state, unit.id)
    if cond.done or combat.action_phase_block(state, unit, deck, cond) is not None:
        return ()
    choices = _fire_choices(state, unit)
    info = ledger.initiative_info(state)
    if info.get("masterstroke") and info.get("winner") == unit.id and not cond.moved:
        try:
            move = maneuver.plan_ship_move(state, unit.id, None)
        except UserError:
            move = None
        if move is not None:
            fields = [Field("path", "str", default=move.path, spec_id="R004.40")]
            current = ledger.batch(state)
            if current is None or current.get("ship") != unit.id:
                count = combat.open_actions(state, unit, deck, cond)
                fields.append(Field("batch", "int", default=1, low=1, high=max(count, 1)))
            choices.append(
                ActionChoice(
                    "maneuver",
                    unit.id,
                    f"{unit.name}: Tactical Masterstroke move",
                    tuple(fields),
                    "R004.40",
                )
            )
    if not choices:
        return ()
    choices.append(ActionChoice("hold-fire", unit.id, f"{unit.name}: hold fire", (), "R004.25"))
    return tuple(choices)


def _move_choices(state: GameState, unit: Unit) -> tuple[ActionChoice, ...]:
    deck, cond = deck_of(unit), ledger.condition(state, unit.id)
    choices = []
    options = dict(ledger.settings(state))
    path = maneuver.default_path(unit, deck, cond, options)
    choices.append(
        ActionChoice(
            "move",
            unit.id,
            f"{unit.name}: move at {maneuver.effective_speed(unit, deck, cond)} speed",
            (Field("path", "str", default=path, doc="e.g. F4 S45 F2", spec_id="R004.50"),),
            "R004.50",
        )
    )
    try:
        fighters.check_recovery(state, unit.id)
    except UserError:
        pass
    else:
        choices.append(
            ActionChoice(
                "recover", unit.id, f"{unit.name}: return to base and Recover", (), "R004.57"
            )
        )
    choices.append(
        ActionChoice("hold-position", unit.id, f"{unit.name}: stay in place", (), "R004.50")
    )
    return tuple(choices)


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action, dice: Dice) -> Resolution:
    """Resolve any declared action with the given dice (module docstring)."""
    phase = PHASE_OF.get(action.kind)
    if phase is None:
        known = ", ".join(PHASE_OF)
        raise UserError(f"sw-d6-capital has no action {action.kind!r}: its actions are {known}")
    state = ensure_setup(state)
    if action.kind == "initiative":
        return start_turn(state, dice)
    state, prepared = prepare(state, phase)
    params = dict(action.params)
    handler = _HANDLERS[action.kind]
    resolution = handler(state, action.actor, params, dice)
    return Resolution(resolution.state, prepared + resolution.events, resolution.summary)


def _no_params(kind: str, params: Mapping[str, Any]) -> None:
    if params:
        raise UserError(f"{kind} takes no parameters, not {', '.join(sorted(params))}")


def _check_params(kind: str, params: Mapping[str, Any], allowed: Sequence[str]) -> None:
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise UserError(
            f"{kind} takes no {', '.join(unknown)} (parameters: {', '.join(allowed) or 'none'})"
        )


def _owner_active(state: GameState, unit_id: str, rule: str) -> tuple[Unit, Any, Condition]:
    unit, deck, cond = ledger.ship(state, unit_id)
    if cond.out_of_action(ledger.turn_of(state)):
        raise UserError(f"{unit_id!r} cannot act now ({cond.level})", spec_id=rule)
    return unit, deck, cond


# ---- Initiative


def start_turn(state: GameState, dice: Dice) -> Resolution:
    """R004.10-R004.13: a new turn begins — upkeep, then every captain rolls Initiative."""
    events: list[Event] = []
    if ledger.turn_of(state) >= 1:
        state, regenerated = prepare(state, DAMAGE_CONTROL)
        events.extend(regenerated)
    turn = ledger.turn_of(state) + 1
    state = state.with_rule_state(turn=turn, batch=None, initiative={})
    events.append(Event.of("turn", "R004.10", turn=turn))
    state, upkeep = _upkeep(state, dice)
    events.extend(upkeep)
    entries = contest_entries(state)
    if not entries:
        return Resolution(state, tuple(events), ("", False))
    contest = initiative.resolve_contest(entries, dice)
    events.extend(contest.events)
    bonuses = initiative.next_bonuses({e.ship: e.bonus for e in entries}, contest.winner)
    updates = {
        ship: replace(ledger.condition(state, ship), initiative_bonus=bonus)
        for ship, bonus in bonuses.items()
    }
    state = ledger.with_conditions(state, updates)
    info = {
        "order": contest.order,
        "totals": dict(contest.totals),
        "winner": contest.winner,
        "margin": contest.margin,
        "masterstroke": contest.masterstroke,
    }
    state = state.with_rule_state(initiative=info)
    events.append(
        Event.of(
            "initiative",
            "R004.11",
            order=contest.order,
            winner=contest.winner,
            margin=contest.margin,
            bonuses=tuple(sorted(bonuses.items())),
        )
    )
    events.append(
        Event.of(
            "masterstroke",
            "R004.13",
            winner=contest.winner,
            margin=contest.margin,
            masterstroke=contest.masterstroke,
        )
    )
    return Resolution(state, tuple(events), (contest.winner, contest.masterstroke))


def contest_entries(state: GameState) -> tuple[initiative.Entry, ...]:
    """The captains in this turn's contest: every ship that can act."""
    rounding = str(ledger.settings(state)["initiative_rounding"])
    entries = []
    for unit in state.units:
        if not _active(state, unit.id):
            continue
        deck, cond = deck_of(unit), ledger.condition(state, unit.id)
        entries.append(
            initiative.Entry(unit.id, deck.initiative_code(rounding).pips, cond.initiative_bonus)
        )
    return tuple(entries)


def _upkeep(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """Start-of-turn bookkeeping: flags cleared, Ionization rolls off 1D (R004.41, R004.42),
    reactors and abandoned hulls count down, blazing hulks roll (T004.10), units return."""
    events: list[Event] = []
    for unit in list(state.units):
        cond = ledger.condition(state, unit.id).new_turn()
        if cond.ionization:
            cond = replace(cond, ionization=cond.ionization - 1)
            events.append(
                Event.of(
                    "ionization-rolls-off",
                    "R004.41",
                    unit=unit.id,
                    ionization=cond.ionization,
                    lost_moves=cond.lost_moves,
                )
            )
        doomed = None
        if cond.reactor_countdown is not None:
            cond = replace(cond, reactor_countdown=cond.reactor_countdown - 1)
            if cond.reactor_countdown <= 0:
                doomed = "T004.9"
        if cond.abandon_countdown is not None:
            cond = replace(cond, abandon_countdown=cond.abandon_countdown - 1)
            if cond.abandon_countdown <= 0:
                doomed = "T004.10"
        if cond.blazing and doomed is None:
            face = blazing_roll(unit.id, dice)
            events.append(
                Event.of("roll", "T004.10", who=unit.id, what="blazing hulk", die="d6", result=face)
            )
            if face == 1:
                doomed = "T004.10"
        if doomed is not None:
            cond = replace(cond, level=DESTROYED, reactor_countdown=None, blazing=False)
            events.append(Event.of("explodes", doomed, unit=unit.id))
            state = ledger.with_condition(state, unit.id, cond).without_unit(unit.id)
            continue
        state = ledger.with_condition(state, unit.id, cond)
        state, returned = fighters.return_from_recovery(state, unit.id)
        events.extend(returned)
    return state, events


def blazing_roll(unit_id: str, dice: Dice) -> int:
    """T004.10 Blazing Hulk: 1D every round, the ship explodes on a 1."""
    return dice.roll(D6, who=unit_id, what="blazing hulk")


def _force_point(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("force-point", params)
    info = dict(ledger.initiative_info(state))
    cond = ledger.condition(state, actor)
    if info.get("winner") != actor:
        raise UserError("only the Initiative winner may take a Masterstroke", spec_id="R004.13")
    if info.get("masterstroke"):
        raise UserError(f"{actor!r} already has its Tactical Masterstroke", spec_id="R004.13")
    if cond.force_points < 1:
        raise UserError(f"{actor!r} has no Force Point to spend", spec_id="R004.13")
    state = ledger.with_condition(state, actor, replace(cond, force_points=cond.force_points - 1))
    info["masterstroke"] = True
    state = state.with_rule_state(initiative=info)
    event = Event.of("force-point", "R004.13", ship=actor, left=cond.force_points - 1)
    return Resolution(state, (event,), True)


# ---- Command


def _command(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("command", params)
    _unit, deck, cond = _owner_active(state, actor, "R004.15")
    if cond.command_rolled:
        raise UserError(f"{actor!r} has rolled Command this turn", spec_id="R004.15")
    result = command.command_roll(
        actor, command.command_code(deck, cond), deck.command_difficulty, dice
    )
    state = ledger.with_condition(state, actor, command.record_command(cond, result))
    return Resolution(state, command.command_events(actor, result), result.tracker)


def _orders(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("orders", params, ("order", "speed"))
    unit, deck, cond = _owner_active(state, actor, "R004.17")
    if cond.order is not None:
        raise UserError(f"{actor!r} has its orders for this turn", spec_id="R004.17")
    current = str(unit.stats.get("speed", deck.speed))
    order = params.get("order", STEADY)
    speed = params.get("speed", current)
    command.check_order(actor, deck, cond, order, speed, current)
    state = state.replace_unit(unit.with_stats(speed=speed))
    state = ledger.with_condition(state, actor, replace(cond, order=order))
    return Resolution(state, (command.order_event(actor, deck, order, speed),), order)


# ---- Damage Control


def _damage_control(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params(
        "damage-control", params, ("extra_actions", "repair_damage", "shield_dice", "prefer")
    )
    _unit, deck, cond = _owner_active(state, actor, "R004.20")
    plan = repair.repair_plan(actor, deck, cond, ledger.turn_of(state), params)
    meet = bool(ledger.settings(state)["meet_or_beat"])
    result = repair.repair_roll(actor, plan, dice, meet)
    updated, applied = repair.apply_repair(cond, deck, plan, result)
    state = ledger.with_condition(state, actor, updated)
    events = (
        Event.of(
            "damage-control",
            "R004.20",
            ship=actor,
            code=code_text(plan.code_pips),
            difficulty=plan.difficulty,
            covers_damage=plan.covers_damage,
            shield_pips=plan.shield_pips,
            **dict(plan.terms),
        ),
        result.roll.event(actor, "damage control", "R004.20"),
        *applied,
    )
    return Resolution(state, events, result.outcome)


def _astromech(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("astromech", params, ("what",))
    _unit, deck, cond = _owner_active(state, actor, "R004.53")
    what = params.get("what", "damage")
    repair.check_astromech(actor, deck, cond, what)
    difficulty = repair.astromech_difficulty(cond, what)
    meet = bool(ledger.settings(state)["meet_or_beat"])
    roll, success = repair.astromech_roll(actor, deck.astromech.pips, difficulty, dice, meet)
    state = ledger.with_condition(state, actor, repair.apply_astromech(cond, deck, what, success))
    events = (
        roll.event(actor, "astromech repair", "R004.53"),
        Event.of("astromech", "R004.53", what=what, difficulty=difficulty, success=success),
    )
    return Resolution(state, events, success)


def _reactor(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("reactor-shutdown", params)
    _unit, deck, cond = _owner_active(state, actor, "T004.9")
    if cond.reactor_countdown is None:
        raise UserError(f"{actor!r}'s reactor is not overloading", spec_id="T004.9")
    if cond.shutdown_tried:
        raise UserError(f"{actor!r} has tried a shutdown this turn", spec_id="T004.9")
    meet = bool(ledger.settings(state)["meet_or_beat"])
    pips = repair.shutdown_code(deck, cond, ledger.turn_of(state))
    roll, success = repair.shutdown_roll(actor, pips, dice, meet)
    updated = replace(
        cond, shutdown_tried=True, reactor_countdown=None if success else cond.reactor_countdown
    )
    state = ledger.with_condition(state, actor, updated)
    events = (
        roll.event(actor, "reactor shutdown", "T004.9"),
        Event.of("reactor-shutdown", "R004.4", difficulty=repair.EASY, success=success),
    )
    return Resolution(state, events, success)


def _angle_shields(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("angle-shields", params, ARCS)
    _unit, deck, cond = _owner_active(state, actor, "R004.24")
    if cond.angled:
        raise UserError(f"{actor!r} has angled its shields this turn", spec_id="R004.24")
    arcs = repair.parse_allocation(params, cond.shield_arcs)
    repair.check_allocation(actor, deck, cond, arcs)
    events: list[Event] = []
    success = True
    if deck.fighter and arcs != cond.shield_arcs:
        meet = bool(ledger.settings(state)["meet_or_beat"])
        pips = repair.shields_roll_code(deck, cond, ledger.turn_of(state))
        roll, success = repair.shields_roll(actor, pips, dice, meet)
        cond = replace(cond, shields_map=cond.shields_map + 1)
        events.append(roll.event(actor, "shields", "R004.24"))
        events.append(
            Event.of("shields-roll", "A004.36", difficulty=repair.EASY, success=success, map_dice=1)
        )
    if success:
        cond = repair.set_allocation(cond, arcs)
    cond = replace(cond, angled=True)
    state = ledger.with_condition(state, actor, cond)
    events.append(
        Event.of(
            "shields",
            "R004.24",
            ship=actor,
            **{arc: code_text(cond.shield_arcs[i]) for i, arc in enumerate(ARCS)},
        )
    )
    return Resolution(state, tuple(events), tuple(cond.shield_arcs))


# ---- Action


def _close_other_batch(state: GameState, actor: str) -> tuple[GameState, tuple[Event, ...]]:
    """R004.25: another captain acting means the unfinished action has passed."""
    current = ledger.batch(state)
    if current is None or current.get("ship") == actor:
        return state, ()
    event = Event.of(
        "action-ends",
        "R004.25",
        ship=current["ship"],
        used=current["used"],
        declared=current["size"],
    )
    return state.with_rule_state(batch=None), (event,)


def _attack(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    weapon = str(params.pop("weapon", ""))
    target = str(params.pop("target", ""))
    state, closed = _close_other_batch(state, actor)
    facts = combat.fire_facts(state, actor, weapon, target, params)
    resolution = combat.resolve_facts(state, facts, dice)
    return Resolution(resolution.state, closed + resolution.events, resolution.summary)


def _maneuver(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("maneuver", params, ("path", "batch"))
    info = ledger.initiative_info(state)
    if not (info.get("masterstroke") and info.get("winner") == actor):
        raise UserError(
            f"{actor!r} has no Tactical Masterstroke: it moves in the Movement Phase",
            spec_id="R004.40",
        )
    state, closed = _close_other_batch(state, actor)
    unit, deck, cond = ledger.ship(state, actor)
    blocked = combat.action_phase_block(state, unit, deck, cond)
    if blocked is not None:
        raise blocked
    slot = combat.batch_slot(state, unit, deck, cond, params.get("batch"))
    move = maneuver.plan_ship_move(state, actor, params.get("path"), slot.size - 1)
    state, events, outcome = maneuver.carry_out(state, move, dice, masterstroke=True)
    cond = ledger.condition(state, actor)
    state, cond = combat.take_batch_action(state, actor, slot, cond)
    state = ledger.with_condition(state, actor, cond)
    return Resolution(state, closed + events, outcome)


def _hold_fire(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("hold-fire", params)
    state, closed = _close_other_batch(state, actor)
    current = ledger.batch(state)
    if current is not None and current.get("ship") == actor:
        state = state.with_rule_state(batch=None)
    cond = ledger.condition(state, actor)
    state = ledger.with_condition(state, actor, replace(cond, done=True))
    return Resolution(state, (*closed, Event.of("hold-fire", "R004.25", ship=actor)), "done")


# ---- Movement


def _move(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _check_params("move", params, ("path",))
    move = maneuver.plan_ship_move(state, actor, params.get("path"))
    state, events, outcome = maneuver.carry_out(state, move, dice)
    return Resolution(state, events, outcome)


def _recover(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("recover", params)
    state, events, rounds = fighters.start_recovery(state, actor, dice)
    return Resolution(state, events, rounds)


def _hold_position(state: GameState, actor: str, params: dict, dice: Dice) -> Resolution:
    _no_params("hold-position", params)
    _unit, _deck, cond = ledger.ship(state, actor)
    if cond.moved:
        raise UserError(f"{actor!r} has moved this turn", spec_id="R004.50")
    state = ledger.with_condition(state, actor, replace(cond, moved=True))
    return Resolution(state, (Event.of("hold-position", "R004.50", ship=actor),), "stayed")


_HANDLERS = {
    "force-point": _force_point,
    "command": _command,
    "orders": _orders,
    "damage-control": _damage_control,
    "astromech": _astromech,
    "reactor-shutdown": _reactor,
    "angle-shields": _angle_shields,
    "attack": _attack,
    "maneuver": _maneuver,
    "hold-fire": _hold_fire,
    "move": _move,
    "recover": _recover,
    "hold-position": _hold_position,
}


# --------------------------------------------------------------------------- odds


def _report(
    rules_id: str, action: Action, facts: dict[str, Any], sections: Sequence[OddsSection]
) -> OddsReport:
    attack = Attack(action.actor, action.kind, "", FrozenMap(action.params))
    return OddsReport(rules_id, attack, FrozenMap(facts), tuple(sections))


def _success_section(name: str, spec_id: str, distribution: Distribution[bool]) -> OddsSection:
    return OddsSection(name, spec_id, "success", distribution.sorted())


def action_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """Exact odds of a declared action before its roll, from the resolver's own chance code."""
    phase = PHASE_OF.get(action.kind)
    if phase is None:
        return None
    state = ensure_setup(state)
    params = dict(action.params)
    meet = bool(ledger.settings(state)["meet_or_beat"])
    turn = ledger.turn_of(state)
    if action.kind == "initiative":
        return _initiative_odds(state, action, rules_id)
    state, _ = prepare(state, phase)
    if action.kind == "attack":
        weapon, target = str(params.pop("weapon", "")), str(params.pop("target", ""))
        state, _closed = _close_other_batch(state, action.actor)
        attack = combat.declare(state, action.actor, weapon, target, params)
        return combat.attack_odds(state, attack, rules_id)
    if action.kind == "command":
        _unit, deck, cond = _owner_active(state, action.actor, "R004.15")
        pips = command.command_code(deck, cond)
        odds = command.tracker_odds(pips, deck.command_difficulty)
        return _report(
            rules_id,
            action,
            {"command": code_text(pips), "difficulty": deck.command_difficulty},
            (OddsSection("tracker", "R004.16", "pips", odds),),
        )
    if action.kind == "damage-control":
        _unit, deck, cond = _owner_active(state, action.actor, "R004.20")
        plan = repair.repair_plan(action.actor, deck, cond, turn, params)
        return _report(
            rules_id,
            action,
            {"code": code_text(plan.code_pips), "difficulty": plan.difficulty},
            (OddsSection("outcome", "T004.4", "outcome", repair.repair_odds(plan, meet)),),
        )
    if action.kind == "astromech":
        _unit, deck, cond = _owner_active(state, action.actor, "R004.53")
        what = params.get("what", "damage")
        repair.check_astromech(action.actor, deck, cond, what)
        difficulty = repair.astromech_difficulty(cond, what)
        odds = enumerate_outcomes(
            lambda d: repair.astromech_roll("", deck.astromech.pips, difficulty, d, meet)[1]
        )
        return _report(
            rules_id,
            action,
            {"code": code_text(deck.astromech.pips), "difficulty": difficulty},
            (_success_section("success", "R004.53", odds),),
        )
    if action.kind == "reactor-shutdown":
        _unit, deck, cond = _owner_active(state, action.actor, "T004.9")
        pips = repair.shutdown_code(deck, cond, turn)
        odds = enumerate_outcomes(lambda d: repair.shutdown_roll("", pips, d, meet)[1])
        return _report(
            rules_id,
            action,
            {"code": code_text(pips), "difficulty": repair.EASY},
            (_success_section("success", "T004.9", odds),),
        )
    if action.kind == "angle-shields":
        _unit, deck, cond = _owner_active(state, action.actor, "R004.24")
        arcs = repair.parse_allocation(params, cond.shield_arcs)
        if not deck.fighter or arcs == cond.shield_arcs:
            return None
        pips = repair.shields_roll_code(deck, cond, turn)
        odds = enumerate_outcomes(lambda d: repair.shields_roll("", pips, d, meet)[1])
        return _report(
            rules_id,
            action,
            {"code": code_text(pips), "difficulty": repair.EASY},
            (_success_section("success", "A004.36", odds),),
        )
    if action.kind in ("move", "maneuver"):
        batch_map = 0
        if action.kind == "maneuver":
            unit, deck, cond = ledger.ship(state, action.actor)
            batch_map = combat.batch_slot(state, unit, deck, cond, params.get("batch")).size - 1
        move = maneuver.plan_ship_move(state, action.actor, params.get("path"), batch_map)
        if not move.hazards:
            return None
        return _report(
            rules_id,
            action,
            {
                "hazards": move.hazards,
                "piloting": code_text(move.piloting_pips),
                "difficulty": move.difficulty,
            },
            (_success_section("piloting", "GEO004.7", maneuver.piloting_odds(move, meet)),),
        )
    if action.kind == "recover":
        fighters.check_recovery(state, action.actor)
        odds = enumerate_outcomes(lambda d: fighters.recovery_rounds(action.actor, d)).sorted()
        return _report(rules_id, action, {}, (OddsSection("rounds", "R004.57", "rounds", odds),))
    return None


def _initiative_odds(state: GameState, action: Action, rules_id: str) -> OddsReport:
    """R004.11-R004.13: who wins the contest and whether with a Masterstroke (exact), and the
    chance each blazing hulk explodes (T004.10)."""
    upkept, _ = _upkeep(state.with_rule_state(turn=ledger.turn_of(state) + 1), _NoRolls())
    entries = contest_entries(upkept)
    odds = initiative.contest_odds(entries)
    sections = [
        OddsSection("winner", "R004.11", "ship", odds.map(lambda o: o[0])),
        OddsSection("masterstroke", "R004.13", "masterstroke", odds.map(lambda o: o[1]).sorted()),
    ]
    for unit in state.units:
        if ledger.condition(state, unit.id).blazing:
            explodes = enumerate_outcomes(lambda d, u=unit.id: blazing_roll(u, d) == 1).sorted()
            sections.append(OddsSection(f"{unit.id} explodes", "T004.10", "explodes", explodes))
    facts = {
        "captains": [
            {"ship": e.ship, "initiative": code_text(e.pips), "bonus": e.bonus} for e in entries
        ],
        "masterstroke_probability": fraction_text(odds.where(lambda o: o[1])),
        "masterstroke_percent": percent(odds.where(lambda o: o[1])),
    }
    return _report(rules_id, action, facts, sections)


class _NoRolls:
    """A dice source for the deterministic part of the upkeep: blazing hulks (whose roll does
    not change who contests Initiative) read as surviving."""

    def roll(self, die, *, who: str = "", what: str = "") -> int:
        return die.high

    def fold(self, initial, steps, key=None):
        state = initial
        for step in steps:
            state = step(state, self)
        return state

    def chance(self, fn, key=None):
        return fn(self)


__all__ = [
    "TURN_SEQUENCE",
    "action_odds",
    "actions",
    "apply",
    "prepare",
    "setup",
]
