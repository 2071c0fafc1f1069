"""Damage to vessels: mixing scales (R003.58), Armor, wing allocation (R003.34), battle
damage (R003.25-R003.29).

A hit arrives as Stun and Wound in the attacker's (the weapon's) scale and is `absorb`ed:
a larger attacker's damage is multiplied by k (both the Basic damage and the weapon die,
A003.31); against a smaller attacker the target's Life Points and Armor count k times
(T003.14), and the hit, after k x Armor, counts whole against those k x Life Points (a
Viper's 2 Wound on a 40-LP basestar are 2 of 80, R003.58). Armor subtracts from damage
of its type (base Cortex, G.5; option `armor_reduces_damage`).

A damage track is counted on the vessel's Life Points x its `lp_multiple` (1 until a
smaller-scale attacker hits it): the first such hit recounts the track on k x Life
Points (every point so far times k), so hits of every scale add up exactly; a hit of
the target's own or a larger scale then counts k times on it. Option `scale_reading`
"damage-divided" (the reading before this revision) keeps the own-scale track instead:
the hit after k x Armor divided by k, rounded half up.

A resolution carries a `Target` (tracks, systems, battle-damage results so far) through
its folds; `deliver` applies one hit and, for a spacecraft already at half its Life
Points in Wounds, rolls battle damage (the hit that crosses the line does not, A003.16).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from tactical.dice import D10, Dice, Die, numbered_die
from tactical.dice.core import Subroll
from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import last_asked
from tactical.rules.base import Event
from tactical.rules.cortex_space.tables import (
    BATTLE_DAMAGE,
    FTL,
    SENSORS,
    SUBLIGHT_DAMAGED,
    SUBLIGHT_DESTROYED,
    WEAPON,
    WEAPON_SYSTEM,
    WIDESPREAD,
    battle_damage_row,
    scale_damage,
)
from tactical.rules.cortex_space.units import (
    SCALE_READINGS,
    Vessel,
    Weapon,
    remember_vessel,
    vessel,
)

MAX_WIDESPREAD_DEPTH = 8  # A003.18 halves each time; this only bounds a pathological map
TARGET_MULTIPLIED, DAMAGE_DIVIDED = SCALE_READINGS


@dataclass(frozen=True, slots=True)
class Track:
    """One damage track, counted on the printed Life Points x `multiple` (R003.58):
    `life_points` is that product."""

    wound: int
    stun: int
    life_points: int
    multiple: int = 1

    @property
    def destroyed(self) -> bool:
        return self.wound >= self.life_points

    def counted(self, multiple: int) -> Track:
        """The same damage counted on Life Points x `multiple` (a multiple of this one's)."""
        if multiple == self.multiple:
            return self  # immutable: the same count
        ratio = multiple // self.multiple
        return Track(self.wound * ratio, self.stun * ratio, self.life_points * ratio, multiple)


@dataclass(frozen=True, slots=True)
class WeaponState:
    """What battle damage changes of one weapon entry."""

    name: str
    count: int
    disabled: int
    destroyed: bool

    @property
    def working(self) -> int:
        return 0 if self.destroyed else self.count - self.disabled


@dataclass(frozen=True, slots=True)
class Systems:
    """The systems battle damage acts on (R003.29)."""

    sensors_damaged: int
    sublight_damaged: int
    sublight_destroyed: bool
    ftl: bool
    ftl_destroyed: bool
    speed: int
    weapons: tuple[WeaponState, ...]


@dataclass(frozen=True, slots=True)
class Target:
    """A target's damage state during one resolution."""

    tracks: tuple[Track, ...]
    systems: Systems
    effects: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()

    @property
    def key(self) -> tuple:
        return self.tracks, self.systems, self.effects

    @property
    def destroyed(self) -> bool:
        return all(track.destroyed for track in self.tracks)

    @property
    def wound(self) -> int:
        return sum(track.wound for track in self.tracks)

    @property
    def stun(self) -> int:
        return sum(track.stun for track in self.tracks)


@dataclass(frozen=True, slots=True)
class Receiver:
    """What does not change about the target during a resolution."""

    unit_id: str
    scale: str
    armor_wound: int
    armor_stun: int
    spacecraft: bool
    wing: bool
    battle_damage: bool
    armor: bool
    mixing_scales: bool
    allocation: str
    scale_reading: str = TARGET_MULTIPLIED


def receiver_of(unit: Unit, options: Mapping[str, Any]) -> Receiver:
    card = vessel(unit)
    return Receiver(
        unit.id,
        card.scale,
        card.armor_wound,
        card.armor_stun,
        card.scale == "spacecraft",
        card.is_wing,
        bool(options["battle_damage"]),
        bool(options["armor_reduces_damage"]),
        bool(options["mixing_scales"]),
        str(options["wing_damage"]),
        str(options["scale_reading"]),
    )


def target_of(card: Vessel) -> Target:
    """The damage state a resolution starts from."""
    if card.is_wing:
        tracks = tuple(Track(m.wound, m.stun, m.life_points, m.lp_multiple) for m in card.members)
    else:
        tracks = (Track(card.wound, card.stun, card.life_points, card.lp_multiple),)
    systems = Systems(
        card.sensors_damaged,
        card.sublight_damaged,
        card.sublight_destroyed,
        card.ftl,
        card.ftl_destroyed,
        card.speed,
        tuple(WeaponState(w.name, w.count, w.disabled, w.destroyed) for w in card.weapons),
    )
    return Target(tracks, systems)


def scaled_defenses(
    life_points: int, armor_wound: int, armor_stun: int, attacker_scale: str, target_scale: str
) -> tuple[int, int, int]:
    """T003.14 (R003.58): the target's Life Points and Armor against a smaller attacker."""
    cell = scale_damage(attacker_scale, target_scale)  # type: ignore[arg-type]
    factor = cell.factor if cell.multiplies == "target" else 1
    return life_points * factor, armor_wound * factor, armor_stun * factor


def _half_up(numerator: int, denominator: int) -> int:
    return (2 * numerator + denominator) // (2 * denominator)


def hit_multiple(source_scale: str, receiver: Receiver) -> int:
    """R003.58 / T003.14: the k a smaller-scale attacker's hit counts the target's Life Points
    and Armor by (1 for any other attacker, and under the "damage-divided" reading, whose
    hits count on the target's own Life Points)."""
    if not receiver.mixing_scales or receiver.scale_reading != TARGET_MULTIPLIED:
        return 1
    cell = scale_damage(source_scale, receiver.scale)  # type: ignore[arg-type]
    return cell.factor if cell.multiplies == "target" else 1


def absorb(
    stun: int, wound: int, source_scale: str, receiver: Receiver, *, words: bool = True
) -> tuple[int, int, tuple[Event, ...]]:
    """R003.58 / T003.14 and Armor: the hit's Stun and Wound, counted on the target's Life
    Points x `hit_multiple` (on its own Life Points, divided by k, under "damage-divided");
    without `words` (read for the state alone, `model.worded`) no events."""
    factor, armor_stun, armor_wound, divisor, events, _ = _absorption(source_scale, receiver, words)
    stun = _half_up(max(0, stun * factor - armor_stun), divisor)
    wound = _half_up(max(0, wound * factor - armor_wound), divisor)
    return stun, wound, events


def _absorption(source_scale: str, receiver: Receiver, words: bool) -> tuple:
    """`_absorption_of`, remembered for the last receiver (by identity), scale and words
    asked: every hit of one attack the exact odds enumerate reads the same."""
    global _LAST_ABSORPTION
    last = _LAST_ABSORPTION
    if last[0] is receiver and last[1] == source_scale and last[2] is words:
        return last[3]
    found = _absorption_of(source_scale, receiver, words)
    _LAST_ABSORPTION = (receiver, source_scale, words, found)  # one tuple: read whole
    return found


_LAST_ABSORPTION: tuple = (None, None, None, None)  # (receiver, scale, words, absorption)


def _absorption_of(source_scale: str, receiver: Receiver, words: bool) -> tuple:
    """What `absorb` does to any hit of `source_scale` on `receiver` (R003.58 / T003.14,
    Armor): the factor on the damage, the Armor against Stun and Wound, the divisor (the
    "damage-divided" reading), the events, and `hit_multiple`."""
    events: list[Event] = []
    factor, armor_factor = 1, 1
    if receiver.mixing_scales:
        cell = scale_damage(source_scale, receiver.scale)  # type: ignore[arg-type]
        if cell.multiplies == "damage":
            factor = cell.factor
        elif cell.multiplies == "target":
            armor_factor = cell.factor
        if cell.multiplies != "none" and words:
            events.append(
                Event.of(
                    "scale",
                    "R003.58",
                    attacker_scale=source_scale,
                    target_scale=receiver.scale,
                    multiplies=cell.multiplies,
                    factor=cell.factor,
                )
            )
    armor_wound, armor_stun = 0, 0
    if receiver.armor:
        _, armor_wound, armor_stun = (
            scaled_defenses(
                0, receiver.armor_wound, receiver.armor_stun, source_scale, receiver.scale
            )
            if receiver.mixing_scales
            else (0, receiver.armor_wound, receiver.armor_stun)
        )
    if (armor_stun or armor_wound) and words:
        events.append(Event.of("armor", "R003.58", stun_armor=armor_stun, wound_armor=armor_wound))
    # the earlier reading brought a smaller attacker's hit down to the target's own track
    divisor = armor_factor if receiver.scale_reading == DAMAGE_DIVIDED else 1
    multiple = hit_multiple(source_scale, receiver)
    return factor, armor_stun, armor_wound, divisor, tuple(events), multiple


def damage_dealt(start: Target, end: Target) -> tuple[int, int]:
    """(Stun, Wound) a target took from `start` to `end`, counted as its tracks count them
    at the end (Life Points x each track's multiple, R003.58)."""
    if len(start.tracks) != len(end.tracks):  # a wing that took or lost a fighter meanwhile
        return end.stun - start.stun, end.wound - start.wound
    stun = wound = 0
    for before, after in zip(start.tracks, end.tracks, strict=True):
        recounted = before if after.multiple == before.multiple else before.counted(after.multiple)
        stun += after.stun - recounted.stun
        wound += after.wound - recounted.wound
    return stun, wound


def delivery_rolls(target: Target, receiver: Receiver) -> bool:
    """Whether `deliver` rolls dice for a hit on `target`, whatever the hit: a random fighter
    hit (R003.34) or battle damage (R003.25), both read from the target as it stands."""
    alive = [i for i, track in enumerate(target.tracks) if not track.destroyed]
    if not alive:
        return False
    if receiver.wing and len(alive) > 1 and receiver.allocation == "random":
        return True
    track = target.tracks[alive[0]]
    return receiver.spacecraft and receiver.battle_damage and 2 * track.wound >= track.life_points


class _NoDice:
    """The dice of a hit `delivery_rolls` says rolls none: any roll asked is a mistake."""

    def roll(self, die: Die, *, who: str = "", what: str = "") -> int:
        raise AssertionError(f"a hit that rolls nothing rolled {die.name} ({what})")

    def fold(self, initial: Any, steps: Any, key: Any = None) -> Any:
        raise AssertionError("a hit that rolls nothing rolled a fold")

    def chance(self, fn: Any, key: Any = None) -> Any:
        raise AssertionError("a hit that rolls nothing rolled a sub-roll")


NO_DICE: Dice = _NoDice()


def deliver(
    target: Target,
    receiver: Receiver,
    stun: int,
    wound: int,
    source_scale: str,
    dice: Dice,
    *,
    who: str = "",
    words: bool = True,
) -> Target:
    """Apply one hit: scale and Armor, the fighter hit (R003.34), battle damage (R003.25).

    The hit counts on the target's Life Points x k against a smaller attacker (R003.58);
    the track is recounted on the least multiple of its own and k, and the battle-damage
    roll adds the hit's Wound as counted against the attacker (R003.26). Without `words`
    (read for the state alone, `model.worded`) the hit adds no events."""
    factor, armor_stun, armor_wound, divisor, events, multiple = _absorption(
        source_scale, receiver, words
    )
    own_stun = _half_up(max(0, stun * factor - armor_stun), divisor)  # `absorb`
    own_wound = _half_up(max(0, wound * factor - armor_wound), divisor)
    alive = [i for i, track in enumerate(target.tracks) if not track.destroyed]
    if not alive:
        return target
    index = alive[0]
    picked: list[Event] = []
    if receiver.wing and len(alive) > 1 and receiver.allocation == "random":
        roll = dice.roll(numbered_die(len(alive)), who=receiver.unit_id, what="fighter hit")
        index = alive[roll - 1]
        if words:
            picked.append(
                Event.of(
                    "roll",
                    "R003.34",
                    who=receiver.unit_id,
                    what="fighter hit",
                    die=f"d{len(alive)}",
                    result=roll,
                )
            )
    landing = _landing(
        target, receiver, index, own_stun, own_wound, multiple, (*events, *picked), words
    )
    return _landed(target, receiver, landing, dice, words)


def _landing(
    target: Target,
    receiver: Receiver,
    index: int,
    own_stun: int,
    own_wound: int,
    multiple: int,
    events: tuple[Event, ...],
    words: bool,
) -> tuple:
    """A hit on the track `index` before its battle-damage roll (`deliver`): the track
    before and after, whether battle damage is rolled, the Wound it rolls with, the events
    before the roll and after it (a fighter or vessel destroyed)."""
    if receiver.wing and words:
        events = (
            *events,
            Event.of("fighter-hit", "R003.34", fighter=index, how=receiver.allocation),
        )
    track = target.tracks[index]
    trigger = (
        receiver.spacecraft and receiver.battle_damage and 2 * track.wound >= track.life_points
    )
    # a hit that gets through (Armor may stop it all) recounts the track it counts on
    counted = track.counted(math.lcm(track.multiple, multiple)) if own_stun or own_wound else track
    times = counted.multiple // multiple  # the hit's points on the recounted track
    added_stun, added_wound = own_stun * times, own_wound * times
    new_track = Track(
        counted.wound + added_wound,
        counted.stun + added_stun,
        counted.life_points,
        counted.multiple,
    )
    tracks = tuple(new_track if i == index else t for i, t in enumerate(target.tracks))
    if not words:  # the state alone: the same rolls, no events
        return tracks, trigger, own_wound, (), ()
    before = (
        *events,
        Event.of(
            "damage",
            "R003.7",
            target=receiver.unit_id,
            stun=added_stun,
            wound=added_wound,
            total_stun=new_track.stun,
            total_wound=new_track.wound,
            life_points=new_track.life_points,
        ),
    )
    if trigger:
        before = (
            *before,
            Event.of(
                "battle-damage-trigger",
                "R003.25",
                wound_before=track.wound,
                life_points=track.life_points,
            ),
        )
    after: tuple[Event, ...] = ()
    if new_track.destroyed and not track.destroyed:
        after = (
            Event.of(
                "destroyed",
                "R003.7",
                target=receiver.unit_id,
                fighter=index if receiver.wing else None,
            ),
        )
    return tracks, trigger, own_wound, before, after


def _landed(target: Target, receiver: Receiver, landing: tuple, dice: Dice, words: bool) -> Target:
    """The hit `_landing` made ready, with its battle-damage roll (R003.25-R003.29)."""
    tracks, trigger, own_wound, before, after = landing
    systems, effects = target.systems, target.effects
    rolled_events: tuple[Event, ...] = ()
    if trigger:
        rolled = BattleDamageRoll(own_wound, systems, receiver.unit_id)
        result = dice.chance(rolled, key=rolled.key)
        systems, effects = result.systems, effects + result.effects
        rolled_events = result.events
    if not words:
        return Target(tracks, systems, effects, target.events)
    return Target(tracks, systems, effects, target.events + before + rolled_events + after)


def landing_of(
    target: Target, receiver: Receiver, stun: int, wound: int, source_scale: str, words: bool
) -> tuple | None:
    """`deliver`'s work before any roll, where the hit lands on a fighter or vessel known
    before it (`_landed` finishes it): None where nothing is left to hit or a fighter is
    picked at random (R003.34)."""
    alive = [i for i, track in enumerate(target.tracks) if not track.destroyed]
    if not alive or (receiver.wing and len(alive) > 1 and receiver.allocation == "random"):
        return None
    factor, armor_stun, armor_wound, divisor, events, multiple = _absorption(
        source_scale, receiver, words
    )
    own_stun = _half_up(max(0, stun * factor - armor_stun), divisor)  # `absorb`
    own_wound = _half_up(max(0, wound * factor - armor_wound), divisor)
    return _landing(target, receiver, alive[0], own_stun, own_wound, multiple, events, words)


def land(target: Target, receiver: Receiver, landing: tuple, dice: Dice, words: bool) -> Target:
    """`deliver` of a hit `landing_of` made ready: its battle-damage roll, if any."""
    return _landed(target, receiver, landing, dice, words)


# --------------------------------------------------------------------------- battle damage


@dataclass(frozen=True, slots=True)
class BattleDamage:
    """What a battle-damage roll did: the new systems, the results in order, the events."""

    systems: Systems
    effects: tuple[str, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class BattleDamageRoll(Subroll):
    """A hit's battle-damage roll (R003.26-R003.29) as a value: everything it reads, the hit's
    Wound and the target's systems (and whose roll it is). The same roll comes back on many
    hits (every hit of equal Wound on the same vessel), so the exact odds enumerate it once
    per value."""

    wound: int
    systems: Systems
    who: str

    def __call__(self, dice: Dice) -> BattleDamage:
        return battle_damage(self.wound, self.systems, dice, who=self.who)

    def key(self, outcome: BattleDamage) -> tuple:
        """What the hit reads of the roll: the systems and the results (not the events)."""
        return outcome.systems, outcome.effects


def applicable(row: int, systems: Systems) -> bool:
    """R003.27 / A003.19: a result applies unless its system is already destroyed or absent."""
    system = BATTLE_DAMAGE[row].system
    if system in (SENSORS, WIDESPREAD):
        return True
    if system in (SUBLIGHT_DAMAGED, SUBLIGHT_DESTROYED):
        return not systems.sublight_destroyed
    if system in (WEAPON, WEAPON_SYSTEM):
        return any(w.working > 0 for w in systems.weapons)
    if system == FTL:
        return systems.ftl and not systems.ftl_destroyed
    raise AssertionError(system)


def battle_damage(
    wound: int, systems: Systems, dice: Dice, *, who: str = "", depth: int = 0
) -> BattleDamage:
    """R003.26-R003.29: d10 + Wound on T003.7, next category when inapplicable, and
    widespread damage rolling twice with half the Wound (A003.18)."""
    # what follows depends on the d10 only through the category it lands in
    row, events = dice.chance(
        lambda source: _category(wound, systems, source, who), key=lambda found: found[0]
    )
    if row is None:
        return BattleDamage(systems, (), events)
    system = BATTLE_DAMAGE[row].system
    if system == WIDESPREAD:
        return _widespread(wound, systems, dice, who, depth, events)
    changed, picked = _damage_system(system, systems, dice, who)
    return BattleDamage(changed, (system,), (*events, *picked))


def _category(
    wound: int, systems: Systems, dice: Dice, who: str
) -> tuple[int | None, tuple[Event, ...]]:
    """R003.26, R003.27, A003.17: the d10, the total and the T003.7 row that applies."""
    roll = dice.roll(D10, who=who, what="battle damage")
    total = roll + wound
    events: list[Event] = [
        Event.of("roll", "R003.26", who=who, what="battle damage", die="d10", result=roll),
        Event.of("battle-damage-total", "R003.26", roll=roll, wound=wound, total=total),
    ]
    row = battle_damage_row(total)
    if row is None:
        events.append(Event.of("battle-damage", "A003.17", total=total, result=None))
        return None, tuple(events)
    while not applicable(row, systems):
        events.append(Event.of("inapplicable", "R003.27", result=BATTLE_DAMAGE[row].system))
        row += 1
    events.append(
        Event.of("battle-damage", "T003.7", total=total, result=BATTLE_DAMAGE[row].system)
    )
    return row, tuple(events)


def _widespread(
    wound: int, systems: Systems, dice: Dice, who: str, depth: int, events: tuple[Event, ...]
) -> BattleDamage:
    """R003.28: two further rolls at half the Wound, each of which may recurse (A003.18)."""
    halved = wound // 2
    if depth >= MAX_WIDESPREAD_DEPTH or (wound == 0 and depth > 0):
        # nothing is left to damage at 0 Wound but widespread itself: stop the chain
        return BattleDamage(
            systems,
            (WIDESPREAD,),
            (*events, Event.of("widespread-exhausted", "A003.18", wound=wound)),
        )
    start = BattleDamage(
        systems,
        (WIDESPREAD,),
        (*events, Event.of("widespread", "R003.28", wound=wound, halved=halved)),
    )

    def again(state: BattleDamage, source: Dice) -> BattleDamage:
        result = battle_damage(halved, state.systems, source, who=who, depth=depth + 1)
        return BattleDamage(
            result.systems, state.effects + result.effects, state.events + result.events
        )

    return dice.fold(start, (again, again), key=lambda s: (s.systems, s.effects))


def _damage_system(
    system: str, systems: Systems, dice: Dice, who: str
) -> tuple[Systems, tuple[Event, ...]]:
    """R003.29: the effect of one applicable result (random weapons rolled on a die)."""
    if system == SENSORS:
        return replace(systems, sensors_damaged=systems.sensors_damaged + 1), ()
    if system == SUBLIGHT_DAMAGED:
        speed = systems.speed // 2
        return replace(systems, sublight_damaged=systems.sublight_damaged + 1, speed=speed), (
            Event.of("speed", "R003.29", speed=speed),
        )
    if system == FTL:
        return replace(systems, ftl_destroyed=True), ()
    if system == SUBLIGHT_DESTROYED:
        return replace(systems, sublight_destroyed=True), ()
    weapons = list(systems.weapons)
    if system == WEAPON:
        mounts = [i for i, w in enumerate(weapons) for _ in range(w.working)]
        pick, events = _pick(mounts, dice, who, "weapon damaged")
        chosen = weapons[pick]
        weapons[pick] = replace(chosen, disabled=chosen.disabled + 1)
    else:
        entries = [i for i, w in enumerate(weapons) if w.working > 0]
        pick, events = _pick(entries, dice, who, "weapon system destroyed")
        weapons[pick] = replace(weapons[pick], destroyed=True)
    events = (
        *events,
        Event.of(
            "weapon-lost", "R003.29", weapon=weapons[pick].name, system=system == WEAPON_SYSTEM
        ),
    )
    return replace(systems, weapons=tuple(weapons)), events


def _pick(candidates: list[int], dice: Dice, who: str, what: str) -> tuple[int, tuple[Event, ...]]:
    """A random one of the candidates (a weapon entry once per working mount, or once per
    system): a die with a face per candidate, each face labelled with its entry's number
    (1-based), so equally likely faces of the same entry are one outcome. No roll when
    every face names the same entry."""
    labels = tuple(entry + 1 for entry in candidates)
    if len(set(labels)) == 1:
        return candidates[0], ()
    roll = dice.roll(_labelled_die(labels), who=who, what=what)
    return roll - 1, (
        Event.of("roll", "R003.29", who=who, what=what, die=f"d{len(labels)}", entry=roll),
    )


@lru_cache(maxsize=256)
def _labelled_die(labels: tuple[int, ...]) -> Die:
    return Die(f"d{len(labels)}", labels)


# --------------------------------------------------------------------------- writing back


def write_back(state: GameState, unit_id: str, target: Target) -> GameState:
    """The state with a target's tracks and systems written into its stats."""
    unit = state.unit(unit_id)
    card = vessel(unit)
    start = _start_of(card)
    if target.tracks == start.tracks and target.systems == start.systems:
        return state
    systems = target.systems
    changes: dict[str, Any] = {}
    if card.is_wing:
        members = []
        for entry, track in zip(unit.stats["members"], target.tracks, strict=True):
            member = {"wound": track.wound, "stun": track.stun}
            if track.multiple != int(entry.get("lp_multiple", 1)):
                member["lp_multiple"] = track.multiple
            members.append(_entry_with(entry, member))
        changes["members"] = members
    else:
        (track,) = target.tracks
        changes["wound"], changes["stun"] = track.wound, track.stun
        if track.multiple != card.lp_multiple:
            changes["lp_multiple"] = track.multiple
    if systems != start.systems:
        changes.update(
            sensors_damaged=systems.sensors_damaged,
            sublight_damaged=systems.sublight_damaged,
            sublight_destroyed=systems.sublight_destroyed,
            ftl_destroyed=systems.ftl_destroyed,
            speed=systems.speed,
        )
        weapons = []
        for entry, weapon in zip(unit.stats.get("weapons", ()), systems.weapons, strict=True):
            weapons.append(
                _entry_with(entry, {"disabled": weapon.disabled, "destroyed": weapon.destroyed})
            )
        changes["weapons"] = weapons
    stats = unit.stats
    # only the changed stats frozen (the others are already); the same keys in the same order
    written = (
        stats.updated(changes) if isinstance(stats, FrozenMap) else FrozenMap({**stats, **changes})
    )
    if not card.is_wing and isinstance(written, FrozenMap):
        # a vessel reads as its card with the tracks and systems written (not parsed again
        # from its stats after every roll the computer players enumerate)
        remember_vessel(written, _card_with(card, changes, systems))
    return state.replace_unit(replace(unit, stats=written))


def _entry_with(entry: Mapping[str, Any], changes: dict[str, Any]) -> Mapping[str, Any]:
    """A member's or a weapon's stats entry with `changes` set, the same keys in the same
    order as `{**entry, **changes}`: a frozen entry copied with only the new values frozen
    (freezing the whole entry again, for every outcome the exact odds enumerate, was most
    of writing a wing's or a damaged system's roll back), or kept where it holds them all."""
    if type(entry) is FrozenMap:
        get = entry.get
        if all(type(get(k, _UNSET)) is type(v) and get(k) == v for k, v in changes.items()):
            return entry  # every value already there, of the same type: the same entry
        return entry.updated(changes)
    return {**dict(entry), **changes}


_UNSET = object()  # a key an entry does not hold


# `target_of(card)`, remembered for the last card asked (every outcome of one attack the
# exact odds enumerate writes back onto the same card)
_start_of: Callable[[Vessel], Target] = last_asked(target_of)


def _card_with(card: Vessel, changes: Mapping[str, Any], systems: Systems) -> Vessel:
    """The card `vessel` parses from a vessel's stats (not a wing's) once `write_back` set
    `changes` (`systems` the ones written where "weapons" is among them): its fields
    copied without running the dataclass again per enumerated outcome, the changed ones
    as the parser reads them. What it caches (`fighters`, `less_skilled`) reads only the
    members, unchanged."""
    made = object.__new__(Vessel)
    fields = made.__dict__
    fields.update(card.__dict__)
    fields["wound"] = int(changes["wound"])
    fields["stun"] = int(changes["stun"])
    if "lp_multiple" in changes:
        multiple = int(changes["lp_multiple"])
        fields["life_points"] = card.printed_life_points * multiple
        fields["lp_multiple"] = multiple
    if "weapons" in changes:
        fields["sensors_damaged"] = int(systems.sensors_damaged)
        fields["sublight_damaged"] = int(systems.sublight_damaged)
        fields["sublight_destroyed"] = bool(systems.sublight_destroyed)
        fields["ftl_destroyed"] = bool(systems.ftl_destroyed)
        fields["speed"] = int(systems.speed)
        fields["weapons"] = tuple(
            _weapon_with(weapon, int(now.disabled), bool(now.destroyed))
            for weapon, now in zip(card.weapons, systems.weapons, strict=True)
        )
    return made


def _weapon_with(weapon: Weapon, disabled: int, destroyed: bool) -> Weapon:
    """A weapon entry's card with its battle damage (R003.29), the same one when unchanged."""
    if weapon.disabled == disabled and weapon.destroyed is destroyed:
        return weapon
    return replace(weapon, disabled=disabled, destroyed=destroyed)
