"""Heavy Combat's refused declarations in words (issue 13): the ships by name, an option's key
as words, the rule cited (`RuleSystem.unavailable`)."""

from __future__ import annotations

from tactical.io import builtin_map, load_map
from tactical.session.autoplay import next_game
from tactical.session.game import Game


def test_A001_18_a_retreat_past_range_3_is_refused_in_words():
    game = Game.new(load_map(builtin_map("heavy-combat")), 1)
    while game.phase_name != "Reaction movement":
        game = next_game(game)
    refused = {
        r.title: (r.reason, r.spec_id)
        for r in game.system.unavailable(game.state, game.position, "Federation")
    }
    assert refused["USS Enterprise (Fed CA): retreat one range band (1 point)"] == (
        "USS Enterprise (Fed CA) is at range 3: retreating beyond 3 is not allowed in this "
        "scenario (option allow disengage)",
        "A001.18",
    )
