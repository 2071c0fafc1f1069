"""Orbital bombardment (R003.63-R003.67) and starship weapons in atmosphere (R003.60-R003.62).

Ground targets are terrain pieces whose kind is a T003.19 target (`area`,
`small-building`, ... `megalopolis`); their damage is tracked in `rule_state`
(`structures`) and their population comes from the `structures` option (R003.66).
A miss scatters (R003.64, T003.18): direction relative to the line of fire from the
firing ship to the target, distance `d10 + 10 x margin` feet (A003.34), drawn on the
table at `feet_per_inch` (GEO003.5, GEO003.7). A spotter (R003.67) designates instead of
the ship's gunner: a full-turn action with the ship's range penalty (option).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import shapely

from tactical.dice import D10, Dice
from tactical.errors import UserError
from tactical.geometry import heading_vector, normalise_heading
from tactical.model import FrozenMap, GameState, Terrain
from tactical.rules.base import Event, Resolution
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.acting import require_active, weapon_of
from tactical.rules.cortex_space.attack_pools import attack_roll
from tactical.rules.cortex_space.combat import GUN
from tactical.rules.cortex_space.rolls import (
    D8,
    basic_damage,
    outcome,
    roll_damage,
    roll_pool,
    skill_pool,
    succeeded,
)
from tactical.rules.cortex_space.tables import (
    SCATTER,
    STRUCTURE_BY_KIND,
    STRUCTURE_KINDS,
    bombardment_difficulty,
    scale_damage,
    scatter_feet,
)
from tactical.rules.cortex_space.tracker import StepModifier
from tactical.rules.cortex_space.units import settings, vessel
from tactical.rules.lookups import table_unit

# --------------------------------------------------------------------------- casualties


def _nearest(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


@dataclass(frozen=True, slots=True)
class Casualties:
    """R003.66 / A003.36: casualties ~ population x LP lost / LP; 2/3 wounded, 1/3 killed."""

    wounded: int
    killed: int


def casualties(population: int, lp_lost: int, lp_total: int) -> Casualties:
    if lp_total <= 0:
        return Casualties(0, 0)
    share = Fraction(min(lp_lost, lp_total), lp_total) * population
    return Casualties(_nearest(share * 2 / 3), _nearest(share / 3))


# --------------------------------------------------------------------------- scatter


def scatter_point(
    start: tuple[float, float],
    target: tuple[float, float],
    d8: int,
    feet: int,
    feet_per_inch: float,
) -> tuple[float, float]:
    """T003.18 / GEO003.5: where a missed shot lands: from the target, at the d8 bearing
    relative to the line of fire (0 = long, beyond the target, clockwise), `feet` away."""
    line = math.degrees(math.atan2(target[0] - start[0], target[1] - start[1]))
    dx, dy = heading_vector(normalise_heading(line + SCATTER[d8][1]))
    inches = feet / feet_per_inch
    return target[0] + dx * inches, target[1] + dy * inches


# --------------------------------------------------------------------------- bombarding


def structure(state: GameState, terrain_id: str) -> Terrain:
    for piece in state.terrain:
        if piece.id == terrain_id:
            if piece.kind not in STRUCTURE_KINDS:
                raise UserError(
                    f"{terrain_id!r} is {piece.kind} terrain, not a bombardment "
                    "target (" + ", ".join(STRUCTURE_KINDS) + ")",
                    spec_id="R003.65",
                )
            return piece
    raise UserError(f"unknown terrain {terrain_id!r}", spec_id="R003.63")


def population(options: Mapping[str, Any], terrain_id: str) -> int:
    for entry in options["structures"]:
        if entry["terrain"] == terrain_id:
            return int(entry.get("population", 0))
    return 0


@dataclass(frozen=True, slots=True)
class BombardSummary:
    """A bombardment's result: hit, damage to the structure, or where a miss landed."""

    hit: bool
    wound: int
    stun: int
    landed: tuple[float, float] | None


def resolve_bombard(
    state: GameState,
    ship_id: str,
    weapon_name: str,
    terrain_id: str,
    dice: Dice,
    *,
    spotter: str = "",
) -> Resolution:
    """R003.63-R003.67: an attack roll (or the spotter's designation) against T003.19's
    Difficulty by the weapon's scale; a hit damages the structure, a miss scatters."""
    options = settings(state)
    ship = table_unit(state, ship_id, "bombarding")
    card = vessel(ship)
    require_active(ship, card, "bombard")
    weapon = weapon_of(ship, card, weapon_name)
    if weapon.kind != GUN:
        raise UserError(
            f"{weapon.name} is a {weapon.kind}: bombardment uses guns", spec_id="R003.63"
        )
    if weapon.working - tracker.fired(state, ship.id, weapon.name) < 1:
        raise UserError(f"{ship.id!r}'s {weapon.name} has fired this turn", spec_id="R003.63")
    piece = structure(state, terrain_id)
    difficulty = bombardment_difficulty(piece.kind, weapon.scale)
    if spotter:
        designator = table_unit(state, spotter, "spotting")
        if designator.side != ship.side:
            raise UserError(f"{spotter!r} is not on {ship.id!r}'s side", spec_id="R003.67")
        spot = vessel(designator)
        require_active(designator, spot, "designate")
        if tracker.actions_taken(state, designator.id) or tracker.is_done(state, designator.id):
            raise UserError(
                f"{spotter!r} has acted this turn: designating takes the whole turn",
                spec_id="R003.67",
            )
        steps = int(options["spotter_range_steps"])
        modifiers = (StepModifier("starship range penalty", steps, "R003.67"),) if steps else ()
        pool = skill_pool(
            ("alertness", spot.alertness), ("heavy weapons", spot.gunnery), None, steps
        )
        character, entries, roller = designator.id, (), designator.id
    else:
        roll = attack_roll(state, ship, weapon, None, options)
        pool, modifiers, entries = roll.pool, roll.modifiers, roll.entries
        character, roller = roll.firer.character, ship.id
    centre = piece.geometry.centroid
    target_xy = (centre.x, centre.y)
    row = STRUCTURE_BY_KIND[piece.kind]
    rolled = roll_pool(pool, dice, who=roller, what="bombardment")
    result = outcome(rolled.total, rolled.botch, difficulty)
    events = [
        Event.of(
            "declare",
            "R003.63",
            ship=ship.id,
            weapon=weapon.name,
            target=terrain_id,
            terrain_kind=piece.kind,
            spotter=spotter or None,
        ),
        Event.of(
            "threshold",
            "R003.65" if row.life_points else "R003.63",
            difficulty=difficulty,
            weapon_scale=weapon.scale,
        ),
        *(
            Event.of("modifier", m.spec_id, roll="bombardment", source=m.source, steps=m.steps)
            for m in modifiers
        ),
        *rolled.events(roller, "bombardment", "R003.67" if spotter else "R003.63"),
        Event.of("bombardment", "R003.63", roll=rolled.total, result=result),
    ]
    new_state = tracker.count_fired(state, ship.id, weapon.name, 1)
    new_state = tracker.count_action(new_state, character)
    new_state = tracker.consume(new_state, ship.id, entries)
    if spotter:
        new_state = tracker.mark_done(new_state, spotter)
    if not succeeded(result):
        margin = max(0, difficulty - rolled.total)
        direction = dice.roll(D8, who=roller, what="scatter direction")
        distance = dice.roll(D10, who=roller, what="scatter distance")
        feet = scatter_feet(distance, margin)
        landed = scatter_point(
            (ship.x, ship.y), target_xy, direction, feet, float(options["feet_per_inch"])
        )
        under = tuple(
            p.id for p in state.terrain if shapely.intersects(p.geometry, shapely.Point(*landed))
        )
        events.extend(
            (
                Event.of(
                    "roll",
                    "R003.64",
                    who=roller,
                    what="scatter direction",
                    die="d8",
                    result=direction,
                ),
                Event.of(
                    "roll",
                    "R003.64",
                    who=roller,
                    what="scatter distance",
                    die="d10",
                    result=distance,
                ),
                Event.of(
                    "scatter",
                    "T003.18",
                    direction=SCATTER[direction][0],
                    bearing=SCATTER[direction][1],
                    feet=feet,
                    margin=margin,
                    x=round(landed[0], 6),
                    y=round(landed[1], 6),
                    terrain=under,
                ),
            )
        )
        summary = BombardSummary(False, 0, 0, (round(landed[0], 6), round(landed[1], 6)))
        return Resolution(new_state, tuple(events), summary)
    damage = roll_damage(weapon.damage, dice, who=ship.id, what="bombardment damage")
    basic = basic_damage(rolled.total - difficulty)
    stun, wound = basic.stun, basic.wound + damage.total
    events.extend(
        (
            *damage.events(ship.id, "bombardment damage", "R003.65"),
            basic.event(rolled.total - difficulty, damage.total),
        )
    )
    if row.life_points is None:
        events.append(
            Event.of("outcome", "R003.63", target=terrain_id, hit=True, stun=stun, wound=wound)
        )
        return Resolution(new_state, tuple(events), BombardSummary(True, wound, stun, None))
    cell = scale_damage(weapon.scale, row.lp_scale)  # type: ignore[arg-type]
    factor = cell.factor if cell.multiplies == "damage" else 1
    lp_factor = cell.factor if cell.multiplies == "target" else 1
    armor = int(row.armor_wound or 0) * lp_factor
    dealt_wound = max(0, wound * factor - armor)
    dealt_stun = stun * factor
    track = tracker.table(state, tracker.STRUCTURES).get(terrain_id, FrozenMap(wound=0, stun=0))
    lp_total = int(row.life_points) * lp_factor
    before = int(track["wound"])
    after = min(lp_total, before + dealt_wound)
    new_state = tracker.put(
        new_state,
        tracker.STRUCTURES,
        terrain_id,
        FrozenMap(wound=after, stun=int(track["stun"]) + dealt_stun),
    )
    people = population(options, terrain_id)
    lost = casualties(people, after - before, lp_total)
    events.extend(
        (
            Event.of(
                "structure",
                "R003.65",
                life_points=lp_total,
                armor_wound=armor,
                scale_factor=cell.factor,
                wound=dealt_wound,
                total_wound=after,
            ),
            Event.of(
                "casualties", "R003.66", population=people, wounded=lost.wounded, killed=lost.killed
            ),
            Event.of(
                "outcome", "R003.65", target=terrain_id, hit=True, destroyed=after >= lp_total
            ),
        )
    )
    return Resolution(new_state, tuple(events), BombardSummary(True, dealt_wound, dealt_stun, None))
