"""Dystopian Wars in words: a model's status (its stat card and what `tracking` keeps), a
resolution's summary, and what a side cannot do now in the Squadron Activation Sequence,
with the reason and rule (`unavailable`).

Status: Hull Points left (R002.44 cards, `hull_lost`), Damage and Critical Ratings,
shield generators, lasting and end-of-turn critical effects, the squadron and whether it
is Broken (R002.27), activated this turn (R002.28), a prize (captured), Derelict
(R002.19), a Tiny Flyer wing's fuel (R002.54). Weapons: name, arc, Attack Dice by Range Band 1-4.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.base import Action, Event, TurnPosition, default_description, unit_name
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import (
    card,
    squadron_units,
    squadron_words,
    squadrons,
    table_sides,
)
from tactical.rules.dystopian_wars.criticals import (
    critical_effect,
    critical_lasts,
    critical_name,
    critical_words,
    is_critical,
)
from tactical.rules.dystopian_wars.generators import GENERATOR_NAMES
from tactical.rules.dystopian_wars.tables import HARD_POUNDING
from tactical.rules.lookups import first_event
from tactical.rules.status import (
    StatusValue,
    Unavailable,
    UnitStatus,
    WeaponStatus,
    counted,
    player_words,
    words,
)


def unit_status(state: GameState, unit: Unit) -> UnitStatus:
    """What the card and the table show of a model now."""
    profile = card(unit)
    left = tracking.hull_left(state, unit)
    values = [
        counted(
            "Hull",
            left,
            profile.hull_points,
            help="Hull Points left",
            spec_id="R002.44",
            token="bar",
        ),
        counted("Damage rating", profile.damage_rating, help="hits for one Hull Point"),
        counted("Critical rating", profile.critical_rating, help="hits for a Critical Hit"),
    ]
    if profile.shield_generators:
        values.append(counted("Shield generators", profile.shield_generators, spec_id="R002.49"))
    lasting = tracking.effects(state, unit.id)
    passing = tracking.until_end(state, unit.id)
    values.append(
        StatusValue(
            "Critical effects",
            ", ".join(critical_name(code) for code in lasting) or "none",
            help=_effects_help(lasting) or "lasting until repaired",
        )
    )
    if passing:
        values.append(
            StatusValue(
                "Until the End Phase",
                ", ".join(critical_name(code) for code in passing),
                help=_effects_help(passing),
            )
        )
    squadron = squadron_words(state, profile.squadron)
    broken = profile.squadron in tuple(tracking.get(state, "broken", ()))
    activated = profile.squadron in tuple(tracking.get(state, "activated", ()))
    values.append(StatusValue("Squadron", squadron + (" (broken)" if broken else "")))
    values.append(
        StatusValue("Activated this turn", "yes" if activated else "no", spec_id="R002.28")
    )
    prize = tracking.mapping(state, "prizes").get(unit.id)
    if prize:
        values.append(StatusValue("Captured by", str(prize)))
    derelict = tracking.is_derelict(state, unit.id)
    if derelict:
        values.append(
            StatusValue(
                "Derelict",
                "yes",
                help='does not move; drifts 1D6" straight ahead in each End Phase',
                spec_id="R002.19",
            )
        )
    wing = tracking.mapping(state, "wings").get(profile.squadron)
    if wing is not None and wing.get("fuel") is not None:
        values.append(counted("Fuel", int(wing["fuel"]), profile.fuel, spec_id="R002.54"))
    marks = [critical_name(code) for code in (*lasting, *passing)]
    if broken:
        marks.append("broken")
    if derelict:
        marks.append("derelict")
    if activated:
        marks.append("activated")
    weapons = tuple(
        WeaponStatus(
            weapon.name,
            words(weapon.arc_name),
            "bands 1-4",
            "-".join(str(d) for d in weapon.attack_dice) + " dice",
            "",
        )
        for weapon in profile.weapons
    )
    return UnitStatus(tuple(values), weapons, tuple(marks), wreck=left <= 0)


def _effects_help(codes: Sequence[str]) -> str:
    """What the effects do, beside their names on the card: one effect's alone, several
    each after its name."""
    if len(codes) == 1:
        return critical_effect(codes[0])
    return "; ".join(critical_words(code) for code in codes)


def describe(before: GameState, action: Action, events: Sequence[Event]) -> str:
    """An attack as "Markgraf's Main turrets at Ruler: 8 dice, 6 hits, 1 saved — no effect";
    other steps by what they decided."""
    actor = unit_name(before, action.actor)
    declare = next((e for e in events if e.kind == "declare" and e.get("weapon")), None)
    if declare is not None and any(e.kind in ("hits", "damage") for e in events):
        return _attack_words(before, declare, events)
    special = _generator_words(before, actor, events) or _repair_words(actor, events)
    if special is not None:
        return special
    for event in events:
        if event.kind == "initiative":
            return f"{event.get('winner')} wins the initiative for turn {event.get('turn')}"
        if event.kind == "activate":
            return f"{actor} activates {squadron_words(before, str(event.get('squadron', '')))}"
        if event.kind == "field-order":
            return f"{actor}'s Field Order {event.get('order')}: {event.get('text')}"
        if event.kind == "boost":
            return (
                f"{actor}'s {GENERATOR_NAMES.get(str(event.get('generator')), 'generator')} "
                "boost: "
                f'{event.get("inches")}" more, {event.get("movement")}" in all'
            )
        if event.kind == "move":
            return f'{actor} moves {float(event.get("distance", 0)):.2f}" ({event.get("path")})'
        if event.kind == "declared":
            target = unit_name(before, str(event.get("target")))
            return f"{actor} declares {event.get('weapon')} at {target}"
    return default_description(before, action, events)


def _attack_words(before: GameState, declare: Event, events: Sequence[Event]) -> str:
    attacker = unit_name(before, str(declare.get("attacker")))
    target = unit_name(before, str(declare.get("target")))
    head = f"{attacker}'s {declare.get('weapon')} at {target}"
    hits = first_event(events, "hits")
    saved = sum(1 for e in events if e.kind == "shield" and e.get("saved"))
    damage = first_event(events, "damage")
    parts = []
    if hits is not None:
        count = int(hits.get("hits", 0))
        parts.append(f"{hits.get('dice')} dice, {count} hit{'' if count == 1 else 's'}")
    parts.append(f"{saved} saved" if saved else "none saved")
    said = f"{head}: " + ", ".join(parts)
    if damage is not None:
        result = str(damage.get("result", ""))
        said += f" — {result}"
        table = next((e for e in events if _critical_lookup(e)), None)
        if table is not None:  # the Critical Hit rolled on the table: its name and effect
            code = str(table.get("result"))
            said += f": {critical_name(code)}, {critical_lasts(code)}"
    return said


def _critical_lookup(event: Event) -> bool:
    return event.kind == "lookup" and is_critical(event.get("result"))


def _generator_words(before: GameState, actor: str, events: Sequence[Event]) -> str | None:
    """A Tesla (R002.46) or Ultrasonic (R002.47) Generator's effect on its target, the
    criticals by name; None when the step used neither."""
    for event in events:
        if event.kind == "lookup" and event.spec_id == "T002.8" and not event.get("effect"):
            return f"{actor}'s Tesla Generator: no effect (T002.8)"
        if event.kind == "critical-effect":
            target = unit_name(before, str(event.get("unit")))
            code = str(event.get("effect"))
            return (
                f"{actor}'s Tesla Generator gives {target} the effect (not the Damage) of "
                f"{critical_name(code)}, {critical_lasts(code)}"
            )
        if event.kind == "lookup" and event.spec_id == "T002.7":
            codes = [str(code) for code in event.get("effects") or ()]
            if event.get("hard_pounding"):
                codes.append(HARD_POUNDING)
            named = " and ".join(critical_name(code) for code in codes) or "no effect"
            lasting = ", until the End Phase" if event.get("effects") else ""
            return (
                f"{actor}'s Ultrasonic Pulverising Generator (roll {event.get('roll')}): "
                f"{named}{lasting}"
            )
    return None


def _repair_words(actor: str, events: Sequence[Event]) -> str | None:
    """A Damage Repair (R002.19): each critical effect by name, repaired or not."""
    tests = [e for e in events if e.kind == "damage-repair"]
    if not tests:
        return None
    said = [
        f"{critical_name(str(e.get('effect')))} "
        f"{'repaired' if e.get('repaired') else 'not repaired'} (rolled {e.get('roll')}, "
        f"needs {e.get('needed')})"
        for e in tests
    ]
    return f"{actor}'s Damage Repair: " + "; ".join(said)


def unavailable(state: GameState, position: TurnPosition, side: str) -> tuple[Unavailable, ...]:
    """What `side` cannot do now and why. In the End Phase, ending the turn while a Damage
    Repair, Bravery Test or Drift is still to take (R002.19). In the Squadron Activation
    Sequence (R002.28): the
    squadrons that cannot activate (activated this turn, a Wing launched this turn (R002.61),
    the initiative winner activates first, another squadron's activation under way); in its
    own activation the weapons and generators with no target it may take (the reason the
    rules give for the nearest enemy) and the models that cannot board (R002.26, R002.27);
    in a counterattack, the Auxiliary weapons that reach no attacker (R002.29)."""
    from tactical.rules.dystopian_wars import sequence  # the turn this reports on

    state = sequence.setup(state)
    if tracking.game_over(state) or side not in table_sides(state):
        return ()
    phase = sequence.TURN_SEQUENCE.phase(position).name
    if phase == sequence.END_PHASE:
        return _end_of_turn_waiting(state, side)
    if phase != sequence.ACTIVATION:
        return ()
    act = tracking.get(state, "activation")
    if act is None:
        return _squadrons_waiting(state, side)
    if act["side"] != side:
        if act["stage"] == "counter" and side in act.get("defenders", ()):
            return _counters_refused(state, act, side)
        return _activation_under_way(state, act, side)
    if act["stage"] == "declare":
        return _attacks_refused(state, act)
    if act["stage"] == "boarding":
        return _boardings_refused(state, act)
    return ()


def pass_refused(state: GameState, position: TurnPosition, side: str) -> Unavailable | None:
    """Why `side` may not pass now: every step of the turn sequence the rules offer it is
    one it must take (the Fleet Commodore's re-roll aside, an offer). Each fleet rolls its
    Field Order (R002.20); the initiative is rolled (G.5); a fleet with a squadron left to
    activate activates one, passing only once it has none left (R002.28, R002.18 style:
    otherwise one fleet's pass would end the Squadron Activation Sequence for both); an
    activation under way plays its segments to the end, the targeted fleet declaring or
    ending its Counterattacks (R002.28, T002.5); the End Phase's steps are taken in order
    (R002.19). None when the side may pass (nothing is offered it, or only an offer)."""
    from tactical.rules.dystopian_wars import combat_steps, end_phase, opening, sequence

    state = sequence.setup(state)
    if tracking.game_over(state) or side not in table_sides(state):
        return None
    phase = sequence.TURN_SEQUENCE.phase(position).name
    if phase == sequence.FIELD_ORDERS:
        if not opening.field_order_choices(state, side):
            return None
        return Unavailable(side, "Pass", f"{side} rolls its Field Order first", "R002.20")
    if phase == sequence.INITIATIVE:
        if not opening.initiative_choices(state, side):
            return None
        return Unavailable(side, "Pass", "the initiative is rolled first", "G.5")
    if phase == sequence.END_PHASE:
        steps = end_phase.end_phase_choices(state, side)
        if not steps:
            return None
        return Unavailable(
            side, "Pass", f"{steps[0].title}: the End Phase's steps are taken in order", "R002.19"
        )
    # whether the Activation Sequence offers `side` a step (what `_activation_choices`
    # offers, read without building the choices: every stage of a side's own activation
    # offers its "end" step but the counterattacks', where the targeted fleet has it)
    act = tracking.get(state, "activation")
    if act is None:
        owes = bool(sequence.activatable(state, side)) and not sequence.passive_until_winner(
            state, side
        )
    elif act["side"] == side:
        stage = act["stage"]
        owes = stage != "counter" and (
            stage != "resolve" or bool(combat_steps.resolve_choices(state, act))
        )
    else:
        owes = act["stage"] == "counter" and side in act.get("defenders", ())
    if not owes:
        return None
    if act is None:
        left = ", ".join(squadron_words(state, key) for key in sequence.activatable(state, side))
        reason = (
            f"{side} still has squadrons to activate ({left}): a fleet passes only when it "
            "has none left"
        )
    elif act["side"] != side:
        reason = f"the counterattacks against {act['side']}'s attack are declared or ended first"
    else:
        reason = (
            f"the activation of the {squadron_words(state, str(act['squadron']))} is under way: "
            "its segments are played in order to the end"
        )
    return Unavailable(side, "Pass", reason, "R002.28")


def _end_of_turn_waiting(state: GameState, side: str) -> tuple[Unavailable, ...]:
    """R002.19: the turn ends once every Damage Repair, Bravery Test and Drift is taken."""
    from tactical.rules.dystopian_wars import end_phase

    end = tracking.mapping(state, "end_phase")
    if not end.get("started") or tracking.get(state, "turn_closed"):
        return ()
    waiting = []
    for each in state.sides:
        waiting += [
            f"{unit_name(state, u.id)}'s Damage Repair" for u in end_phase.repairable(state, each)
        ]
        tests = end_phase.bravery_due(state, each)
        waiting += [f"the {squadron_words(state, key)} Bravery Test" for key in tests]
        waiting += [f"{unit_name(state, u.id)}'s Drift" for u in end_phase.drifting(state, each)]
    if not waiting:
        return ()
    return (
        Unavailable(
            side,
            "End the turn",
            "still to take first: " + ", ".join(waiting) + " (the End Phase's steps in order)",
            "R002.19",
        ),
    )


def _squadrons_waiting(state: GameState, side: str) -> tuple[Unavailable, ...]:
    from tactical.rules.dystopian_wars import flyers, sequence

    turn = int(tracking.get(state, "turn", 1))
    done = set(tracking.get(state, "activated", ()))
    initiative = tracking.get(state, "initiative")
    winner = str(initiative["winner"]) if initiative is not None else None
    waiting = sequence.passive_until_winner(state, side)
    found = []
    for key, units in squadrons(state, side).items():
        if all(tracking.adrift(state, u.id) for u in units):
            continue
        title, name = f"{side}: activate {squadron_words(state, key)}", squadron_words(state, key)
        if key in done:
            found.append(
                Unavailable(
                    side,
                    title,
                    f"{name.capitalize()} has activated this turn: a squadron activates once a "
                    "turn",
                    "R002.28",
                )
            )
        elif not flyers.can_be_activated(state, key, turn):
            found.append(
                Unavailable(
                    side,
                    title,
                    f"the {name} Wing launched this turn and cannot be activated until the next",
                    "R002.61",
                )
            )
        elif waiting:
            found.append(
                Unavailable(
                    side,
                    title,
                    f"{winner} won the initiative and activates a squadron first",
                    "G.5",
                )
            )
    return tuple(found)


def _activation_under_way(
    state: GameState, act: Mapping[str, Any], side: str
) -> tuple[Unavailable, ...]:
    from tactical.rules.dystopian_wars import sequence

    if not sequence.activatable(state, side):
        return ()
    return (
        Unavailable(
            side,
            f"{side}: activate a squadron",
            f"{act['side']} is activating its {squadron_words(state, str(act['squadron']))}: a "
            "squadron's activation ends before the next one begins",
            "R002.28",
        ),
    )


def _nearest_refusal(
    unit: Unit, targets: Sequence[Unit], check: Callable[[Unit], object]
) -> UserError | None:
    """The refusal `check` gives for the nearest of `targets` (None when one is accepted)."""
    refusal = None
    for target in sorted(targets, key=lambda t: math.dist((unit.x, unit.y), (t.x, t.y))):
        try:
            check(target)
        except UserError as error:
            refusal = refusal or error
            continue
        return None
    return refusal


def _refused(state: GameState, actor: str, title: str, error: UserError) -> Unavailable:
    said = re.sub(r"\bRB([1-4])\b", r"Range Band \1", player_words(state, error.message))
    return Unavailable(actor, title, said, error.spec_id)


def _attacks_refused(state: GameState, act: Mapping[str, Any]) -> tuple[Unavailable, ...]:
    from tactical.rules.dystopian_wars import attacks, combat, command, generators, sequence

    used = attacks.used_weapons(act)
    flags_of = sequence.generator_flags(state, act)
    options = sequence.options_of(state)
    found = []
    for unit in squadron_units(state, act["squadron"]):
        if tracking.is_prize(state, unit.id):
            continue
        enemies = [t for t in state.units if t.side != unit.side]
        launched = act.get("launched") == unit.id
        name = unit_name(state, unit.id)
        for weapon in card(unit).weapons:
            if (unit.id, weapon.name) in used:
                continue
            title = f"{name}: {weapon.name}"
            error = _nearest_refusal(
                unit,
                enemies,
                lambda target, shooter=unit.id, weapon=weapon.name, launched=launched: (
                    combat.declare(state, shooter, weapon, target.id, {}, launched=launched)
                ),
            )
            engaged = tuple(act.get("engaged", {}).get(unit.id, ()))
            why = command.restricted(state, unit, options)
            if error is not None:
                found.append(_refused(state, unit.id, title, error))
            elif engaged and why is not None:
                legal = attacks.targets_for(state, unit, weapon.name, launched)
                if not set(legal) & set(engaged):
                    named_targets = ", ".join(unit_name(state, t) for t in engaged)
                    found.append(
                        Unavailable(
                            unit.id,
                            title,
                            f"{name} is {why}: no Split Fire, and {named_targets} "
                            f"(already its target) is out of this weapon's reach",
                            "R002.27" if why == "broken" else "R002.26",
                        )
                    )
        flags = flags_of(unit)
        for generator, check in (
            ("tesla", generators.check_tesla_alternative),
            ("ultrasonic", generators.check_ultrasonic),
        ):
            if generator not in card(unit).generators:
                continue
            error = _nearest_refusal(
                unit,
                enemies,
                lambda target, check=check, source=unit, flags=flags: check(source, target, flags),
            )
            if error is not None:
                found.append(_refused(state, unit.id, f"{name}: {generator} generator", error))
    return tuple(found)


def _boardings_refused(state: GameState, act: Mapping[str, Any]) -> tuple[Unavailable, ...]:
    from tactical.rules.dystopian_wars import activation_end, command, sequence

    options = sequence.options_of(state)
    done = set(act.get("boarded", ()))
    found = []
    for unit in squadron_units(state, act["squadron"]):
        if unit.id in done or card(unit).assault_points <= 0 or tracking.is_prize(state, unit.id):
            continue
        title = f"{unit_name(state, unit.id)}: Boarding Assault"
        try:
            command.check_boarding(state, unit, options)
        except UserError as error:
            found.append(_refused(state, unit.id, title, error))
            continue
        if not activation_end.boarding_targets(state, unit):
            reach = float(options["boarding_range"])
            found.append(
                Unavailable(
                    unit.id,
                    title,
                    f"no enemy model at {unit_name(state, unit.id)}'s height within {reach:g}\" "
                    "to board",
                    "G.5",
                )
            )
    return tuple(found)


def _counters_refused(
    state: GameState, act: Mapping[str, Any], side: str
) -> tuple[Unavailable, ...]:
    from tactical.rules.dystopian_wars import attacks, combat

    found = []
    for unit, weapon, attackers in attacks.counter_weapons(state, act, side):
        error = _nearest_refusal(
            unit,
            attackers,
            lambda target, shooter=unit.id, weapon=weapon.name: combat.declare(
                state, shooter, weapon, target.id, {"counter": True}
            ),
        )
        if error is not None:
            title = f"{unit_name(state, unit.id)}: {weapon.name} (counterattack)"
            found.append(_refused(state, unit.id, title, error))
    return tuple(found)
