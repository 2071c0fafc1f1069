"""A game's fingerprint (`session.digest`): what an online step carries and a save records."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import FrozenMap
from tactical.session import autoplay
from tactical.session.digest import (
    DIGEST_SCHEME,
    digest_text,
    game_digest,
    reference_text,
    same_scheme,
    state_digest,
)
from tactical.session.game import Game

# Recorded once: a change to what the digest hashes changes these, and must change
# DIGEST_SCHEME too (saves recorded under the old scheme are then not compared).
RECORDED = {
    "battlefleet-mars": "sha256-1:ca5082d9973548307f25cc7dd365643e30994f8290508a63bb1c459a79303bc1",
    "heavy-combat": "sha256-1:a5f9d7bc76083f528abbd67d803ea9ee267a19f1c96e0e41cb3f4ece60eec677",
}


def _played(rules: str) -> Game:
    game = Game.new(load_map(builtin_map(rules)), 1)
    for _ in range(5):
        game = autoplay.next_game(game)
    return game


@pytest.mark.parametrize("rules", sorted(RECORDED))
def test_the_digest_of_a_game_is_stable_under_its_scheme(rules):
    assert DIGEST_SCHEME == "sha256-1"
    assert game_digest(_played(rules)) == RECORDED[rules]


def test_everything_a_step_changes_changes_the_digest():
    game = _played("battlefleet-mars")
    digest = game_digest(game)
    unit = game.state.units[0]
    nudged = replace(unit, pose=replace(unit.pose, x=unit.pose.x + 0.001))
    moved = replace(game.state, units=(nudged, *game.state.units[1:]))
    assert state_digest(moved, game.position) != digest
    booked = replace(game.state, rule_state=FrozenMap({**game.state.rule_state, "turn": 99}))
    assert state_digest(booked, game.position) != digest
    assert state_digest(game.state, replace(game.position, passes=7)) != digest
    assert same_scheme(digest) and not same_scheme("sha256-0:00")


@pytest.mark.parametrize(
    "rules",
    ["battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital"],
)
def test_the_digest_written_piece_by_piece_is_the_schemes_one_text_step_by_step(rules):
    """The remembered pieces (units, terrain, bookkeeping tables a step left alone) give
    the very text the scheme defines, at every step of a game, in every rule system."""
    game = Game.new(load_map(builtin_map(rules)), 3)
    for _ in range(30):
        assert digest_text(game.state, game.position) == reference_text(game.state, game.position)
        game = autoplay.next_game(game)
        if game.over:
            break
    # a value the encoder does not know is written as its repr, in both
    odd = replace(game.state, rule_state=FrozenMap({"a": FrozenMap({"b": FrozenMap({"c": {1}})})}))
    assert digest_text(odd, game.position) == reference_text(odd, game.position)
    assert '"c": "{1}"' in digest_text(odd, game.position)
