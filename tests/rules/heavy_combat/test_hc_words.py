"""Heavy Combat in words: refused declarations with the ships by name, an option's
key as words and the rule cited (`RuleSystem.unavailable`); declarations said in words."""

from __future__ import annotations

from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules.base import Action, Event
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
    assert refused["retreat one range band (1 point): USS Enterprise (Fed CA)"] == (
        "USS Enterprise (Fed CA) is at range 3: retreating beyond 3 is not allowed in this "
        "scenario (option allow disengage)",
        "A001.18",
    )


def test_R001_3_a_declaration_with_yes_or_no_and_snake_case_values_is_said_in_words():
    game = Game.new(load_map(builtin_map("heavy-combat")), 1)
    action = Action("fire", "enterprise", FrozenMap(weapon="phasers", bypass_shields=True))
    said = game.system.describe_resolution(game.state, action, ())
    assert said == "USS Enterprise (Fed CA) declares fire: phasers, bypass shields yes"


def test_R001_3_a_fire_declaration_names_its_weapon_and_target_in_words():
    """ "photon 1 at IKS Kronos (Klingon HC), general mode", never "weapon photon-1, target
    kronos, mode general"; the power spent is said once, in the tail."""
    game = Game.new(load_map(builtin_map("heavy-combat")), 1)
    action = Action(
        "fire", "enterprise", FrozenMap(weapon="photon-1", target="kronos", mode="general")
    )
    said = game.system.describe_resolution(game.state, action, ())
    assert said == (
        "USS Enterprise (Fed CA) declares fire: photon 1 at IKS Kronos (Klingon HC), general mode"
    )
    spent = Event.of("declare", "R001.5", cost=3, spent=3, power=8)
    phasers = Action(
        "fire", "enterprise", FrozenMap(weapon="phasers", target="kronos", power=3, mode="general")
    )
    assert game.system.describe_resolution(game.state, phasers, (spent,)) == (
        "USS Enterprise (Fed CA) declares fire: phasers at IKS Kronos (Klingon HC), general "
        "mode (3 power, 3 of 8 spent)"
    )
