"""The exact odds of a declared Dystopian Wars attack (G.5, R002.49, R002.50, R002.52,
R002.56): `attack_odds` enumerates `resolving.resolve_declared` itself over every outcome of
the dice, and `report` lays the distribution out in sections (hits, the result or the Tiny
Flyers destroyed and the Abort, Hull Points lost, hits saved) beside the facts of the
declaration.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from tactical.dice import Distribution, enumerate_outcomes, fraction_text
from tactical.model import FrozenMap, GameState
from tactical.rules.base import Attack, OddsReport, OddsSection, unit_name
from tactical.rules.dystopian_wars.cards import Weapon, card
from tactical.rules.dystopian_wars.chance import RESULTS, AttackSummary, Defence
from tactical.rules.dystopian_wars.combat import declare, declared_params, reach, target_column
from tactical.rules.dystopian_wars.measures import weapon_measured_from
from tactical.rules.dystopian_wars.resolving import defence_for, resolve_declared


def attack_odds(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """Exact odds of a declared attack, enumerating `resolve_declared` itself."""
    attack = declare(state, attack.attacker, attack.weapon, attack.target, declared_params(attack))
    outcomes = enumerate_outcomes(lambda dice: resolve_declared(state, attack, dice).summary)
    attacker = state.unit(attack.attacker)
    weapon = card(attacker).weapon(attack.weapon)
    assert weapon is not None
    defence, guardian = defence_for(state, attack, weapon)
    return report(rules_id, state, attack, weapon, defence, guardian, outcomes)


def report(
    rules_id: str,
    state: GameState,
    attack: Attack,
    weapon: Weapon,
    defence: Defence,
    guardian: str | None,
    outcomes: Distribution[AttackSummary],
) -> OddsReport:
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    found = reach(state, attacker, weapon, target)
    hits = outcomes.map(lambda s: s.hits + s.saved).sorted()
    sections = [OddsSection("hits", "G.5", "hits", hits)]

    def section(name: str, spec_id: str, unit: str, field: str, **order: Any) -> OddsSection:
        """The distribution of one field of the attack's summary."""
        return OddsSection(name, spec_id, unit, outcomes.map(attrgetter(field)).sorted(**order))

    if defence.wing_size:
        sections += [
            section("tiny_flyers_destroyed", "R002.52", "destroyed", "flyers_destroyed"),
            section("aborted", "R002.56", "aborted", "aborted"),
        ]
    else:
        sections += [
            section("result", "G.5", "result", "result", key=RESULTS.index),
            section("hull_points_lost", "G.5", "hull_points", "hull_lost"),
            section("destroyed", "G.5", "destroyed", "destroyed"),
        ]
        if defence.save_on is not None and (defence.shield_dice or defence.guardian_dice):
            sections.append(
                section("hits_saved", "R002.50" if guardian else "R002.49", "saved", "saved")
            )
    expected_hits = hits.expected()
    facts = FrozenMap(
        distance=round(found.distance, 6),
        range_band=found.band,
        measured_from=weapon_measured_from(attacker, weapon),
        arc=weapon.arc.name,
        weapon_kind=weapon.kind,
        weapon_class=weapon.weapon_class,
        attack_dice=defence.dice,
        pool=[list(entry) for entry in attack.params["pool"]],
        hit_on=defence.pool.hit_on,
        six_hits=defence.pool.six_hits,
        exploding=defence.pool.exploding,
        hits_counted_up_to=defence.enough,
        expected_hits=fraction_text(expected_hits),
        damage_rating=defence.damage_rating,
        critical_rating=defence.critical_rating,
        hull_points_left=defence.hull_left,
        shield_dice=defence.shield_dice,
        guardian=guardian,
        save_on=defence.save_on,
        target_column=target_column(target),
        wing_size=defence.wing_size,
        allowed_by=attack.params["allowed_by"],
        indirect=attack.params["indirect"],
        spotter=attack.params["spotter"],
        counter=attack.params["counter"],
    )
    return OddsReport(rules_id, attack, facts, tuple(sections), pool_words(state, attack))


def pool_words(state: GameState, attack: Attack) -> FrozenMap:
    """The dice pool as a player reads it: "Markgraf Class Battleship's Main turrets 8 dice;
    Stralsund Class Cruiser 1's Main turrets 3 dice (linked fire, half)" (A002.17, R002.42)."""
    shares = {"full": "", "half": " (linked fire, half)", "combined": " (combined fire)"}
    parts = []
    for unit_id, weapon, dice, share in attack.params["pool"]:
        how = shares.get(str(share), f" ({share})")
        parts.append(f"{unit_name(state, str(unit_id))}'s {weapon} {dice} dice{how}")
    return FrozenMap(pool="; ".join(parts))
