"""A game's fingerprint: one hash of everything a step can change.

`game_digest` hashes the table (board, options, terrain, units with every field a map
holds, as `io.maps.map_document` writes them), the rule system's bookkeeping
(`rule_state`) and where play stands (turn, phase, side, passes). Two games with the same
digest are the same game for every purpose of play. It is what an online step carries so
that a player's copy can be checked against the server's after every step, and what a
save records of its last game, so that a save whose starting `rule_state` or actions were
changed by hand is caught on opening: its actions no longer replay to the game it recorded.

`DIGEST_SCHEME` names how the hash is made; a save or message from another scheme is not
compared (a later version that adds a field to the map changes every digest).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tactical.io.maps import map_document
from tactical.model import GameState, thaw
from tactical.rules.base import TurnPosition

DIGEST_SCHEME = "sha256-1"


def state_digest(state: GameState, position: TurnPosition) -> str:
    """`DIGEST_SCHEME:hex` of the table, its bookkeeping and the turn position."""
    document: dict[str, Any] = {
        "map": map_document(state),
        "rule_state": thaw(state.rule_state),
        "position": [position.turn, position.phase, position.side, position.passes],
    }
    text = json.dumps(document, sort_keys=True, ensure_ascii=True, allow_nan=True, default=repr)
    return f"{DIGEST_SCHEME}:{hashlib.sha256(text.encode()).hexdigest()}"


def game_digest(game: Any) -> str:
    """The digest of a `session.game.Game` (its state and position), made once per game
    value (a step is autosaved and, online, broadcast with it)."""
    memo = game._memo
    if "digest" not in memo:
        memo["digest"] = state_digest(game.state, game.position)
    return memo["digest"]


def same_scheme(digest: str) -> bool:
    """Whether a recorded digest was made the way this version makes them."""
    return digest.split(":", 1)[0] == DIGEST_SCHEME
