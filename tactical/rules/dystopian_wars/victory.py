"""Field Orders and victory (R002.20-R002.22, T002.1, A002.19, A002.20).

- R002.20: immediately after Deployment each fleet openly rolls 1D6 on T002.1.
- R002.21: Field Order 1 is the default: a player may always take it instead of the rolled
  order, and it is every fleet's order in a game without Field Orders.
- R002.22: a fleet wins the moment it satisfies its Field Order against any opposing
  fleet (a Crushing Triumph); otherwise at the end of the game the fleet with more
  Victory Points wins, equal VP a draw (A002.19). Two fleets satisfying their orders at
  the same moment also draw.

Victory Points (base game, external default): the points of every enemy model destroyed
or captured. Orders are checked against the fleets as deployed (rule-state `fleets`); an
order whose models the opposing fleet never had (e.g. FO 2 against a fleet with no Large
or Massive model) cannot be satisfied through them (the reading adopted here).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import is_
from typing import Any

from tactical.dice import Dice
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.model.frozen import remembered
from tactical.rules.base import Event, Resolution
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.dicework import d6
from tactical.rules.dystopian_wars.tables import DEFAULT_FIELD_ORDER, FieldOrder, field_order

DESTROYED = ("destroyed", "lost")
CAPTURED = ("captured",)


def roll_field_order(state: GameState, side: str, dice: Dice, take_default: bool) -> Resolution:
    """R002.20 / R002.21 / T002.1: roll openly; the player may take FO 1 instead."""
    orders = tracking.mapping(state, "field_orders")
    if side in orders:
        raise UserError(f"fleet {side!r} has its Field Order already", spec_id="R002.20")
    setup = tracking.mapping(state, "setup")
    if not setup.get("field_orders", True):
        raise UserError(
            "this game is played without Field Orders (FO 1 for all)", spec_id="R002.21"
        )
    value, event = dice.chance(
        lambda source: d6(source, side, "Field Order (T002.1)", "R002.20"), key=lambda r: r[0]
    )
    order = field_order(value)
    chosen = field_order(DEFAULT_FIELD_ORDER) if take_default else order
    record = FrozenMap(order=chosen.number, roll=value, chose_default=take_default)
    state = tracking.put_in(state, "field_orders", side, record)
    events = (
        event,
        Event.of("lookup", "T002.1", roll=value, order=order.number, text=order.text),
        Event.of(
            "field-order",
            "R002.21" if take_default else "R002.20",
            side=side,
            order=chosen.number,
            text=chosen.text,
            chose_default=take_default,
        ),
    )
    return Resolution(state, events, (value, chosen.number))


def order_of(state: GameState, side: str) -> FieldOrder:
    """The side's Field Order (FO 1 until one is rolled, and without Field Orders: R002.21)."""
    record = tracking.mapping(state, "field_orders").get(side)
    return field_order(int(record["order"]) if record else DEFAULT_FIELD_ORDER)


def _fleet(state: GameState, side: str) -> tuple[Mapping[str, Any], ...]:
    return tuple(tracking.mapping(state, "fleets").get(side, ()))


def _lost_among(
    records: tuple[Mapping[str, Any], ...], side: str, how: tuple[str, ...]
) -> frozenset[str]:
    """The ids of `side`'s models lost in one of the ways `how` (T002.1), remembered by the
    losses' identity: every action the computer players try ends with the Field Orders'
    check (R002.22), on losses that change only when a model is lost."""
    memo = remembered(_LOST_AMONG, records, _new_memo, MAX_LOST_AMONG)
    found = memo.get((side, how))
    if found is None:
        found = memo[(side, how)] = frozenset(
            r["id"] for r in records if r["side"] == side and r["how"] in how
        )
    return found


def _fleet_facts(fleet: tuple[Mapping[str, Any], ...], key: tuple[Any, ...], make: Any) -> Any:
    """`make(fleet)` remembered by the deployed fleet's identity and `key` (what else it
    reads): the fleets never change after `setup`."""
    memo = remembered(_FLEET_FACTS, fleet, _new_memo, MAX_LOST_AMONG)
    found = memo.get(key, _NONE)
    if found is _NONE:
        if len(memo) >= MAX_FLEET_FACTS:  # a fleet's losses tried in many combinations
            memo.clear()
        found = memo[key] = make(fleet)
    return found


def _new_memo(_: object) -> dict[Any, Any]:
    return {}


# by the losses' (and the fleets') identity, each kept beside what was worked out of it
_LOST_AMONG: dict[int, tuple[Any, Any]] = {}
_FLEET_FACTS: dict[int, tuple[Any, Any]] = {}
MAX_LOST_AMONG = 64
MAX_FLEET_FACTS = 256
_NONE = object()


def victory_points(state: GameState, scorer: str, opponent: str) -> int:
    """VP `scorer` has from `opponent`'s fleet: its models destroyed or captured (external)."""
    return sum(
        int(r["points"])
        for r in tracking.losses(state)
        if r["side"] == opponent and r["side"] != scorer and r["how"] in DESTROYED + CAPTURED
    )


def total_victory_points(state: GameState, scorer: str) -> int:
    return sum(victory_points(state, scorer, other) for other in _opponents(state, scorer))


def _opponents(state: GameState, side: str) -> tuple[str, ...]:
    return tuple(s for s in tracking.mapping(state, "fleets") if s != side)


def _category(model: Mapping[str, Any], name: str, core_force: str) -> bool:
    if name == "large+massive":
        return model["size"] in ("large", "massive")
    if name in ("medium", "small"):
        return model["size"] == name
    if name == "core-force":
        return model["force"] == core_force and model["size"] != "tiny"
    if name == "fleet-commodore":
        return bool(model["commodore"])
    raise ValueError(name)


def satisfied_against(state: GameState, order: FieldOrder, opponent: str) -> bool:
    """T002.1: whether `order` is satisfied against one opposing fleet."""
    fleet = _fleet(state, opponent)
    if not fleet:
        return False
    how = (
        CAPTURED
        if order.capture_only
        else DESTROYED
        if order.destroy_only
        else DESTROYED + CAPTURED
    )
    records = tracking.losses(state)
    gone = _lost_among(records, opponent, how)
    if order.share is not None:
        mfv = int(tracking.mapping(state, "mfv").get(opponent, 0))
        lost = _lost_among(records, opponent, DESTROYED + CAPTURED)  # once, not once a model
        scored = _fleet_facts(
            fleet,
            ("scored", lost),
            lambda models: sum(int(m["points"]) for m in models if m["id"] in lost),
        )
        if mfv <= 0 or scored < order.share * mfv - 1e-9:
            return False
    if order.all_of is not None:
        core = str(tracking.mapping(state, "core_forces").get(opponent, "naval"))
        all_of = order.all_of
        wanted = _fleet_facts(
            fleet,
            ("wanted", all_of, core),
            lambda models: tuple(m["id"] for m in models if _category(m, all_of, core)),
        )
        if not wanted or not gone.issuperset(wanted):
            return False
    return True


def satisfied(state: GameState, side: str) -> str | None:
    """The opposing fleet against which `side` satisfies its Field Order, or None."""
    order = order_of(state, side)
    for opponent in _opponents(state, side):
        if satisfied_against(state, order, opponent):
            return opponent
    return None


# what the Field Orders are checked against (`satisfied`): nothing else of the state
_ORDER_READS = ("fleets", "field_orders", "losses", "mfv", "core_forces")
# the sides satisfying their orders, by the very rule-state values read (kept beside
# their ids, so that no id is reused): every action ends with this check, and most change
# none of them
_WINNERS: dict[tuple[int, ...], tuple[tuple[object, ...], tuple[str, ...]]] = {}
MAX_WINNERS = 256


def _winners(state: GameState) -> tuple[str, ...]:
    """The sides whose Field Order is satisfied now (R002.22), remembered by what it reads."""
    # read through maps rather than generators: asked after every action the computer
    # players try, and nearly always remembered
    read = tuple(map(state.rule_state.get, _ORDER_READS))
    slot = tuple(map(id, read))
    found = _WINNERS.get(slot)
    if found is not None and all(map(is_, found[0], read)):
        return found[1]
    winners = _winners_by_entries(state)
    if len(_WINNERS) >= MAX_WINNERS:
        _WINNERS.clear()
    _WINNERS[slot] = (read, winners)
    return winners


def _winners_by_entries(state: GameState) -> tuple[str, ...]:
    """`satisfied` of each fleet, remembered by the very entries it reads: each side's
    deployed fleet, Field Order record, MFV and Core Force, and the losses. A state the
    computer players watch hands out new views of its tables (`_winners` misses), whose
    entries are the same objects; reading every side's MFV and Core Force (not only where
    its opponent's order asks) reads no more than values set once at `setup`."""
    fleets = tracking.mapping(state, "fleets")
    sides = tuple(fleets)
    orders = tracking.mapping(state, "field_orders")
    mfv = tracking.mapping(state, "mfv")
    cores = tracking.mapping(state, "core_forces")
    read = (
        tracking.get(state, "losses"),
        *(
            entry
            for side in sides
            for entry in (fleets.get(side), orders.get(side), mfv.get(side), cores.get(side))
        ),
    )
    slot = (sides, *map(id, read))
    found = _BY_ENTRIES.get(slot)
    if found is not None and all(map(is_, found[0], read)):
        return found[1]
    winners = tuple(side for side in sides if satisfied(state, side))
    if len(_BY_ENTRIES) >= MAX_WINNERS:
        _BY_ENTRIES.clear()
    _BY_ENTRIES[slot] = (read, winners)
    return winners


_BY_ENTRIES: dict[tuple[Any, ...], tuple[tuple[object, ...], tuple[str, ...]]] = {}


def check_victory(state: GameState) -> tuple[GameState, list[Event]]:
    """R002.22: a Crushing Triumph the moment a fleet satisfies its Field Order."""
    if tracking.game_over(state) or not tracking.mapping(state, "fleets"):
        return state, []
    winners = _winners(state)
    if not winners:
        return state, []
    turn = int(tracking.get(state, "turn", 1))
    if len(winners) == 1:
        side = winners[0]
        result = FrozenMap(
            winner=side, how="crushing-triumph", turn=turn, order=order_of(state, side).number
        )
        event = Event.of(
            "crushing-triumph",
            "R002.22",
            side=side,
            order=order_of(state, side).number,
            against=satisfied(state, side),
        )
    else:
        result = FrozenMap(winner=None, how="draw", turn=turn, order=None)
        event = Event.of("draw", "R002.22", sides=tuple(winners), reason="both satisfied")
    return tracking.put(state, result=result), [event]


def end_of_game(state: GameState) -> tuple[GameState, list[Event]]:
    """R002.22 / A002.19: at the end of the game the fleet with more VP wins; equal: a draw."""
    if tracking.game_over(state):
        return state, []
    turn = int(tracking.get(state, "turn", 1))
    points = {side: total_victory_points(state, side) for side in tracking.mapping(state, "fleets")}
    best = max(points.values(), default=0)
    leaders = [side for side, vp in points.items() if vp == best]
    if len(leaders) == 1:
        result = FrozenMap(
            winner=leaders[0], how="victory-points", turn=turn, points=FrozenMap(points)
        )
        event = Event.of("victory", "R002.22", side=leaders[0], victory_points=FrozenMap(points))
    else:
        result = FrozenMap(winner=None, how="draw", turn=turn, points=FrozenMap(points))
        event = Event.of("draw", "A002.19", victory_points=FrozenMap(points))
    return tracking.put(state, result=result), [event]
