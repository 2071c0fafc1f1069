"""The frame of the Dystopian Wars turn (R002.19, R002.20, R002.28, T002.5): its phases,
`setup`, the tracker's `stage`, and the record of the squadron being activated that the
choices and actions of every segment read and write (`current_activation`,
`set_activation`, `need_stage`, `member`, `current_step`, `generator_flags`).

The segments themselves live in `opening` (Field Orders, initiative, activation, Command),
`movement_segment` (2a, 2b), `attacks` (3a, 3b declarations), `combat_steps` (3b-3d),
`activation_end` (4, 5, a Wing's end), `end_phase` and `commodore` (R002.10); `play`
dispatches to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import is_
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
    Stage,
    StageStep,
    TurnPosition,
    TurnSequence,
)
from tactical.rules.dystopian_wars import combat, fleet, flyers, generators, tracking
from tactical.rules.dystopian_wars.cards import card, squadron_words, squadrons, table_sides
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

STEP_ORDER = [name for name, _ in COMBAT_STEPS]


def options_of(state: GameState) -> Mapping[str, Any]:
    """The options in force (`combat.settings`)."""
    return combat.settings(state)


# --------------------------------------------------------------------------- setup


def setup(state: GameState) -> GameState:
    """The state at the start of play: rule_state initialised (idempotent)."""
    if "turn" in state.rule_state:
        return state
    options = options_of(state)  # validated: a wrong option is refused here
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


def stage(state: GameState, position: TurnPosition | None = None) -> Stage | None:
    """R002.28: the squadron being activated, and the segment of T002.5 it is in (for the
    resolution of attacks, the combat step whose attacks are resolved now); the rule state
    tells it, whatever the session's position."""
    act = current_activation(state)
    if not act:
        return None
    code = _STEP_OF_STAGE.get(act["stage"])
    if act["stage"] == "resolve":
        step = current_step(act)
        code = step.split("-")[0] if step is not None else None
    codes = [s.code for s in ACTIVATION_STEPS]
    current = codes.index(code) if code in codes else None
    # what the tracker shows: the squadron by its name, not its key ("A:battle-line")
    facts = {"side": act["side"], "squadron": squadron_words(state, str(act["squadron"]))}
    if act["stage"] == "counter" and act.get("defenders"):
        facts["counterattacking"] = tuple(act["defenders"])
    return Stage(ACTIVATION_STEPS, current, FrozenMap(facts))


# --------------------------------------------------------------------------- the activation record


def turn_number(state: GameState) -> int:
    """The turn being played (1 before `setup`)."""
    return int(tracking.get(state, "turn", 1))


def current_activation(state: GameState) -> Mapping[str, Any] | None:
    """R002.28: the record of the squadron being activated, or None between activations."""
    return tracking.get(state, "activation")


def set_activation(state: GameState, **changes: Any) -> GameState:
    """The state with the activation record's `changes` made (R002.28)."""
    current = current_activation(state)
    if isinstance(current, FrozenMap):
        # only the changed entries frozen: the record's others are already (every step of
        # an activation, and every roll the computer players try, sets a few of them); a
        # record that notes its reads (a subclass) makes its own copy, reading none
        return tracking.put(state, activation=current.updated(changes))
    made = dict(current or {})
    made.update(changes)
    return tracking.put(state, activation=FrozenMap(made))


def side_of(state: GameState, actor: str) -> str:
    """The side acting for `actor`: a side, a model's side (a Prize's captor), or the side of a
    declared attacker that has left the table."""
    if actor in table_sides(state):
        return actor
    if state.has_unit(actor):
        # a Prize is handled by the side that captured it (its Drift, R002.19)
        captor = tracking.mapping(state, "prizes").get(actor)
        return str(captor) if captor else state.unit(actor).side
    for record in (current_activation(state) or {}).get("declared", ()):
        if record["attacker"] == actor:
            return str(record["side"])
    raise UserError(f"unknown actor {actor!r}: a side ({', '.join(state.sides)}) or a unit id")


def unit_of(state: GameState, unit_id: str) -> Unit:
    """The model `unit_id` on the table; UserError naming the models when there is none."""
    return combat.find_unit(state, unit_id, "unit")


def activatable(state: GameState, side: str) -> tuple[str, ...]:
    """Squadrons of `side` that can still activate this turn (R002.28, R002.61); one of
    Prizes and Derelicts only has nothing to activate (they drift, R002.19). Remembered by
    the very objects it reads (the units and `_ACTIVATABLE_READS`, kept beside their ids):
    the choices, the pass and what is unavailable ask it at every step of an activation,
    on tables where none of them changed."""
    rule_state = state.rule_state
    read = (state.units, *map(rule_state.get, _ACTIVATABLE_READS))
    slot = (side, *map(id, read))
    found = _ACTIVATABLE.get(slot)
    if found is not None and all(map(is_, found[0], read)):
        return found[1]
    made = _activatable(state, side)
    if len(_ACTIVATABLE) >= MAX_ACTIVATABLE:
        _ACTIVATABLE.clear()
    _ACTIVATABLE[slot] = (read, made)
    return made


# what `_activatable` reads of the rule state: the squadrons activated, Prizes and
# Derelicts (adrift), the Wings (launched this turn) and the turn
_ACTIVATABLE_READS = ("activated", "prizes", "derelicts", "wings", "turn")
_ACTIVATABLE: dict[tuple[Any, ...], tuple[tuple[Any, ...], tuple[str, ...]]] = {}
MAX_ACTIVATABLE = 256


def _activatable(state: GameState, side: str) -> tuple[str, ...]:
    done = set(tracking.get(state, "activated", ()))
    found = []
    for key, units in squadrons(state, side).items():
        if key in done or all(tracking.adrift(state, u.id) for u in units):
            continue
        if not flyers.can_be_activated(state, key, turn_number(state)):
            continue
        found.append(key)
    return tuple(found)


def params_of(action: Action) -> dict[str, Any]:
    """A copy of the action's parameters (the handlers pop from it)."""
    return dict(action.params)


def choice(
    kind: str, actor: str, title: str, *fields: Field, spec: str | None = None
) -> ActionChoice:
    """An `ActionChoice` of `kind` for `actor`, citing `spec`."""
    return ActionChoice(kind, actor, title, tuple(fields), spec)


def play_order(state: GameState, position: TurnPosition | None = None) -> tuple[str, ...]:
    """G.5: the sides in the order they activate this turn, the initiative winner first
    (the session's goes keep the map's order: the loser's first go offers it nothing,
    `passive_until_winner`); () before the initiative is rolled."""
    initiative = tracking.get(state, "initiative")
    if initiative is None or str(initiative["winner"]) not in state.sides:
        return ()
    winner = str(initiative["winner"])
    return (winner, *(s for s in state.sides if s != winner))


def passive_until_winner(state: GameState, side: str) -> bool:
    """Initiative: until the winner has activated, the other side waits (if the winner can)."""
    initiative = tracking.get(state, "initiative")
    if initiative is None or tracking.get(state, "activated", ()):
        return False
    winner = str(initiative["winner"])
    return winner != side and bool(activatable(state, winner))


def need_stage(state: GameState, side: str, *stages: str) -> Mapping[str, Any]:
    """R002.28: the activation record when `side`'s squadron is in one of `stages` (any side
    in the Counterattacks), otherwise UserError."""
    act = current_activation(state)
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


def member(state: GameState, act: Mapping[str, Any], unit_id: str) -> Unit:
    """A model of the active squadron that is not a Prize, otherwise UserError (R002.28, G.5)."""
    unit = unit_of(state, unit_id)
    if card(unit).squadron != act["squadron"]:
        raise UserError(
            f"{unit_id!r} is not in the active squadron {act['squadron']!r}", spec_id="R002.28"
        )
    if tracking.is_prize(state, unit_id):
        raise UserError(f"{unit_id!r} has been captured (a Prize)", spec_id="G.5")
    return unit


def current_step(act: Mapping[str, Any]) -> str | None:
    """R002.28: the first combat step of `STEP_ORDER` with an attack still to resolve, or None."""
    pending = [r["step"] for r in act.get("declared", ()) if not r["resolved"]]
    for step in STEP_ORDER:
        if step in pending:
            return step
    return None


def generator_flags(
    state: GameState, act: Mapping[str, Any]
) -> Callable[[Unit], generators.ActivationFlags]:
    """What the generators of a model of the active squadron may still do this activation
    (moved, boosted, launched, generators used: R002.45-R002.51)."""
    boosts = tracking.mapping(state, "boosts")
    used = tracking.mapping(state, "generators_used")

    def flags(unit: Unit) -> generators.ActivationFlags:
        boost = boosts.get(unit.id)
        return generators.ActivationFlags(
            moved=unit.id in act.get("moved", ()) or act["stage"] not in ("command", "movement"),
            boosted=tuple(boost) if boost else (),
            launched=act.get("launched") == unit.id,
            used_generators=tuple(used.get(unit.id, ())),
        )

    return flags


Handler = Callable[[GameState, Action, Dice, str], Resolution]
"""An action's resolver: (state, action, dice, acting side) -> Resolution."""
