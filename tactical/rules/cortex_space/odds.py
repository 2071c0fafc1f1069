"""Exact odds of a Cortex Space action before its roll (`action_odds`).

An attack, a missile lock or point defense through `combat.attack_odds`; the
start of a turn as each target's damage from the missiles due (R003.39,
R003.61, R003.62); any other action with a roll by enumerating `apply` over
every roll. The actions without a roll (`NO_ROLL`) have none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any

from tactical.dice import Dice, enumerate_outcomes
from tactical.model import FrozenMap, GameState
from tactical.rules.base import Action, Attack, OddsReport, OddsSection, attack_declaration
from tactical.rules.cortex_space import combat, crew, missiles, stations, tracker
from tactical.rules.cortex_space.damage import Target, damage_dealt, target_of
from tactical.rules.cortex_space.play import apply
from tactical.rules.cortex_space.sequence import setup
from tactical.rules.cortex_space.units import settings, vessel

NO_ROLL = ("fire-missile", "end", "offensive-manoeuvre")


# --------------------------------------------------------------------------- odds


def _plain(summary: Any) -> Any:
    """A summary as plain hashable data: dataclasses become (field, value) pairs."""
    if is_dataclass(summary):
        return tuple((f.name, _plain(getattr(summary, f.name))) for f in fields(summary))
    return summary


def action_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """The exact outcome distribution of an action with a roll, by enumerating `apply`."""
    kind = action.kind
    if kind in ("attack", "lock-missile", "point-defense"):
        weapon, target, params = attack_declaration(action)
        attack = combat.declare(state, action.actor, weapon, target, params)
        return combat.attack_odds(state, attack, rules_id)
    if kind in NO_ROLL or (kind == "evasive-manoeuvre" and crew.variant(settings(state)) == "A"):
        return None
    if kind == "start-turn":
        return _impact_odds(state, action, rules_id)
    outcomes = enumerate_outcomes(lambda dice: _plain(apply(state, action, dice).summary))
    attack = Attack(
        action.actor, kind, str(action.params.get("target", "")), FrozenMap(action.params)
    )
    title = kind.replace("-", " ").capitalize()  # what is rolled, as the choice says it
    return OddsReport(
        rules_id,
        attack,
        FrozenMap(),
        (OddsSection("outcome", _RULE_OF.get(kind), "outcome", outcomes, title),),
    )


def _impact_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """R003.39, R003.61, R003.62: the damage each target takes from the missiles due.

    One section a target: its missiles alone run through the very turn-start resolver.
    A missile's damage depends only on its own target, so each section is that target's
    exact marginal; the joint distribution over every target (a product of them) would be
    too large to compute or to read.
    """
    if tracker.TURN not in state.rule_state:
        state = setup(state)
    flying = missiles.missiles_in_flight(state)
    due = [m for m in flying if int(m["turns_left"]) <= 1]
    if not due:
        return None
    sections = []
    for target in dict.fromkeys(str(m["target"]) for m in due):
        alone = state.with_rule_state(
            **{tracker.MISSILES: tuple(m for m in flying if str(m["target"]) == target)}
        )
        outcomes = enumerate_outcomes(_damage_taken(alone, action, target)).sorted()
        sections.append(OddsSection(target, "R003.61", "damage", outcomes.map(_damage_text)))
    attack = Attack(action.actor, action.kind, "", FrozenMap(action.params))
    facts = FrozenMap(missiles=len(due), targets=len(sections))
    return OddsReport(rules_id, attack, facts, tuple(sections))


def _damage_taken(
    state: GameState, action: Action, target: str
) -> Callable[[Dice], tuple[int, int, bool]]:
    """The resolver as a function of the dice: (wound, stun, destroyed now) it deals `target`,
    counted as the target's track counts it afterwards (R003.58)."""
    before = _damage_of(state, target)

    def damage(dice: Dice) -> tuple[int, int, bool]:
        after = _damage_of(apply(state, action, dice).state, target)
        if before is None or after is None:  # a unit gone from the table counts as destroyed
            return 0, 0, before is not None
        stun, wound = damage_dealt(before, after)
        return wound, stun, after.destroyed and not before.destroyed

    return damage


def _damage_of(state: GameState, unit_id: str) -> Target | None:
    """A unit's damage state; None for a unit gone from the table."""
    if not state.has_unit(unit_id):
        return None
    return target_of(vessel(state.unit(unit_id)))


def _damage_text(damage: tuple[int, int, bool]) -> str:
    wound, stun, destroyed = damage
    text = f"+{wound} wound +{stun} stun"
    return f"{text}, destroyed" if destroyed else text


_RULE_OF = {
    "start-turn": "R003.39",
    "advantage": "R003.10",
    "initiative": "R003.11",
    "shoot-down": "R003.40",
    "out-fly": "R003.41",
    "distract": "R003.42",
    "avoid-collision": "R003.15",
    "ram": "R003.20",
    "strafe": "R003.21",
    "join-wing": "R003.30",
    "bombard": "R003.63",
    **{kind: "R003.46" for kind in stations.STATION_ACTIONS},
}
