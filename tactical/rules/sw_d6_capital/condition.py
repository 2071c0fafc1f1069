"""A ship's condition: damage level, effects, ionization, shields, trackers and per-turn flags.

`Condition` is what the system tracks for one ship beyond its Command Deck; it
lives in `GameState.rule_state["ships"][unit id]` as plain values (`to_plain`)
so saved games stay plain data. Everything here is deterministic: the dice are
rolled by the resolvers (`damage`, `repair`, ...) and the outcomes applied by
these functions, each returning the new condition and the events it caused.

Readings adopted where the source is silent (documented for the tests):

- Effects are tagged with the damage level at which they were taken; when
  Damage Control lowers the level, effects tagged above the new level are
  repaired, except those the tables call destroyed (permanent in battle).
- Shields Blown losses come off the shields total; with no shield dice left they
  go to the Hull (Particle Shields) up to -2D, beyond that Controls Ionized (+1D
  Ionization, A004.25). They last until Damage Control restores shields.
- Ion hits knock down as many shield pips as Ionization dice x 3 ("shields
  knocked down by ion weapons", R004.19) on top of the Ionization penalty to the
  ship's systems (R004.41), which is tracked as dice and rolls off 1D per round.
- A shield loss comes off the arc that was struck first, then front, right,
  rear, left; regenerated shields refill the captain's last allocation.
- Maneuverability overflow (R004.46, A004.24): a loss beyond the remaining
  Maneuverability becomes ceil(excess pips / 3) Lost Moves.
- Crew casualties (R004.48): the "1 round" penalty lasts to the end of the next
  turn, then the rest-of-battle penalty applies; casualties stack.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from tactical.rules.base import Event
from tactical.rules.sw_d6_capital.deck import Deck, WeaponUnit
from tactical.rules.sw_d6_capital.tables import (
    ALL_WEAPONS_DESTROYED,
    ARCS,
    CATASTROPHIC,
    CONTROLS_DAMAGED,
    DEAD_IN_SPACE,
    DESTROYED,
    DISABLED_HYPERDRIVE,
    ENGINES_DAMAGED,
    FIRE_CONTROL,
    HYPERDRIVE_DAMAGED,
    LEVELS,
    MANEUVERABILITY,
    NONE,
    ORDER_TABLE,
    OVERLOADED_REACTOR,
    PIPS_PER_DIE,
    SENSOR_SUITE,
    SENSORS_DESTROYED,
    SEVERE,
    SHIELDS_BLOWN,
    STEADY,
    WEAPONS_DAMAGED,
    WEAPONS_DESTROYED,
    WEAPONS_INOPERATIVE,
    WEAPONS_SEVERELY_DAMAGED,
    controls_dead_degree,
    crew_penalty_dice,
    drives_destroyed,
    escalate,
    level_rank,
    lost_moves_limit,
)

HULL_PENALTY_CAP = 2 * PIPS_PER_DIE  # Particle Shields: at most -2D (T004.7 #5, R004.41)
LOST_MOVES = "lost-moves"
CONTROLS_DEAD = "controls-dead"
DRIVES_DESTROYED = "drives-destroyed"
BATTERY = "battery"
ALL_WEAPONS_INOPERATIVE = "all-weapons-inoperative"
SENSORS_DESTROYED_PIPS = 4 * PIPS_PER_DIE
CONTROLS_DAMAGED_PIPS = 3 * PIPS_PER_DIE


@dataclass(frozen=True, slots=True)
class Effect:
    """One lasting damage effect: its code, the level it was taken at, its size and place."""

    code: str
    level: str
    pips: int = 0
    moves: int = 0
    arc: str = ""
    weapon: str = ""
    permanent: bool = False

    def to_plain(self) -> dict[str, Any]:
        plain = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: v for k, v in plain.items() if v or k in ("code", "level")}


@dataclass(frozen=True)
class Condition:
    """What the system tracks for one ship (module docstring). Pips for die codes."""

    level: str = NONE
    effects: tuple[Effect, ...] = ()
    ionization: int = 0
    ion_shields: int = 0
    shields_blown: int = 0
    hull_blown: int = 0
    shields_drained: bool = False
    shield_arcs: tuple[int, int, int, int] = (0, 0, 0, 0)
    shield_plan: tuple[int, int, int, int] = (0, 0, 0, 0)
    initiative_bonus: int = 0
    force_points: int = 0
    light_results: int = 0
    strength: int = 0
    reserve: int = 0
    reactor_countdown: int | None = None
    abandon_countdown: int | None = None
    blazing: bool = False
    recovering_until: int | None = None
    casualties: tuple[tuple[int, int, int], ...] = ()  # (until turn, round pips, battle pips)
    # ---- this turn
    order: str | None = None
    command_rolled: bool = False
    command_mod: int = 0
    dc_done: bool = False
    dc_map: int = 0
    shields_map: int = 0
    astromech_done: bool = False
    shutdown_tried: bool = False
    fired: tuple[str, ...] = ()
    arcs_at: tuple[tuple[str, str], ...] = ()
    batches: int = 0
    done: bool = False
    moved: bool = False
    masterstroke_moved: bool = False
    # R004.40: the arcs fired from this turn before the Masterstroke move (none fires again)
    arcs_before_masterstroke: tuple[str, ...] = ()
    disrupted: bool = False
    angled: bool = False

    # ------------------------------------------------------------------ plain values

    def to_plain(self) -> dict[str, Any]:
        """The fields that differ from a fresh ship's, as plain values."""
        plain: dict[str, Any] = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if value == spec.default:
                continue
            if spec.name == "effects":
                value = tuple(effect.to_plain() for effect in value)
            plain[spec.name] = value
        return plain

    @classmethod
    def from_plain(cls, values: Mapping[str, Any]) -> Condition:
        known = {spec.name for spec in fields(cls)}
        given: dict[str, Any] = {}
        for key, value in values.items():
            if key not in known:
                continue
            if key == "effects":
                value = tuple(Effect(**dict(item)) for item in value)
            elif key in ("shield_arcs", "shield_plan"):
                value = tuple(int(v) for v in value)
            elif key == "casualties":
                value = tuple(tuple(int(v) for v in item) for item in value)
            elif key == "arcs_at":
                value = tuple(tuple(item) for item in value)
            elif key in ("fired", "arcs_before_masterstroke"):
                value = tuple(value)
            given[key] = value
        return cls(**given)

    # ------------------------------------------------------------------ status

    @property
    def destroyed(self) -> bool:
        return self.level == DESTROYED

    @property
    def catastrophic(self) -> bool:
        return self.level == CATASTROPHIC

    def has(self, code: str) -> bool:
        return any(effect.code == code for effect in self.effects)

    @property
    def controls_dead(self) -> bool:
        """R004.44: dead in space, all systems disabled, no further Ionization until repaired."""
        return self.has(CONTROLS_DEAD)

    def recovering(self, turn: int) -> bool:
        """R004.57: away recovering at its base (cannot be used)."""
        return self.recovering_until is not None and turn < self.recovering_until

    def out_of_action(self, turn: int) -> bool:
        """Cannot act at all: destroyed, catastrophic (being abandoned), or recovering."""
        return self.destroyed or self.catastrophic or self.recovering(turn)

    @property
    def order_or_default(self) -> str:
        """The order in force; a ship that gave none is Steady As She Goes."""
        return self.order or STEADY

    # ------------------------------------------------------------------ penalties (pips)

    def _sum(self, code: str) -> int:
        return sum(effect.pips for effect in self.effects if effect.code == code)

    def crew_penalty(self, turn: int) -> int:
        """R004.18 and R004.48: the damage-state penalty plus crew casualties, in pips."""
        penalty = PIPS_PER_DIE * crew_penalty_dice(self.level)
        for until, round_pips, battle_pips in self.casualties:
            penalty += round_pips if turn <= until else battle_pips
        return penalty

    @property
    def controls_damaged(self) -> int:
        """T004.9 #5: Controls Damaged / Bridge Smashed, -3D to all skill rolls."""
        return CONTROLS_DAMAGED_PIPS if self.has(CONTROLS_DAMAGED) else 0

    @property
    def sensors_destroyed(self) -> int:
        """T004.9 #6: Fire Control -4D; Piloting and Astrogation -4D."""
        return SENSORS_DESTROYED_PIPS if self.has(SENSORS_DESTROYED) else 0

    @property
    def fire_control_loss(self) -> int:
        """Equipment losses of Fire Control: damage (T004.7/8 #2, T004.9 #6) and Ionization."""
        return self._sum(FIRE_CONTROL) + self.sensors_destroyed + PIPS_PER_DIE * self.ionization

    @property
    def order_map(self) -> int:
        """R004.17: the order's Multiple Action Penalty in dice (Evasive 1D, Full Evasion 2D)."""
        return ORDER_TABLE[self.order_or_default].map_dice

    def action_map(self) -> int:
        """MAP in pips on an action after the Damage Control phase: order, Damage Control
        (R004.21), a fighter's shields roll (R004.24), Disrupted (T004.17)."""
        return PIPS_PER_DIE * (
            self.order_map + self.dc_map + self.shields_map + (1 if self.disrupted else 0)
        )

    def skill_penalty(self, turn: int) -> int:
        """Penalties common to every crew skill roll: damage state, casualties, bridge."""
        return self.crew_penalty(turn) + self.controls_damaged

    def current_cso(self, deck: Deck, turn: int) -> int:
        """R004.18 / A004.10: CSO after the damage-state (and casualty, bridge) penalties."""
        return deck.cso.pips - self.skill_penalty(turn)

    def maneuverability(self, deck: Deck) -> int:
        """Maneuverability after damage and Ionization (R004.41), in pips (0 or less = 0D)."""
        return deck.maneuverability.pips - self._sum(MANEUVERABILITY) - 3 * self.ionization

    @property
    def damage_lost_moves(self) -> int:
        return sum(effect.moves for effect in self.effects if effect.code == LOST_MOVES)

    @property
    def lost_moves(self) -> int:
        """R004.45 / R004.42: Lost Moves from damage plus 1 per active 1D of Ionization."""
        return self.damage_lost_moves + self.ionization

    def max_speed(self) -> str:
        """T004.13, T004.9 #1, R004.44: the fastest speed allowed now."""
        if self.controls_dead or self.has(DEAD_IN_SPACE) or self.has(DRIVES_DESTROYED):
            return "stationary"
        return lost_moves_limit(self.lost_moves)

    def hull_penalty(self) -> int:
        """Hull (Particle Shields) penalties: Shields Blown overflow and Ionization, max -2D."""
        return min(HULL_PENALTY_CAP, self.hull_blown + PIPS_PER_DIE * self.ionization)

    def hull(self, deck: Deck) -> int:
        return deck.hull.pips - self.hull_penalty()

    def shields_available(self, deck: Deck) -> int:
        """Shield pips not blown and not knocked down by ion weapons (R004.19)."""
        return max(0, deck.shields.pips - self.shields_blown - self.ion_shields)

    def arc_shields(self, arc: str) -> int:
        """R004.34: the shield pips in one arc now (0 while Shields Drained, R004.38)."""
        return 0 if self.shields_drained else self.shield_arcs[ARCS.index(arc)]

    def battery(self, weapon: WeaponUnit) -> int:
        """Battery Dice of a weapon unit after Weapons Damaged losses in its arc (T004.7 #3)."""
        loss = sum(e.pips for e in self.effects if e.code == BATTERY and e.arc == weapon.arc)
        return max(0, weapon.battery.pips - loss)

    def weapon_status(self, weapon: WeaponUnit) -> str | None:
        """Why a weapon unit cannot fire (an effect code), or None when it is operative."""
        for effect in self.effects:
            if effect.code in (ALL_WEAPONS_DESTROYED, ALL_WEAPONS_INOPERATIVE):
                return effect.code
            if (
                effect.code in (WEAPONS_DESTROYED, WEAPONS_INOPERATIVE)
                and effect.weapon == weapon.id
            ):
                return effect.code
        return None

    # ------------------------------------------------------------------ per turn

    def new_turn(self) -> Condition:
        """The per-turn declarations and flags cleared (R004.10: a new turn)."""
        return replace(
            self,
            order=None,
            command_rolled=False,
            command_mod=0,
            dc_done=False,
            dc_map=0,
            shields_map=0,
            astromech_done=False,
            shutdown_tried=False,
            fired=(),
            arcs_at=(),
            batches=0,
            done=False,
            moved=False,
            masterstroke_moved=False,
            arcs_before_masterstroke=(),
            disrupted=False,
            angled=False,
        )

    def arcs_used_at(self, target: str) -> tuple[str, ...]:
        return tuple(arc for who, arc in self.arcs_at if who == target)


# --------------------------------------------------------------------------- starting condition


def initial_condition(deck: Deck) -> Condition:
    """The condition a ship starts with: the deck's damage, Ionization, shield allocation,
    Initiative Bonus, Force Points, Unit Strength and Recovery reserve."""
    return Condition(
        level=deck.start_damage,
        ionization=deck.start_ionization,
        shield_arcs=deck.shield_arcs,
        shield_plan=deck.shield_arcs,
        initiative_bonus=deck.initiative_bonus,
        force_points=deck.force_points,
        strength=deck.initial_strength,
        reserve=deck.recovery_reserve,
    )


# --------------------------------------------------------------------------- shields


def fit_shields(
    condition: Condition, deck: Deck, struck: str | None = None
) -> tuple[int, int, int, int]:
    """The allocation cut to the shields available: the struck arc loses first, then front,
    right, rear, left."""
    arcs = list(condition.shield_arcs)
    excess = sum(arcs) - condition.shields_available(deck)
    order = ([ARCS.index(struck)] if struck else []) + list(range(4))
    for index in order:
        if excess <= 0:
            break
        take = min(arcs[index], excess)
        arcs[index] -= take
        excess -= take
    return tuple(arcs)  # type: ignore[return-value]


def refill_shields(condition: Condition, deck: Deck) -> tuple[int, int, int, int]:
    """Regenerated pips go back to the arcs of the captain's last allocation."""
    arcs = list(condition.shield_arcs)
    spare = condition.shields_available(deck) - sum(arcs)
    for index in range(4):
        if spare <= 0:
            break
        give = min(max(condition.shield_plan[index] - arcs[index], 0), spare)
        arcs[index] += give
        spare -= give
    return tuple(arcs)  # type: ignore[return-value]


def lose_shields(condition: Condition, deck: Deck, struck: str | None) -> Condition:
    return replace(condition, shield_arcs=fit_shields(condition, deck, struck))


# --------------------------------------------------------------------------- damage outcomes


def add_ionization(
    condition: Condition, deck: Deck, dice: int, struck: str | None, rule: str
) -> tuple[Condition, tuple[Event, ...]]:
    """R004.41-R004.44: add Ionization dice; over 4D in all means Controls Dead (T004.15b).

    A ship already Controls Dead takes no further Ionization (R004.44).
    """
    if condition.controls_dead:
        return condition, (Event.of("ionization-ignored", "R004.44", dice=dice),)
    total = condition.ionization + dice
    knocked = min(PIPS_PER_DIE * dice, condition.shields_available(deck))
    updated = replace(condition, ionization=total, ion_shields=condition.ion_shields + knocked)
    updated = lose_shields(updated, deck, struck)
    events = [
        Event.of(
            "ionization",
            rule,
            added=dice,
            total=total,
            shields_knocked_down=knocked,
            lost_moves=updated.lost_moves,
        )
    ]
    degree = controls_dead_degree(total)
    if degree is not None:
        level = escalate(updated.level, degree)
        updated = replace(
            updated,
            level=level,
            effects=(*updated.effects, Effect(CONTROLS_DEAD, degree)),
        )
        events.append(
            Event.of("controls-dead", "R004.44", ionization=total, degree=degree, level=level)
        )
    return updated, tuple(events)


def blow_shields(
    condition: Condition, deck: Deck, level: str, dice: int, struck: str | None
) -> tuple[Condition, tuple[Event, ...]]:
    """T004.7 #5 / T004.8 #5: lose dice from the Shields total; without shield dice the loss
    goes to the Hull up to -2D; beyond that Controls Ionized (A004.25: +1D Ionization)."""
    loss = PIPS_PER_DIE * dice
    remaining = max(0, deck.shields.pips - condition.shields_blown)
    from_shields = min(loss, remaining)
    rest = loss - from_shields
    to_hull = min(rest, HULL_PENALTY_CAP - condition.hull_blown)
    updated = replace(
        condition,
        shields_blown=condition.shields_blown + from_shields,
        hull_blown=condition.hull_blown + to_hull,
    )
    updated = lose_shields(updated, deck, struck)
    events: list[Event] = [
        Event.of(
            "shields-blown",
            "T004.7" if level != "heavy" else "T004.8",
            shields_lost=from_shields,
            hull_lost=to_hull,
        )
    ]
    if rest - to_hull > 0:
        updated, more = add_ionization(updated, deck, 1, struck, "A004.25")
        events.extend(more)
    return updated, tuple(events)


def reduce_maneuverability(
    condition: Condition, deck: Deck, level: str, dice: int
) -> tuple[Condition, tuple[Event, ...]]:
    """T004.7 #1 / T004.8 #1 with R004.46: the loss beyond the remaining Maneuverability
    becomes Lost Moves (1D = 1 Move, a partial excess rounded up)."""
    loss = PIPS_PER_DIE * dice
    left = max(0, deck.maneuverability.pips - condition._sum(MANEUVERABILITY))
    taken = min(loss, left)
    excess = loss - taken
    moves = -(-excess // PIPS_PER_DIE)
    effects = list(condition.effects)
    if taken:
        effects.append(Effect(MANEUVERABILITY, level, pips=taken))
    if moves:
        effects.append(Effect(LOST_MOVES, level, moves=moves))
    updated = replace(condition, effects=tuple(effects))
    updated, events = _check_drives(updated, level)
    return updated, (
        Event.of("maneuverability-lost", "R004.46", pips=taken, lost_moves=moves),
        *events,
    )


def _check_drives(condition: Condition, level: str) -> tuple[Condition, tuple[Event, ...]]:
    """T004.13: -5 Lost Moves from damage destroys the drives (permanent)."""
    if drives_destroyed(condition.damage_lost_moves) and not condition.has(DRIVES_DESTROYED):
        updated = replace(
            condition,
            effects=(*condition.effects, Effect(DRIVES_DESTROYED, level, permanent=True)),
        )
        return updated, (Event.of("drives-destroyed", "R004.45", lost_moves=condition.lost_moves),)
    return condition, ()


def _struck_weapon(deck: Deck, condition: Condition, arc: str | None) -> WeaponUnit | None:
    """T004.8 #3 [interp]: "one type in one fire arc" = the first operative weapon type listed
    in the struck arc, else the first operative one listed anywhere."""
    operative = [w for w in deck.weapons if condition.weapon_status(w) is None]
    for weapon in operative:
        if weapon.arc == arc:
            return weapon
    return operative[0] if operative else None


def apply_effect(
    condition: Condition,
    deck: Deck,
    level: str,
    code: str,
    dice: int,
    moves: int,
    struck: str | None,
    reactor_rounds: int | None = None,
) -> tuple[Condition, tuple[Event, ...]]:
    """R004.37: put one effect of T004.7-T004.9 (after its re-roll) on the ship."""

    def add(effect: Effect) -> Condition:
        return replace(condition, effects=(*condition.effects, effect))

    if code == MANEUVERABILITY:
        return reduce_maneuverability(condition, deck, level, dice)
    if code in (SENSOR_SUITE, FIRE_CONTROL):
        return add(Effect(code, level, pips=PIPS_PER_DIE * dice)), ()
    if code == WEAPONS_DAMAGED:
        return add(Effect(BATTERY, level, pips=PIPS_PER_DIE * dice, arc=struck or "")), ()
    if code in (WEAPONS_INOPERATIVE, WEAPONS_DESTROYED):
        weapon = _struck_weapon(deck, condition, struck)
        if weapon is None:
            return condition, (Event.of("no-weapon-left", "T004.8", effect=code),)
        effect = Effect(
            code, level, arc=weapon.arc, weapon=weapon.id, permanent=code == WEAPONS_DESTROYED
        )
        return add(effect), (Event.of("weapon-hit", "T004.8", effect=code, weapon=weapon.id),)
    if code == SHIELDS_BLOWN:
        return blow_shields(condition, deck, level, dice, struck)
    if code == ENGINES_DAMAGED:
        return _check_drives(add(Effect(LOST_MOVES, level, moves=moves)), level)
    if code in (HYPERDRIVE_DAMAGED, DISABLED_HYPERDRIVE):
        return add(Effect(code, level)), ()
    if code == DEAD_IN_SPACE:
        return add(Effect(DEAD_IN_SPACE, level, permanent=True)), ()
    if code == OVERLOADED_REACTOR:
        updated = replace(add(Effect(code, level)), reactor_countdown=reactor_rounds)
        return updated, (Event.of("reactor-overload", "T004.9", rounds=reactor_rounds),)
    if code == WEAPONS_SEVERELY_DAMAGED:
        return add(Effect(ALL_WEAPONS_INOPERATIVE, level)), ()
    if code == ALL_WEAPONS_DESTROYED:
        return add(Effect(ALL_WEAPONS_DESTROYED, level, permanent=True)), ()
    if code == CONTROLS_DAMAGED:
        return add(Effect(CONTROLS_DAMAGED, level, pips=CONTROLS_DAMAGED_PIPS)), ()
    if code == SENSORS_DESTROYED:
        return add(Effect(SENSORS_DESTROYED, level, pips=SENSORS_DESTROYED_PIPS)), ()
    raise ValueError(f"unknown effect {code!r}")


def add_casualties(
    condition: Condition, casualties: tuple[int, int, int] | None, turn: int
) -> Condition:
    """R004.48: crew-casualty penalties (dice for 1 round, rest of battle) of a large ship."""
    if not casualties:
        return condition
    round_dice, battle_dice, _until_replaced = casualties
    entry = (turn + 1, PIPS_PER_DIE * round_dice, PIPS_PER_DIE * battle_dice)
    return replace(condition, casualties=(*condition.casualties, entry))


# --------------------------------------------------------------------------- repairs


def repair_to(condition: Condition, level: str) -> Condition:
    """Damage lowered to `level`: effects taken above it are repaired unless permanent;
    an overloaded reactor below Severe is safe again."""
    rank = level_rank(level)
    effects = tuple(e for e in condition.effects if e.permanent or level_rank(e.level) <= rank)
    reactor = condition.reactor_countdown if rank >= LEVELS.index(SEVERE) else None
    return replace(condition, level=level, effects=effects, reactor_countdown=reactor)


def shield_repair_pips(condition: Condition) -> int:
    """Downed shields a Damage Control roll may cover: blown, hull (Particle Shields) and
    ion-downed pips (R004.19, R004.22)."""
    return condition.shields_blown + condition.hull_blown + condition.ion_shields


def restore_shields(condition: Condition, deck: Deck, pips: int) -> Condition:
    """Restore up to `pips` of downed shields (hull first, then blown, then ion-downed) and
    refill the allocation."""
    hull = min(pips, condition.hull_blown)
    pips -= hull
    blown = min(pips, condition.shields_blown)
    pips -= blown
    ion = min(pips, condition.ion_shields)
    updated = replace(
        condition,
        hull_blown=condition.hull_blown - hull,
        shields_blown=condition.shields_blown - blown,
        ion_shields=condition.ion_shields - ion,
    )
    return replace(updated, shield_arcs=refill_shields(updated, deck))
