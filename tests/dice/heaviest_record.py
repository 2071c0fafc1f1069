"""The heaviest exact odds of each rule system, as data: the full distribution of every
section, outcome by outcome as exact fractions and in the order they are listed, written
by the code before the heaviest enumerations were made fast (sub-rolls read once, the
internal-hit chart stepped by its sub-roll, the Initiative rounds shared). The test of
unchanged heaviest odds compares the code as it stands against it; this file, run, writes
it again: `.venv/bin/python tests/dice/heaviest_record.py > tests/data/heaviest-odds.json`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import odds_record as recorded
from odds_record import report_rows

from tactical.io import builtin_map, load_map
from tactical.model import Board, CircleBase, FrozenMap, GameState
from tactical.rules import registry
from tactical.rules.base import Action, OddsReport


def battlefleet_salvo(count: int = 9) -> OddsReport | None:
    """Battlefleet Mars: a salvo of missiles into a base's CIWS (R000.14)."""
    system = registry.get("battlefleet-mars")
    state = GameState(
        "battlefleet-mars",
        Board(48, 48),
        units=(
            recorded._unit("a", 10, 10, "A", CircleBase(0.5), type="missile", count=count),
            recorded._unit("t", 13, 10, "B", CircleBase(0.5), type="base"),
        ),
    )
    return system.attack_odds(state, system.declare_attack(state, "a", "missiles", "t"))


def sw_initiative() -> OddsReport | None:
    """SW D6: the Initiative contest of the built-in scenario's six captains."""
    system = registry.get("sw-d6-capital")
    state = system.setup(load_map(builtin_map("sw-d6-capital")))
    return system.action_odds(state, Action("initiative", state.sides[0], FrozenMap()))


def _attack(build: Callable[[], tuple[GameState, Any]]) -> Callable[[], OddsReport | None]:
    def odds() -> OddsReport | None:
        state, attack = build()
        return registry.get(state.rules).attack_odds(state, attack)

    return odds


HEAVIEST: dict[str, Callable[[], OddsReport | None]] = {
    "battlefleet-mars 9-missile salvo": battlefleet_salvo,
    "heavy-combat photon at range 1, shields down": _attack(recorded.heavy_combat_photon),
    "heavy-combat photon at range 1, shields down, 2d6 damage": _attack(
        lambda: recorded.heavy_combat_photon(tracking_damage_die="2d6")
    ),
    "cortex-space 6-railgun battery": _attack(recorded.cortex_railguns),
    "sw-d6-capital heavy turbolasers": _attack(recorded.sw_heavy_turbolasers),
    "sw-d6-capital initiative of six captains": sw_initiative,
    "dystopian-wars 20-dice linked broadside": _attack(recorded.dystopian_broadside),
}


def heaviest_reports() -> dict[str, Any]:
    return {name: report_rows(odds()) for name, odds in HEAVIEST.items()}


if __name__ == "__main__":
    print(json.dumps(heaviest_reports(), indent=0, sort_keys=True))
