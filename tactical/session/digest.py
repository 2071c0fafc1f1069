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
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tactical.io.maps import map_document, terrain_table, unit_table
from tactical.model import FrozenMap, GameState, Terrain, Unit, thaw
from tactical.model.frozen import remembered
from tactical.rules.base import TurnPosition

DIGEST_SCHEME = "sha256-1"


def state_digest(state: GameState, position: TurnPosition) -> str:
    """`DIGEST_SCHEME:hex` of the table, its bookkeeping and the turn position."""
    text = digest_text(state, position)
    return f"{DIGEST_SCHEME}:{hashlib.sha256(text.encode()).hexdigest()}"


def digest_text(state: GameState, position: TurnPosition) -> str:
    """What is hashed: the JSON, keys sorted, of `{"map": map_document(state), "position":
    [turn, phase, side, passes], "rule_state": rule_state}` (`reference_text`), written
    piece by piece so that a unit, a terrain piece or a bookkeeping table a step left as it
    was is written once, not at every autosaved step (a step changes a few of them)."""
    bare = map_document(replace(state, terrain=(), units=()))
    items = {key: _dumps(value) for key, value in bare.items()}
    if state.terrain:
        items["terrain"] = _list_text(state.terrain, _terrain_text)
    if state.units:
        items["unit"] = _list_text(state.units, _unit_text)
    position_list = [position.turn, position.phase, position.side, position.passes]
    document = {
        "map": _object_text(items),
        "position": _dumps(position_list),
        "rule_state": _table_text(state.rule_state, 0),
    }
    return _object_text(document)


def reference_text(state: GameState, position: TurnPosition) -> str:
    """`digest_text` written in one go, as the scheme defines it (what tests compare with)."""
    document: dict[str, Any] = {
        "map": map_document(state),
        "rule_state": thaw(state.rule_state),
        "position": [position.turn, position.phase, position.side, position.passes],
    }
    return json.dumps(document, sort_keys=True, ensure_ascii=True, allow_nan=True, default=repr)


# the encoder's own settings, with its default separators (", " and ": ")
_dumps = json.JSONEncoder(
    sort_keys=True, ensure_ascii=True, allow_nan=True, default=lambda value: _plain(value)
).encode
_KEY = json.JSONEncoder(ensure_ascii=True).encode
_TEXTS: dict[int, tuple[Any, str]] = {}  # by identity: units, pieces and frozen tables
_MOST = 20_000
_DEPTH = 2  # tables nearer the top than this are written key by key (a step changes them)


def _plain(value: Any) -> Any:
    """A value the encoder does not know: a frozen table as its dict (what `thaw` gives),
    anything else as its repr (as the scheme says)."""
    if isinstance(value, FrozenMap):
        return value._data
    if isinstance(value, Mapping):
        return dict(value)
    return repr(value)


def _object_text(items: Mapping[str, str]) -> str:
    return "{" + ", ".join(f"{_KEY(key)}: {items[key]}" for key in sorted(items)) + "}"


def _list_text(values: Any, text_of: Any) -> str:
    return "[" + ", ".join(text_of(value) for value in values) + "]"


def _unit_text(unit: Unit) -> str:
    return remembered(_TEXTS, unit, lambda u: _dumps(unit_table(u)), _MOST)


def _terrain_text(piece: Terrain) -> str:
    return remembered(_TEXTS, piece, lambda p: _dumps(terrain_table(p)), _MOST)


def _table_text(value: Any, depth: int) -> str:
    """A bookkeeping value's JSON: a frozen table near the top key by key, deeper ones
    whole, each remembered while it lives."""
    if type(value) is not FrozenMap:
        return _dumps(value)
    if depth >= _DEPTH:
        return remembered(_TEXTS, value, _dumps, _MOST)
    return remembered(
        _TEXTS,
        value,
        lambda table: _object_text({k: _table_text(v, depth + 1) for k, v in table.items()}),
        _MOST,
    )


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
