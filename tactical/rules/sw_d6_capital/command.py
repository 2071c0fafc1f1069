"""The Command Phase (R004.15-R004.17): the Command roll, the Command Tracker, Orders.

The Command roll is the captain's Command die code (less -3D with the bridge
smashed, T004.9 #5: "all skill rolls") against the deck's Command Difficulty
(a house rule) or T004.18 by crew size. Its margin marks the tracker (T004.2a),
a pip modifier on every skill roll of the ship this turn — Gunnery, Damage
Control, Piloting, Shields — but not Initiative, Hull or Damage (A004.35).

Orders are given from the lowest to the highest Initiative (R004.14) with the
speed the ship will move at this turn: All-Out must be declared before the
Action Phase (A004.31), and a declared speed is the unit's `speed` stat, which
the movement code reads (T004.14). Lost Moves cap the speed (T004.13); a ship at
0D Maneuverability keeps its heading and speed (R004.41).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tactical.dice import Dice, Distribution, enumerate_outcomes
from tactical.errors import UserError
from tactical.rules.base import Event
from tactical.rules.sw_d6_capital.codes import CodeRoll, code_text, roll_code
from tactical.rules.sw_d6_capital.condition import Condition
from tactical.rules.sw_d6_capital.deck import Deck
from tactical.rules.sw_d6_capital.tables import (
    ORDER_TABLE,
    ORDERS,
    SPEED_ORDER,
    command_tracker,
    difficulty_name,
)


def command_code(deck: Deck, condition: Condition) -> int:
    """The Command roll's die code in pips (the bridge-smashed penalty applies)."""
    return deck.command.pips - condition.controls_damaged


@dataclass(frozen=True, slots=True)
class CommandRoll:
    """R004.15 / R004.16: the roll, its margin over the Difficulty and the tracker modifier."""

    roll: CodeRoll
    difficulty: int
    margin: int
    tracker: int


def command_roll(ship: str, pips: int, difficulty: int, dice: Dice) -> CommandRoll:
    """Roll Command against the Difficulty; the tracker marks one pip per full 3 points."""
    roll = roll_code(pips, dice, who=ship, what="command")
    margin = roll.total - difficulty
    return CommandRoll(roll, difficulty, margin, command_tracker(margin))


def command_events(ship: str, result: CommandRoll) -> tuple[Event, ...]:
    return (
        result.roll.event(ship, "command", "R004.15"),
        Event.of(
            "command",
            "R004.16",
            ship=ship,
            roll=result.roll.total,
            difficulty=result.difficulty,
            band=difficulty_name(result.difficulty),
            margin=result.margin,
            tracker=code_text(result.tracker),
            tracker_pips=result.tracker,
        ),
    )


def record_command(condition: Condition, result: CommandRoll) -> Condition:
    return replace(condition, command_rolled=True, command_mod=result.tracker)


def tracker_odds(pips: int, difficulty: int) -> Distribution[int]:
    """Exact distribution of the tracker modifier (pips), enumerating `command_roll` itself."""
    return enumerate_outcomes(
        lambda dice: command_roll("", pips, difficulty, dice).tracker
    ).sorted()


# --------------------------------------------------------------------------- orders


def speeds_for(deck: Deck, condition: Condition, current: str) -> tuple[str, ...]:
    """The speeds a ship may declare: up to its Lost Moves limit (T004.13); only its current
    speed at 0D Maneuverability (R004.41); stationary when dead in space."""
    top = SPEED_ORDER.index(condition.max_speed())
    allowed = SPEED_ORDER[: top + 1]
    if condition.maneuverability(deck) <= 0:
        return (current,) if current in allowed else (allowed[-1],)
    return allowed


def check_order(
    ship: str, deck: Deck, condition: Condition, order: str, speed: str, current: str
) -> None:
    """R004.17, T004.13, R004.41: a legal order and speed, else a UserError with the SPEC id."""
    if order not in ORDERS:
        raise UserError(
            f"unknown order {order!r} for {ship!r}: expected one of {', '.join(ORDERS)}",
            spec_id="R004.17",
        )
    allowed = speeds_for(deck, condition, current)
    if speed not in allowed:
        if speed not in SPEED_ORDER:
            why = f"expected one of {', '.join(SPEED_ORDER)}"
            rule = "R004.50"
        elif condition.maneuverability(deck) <= 0:
            why = f"at 0D Maneuverability it must keep its speed ({current})"
            rule = "R004.41"
        else:
            why = f"with {condition.lost_moves} Lost Moves it is limited to {allowed[-1]} speed"
            rule = "R004.45"
        raise UserError(f"{ship!r} cannot declare {speed!r}: {why}", spec_id=rule)


def order_event(ship: str, deck: Deck, order: str, speed: str) -> Event:
    entry = ORDER_TABLE[order]
    return Event.of(
        "order",
        "R004.17",
        ship=ship,
        order=order,
        title=entry.fighter_title if deck.fighter else entry.title,
        map_dice=entry.map_dice,
        may_fire=entry.may_fire,
        speed=speed,
    )
