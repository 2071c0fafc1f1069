"""Expected damage of one attack from the exact odds, cached per attacker, weapon and band.

The odds are the rule system's own (`declare_attack` then `attack_odds`: its resolver
enumerated over every dice outcome). What counts as damage is read from the report:

- a numeric damage distribution (sections `shield_damage`, `hits`: points or hits)
  gives its expectation;
- else the expected number of damaging results where the report states it
  (`expected_results`, e.g. surviving missiles' results);
- else the probability of a damaging outcome of `damage_level` or of the main
  distribution (every outcome but a miss or no effect).

The measure is named with the number (`DamageMeasure`), so a player knows whether a
figure is hits, points or a chance.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tactical.errors import UserError
from tactical.geometry.shapes import Pose
from tactical.model import GameState, Unit
from tactical.rules.base import OddsReport, RuleSystem

NUMERIC_SECTIONS = (("shield_damage", "expected shield damage points"), ("hits", "expected hits"))
LEVEL_SECTIONS = ("damage_level",)
NO_EFFECT = frozenset(
    {"miss", "no effect", "no-effect", "none", "-", "–", "botch", "failure", "fail", False}
)


@dataclass(frozen=True, slots=True)
class ExpectedDamage:
    """One attack's expected damage (`value`, in `measure`), or why it cannot be declared."""

    value: float
    measure: str
    refused: str = ""
    spec_id: str | None = None


def expected_damage(report: OddsReport) -> ExpectedDamage:
    """The report's expected damage, by the order in the module docstring."""
    by_name = {section.name: section for section in report.sections}
    for name, measure in NUMERIC_SECTIONS:
        section = by_name.get(name)
        if section is not None and _numeric(section.distribution):
            return ExpectedDamage(float(section.distribution.expected()), measure)
    facts = dict(report.facts)
    if "expected_results" in facts:
        given = facts["expected_results"]
        values = given.values() if isinstance(given, Mapping) else (given,)
        total = sum((Fraction(str(v)) for v in values), Fraction(0))
        return ExpectedDamage(float(total), "expected damaging results")
    for name in LEVEL_SECTIONS:
        if name in by_name:
            return ExpectedDamage(_effect_chance(by_name[name]), "chance of damage")
    if not report.sections:
        return ExpectedDamage(0.0, "chance of damage")
    return ExpectedDamage(_effect_chance(report.sections[0]), "chance of damage")


def _numeric(distribution: Any) -> bool:
    return all(
        isinstance(outcome, int | float | Fraction) and not isinstance(outcome, bool)
        for outcome, _ in distribution
    )


def _effect_chance(section: Any) -> float:
    return float(
        sum(
            (p for outcome, p in section.distribution if outcome not in NO_EFFECT),
            Fraction(0),
        )
    )


class DamageCache:
    """Expected damage per (attacker, weapon, band, target): the odds are enumerated once.

    The key holds the attacker and target units (their stats and state, not their
    positions: the band stands for the geometry) and the map's options and rule state, so
    a changed table computes afresh. Each method takes the units as they are on the table
    and, where the question puts one elsewhere, the pose it stands at (`at`, `target_at`).
    """

    def __init__(self) -> None:
        self._found: dict[Hashable, ExpectedDamage] = {}
        self._refusals: dict[Hashable, UserError | None] = {}
        self._plain: dict[int, tuple[Unit, Hashable]] = {}
        self._reaches: dict[Hashable, list] = {}

    def __len__(self) -> int:
        return len(self._found)

    def _unit_key(self, unit: Unit) -> Hashable:
        known = self._plain.get(id(unit))
        if known is None or known[0] is not unit:
            plain = unit.moved_to(Pose(0.0, 0.0, 0.0))
            known = self._plain[id(unit)] = (unit, (plain, hash(plain)))
        return known[1]

    def _key(self, state, system, attacker, weapon, band, target) -> Hashable:
        return (system.id, self._unit_key(attacker), weapon, band, self._unit_key(target),
                state.options, state.rule_state)  # fmt: skip

    UNKNOWN = object()

    def known_refusal(self, state, system, attacker, weapon, band, target):
        """The cached refusal (or None) for this key, or `UNKNOWN` before it is asked."""
        return self._refusals.get(
            self._key(state, system, attacker, weapon, band, target), self.UNKNOWN
        )

    def known_damage(self, state, system, attacker, weapon, band, target):
        """The cached expected damage for this key, or `UNKNOWN` before it is computed."""
        return self._found.get(
            self._key(state, system, attacker, weapon, band, target), self.UNKNOWN
        )

    def reaches(self, system, unit: Unit, options) -> list:
        """`unit`'s weapons' reaches (`weapon_reach`), kept while the unit is unchanged."""
        key = ("reach", system.id, self._unit_key(unit), tuple(sorted(map(repr, options.items()))))
        if key not in self._reaches:
            self._reaches[key] = [
                system.weapon_reach(unit, w, options) for w in system.weapons(unit, options)
            ]
        return self._reaches[key]

    def refusal(
        self,
        state: GameState,
        system: RuleSystem,
        attacker: Unit,
        weapon: str,
        band: str,
        target: Unit,
        *,
        at: Pose | None = None,
        target_at: Pose | None = None,
    ) -> UserError | None:
        """Why `declare_attack` refuses the attack with the units placed (None: allowed),
        asked once per attacker, weapon, band and target."""
        key = self._key(state, system, attacker, weapon, band, target)
        if key not in self._refusals:
            placed = _placed(state, attacker, target, at, target_at)
            try:
                system.declare_attack(placed, attacker.id, weapon, target.id, {})
            except UserError as refusal:
                self._refusals[key] = refusal
            else:
                self._refusals[key] = None
        return self._refusals[key]

    def get(
        self,
        state: GameState,
        system: RuleSystem,
        attacker: Unit,
        weapon: str,
        band: str,
        target: Unit,
        *,
        at: Pose | None = None,
        target_at: Pose | None = None,
    ) -> ExpectedDamage:
        """The expected damage of `attacker`'s `weapon` on `target` (placed, the target in
        `band` of the weapon), computed on the first call for this key."""
        key = self._key(state, system, attacker, weapon, band, target)
        found = self._found.get(key)
        if found is None:
            placed = _placed(state, attacker, target, at, target_at)
            found = self._found[key] = attack_damage(placed, system, attacker.id, weapon, target.id)
        return found


def _placed(
    state: GameState, attacker: Unit, target: Unit, at: Pose | None, target_at: Pose | None
) -> GameState:
    if at is not None:
        state = state.replace_unit(attacker.moved_to(at))
    if target_at is not None:
        state = state.replace_unit(target.moved_to(target_at))
    return state


def attack_damage(
    state: GameState, system: RuleSystem, attacker: str, weapon: str, target: str
) -> ExpectedDamage:
    """Declare the attack on `state` as it stands and read its exact odds."""
    try:
        attack = system.declare_attack(state, attacker, weapon, target, {})
        report = system.attack_odds(state, attack)
    except UserError as refusal:
        return ExpectedDamage(0.0, "", refusal.message, refusal.spec_id)
    return expected_damage(report)
