"""Exact odds of heavy and ordinary attacks in every rule system, and of plain dice pools,
as data: what the test of unchanged odds compares. A faster enumeration (a sum of dice
convolved instead of replayed, say) must leave every outcome's exact probability, and
the order the outcomes are listed in, as they were.

Run as a script to write the record from the code as it stands:

    .venv/bin/python tests/dice/odds_record.py > tests/data/odds-record.json
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tactical.dice import Distribution
from tactical.dice.exact import fraction_text
from tactical.dice.notation import expression_odds, parse_expression
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import (
    Board,
    CircleBase,
    FrozenMap,
    GameState,
    MovementClass,
    Pose,
    RectBase,
    SizeClass,
    Unit,
)
from tactical.rules import registry
from tactical.rules.base import OddsReport
from tactical.session.game import Game

POOLS = ("3d6", "10d6", "2d6+1d10z-3", "20d10", "d3+2d6", "4d6-2d4", "d12+d10+d8", "d4+d4",
         "(d12+d2)-2step", "5D+2", "14D", "2D+2+1D+2")  # fmt: skip
SCENARIO_SEED = 100  # the greedy game whose positions give the ordinary attacks
EVERY = 3  # a position every this many steps
PER_SYSTEM = 24  # ordinary reports kept per rule system


def _unit(unit_id: str, x: float, y: float, side: str, base, heading: float = 0.0,
          movement: MovementClass = MovementClass.SPACE, size: SizeClass | None = None,
          **stats: Any) -> Unit:  # fmt: skip
    extra = () if size is None else (size,)
    return Unit(unit_id, unit_id, side, Pose(x, y, heading), base, movement, *extra,
                stats=FrozenMap(stats))  # fmt: skip


def heavy_combat_photon(**options: Any) -> tuple[GameState, Any]:
    """Heavy Combat: a photon at range 1 into a ship with its shields down (cloak engaging),
    under the given options (the defaults when none)."""
    from tactical.rules.heavy_combat.duel import from_rule_state, to_rule_state

    system = registry.get("heavy-combat")
    state = system.setup(
        GameState(
            "heavy-combat",
            Board(72, 48),
            options=FrozenMap(options),
            units=(
                _unit("a", 20.0, 24.0, "A", RectBase(1.5, 3.0), 90.0),
                _unit("b", 26.0, 24.0, "B", RectBase(1.5, 3.0), 270.0),
            ),
        )
    )
    duel = from_rule_state(state)
    state = to_rule_state(state, duel.with_ship("b", replace(duel.ship("b"), cloak="engaging")))
    return state, system.declare_attack(state, "a", "photon-1", "b")


def heavy_combat_phasers() -> tuple[GameState, Any]:
    state, _ = heavy_combat_photon()
    system = registry.get("heavy-combat")
    moved = state.replace_unit(replace(state.unit("b"), pose=Pose(38.0, 24.0, 270.0)))
    return moved, system.declare_attack(moved, "a", "phasers", "b", {"power": 2})


CORTEX_TARGET_SYSTEMS = [
    {"name": "guns", "damage": "d12", "count": 12},
    {"name": "point-defense", "kind": "point-defense", "damage": "d10", "range": "skirmish"},
    {"name": "missiles", "kind": "missile", "damage": "4d6", "missiles": 6},
]


def _cortex(attacker: dict, target: dict) -> GameState:
    system = registry.get("cortex-space")
    state = GameState(
        "cortex-space",
        Board(72, 48),
        units=(
            _unit("a", 10, 24, "A", CircleBase(2.0), **attacker),
            _unit("t", 40, 24, "B", CircleBase(2.0), **target),
        ),
    )
    return system.setup(state)


def cortex_railguns(battery: int = 6) -> tuple[GameState, Any]:
    """Cortex: a battery of railguns against a basestar at half its Life Points."""
    galactica = {"agility": "d4", "gunnery": "d8", "life_points": 60,
                 "weapons": [{"name": "railguns", "damage": "d12+d2", "count": 24}]}  # fmt: skip
    basestar = {"agility": "d4", "pilot": "d6", "life_points": 60, "wound": 30, "ftl": True,
                "armor_wound": 2, "armor_stun": 2, "weapons": CORTEX_TARGET_SYSTEMS}  # fmt: skip
    state = _cortex(galactica, basestar)
    system = registry.get("cortex-space")
    return state, system.declare_attack(state, "a", "railguns", "t", {"battery": battery})


def cortex_light() -> tuple[GameState, Any]:
    ship = {"agility": "d4", "gunnery": "d4", "weapons": [{"name": "gun", "damage": "d4"}]}
    target = {"agility": "d4", "pilot": "d4", "life_points": 20, "wound": 10, "ftl": True,
              "weapons": CORTEX_TARGET_SYSTEMS[:1]}  # fmt: skip
    state = _cortex(ship, target)
    return state, registry.get("cortex-space").declare_attack(state, "a", "gun", "t")


def sw_heavy_turbolasers() -> tuple[GameState, Any]:
    """SW D6: 11D gunnery against Full Evasion, 14D damage against 12D resistance."""
    from tactical.rules.sw_d6_capital import ledger

    system = registry.get("sw-d6-capital")
    gun = {"name": "Heavy Turbolasers", "fire_control": "5D", "damage": "8D",
           "battery": "6D", "ranges": "3-15/35/75"}  # fmt: skip
    state = system.setup(
        GameState(
            "sw-d6-capital",
            Board(72, 48),
            units=(
                _unit("a", 30, 10, "A", CircleBase(1.0), 0, scale="capital", weapons=[gun]),
                _unit("t", 30, 12.5, "B", CircleBase(1.0), 180, scale="capital", hull="8D",
                      shields="4D", shield_arcs={"front": "4D"}, maneuverability="2D",
                      cso="5D"),
            ),
        )
    )  # fmt: skip
    target = ledger.condition(state, "t")
    state = ledger.with_condition(state, "t", replace(target, order="full-evasion"))
    attack = system.declare_attack(
        state, "a", "front-heavy-turbolasers", "t", {"battery_damage": "6D"}
    )
    return state, attack


def dystopian_broadside(dice: int = 10) -> tuple[GameState, Any]:
    """Dystopian Wars: a squadron of three battleships linking a broadside at a shielded
    Massive model (dice >= 10), or one ship's small broadside."""
    system = registry.get("dystopian-wars")
    turrets = {"name": "Main turrets", "kind": "gunnery", "arc": "all-round",
               "attack_dice": f"{dice}-{dice}-{dice}-{dice}"}  # fmt: skip
    squadron = [
        _unit(f"bb{i}", 20 + 4 * i, 10, "A", RectBase(1.5, 4.5), 0.0, MovementClass.NAVAL,
              SizeClass("large"), squadron="line", weapons=(turrets,))
        for i in range(3 if dice >= 10 else 1)
    ]  # fmt: skip
    target = _unit("fortress", 24, 22, "B", RectBase(1.5, 4.5), 0.0, MovementClass.NAVAL,
                   SizeClass("massive"), generators="guardian", shield_generator=True,
                   damage_rating=9, critical_rating=14, hull_points=12)  # fmt: skip
    state = GameState("dystopian-wars", Board(72, 48), units=(*squadron, target))
    linked = [u.id for u in squadron[1:]]
    return state, system.declare_attack(
        state, "bb0", "Main turrets", "fortress", {"linked": linked} if linked else {}
    )


HEAVY: dict[str, Callable[[], tuple[GameState, Any]]] = {
    "heavy-combat photon at range 1, shields down": heavy_combat_photon,
    "heavy-combat phasers 2 into a ship with shields down": heavy_combat_phasers,
    "cortex-space 6-railgun battery": cortex_railguns,
    "cortex-space 2-railgun battery": lambda: cortex_railguns(2),
    "cortex-space light gun": cortex_light,
    "sw-d6-capital heavy turbolasers": sw_heavy_turbolasers,
    "dystopian-wars 20-dice linked broadside": dystopian_broadside,
    "dystopian-wars 3-dice broadside": lambda: dystopian_broadside(3),
}


def section_rows(distribution: Distribution) -> list[list[str]]:
    return [[repr(outcome), fraction_text(p)] for outcome, p in distribution.pairs]


def report_rows(report: OddsReport | None) -> Any:
    if report is None:
        return None
    return [[section.name, section_rows(section.distribution)] for section in report.sections]


def heavy_reports() -> dict[str, Any]:
    found = {}
    for name, build in HEAVY.items():
        state, attack = build()
        found[name] = report_rows(registry.get(state.rules).attack_odds(state, attack))
    return found


def ordinary_reports(rules_id: str) -> list[dict[str, Any]]:
    """The odds of every attack and roll offered at positions of a recorded greedy game of
    the built-in scenario (the first `PER_SYSTEM` that have odds)."""
    from tactical.agents import play_game
    from tactical.agents.candidates import candidates

    state = load_map(builtin_map(rules_id))
    record = play_game(state, SCENARIO_SEED, {side: "greedy" for side in state.sides})
    game = Game.new(state, SCENARIO_SEED)
    found: list[dict[str, Any]] = []
    for number, step in enumerate(record.game.steps):
        if number % EVERY == 0 and not game.over:
            for candidate in candidates(game, table_moves=False, paths_per_move=1):
                action = candidate.action
                if candidate.is_pass or candidate.is_move:
                    continue
                try:
                    report = game.odds(action)
                except UserError:
                    continue
                if report is None:
                    continue
                found.append({"step": number, "action": [action.kind, action.actor],
                              "params": repr(sorted(action.params.items())),
                              "odds": report_rows(report)})  # fmt: skip
                if len(found) >= PER_SYSTEM:
                    return found
        game = game.apply(step.action, forced=step.forced)
    return found


def pool_rows() -> dict[str, Any]:
    return {text: section_rows(expression_odds(parse_expression(text))) for text in POOLS}


def record() -> dict[str, Any]:
    return {
        "pools": pool_rows(),
        "heavy": heavy_reports(),
        "ordinary": {rules_id: ordinary_reports(rules_id) for rules_id in registry.rule_ids()},
    }


if __name__ == "__main__":
    print(json.dumps(record(), indent=0, sort_keys=True))
