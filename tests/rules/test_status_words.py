"""What each rule system says to a player is plain words: over a scripted game in
every system, every unit's status (values, help, marks, weapons), the values it may set by
hand, the actions refused with their reasons and each step's summary; scanned with the
checker the play screen's scan uses (tests/plain_words.py)."""

from __future__ import annotations

import pytest
from plain_words import code_like

from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.session.autoplay import next_game
from tactical.session.game import Game

STEPS = 40


def said(game: Game) -> list[str]:
    texts = [game.last_step.words] if game.steps else []
    system, state = game.system, game.state
    for unit in state.units:
        status = system.unit_status(state, unit)
        for value in status.values:
            texts += [f"{value.label}: {value.text}", value.help]
        texts += list(status.marks)
        for weapon in status.weapons:
            texts += [weapon.name, weapon.arc, weapon.ranges, weapon.attack, weapon.shots]
        texts += [f"{f.label}: {f.doc}" for f in system.status_fields(state, unit)]
    for side in game.sides:
        for refused in system.unavailable(state, game.position, side):
            texts += [refused.title, refused.reason]
    return texts


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_status_reasons_and_summaries_read_as_words(rules_id):
    game = Game.new(load_map(builtin_map(rules_id)), 3)
    for _ in range(STEPS):
        if game.over:
            break
        for text in said(game):
            assert not code_like(text), (rules_id, game.phase_name, text)
        game = next_game(game)
