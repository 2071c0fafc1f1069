"""The command line's text output names units and terrain by their names, in every rule
system: `check`, `move`, `threat` and `replay` print no id where a name belongs and nothing
that reads like code (the scan of the play screen, `plain_words`, run over their lines).
The ids a person typed on the command line are theirs to read back only in its usage."""

from __future__ import annotations

import pytest
from plain_words import code_like, ids_shown

from tactical.cli import main
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.saving import save_game

REPLAY_STEPS = 12


def _ids(rules_id: str) -> set[str]:
    state = load_map(builtin_map(rules_id))
    return {u.id for u in state.units} | {t.id for t in state.terrain}


def _plain(out: str, ids: set[str]) -> dict[str, str]:
    seen: dict[str, str] = {}
    for line in out.splitlines():
        for bad in code_like(line) + ids_shown(line, ids):
            seen.setdefault(bad, line)
    return seen


def _commands(rules_id: str, tmp_path) -> list[list[str]]:
    state = load_map(builtin_map(rules_id))
    path = str(builtin_map(rules_id))
    first = state.units[0]
    enemy = next(u for u in state.units if u.side != first.side)
    game = Session.new(state, 3).game
    for _ in range(REPLAY_STEPS):
        if game.over:
            break
        game = autoplay.next_game(game)
    saved = tmp_path / "game.json"
    save_game(game, saved)
    return [
        ["check", path, "--unit", first.id],
        ["move", path, first.id, "F1"],
        ["threat", path, "--side", enemy.side, "--unit", enemy.id],
        ["replay", str(saved)],
    ]


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_the_commands_print_names_not_ids(rules_id, capsys, tmp_path):
    ids = _ids(rules_id)
    seen: dict[str, str] = {}
    for command in _commands(rules_id, tmp_path):
        assert main(command) == 0, command
        for bad, line in _plain(capsys.readouterr().out, ids).items():
            seen.setdefault(f"{command[0]}: {bad}", line)
    assert seen == {}, "\n".join(f"{k!r}: {v[:160]!r}" for k, v in seen.items())
