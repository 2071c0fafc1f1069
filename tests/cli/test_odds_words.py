"""`tactical odds` speaks plain words: in every rule system the text output names
the units, labels every fact and distribution, and nothing reads like code (`in_arc: True`,
`split_to: None`, a repr); scanned with the checker the play screen's scan uses."""

from __future__ import annotations

import pytest
from plain_words import code_like

from tactical.cli import main
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.rules.base import unit_name

ATTACKS_PER_SYSTEM = 3  # the first legal attacks on the scenario, one per weapon


def legal_attacks(rules_id: str) -> list[tuple[str, str, str]]:
    state = load_map(builtin_map(rules_id))
    system = registry.get(rules_id)
    options = system.options(dict(state.options))
    found: list[tuple[str, str, str]] = []
    weapons_seen: set[str] = set()
    for attacker in state.units:
        for weapon in system.weapons(attacker, options):
            if weapon in weapons_seen:
                continue
            for target in state.units:
                if target.side == attacker.side:
                    continue
                try:
                    system.declare_attack(state, attacker.id, weapon, target.id, {})
                except UserError:
                    continue
                found.append((attacker.id, weapon, target.id))
                weapons_seen.add(weapon)
                break
            if len(found) == ATTACKS_PER_SYSTEM:
                return found
    return found


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_every_line_of_the_odds_is_plain_words(capsys, rules_id):
    attacks = legal_attacks(rules_id)
    assert attacks, f"{rules_id}: no legal attack on its scenario"
    for attacker, weapon, target in attacks:
        assert main(["odds", str(builtin_map(rules_id)), attacker, weapon, target]) == 0
        out = capsys.readouterr().out
        state = load_map(builtin_map(rules_id))
        assert out.startswith(
            f"{unit_name(state, attacker)} attacks {unit_name(state, target)} with "
        )
        assert "%" in out and "chance" in out
        for line in out.splitlines():
            assert not code_like(line), (rules_id, weapon, line)


def test_the_checker_catches_what_the_old_output_printed():
    """The scan can fail: the lines the command used to print are caught."""
    for line in ("  in_arc: True", "  split_to: None", "   False   80.0000%  4/5"):
        assert code_like(line), line
