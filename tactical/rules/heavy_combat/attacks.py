"""The generic attack and odds hooks for Heavy Combat (`tactical odds`, the play panel).

`declare_attack` checks one weapon against the table and the rules as they
stand (`weapons.check_fire`); `resolve_attack` fires it at once, outside the
turn's Result step (the command line's question "what happens if I fire
this now"); `attack_odds` reads that same `fire_step` over every roll (its shot
enumerated, each ship's internal hits its own fold: `outcome_odds`).
`action_odds` gives the odds of every action that rolls: the power roll, a
declared weapon, and a whole Result step (all declared fire, folded).
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Mapping
from typing import Any

from tactical.dice import Dice, Distribution, enumerate_outcomes, fraction_text, percent
from tactical.dice.exact import remembering
from tactical.model import FrozenMap, GameState
from tactical.model.frozen import memo_of
from tactical.rules.base import Action, Attack, OddsReport, OddsSection, Resolution, unit_name
from tactical.rules.heavy_combat.combat import (
    FireContext,
    FireOutcome,
    commit_fire,
    fire_context,
    fire_outcome,
    fire_replays,
    fire_step,
    shoot,
    shot_key,
)
from tactical.rules.heavy_combat.declarations import acting_ship, action_params, power_roll
from tactical.rules.heavy_combat.duel import Duel, FireOrder, to_rule_state
from tactical.rules.heavy_combat.duel_state import Table, current
from tactical.rules.heavy_combat.internals import effect_categories, internal_losses_odds
from tactical.rules.heavy_combat.result import damage_summary, fire_contexts, fire_phase
from tactical.rules.heavy_combat.tables import FACINGS
from tactical.rules.heavy_combat.weapons import SPECIFIC, check_fire
from tactical.rules.values import AttackParams

# the rule system's hooks this module implements (`RuleSystem`'s `hooks_from`): one attack
# declared, resolved, its odds and its replays counted; any action's odds
HOOKS = {
    "declare_attack": "declare_attack",
    "resolve_attack": "resolve_attack",
    "attack_odds": "attack_odds",
    "attack_replays": "attack_replays",
    "action_odds": "action_odds",
}


def _order(table: Table, attacker: str, weapon: str, target: str, params: Mapping[str, Any]):
    acting_ship(table, attacker)
    return check_fire(
        table.duel, table.cards, table.view, attacker, weapon, target, params, table.options
    )


def _attack(order: FireOrder, attacker: str) -> Attack:
    params = {"power": order.power, "mode": order.mode}
    if order.system is not None:
        params["system"] = order.system
    if order.direction is not None:
        params["direction"] = order.direction
    return Attack(attacker, order.weapon, order.target, FrozenMap(params))


def declare_attack(
    state: GameState, attacker: str, weapon: str, target: str, params: AttackParams = None
) -> Attack:
    """One weapon's fire checked against the table and the rules (UserError with the SPEC id)."""
    state, duel = current(state)
    return _attack(_order(Table(state, duel), attacker, weapon, target, params or {}), attacker)


def _context(state: GameState, attack: Attack) -> tuple[Table, FireContext]:
    """The table and the fire context of `attack` on `state`, remembered while the state
    lives: a pure function of the two, and the exact enumerator resolves the same attack
    on the same state once per outcome (UserError each time for a refused one)."""
    memo = memo_of(_CONTEXTS, state)
    found = memo.get(attack)
    if found is None:
        found = memo[attack] = _made_context(state, attack)
    return found


_CONTEXTS: dict[int, tuple[weakref.ref[GameState], dict[Attack, tuple[Table, FireContext]]]] = {}


def _made_context(state: GameState, attack: Attack) -> tuple[Table, FireContext]:
    state, duel = current(state)
    table = Table(state, duel)
    order = _order(table, attack.attacker, attack.weapon, attack.target, attack.params)
    return table, fire_context(duel, table.cards, table.view, attack.attacker, order, table.options)


def resolve_attack(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    """Fire one weapon now (re-checked first): events, the new state, its FireOutcome."""
    table, ctx = _context(state, attack)
    fired = fire_step(ctx, table.duel, table.cards, dice)
    duel = commit_fire(fired.duel, ctx.firer, ctx.weapon)
    return Resolution(to_rule_state(table.state, duel), fired.events, fired.outcome)


def attack_replays(state: GameState, attack: Attack, max_nodes: int) -> int:
    """The runs an exact enumeration of `resolve_attack` makes, counted without making
    them (`combat.fire_replays`: its rolls are `fire_step`'s): TooManyOutcomes past
    `max_nodes`, where enumerating it would be refused after as many runs."""
    table, ctx = _context(state, attack)
    return fire_replays(ctx, table.duel, table.cards, max_nodes)


def outcome_odds(table: Table, ctx: FireContext) -> Distribution[FireOutcome]:
    """The exact FireOutcome distribution of one weapon: `fire_step`'s own parts, read as
    it runs them. Its shot (`shoot`) is enumerated, the internal hits each shot queues are
    each ship's own fold (`internals.internal_losses_odds`: the ships' hits are independent
    of each other once the shot is known), and every combination becomes a `fire_outcome` —
    the outcomes and weights of enumerating `fire_step` whole (R001.24, R001.25), without
    replaying the shot once per internal-damage outcome."""
    duel, cards = table.duel, table.cards
    before = duel.ship(ctx.target)
    effects = effect_categories(ctx.failure)
    # each shot's combinations weighed in integers over the shot's own denominator, then
    # over their common one: exact, without a Fraction for each combination
    by_shot = []
    with remembering():  # the damage rolls' internal hits share their first layers
        shots = enumerate_outcomes(lambda dice: shoot(ctx, duel, cards, dice), key=shot_key)
        for shot, p in shots:
            finals, denominator = [], p.denominator
            for ship_id, queue in shot.queues:
                odds = internal_losses_odds(
                    cards[ship_id], shot.duel.ship(ship_id), queue, who=ship_id, effects=effects
                )
                common = math.lcm(*(q.denominator for _, q in odds))
                denominator *= common
                finals.append(
                    [
                        ((ship_id, final), q.numerator * (common // q.denominator))
                        for final, q in odds
                    ]
                )
            weighed = [
                (
                    fire_outcome(ctx, before, shot, tuple(part for part, _ in combination)),
                    math.prod((n for _, n in combination), start=p.numerator),
                )
                for combination in itertools.product(*finals)
            ]
            by_shot.append((weighed, denominator))
    common = math.lcm(*(denominator for _, denominator in by_shot))
    return Distribution.from_weights(
        (outcome, n * (common // denominator))
        for weighed, denominator in by_shot
        for outcome, n in weighed
    )


def attack_odds(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """The exact odds of one weapon's fire as it stands on the table."""
    table, ctx = _context(state, attack)
    # the report reads each of thousands of outcomes as the enumeration made them: under
    # the enumeration's memory, without the cyclic collector's passes (`remembering`)
    with remembering():
        return _report(rules_id, attack, table, ctx, outcome_odds(table, ctx))


def _report(
    rules_id: str,
    attack: Attack,
    table: Table,
    ctx: FireContext,
    outcomes: Distribution[FireOutcome],
) -> OddsReport:
    hit = outcomes.where(lambda o: o.hit)
    target = table.duel.ship(ctx.target)
    card = table.cards[ctx.target]
    sections = [OddsSection("hit", ctx.weapon.spec_id, "hit", outcomes.map(lambda o: o.hit))]
    if ctx.order.mode == SPECIFIC:
        system_hit = outcomes.map(lambda o: bool(o.specific)).sorted()
        sections.append(OddsSection("system_hit", "R001.37", "hit", system_hit))
    else:
        shields = outcomes.map(lambda o: o.shield_damage).sorted()
        sections.append(OddsSection("shield_damage", "R001.28", "points", shields))
    internals = outcomes.map(lambda o: o.internals_total).sorted()
    sections.append(OddsSection("internals", "R001.25", "boxes", internals))
    if internals.where(lambda n: n > 0):
        systems = outcomes.map(lambda o: o.systems).sorted(key=lambda s: (s != "none", s))
        sections.append(OddsSection("systems", "R001.34", "systems", systems))
        catastrophic = outcomes.map(lambda o: o.catastrophic).sorted()
        sections.append(OddsSection("catastrophic", "R001.35", "catastrophic", catastrophic))
    if ctx.backlash:
        backlash = outcomes.map(lambda o: o.backlash).sorted()
        sections.append(OddsSection("backlash", "R001.17", "points", backlash))
    facing = ctx.target_facing
    facts = {
        **ctx.facts(),
        "weapon": ctx.weapon.name,
        "distance": None if table.view.distance is None else round(table.view.distance, 6),
        "hit_probability": fraction_text(hit),
        "hit_percent": percent(hit),
        "expected_internals": fraction_text(outcomes.expected(lambda o: o.internals_total)),
        "reinforcement": {
            f: target.reinforcement_on(f) for f in FACINGS if target.reinforcement_on(f)
        },
        "countermeasures": target.countermeasure_points,
        "shield": f"{target.damage_on(facing)}/{card.shield(facing)}",
    }
    if ctx.order.mode != SPECIFIC:
        facts["expected_shield_damage"] = fraction_text(
            outcomes.expected(lambda o: o.shield_damage)
        )
    return OddsReport(rules_id, attack, FrozenMap(facts), tuple(sections))


def action_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """Exact odds of the actions that roll: power, one declared weapon, a whole Result."""
    state, duel = current(state)
    table = Table(state, duel)
    given = action_params(action)
    if action.kind == "roll_power":
        acting_ship(table, action.actor)
        count = table.cards[action.actor].power_dice
        power = enumerate_outcomes(lambda dice: power_roll(count, dice, action.actor).total)
        power = power.sorted()
        return OddsReport(
            rules_id,
            Attack(action.actor, "power", action.actor),
            FrozenMap(dice=f"{count}d6", expected=fraction_text(power.expected())),
            (OddsSection("power", "R001.4", "power", power),),
        )
    if action.kind == "fire":
        params = dict(given)
        weapon = str(params.pop("weapon", ""))
        target = str(params.pop("target", duel.opponent(action.actor)))
        attack = declare_attack(state, action.actor, weapon, target, params)
        return attack_odds(state, attack, rules_id)
    if action.kind == "resolve":
        return result_odds(table, action.actor, rules_id)
    return None


def result_odds(table: Table, actor: str, rules_id: str) -> OddsReport:
    """The damage each ship takes in the Result step, enumerating the Result's own fire
    fold (`result.fire_phase`; movement, repair and expiry roll nothing).

    Fire is simultaneous (R001.3): what one ship takes depends only on the fire aimed at
    it and on its own photon backlash, so each ship's distribution is enumerated over
    those shots alone (the other ship's outcomes would only multiply the states), and
    merged by the boxes lost, all the report tells (`internals.internal_damage`)."""
    duel: Duel = table.duel
    contexts = fire_contexts(table)
    effects = effect_categories(str(table.options["system_failure"]))
    sections = []
    for key in duel.ids:
        concerning = tuple(
            c for c in contexts if c.target == key or (c.firer == key and c.backlash)
        )
        outcomes = enumerate_outcomes(
            lambda dice, key=key, shots=concerning: dict(
                (s[0], s[1:])
                for s in damage_summary(
                    duel,
                    fire_phase(
                        duel,
                        shots,
                        table.cards,
                        dice,
                        ships=(key,),
                        detail="count",
                        effects=effects,
                    ).duel,
                )
            )[key]
        )
        shields = outcomes.map(lambda s: s[0]).sorted()
        internals = outcomes.map(lambda s: s[1]).sorted()
        name = unit_name(table.state, key)
        sections.append(
            OddsSection(
                f"{key} shield damage", "R001.28", "points", shields, f"shield damage to {name}"
            )
        )
        sections.append(
            OddsSection(
                f"{key} internals", "R001.25", "boxes", internals, f"internal boxes lost by {name}"
            )
        )
    return OddsReport(
        rules_id,
        Attack(actor, "result", actor),
        FrozenMap(turn=duel.turn, band=table.view.band, weapons=len(contexts)),
        tuple(sections),
    )
