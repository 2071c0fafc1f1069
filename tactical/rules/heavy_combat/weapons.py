"""Heavy Combat weapons and their declaration: what a ship may fire, and may fire now.

`weapons_of` lists the weapons on a ship's sheet in declaration order (R001.14,
arcs T001.8), `fire_cost` what each costs (T001.1), `stopped` whether a destroyed
chart category stops it (R001.38). `check_fire` checks one weapon declaration
against the rules (the opponent only, warp, a destroyed category, cloak, moving,
range, arc, cooldowns, torpedoes, power, a general or specific target, a
nominated direction against a cloaked ship) and returns the `FireOrder` that
the Result step resolves (`combat`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tactical.errors import UserError
from tactical.rules.heavy_combat.duel import Duel, FireOrder, Ship
from tactical.rules.heavy_combat.engagement import Engagement
from tactical.rules.heavy_combat.ships import Profile
from tactical.rules.heavy_combat.systems import (
    cloaked,
    down_words,
    shields_down,
    warp_ok,
    weapons_down,
)
from tactical.rules.heavy_combat.tables import (
    CATEGORIES,
    DISRUPTOR_INTERVAL,
    FACINGS,
    KLINGON_DISRUPTOR_ARCS,
    PHASER_ARCS,
    PHOTON_INTERVAL,
    WEAPONS,
    launcher_arcs,
)

PHASERS, ROMULAN, PHOTON, DISRUPTORS = "phasers", "romulan-disruptors", "photon", "disruptors"
GENERAL, SPECIFIC = "general", "specific"
FIRE_PARAMS = ("power", "mode", "system", "direction")
D6_FACES = 6  # a power die (R001.4)

# --------------------------------------------------------------------------- weapons


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon a ship can declare: its name, class (R001.14) and arcs (T001.8)."""

    name: str
    kind: str
    directed: bool
    arcs: frozenset[str]
    launcher: int | None = None

    @property
    def spec_id(self) -> str:
        return {PHASERS: "R001.15", ROMULAN: "R001.16", PHOTON: "R001.17", DISRUPTORS: "R001.19"}[
            self.kind
        ]

    @property
    def arc_rule(self) -> str:
        return {PHASERS: "R001.15", ROMULAN: "R001.16", PHOTON: "R001.18", DISRUPTORS: "R001.19"}[
            self.kind
        ]

    @property
    def points_chosen(self) -> bool:
        """Phaser-like weapons spend p chosen points (T001.1); the others cost 1."""
        return self.directed


def weapons_of(card: Profile) -> tuple[Weapon, ...]:
    """The weapons on a ship's sheet, in declaration order."""
    found: list[Weapon] = []
    if card.phasers:
        found.append(Weapon(PHASERS, PHASERS, True, PHASER_ARCS))
    if card.romulan_disruptors:
        found.append(Weapon(ROMULAN, ROMULAN, True, card.romulan_disruptor_arcs))
    for launcher in range(1, card.photon_launchers + 1):
        found.append(Weapon(f"photon-{launcher}", PHOTON, False, launcher_arcs(launcher), launcher))
    if card.disruptors:
        found.append(Weapon(DISRUPTORS, DISRUPTORS, False, KLINGON_DISRUPTOR_ARCS))
    return tuple(found)


def weapon_named(card: Profile, name: str, ship_id: str) -> Weapon:
    for weapon in weapons_of(card):
        if weapon.name == name:
            return weapon
    offer = ", ".join(w.name for w in weapons_of(card)) or "none"
    raise UserError(
        f"{ship_id!r} has no weapon {name!r}: its weapons are {offer}", spec_id="R001.14"
    )


# R001.38: the weapons each chart's weapons row takes with it. Phasers / Photons (T001.5):
# phasers, Romulan disruptors (fired as phasers, R001.16) and photons; Armor / Cloak /
# Disruptors / Photons (T001.6): disruptors of either kind and photons, not phasers
STOPPED_WITH_WEAPONS = {
    "federation": frozenset({PHASERS, ROMULAN, PHOTON}),
    "klingon": frozenset({DISRUPTORS, ROMULAN, PHOTON}),
}
WEAPON_WORDS = {
    PHASERS: "phasers",
    ROMULAN: "Romulan disruptors",
    PHOTON: "photon torpedoes",
    DISRUPTORS: "disruptors",
}


def stopped(card: Profile, ship: Ship, weapon: Weapon, failure: str) -> bool:
    """R001.38: the weapon's chart category is down (option `system_failure`, A001.27)."""
    return weapon.kind in STOPPED_WITH_WEAPONS[card.chart] and weapons_down(card, ship, failure)


def fire_cost(weapon: Weapon, power: int) -> int:
    """T001.1: phasers (and Romulan disruptors) p points; a photon launch or a disruptor 1."""
    return power if weapon.points_chosen else 1


def check_fire(
    duel: Duel,
    cards: Mapping[str, Profile],
    view: Engagement,
    firer_id: str,
    weapon_name: str,
    target_id: str,
    params: Mapping[str, Any],
    options: Mapping[str, Any],
) -> FireOrder:
    """A weapon declaration checked against the rules (UserError with the SPEC id if not)."""
    firer = duel.ship(firer_id)
    if target_id != duel.opponent(firer_id):
        raise UserError(
            f"{firer_id!r} can only fire at its opponent {duel.opponent(firer_id)!r}, "
            f"not {target_id!r} (a duel of two ships)",
            spec_id="A001.22",
        )
    target = duel.ship(target_id)
    unknown = sorted(set(params) - set(FIRE_PARAMS))
    if unknown:
        raise UserError(
            f"a fire declaration takes no {', '.join(unknown)} "
            f"(its parameters: {', '.join(FIRE_PARAMS)})"
        )
    card = cards[firer_id]
    weapon = weapon_named(card, weapon_name, firer_id)
    if not warp_ok(card, firer):
        raise UserError(
            f"{firer_id!r} has lost warp: only repair is possible until warp is repaired",
            spec_id="R001.13",
        )
    failure = str(options["system_failure"])
    if stopped(card, firer, weapon, failure):
        raise UserError(
            f"{firer_id!r} cannot fire {WEAPON_WORDS[weapon.kind]}: "
            f"{down_words(card, WEAPONS, failure)}",
            spec_id="R001.38",
        )
    if cloaked(firer):
        raise UserError(f"{firer_id!r} is cloaked and cannot fire", spec_id="R001.29")
    if shields_down(firer):
        raise UserError(
            f"{firer_id!r} has no weapons in the turn before its cloak engages or after it drops",
            spec_id="R001.29",
        )
    moving = firer.moving(duel.turn)
    if moving:
        rule = "R001.10" if moving[0].kind == "lateral" else "R001.9"
        raise UserError(
            f"{firer_id!r} is making a {moving[0].kind} move this turn and cannot fire",
            spec_id=rule,
        )
    if view.range is None:
        raise UserError(
            f"{target_id!r} is beyond weapons range of {firer_id!r}: band {view.band} "
            f'({view.distance:.2f}"), the maximum is 3',
            spec_id="R001.21",
        )
    direction = view.facing(firer_id)
    if not cloaked(target) and direction not in weapon.arcs:
        raise UserError(
            f"{target_id!r} is off {firer_id!r}'s {direction} facing: {weapon.name} fires "
            f"through {', '.join(f for f in FACINGS if f in weapon.arcs)}",
            spec_id=weapon.arc_rule,
        )
    declared = firer.orders.fire
    if any(order.weapon == weapon.name for order in declared):
        raise UserError(
            f"{firer_id!r} has already declared its {weapon.name} this turn",
            spec_id=weapon.spec_id,
        )
    if weapon.kind == PHOTON:
        assert weapon.launcher is not None
        last = firer.launchers[weapon.launcher - 1]
        if last is not None and duel.turn < last + PHOTON_INTERVAL:
            raise UserError(
                f"{weapon.name} fired in turn {last}: it can fire again in turn "
                f"{last + PHOTON_INTERVAL} (every other turn)",
                spec_id="R001.17",
            )
        launching = sum(1 for o in declared if o.weapon.startswith("photon-"))
        if firer.torpedoes - launching < 1:
            raise UserError(f"{firer_id!r} has no photon torpedoes left", spec_id="R001.17")
    if weapon.kind == DISRUPTORS and firer.disruptors_fired is not None:
        ready = firer.disruptors_fired + DISRUPTOR_INTERVAL
        if duel.turn < ready:
            raise UserError(
                f"disruptors fired in turn {firer.disruptors_fired}: they can fire again in "
                f"turn {ready} (every third turn)",
                spec_id="R001.19",
            )
    power = params.get("power")
    if weapon.points_chosen:
        if power is None:
            power = default_phaser_power(card, firer)
        if not isinstance(power, int) or isinstance(power, bool) or power < 1:
            raise UserError(
                f"{weapon.name} fire needs a whole number of power points >= 1, not {power!r}",
                spec_id="R001.15",
            )
        most = D6_FACES * card.power_dice  # the highest power roll (R001.4): no more to spend
        if power > most:
            raise UserError(
                f"{weapon.name} fire takes at most {most} power points, the most "
                f"{card.power_dice} power dice can roll, not {power}",
                spec_id="R001.4",
            )
    elif power not in (None, 1):
        raise UserError(f"{weapon.name} costs 1 point; it takes no power", spec_id="R001.5")
    mode = params.get("mode", GENERAL)
    if mode not in (GENERAL, SPECIFIC):
        raise UserError(
            f"target selection is 'general' or 'specific', not {mode!r}", spec_id="R001.37"
        )
    system = params.get("system")
    if mode == SPECIFIC and system not in CATEGORIES:
        raise UserError(
            f"a specific-system shot names one of {', '.join(CATEGORIES)}, not {system!r}",
            spec_id="R001.37",
        )
    if mode == GENERAL and system is not None:
        raise UserError(
            "a system is named only for a specific-system shot (mode = 'specific')",
            spec_id="R001.37",
        )
    direction_given = params.get("direction")
    nominating = options["cloaked_direction"] == "declare" and cloaked(target)
    if nominating and direction_given not in FACINGS:
        raise UserError(
            f"firing at the cloaked {target_id!r}: nominate a direction, one of "
            f"{', '.join(FACINGS)} (not {direction_given!r})",
            spec_id="R001.30",
        )
    if not nominating and direction_given is not None:
        raise UserError(
            "a direction is nominated only against a cloaked ship when the option "
            "cloaked_direction is 'declare'",
            spec_id="R001.30",
        )
    return FireOrder(
        weapon.name,
        target_id,
        int(power) if weapon.points_chosen else 1,
        mode,
        system,
        direction_given,  # None unless nominating (refused above otherwise)
    )


def default_phaser_power(card: Profile, ship: Ship) -> int:
    """Phaser points when none are given: the power left this turn, or before the power roll
    the expected roll (3.5 per die, R001.2 rounding) so that odds can be asked any time."""
    if ship.power is not None:
        return max(1, ship.remaining_power)
    return (7 * card.power_dice + 1) // 2
