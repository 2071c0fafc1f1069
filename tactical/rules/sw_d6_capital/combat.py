"""Firing in the Action Phase: declarations, resolution and exact odds (R004.25-R004.40).

A weapon unit is one weapon type in one fire arc (R004.26): it fires once a
turn, at one target, with one Gunnery Fire Control roll. A declaration names
the weapon unit (its id `<arc>-<name>`, e.g. `front-turbolasers`, or just the
name when the target's position makes the arc plain), the target, and
optionally:

- `battery_damage`: Battery Dice put into Damage, in pips or as a die code
  ("2D"); the rest go to Gunnery Fire Control (R004.31, T004.5). Default 0:
  every battery die to Gunnery Fire Control.
- `location`: a system to target (R004.32): manoeuvring, sensors, weapons,
  hyperdrive, shields or engines; Difficulty +6 (A004.18).
- `batch`: how many actions (weapon units, and a Tactical Masterstroke move) the
  captain takes in this action before passing (R004.27): each suffers -(k-1)D.
  Only the first action of a batch names it; the others continue it.

Geometry (GEO004.2-GEO004.4): range centre to centre in Space units of
`inches_per_space`; the firer's arcs holding the target's centre
(`tactical.geometry.arcs_containing`, boundary lines in both arcs); the
target's arc facing the firer gives the shields that resist (on a boundary,
the better-shielded arc: the defender's benefit).

`resolve` runs the whole chance part — to-hit, then Damage vs Resistance and
the effects (`damage.hit_outcome`) — inside one `Dice.chance` keyed by the
outcome, so `attack_odds` enumerating `resolve` itself replays the state work
only once per distinct outcome.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tactical.dice import Dice, enumerate_outcomes, fraction_text, percent
from tactical.errors import UserError
from tactical.geometry.arcs import arcs_containing
from tactical.geometry.measure import centre_to_centre
from tactical.model import FrozenMap, GameState, Unit
from tactical.model.frozen import memo_of
from tactical.model.worded import worded
from tactical.rules.base import Attack, Event, OddsReport, OddsSection, Resolution
from tactical.rules.sw_d6_capital import ledger
from tactical.rules.sw_d6_capital.codes import (
    CodeRoll,
    code_text,
    fighter_unit_scale,
    parse_code,
    roll_code,
)
from tactical.rules.sw_d6_capital.condition import Condition
from tactical.rules.sw_d6_capital.damage import (
    IONIZATION,
    HitOutcome,
    HitProfile,
    apply_hit,
    hit_outcome,
)
from tactical.rules.sw_d6_capital.deck import Deck, WeaponUnit, range_band, slug
from tactical.rules.sw_d6_capital.options import RANGE_OPTION, tie_succeeds
from tactical.rules.sw_d6_capital.sequence import prepare
from tactical.rules.sw_d6_capital.tables import (
    ARC_SECTORS,
    ARCS,
    CATASTROPHIC,
    COMBAT_INEFFECTIVE,
    DESTROYED,
    LOCATION_PENALTY,
    LOCATIONS,
    ORDER_TABLE,
    PIPS_PER_DIE,
    battery_damage_cap,
    incoming_difficulty,
    succeeds,
    unit_strength_state,
)
from tactical.rules.values import AttackParams

MISS = "miss"
NO_LOCATION = "none"


# --------------------------------------------------------------------------- geometry


def distance_inches(attacker: Unit, target: Unit) -> float:
    """GEO004.2: range is measured centre to centre."""
    return centre_to_centre(attacker.pose, target.pose).distance


def firing_arcs(attacker: Unit, target: Unit) -> tuple[str, ...]:
    """GEO004.3 / R004.29: the firer's arcs holding the target's centre (maybe two)."""
    return _arcs_holding(attacker, target)


def _arcs_holding(unit: Unit, other: Unit) -> tuple[str, ...]:
    """`unit`'s arcs holding `other`'s centre (GEO004.3), remembered by the two units'
    identities: every check of a declaration asks it, of units a roll leaves where they are."""
    slot = (id(unit), id(other))
    found = _ARCS.get(slot)
    if found is None or found[0] is not unit or found[1] is not other:
        arcs = arcs_containing(unit.pose, unit.base, ARC_SECTORS, other.pose, None, "centre")
        if len(_ARCS) >= MAX_ARCS:
            _ARCS.clear()
        found = _ARCS[slot] = (unit, other, arcs)  # both kept beside their ids: never reused
    return found[2]


_ARCS: dict[tuple[int, int], tuple[Unit, Unit, tuple[str, ...]]] = {}
MAX_ARCS = 4096


def facing_arc(target: Unit, condition: Condition, attacker: Unit) -> str:
    """GEO004.4: the target's arc facing the attacker; on a boundary the better-shielded one."""
    arcs = _arcs_holding(target, attacker)
    arcs = arcs or ARCS[:1]
    return max(arcs, key=lambda arc: (condition.arc_shields(arc), -ARCS.index(arc)))


def scale_of(deck: Deck, condition: Condition) -> int:
    """R004.33 / R004.54: Scale in pips; a fighter unit's is 6D + its current Strength."""
    if deck.is_unit:
        return fighter_unit_scale(condition.strength, deck.scale).pips
    return deck.scale.pips


# --------------------------------------------------------------------------- who may act


def action_phase_block(
    state: GameState, unit: Unit, deck: Deck, cond: Condition
) -> UserError | None:
    """Why a ship may take no Action-Phase action at all, or None."""
    turn = ledger.turn_of(state)
    if cond.destroyed or cond.level == CATASTROPHIC:
        return UserError(f"{unit.id!r} is {cond.level}: it takes no actions", spec_id="R004.35")
    if cond.recovering(turn):
        return UserError(
            f"{unit.id!r} is away recovering until turn {cond.recovering_until}", spec_id="R004.57"
        )
    if cond.controls_dead:
        return UserError(
            f"{unit.id!r} is Controls Dead: every system is disabled", spec_id="R004.44"
        )
    if deck.is_unit and unit_strength_state(cond.strength) == COMBAT_INEFFECTIVE:
        return UserError(
            f"{unit.id!r} is Combat Ineffective: it may only return to base and Recover",
            spec_id="R004.56",
        )
    return None


def fire_block(state: GameState, unit: Unit, deck: Deck, cond: Condition) -> UserError | None:
    """Why a ship may not fire this turn at all, or None (R004.17, R004.39 and the above)."""
    blocked = action_phase_block(state, unit, deck, cond)
    if blocked is not None:
        return blocked
    if not ORDER_TABLE[cond.order_or_default].may_fire:
        return UserError(
            f"{unit.id!r} is on Full Evasion: its weapons may not fire this turn", spec_id="R004.17"
        )
    if str(unit.stats.get("speed", deck.speed)) == "all-out":
        return UserError(
            f"{unit.id!r} moves All-Out this turn: it may not fire (declared before firing)",
            spec_id="R004.39",
        )
    return None


def weapon_block(cond: Condition, weapon: WeaponUnit) -> UserError | None:
    """Why this weapon unit may not fire now, or None (R004.26, T004.8 #3, T004.9 #4, R004.41,
    R004.40: after the Masterstroke move no arc used this turn fires again)."""
    if weapon.id in cond.fired:
        return UserError(
            f"{weapon.id} has fired this turn: one Gunnery roll per weapon type per arc per turn",
            spec_id="R004.26",
        )
    if weapon.arc in cond.arcs_before_masterstroke:
        return UserError(
            f"{weapon.id} cannot fire: its {weapon.arc} arc was used this turn before the "
            "Tactical Masterstroke move, and an arc already used never fires again",
            spec_id="R004.40",
        )
    status = cond.weapon_status(weapon)
    if status is not None:
        rule = "T004.8" if status.startswith("weapons-") else "T004.9"
        return UserError(f"{weapon.id} cannot fire: {status}", spec_id=rule)
    if weapon.fire_control.pips - cond.fire_control_loss <= 0:
        return UserError(
            f"{weapon.id} cannot fire: its Fire Control is at 0D "
            f"({code_text(cond.fire_control_loss)} of Ionization and damage)",
            spec_id="R004.41",
        )
    return None


# --------------------------------------------------------------------------- batches (R004.27)


@dataclass(frozen=True, slots=True)
class BatchSlot:
    """Where an action stands in its captain's action: the batch size and whether it opens it."""

    size: int
    opening: bool
    used: int  # actions of the batch already taken


def open_actions(state: GameState, unit: Unit, deck: Deck, cond: Condition) -> int:
    """How many actions the ship could still take this phase: unfired weapon units plus an
    unused Tactical Masterstroke move."""
    count = sum(1 for w in deck.weapons if w.id not in cond.fired)
    info = ledger.initiative_info(state)
    if info.get("masterstroke") and info.get("winner") == unit.id and not cond.moved:
        count += 1
    return count


def batch_slot(
    state: GameState, unit: Unit, deck: Deck, cond: Condition, requested: Any
) -> BatchSlot:
    """R004.27: continue this ship's open batch, or open a new one of `requested` actions."""
    current = ledger.batch(state)
    if current is not None and current.get("ship") == unit.id:
        size, used = int(current["size"]), int(current["used"])
        if requested is not None and requested != size:
            raise UserError(
                f"{unit.id!r} is in an action of {size} (declared with its first shot); "
                f"batch {requested!r} cannot change it",
                spec_id="R004.27",
            )
        return BatchSlot(size, False, used)
    size = 1 if requested is None else requested
    limit = open_actions(state, unit, deck, cond)
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= max(limit, 1):
        raise UserError(
            f"batch must be a whole number of actions from 1 to {max(limit, 1)} "
            f"(what {unit.id!r} can still do this phase), not {size!r}",
            spec_id="R004.27",
        )
    return BatchSlot(size, True, 0)


def take_batch_action(
    state: GameState, unit_id: str, slot: BatchSlot, cond: Condition
) -> tuple[GameState, Condition]:
    """Count one action of the batch: a new batch counts a round of R004.25 for the ship."""
    used = slot.used + 1
    if slot.opening:
        cond = replace(cond, batches=cond.batches + 1)
    if used >= slot.size:
        state = state.with_rule_state(batch=None)
    else:
        state = state.with_rule_state(batch={"ship": unit_id, "size": slot.size, "used": used})
    return state, cond


# --------------------------------------------------------------------------- declaration


@dataclass(frozen=True)
class FireFacts:
    """Everything the table and the declaration decide about one shot, before any roll."""

    attacker: str
    target: str
    weapon: WeaponUnit
    arc: str
    distance: float
    space_units: float
    band: str
    range_difficulty: int
    target_order: str
    ship_defence: int
    location: str | None
    difficulty: int
    battery: int
    battery_damage: int
    battery_cap: int
    slot: BatchSlot
    gfc_terms: tuple[tuple[str, int], ...]
    damage_terms: tuple[tuple[str, int], ...]
    resistance_terms: tuple[tuple[str, int], ...]
    struck_arc: str
    meet_or_beat: bool

    @property
    def gfc_pips(self) -> int:
        return sum(value for _, value in self.gfc_terms)

    @property
    def damage_pips(self) -> int:
        return sum(value for _, value in self.damage_terms)

    @property
    def resistance_pips(self) -> int:
        return max(0, sum(value for _, value in self.resistance_terms))

    def params(self) -> FrozenMap:
        return FrozenMap(
            arc=self.arc,
            battery_damage=self.battery_damage,
            location=self.location or NO_LOCATION,
            batch=self.slot.size,
        )


def find_weapon(deck: Deck, unit: Unit, weapon: str, arcs: tuple[str, ...]) -> WeaponUnit:
    """A weapon unit by id (`front-turbolasers`) or by name when the arc is plain."""
    wanted = slug(weapon)
    for candidate in deck.weapons:
        if candidate.id == wanted:
            return candidate
    named = [w for w in deck.weapons if slug(w.name) == wanted]
    in_arc = [w for w in named if w.arc in arcs]
    if in_arc or named:
        return (in_arc or named)[0]
    offer = ", ".join(w.id for w in deck.weapons) or "none"
    raise UserError(
        f"{unit.id!r} has no weapon {weapon!r}: its weapon units are {offer}", spec_id="R004.26"
    )


def _battery_damage(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool):
        raise UserError(f"battery_damage {value!r}: expected pips or a die code", spec_id="R004.31")
    if isinstance(value, int):
        return value
    return parse_code(str(value), "battery_damage").pips


def fire_facts(
    state: GameState, attacker_id: str, weapon_name: str, target_id: str, params: Mapping[str, Any]
) -> FireFacts:
    """Check a declaration against the table and the rules (UserError with the SPEC id);
    remembered while the state lives (R004.26-R004.30: a pure function of the two): the
    choices offered, the declaration made and its sampled roll check it on one state. A
    refused declaration raises each time."""
    try:
        key = (attacker_id, weapon_name, target_id, tuple(sorted(params.items())))
        hash(key)
    except TypeError:  # a parameter that is not a value: checked afresh
        return _fire_facts(state, attacker_id, weapon_name, target_id, params)
    memo = memo_of(_FACTS, state)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _fire_facts(state, attacker_id, weapon_name, target_id, params)
    return found


_FACTS: dict[int, tuple[Any, dict]] = {}  # by the state's identity (`memo_of`)


def _fire_facts(
    state: GameState, attacker_id: str, weapon_name: str, target_id: str, params: Mapping[str, Any]
) -> FireFacts:
    known = {"battery_damage", "location", "batch", "arc"}
    unknown = sorted(set(params) - known)
    if unknown:
        raise UserError(
            f"a fire declaration takes no {', '.join(unknown)} "
            f"(declaration parameters: {', '.join(sorted(known))})"
        )
    options = ledger.settings(state)
    attacker, deck, cond = ledger.ship(state, attacker_id)
    target, target_deck, target_cond = ledger.ship(state, target_id)
    if target.side == attacker.side:
        raise UserError(
            f"{target.id!r} is on {attacker.id!r}'s own side: fire at enemy ships",
            spec_id="R004.29",
        )
    blocked = fire_block(state, attacker, deck, cond)
    if blocked is not None:
        raise blocked
    turn = ledger.turn_of(state)
    if target_cond.recovering(turn) or target_cond.destroyed:
        raise UserError(f"{target.id!r} is not on the field to be fired at", spec_id="R004.57")
    arcs = firing_arcs(attacker, target)
    weapon = find_weapon(deck, attacker, weapon_name, arcs)
    problem = weapon_block(cond, weapon)
    if problem is not None:
        raise problem
    if "arc" in params and params["arc"] != weapon.arc:
        raise UserError(
            f"{weapon.id} is a {weapon.arc}-arc weapon, not {params['arc']!r}", spec_id="GEO004.3"
        )
    if weapon.arc not in arcs:
        where = " and ".join(arcs) if arcs else "none of its arcs"
        raise UserError(
            f"{target.id!r} is not in {attacker.id!r}'s {weapon.arc} arc (it lies in {where})",
            spec_id="R004.29",
        )
    used = cond.arcs_used_at(target.id)
    allowed = 2 if cond.masterstroke_moved else 1
    if weapon.arc not in used and len(used) >= allowed:
        rule = "R004.40" if cond.masterstroke_moved else "R004.29"
        raise UserError(
            f"{attacker.id!r} has fired at {target.id!r} from its {' and '.join(used)} arc this "
            "turn: an enemy may be fired on from only one arc (a second only after a Tactical "
            "Masterstroke move, never from an arc already used)",
            spec_id=rule,
        )
    distance = distance_inches(attacker, target)
    space_units = distance / float(options["inches_per_space"])
    band = range_band(weapon.ranges, space_units)
    if band is None:
        raise UserError(
            f"{target.id!r} is out of range of {weapon.id}: {space_units:.2f} Space units "
            f'({distance:.2f}") beyond its Long range {weapon.ranges[3]:g}',
            spec_id="GEO004.2",
        )
    location = params.get("location", NO_LOCATION)
    if location in (None, NO_LOCATION, ""):
        location = None
    elif location not in LOCATIONS:
        raise UserError(
            f"cannot target {location!r}: a gunner may target " + ", ".join(LOCATIONS),
            spec_id="R004.32",
        )
    if location is not None and target_deck.is_unit:
        raise UserError(
            f"{target.id!r} is a fighter unit, a single target: no system to target",
            spec_id="R004.54",
        )
    battery = cond.battery(weapon)
    to_damage = _battery_damage(params.get("battery_damage"))
    limit = weapon.damage_limit.pips if weapon.damage_limit is not None else None
    cap = battery_damage_cap(battery, band, limit)
    if not 0 <= to_damage <= cap:
        raise UserError(
            f"battery_damage {code_text(to_damage)}: at {band} range {weapon.id} may put "
            f"0D to {code_text(cap)} of its {code_text(battery)} Battery Dice into Damage",
            spec_id="R004.31",
        )
    slot = batch_slot(state, attacker, deck, cond, params.get("batch"))
    order = target_cond.order_or_default
    range_difficulty = int(options[RANGE_OPTION[band]])
    difficulty = incoming_difficulty(range_difficulty, order, target_deck.ship_defence)
    if location is not None:
        difficulty += LOCATION_PENALTY
    gfc_terms = (
        ("fire_control", weapon.fire_control.pips),
        ("battery", battery - to_damage),
        ("batch_map", -PIPS_PER_DIE * (slot.size - 1)),
        ("order_map", -PIPS_PER_DIE * cond.order_map),
        ("damage_control_map", -PIPS_PER_DIE * cond.dc_map),
        ("shields_map", -PIPS_PER_DIE * cond.shields_map),
        ("disrupted", -PIPS_PER_DIE if cond.disrupted else 0),
        ("crew", -cond.crew_penalty(turn)),
        ("controls_damaged", -cond.controls_damaged),
        ("fire_control_loss", -cond.fire_control_loss),
        ("command", cond.command_mod),
    )
    gfc = sum(value for _, value in gfc_terms)
    if gfc <= 0:
        raise UserError(
            f"{weapon.id}'s Gunnery Fire Control comes to {code_text(gfc)}: it cannot be rolled",
            spec_id="R004.1",
        )
    attacker_scale, target_scale = scale_of(deck, cond), scale_of(target_deck, target_cond)
    damage_terms = (
        ("damage", weapon.damage.pips),
        ("battery", to_damage),
        ("scale", attacker_scale - target_scale),
    )
    struck = facing_arc(target, target_cond, attacker)
    resistance_terms = (
        ("hull", target_deck.hull.pips),
        ("hull_penalty", -target_cond.hull_penalty()),
        ("shields", target_cond.arc_shields(struck)),
    )
    return FireFacts(
        attacker=attacker.id,
        target=target.id,
        weapon=weapon,
        arc=weapon.arc,
        distance=distance,
        space_units=space_units,
        band=band,
        range_difficulty=range_difficulty,
        target_order=order,
        ship_defence=target_deck.ship_defence,
        location=location,
        difficulty=difficulty,
        battery=battery,
        battery_damage=to_damage,
        battery_cap=cap,
        slot=slot,
        gfc_terms=gfc_terms,
        damage_terms=damage_terms,
        resistance_terms=resistance_terms,
        struck_arc=struck,
        meet_or_beat=tie_succeeds(options, to_hit=True),
    )


def declare(
    state: GameState, attacker: str, weapon: str, target: str, params: AttackParams = None
) -> Attack:
    """A checked declaration: the weapon unit's id and the full parameters."""
    facts = fire_facts(state, attacker, weapon, target, dict(params or {}))
    return Attack(facts.attacker, facts.weapon.id, facts.target, facts.params())


# --------------------------------------------------------------------------- chance part


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """The chance part of one shot: the Gunnery roll, hit or not, and the hit's outcome."""

    gunnery: CodeRoll
    hit: bool
    outcome: HitOutcome | None

    def key(self) -> Hashable:
        return self.hit, self.outcome.key() if self.outcome is not None else None


@dataclass(frozen=True, slots=True)
class FireSummary:
    """What a shot came to: the result, the target's damage level after it, the effect."""

    result: str
    level: str | None
    effect: str | None
    destroyed: bool

    @property
    def label(self) -> str:
        return self.result


def hit_profile(state: GameState, facts: FireFacts) -> HitProfile:
    options = ledger.settings(state)
    _target, target_deck, target_cond = ledger.ship(state, facts.target)
    return HitProfile(
        attacker=facts.attacker,
        target=facts.target,
        damage_pips=facts.damage_pips,
        resistance_pips=facts.resistance_pips,
        ion=facts.weapon.ion,
        unit_target=target_deck.is_unit,
        level=target_cond.level,
        has_shields=target_deck.shields.pips > 0,
        location=facts.location,
        catastrophic=target_deck.pc_crew and bool(options["catastrophic_damage"]),
        passenger_every_level=options["passenger_damage"] == "every-level",
        large_ship=target_deck.large_ship,
    )


def gunnery_roll(facts: FireFacts, dice: Dice) -> tuple[CodeRoll, bool]:
    """R004.28 / R004.30 / R004.5: the Gunnery Fire Control roll against the Difficulty."""
    roll = roll_code(facts.gfc_pips, dice, who=facts.attacker, what=f"{facts.weapon.id} gunnery")
    return roll, succeeds(roll.total, facts.difficulty, facts.meet_or_beat)


def _hit_key(result: tuple[CodeRoll, bool]) -> bool:
    return result[1]


def shot(facts: FireFacts, profile: HitProfile, dice: Dice) -> ShotOutcome:
    """The whole chance part of one weapon unit's fire: to-hit (one chance node keyed by hit
    or miss), then the hit."""
    gunnery, hit = dice.chance(lambda source: gunnery_roll(facts, source), key=_hit_key)
    if not hit:
        return ShotOutcome(gunnery, False, None)
    return ShotOutcome(gunnery, True, hit_outcome(profile, dice))


def _result_label(outcome: ShotOutcome) -> str:
    if outcome.outcome is None:  # a miss (a hit always has its outcome)
        return MISS
    hit = outcome.outcome
    if hit.result == IONIZATION:
        return f"ionization {hit.ion_dice}D"
    return hit.result


# --------------------------------------------------------------------------- resolution


def resolve(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    """Resolve a declared shot (re-checked against the state first)."""
    return resolve_facts(state, checked_facts(state, attack), dice)


def checked_facts(state: GameState, attack: Attack) -> FireFacts:
    """`fire_facts` of a declared shot on `state` (remembered while the state lives: the
    exact enumerator resolves the same shot on the same state once per outcome)."""
    return fire_facts(state, attack.attacker, attack.weapon, attack.target, attack.params)


def _firing(state: GameState, facts: FireFacts) -> tuple[Any, ...]:
    """What a shot of `facts` makes whatever its dice: the hit's profile, the table with
    its batch counted (R004.27) and the firer's condition after it (R004.29), once per
    state and declaration (every outcome of the exact odds resolves the same shot)."""
    memo = memo_of(_FIRING, state)
    found = memo.get(id(facts))
    if found is None or found[0] is not facts:
        firer, _deck, cond = ledger.ship(state, facts.attacker)
        after, cond = take_batch_action(state, firer.id, facts.slot, cond)
        used = facts.arc in cond.arcs_used_at(facts.target)
        arcs = cond.arcs_at if used else (*cond.arcs_at, (facts.target, facts.arc))
        cond = replace(cond, fired=(*cond.fired, facts.weapon.id), arcs_at=arcs)
        found = memo[id(facts)] = (facts, hit_profile(state, facts), after, firer.id, cond)
    return found


_FIRING: dict[int, tuple[Any, dict]] = {}  # by the state's identity (`memo_of`)


def _shot_events(facts: FireFacts, outcome: ShotOutcome) -> list[Event]:
    """The words of a shot's declaration, range, battery, difficulty and to-hit roll."""
    return [
        Event.of(
            "declare",
            "R004.26",
            attacker=facts.attacker,
            weapon=facts.weapon.id,
            target=facts.target,
            arc=facts.arc,
            batch=facts.slot.size,
        ),
        Event.of(
            "range",
            "GEO004.2",
            distance=round(facts.distance, 6),
            space_units=round(facts.space_units, 6),
            band=facts.band,
        ),
        Event.of(
            "battery",
            "R004.31",
            battery=code_text(facts.battery),
            to_damage=code_text(facts.battery_damage),
            to_gunnery=code_text(facts.battery - facts.battery_damage),
            cap=code_text(facts.battery_cap),
        ),
        Event.of(
            "difficulty",
            "R004.30",
            range_difficulty=facts.range_difficulty,
            target_order=facts.target_order,
            ship_defence=facts.ship_defence,
            location=facts.location,
            difficulty=facts.difficulty,
        ),
        Event.of(
            "gunnery-code", "R004.28", code=code_text(facts.gfc_pips), **dict(facts.gfc_terms)
        ),
        outcome.gunnery.event(facts.attacker, f"{facts.weapon.id} gunnery", "R004.28"),
        Event.of(
            "to-hit",
            "R004.5",
            roll=outcome.gunnery.total,
            difficulty=facts.difficulty,
            hit=outcome.hit,
        ),
    ]


def resolve_facts(state: GameState, facts: FireFacts, dice: Dice) -> Resolution:
    """The shot of checked `facts`: rolls, the hit applied, the firer's bookkeeping. Read for
    the state alone (`model.worded`: the computer players' enumerations), it leaves its
    events out."""
    _facts, profile, after, firer, cond = _firing(state, facts)
    outcome = dice.chance(lambda source: shot(facts, profile, source), key=ShotOutcome.key)
    turn = ledger.turn_of(state)
    words = worded()
    events: list[Event] = _shot_events(facts, outcome) if words else []
    state = after
    updates = {firer: cond}
    target, target_deck, target_cond = ledger.ship(state, facts.target)
    level = target_cond.level
    if outcome.outcome is not None:
        hit = outcome.outcome
        target_cond, applied = apply_hit(target_cond, target_deck, hit, facts.struck_arc, turn)
        if words:
            events.append(
                Event.of(
                    "damage-code",
                    "R004.33",
                    code=code_text(facts.damage_pips),
                    resistance=code_text(facts.resistance_pips),
                    struck_arc=facts.struck_arc,
                    **{f"damage_{k}": v for k, v in facts.damage_terms},
                    **{f"resistance_{k}": v for k, v in facts.resistance_terms},
                )
            )
            events.extend(hit.events)
            events.extend(applied)
        level = target_cond.level
        updates[target.id] = target_cond
    state = ledger.with_conditions(state, updates)
    destroyed = level == DESTROYED
    if destroyed:
        state = state.without_unit(target.id)
    summary = FireSummary(_result_label(outcome), level, _effect(outcome), destroyed)
    if not words:
        return Resolution(state, (), summary)
    events.append(
        Event.of(
            "outcome",
            "R004.35" if not target_deck.is_unit else "R004.55",
            target=target.id,
            result=summary.result,
            level=level,
            effect=summary.effect,
            destroyed=destroyed,
        )
    )
    return Resolution(state, tuple(events), summary)


def _effect(outcome: ShotOutcome) -> str | None:
    return outcome.outcome.effect if outcome.outcome is not None else None


# --------------------------------------------------------------------------- odds


def attack_odds(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """Exact odds of a declared shot, by enumerating `resolve` itself over every roll."""
    facts = fire_facts(state, attack.attacker, attack.weapon, attack.target, dict(attack.params))
    attack = Attack(facts.attacker, facts.weapon.id, facts.target, facts.params())
    outcomes = enumerate_outcomes(lambda dice: resolve_facts(state, facts, dice).summary)
    hit = outcomes.where(lambda s: s.result != MISS)
    sections = (
        OddsSection("result", "R004.35", "result", outcomes.map(lambda s: s.result)),
        OddsSection("damage_level", "R004.36", "level", outcomes.map(lambda s: s.level)),
        OddsSection("effect", "R004.37", "effect", outcomes.map(lambda s: s.effect or "none")),
        OddsSection("destroyed", "R004.35", "destroyed", outcomes.map(lambda s: s.destroyed)),
    )
    return OddsReport(
        rules_id,
        attack,
        FrozenMap(
            distance=round(facts.distance, 6),
            space_units=round(facts.space_units, 6),
            band=facts.band,
            arc=facts.arc,
            range_difficulty=facts.range_difficulty,
            target_order=facts.target_order,
            ship_defence=facts.ship_defence,
            location=facts.location,
            difficulty=facts.difficulty,
            gunnery=code_text(facts.gfc_pips),
            battery=code_text(facts.battery),
            battery_damage=code_text(facts.battery_damage),
            battery_cap=code_text(facts.battery_cap),
            batch=facts.slot.size,
            damage=code_text(facts.damage_pips),
            resistance=code_text(facts.resistance_pips),
            struck_arc=facts.struck_arc,
            ion=facts.weapon.ion,
            hit_probability=fraction_text(hit),
            hit_percent=percent(hit),
        ),
        sections,
    )


# --------------------------------------------------------------------------- the protocol's hooks
# An attack asked of the rule system outside an action (`tactical odds`, the threat maps, the
# computer players) meets the table as the Action Phase finds it: the automatic steps that
# begin it (a new turn, shields regenerating, R004.19) come first, as in `play.apply`.
HOOKS = {
    "declare_attack": "declare_in_action_phase",
    "resolve_attack": "resolve_in_action_phase",
    "attack_odds": "odds_in_action_phase",
}


def declare_in_action_phase(
    state: GameState, attacker: str, weapon: str, target: str, params: AttackParams = None
) -> Attack:
    """`RuleSystem.declare_attack`: one weapon unit's fire checked (R004.26-R004.30)."""
    prepared, _ = prepare(state, "Action")
    return declare(prepared, attacker, weapon, target, params)


def resolve_in_action_phase(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    """`RuleSystem.resolve_attack`: the Action Phase's automatic steps, then the attack."""
    prepared, events = prepare(state, "Action")
    resolution = resolve(prepared, attack, dice)
    return Resolution(resolution.state, events + resolution.events, resolution.summary)


def odds_in_action_phase(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """`RuleSystem.attack_odds`: the exact odds of the attack as the Action Phase finds it."""
    prepared, _ = prepare(state, "Action")
    return attack_odds(prepared, attack, rules_id)
