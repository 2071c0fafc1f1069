"""Heavy Combat in words (issue 13): refused declarations with the ships by name, an option's
key as words and the rule cited (`RuleSystem.unavailable`); declarations said in words."""

from __future__ import annotations

from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action
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


def test_R001_3_a_declaration_with_yes_or_no_and_snake_case_values_is_said_in_words():
    game = Game.new(load_map(builtin_map("heavy-combat")), 1)
    action = Action("fire", "enterprise", FrozenMap(weapon="phasers", bypass_shields=True))
    said = game.system.describe_resolution(game.state, action, ())
    assert said == "USS Enterprise (Fed CA) declares fire: weapon phasers, bypass shields yes"
