"""Play through the generic protocol: the turn sequence, `actions`, `apply` and their odds.

Turn sequence (R002.19, R002.20, R002.28, T002.5):

1. Field Orders (R002.20) — turn 1 only: each fleet rolls (or takes FO 1, R002.21).
2. Initiative (base game, external) — the first side's go rolls the roll-off (1D6 each,
   ties re-rolled); the winner activates first.
3. Squadron Activation Sequence (R002.28), alternating: a side whose go it is activates
   one squadron and plays its segments as actions — 1 `command`; 2a `boost` / `launch` /
   `move`, `end-movement`; 2b `resolve-collisions`; 3a `declare-attack` (and the
   generators' `tesla-effect` / `ultrasonic`), `end-declarations`; 3b the targeted side's
   `counterattack`, `end-counterattacks`; 3b-3d `resolve-attack` step by step; 4 `board`,
   `end-boarding`; 5 `break-tests`; a Wing may then `land` / `attach-cap` before
   `end-activation`. While a squadron is active the other side's go offers only its
   Counterattack declarations (or nothing: it passes), so the sides alternate whole
   activations; a side with no squadron left passes and the other continues (R002.18
   style); the phase ends when both pass. A side may pass only when no step is left to
   it (`status.pass_refused`: a squadron to activate, its activation under way, its
   Counterattacks to declare or end; likewise the Field Order and initiative rolls and
   the End Phase's steps): one fleet's pass never ends the activations of both.
4. End Phase (R002.19), alternating: `end-phase` (check for End of Game, Compulsory
   Actions), then each side's `damage-repair` and `bravery-test` and the Prizes' `drift`,
   then `end-turn` (rationalise markers, draw Game Cards, next turn).

A side may re-roll with its Fleet Commodore (`commodore-reroll`, R002.10) while it has
an offer (the offer lapses when that side does anything else). Every action returns its
events (each citing its SPEC id); `action_odds` enumerates `apply` itself.

This module is the generic protocol's entry: `actions` asks the module of the phase or
segment for its choices, `apply` its `HANDLERS`, and `action_odds` enumerates `apply`.
The frame of the turn (phases, `setup`, `stage`, the activation record) is `sequence`;
the segments are `opening`, `movement_segment`, `attacks`, `combat_steps`,
`activation_end`, `end_phase` and `commodore`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tactical.dice import Dice, enumerate_outcomes
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.rules.base import (
    Action,
    ActionChoice,
    Attack,
    Field,
    OddsReport,
    OddsSection,
    Resolution,
    TurnPosition,
)
from tactical.rules.dystopian_wars import (
    activation_end,
    attacks,
    combat,
    combat_steps,
    commodore,
    end_phase,
    generators,
    movement_segment,
    opening,
    tracking,
    victory,
)
from tactical.rules.dystopian_wars.activation_end import boarding_choices, wing_end_choices
from tactical.rules.dystopian_wars.attacks import counter_choices, declare_choices
from tactical.rules.dystopian_wars.cards import squadron_words, table_sides
from tactical.rules.dystopian_wars.combat_steps import resolve_choices
from tactical.rules.dystopian_wars.commodore import commodore_choices
from tactical.rules.dystopian_wars.criticals import critical_name, is_critical
from tactical.rules.dystopian_wars.end_phase import end_phase_choices
from tactical.rules.dystopian_wars.movement_segment import movement_choices
from tactical.rules.dystopian_wars.opening import (
    command_choices,
    field_order_choices,
    initiative_choices,
)
from tactical.rules.dystopian_wars.sequence import (
    ACTIVATION,
    FIELD_ORDERS,
    INITIATIVE,
    TURN_SEQUENCE,
    Handler,
    activatable,
    choice,
    current_activation,
    params_of,
    passive_until_winner,
    setup,
    side_of,
)

# --------------------------------------------------------------------------- actions


def actions(state: GameState, position: TurnPosition, side: str) -> tuple[ActionChoice, ...]:
    """What `side` may declare at `position` (see the module doc)."""
    state = setup(state)
    if tracking.game_over(state) or side not in table_sides(state):
        return ()
    phase = TURN_SEQUENCE.phase(position).name
    if phase == FIELD_ORDERS:
        found = field_order_choices(state, side)
    elif phase == INITIATIVE:
        found = initiative_choices(state, side)
    elif phase == ACTIVATION:
        found = _activation_choices(state, side)
    else:
        found = end_phase_choices(state, side)
    return found + commodore_choices(state, side)


def _activation_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    act = current_activation(state)
    if act is None:
        if passive_until_winner(state, side):
            return ()
        keys = activatable(state, side)
        if not keys:
            return ()
        return (
            choice(
                "activate",
                side,
                f"{side}: activate a squadron",
                Field(
                    "squadron",
                    "str",
                    required=True,
                    default=keys[0],
                    choices=keys,
                    choice_titles=tuple(squadron_words(state, key) for key in keys),
                ),
                spec="R002.28",
            ),
        )
    if act["side"] != side:
        if act["stage"] == "counter" and side in act.get("defenders", ()):
            return counter_choices(state, side)
        return ()
    stage = act["stage"]
    builders: dict[str, Callable[[GameState, Mapping[str, Any]], tuple[ActionChoice, ...]]] = {
        "command": command_choices,
        "movement": movement_choices,
        "collisions": lambda s, a: (
            choice("resolve-collisions", side, "Resolve collisions and rams", spec="R002.28"),
        ),
        "declare": declare_choices,
        "counter": lambda s, a: (),
        "resolve": resolve_choices,
        "boarding": boarding_choices,
        "morale": lambda s, a: (
            choice("break-tests", side, "Resolve all Break Tests", spec="R002.27"),
        ),
        "wing-end": wing_end_choices,
    }
    return builders[stage](state, act)


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action, dice: Dice) -> Resolution:
    """Resolve any declared action (see the module doc); pure: events and a new state."""
    state = setup(state)
    if tracking.game_over(state):
        raise UserError("the game is over", spec_id="R002.22")
    handler = HANDLERS.get(action.kind)
    if handler is None:
        known = ", ".join(sorted(HANDLERS))
        raise UserError(f"Dystopian Wars has no action {action.kind!r} (actions: {known})")
    side = side_of(state, action.actor)
    if action.kind != "commodore-reroll":
        state = tracking.put_in(state, "offers", side, None)
    resolution = handler(state, action, dice, side)
    new_state, events = victory.check_victory(resolution.state)
    return Resolution(new_state, resolution.events + tuple(events), resolution.summary)


HANDLERS: dict[str, Handler] = {
    **opening.HANDLERS,
    **movement_segment.HANDLERS,
    **attacks.HANDLERS,
    **combat_steps.HANDLERS,
    **activation_end.HANDLERS,
    **end_phase.HANDLERS,
    **commodore.HANDLERS,
}


# --------------------------------------------------------------------------- odds

ROLLING = {
    "field-order",
    "initiative",
    "boost",
    "move",
    "move-wing",
    "resolve-collisions",
    "tesla-effect",
    "ultrasonic",
    "board",
    "break-tests",
    "damage-repair",
    "bravery-test",
    "drift",
    "commodore-reroll",
}


def action_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """Exact odds of an action before its roll: an attack's full report, otherwise the
    distribution of `apply`'s summary (the same code, enumerated)."""
    state = setup(state)
    params = params_of(action)
    if action.kind in ("declare-attack", "counterattack"):
        weapon, target = str(params.pop("weapon", "")), str(params.pop("target", ""))
        if action.kind == "counterattack":
            params["counter"] = True
        declared = {k: v for k, v in params.items() if v not in ("", None, False)}
        attack = combat.declare(state, action.actor, weapon, target, declared)
        return _attack_odds(state, attack, rules_id)
    if action.kind == "resolve-attack":
        act = current_activation(state) or {}
        index = params.get("attack")
        records = act.get("declared", ())
        if not isinstance(index, int) or not 0 <= index < len(records):
            raise UserError(f"no declared attack {index!r}", spec_id="R002.28")
        record = records[index]
        attack = combat.declare(
            state,
            str(record["attacker"]),
            str(record["weapon"]),
            str(record["target"]),
            dict(record["params"]),
        )
        return _attack_odds(state, attack, rules_id)
    if action.kind not in ROLLING:
        return None
    worded = ODDS_WORDS.get(action.kind, _odds_summary)
    outcomes = enumerate_outcomes(lambda dice: worded(apply(state, action, dice).summary))
    rule = ODDS_RULES.get(action.kind)
    if action.kind == "boost":  # the Kinetic boost's 1D6 is R002.48's, the Tesla's 1D3 R002.45's
        rule = generators.BOOST_RULES.get(str(params.get("generator")), rule)
    return OddsReport(
        rules_id,
        Attack(action.actor, action.kind, str(params.get("target", "")), action.params),
        FrozenMap(),  # the section's title says what is rolled
        (OddsSection("outcome", rule, "outcome", outcomes, ODDS_TITLES.get(action.kind, "")),),
    )


def _attack_odds(state: GameState, attack: Attack, rules_id: str) -> OddsReport:
    """An attack's full report (`odds_report`, G.5), its module loaded when first asked for:
    a game the computer plays asks the odds of other steps only."""
    from tactical.rules.dystopian_wars import odds_report

    return odds_report.attack_odds(state, attack, rules_id)


def _repair_outcome(repaired: tuple[str, ...]) -> str:
    """A Damage Repair's outcome as the odds show it (R002.19): what it repairs, by name."""
    if not repaired:
        return "nothing repaired"
    return "repairs " + ", ".join(critical_name(code) for code in repaired)


def _field_order_outcome(summary: Any) -> Any:
    """A Field Order roll's outcome as the odds show it (R002.20): the order it gives."""
    if isinstance(summary, tuple) and len(summary) == 2:
        return f"Field Order {summary[1]}"
    return _odds_summary(summary)


def _odds_summary(summary: Any) -> Any:
    if is_critical(summary):  # a critical effect by its name, as the player reads it
        return critical_name(summary)
    if isinstance(summary, tuple):
        return tuple(_odds_summary(s) for s in summary)
    if isinstance(summary, FrozenMap):
        return tuple(sorted(summary.items()))
    return summary


ODDS_WORDS = {"damage-repair": _repair_outcome, "field-order": _field_order_outcome}
ODDS_TITLES = {"field-order": "Field Order", "initiative": "Initiative"}

ODDS_RULES = {
    "field-order": "R002.20",
    "initiative": "G.5",
    "boost": "R002.45",
    "move": "R002.34",
    "move-wing": "R002.34",
    "resolve-collisions": "R002.35",
    "tesla-effect": "R002.46",
    "ultrasonic": "R002.47",
    "board": "G.5",
    "break-tests": "R002.27",
    "damage-repair": "R002.19",
    "bravery-test": "R002.27",
    "drift": "R002.19",
    "commodore-reroll": "R002.10",
}
