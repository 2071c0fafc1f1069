"""A side's secrets in a game played by file, and the nonces made from them (`dice.fair`).

Each side of a game by file reveals the rolls of its own steps, so each has its own hash
chains (`HashChain`); their secrets stay in a file of the side's own next to the game's
(`secret_path`: `game.json.<side>.secret`, readable by its owner only), never in the save,
which holds only each chain's head.

A side's nonce for another side's step is not drawn at random but made from the side's
key and the step's *fingerprint* (`step_fingerprint`: the table before the step, its
action, its number, and the chain value it waits for, with that chain's head): no one
without the key can foresee it, and the key's owner cannot steer it (one step, one
nonce). It also proves afterwards what the nonce was given for: with the key,
`tactical verify` checks that every nonce was given for the step as the save now has it,
so a side that changed its step after seeing the other's nonce (to aim its roll) is
caught, as is one that published its chain only after seeing a nonce.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from tactical.dice.fair import DOMAIN, HashChain, fresh_nonce, is_nonce
from tactical.errors import UserError
from tactical.io.files import read_input, write_text_atomic
from tactical.model import thaw
from tactical.rules.base import Action

SECRET_FORMAT = "tactical-secret"
SECRET_VERSION = 1
SECRET_SUFFIX = ".secret"


@lru_cache(maxsize=16)
def _chain(secret: str) -> HashChain:
    return HashChain(secret)


@dataclass(frozen=True)
class SideSecret:
    """What one side of a game by file keeps to itself: the secret of each chain it
    published (chain `k` of the side in the save's ledger is `chains[k]`) and the key its
    nonces are made from (see the module docstring)."""

    side: str
    chains: tuple[str, ...]
    key: str
    # every nonce the side gave: (step, revealer, chain, value index, nonce). The step must
    # stay in the game as it was when the nonce was given: a revealer that dropped it, after
    # learning its roll from the nonce, could try another step on the same chain value
    given: tuple[tuple[int, str, int, int, str], ...] = ()

    @classmethod
    def new(cls, side: str) -> SideSecret:
        return cls(side, (fresh_nonce(),), fresh_nonce())

    def with_given(self, step: int, by: str, chain: int, index: int, nonce: str) -> SideSecret:
        """This secret remembering a nonce it gave (see `given`)."""
        return replace(self, given=(*self.given, (step, by, chain, index, nonce)))

    def chain(self, number: int) -> HashChain:
        return _chain(self.chains[number])

    def with_chain(self, number: int) -> SideSecret:
        """This secret with chains up to `number` (new ones made as needed)."""
        chains = list(self.chains)
        while len(chains) <= number:
            chains.append(fresh_nonce())
        return replace(self, chains=tuple(chains))

    def nonce_for(self, fingerprint: str) -> str:
        """The side's nonce for the step with `fingerprint` (64 hex digits)."""
        data = b"|".join((DOMAIN, b"nonce", bytes.fromhex(self.key), fingerprint.encode()))
        return hashlib.sha256(data).hexdigest()

    def document(self) -> dict[str, Any]:
        return {
            "format": SECRET_FORMAT,
            "version": SECRET_VERSION,
            "side": self.side,
            "chains": list(self.chains),
            "key": self.key,
            "given": [list(item) for item in self.given],
        }

    @classmethod
    def from_document(cls, value: object) -> SideSecret:
        """From `document`'s form; ValueError saying what is wrong for anything else."""
        keys = {"format", "version", "side", "chains", "key", "given"}
        if not isinstance(value, dict) or set(value) != keys:
            raise ValueError("a JSON object with format, version, side, chains, key and given")
        if value["format"] != SECRET_FORMAT or value["version"] != SECRET_VERSION:
            raise ValueError(f"a {SECRET_FORMAT} file of version {SECRET_VERSION}")
        side, chains, key = value["side"], value["chains"], value["key"]
        if not isinstance(side, str) or not side:
            raise ValueError("side: the name of the side")
        if not isinstance(chains, list) or not chains or not all(map(is_nonce, chains)):
            raise ValueError("chains: a list of secrets of 64 hex digits")
        if not is_nonce(key):
            raise ValueError("key: 64 hex digits")
        given = value["given"]
        if not isinstance(given, list) or not all(_given_item(item) for item in given):
            raise ValueError("given: a list of [step, side, chain, index, nonce]")
        return cls(side, tuple(chains), key, tuple(tuple(item) for item in given))


def _given_item(item: object) -> bool:
    if not isinstance(item, list) or len(item) != 5:
        return False
    step, by, chain, index, nonce = item
    numbers = (step, chain, index)
    return (
        all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers)
        and isinstance(by, str)
        and is_nonce(nonce)
    )


def secret_path(game_file: str | os.PathLike[str], side: str) -> Path:
    """Where `side` keeps its secrets for the game in `game_file`: next to it, named after
    it and the side (a side's name made safe for a file name)."""
    path = Path(game_file)
    safe = re.sub(r"[^A-Za-z0-9_-]+", "_", side).strip("_") or "side"
    return path.with_name(f"{path.name}.{safe}{SECRET_SUFFIX}")


def load_secret(path: str | os.PathLike[str], side: str | None = None) -> SideSecret:
    """The secrets in `path`, of `side` when given (a UserError saying what is wrong)."""
    whose = f"{side}'s" if side else "a side's"
    try:
        raw = read_input(path)
    except FileNotFoundError:
        raise UserError(f"{os.fspath(path)}: {whose} secret file is not there") from None
    except OSError as error:
        raise UserError(f"{os.fspath(path)}: cannot read it ({error.strerror})") from None
    try:
        found = SideSecret.from_document(json.loads(raw.decode("utf-8")))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UserError(f"{os.fspath(path)}: expected {whose} secret file (JSON)") from None
    except ValueError as error:
        raise UserError(f"{os.fspath(path)}: expected {error}") from None
    if side is not None and found.side != side:
        raise UserError(f"{os.fspath(path)}: this is {found.side}'s secret file, not {side}'s")
    return found


def write_secret(path: str | os.PathLike[str], secret: SideSecret) -> None:
    """Write the secrets, readable and writable by their owner only (0600): made empty with
    those permissions first, so the secret is never in a file others may read."""
    target = Path(path)
    if not target.exists():
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass
        except OSError as error:
            raise UserError(f"{target}: cannot write: {error.strerror}") from None
    write_text_atomic(target, json.dumps(secret.document(), indent=1) + "\n")


def action_text(action: Action) -> str:
    """An action as canonical JSON: what a fingerprint hashes."""
    document: Mapping[str, Any] = {
        "kind": action.kind,
        "actor": action.actor,
        "params": thaw(action.params),
    }
    return json.dumps(document, sort_keys=True, ensure_ascii=True, default=repr)


def step_fingerprint(
    table: str, action: Action, forced: str, number: int, by: str, chain: int, index: int,
    head: str,
) -> str:  # fmt: skip
    """What a nonce is given for: the digest of the table before the step (`table`), its
    action and forced reason, its number, and the chain value it waits for (`by`'s chain
    `chain`, published with `head`, value `index`)."""
    parts = (table, action_text(action), forced, str(number), by, str(chain), str(index), head)
    text = json.dumps(parts, ensure_ascii=True)
    return hashlib.sha256(DOMAIN + b"|step|" + text.encode()).hexdigest()
