"""Exact odds of a sw-d6-capital action before its roll (`action_odds`).

From the resolver's own chance code: an attack (`combat.attack_odds`), the
Command tracker (R004.16), Damage Control (T004.4), the astromech, reactor
shutdown and shields rolls, a move's piloting roll (GEO004.7), the recovery
rounds (R004.57), and the Initiative contest with each blazing hulk's chance to
explode (R004.11-R004.13, T004.10).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from tactical.dice import Dice, Distribution, enumerate_outcomes, fraction_text, percent
from tactical.model import FrozenMap, GameState
from tactical.rules.base import Action, Attack, OddsReport, OddsSection, unit_name
from tactical.rules.fixed_dice import FixedDice
from tactical.rules.sw_d6_capital import (
    combat,
    command,
    fighters,
    initiative,
    ledger,
    maneuver,
    repair,
)
from tactical.rules.sw_d6_capital.codes import code_text
from tactical.rules.sw_d6_capital.handlers import close_other_batch, owner_active
from tactical.rules.sw_d6_capital.options import tie_succeeds
from tactical.rules.sw_d6_capital.sequence import (
    PHASE_OF,
    blazing_roll,
    contest_entries,
    ensure_setup,
    prepare,
    turn_upkeep,
)

# --------------------------------------------------------------------------- odds


def _report(
    rules_id: str, action: Action, facts: dict[str, Any], sections: Sequence[OddsSection]
) -> OddsReport:
    attack = Attack(action.actor, action.kind, "", FrozenMap(action.params))
    return OddsReport(rules_id, attack, FrozenMap(facts), tuple(sections))


def _success_section(name: str, spec_id: str, distribution: Distribution[bool]) -> OddsSection:
    return OddsSection(name, spec_id, "success", distribution.sorted())


def _success_report(
    rules_id: str,
    action: Action,
    said: tuple[int, int, str],
    roll: Callable[[Dice, Any], tuple[Any, bool]],
    meet: Any,
) -> OddsReport:
    """The odds of a roll that succeeds or not (`said`: its code in pips, its Difficulty and
    SPEC id), by enumerating the resolver's own roll (`roll(dice, meet)`: its events and
    whether it succeeded)."""
    pips, difficulty, spec_id = said
    odds = enumerate_outcomes(lambda d: roll(d, meet)[1])
    return _report(
        rules_id,
        action,
        {"code": code_text(pips), "difficulty": difficulty},
        (_success_section("success", spec_id, odds),),
    )


def action_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """Exact odds of a declared action before its roll, from the resolver's own chance code."""
    phase = PHASE_OF.get(action.kind)
    if phase is None:
        return None
    state = ensure_setup(state)
    params = dict(action.params)
    # none of the rolls priced here is a to-hit roll (an attack's odds: combat.attack_odds)
    meet = tie_succeeds(ledger.settings(state), to_hit=False)
    turn = ledger.turn_of(state)
    if action.kind == "initiative":
        return _initiative_odds(state, action, rules_id)
    state, _ = prepare(state, phase)
    if action.kind == "attack":
        weapon, target = str(params.pop("weapon", "")), str(params.pop("target", ""))
        state, _closed = close_other_batch(state, action.actor)
        attack = combat.declare(state, action.actor, weapon, target, params)
        return combat.attack_odds(state, attack, rules_id)
    if action.kind == "command":
        _unit, deck, cond = owner_active(state, action.actor, "R004.15")
        pips = command.command_code(deck, cond)
        odds = command.tracker_odds(pips, deck.command_difficulty)
        return _report(
            rules_id,
            action,
            {"command": code_text(pips), "difficulty": deck.command_difficulty},
            (OddsSection("tracker", "R004.16", "pips", odds, "Command tracker"),),
        )
    if action.kind == "damage-control":
        _unit, deck, cond = owner_active(state, action.actor, "R004.20")
        plan = repair.repair_plan(action.actor, deck, cond, turn, params)
        return _report(
            rules_id,
            action,
            {"code": code_text(plan.code_pips), "difficulty": plan.difficulty},
            (OddsSection("outcome", "T004.4", "outcome", repair.repair_odds(plan, meet)),),
        )
    if action.kind == "astromech":
        _unit, deck, cond = owner_active(state, action.actor, "R004.53")
        what = params.get("what", "damage")
        repair.check_astromech(action.actor, deck, cond, what)
        difficulty = repair.astromech_difficulty(cond, what)
        roll = partial(repair.astromech_roll, "", deck.astromech.pips, difficulty)
        return _success_report(
            rules_id, action, (deck.astromech.pips, difficulty, "R004.53"), roll, meet
        )
    if action.kind == "reactor-shutdown":
        _unit, deck, cond = owner_active(state, action.actor, "T004.9")
        pips = repair.shutdown_code(deck, cond, turn)
        roll = partial(repair.shutdown_roll, "", pips)
        return _success_report(rules_id, action, (pips, repair.EASY, "T004.9"), roll, meet)
    if action.kind == "angle-shields":
        _unit, deck, cond = owner_active(state, action.actor, "R004.24")
        arcs = repair.parse_allocation(params, cond.shield_arcs)
        if not deck.fighter or arcs == cond.shield_arcs:
            return None
        pips = repair.shields_roll_code(deck, cond, turn)
        roll = partial(repair.shields_roll, "", pips)
        return _success_report(rules_id, action, (pips, repair.EASY, "A004.36"), roll, meet)
    if action.kind in ("move", "maneuver"):
        batch_map = 0
        if action.kind == "maneuver":
            unit, deck, cond = ledger.ship(state, action.actor)
            batch_map = combat.batch_slot(state, unit, deck, cond, params.get("batch")).size - 1
        move = maneuver.plan_ship_move(state, action.actor, params.get("path"), batch_map)
        if not move.hazards:
            return None
        return _report(
            rules_id,
            action,
            {
                "hazards": move.hazards,
                "piloting": code_text(move.piloting_pips),
                "difficulty": move.difficulty,
            },
            (_success_section("piloting", "GEO004.7", maneuver.piloting_odds(move, meet)),),
        )
    if action.kind == "recover":
        fighters.check_recovery(state, action.actor)
        odds = enumerate_outcomes(lambda d: fighters.recovery_rounds(action.actor, d)).sorted()
        return _report(rules_id, action, {}, (OddsSection("rounds", "R004.57", "rounds", odds),))
    return None


def _initiative_odds(state: GameState, action: Action, rules_id: str) -> OddsReport:
    """R004.11-R004.13: who wins the contest and whether with a Masterstroke (exact), and the
    chance each blazing hulk explodes (T004.10)."""
    upkept, _ = turn_upkeep(state.with_rule_state(turn=ledger.turn_of(state) + 1), NO_ROLLS)
    entries = contest_entries(upkept)
    odds = initiative.contest_odds(entries)
    sections = [
        OddsSection("winner", "R004.11", "ship", odds.map(lambda o: o[0])),
        OddsSection("masterstroke", "R004.13", "masterstroke", odds.map(lambda o: o[1]).sorted()),
    ]
    for unit in state.units:
        if ledger.condition(state, unit.id).blazing:
            explodes = enumerate_outcomes(lambda d, u=unit.id: blazing_roll(u, d) == 1).sorted()
            said = f"{unit_name(state, unit.id)} explodes"
            key = f"{unit.id} explodes"
            sections.append(OddsSection(key, "T004.10", "explodes", explodes, said))
    facts = {
        # each captain as a player reads him: "Nowhere 5D", "Corvette 3D+1, bonus +1"
        "captains": tuple(
            f"{unit_name(state, e.ship)} {code_text(e.pips)}"
            + (f", bonus {e.bonus:+d}" if e.bonus else "")
            for e in entries
        ),
        "masterstroke_probability": fraction_text(odds.where(lambda o: o[1])),
        "masterstroke_percent": percent(odds.where(lambda o: o[1])),
    }
    return _report(rules_id, action, facts, sections)


# the deterministic part of the upkeep: blazing hulks (whose roll does not change who
# contests Initiative) read as surviving, every die on its highest face
NO_ROLLS = FixedDice(lambda die: die.high)
