"""Battlefleet Mars through the generic protocol: the choices of each phase and `apply`.

The turn (R000.15-R000.18) is three phases, and each offers its own kinds:

- *Logistics* (plain, R000.16): a side-level `purchase` of fighters and missiles for
  its launching ships and bases (R000.15), with the LP it spends on everything else
  (`other_lp`), both checked against the game-turn's limit (R000.16); or `pass`.
- *Launch* (plain, R000.17): a side-level `launch` from every ship and base that may
  launch, up to twice its launch capacity in missiles and its launch capacity in
  fighters (A000.13). Counts default to 0 (a declaration of nothing, like buying
  nothing): a missile attack in the combat sequence also launches from the magazine
  within the same allowance, so launching is the player's call; the session's pass
  declines.
- *Tactical combat* (alternating, R000.18): one `attack` per unit and weapon while the
  unit has not fired this turn: lasers at the enemies within reach (R000.6); missile
  attacks with the number declared (R000.18) and, against a ship or base, whether the
  target fires CIWS (R000.19, A000.15). Fighters and missiles get no CIWS (R000.25).

One attack per unit per turn is our reading: the seed abolishes fire groups so that
"each firing unit resolves its own laser attack against one target" (R000.3) and a
missile attack picks "one target" (R000.18); it names no second attack, and the base
game's fire is once per turn. A unit that has fired (laser or missiles) waits for the
next turn.

`apply` receives no turn position, so the turn is kept in the rule state. BFM offers
its own `pass` in Logistics so that every side acts there every turn: a Logistics
action by a side that has already had its Logistics go, or after launches or combat,
starts the next game-turn (fired units, LP spent and launch counts reset, R000.17).

Rule state keys: `turn` (game-turn), `stage` (the last phase acted in: "", "logistics",
"launch", "combat"), `logistics_done` (sides that had their Logistics go), `fired`
(units that have fired), `lp_spent` ((side, fighter/missile LP, other LP) rows, LP as
"a/b" text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tactical.dice import Dice, fraction_text
from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.model.frozen import memo_of
from tactical.rules.base import (
    Action,
    ActionChoice,
    Event,
    Field,
    OddsReport,
    Phase,
    Resolution,
    TurnPosition,
    TurnSequence,
    attack_declaration,
    unit_name,
)
from tactical.rules.battlefleet_mars import combat, logistics
from tactical.rules.battlefleet_mars.tables import (
    FIGHTERS_PER_LP,
    MISSILES_PER_LP,
    budget_problems,
    launch_limit,
    lp_cost,
    to_hit_threshold,
)
from tactical.rules.battlefleet_mars.units import GROUPS, profile

LOGISTICS, LAUNCH, COMBAT = "Logistics", "Launch", "Tactical combat"
TURN_SEQUENCE = TurnSequence(
    (
        Phase(LOGISTICS, "R000.16"),
        Phase(LAUNCH, "R000.17"),
        Phase(COMBAT, "R000.18", alternating=True),
    )
)
STAGES = {LOGISTICS: "logistics", LAUNCH: "launch", COMBAT: "combat"}
PURCHASE, PASS, LAUNCH_KIND, ATTACK = "purchase", "pass", "launch", "attack"
KINDS = (PURCHASE, PASS, LAUNCH_KIND, ATTACK)

TURN, STAGE, LOGISTICS_DONE, FIRED, LP_SPENT = (
    "turn",
    "stage",
    "logistics_done",
    "fired",
    "lp_spent",
)
OTHER_LP = "other_lp"
FIGHTERS, MISSILES = "fighters", "missiles"


# --------------------------------------------------------------------------- bookkeeping


def setup(state: GameState) -> GameState:
    """Options and stats read once (UserError naming the problem), the rule state at turn 1;
    a game already under way keeps its rule state."""
    combat.settings(state)
    for unit in state.units:
        profile(unit)
    if TURN in state.rule_state:
        return state
    return state.with_rule_state(
        **{TURN: 1, STAGE: "", LOGISTICS_DONE: (), FIRED: (), LP_SPENT: ()}
    )


def _ready(state: GameState) -> GameState:
    return state if TURN in state.rule_state else setup(state)


def turn_of(state: GameState) -> int:
    return int(_ready(state).rule_state[TURN])


def fired(state: GameState) -> tuple[str, ...]:
    """Units that have fired this turn (R000.3, R000.18: one attack each, our reading)."""
    return tuple(_ready(state).rule_state[FIRED])


def begins_turn(state: GameState, side: str) -> bool:
    """Whether a Logistics action by `side` starts the next game-turn: the side has had its
    Logistics go, or play has gone on to launches or combat (see the module docstring)."""
    state = _ready(state)
    return side in state.rule_state[LOGISTICS_DONE] or state.rule_state[STAGE] in (
        "launch",
        "combat",
    )


def next_turn(state: GameState) -> GameState:
    """A new game-turn: nobody has fired or spent LP, launch counts back to 0 (R000.17).
    Worked out once per state (every Logistics declaration weighed on it begins the turn
    from the same table)."""
    memo = memo_of(_NEXT_TURNS, state)
    found = memo.get(TURN)
    if found is None:
        begun = logistics.start_turn(_ready(state))
        found = memo[TURN] = begun.with_rule_state(
            **{TURN: turn_of(begun) + 1, STAGE: "", LOGISTICS_DONE: (), FIRED: (), LP_SPENT: ()}
        )
    return found


_NEXT_TURNS: dict[int, tuple[Any, dict]] = {}  # by the state's identity (`memo_of`)


def lp_spent(state: GameState, side: str) -> tuple[Fraction, Fraction]:
    """(fighter/missile LP, other LP) `side` has spent this game-turn (R000.16)."""
    for name, fighter_missile, other in _ready(state).rule_state[LP_SPENT]:
        if name == side:
            return Fraction(fighter_missile), Fraction(other)
    return Fraction(0), Fraction(0)


def _with_lp_spent(state: GameState, side: str, spent: tuple[Fraction, Fraction]) -> GameState:
    rows = [tuple(row) for row in state.rule_state[LP_SPENT] if row[0] != side]
    rows.append((side, fraction_text(spent[0]), fraction_text(spent[1])))
    return state.with_rule_state(**{LP_SPENT: tuple(sorted(rows))})


# --------------------------------------------------------------------------- choices


def actions(state: GameState, position: TurnPosition, side: str) -> tuple[ActionChoice, ...]:
    """What `side` may declare at `position` (the module docstring)."""
    state = _ready(state)
    phase = TURN_SEQUENCE.phases[position.phase].name
    if phase == LOGISTICS:
        if begins_turn(state, side):
            state = next_turn(state)
        return _logistics_choices(state, side)
    if phase == LAUNCH:
        return _launch_choices(state, side)
    return _attack_choices(state, side)


def buyers(state: GameState, side: str) -> tuple[Unit, ...]:
    """The side's ships and bases that can launch what it buys (launch capacity > 0)."""
    return tuple(
        u
        for u in state.units
        if u.side == side and profile(u).is_carrier and profile(u).launch_capacity > 0
    )


def _count_field(name: str, high: int, default: int, doc: str, spec_id: str) -> Field:
    return Field(name, "int", default=default, low=0, high=high, doc=doc, spec_id=spec_id)


def _logistics_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    options = combat.settings(state)
    limit = int(options["lp_limit"])
    spent_fm, spent_other = lp_spent(state, side)
    room = max(Fraction(0), limit - spent_fm)
    fields: list[Field] = []
    for unit in buyers(state, side):
        name = unit_name(state, unit.id)
        fields.append(
            _count_field(
                f"{unit.id}.{FIGHTERS}",
                int(room * FIGHTERS_PER_LP),
                0,
                f"fighters bought for {name} (1 LP buys {FIGHTERS_PER_LP})",
                "R000.15",
            )
        )
        fields.append(
            _count_field(
                f"{unit.id}.{MISSILES}",
                int(room * MISSILES_PER_LP),
                0,
                f"missiles bought for {name} (1 LP buys {MISSILES_PER_LP})",
                "R000.15",
            )
        )
    fields.append(
        _count_field(
            OTHER_LP,
            max(0, int(limit - spent_other)),
            0,
            f"LP spent on everything else this game-turn (its own limit of {limit} LP)",
            "R000.16",
        )
    )
    passing = ActionChoice(PASS, side, f"End {side}'s Logistics go", (), "R000.16")
    if len(fields) == 1:  # no ship or base to deliver to: nothing to buy
        return (passing,)
    return (
        ActionChoice(
            PURCHASE,
            side,
            f"{side}: logistics (fighters, missiles, other LP)",
            tuple(fields),
            "R000.16",
        ),
        passing,
    )


def launch_room(unit: Unit) -> tuple[int, int]:
    """(missiles, fighters) `unit` may launch now: twice its launch capacity in missiles
    (R000.17), its launch capacity in fighters (A000.13), what it carries at most."""
    card = profile(unit)
    if not card.is_carrier:
        return 0, 0
    missiles = min(card.missiles, launch_limit(card.launch_capacity) - card.launched)
    fighters = min(card.fighters, card.launch_capacity - card.fighters_launched)
    return max(0, missiles), max(0, fighters)


def launchers(state: GameState, side: str) -> tuple[Unit, ...]:
    """The side's ships and bases with something they may launch now."""
    return tuple(u for u in state.units if u.side == side and any(launch_room(u)))


def _launch_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    if state.rule_state[STAGE] == "combat":
        return ()
    fields: list[Field] = []
    for unit in launchers(state, side):
        missiles, fighters = launch_room(unit)
        name = unit_name(state, unit.id)
        if missiles:
            fields.append(
                _count_field(
                    f"{unit.id}.{MISSILES}",
                    missiles,
                    0,
                    f"missiles {name} launches (up to twice its launch capacity a turn)",
                    "R000.17",
                )
            )
        if fighters:
            fields.append(
                _count_field(
                    f"{unit.id}.{FIGHTERS}",
                    fighters,
                    0,
                    f"fighters {name} launches (up to its launch capacity a turn)",
                    "A000.13",
                )
            )
    if not fields:
        return ()
    return (
        ActionChoice(
            LAUNCH_KIND, side, f"{side}: launch fighters and missiles", tuple(fields), "R000.17"
        ),
    )


def _attack_choices(state: GameState, side: str) -> tuple[ActionChoice, ...]:
    options = combat.settings(state)
    done = set(fired(state))
    enemies = tuple(u for u in state.units if u.side != side)
    choices: list[ActionChoice] = []
    for unit in state.units:
        if unit.side != side or unit.id in done:
            continue
        card = profile(unit)
        for weapon in combat.weapons_of(unit):
            weapon_field = Field(
                "weapon",
                "str",
                required=True,
                default=weapon,
                choices=(weapon,),
                doc="the weapon fired",
                spec_id="R000.3",
            )
            title = f"{unit_name(state, unit.id)}: {weapon}"
            if weapon == combat.LASER:
                strength = card.laser_strength or 0
                in_reach = tuple(
                    t.id
                    for t in enemies
                    if to_hit_threshold(combat.measure(unit, t, options).range, strength)
                    is not None
                )
                if in_reach:
                    choices.append(
                        ActionChoice(
                            ATTACK,
                            unit.id,
                            title,
                            (weapon_field, _target_field(in_reach, "R000.6")),
                            "R000.3",
                        )
                    )
                continue
            count, rule = combat.available_missiles(card)
            if count < 1 or not enemies:
                continue
            declared = Field(
                "missiles",
                "int",
                required=True,
                default=count,
                low=1,
                high=count,
                doc="missiles attacking, declared before any is resolved",
                spec_id=rule,
            )
            hulls = tuple(t.id for t in enemies if profile(t).kind not in GROUPS)
            groups = tuple(t.id for t in enemies if profile(t).kind in GROUPS)
            if hulls:
                ciws = Field(
                    "ciws",
                    "bool",
                    default=bool(options["ciws_default"]),
                    doc="the target ship or base fires its CIWS at the declared missiles",
                    spec_id="R000.19",
                )
                choices.append(
                    ActionChoice(
                        ATTACK,
                        unit.id,
                        title,
                        (weapon_field, _target_field(hulls, "R000.18"), declared, ciws),
                        "R000.18",
                    )
                )
            if groups:
                choices.append(
                    ActionChoice(
                        ATTACK,
                        unit.id,
                        f"{title} (no CIWS: fighters and missiles)",
                        (weapon_field, _target_field(groups, "R000.25"), declared),
                        "R000.18",
                    )
                )
    return tuple(choices)


def _target_field(targets: tuple[str, ...], spec_id: str) -> Field:
    return Field(
        "target",
        "str",
        required=True,
        choices=targets,
        doc="the enemy unit attacked",
        spec_id=spec_id,
    )


# --------------------------------------------------------------------------- applying


def apply(state: GameState, action: Action, dice: Dice) -> Resolution:
    """Resolve a declared action (see `actions`); UserError citing the rule when refused."""
    state = _ready(state)
    if action.kind in (PURCHASE, PASS):
        return _logistics(state, action)
    if action.kind == LAUNCH_KIND:
        return _launch(state, action)
    if action.kind == ATTACK:
        return _attack(state, action, dice)
    raise UserError(
        f"rule system 'battlefleet-mars' has no action {action.kind!r}: expected one of "
        + ", ".join(KINDS)
    )


def _side(state: GameState, actor: str, kind: str, spec_id: str) -> str:
    sides = {u.side for u in state.units}
    if actor not in sides:
        raise UserError(
            f"a {kind} is declared by a side ({', '.join(sorted(sides))}), not {actor!r}",
            spec_id=spec_id,
        )
    return actor


@dataclass(frozen=True, slots=True)
class _Counts:
    """Per-unit counts of a side-level declaration, read from `<unit id>.<what>` keys."""

    by_unit: tuple[tuple[str, int, int], ...]  # (unit id, fighters, missiles)
    rest: Mapping[str, Any]


def _counts(params: Mapping[str, Any], allowed: tuple[str, ...], spec_id: str) -> _Counts:
    found: dict[str, dict[str, int]] = {}
    rest = {}
    for key, value in params.items():
        unit_id, dot, what = key.rpartition(".")
        if not dot or what not in (FIGHTERS, MISSILES):
            rest[key] = value
            continue
        if unit_id not in allowed:
            offer = ", ".join(allowed) or "none"
            raise UserError(
                f"{unit_id!r} cannot take part here: the units that can are {offer}",
                spec_id=spec_id,
            )
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise UserError(f"{key} must be a whole number >= 0, not {value!r}", spec_id=spec_id)
        found.setdefault(unit_id, {})[what] = value
    rows = tuple(
        (unit_id, found[unit_id].get(FIGHTERS, 0), found[unit_id].get(MISSILES, 0))
        for unit_id in allowed
        if unit_id in found
    )
    return _Counts(rows, rest)


def _logistics(state: GameState, action: Action) -> Resolution:
    side = _side(state, action.actor, "Logistics declaration", "R000.16")
    events: list[Event] = []
    if begins_turn(state, side):
        state = next_turn(state)
        events.append(Event.of("turn", "R000.16", turn=turn_of(state)))
    if action.kind == PASS:
        if action.params:
            raise UserError(f"pass takes no {', '.join(sorted(action.params))}")
        events.append(Event.of("logistics", "R000.16", side=side, purchased=False))
        return Resolution(_logistics_done(state, side), tuple(events), "pass")
    counts = _counts(action.params, tuple(u.id for u in buyers(state, side)), "R000.15")
    other = counts.rest.get(OTHER_LP, 0)
    unknown = sorted(set(counts.rest) - {OTHER_LP})
    if unknown:
        raise UserError(f"a purchase takes no {', '.join(unknown)}", spec_id="R000.15")
    if not isinstance(other, int) or isinstance(other, bool) or other < 0:
        raise UserError(f"other_lp must be a whole number >= 0, not {other!r}", spec_id="R000.16")
    options = combat.settings(state)
    limit = int(options["lp_limit"])
    fighters = sum(row[1] for row in counts.by_unit)
    missiles = sum(row[2] for row in counts.by_unit)
    cost = lp_cost(fighters, missiles, str(options["lp_granularity"]))
    spent_fm, spent_other = lp_spent(state, side)
    problems = budget_problems(limit, spent_fm + cost, spent_other + other)
    if problems:
        raise UserError(f"{side} this game-turn: " + "; ".join(problems), spec_id="R000.16")
    purchases = [
        logistics.Purchase(u, fighters=f, missiles=m) for u, f, m in counts.by_unit if f or m
    ]
    bought = logistics.resolve_purchase(state, purchases, other, limit)
    events.extend(bought.events)
    new_state = _with_lp_spent(bought.state, side, (spent_fm + cost, spent_other + other))
    return Resolution(_logistics_done(new_state, side), tuple(events), bought.summary)


def _logistics_done(state: GameState, side: str) -> GameState:
    done = tuple(state.rule_state[LOGISTICS_DONE])
    return state.with_rule_state(
        **{STAGE: "logistics", LOGISTICS_DONE: done if side in done else (*done, side)}
    )


def _launch(state: GameState, action: Action) -> Resolution:
    side = _side(state, action.actor, "launch", "R000.17")
    if state.rule_state[STAGE] == "combat":
        raise UserError(
            "launches are made in the Launch phase, before the tactical combat sequence",
            spec_id="R000.17",
        )
    counts = _counts(action.params, tuple(u.id for u in launchers(state, side)), "R000.17")
    if counts.rest:
        raise UserError(f"a launch takes no {', '.join(sorted(counts.rest))}", spec_id="R000.17")
    events: list[Event] = [
        Event.of(
            "launch-declared",
            "R000.17",
            side=side,
            missiles=sum(m for _, _, m in counts.by_unit),
            fighters=sum(f for _, f, _ in counts.by_unit),
        )
    ]
    summary = []
    for unit_id, fighters, missiles in counts.by_unit:
        if not fighters and not missiles:
            continue
        launched = logistics.resolve_launch(state, unit_id, missiles=missiles, fighters=fighters)
        state = launched.state
        events.extend(launched.events)
        summary.append((unit_id, missiles, fighters))
    return Resolution(state.with_rule_state(**{STAGE: "launch"}), tuple(events), tuple(summary))


def _attack(state: GameState, action: Action, dice: Dice) -> Resolution:
    if action.actor in fired(state):
        raise UserError(
            f"{action.actor!r} has fired this turn: each unit makes one attack a turn "
            "(no fire groups; our reading)",
            spec_id="R000.3",
        )
    weapon, target, params = attack_declaration(action)
    attack = combat.declare(state, action.actor, weapon, target, params)
    attacker = state.unit(action.actor)
    if state.unit(attack.target).side == attacker.side:
        raise UserError(
            f"{attack.target!r} is on {attacker.side}'s own side: attacks are at the enemy",
            spec_id="R000.3",
        )
    resolution = combat.resolve_declared(state, attack, dice)
    new_state = resolution.state.with_rule_state(
        **{STAGE: "combat", FIRED: (*fired(state), action.actor)}
    )
    return Resolution(new_state, resolution.events, resolution.summary)


# --------------------------------------------------------------------------- odds


def action_odds(state: GameState, action: Action, rules_id: str) -> OddsReport | None:
    """Exact odds of an attack (`combat.attack_odds`); purchases, launches and passes roll
    nothing, so they have none."""
    if action.kind != ATTACK:
        return None
    weapon, target, params = attack_declaration(action)
    attack = combat.declare(state, action.actor, weapon, target, params)
    return combat.attack_odds(state, attack, rules_id)
