"""Battlefleet Mars logistics (seed 000 rules 3 and 4): LP purchases, the separate budget, launches.

- R000.15: 1 LP buys 3 fighters or 6 missiles (whole LP of one kind by
  default, A000.10; option `lp_granularity`).
- R000.16: fighter/missile spending is its own budget: it and the "other"
  spending are each checked against the game-turn's limit L (option
  `lp_limit`, default 4 = Mars in game-turns 11-15, X000.1).
- R000.17: a ship or base launches up to twice its launch capacity in
  missiles a turn; fighters keep the base rate of one launch capacity (A000.13).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from tactical.dice import fraction_text
from tactical.errors import UserError
from tactical.model import CircleBase, FrozenMap, GameState, MovementClass, SizeClass, Unit
from tactical.model.worded import worded
from tactical.rules.base import Event, Resolution, unit_name
from tactical.rules.battlefleet_mars.combat import settings
from tactical.rules.battlefleet_mars.tables import budget_problems, launch_limit, lp_cost
from tactical.rules.battlefleet_mars.units import UnitType, profile

GROUP_BASE = CircleBase(0.5)  # launched fighters and missiles: a small counter


@dataclass(frozen=True, slots=True)
class Purchase:
    """Fighters and missiles bought for one ship or base (delivered to its stores)."""

    unit: str
    fighters: int = 0
    missiles: int = 0


def check_budget(limit: int, fighter_missile_lp: Fraction | int, other_lp: Fraction | int) -> None:
    """R000.16: UserError unless each of the two budgets is within the limit."""
    problems = budget_problems(limit, Fraction(fighter_missile_lp), Fraction(other_lp))
    if problems:
        raise UserError("; ".join(problems), spec_id="R000.16")


def resolve_purchase(
    state: GameState,
    purchases: Sequence[Purchase],
    other_lp: Fraction | int = 0,
    limit: int | None = None,
) -> Resolution:
    """Buy fighters and missiles for this game-turn (R000.15, R000.16); nothing changes if illegal.

    `other_lp` is what the side spends on everything else this game-turn;
    `limit` defaults to the `lp_limit` option.
    """
    options = settings(state)
    cap = int(options["lp_limit"]) if limit is None else limit
    fighters = missiles = 0
    new_state = state
    for purchase in purchases:
        if purchase.fighters < 0 or purchase.missiles < 0:
            raise UserError(
                "cannot buy a negative number of fighters or missiles", spec_id="R000.15"
            )
        if not state.has_unit(purchase.unit):
            raise UserError(f"unknown unit {purchase.unit!r} to deliver a purchase to")
        unit = new_state.unit(purchase.unit)
        card = profile(unit)
        if not card.is_carrier:
            raise UserError(
                f"unit {unit.id!r} is a {card.kind}: "
                "only ships and bases carry fighters and missiles"
            )
        fighters += purchase.fighters
        missiles += purchase.missiles
        new_state = new_state.replace_unit(
            unit.with_stats(
                fighters=card.fighters + purchase.fighters,
                missiles=card.missiles + purchase.missiles,
            )
        )
    cost = lp_cost(fighters, missiles, str(options["lp_granularity"]))
    check_budget(cap, cost, other_lp)
    if not worded():  # read for the state alone (`model.worded`): no words
        return Resolution(new_state, (), cost)
    events = (
        Event.of(
            "lp-cost",
            "R000.15",
            fighters=fighters,
            missiles=missiles,
            lp=fraction_text(cost),
            granularity=options["lp_granularity"],
        ),
        Event.of(
            "budget",
            "R000.16",
            limit=cap,
            fighter_missile_lp=fraction_text(cost),
            other_lp=fraction_text(Fraction(other_lp)),
            legal=True,
        ),
    )
    return Resolution(new_state, events, cost)


def _free_id(state: GameState, stem: str) -> str:
    """`stem-N`, N the first number no unit on the table has. A destroyed group's id is
    used again, as it always was: a saved game names the groups it launched by these ids,
    and its replay must find them (the name, `group_name`, follows from the id, so the
    roster's entry for it reads the same)."""
    number = 1
    while state.has_unit(f"{stem}-{number}"):
        number += 1
    return f"{stem}-{number}"


def group_name(state: GameState, launcher_id: str, kind: UnitType, number: int) -> str:
    """A launched group's name (R000.17): what it is, its number among the launcher's
    groups of that kind (as in its id) and whose, as a player reads it ("Missiles 2 from
    Catapult Phobos"): distinct from the others, so that `GameState.shown_names` adds no
    number after the launcher's (never "... Catapult 1 2"). No count: combat lowers it
    (R000.18)."""
    return f"{kind.value.capitalize()}s {number} from {unit_name(state, launcher_id)}"


def resolve_launch(
    state: GameState, launcher_id: str, *, missiles: int = 0, fighters: int = 0
) -> Resolution:
    """Launch from a ship or base (R000.17): new fighter/missile groups at its position."""
    if not state.has_unit(launcher_id):
        raise UserError(f"unknown launching unit {launcher_id!r}")
    launcher = state.unit(launcher_id)
    card = profile(launcher)
    if not card.is_carrier:
        raise UserError(f"unit {launcher.id!r} is a {card.kind}: only ships and bases launch")
    if missiles < 0 or fighters < 0 or missiles + fighters == 0:
        raise UserError("a launch needs a positive number of missiles or fighters")
    missile_room = launch_limit(card.launch_capacity) - card.launched
    if missiles > missile_room:
        raise UserError(
            f"{launcher.id!r} may launch {launch_limit(card.launch_capacity)} missiles a turn "
            f"(twice its launch capacity {card.launch_capacity}), {card.launched} already "
            f"launched: {missiles} is too many",
            spec_id="R000.17",
        )
    fighter_room = card.launch_capacity - card.fighters_launched
    if fighters > fighter_room:
        raise UserError(
            f"{launcher.id!r} may launch {card.launch_capacity} fighters a turn, "
            f"{card.fighters_launched} already launched: {fighters} is too many",
            spec_id="A000.13",
        )
    if missiles > card.missiles or fighters > card.fighters:
        raise UserError(
            f"{launcher.id!r} carries {card.missiles} missile(s) and {card.fighters} fighter(s)"
        )
    new_state = state.replace_unit(
        launcher.with_stats(
            missiles=card.missiles - missiles,
            fighters=card.fighters - fighters,
            launched=card.launched + missiles,
            fighters_launched=card.fighters_launched + fighters,
        )
    )
    events = [
        Event.of(
            "launch",
            "R000.17",
            launcher=launcher.id,
            missiles=missiles,
            fighters=fighters,
            missile_limit=launch_limit(card.launch_capacity),
        )
    ]
    for kind, count in ((UnitType.MISSILE, missiles), (UnitType.FIGHTER, fighters)):
        if not count:
            continue
        group_id = _free_id(new_state, f"{launcher.id}-{kind}s")
        number = int(group_id.rsplit("-", 1)[1])
        group = Unit(
            id=group_id,
            name=group_name(state, launcher.id, kind, number),
            side=launcher.side,
            pose=launcher.pose,
            base=GROUP_BASE,
            movement=MovementClass.SPACE,
            size=SizeClass.TINY,
            stats=FrozenMap(type=kind.value, count=count),
        )
        new_state = replace(new_state, units=(*new_state.units, group))
        events.append(Event.of("group-launched", "R000.17", unit=group_id, type=kind.value))
    return Resolution(new_state, tuple(events), (missiles, fighters))


def start_turn(state: GameState) -> GameState:
    """A new turn: every launcher's per-turn launch counts go back to 0 (R000.17)."""
    units = []
    for unit in state.units:
        if profile(unit).is_carrier and (
            unit.stats.get("launched", 0) or unit.stats.get("fighters_launched", 0)
        ):
            unit = unit.with_stats(launched=0, fighters_launched=0)
        units.append(unit)
    return replace(state, units=tuple(units))
