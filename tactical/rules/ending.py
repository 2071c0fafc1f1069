"""How a game ends and who won: the values of the protocol and the generic reading.

`RuleSystem.outcome(state, start, turn)` returns None while the game goes on, else an
`Outcome`: the winner (None for a draw), a score per side, why it ended and the rule
(or adopted reading) that ended it.

Where a rule system's seed says nothing about the end of a game, its `outcome` uses
the attrition reading of docs/game-end.md (`attrition_outcome`): the game ends when one
side has no unit left able to fight, or when the scenario's turn limit is over (map
option `turn_limit`, default 6); each side scores the share of the enemy's starting
strength it destroyed or crippled, and the larger share wins (equal shares: a draw).
A unit's strength and what "crippled" means come from each system's `unit_condition`
(its own stats and damage records).

Nothing here names a rule system.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

DEFAULT_TURN_LIMIT = 6

# Why a game ended (`Outcome.reason`), worded for the screen and the log.
NO_UNIT_ABLE = "no-unit-able-to-fight"
TURN_LIMIT = "turn-limit"
REASON_TEXT = {
    NO_UNIT_ABLE: "a side has no unit left able to fight",
    TURN_LIMIT: "the turn limit is over",
}


@dataclass(frozen=True, slots=True)
class UnitCondition:
    """How one unit stands against its start.

    `strength` is the unit's value at the start (from its stats), `lost` the share of it
    lost so far (0 to 1, a smooth measure for evaluation), `out` whether it is destroyed
    or crippled (the whole strength counts as lost for the score) and `able` whether it
    can still fight.
    """

    strength: float
    lost: float = 0.0
    out: bool = False
    able: bool = True

    @classmethod
    def gone(cls, strength: float) -> UnitCondition:
        """A unit no longer on the table: destroyed."""
        return cls(strength, 1.0, True, False)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: `winner` (None: a draw), `scores` as (side, score) pairs in side
    order, `reason` (a short key, see `REASON_TEXT`, or the system's own), the rule or
    adopted reading that ended it (`spec_id`), the turn it ended in and a `unit` word for
    the scores ("share" of the enemy's strength, or the system's points)."""

    winner: str | None
    scores: tuple[tuple[str, float], ...]
    reason: str
    spec_id: str
    turn: int
    measure: str = "share"

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def score(self, side: str) -> float:
        for name, value in self.scores:
            if name == side:
                return value
        raise KeyError(side)

    @property
    def why(self) -> str:
        """The reason in words."""
        return REASON_TEXT.get(self.reason, self.reason.replace("-", " "))

    def score_text(self) -> str:
        """The scores as a player reads them: "A 62% - B 15%" or "A 120 VP - B 40 VP"."""
        if self.measure == "share":
            parts = [f"{side} {round(100 * value)}%" for side, value in self.scores]
        else:
            parts = [f"{side} {value:g} {self.measure}" for side, value in self.scores]
        return " - ".join(parts)

    def headline(self) -> str:
        """One line: who won, the score and why."""
        result = "Draw" if self.winner is None else f"{self.winner} wins"
        return f"{result} ({self.score_text()}): {self.why}, turn {self.turn}"

    def as_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "scores": {side: value for side, value in self.scores},
            "reason": self.reason,
            "spec_id": self.spec_id,
            "turn": self.turn,
            "measure": self.measure,
        }


def side_losses(
    sides: Iterable[str], conditions: Iterable[tuple[str, UnitCondition]]
) -> dict[str, tuple[float, float, bool]]:
    """Per side: (share of its starting strength out, smooth share lost, any unit able).

    `conditions` pairs each starting unit's side with its condition now.
    """
    totals: dict[str, list[float]] = {side: [0.0, 0.0, 0.0, 0.0] for side in sides}
    for side, condition in conditions:
        row = totals.setdefault(side, [0.0, 0.0, 0.0, 0.0])
        row[0] += condition.strength
        row[1] += condition.strength if condition.out else 0.0
        row[2] += condition.strength * (1.0 if condition.out else min(1.0, condition.lost))
        row[3] += 1.0 if condition.able else 0.0
    result = {}
    for side, (total, out, lost, able) in totals.items():
        share_out = out / total if total > 0 else 0.0
        share_lost = lost / total if total > 0 else 0.0
        result[side] = (share_out, share_lost, able > 0)
    return result


def attrition_outcome(
    sides: tuple[str, ...],
    conditions: Iterable[tuple[str, UnitCondition]],
    turn: int,
    turn_limit: int,
    spec_id: str,
) -> Outcome | None:
    """The attrition reading (module docstring): None while the game goes on.

    A side's score is the share of the enemies' starting strength destroyed or crippled
    (with two sides, the other side's losses). `turn` is the turn being played: the limit
    is over once play has reached turn `turn_limit + 1`.
    """
    losses = side_losses(sides, conditions)
    without_fighters = [side for side in sides if not losses[side][2]]
    if without_fighters:
        reason = NO_UNIT_ABLE
    elif turn > turn_limit:
        reason = TURN_LIMIT
    else:
        return None
    scores = tuple((side, enemy_share(losses, side)) for side in sides)
    best = max(value for _, value in scores)
    leaders = [side for side, value in scores if abs(value - best) < 1e-9]
    winner = leaders[0] if len(leaders) == 1 else None
    return Outcome(winner, scores, reason, spec_id, min(turn, turn_limit))


def enemy_share(losses: dict[str, tuple[float, float, bool]], side: str) -> float:
    """The mean share of each enemy side's starting strength that is out (destroyed or
    crippled): with two sides, simply the other side's share."""
    enemies = [values[0] for name, values in losses.items() if name != side]
    return sum(enemies) / len(enemies) if enemies else 0.0
