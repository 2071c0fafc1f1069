"""Hidden moves kept by their owner, checked afterwards: commitments and answers.

When a player hosts an online game, the server runs on the host's machine. Where the rules
hide a guest's moves from the host (a cloaked ship's course, R001.29), a server holding
the truth would let the host look. So for that stretch the guest's own client holds the
truth and referees every step of it (`net.referee`): for each step it plays, it reports
what the host's side sees afterwards (its *answer*), and for each of its own steps whose
action is hidden from the host it sends `H(action ‖ salt)` (a *commitment*) in place of
the action. When nothing is hidden any more it reveals every action and salt; the server
replays the stretch on the true table and checks each commitment and each answer. A
mismatch is named, and `tactical verify` finds it again from the save.

This module holds the record a save keeps of such a stretch (`SealedStretch`, in the
game's `FairLedger`) and the two fingerprints, as plain hex text: what is fingerprinted
(an action's canonical text, a view's encoded parts) is made by the layers above.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, replace

from tactical.dice.documents import exact_object, parsed_items

DOMAIN = b"tactical-sealed-1"
HEX64 = re.compile(r"[0-9a-f]{64}\Z")


def _fingerprint(*parts: str) -> str:
    data = DOMAIN + b"".join(b"|" + part.encode() for part in parts)
    return hashlib.sha256(data).hexdigest()


def fresh_salt() -> str:
    """A new random salt (the operating system's randomness), as 64 hex digits: without it,
    the few actions a side could take would be guessed from their fingerprints."""
    return secrets.token_hex(32)


def seal(action_text: str, salt: str) -> str:
    """The commitment to an action: `H(action ‖ salt)`, 64 hex digits."""
    return _fingerprint("action", action_text, salt)


def answer(*codes: str) -> str:
    """The fingerprint of an answer: what the other side sees after a step (its encoded
    step, table and turn), 64 hex digits."""
    return _fingerprint("answer", *codes)


def _is_hex64(value: object) -> bool:
    return isinstance(value, str) and HEX64.match(value) is not None


@dataclass(frozen=True)
class SealedStep:
    """One step of a sealed stretch: its number, the fingerprint of the answer reported for
    it, and, where its action was hidden from the other side, the commitment sent in its
    place and (once revealed) the salt."""

    step: int
    answer: str
    commitment: str = ""
    salt: str = ""

    def document(self) -> dict[str, object]:
        document: dict[str, object] = {"step": self.step, "answer": self.answer}
        if self.commitment:
            document["commitment"] = self.commitment
        if self.salt:
            document["salt"] = self.salt
        return document

    @classmethod
    def from_document(cls, value: object) -> SealedStep:
        if not isinstance(value, dict) or not {"step", "answer"} <= set(value):
            raise ValueError("an object with step and answer")
        if not set(value) <= {"step", "answer", "commitment", "salt"}:
            raise ValueError("step, answer, commitment and salt only")
        step = value["step"]
        if isinstance(step, bool) or not isinstance(step, int) or step < 1:
            raise ValueError("step: a step number >= 1")
        for key in ("answer", "commitment", "salt"):
            if key in value and not _is_hex64(value[key]):
                raise ValueError(f"{key}: 64 hex digits")
        if "salt" in value and "commitment" not in value:
            raise ValueError("salt: only with a commitment")
        return cls(step, value["answer"], value.get("commitment", ""), value.get("salt", ""))


@dataclass(frozen=True)
class SealedStretch:
    """A stretch of play refereed by one side's client (`referee`, the side whose moves were
    hidden), answering for another (`seen_by`, the hosting player's side)."""

    referee: str
    seen_by: str
    steps: tuple[SealedStep, ...] = ()

    def with_step(self, step: SealedStep) -> SealedStretch:
        return replace(self, steps=(*self.steps, step))

    def with_salts(self, salts: dict[int, str]) -> SealedStretch:
        """The stretch with the revealed salts of its sealed steps (by step number)."""
        return replace(
            self,
            steps=tuple(
                replace(s, salt=salts.get(s.step, s.salt)) if s.commitment else s
                for s in self.steps
            ),
        )

    def document(self) -> dict[str, object]:
        return {
            "referee": self.referee,
            "seen_by": self.seen_by,
            "steps": [step.document() for step in self.steps],
        }

    @classmethod
    def from_document(cls, value: object) -> SealedStretch:
        referee, seen_by, listed = exact_object(value, "referee", "seen_by", "steps")
        if not isinstance(referee, str) or not referee:
            raise ValueError("referee: a side's name")
        if not isinstance(seen_by, str) or not seen_by:
            raise ValueError("seen_by: a side's name")
        if not isinstance(listed, list):
            raise ValueError("steps: a list")
        steps = parsed_items(listed, "steps", SealedStep.from_document)
        numbers = [step.step for step in steps]
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))) if numbers else False:
            raise ValueError("steps: one after another")
        return cls(referee, seen_by, tuple(steps))
