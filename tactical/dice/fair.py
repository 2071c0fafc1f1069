"""Dice neither player can foresee or choose, and either can check afterwards (commit-reveal).

An online game (or a game played by file) does not roll with the game's seed: each step
that rolls dice gets its seed from nonces the players contribute, so that no one can
foresee a roll before the step's action is fixed, and no one can steer it after.

- *Commitment.* Before play, the party that reveals (the server, or in a game by file the
  side whose go it is) makes a hash chain: a secret `x_N`, then `x_(i-1) = H(x_i)` down to
  `x_0`, the chain's *head*, which alone it publishes (`HashChain`). Revealing `x_i` later
  proves it was fixed at the start: anyone can check `H(x_i) = x_(i-1)`, and no one can
  find `x_i` from `x_(i-1)` (SHA-256 has no known way back).
- *Each roll.* Once a step's action is fixed, each other player sends a fresh random nonce;
  then the revealing party reveals the next value of its chain. The step's dice seed is
  `H(reveal ‖ every fresh nonce ‖ step number)` (`FairRoll.seed`). The revealer could not
  pick its value after seeing the others' (it was committed), and the others could not
  know it when they picked theirs, so no one could aim the roll.
- *In order.* The values of a chain are used one after another (index 1, 2, 3…): a
  revealer that could skip values could try several and keep the one it liked. After an
  undo agreed by both players, play goes on from the last value the kept line used.
- *Proof.* A save keeps the heads (`Commitment`, with the step from which each applies)
  and every roll's record; `check_rolls` re-checks the chain and the order, and the
  replay re-derives every die from the seeds (`session.saving`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from tactical.dice.documents import exact_object, parsed_items
from tactical.dice.sealed import SealedStretch
from tactical.records import field_dict

DOMAIN = b"tactical-fair-dice-1"
CHAIN_LENGTH = 4096  # values a chain commits to; a new chain is committed when one runs out
NONCE_BYTES = 32
NONCE_PATTERN = re.compile(r"[0-9a-f]{64}\Z")


def _hash(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def fresh_nonce() -> str:
    """A new random nonce (`secrets`: the operating system's randomness), as 64 hex digits."""
    return secrets.token_hex(NONCE_BYTES)


def is_nonce(text: object) -> bool:
    """Whether `text` is a nonce as sent and saved: 64 lowercase hex digits."""
    return isinstance(text, str) and NONCE_PATTERN.match(text) is not None


def follows(earlier: str, revealed: str, steps: int = 1) -> bool:
    """Whether `revealed` is the chain value `steps` after `earlier` (hashed `steps` times it
    gives `earlier`): what a player checks on every reveal as it arrives (more than one step
    on where values were used by steps taken back)."""
    if not (is_nonce(earlier) and is_nonce(revealed)) or steps < 1:
        return False
    value = bytes.fromhex(revealed)
    for _ in range(steps):
        value = _hash(value)
    return secrets.compare_digest(value.hex(), earlier)


@dataclass(frozen=True)
class HashChain:
    """A secret chain of `length` values and its public head (see the module docstring).

    `secret` never leaves the party that made the chain (a server keeps it in a file of its
    own, next to its autosave, to go on after a crash); `value(i)` is what it reveals for
    the i-th roll, `head` what it publishes first."""

    secret: str
    length: int = CHAIN_LENGTH

    @classmethod
    def new(cls, length: int = CHAIN_LENGTH) -> HashChain:
        return cls(fresh_nonce(), length)

    @cached_property
    def _values(self) -> tuple[str, ...]:
        value = _hash(DOMAIN + b"chain" + bytes.fromhex(self.secret))
        made = [value]
        for _ in range(self.length):
            value = _hash(value)
            made.append(value)
        made.reverse()  # made[0] is the head, made[length] the value hashed from the secret
        return tuple(item.hex() for item in made)

    @property
    def head(self) -> str:
        return self._values[0]

    def value(self, index: int) -> str:
        """The value revealed for the `index`-th roll of this chain (1 to `length`)."""
        if not 1 <= index <= self.length:
            raise IndexError(f"a chain of {self.length} values has no value {index}")
        return self._values[index]


@dataclass(frozen=True)
class FairRoll:
    """How one step's dice seed was made: whose chain revealed (`by`), which of its chains
    (`chain`, counting its commitments from 0) and which value (`index`), the value
    revealed, and each other player's fresh nonce (`fresh`: party and nonce, by party)."""

    by: str
    chain: int
    index: int
    reveal: str
    fresh: tuple[tuple[str, str], ...] = ()

    def seed(self, step: int) -> int:
        """The seed of the step's dice: `H(reveal ‖ party ‖ nonce … ‖ step)`, 8 bytes."""
        parts = [DOMAIN, b"roll", bytes.fromhex(self.reveal)]
        for party, nonce in sorted(self.fresh):
            parts += [party.encode(), b"\0", bytes.fromhex(nonce)]
        parts.append(str(step).encode())
        return int.from_bytes(_hash(b"|".join(parts))[:8], "big")

    def document(self) -> dict[str, object]:
        """As a save and a message hold it."""
        return {
            **field_dict(self, "by", "chain", "index", "reveal"),
            "fresh": dict(sorted(self.fresh)),
        }

    @classmethod
    def from_document(cls, value: object) -> FairRoll:
        """From `document`'s form; ValueError (saying what is wrong) for anything else."""
        by, chain, index, reveal, fresh = exact_object(
            value, "by", "chain", "index", "reveal", "fresh"
        )
        if not isinstance(by, str) or not by:
            raise ValueError("by: the name of the party that revealed")
        for key, number, low in (("chain", chain, 0), ("index", index, 1)):
            if isinstance(number, bool) or not isinstance(number, int) or number < low:
                raise ValueError(f"{key}: a whole number >= {low}")
        if not is_nonce(reveal):
            raise ValueError("reveal: 64 hex digits")
        if not isinstance(fresh, dict) or not all(
            isinstance(party, str) and party and is_nonce(nonce) for party, nonce in fresh.items()
        ):
            raise ValueError("fresh: an object of party names and nonces of 64 hex digits")
        return cls(by, chain, index, reveal, tuple(sorted(fresh.items())))


@dataclass(frozen=True)
class Commitment:
    """A chain's head, published by `party` before step `from_step` (its rolls from then)."""

    party: str
    head: str
    from_step: int

    def document(self) -> dict[str, object]:
        return {"party": self.party, "head": self.head, "from_step": self.from_step}

    @classmethod
    def from_document(cls, value: object) -> Commitment:
        party, head, start = exact_object(value, "party", "head", "from_step")
        if not isinstance(party, str) or not party:
            raise ValueError("party: a name")
        if not is_nonce(head):
            raise ValueError("head: 64 hex digits")
        if isinstance(start, bool) or not isinstance(start, int) or start < 1:
            raise ValueError("from_step: a step number >= 1")
        return cls(party, head, start)


@dataclass(frozen=True)
class RollProblem:
    """The first step whose dice do not check out, and why, in words."""

    step: int
    reason: str


@dataclass(frozen=True)
class FairLedger:
    """What a save keeps to prove its dice: every chain head published, in order; the
    players whose nonces each roll needs (`players`, the sides played from elsewhere); and
    the rolls of steps taken back by an undo both players agreed to (`withdrawn`: step
    number and record), whose values were used up and are never revealed again."""

    commitments: tuple[Commitment, ...] = ()
    players: tuple[str, ...] = ()
    withdrawn: tuple[tuple[int, FairRoll], ...] = ()
    # stretches whose truth one side's client held while a player hosted (`dice.sealed`)
    sealed: tuple[SealedStretch, ...] = ()

    def with_sealed(self, stretch: SealedStretch) -> FairLedger:
        """The ledger with `stretch` added, or put in place of the last one when it is the
        same stretch grown (a stretch is recorded as it is played)."""
        kept = self.sealed
        last = kept[-1] if kept else None
        if (
            last is not None
            and last.steps
            and stretch.steps
            and (last.referee, last.steps[0].step) == (stretch.referee, stretch.steps[0].step)
        ):
            kept = kept[:-1]
        return replace(self, sealed=(*kept, stretch))

    def with_commitment(self, commitment: Commitment) -> FairLedger:
        return replace(self, commitments=(*self.commitments, commitment))

    def with_withdrawn(self, rolls: Iterable[tuple[int, FairRoll]]) -> FairLedger:
        return replace(self, withdrawn=(*self.withdrawn, *rolls))

    def chains_of(self, party: str) -> tuple[Commitment, ...]:
        return tuple(c for c in self.commitments if c.party == party)

    def document(self) -> dict[str, object]:
        document: dict[str, object] = {
            "commitments": [c.document() for c in self.commitments],
            "players": list(self.players),
        }
        if self.withdrawn:
            document["withdrawn"] = [
                {"step": step, "fair": fair.document()} for step, fair in self.withdrawn
            ]
        if self.sealed:
            document["sealed"] = [stretch.document() for stretch in self.sealed]
        return document

    @classmethod
    def from_document(cls, value: object) -> FairLedger:
        if (
            not isinstance(value, dict)
            or not {"commitments", "players"} <= set(value)
            or not (set(value) <= {"commitments", "players", "withdrawn", "sealed"})
        ):
            raise ValueError("an object with commitments, players, withdrawn and sealed")
        listed, players = value["commitments"], value["players"]
        if not isinstance(listed, list) or not listed:
            raise ValueError("commitments: a list of the chain heads published")
        if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
            raise ValueError("players: a list of side names")
        made = parsed_items(listed, "commitments", Commitment.from_document)
        withdrawn = []
        listed_back = value.get("withdrawn", [])
        if not isinstance(listed_back, list):
            raise ValueError("withdrawn: a list of the rolls of steps taken back")
        for index, item in enumerate(listed_back):
            if not isinstance(item, dict) or set(item) != {"step", "fair"}:
                raise ValueError(f"withdrawn[{index}]: an object with step and fair")
            step = item["step"]
            if isinstance(step, bool) or not isinstance(step, int) or step < 1:
                raise ValueError(f"withdrawn[{index}].step: a step number >= 1")
            try:
                withdrawn.append((step, FairRoll.from_document(item["fair"])))
            except ValueError as error:
                raise ValueError(f"withdrawn[{index}].fair.{error}") from None
        listed_sealed = value.get("sealed", [])
        if not isinstance(listed_sealed, list):
            raise ValueError("sealed: a list of the stretches refereed by one side")
        sealed = parsed_items(listed_sealed, "sealed", SealedStretch.from_document)
        return cls(tuple(made), tuple(players), tuple(withdrawn), tuple(sealed))


def check_rolls(
    ledger: FairLedger, rolled: Iterable[tuple[int, FairRoll | None, bool]]
) -> RollProblem | None:
    """The first step of `rolled` ((step number, its fair record, whether it rolled dice),
    in play order) whose dice do not check out against `ledger`, or None when all do.

    A step from a commitment's `from_step` on that rolled dice must have a record; the
    record's chain must be one its party published by then; it must carry a nonce from every
    player but the revealer; its index must come after every index its chain used before it
    in this line; and, with the rolls withdrawn by agreed undos, each chain's values must be
    used in order (1, 2, 3… with none skipped: a skipped value could have been picked for its
    roll), each hashing to the one before (the head for the first)."""
    first_step = min((c.from_step for c in ledger.commitments), default=None)
    used: dict[tuple[str, int], list[tuple[int, int, str]]] = {}  # chain: (index, step, value)
    last_in_line: dict[tuple[str, int], int] = {}
    for step, fair, rolled_dice in rolled:
        if fair is None:
            if rolled_dice and first_step is not None and step >= first_step:
                return RollProblem(step, "it rolled dice with no nonces from the players")
            continue
        chains = ledger.chains_of(fair.by)
        if fair.chain >= len(chains):
            return RollProblem(step, f"{fair.by} published no chain number {fair.chain + 1}")
        commitment = chains[fair.chain]
        if step < commitment.from_step:
            return RollProblem(
                step,
                f"it used a chain {fair.by} published later (from step {commitment.from_step})",
            )
        given = {party for party, _ in fair.fresh}
        missing = [p for p in ledger.players if p != fair.by and p not in given]
        if missing:
            return RollProblem(step, f"no nonce from {', '.join(missing)}")
        if fair.by in given:
            return RollProblem(step, f"{fair.by} gave a nonce to its own reveal")
        key = (fair.by, fair.chain)
        if fair.index <= last_in_line.get(key, 0):
            return RollProblem(step, f"{fair.by} revealed value {fair.index} of its chain again")
        last_in_line[key] = fair.index
        used.setdefault(key, []).append((fair.index, step, fair.reveal))
    for step, fair in ledger.withdrawn:
        if fair.chain < len(ledger.chains_of(fair.by)):
            used.setdefault((fair.by, fair.chain), []).append((fair.index, step, fair.reveal))
    problems = []
    for (by, chain), values in used.items():
        value = ledger.chains_of(by)[chain].head
        for expected, (index, step, reveal) in enumerate(sorted(values), start=1):
            if index != expected:
                why = (
                    f"{by} revealed value {index} of its chain where value {expected} was next "
                    "(a skipped value could have been picked for its roll)"
                    if index > expected
                    else f"{by} revealed value {index} of its chain twice"
                )
                problems.append(RollProblem(step, why))
                break
            if not follows(value, reveal):
                problems.append(
                    RollProblem(step, f"{by}'s revealed value does not hash to the one committed")
                )
                break
            value = reveal
    return min(problems, key=lambda problem: problem.step, default=None)


def next_index(
    records: Iterable[FairRoll | None], by: str, chain: int, ledger: FairLedger | None = None
) -> int:
    """The index of the next value of `by`'s chain `chain`: one past every one used, in the
    line's records and in the ledger's withdrawn rolls."""
    withdrawn = (fair for _, fair in ledger.withdrawn) if ledger is not None else ()
    used = [
        fair.index
        for fair in (*records, *withdrawn)
        if fair is not None and fair.by == by and fair.chain == chain
    ]
    return max(used, default=0) + 1
