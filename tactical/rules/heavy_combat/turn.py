"""The Heavy Combat turn (R001.3): power, declarations, and the one Result step.

Phases, each side simultaneously (R001.3):

1. Roll power (R001.4) — `roll_power`: the ship's power dice; a cloaked ship
   pays its cloak's upkeep here (R001.29);
2. Reaction movement (R001.9-R001.12, R001.29) — `rotate` (free, R001.5),
   `close` / `retreat` (1), `lateral` (2), `cloak` (1) / `decloak`;
3. Countermeasures / reinforce (R001.26, R001.27, R001.36) — `reinforce`,
   `countermeasures` (2 power per point, R001.6), `repair` (R001.36);
4. Target selection / fire (R001.37, R001.33) — `fire` (one declaration per
   weapon, general location or specific system), `flash_detect` (10);
5. Result (R001.3) — `resolve`: all fire with the range, facings and
   statuses of the start of the step (R001.8), then movement, repair, the
   expiry of reinforcement and countermeasures (R001.26, R001.27), cloak
   transitions, and the next turn.

The declaration phases alternate (one declaration a go until both sides pass)
so a side can declare several things; every declaration is checked against
the power left (R001.4) and the rules, and costs its power at once.
Declarations roll no dice; `roll_power` and `resolve` do. `resolve` is offered
to whichever side acts first in the Result phase (and, should a session move
on without it, before anything else in a later turn).

Readings adopted where the SPEC leaves the mechanics open (documented so the
tests can pin them):

- a rotation, once begun, goes on each turn until it is complete; it pauses
  while the ship cannot manoeuvre (R001.12, R001.13); a new one can be declared
  only when none is under way; opposite facings pass through a declared `via`
  facing (dorsal or ventral first, the roll of X001.1);
- a lateral move engages the enemy's current facing or one next to it: at the
  Result (after rotations) the enemy presents that facing to the mover;
- close, retreat and lateral moves may not be combined with fire in either
  order of declaration; with half impulse they hold the ship for two turns;
- the Result resolves every shot (to-hit, damage, shields) in declaration
  order, side by side, then each ship's internal hits in the order they were
  caused, then movement, then repair (3 repair points restore one destroyed box
  of the system they were given to; repair points are power points);
- a ship whose internals are all destroyed is a wreck, and one that retreats
  beyond range 3 where the scenario allows it has disengaged: the duel is over;
- a chart row that stops its systems (R001.38, option `system_failure`) takes
  effect as declarations are checked and for the fire of the next Result; the
  row lost in a Result drops a cloak at that Result's end (the next turn is the
  turn without shields and weapons, R001.29), and a cloak still engaging then
  never engages.

The turn is split along its seams: `duel_state` (the duel set up in and read from
the game state, the `Table` of one state's facts), `declarations` (phases 1-4:
each declaration checked and paid for), `result` (phase 5). This module holds
the phase sequence, what each phase offers a side (`actions`, with `refusals`
for what it leaves out) and `apply`, which hands an action to its declaration
or to the Result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState, Unit
from tactical.rules.base import (
    Action,
    ActionChoice,
    Field,
    Phase,
    Resolution,
    TurnPosition,
    TurnSequence,
    unit_name,
)
from tactical.rules.fixed_dice import FIRST_FACE  # declarations never roll
from tactical.rules.heavy_combat.declarations import action_params, declare, lateral_choices
from tactical.rules.heavy_combat.duel import to_rule_state
from tactical.rules.heavy_combat.duel_state import Table, current, ship_of_side
from tactical.rules.heavy_combat.result import resolve
from tactical.rules.heavy_combat.ships import profile
from tactical.rules.heavy_combat.systems import MOVES, cloaked
from tactical.rules.heavy_combat.tables import CATEGORIES, FACINGS, REPAIR_LIMIT, between
from tactical.rules.heavy_combat.weapons import weapons_of

POWER, MOVEMENT, DEFENCE, FIRE, RESULT = (
    "Roll power",
    "Reaction movement",
    "Countermeasures / reinforce",
    "Target selection / fire",
    "Result",
)
TURN_SEQUENCE = TurnSequence(
    (
        Phase(POWER, "R001.4"),
        Phase(MOVEMENT, "R001.3", alternating=True),
        Phase(DEFENCE, "R001.3", alternating=True),
        Phase(FIRE, "R001.37", alternating=True),
        Phase(RESULT, "R001.3"),
    )
)

# the rule system's hooks this module implements (`RuleSystem`'s `hooks_from`): the turn
# (R001.3), each side simultaneously, then the Result step
HOOKS = {"actions": "actions", "apply": "apply", "weapons": "weapon_names"}

# --------------------------------------------------------------------------- protocol


def weapon_names(unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
    """`RuleSystem.weapons`: the weapons on the ship's sheet (T001.8), under any options."""
    return tuple(weapon.name for weapon in weapons_of(profile(unit)))


def apply(state: GameState, action: Action, dice: Dice) -> Resolution:
    """Resolve any declared action (the RuleSystem.apply hook)."""
    state, duel = current(state)
    table = Table(state, duel)
    if action.kind == "resolve":
        action_params(action)
        if duel.over:
            raise UserError("the duel is over", spec_id="R001.34")
        new_state, events, summary = resolve(table, dice)
        return Resolution(new_state, events, summary)
    declared = declare(table, action, dice)
    return Resolution(to_rule_state(state, declared.duel), declared.events, declared.summary)


def _legal(table: Table, action: Action) -> bool:
    try:
        declare(table, action, FIRST_FACE)
    except UserError:
        return False
    return True


def actions(state: GameState, position: TurnPosition, side: str) -> tuple[ActionChoice, ...]:
    """The declarations `side` may make at `position` (RuleSystem.actions)."""
    state, duel = current(state)
    if duel.over:
        return ()
    resolve_choice = ActionChoice(
        "resolve", side, f"Result: resolve turn {duel.turn}", (), "R001.3"
    )
    if position.turn > duel.turn:
        return (resolve_choice,)  # the Result of an earlier turn is still to be applied
    if position.turn < duel.turn:
        return ()
    phase = TURN_SEQUENCE.phases[position.phase].name
    if phase == RESULT:
        return (resolve_choice,)
    ship_id = ship_of_side(state, duel, side)
    if ship_id is None or duel.ship(ship_id).out:
        return ()
    table = Table(state, duel)
    candidates = _candidates(table, ship_id, phase)
    return tuple(choice for choice, action in candidates if _legal(table, action))


def refusals(
    state: GameState, position: TurnPosition, side: str
) -> tuple[tuple[ActionChoice, UserError], ...]:
    """The declarations of the phase `actions` leaves out, each with the rules' refusal."""
    state, duel = current(state)
    if duel.over or position.turn != duel.turn:
        return ()
    phase = TURN_SEQUENCE.phases[position.phase].name
    ship_id = ship_of_side(state, duel, side)
    if phase == RESULT or ship_id is None or duel.ship(ship_id).out:
        return ()
    table = Table(state, duel)
    found = []
    for choice, action in _candidates(table, ship_id, phase):
        try:
            declare(table, action, FIRST_FACE)
        except UserError as error:
            found.append((choice, error))
    return tuple(found)


def _fixed(name: str, value: Any, doc: str = "") -> Field:
    kind = "int" if isinstance(value, int) else "str"
    choices = (value,) if isinstance(value, str) else None
    return Field(name, kind, required=True, default=value, choices=choices, doc=doc)


def _candidates(table: Table, ship_id: str, phase: str) -> list[tuple[ActionChoice, Action]]:
    """Each possible declaration of the phase with its default parameters."""
    duel, ship = table.duel, table.duel.ship(ship_id)
    card = table.cards[ship_id]
    name = unit_name(table.state, ship_id)
    found: list[tuple[ActionChoice, Action]] = []

    def offer(
        kind: str, title: str, spec_id: str, fields: tuple[Field, ...] = (), verb: str = ""
    ) -> None:
        """A declaration titled by what sets it apart first: every row of a list is the
        same ship's, so the ship comes last ("fore → aft: rotate IKS Kronos")."""
        defaults = {f.name: f.default for f in fields if f.default is not None}
        whose = f"{verb} {name}" if verb else name
        found.append(
            (
                ActionChoice(kind, ship_id, f"{title}: {whose}", fields, spec_id),
                Action(kind, ship_id, FrozenMap(defaults)),
            )
        )

    left = ship.remaining_power
    if phase == POWER:
        offer("roll_power", f"roll power ({card.power_dice}d6)", "R001.4")
    elif phase == MOVEMENT:
        start = table.view.facing(ship_id)
        for to in FACINGS:
            if to == start:
                continue
            for via in between(start, to) or (None,):
                title = f"{start} → {to}" + (f" via {via}" if via else "")
                fields = (_fixed("to", to),) + ((_fixed("via", via),) if via else ())
                offer("rotate", title, "R001.11", fields, verb="rotate")
        offer("close", "close one range band (1 point)", "R001.9")
        offer("retreat", "retreat one range band (1 point)", "R001.9")
        enemy_facing = table.view.facing(duel.opponent(ship_id))
        engage = lateral_choices(enemy_facing)
        offer(
            "lateral",
            "lateral move (2 points)",
            "R001.10",
            (
                Field(
                    "engage",
                    "str",
                    required=True,
                    default=enemy_facing,
                    choices=engage,
                    doc="the enemy facing to engage",
                ),
            ),
        )
        offer("cloak", "engage cloak (1 point)", "R001.29")
        offer("decloak", "drop cloak", "R001.29")
    elif phase == DEFENCE:
        power_field = Field(
            "power",
            "int",
            required=True,
            default=2,
            low=2,
            high=max(2, left),
            doc="power spent: 2 per point (R001.6)",
        )
        offer(
            "reinforce",
            "reinforce a shield (2 power per point)",
            "R001.26",
            (
                Field(
                    "facing",
                    "str",
                    required=True,
                    default=table.view.facing(ship_id),
                    choices=FACINGS,
                ),
                power_field,
            ),
        )
        offer("countermeasures", "countermeasures (2 power per point)", "R001.27", (power_field,))
        damaged = tuple(c for c in CATEGORIES if ship.destroyed_in(c) > 0)
        if damaged:
            offer(
                "repair",
                "repair a system (1 power per point)",
                "R001.36",
                (
                    Field("system", "str", required=True, default=damaged[0], choices=damaged),
                    Field("power", "int", required=True, default=1, low=1, high=REPAIR_LIMIT),
                ),
            )
    elif phase == FIRE:
        enemy_id = duel.opponent(ship_id)
        enemy = duel.ship(enemy_id)
        for weapon in weapons_of(card):
            fields: list[Field] = [
                _fixed("weapon", weapon.name),
                _fixed("target", enemy_id),
            ]
            if weapon.points_chosen:
                fields.append(
                    Field(
                        "power",
                        "int",
                        required=True,
                        default=max(1, left),
                        low=1,
                        high=max(1, left),
                        doc="phaser points p: damage p x M(r)",
                    )
                )
            fields.append(
                Field(
                    "mode",
                    "str",
                    default="general",
                    choices=("general", "specific"),
                    doc="general location or a specific system (R001.37)",
                )
            )
            fields.append(
                Field("system", "str", choices=CATEGORIES, doc="the system a specific shot aims at")
            )
            if cloaked(enemy) and table.options["cloaked_direction"] == "declare":
                fields.append(
                    Field(
                        "direction",
                        "str",
                        required=True,
                        default=FACINGS[0],
                        choices=FACINGS,
                        doc="direction fired (R001.30)",
                    )
                )
            offer("fire", weapon.name, weapon.spec_id, tuple(fields), verb="fire from")
        offer(
            "flash_detect",
            "flash-detect the cloaked enemy (10 points)",
            "R001.33",
            (Field("predicted", "str", required=True, default="none", choices=MOVES),),
        )
    return found
