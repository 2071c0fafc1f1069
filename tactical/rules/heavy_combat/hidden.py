"""What a Heavy Combat side may not see: a cloaked enemy (R001.29), and what it learns when.

R001.29 makes a cloaked ship's position secret: its owner alone knows where it is. The
rules' own procedures still read the truth (the direction roll R001.30, flash detection
R001.33, decloaking): only what a side reads is a view (`view_for`).

- *Sighting.* At the Result that engages a cloak the ship is seen for the last time: its
  pose, elevation and (categorical geometry) facing and range are kept in the rule state
  under `SEEN_KEY`, with the first turn it is out of sight (`note_sightings`). The record
  goes when the cloak drops: from then on every side sees the ship again.
- *The view.* For any side but its owner a cloaked ship stands where it was last seen
  (named by `LAST_SEEN_KEY`: the table draws it faded) and its course is gone from the
  rule state: rotation, moves under way, this turn's orders, the power they cost.
- *The log.* While it is cloaked, its side's Reaction movement steps (passes too: a
  pass would tell that it did not move) are withheld from the other side, and so are the
  events of a Result that would place it: its rotation, facing and lateral move, the range
  band, the true direction a shot at it was fired in (`withheld`). Once the cloak drops,
  nothing is withheld: the log made again shows the whole record.
"""

from __future__ import annotations

from dataclasses import replace

from tactical.geometry.shapes import Pose
from tactical.model import FrozenMap, GameState
from tactical.rules.base import (
    LAST_SEEN_KEY,
    NOTHING_WITHHELD,
    StepFacts,
    Withheld,
)
from tactical.rules.heavy_combat.duel import Duel, Orders, from_rule_state, to_rule_state
from tactical.rules.heavy_combat.tables import COSTS

SEEN_KEY = "heavy_combat_seen"  # rule_state: where each cloaked ship was last seen
MOVEMENT_PHASE = "Reaction movement"  # turn.MOVEMENT (turn imports this module's users)
# Result events that would place a cloaked ship: its own motion ...
MOTION_EVENTS = frozenset({"rotation", "rotation-paused", "facing", "lateral"})
# ... and any event with the range band or the true direction toward it (GEO001.5)
PLACING_EVENTS = frozenset({"result", "range", "backlash"})
PLACING_KEYS = frozenset({"actual", "firer_facing"})


def note_sightings(state: GameState, before: Duel, after: Duel) -> GameState:
    """R001.29: the Result's state with each ship whose cloak engaged in it recorded where
    it was last seen, and the record of each ship whose cloak dropped gone. A state with no
    cloak on is left as it is (no key added)."""
    seen = dict(state.rule_state.get(SEEN_KEY) or {})
    changed = False
    for key, ship in after.ships:
        was_on = before.ship(key).cloak == "on"
        if ship.cloak == "on" and not was_on:
            unit = state.unit(key)
            seen[key] = FrozenMap(
                since=after.turn,
                x=unit.x,
                y=unit.y,
                heading=unit.heading,
                elevation=ship.elevation,
                facing=ship.facing,
                range=after.range,
                last_lateral=ship.last_lateral,
            )
            changed = True
        elif ship.cloak != "on" and key in seen:
            del seen[key]
            changed = True
    if not changed:
        return state
    kept = {k: v for k, v in state.rule_state.items() if k != SEEN_KEY}
    if seen:
        kept[SEEN_KEY] = FrozenMap(seen)
    return replace(state, rule_state=FrozenMap(kept))


def _hidden_from(state: GameState, side: str) -> dict[str, FrozenMap]:
    """The cloaked ships `side` does not own, with where each was last seen."""
    seen = state.rule_state.get(SEEN_KEY)
    if not seen:
        return {}
    return {
        key: record
        for key, record in seen.items()
        if state.has_unit(key) and state.unit(key).side != side
    }


def view_for(state: GameState, side: str) -> GameState:
    """R001.29: the state as `side` knows it (see the module docstring); the state itself
    when it hides nothing from `side`."""
    hidden = _hidden_from(state, side)
    if not hidden:
        return state
    duel = from_rule_state(state)
    for key, record in hidden.items():
        unit = state.unit(key)
        pose = Pose(float(record["x"]), float(record["y"]), float(record["heading"]))
        state = state.replace_unit(unit.moved_to(pose))
        ship = duel.ship(key)
        # the power its moves of this turn cost would tell them (R001.5)
        moved = sum(COSTS[m.kind] for m in ship.manoeuvres if m.declared == duel.turn)
        ship = replace(
            ship,
            elevation=str(record["elevation"]),
            facing=record["facing"],
            turning=None,
            manoeuvres=(),
            last_lateral=record["last_lateral"],
            spent=max(0, ship.spent - moved),
            orders=Orders(),
        )
        duel = duel.with_ship(key, ship)
        if duel.range is not None and record["range"] is not None:
            duel = replace(duel, range=int(record["range"]))
    return to_rule_state(state, duel).with_rule_state(**{LAST_SEEN_KEY: tuple(hidden)})


def withheld(now: GameState, step: StepFacts, side: str) -> Withheld:
    """What of `step` `side` may not read in `now` (see the module docstring)."""
    hidden = _hidden_from(now, side)
    events: set[int] = set()
    for key, record in hidden.items():
        if step.turn < int(record["since"]):
            continue  # played before the cloak engaged: seen at the time
        owner = now.unit(key).side
        if step.side == owner and step.phase == MOVEMENT_PHASE:
            return Withheld(step=True)
        if step.action.kind != "resolve":
            continue
        for index, event in enumerate(step.events):
            names = {name for name, _ in event.data}
            if (
                event.kind in PLACING_EVENTS
                or names & PLACING_KEYS
                or (event.kind in MOTION_EVENTS and event.get("ship") == key)
            ):
                events.add(index)
    return Withheld(events=frozenset(events)) if events else NOTHING_WITHHELD
