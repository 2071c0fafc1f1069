"""What sw-d6-capital offers a side: whose captain is next, and that ship's choices.

Which captain may act is the rule system's business (R004.14): `order_head`
(orders, lowest Initiative first), `fire_head` (the Action Phase: highest
Initiative first, a round of actions at a time, R004.25) and `move_head`
(movement, lowest first), leaving out the sides that have just passed
(`excluded_sides`). `actions` offers a side its choices only when one of its
ships is next: the Force Point, Command and orders, Damage Control, attacks
and the Masterstroke manoeuvre, movement.
"""

from __future__ import annotations

from typing import Any

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.model.frozen import memo_of
from tactical.rules.base import ActionChoice, Field, TurnPosition, unit_name
from tactical.rules.sw_d6_capital import combat, command, fighters, initiative, ledger, maneuver
from tactical.rules.sw_d6_capital.codes import code_text
from tactical.rules.sw_d6_capital.condition import shield_repair_pips
from tactical.rules.sw_d6_capital.deck import deck_of
from tactical.rules.sw_d6_capital.sequence import TURN_SEQUENCE, active, ensure_setup, prepare
from tactical.rules.sw_d6_capital.tables import (
    ACTION,
    ARCS,
    COMMAND,
    DAMAGE_CONTROL,
    INITIATIVE,
    LOCATIONS,
    NONE,
    ORDERS,
    STEADY,
    max_repair_actions,
    shield_units,
)
from tactical.rules.values import fixed_field

# --------------------------------------------------------------------------- who is next


def excluded_sides(state: GameState, position: TurnPosition) -> frozenset[str]:
    """The sides that have just passed, one after the other (they hold for now)."""
    sides = state.sides
    if not sides or position.passes <= 0:
        return frozenset()
    return frozenset(sides[(position.side - k) % len(sides)] for k in range(1, position.passes + 1))


def order_head(state: GameState, excluded: frozenset[str]) -> Unit | None:
    """R004.14: the next captain to give orders, lowest Initiative first."""
    for unit_id in initiative.ordered(ledger.initiative_order(state), "lowest-first"):
        unit = state.unit(unit_id)
        if unit.side in excluded or not active(state, unit_id):
            continue
        if ledger.condition(state, unit_id).order is None:
            return unit
    return None


def move_head(state: GameState, excluded: frozenset[str]) -> Unit | None:
    """R004.14 / R004.50: the next ship to move, lowest Initiative first."""
    for unit_id in initiative.ordered(ledger.initiative_order(state), "lowest-first"):
        unit = state.unit(unit_id)
        if unit.side in excluded or not active(state, unit_id):
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
    excluded = excluded_sides(state, position)
    if phase == INITIATIVE:
        return _force_point_choices(state, side)
    if phase == COMMAND:
        return command_choices(state, side, excluded)
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
            f"{unit_name(state, unit.id)}: spend a Force Point for a Tactical Masterstroke",
            (),
            "R004.13",
        ),
    )


def command_choices(
    state: GameState, side: str, excluded: frozenset[str]
) -> tuple[ActionChoice, ...]:
    choices = []
    for unit in state.units:
        if unit.side != side or not active(state, unit.id):
            continue
        cond = ledger.condition(state, unit.id)
        if not cond.command_rolled:
            deck = deck_of(unit)
            choices.append(
                ActionChoice(
                    "command",
                    unit.id,
                    f"{unit_name(state, unit.id)}: Command roll "
                    f"{code_text(command.command_code(deck, cond))} "
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
                f"{unit_name(state, head.id)}: give orders",
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
        if unit.side != side or not active(state, unit.id):
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
                    f"{unit_name(state, unit.id)}: Damage Control roll",
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
                        f"{unit_name(state, unit.id)}: astromech repair",
                        (Field("what", "str", default=options[0], choices=options),),
                        "R004.53",
                    )
                )
        if cond.reactor_countdown is not None and not cond.shutdown_tried:
            choices.append(
                ActionChoice(
                    "reactor-shutdown",
                    unit.id,
                    f"{unit_name(state, unit.id)}: shut down the overloading reactor",
                    (),
                    "T004.9",
                )
            )
        if not cond.angled and deck.shields.pips > 0:
            choices.append(
                ActionChoice(
                    "angle-shields",
                    unit.id,
                    f"{unit_name(state, unit.id)}: angle deflector shields "
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
                fixed_field("weapon", weapon.id),
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
                    # the target, then the weapon, before the ship: one ship acts at a time,
                    # so its rows differ in those first
                    f"at {unit_name(state, target.id)}: {weapon.name}, {weapon.arc}, from "
                    f"{unit_name(state, unit.id)} — {facts.band}, Difficulty {facts.difficulty}",
                    tuple(fields),
                    "R004.26",
                )
            )
    return choices


def _action_choices(state: GameState, unit: Unit) -> tuple[ActionChoice, ...]:
    """The head captain's choices: fire, a Tactical Masterstroke move, or hold fire (R004.25);
    worked out once per state and ship (who heads the Action Phase asks every ship, then
    its choices are offered)."""
    memo = memo_of(_ACTION_CHOICES, state)
    found = memo.get(unit.id)
    if found is None or found[0] is not unit:
        found = memo[unit.id] = (unit, _action_choices_of(state, unit))
    return found[1]


_ACTION_CHOICES: dict[int, tuple[Any, dict]] = {}  # by the state's identity (`memo_of`)


def _action_choices_of(state: GameState, unit: Unit) -> tuple[ActionChoice, ...]:
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
                    f"{unit_name(state, unit.id)}: Tactical Masterstroke move",
                    tuple(fields),
                    "R004.40",
                )
            )
    if not choices:
        return ()
    choices.append(
        ActionChoice("hold-fire", unit.id, f"{unit_name(state, unit.id)}: hold fire", (), "R004.25")
    )
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
            f"{unit_name(state, unit.id)}: move at "
            f"{maneuver.effective_speed(unit, deck, cond)} speed",
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
                "recover",
                unit.id,
                f"{unit_name(state, unit.id)}: return to base and Recover",
                (),
                "R004.57",
            )
        )
    choices.append(
        ActionChoice(
            "hold-position", unit.id, f"{unit_name(state, unit.id)}: stay in place", (), "R004.50"
        )
    )
    return tuple(choices)
