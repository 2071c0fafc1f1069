"""Saved games as JSON: the starting map, the seed, the actions and the cursor.

A save holds what is needed to rebuild a game by replaying it, nothing more:

    {"format": "tactical-save", "version": 3,
     "rules": id, "seed": n,
     "map": {...the map document of io.maps.map_document, as in a map file...},
     "defaults": {...the rule system's option defaults the map leaves to it...},
     "rule_state": {...}          (only when the starting map had any),
     "settings": {"take_forced_steps": false}  (only when a setting is not its default),
     "cursor": k,                 (the step shown: 0..len(actions))
     "actions": [{"kind", "actor", "params": {...}, "rolls": [results...],
                  "forced": reason (only for a step the game took by itself),
                  "fair": {...} (only for dice made from the players' nonces)}],
     "fair": {"commitments": [...], "players": [...]}  (only for such a game),
     "chat": [{"step": n, "side": name, "text": line}]  (only when the players wrote any),
     "pending": {"action": {...}, "by", "chain", "index", "fresh": {...}}  (a game by file
                  whose next step waits for its dice),
     "digest": "sha256-1:..."}    (the game the actions replay to, version 3)

`digest` (version 3) is the fingerprint of the game at the end of the saved line
(`session.digest`): a save whose starting `rule_state` or actions were changed by hand
replays to another game, and opening it says so. `fair` holds the chain heads the players
published and, for each step whose dice came from their nonces, how its seed was made
(`dice.fair`): `tactical verify` checks them. `pending` (a game played by file,
`session.by_file`) is the step after the last action: its action is fixed, and its dice
wait for the other players' nonces (`fresh`) and then for value `index` of chain `chain`
of the side `by`; it is applied when that side reveals the value.

`forced` marks a step no one chose: the game took it because the rules left no choice
(`tactical.session.forced`), and says why. A replay applies it as recorded, with its
mark, and never derives such steps again: a save without marks (made before the game
took steps by itself) replays exactly as it was played. `settings` holds the game's
settings of play: `take_forced_steps` (default true) whether a step that is the only
one open is taken for the player.

`defaults` records the rule system's defaults for every option the map leaves out
(version 2), so a game plays again by the readings it was played under after a later
version changes a default: a recorded default that differs from today's is made
explicit on loading. A version 1 save recorded none: an option added since to revise a
reading is absent from it and is read with the value that plays the earlier reading
(`Field.before`, `rules.schema.earlier_readings`).

`rule_state` is the bookkeeping of the table the game started from (a map carries none,
so a game started on a map saves none): when a save has one, every key the rule system's
setup keeps for the map must be in it with a value of the same kind (`_check_rule_state`).
Each action's `params` are the ones its choice takes: a key no offered choice of its kind
and actor has (no adjustment of its `op`) is refused by name, `actions[i].params.KEY`
(`tactical.session.saving`).

`rolls` are the results the step's dice gave when it was played; whoever
replays the save (`tactical.session.saving`) checks them. Everything is
plain data (no pickling, nothing evaluated). Writing is atomic (a temporary
file and a rename, `io.maps.write_text_atomic`): a crash leaves the old save
or the new one, never half of one. A bad save is a `SaveError` naming the
file, the key and what was expected.
"""

from __future__ import annotations

import contextlib
import json
import os
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

from tactical.dice.fair import FairLedger, FairRoll, is_nonce
from tactical.errors import UserError
from tactical.io.files import read_input, write_text_atomic
from tactical.io.limits import MAX_DEPTH, nesting_problem
from tactical.io.maps import MapError, loads_map, map_document
from tactical.model import FrozenMap, GameState, freeze, thaw
from tactical.records import field_dict
from tactical.rules import registry
from tactical.rules.schema import earlier_readings

SAVE_FORMAT = "tactical-save"
SAVE_VERSION = 3
# 1: before saves recorded the options in force; 2: before they recorded their last game's
# digest and the players' nonces
READABLE_VERSIONS = (1, 2, 3)
SAVE_KEYS = (
    "format",
    "version",
    "rules",
    "seed",
    "map",
    "defaults",
    "rule_state",
    "settings",
    "cursor",
    "actions",
    "fair",
    "chat",
    "digest",
    "pending",
)
ACTION_KEYS = ("kind", "actor", "params", "rolls", "forced", "fair")
SETTING_KEYS = {"take_forced_steps": True}  # each setting and its default

_ACTION_TEXT: weakref.WeakKeyDictionary[SavedAction, str] = weakref.WeakKeyDictionary()
_MAP_CACHE_SIZE = 8
_MAP_TEXT: dict[int, tuple[weakref.ref[GameState], str]] = {}


class SaveError(UserError):
    """A save file that cannot be used: names the file, the key and what was expected."""

    def __init__(self, source: str, key: str | None, expected: str, spec_id: str | None = None):
        self.source, self.key, self.expected = source, key, expected
        what = f"{key}: expected {expected}" if key else f"expected {expected}"
        super().__init__(f"{source}: {what}", spec_id=spec_id)


@dataclass(frozen=True)
class SavedAction:
    """One applied action as saved: kind, actor, parameters, and the roll results it gave."""

    kind: str
    actor: str
    params: FrozenMap = field(default_factory=FrozenMap)
    rolls: tuple[int, ...] = ()
    forced: str = ""  # why the game took the step by itself ("" when someone chose it)
    fair: FairRoll | None = None  # its dice from the players' nonces (`dice.fair`)


@dataclass(frozen=True)
class ChatLine:
    """One line a player wrote to the other in an online game, after step `step`."""

    step: int
    side: str
    text: str

    def document(self) -> dict[str, Any]:
        return field_dict(self)


@dataclass(frozen=True)
class SavedPending:
    """The next step of a game played by file: its action is fixed (so no one can change it
    once the dice are being made), its dice wait for a nonce from each other player
    (`fresh`, by party) and then for value `index` of chain `chain` of the side `by`."""

    kind: str
    actor: str
    params: FrozenMap
    by: str
    chain: int
    index: int
    fresh: tuple[tuple[str, str], ...] = ()
    forced: str = ""  # why the game takes the step by itself ("" when someone chose it)

    def document(self) -> dict[str, Any]:
        action: dict[str, Any] = {
            "kind": self.kind,
            "actor": self.actor,
            "params": thaw(self.params),
        }
        if self.forced:
            action["forced"] = self.forced
        return {
            "action": action,
            "by": self.by,
            "chain": self.chain,
            "index": self.index,
            "fresh": dict(sorted(self.fresh)),
        }


@dataclass(frozen=True)
class SavedGame:
    """A game as saved: the starting map (before the rule system's setup), seed, actions, cursor."""

    initial: GameState
    seed: int
    actions: tuple[SavedAction, ...]
    cursor: int
    take_forced_steps: bool = True
    fair: FairLedger | None = None  # the chain heads the players published
    digest: str | None = None  # the game at the end of the line (`session.digest`)
    chat: tuple[ChatLine, ...] = ()  # what the players wrote to each other (online play)
    pending: SavedPending | None = None  # a game by file: the next step, waiting for its dice

    @property
    def rules(self) -> str:
        return self.initial.rules


# --------------------------------------------------------------------------- writing


def save_document(saved: SavedGame) -> dict[str, Any]:
    """The save as plain JSON-ready data, keys in a fixed order (what `dumps_save` writes)."""
    head = save_document_head(saved)
    document: dict[str, Any] = dict(list(head.items())[:4])
    document["map"] = map_document(saved.initial)
    document.update(list(head.items())[4:])
    document["actions"] = [_action_document(action) for action in saved.actions]
    document.update(save_document_tail(saved))
    return document


def save_document_tail(saved: SavedGame) -> dict[str, Any]:
    """The save's keys after the actions: the players' chain heads, the last game's digest."""
    tail: dict[str, Any] = {}
    if saved.fair is not None:
        tail["fair"] = saved.fair.document()
    if saved.chat:
        tail["chat"] = [line.document() for line in saved.chat]
    if saved.digest is not None:
        tail["digest"] = saved.digest
    if saved.pending is not None:
        tail["pending"] = saved.pending.document()
    return tail


def _action_document(action: SavedAction) -> dict[str, Any]:
    document = {
        "kind": action.kind,
        "actor": action.actor,
        "params": thaw(action.params),
        "rolls": list(action.rolls),
    }
    if action.forced:
        document["forced"] = action.forced
    if action.fair is not None:
        document["fair"] = action.fair.document()
    return document


def dumps_save(saved: SavedGame) -> str:
    """The save as JSON text, the same bytes for the same game: one key per line, the map
    on one line (written once per starting map and reused: autosaves repeat it), one
    line per action."""
    document = save_document_head(saved)
    lines = [f"{json.dumps(key)}: {_dumps(value)}" for key, value in document.items()]
    lines.insert(4, f'"map": {_map_text(saved.initial)}')
    listed = ",\n".join(f" {_action_text(action)}" for action in saved.actions)
    lines.append(f'"actions": [\n{listed}\n]' if saved.actions else '"actions": []')
    for key, value in save_document_tail(saved).items():
        lines.append(f"{json.dumps(key)}: {_dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _action_text(action: SavedAction) -> str:
    """An action's line of JSON, made once while the action lives: an autosave writes every
    action again after each step, and a long game has many."""
    try:
        return _ACTION_TEXT[action]
    except (KeyError, TypeError):  # not made yet, or a parameter that cannot be hashed
        pass
    text = _dumps(_action_document(action))
    with contextlib.suppress(TypeError):
        _ACTION_TEXT[action] = text
    return text


def save_document_head(saved: SavedGame) -> dict[str, Any]:
    """The save's keys other than the map and the actions, in order."""
    head: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "rules": saved.rules,
        "seed": saved.seed,
        "defaults": default_options(saved.initial),
    }
    if saved.initial.rule_state:
        head["rule_state"] = thaw(saved.initial.rule_state)
    settings = {"take_forced_steps": saved.take_forced_steps}
    changed = {key: value for key, value in settings.items() if SETTING_KEYS[key] != value}
    if changed:
        head["settings"] = changed
    head["cursor"] = saved.cursor
    return head


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise UserError(f"this game cannot be saved as JSON: {error}") from None


def _map_text(state: GameState) -> str:
    """The map document as one line of JSON, cached while the state lives."""
    cached = _MAP_TEXT.get(id(state))
    if cached is not None and cached[0]() is state:
        return cached[1]
    text = _dumps(map_document(state))
    if len(_MAP_TEXT) >= _MAP_CACHE_SIZE:
        _MAP_TEXT.pop(next(iter(_MAP_TEXT)))
    _MAP_TEXT[id(state)] = (weakref.ref(state), text)
    return text


def default_options(state: GameState) -> dict[str, Any]:
    """The rule system's defaults in force for the options the map leaves out: what a
    save records beside the map, so that it plays by the same readings after a later
    version changes a default."""
    in_force = registry.get(state.rules).options({})
    return {key: value for key, value in in_force.items() if key not in state.options}


def played_readings(state: GameState, defaults: Mapping[str, Any] | None) -> GameState:
    """`state` with the options it was played under. `defaults` are the defaults a save
    recorded (version 2): the ones that differ from today's are made explicit. A save
    without them (version 1) was made before any reading was revised: every revised
    option it does not name gets the value that plays the earlier reading
    (`Field.before`)."""
    system = registry.get(state.rules)
    if defaults is None:
        options = earlier_readings(system.option_fields, state.options)
    else:
        today = system.options({})
        options = dict(state.options)
        options.update(
            (key, value)
            for key, value in defaults.items()
            if key not in options and today.get(key) != value
        )
    if options == dict(state.options):
        return state
    return replace(state, options=freeze(options))


def write_save(saved: SavedGame, path: str | os.PathLike[str]) -> None:
    """Write the save atomically (a temporary file in the same folder, then a rename)."""
    write_text_atomic(Path(path), dumps_save(saved))


# --------------------------------------------------------------------------- reading


def read_save(path: str | os.PathLike[str]) -> SavedGame:
    """Read and check a save file; every problem is a SaveError naming file and key."""
    source = str(path)
    try:
        raw = read_input(path)
    except FileNotFoundError:
        raise SaveError(source, None, "an existing save file (no such file)") from None
    except IsADirectoryError:
        raise SaveError(source, None, "a save file, not a directory") from None
    except OSError as error:
        raise SaveError(source, None, f"a readable file ({error.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SaveError(
            source, None, f"UTF-8 JSON text (byte 0x{raw[error.start]:02x} is not UTF-8)"
        ) from None
    return loads_save(text, source)


def loads_save(text: str, source: str = "<save>") -> SavedGame:
    """Parse and check save text (structure, version, rules, map); not replayed here."""
    if not text.strip():
        raise SaveError(source, None, "a JSON saved game, but the file is empty")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveError(
            source, None, f"JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise SaveError(
            source,
            None,
            f"JSON nested no more than {MAX_DEPTH} levels deep (this file nests deeper)",
        ) from None
    if not isinstance(document, dict):
        raise SaveError(source, None, "a JSON object (a saved game)")
    deep = nesting_problem(document)
    if deep is not None:
        raise SaveError(
            source,
            deep.split(".")[0].split("[")[0],
            f"values nested no more than {MAX_DEPTH} levels deep (this one nests deeper)",
        )
    for key in document:
        if key not in SAVE_KEYS:
            raise SaveError(source, key, "a known key (one of " + ", ".join(SAVE_KEYS) + ")")
    if document.get("format") != SAVE_FORMAT:
        raise SaveError(source, "format", f"{SAVE_FORMAT!r} (this is not a tactical saved game)")
    version = document.get("version")
    if (
        isinstance(version, bool)
        or not isinstance(version, int)
        or version not in READABLE_VERSIONS
    ):
        *earlier, latest = (str(v) for v in READABLE_VERSIONS)
        readable = f"{', '.join(earlier)} or {latest}" if earlier else latest
        raise SaveError(source, "version", f"{readable} (this save has version {version!r})")
    rules = _required(document, source, "rules")
    if not isinstance(rules, str):
        raise SaveError(source, "rules", "a rule-system id (a string)")
    try:
        registry.get(rules)
    except UserError:
        raise SaveError(
            source,
            "rules",
            "a known rule system id (one of " + ", ".join(registry.rule_ids()) + ")",
        ) from None
    seed = _required(document, source, "seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SaveError(source, "seed", "a whole number >= 0")
    initial = played_readings(
        _map(document, source, rules), _defaults(document, source, rules, version)
    )
    actions_value = _required(document, source, "actions")
    if not isinstance(actions_value, list):
        raise SaveError(source, "actions", "an array of actions")
    actions = tuple(_action(item, source, index) for index, item in enumerate(actions_value))
    cursor = _required(document, source, "cursor")
    if isinstance(cursor, bool) or not isinstance(cursor, int) or not 0 <= cursor <= len(actions):
        raise SaveError(source, "cursor", f"a whole number from 0 to {len(actions)}")
    settings = _settings(document, source)
    fair = _fair(FairLedger, document, source, "fair")
    digest = document.get("digest")
    if digest is not None and (version < 3 or not isinstance(digest, str) or ":" not in digest):
        raise SaveError(source, "digest", "the fingerprint of the last game (version 3 saves)")
    chat = _chat(document.get("chat", []), source)
    pending = None
    if "pending" in document:
        pending = _pending(document["pending"], source)
        if cursor != len(actions):
            raise SaveError(source, "cursor", f"{len(actions)}: a step is pending after the last")
    return SavedGame(
        initial, seed, actions, cursor, settings["take_forced_steps"], fair, digest, chat, pending
    )


def _pending(value: Any, source: str) -> SavedPending:
    """The step of a game by file that waits for its dice (see the module docstring)."""
    if not isinstance(value, dict) or set(value) != {"action", "by", "chain", "index", "fresh"}:
        raise SaveError(source, "pending", "an object with action, by, chain, index and fresh")
    action = value["action"]
    if (
        not isinstance(action, dict)
        or not {"kind", "actor", "params"} <= set(action)
        or not set(action) <= {"kind", "actor", "params", "forced"}
    ):
        raise SaveError(source, "pending.action", "an object with kind, actor, params (and forced)")
    for key in ("kind", "actor"):
        if not isinstance(action[key], str) or not action[key]:
            raise SaveError(source, f"pending.action.{key}", "a non-empty string")
    if not isinstance(action["params"], dict):
        raise SaveError(source, "pending.action.params", "an object of the action's parameters")
    forced = action.get("forced", "")
    if not isinstance(forced, str) or ("forced" in action and not forced):
        raise SaveError(source, "pending.action.forced", "why the game takes the step itself")
    by, chain, index, fresh = value["by"], value["chain"], value["index"], value["fresh"]
    if not isinstance(by, str) or not by:
        raise SaveError(source, "pending.by", "the side whose chain reveals the roll")
    for key, number, low in (("chain", chain, 0), ("index", index, 1)):
        if isinstance(number, bool) or not isinstance(number, int) or number < low:
            raise SaveError(source, f"pending.{key}", f"a whole number >= {low}")
    if not isinstance(fresh, dict) or not all(
        isinstance(party, str) and party and is_nonce(nonce) for party, nonce in fresh.items()
    ):
        raise SaveError(
            source, "pending.fresh", "an object of side names and nonces of 64 hex digits"
        )
    return SavedPending(
        action["kind"],
        action["actor"],
        FrozenMap(action["params"]),
        by,
        chain,
        index,
        tuple(sorted(fresh.items())),
        forced,
    )


MAX_CHAT_TEXT = 500  # characters in one line of chat


def _chat(value: Any, source: str) -> tuple[ChatLine, ...]:
    """The players' chat lines: each a step number, a side name and its text."""
    if not isinstance(value, list):
        raise SaveError(source, "chat", "an array of chat lines")
    lines = []
    for index, item in enumerate(value):
        where = f"chat[{index}]"
        if not isinstance(item, dict) or set(item) != {"step", "side", "text"}:
            raise SaveError(source, where, "an object with step, side and text")
        step, side, text = item["step"], item["side"], item["text"]
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise SaveError(source, f"{where}.step", "a step number >= 0")
        if not isinstance(side, str) or not side:
            raise SaveError(source, f"{where}.side", "the name of the side that wrote it")
        if not isinstance(text, str) or len(text) > MAX_CHAT_TEXT:
            raise SaveError(
                source, f"{where}.text", f"a line of at most {MAX_CHAT_TEXT} characters"
            )
        lines.append(ChatLine(step, side, text))
    return tuple(lines)


def _settings(document: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The game's settings of play, each its default where the save names none."""
    value = document.get("settings", {})
    if not isinstance(value, dict):
        raise SaveError(source, "settings", "an object of the game's settings")
    found = dict(SETTING_KEYS)
    for key, setting in value.items():
        if key not in SETTING_KEYS:
            known = ", ".join(SETTING_KEYS)
            raise SaveError(source, f"settings.{key}", f"a known setting (one of {known})")
        if not isinstance(setting, bool):
            raise SaveError(source, f"settings.{key}", "true or false")
        found[key] = setting
    return found


def _required(document: Mapping[str, Any], source: str, key: str, prefix: str = "") -> Any:
    if key not in document:
        raise SaveError(source, f"{prefix}{key}", "a value (this key is required)")
    return document[key]


def _map(document: Mapping[str, Any], source: str, rules: str) -> GameState:
    value = _required(document, source, "map")
    if not isinstance(value, dict):
        raise SaveError(source, "map", "a map document (a JSON object as in a map file)")
    if value.get("rules") != rules:
        raise SaveError(source, "map.rules", f"{rules!r}, the save's rule system")
    try:
        text = tomli_w.dumps(value)
    except (TypeError, ValueError) as error:
        raise SaveError(source, "map", f"a map document of TOML values ({error})") from None
    try:
        state = loads_map(text, f"{source} [map]")
    except MapError as error:
        key = f"map.{error.key}" if error.key else "map"
        raise SaveError(source, key, error.expected, error.spec_id) from None
    rule_state = document.get("rule_state", {})
    if not isinstance(rule_state, dict):
        raise SaveError(source, "rule_state", "an object of the rule system's values")
    if rule_state:
        _check_rule_state(state, rule_state, source)
        state = state.with_rule_state(**freeze(rule_state))
    return state


KINDS = (
    (bool, "true or false"),
    ((int, float), "a number"),
    (str, "a text"),
    ((list, tuple), "a list"),
    (Mapping, "a table"),
)


def _kind(value: Any) -> str | None:
    """The kind of a bookkeeping value as the rules keep it (None: no value, any kind)."""
    for types, words in KINDS:
        if isinstance(value, types):
            return words
    return None


def _check_rule_state(state: GameState, rule_state: Mapping[str, Any], source: str) -> None:
    """A save's `rule_state` is the bookkeeping of the table its game started from; it must
    be the rules' own: every key the rule system's setup keeps for this map is there, with a
    value of the kind setup gives it (a number, a text, a list, a table, true or false; a
    key setup leaves empty takes any). The values themselves are the rules' to judge as the
    actions replay (one they cannot play from is refused naming `rule_state`)."""
    try:
        fresh = registry.get(state.rules).setup(state).rule_state
    except Exception:  # a map the rules refuse: starting the game says why
        return
    for key, value in fresh.items():
        if key not in rule_state:
            raise SaveError(
                source, f"rule_state.{key}", "a value (the rules keep it in every game)"
            )
        wanted, found = _kind(value), _kind(rule_state[key])
        if wanted is not None and found != wanted:
            raise SaveError(source, f"rule_state.{key}", f"{wanted}, as the rules keep it")


def _defaults(
    document: Mapping[str, Any], source: str, rules: str, version: int
) -> Mapping[str, Any] | None:
    """The option defaults a version 2 save recorded, checked as the map's options are;
    None for a version 1 save, which recorded none."""
    if version == 1:
        if "defaults" in document:
            raise SaveError(source, "defaults", "no defaults in a version 1 save")
        return None
    value = _required(document, source, "defaults")
    if not isinstance(value, dict):
        raise SaveError(source, "defaults", "an object of option values")
    system = registry.get(rules)
    for problem in system.check_options(value):
        raise SaveError(source, f"defaults.{problem.key}", problem.expected, problem.spec_id)
    return value


def _fair(kind: Any, table: Mapping[str, Any], source: str, where: str) -> Any:
    """The fair-dice record under "fair" in `table` (a `FairLedger` or a `FairRoll`), if
    any; a SaveError naming the key below `where` that is wrong."""
    if "fair" not in table:
        return None
    try:
        return kind.from_document(table["fair"])
    except ValueError as error:
        key, _, expected = str(error).rpartition(": ")
        raise SaveError(source, f"{where}.{key}" if key else where, expected) from None


def _action(item: Any, source: str, index: int) -> SavedAction:
    where = f"actions[{index}]"
    if not isinstance(item, dict):
        raise SaveError(source, where, "an object with kind, actor, params and rolls")
    for key in item:
        if key not in ACTION_KEYS:
            raise SaveError(
                source, f"{where}.{key}", "a known key (one of " + ", ".join(ACTION_KEYS) + ")"
            )
    kind = _required(item, source, "kind", f"{where}.")
    actor = _required(item, source, "actor", f"{where}.")
    for key, value in (("kind", kind), ("actor", actor)):
        if not isinstance(value, str) or not value:
            raise SaveError(source, f"{where}.{key}", "a non-empty string")
    params = item.get("params", {})
    if not isinstance(params, dict):
        raise SaveError(source, f"{where}.params", "an object of the action's parameters")
    rolls = item.get("rolls", [])
    if not isinstance(rolls, list) or not all(
        isinstance(r, int) and not isinstance(r, bool) for r in rolls
    ):
        raise SaveError(source, f"{where}.rolls", "an array of whole numbers (the dice results)")
    forced = item.get("forced", "")
    if not isinstance(forced, str) or ("forced" in item and not forced):
        raise SaveError(
            source, f"{where}.forced", "why the game took the step by itself (a non-empty string)"
        )
    fair = _fair(FairRoll, item, source, f"{where}.fair")
    return SavedAction(kind, actor, FrozenMap(params), tuple(rolls), forced, fair)
