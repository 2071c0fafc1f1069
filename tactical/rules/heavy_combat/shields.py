"""Heavy Combat defences against a hit: reinforcement, countermeasures, shields.

`absorb_hit` takes each facing's share of a hit (R001.24) through that facing's
reinforcement (R001.26), the countermeasures (R001.27, A001.12) and the shield
(R001.28); what overflows (all of it when the shields are bypassed: a cloaked
target, R001.30, or a cloak changing, R001.29) goes to the internals
(`internals`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tactical.rules.base import Event
from tactical.rules.heavy_combat.duel import Bucket, Ship
from tactical.rules.heavy_combat.ships import Profile
from tactical.rules.heavy_combat.tables import FACINGS


@dataclass(frozen=True, slots=True)
class Absorbed:
    """What a hit did before the internals: the ship's shields, reinforcement and
    countermeasures after it, points on shields, points absorbed, points overflowing."""

    ship: Ship
    shield_points: int
    absorbed: int
    overflow: int
    events: tuple[Event, ...]


def _absorb(buckets: tuple[Bucket, ...], facing: str | None, points: int) -> tuple[tuple, int]:
    """Consume up to `points` from the buckets matching `facing` (oldest first)."""
    absorbed = 0
    kept: list[Bucket] = []
    for bucket in sorted(buckets, key=lambda b: b.turn):
        if bucket.facing == facing and absorbed < points:
            used = min(bucket.points, points - absorbed)
            absorbed += used
            if bucket.points > used:
                kept.append(replace(bucket, points=bucket.points - used))
        else:
            kept.append(bucket)
    return tuple(kept), absorbed


def _spend(
    buckets: tuple[Bucket, ...],
    drawn: str | None,
    facing: str,
    left: int,
    said: tuple[str, str, str],
    events: list[Event],
) -> tuple[tuple, int]:
    """`_absorb` of the points `left` on `facing` from the buckets for `drawn`, with its
    event (`said`: the event's kind, SPEC id and word for the points used) when it used
    any: reinforcement (R001.26) or countermeasures (R001.27)."""
    buckets, used = _absorb(buckets, drawn, left)
    if used:
        kind, spec_id, word = said
        events.append(Event.of(kind, spec_id, facing=facing, **{word: used}, left=left - used))
    return buckets, used


def absorb_hit(
    card: Profile,
    ship: Ship,
    portions: tuple[tuple[str, int], ...],
    *,
    bypass: str | None,
    countermeasures: bool,
) -> Absorbed:
    """R001.24-R001.28: each facing's share through reinforcement, countermeasures and the
    shield; what overflows (everything, when shields are bypassed) goes to the internals."""
    events: list[Event] = []
    absorbed_total = shield_points = overflow = 0
    damage = list(ship.shield_damage)
    reinforcements, counters = ship.reinforcement, ship.countermeasures
    for facing, points in portions:
        left = points
        if bypass is None and left > 0:
            said = ("reinforcement", "R001.26", "absorbed")
            reinforcements, used = _spend(reinforcements, facing, facing, left, said, events)
            left -= used
            absorbed_total += used
        if countermeasures and left > 0:
            said = ("countermeasures", "R001.27", "negated")
            counters, used = _spend(counters, None, facing, left, said, events)
            left -= used
            absorbed_total += used
        if bypass is not None:
            overflow += left
            if left:
                rule = "R001.30" if bypass == "cloaked" else "R001.29"
                events.append(Event.of("bypass", rule, facing=facing, internals=left, why=bypass))
            continue
        index = FACINGS.index(facing)
        capacity = card.shields[index]
        on_shield = min(left, max(0, capacity - damage[index]))
        damage[index] += on_shield
        shield_points += on_shield
        overflow += left - on_shield
        events.append(
            Event.of(
                "shield",
                "R001.28",
                facing=facing,
                points=on_shield,
                total=damage[index],
                capacity=capacity,
                overflow=left - on_shield,
            )
        )
    after = ship.evolve(
        shield_damage=tuple(damage), reinforcement=reinforcements, countermeasures=counters
    )
    return Absorbed(after, shield_points, absorbed_total, overflow, tuple(events))
