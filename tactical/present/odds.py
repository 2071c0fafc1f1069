"""The odds as the panel says them: exact fractions, the caption over the chart, and what
the chart's place says while there is no chart (computing, no roll, a refusal).

The figures are the report's (`Game.odds`, the very resolver that rolls, run over every
outcome); this module only words them.
"""

from __future__ import annotations

from tactical.dice.exact import fraction_text

COMPUTING = "computing the exact odds…"
NO_ROLL = "no roll: applies as declared"


def odds_caption(target: str, seconds: float) -> str:
    """The chart's caption: against whom (a unit's name, "" for none) and how long the
    exact odds took."""
    return f"odds{' vs ' + target if target else ''} ({seconds * 1000:.0f} ms)"


def waiting_words(status: str, message: str = "") -> str:
    """What the chart's place says without a chart: the odds being computed, the error
    that stopped them, or that the declaration rolls nothing."""
    if status == "pending":
        return COMPUTING
    if status == "error":
        return message
    return NO_ROLL


__all__ = ["COMPUTING", "NO_ROLL", "fraction_text", "odds_caption", "waiting_words"]
