"""Cortex Space: the end of a game and its score (docs/game-end.md, A003.E1).

The seed names no victory conditions. Adopted reading (A003.E1, the attrition end of
`tactical.rules.ending`): a vessel's strength is its printed Life Points times its
scale's factor against personal scale in T003.14 (personal 1, planetcraft 2, spacecraft
5), a wing's the sum over its fighters; the share lost is Wound over Life Points (both as
its track counts them, R003.58); a vessel is out of the fight when destroyed (Wound >= LP,
R003.7) or adrift (Stun + Wound >= LP, base Cortex G.5), and then counts as lost for the
score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from tactical.model import GameState, Unit
from tactical.model.frozen import last_asked
from tactical.rules.cortex_space.tables import SCALES, scale_damage
from tactical.rules.cortex_space.units import vessel
from tactical.rules.ending import UnitCondition

if TYPE_CHECKING:
    from tactical.rules.cortex_space.damage import Track

SPEC_ID = "A003.E1"


@lru_cache(maxsize=16)  # three scales; every vessel's condition asks, every roll
def scale_factor(scale: str) -> int:
    """T003.14: the factor between personal scale and `scale` (1 at personal scale)."""
    if scale not in SCALES or scale == SCALES[0]:
        return 1
    return scale_damage(scale, SCALES[0]).factor  # type: ignore[arg-type]


def strength(unit: Unit) -> float:
    card = vessel(unit)
    factor = scale_factor(card.scale)
    if card.is_wing:
        return float(factor * sum(member.printed_life_points for member in card.members))
    return float(factor * max(1, card.printed_life_points))


def unit_condition(state: GameState, unit: Unit) -> UnitCondition:
    """A003.E1: how a vessel as it started stands now."""
    try:
        now = state.unit(unit.id)
    except KeyError:
        return _interned(UnitCondition.gone(strength(unit)))
    # by the vessel as it stands and as it started, both immutable (each roll the computer
    # players enumerate changes one vessel): by the one's id, both checked by identity
    known = _CONDITIONS.get(id(now))
    if known is not None and known[1] is now and known[0] is unit:
        return known[2]
    found = _interned(_condition(unit, now))
    if len(_CONDITIONS) >= MEMO_SIZE:
        _CONDITIONS.clear()
    _CONDITIONS[id(now)] = (unit, now, found)
    return found


def unit_conditions(state: GameState, units: Sequence[Unit]) -> tuple[UnitCondition, ...]:
    """A003.E1: `unit_condition` of each of `units`, in order; the same tuple again for
    equal conditions. The computer players ask every starting vessel's condition after
    every roll they enumerate, and most rolls of one attack differ only in what the
    conditions do not read (Stun, battle damage): a tuple given again lets them reuse the
    side losses they worked out from it."""
    on_table, known = state.unit_or_none, _CONDITIONS.get
    found_each = []
    for unit in units:  # `unit_condition`'s lookup by identity, inline (most find it)
        now = on_table(unit.id)
        entry = None if now is None else known(id(now))
        if entry is not None and entry[1] is now and entry[0] is unit:
            found_each.append(entry[2])
        else:
            found_each.append(unit_condition(state, unit))
    made = tuple(found_each)
    # equal conditions are one object each (`_interned`), so equal tuples hold the same
    # objects: keyed by their ids, kept beside them (no id reused while remembered)
    slot = tuple(map(id, made))
    found = _BATCHES.get(slot)
    if found is not None:
        return found
    if len(_BATCHES) >= MEMO_SIZE:
        _BATCHES.clear()
    _BATCHES[slot] = made
    return made


def _interned(condition: UnitCondition) -> UnitCondition:
    """The one condition object kept for conditions equal to `condition` (`unit_conditions`)."""
    found = _INTERNED.setdefault(condition, condition)
    if found is condition and len(_INTERNED) > MEMO_SIZE:
        _INTERNED.clear()
        _INTERNED[condition] = condition
    return found


_CONDITIONS: dict[int, tuple[Unit, Unit, UnitCondition]] = {}
_INTERNED: dict[UnitCondition, UnitCondition] = {}  # each condition by its value
_BATCHES: dict[tuple[int, ...], tuple[UnitCondition, ...]] = {}  # by their conditions' ids


# `strength(unit)`, remembered for the last vessel asked (every outcome of one attack the
# exact odds enumerate asks its target's)
_strength_of: Callable[[Unit], float] = last_asked(strength)
MEMO_SIZE = 4096


def condition_key(tracks: tuple[Track, ...], wing: bool) -> tuple:
    """A003.E1: what a vessel's condition (`_condition`) reads of the damage tracks written
    into it: out (Wound >= Life Points, or Stun + Wound >= them: 1.0 lost, whatever else),
    or its Wound on Life Points x its multiple (the card's Life Points). A wing's condition
    reads every fighter's track (a fighter is out by Wound alone): all of them."""
    if wing:
        return tracks
    (track,) = tracks
    wound, life_points = track.wound, track.life_points
    if wound >= life_points or wound + track.stun >= life_points:
        return (True,)
    return False, wound, life_points, track.multiple


def _condition(unit: Unit, now: Unit) -> UnitCondition:
    """A003.E1: the vessel `unit` started as, standing as `now`."""
    value = _strength_of(unit)
    card = vessel(now)
    if card.is_wing:
        total = sum(m.life_points for m in card.members) or 1
        wounds = sum(min(m.wound, m.life_points) for m in card.members)
        lost = wounds / total
    else:
        lost = min(card.wound, card.life_points) / max(1, card.life_points)
    out = card.destroyed or card.disabled
    return UnitCondition(value, 1.0 if out else lost, out, not out)
