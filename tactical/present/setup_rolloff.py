"""The setup panel's roll-off (R002.16): the dice thrown for each press, and their words.

2D6 each, ties re-roll; the winner picks the edge. Each press of Roll-off throws afresh
but reproducibly: its dice are seeded from the table's terrain seed and how many times
the button was pressed. No pygame: the setup panel (tactical.ui.setup_mode) shows the
words.
"""

from __future__ import annotations

from collections.abc import Sequence

from tactical.dice import SeededDice
from tactical.session.deployment import RollOff, roll_off

SEED_STRIDE = 7919  # a prime: the presses of one terrain seed never meet another seed's


def seeded_roll_off(seed: int, press: int, sides: Sequence[str]) -> RollOff:
    """The roll-off of the `press`-th press (from 1) on a table rolled from `seed`."""
    return roll_off(SeededDice(seed * SEED_STRIDE + press), tuple(sides))


def roll_off_html(rolloff: RollOff) -> str:
    """The last two rounds' dice and who picks the edge."""
    lines = [
        ", ".join(f"{side} {a}+{b}={a + b}" for side, (a, b) in rnd.dice.items())
        for rnd in rolloff.rounds
    ]
    return "<br>".join(lines[-2:]) + f" <b>{rolloff.winner} picks an edge</b>"
