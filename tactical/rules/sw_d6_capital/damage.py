"""What a hit does: Damage vs Resistance, the charts, the effect tables (R004.33-R004.49,
R004.55, T004.6-T004.12, T004.15, T004.17).

`hit_outcome(profile, dice)` is the chance part, a function of plain numbers:
the opposed Damage and Resistance rolls run inside one `Dice.chance` keyed by
the chart result they lead to (so the exact enumerator merges the thousands of
roll pairs into a handful of results), then the effect roll and its re-roll,
and the extra rolls an effect calls for (rounds before a reactor blows,
Catastrophic Damage, passenger damage). `apply_hit` puts the outcome on the
target's condition; it rolls nothing.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace

from tactical.dice import D6, Dice
from tactical.dice.core import Subroll
from tactical.rules.base import Event
from tactical.rules.sw_d6_capital.codes import CodeRoll, roll_code, roll_opposed
from tactical.rules.sw_d6_capital.condition import Condition, add_casualties, add_ionization
from tactical.rules.sw_d6_capital.condition import apply_effect as put_effect
from tactical.rules.sw_d6_capital.deck import Deck
from tactical.rules.sw_d6_capital.tables import (
    BLAZING_HULK,
    CATASTROPHIC,
    CONTROLS_DAMAGED,
    DAMAGE_STATES,
    DESTROYED,
    EFFECT_TABLE_IDS,
    EXPLODES,
    NO_EFFECT,
    OVERLOADED_REACTOR,
    PIPS_PER_DIE,
    SHIELDS_DRAINED,
    STRUCTURAL_DAMAGE,
    capital_damage_result,
    catastrophic_result,
    effect_entry,
    escalate,
    ionization_dice,
    location_face,
    passenger_damage_dice,
    sub_effect,
    unit_damage_result,
    unit_strength_state,
)

NO_DAMAGE = "no-damage"  # R004.33: damage code 0 pips or less
IONIZATION = "ionization"


@dataclass(frozen=True, slots=True)
class HitProfile:
    """Everything the chance part of a hit needs, as plain values."""

    attacker: str
    target: str
    damage_pips: int  # weapon Damage + battery dice to Damage +- scale (R004.33, R004.34)
    resistance_pips: int  # Hull + the arc's shields, after penalties (R004.34)
    ion: bool  # R004.43
    unit_target: bool  # a fighter unit: T004.17 (R004.55)
    level: str  # the target's damage level now
    has_shields: bool  # the target has shield dice at all (R004.38)
    location: str | None  # targeted system (R004.32)
    catastrophic: bool  # Catastrophic Damage replaces Destroyed (R004.49)
    passenger_every_level: bool  # A004.26 option
    large_ship: bool  # crew casualties apply (R004.48)


@dataclass(frozen=True, slots=True)
class Opposed:
    """The Damage and Resistance rolls and what they come to."""

    damage: CodeRoll
    resistance: CodeRoll
    margin: int
    result: str  # the chart's result, or "ionization" with `ion_dice`
    ion_dice: int = 0
    strength_loss: int = 0


@dataclass(frozen=True, slots=True)
class HitOutcome:
    """A hit's outcome: the chart result, the damage level reached, the effect, and extras."""

    result: str
    margin: int | None
    level: str | None = None
    effect: str | None = None
    effect_dice: int = 0
    effect_moves: int = 0
    ion_dice: int = 0
    strength_loss: int = 0
    catastrophe: str | None = None
    rounds: int | None = None
    casualties: tuple[int, int, int] | None = None
    events: tuple[Event, ...] = ()

    def key(self) -> Hashable:
        """What the state after the hit depends on (the rolls' faces do not matter)."""
        return (
            self.result,
            self.level,
            self.effect,
            self.effect_dice,
            self.effect_moves,
            self.ion_dice,
            self.strength_loss,
            self.catastrophe,
            self.rounds,
            self.casualties,
        )


def _classify(ion: bool, unit_target: bool, margin: int) -> tuple[str, int, int]:
    """(result, ionization dice, strength loss) of a margin under the chart that applies."""
    if ion:
        if margin < 0:
            return NO_EFFECT, 0, 0
        return IONIZATION, ionization_dice(margin), 0  # R004.43, A004.22
    if unit_target:
        result, loss = unit_damage_result(margin)  # R004.55
        return result, 0, loss
    return capital_damage_result(margin), 0, 0  # R004.35


def opposed_rolls(profile: HitProfile, dice: Dice) -> Opposed:
    """R004.34: Damage roll vs Resistance roll (Hull + arc shields); margin = the difference."""
    return OpposedRoll.of(profile)(dice)


@dataclass(frozen=True, slots=True)
class OpposedRoll(Subroll):
    """A hit's Damage roll against its Resistance roll (`opposed_rolls`) as a value:
    everything its dice and its outcome depend on (the codes, the chart that reads the
    margin) and the names its rolls are recorded under. The same pair of codes comes back
    on many tables (the same battery at the same arc of the same target), so the exact odds
    enumerate its rolls once per value."""

    damage_pips: int
    resistance_pips: int
    attacker: str
    target: str
    ion: bool
    unit_target: bool

    @classmethod
    def of(cls, profile: HitProfile) -> OpposedRoll:
        return cls(
            profile.damage_pips,
            profile.resistance_pips,
            profile.attacker,
            profile.target,
            profile.ion,
            profile.unit_target,
        )

    def __call__(self, dice: Dice) -> Opposed:
        damage, resistance = roll_opposed(
            self.damage_pips,
            self.resistance_pips,
            dice,
            who=(self.attacker, self.target),
            what=(f"damage vs {self.target}", "hull and shields"),
        )
        margin = damage.total - resistance.total
        result, ion, loss = _classify(self.ion, self.unit_target, margin)
        return Opposed(damage, resistance, margin, result, ion, loss)

    def key(self, outcome: Opposed) -> Hashable:
        """What the hit reads of the rolls (`_opposed_key`: not their faces)."""
        return _opposed_key(outcome)


def _opposed_key(opposed: Opposed) -> Hashable:
    return opposed.result, opposed.ion_dice, opposed.strength_loss


def _roll(dice: Dice, who: str, what: str, spec_id: str) -> tuple[int, Event]:
    face = dice.roll(D6, who=who, what=what)
    return face, Event.of("roll", spec_id, who=who, what=what, die="d6", result=face)


def hit_outcome(profile: HitProfile, dice: Dice) -> HitOutcome:
    """The chance part of a hit (module docstring)."""
    if profile.damage_pips <= 0:
        return HitOutcome(
            NO_DAMAGE,
            None,
            events=(Event.of("no-damage", "R004.33", damage_pips=profile.damage_pips),),
        )
    roll = OpposedRoll.of(profile)
    opposed = dice.chance(roll, key=roll.key)  # a value: enumerated once (`OpposedRoll`)
    events = [
        opposed.damage.event(profile.attacker, f"damage vs {profile.target}", "R004.34"),
        opposed.resistance.event(profile.target, "hull and shields", "R004.34"),
        Event.of(
            "margin",
            "R004.34",
            damage=opposed.damage.total,
            resistance=opposed.resistance.total,
            margin=opposed.margin,
        ),
    ]
    if profile.ion:
        events.append(
            Event.of("lookup", "T004.15", margin=opposed.margin, ionization=opposed.ion_dice)
        )
        return HitOutcome(
            opposed.result, opposed.margin, ion_dice=opposed.ion_dice, events=tuple(events)
        )
    if profile.unit_target:
        events.append(
            Event.of(
                "lookup",
                "T004.17",
                margin=opposed.margin,
                result=opposed.result,
                strength_loss=opposed.strength_loss,
            )
        )
        return HitOutcome(
            opposed.result,
            opposed.margin,
            strength_loss=opposed.strength_loss,
            events=tuple(events),
        )
    events.append(Event.of("lookup", "T004.6", margin=opposed.margin, result=opposed.result))
    if opposed.result == NO_EFFECT:
        return HitOutcome(NO_EFFECT, opposed.margin, events=tuple(events))
    if opposed.result == SHIELDS_DRAINED:
        if not profile.has_shields:  # R004.38: no shields to begin with -> Ionization
            return HitOutcome(IONIZATION, opposed.margin, ion_dice=1, events=tuple(events))
        return HitOutcome(SHIELDS_DRAINED, opposed.margin, events=tuple(events))
    level = escalate(profile.level, opposed.result)  # R004.36, T004.11
    events.append(
        Event.of("escalation", "T004.11", current=profile.level, new=opposed.result, level=level)
    )
    outcome = HitOutcome(opposed.result, opposed.margin, level=level)
    if level == DESTROYED:
        return _destroyed(profile, outcome, events, dice)
    if level == CATASTROPHIC:
        # already catastrophically damaged (R004.49, which took the place of Destroyed):
        # escalation keeps it there and no effect table has a row for it
        events.append(Event.of("no-further-effect", "R004.49", level=level))
        return replace(outcome, events=tuple(events))
    return _effect(profile, outcome, events, dice)


def _destroyed(
    profile: HitProfile, outcome: HitOutcome, events: list[Event], dice: Dice
) -> HitOutcome:
    """R004.35 / R004.49: Destroyed, or Catastrophic Damage (T004.10) for a PC ship."""
    if profile.passenger_every_level:
        events.extend(_passengers(profile, DESTROYED, dice))
    if not profile.catastrophic:
        return replace(outcome, events=tuple(events))
    face, event = _roll(dice, profile.target, "catastrophic damage", "R004.49")
    catastrophe = catastrophic_result(face)
    events.extend((event, Event.of("lookup", "T004.10", roll=face, result=catastrophe)))
    rounds = None
    if catastrophe == STRUCTURAL_DAMAGE:
        rounds, event = _roll(dice, profile.target, "rounds to abandon ship", "T004.10")
        events.append(event)
    level = DESTROYED if catastrophe == EXPLODES else CATASTROPHIC
    return replace(
        outcome, level=level, catastrophe=catastrophe, rounds=rounds, events=tuple(events)
    )


def _passengers(profile: HitProfile, level: str, dice: Dice) -> list[Event]:
    """R004.47: passenger damage for the level (a GM baseline: the roll is recorded)."""
    count = passenger_damage_dice(level)
    roll = roll_code(PIPS_PER_DIE * count, dice, who=profile.target, what="passengers", exact=False)
    return [roll.event(profile.target, "passenger damage", "R004.47", level=level)]


def _effect(
    profile: HitProfile, outcome: HitOutcome, events: list[Event], dice: Dice
) -> HitOutcome:
    """R004.37 / R004.32: the effect of the resulting level's table (A004.17), by 1D or by the
    targeted system (T004.12), with its re-roll and extras."""
    level = outcome.level
    assert level is not None
    table = EFFECT_TABLE_IDS[level]
    if profile.location is not None:
        face = location_face(profile.location, level)
        events.append(Event.of("location", "T004.12", system=profile.location, row=face))
    else:
        face, event = _roll(dice, profile.target, f"{level} damage effect", table)
        events.append(event)
    entry = effect_entry(level, face)
    code, effect_dice, moves = entry.code, entry.dice, entry.moves
    if entry.sub:
        sub_face, event = _roll(dice, profile.target, f"{entry.code} re-roll", table)
        code, effect_dice = sub_effect(entry, sub_face)
        events.append(event)
    events.append(Event.of("lookup", table, row=face, effect=code, dice=effect_dice, moves=moves))
    rounds = None
    if code == OVERLOADED_REACTOR:
        rounds, event = _roll(dice, profile.target, "rounds before the reactor explodes", table)
        events.append(event)
    casualties = None
    passenger_level = level if profile.passenger_every_level else None
    if code == CONTROLS_DAMAGED and profile.large_ship:
        passenger_level = level
    if passenger_level is not None:
        events.extend(_passengers(profile, passenger_level, dice))
        if profile.large_ship:
            casualties = DAMAGE_STATES[passenger_level].casualties
            events.append(
                Event.of("crew-casualties", "R004.48", level=passenger_level, dice=casualties)
            )
    return replace(
        outcome,
        effect=code,
        effect_dice=effect_dice,
        effect_moves=moves,
        rounds=rounds,
        casualties=casualties,
        events=tuple(events),
    )


# --------------------------------------------------------------------------- application


def apply_hit(
    condition: Condition, deck: Deck, outcome: HitOutcome, struck: str | None, turn: int
) -> tuple[Condition, tuple[Event, ...]]:
    """Put a hit's outcome on the target (R004.35-R004.38, R004.43-R004.49, R004.55, R004.56)."""
    result = outcome.result
    if result in (NO_DAMAGE, NO_EFFECT):
        return condition, ()
    if result == IONIZATION:
        return add_ionization(condition, deck, outcome.ion_dice, struck, "R004.43")
    if result == SHIELDS_DRAINED:
        return (
            replace(condition, shields_drained=True),
            (Event.of("shields-drained", "R004.38", until="the next Damage Control phase"),),
        )
    if outcome.strength_loss or result == "disrupted":
        strength = condition.strength - PIPS_PER_DIE * outcome.strength_loss
        state = unit_strength_state(strength)
        updated = replace(
            condition,
            strength=strength,
            disrupted=condition.disrupted or result == "disrupted",
            level=DESTROYED if state == "wiped-out" else condition.level,
        )
        return updated, (Event.of("unit-strength", "R004.56", strength=strength, status=state),)
    level = outcome.level or condition.level
    updated = replace(condition, level=level)
    if result in ("light", "heavy", "severe"):
        updated = replace(updated, light_results=condition.light_results + (result == "light"))
    events: list[Event] = [Event.of("damage-level", "R004.36", level=level)]
    if outcome.catastrophe is not None:
        updated = replace(
            updated,
            abandon_countdown=outcome.rounds if outcome.catastrophe == STRUCTURAL_DAMAGE else None,
            blazing=outcome.catastrophe == BLAZING_HULK,
        )
        events.append(Event.of("catastrophic", "R004.49", result=outcome.catastrophe))
    if outcome.effect is not None:
        updated, more = put_effect(
            updated,
            deck,
            level,
            outcome.effect,
            outcome.effect_dice,
            outcome.effect_moves,
            struck,
            outcome.rounds,
        )
        events.append(Event.of("effect", "R004.37", effect=outcome.effect, level=level))
        events.extend(more)
    updated = add_casualties(updated, outcome.casualties, turn)
    return updated, tuple(events)
