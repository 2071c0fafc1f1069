"""Game setup and fleet building (R002.2-R002.6, R002.52, R002.53, R002.58, T002.2, T002.11,
A002.15).

`game_setup` reads the setup choices of R002.2 from the map's options (every one
has a value: the options' defaults fill the ones a map leaves out) and the Core
Force of each fleet (R002.4). `fleet_problems` lists what breaks the fleet-building
rules for one side; `check_fleets` raises the first as a UserError with its SPEC id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tactical.errors import UserError
from tactical.model import GameState, SizeClass, Unit
from tactical.rules.base import Problem
from tactical.rules.dystopian_wars.cards import card, squadrons
from tactical.rules.dystopian_wars.measures import contact_graph_connected
from tactical.rules.dystopian_wars.schema import CORE_FORCES, GAME_TYPES
from tactical.rules.dystopian_wars.tables import LARGE_OR_MASSIVE, TOURNAMENT_LIMITS, WING_SIZES

FORCE_ORDER = ("naval", "armoured", "aerial")  # tie-break when deriving a Core Force
# the setup choices the rule state keeps, in the order a save writes them
RULE_STATE_CHOICES = ("game_type", "field_orders", "game_length", "game_turns")


@dataclass(frozen=True)
class GameSetup:
    """R002.2: the choices made before play (Core Force per side, MFV, Game Type, Field
    Orders used, Game Length as turns or a time limit, R002.3)."""

    core_forces: Mapping[str, str]
    mfv: Mapping[str, int]
    game_type: str
    field_orders: bool
    game_length: str
    game_turns: int

    def as_rule_state(self) -> dict[str, Any]:
        """The rule state's `setup` entry: the game's choices (the Core Forces and MFV
        have entries of their own)."""
        return {name: getattr(self, name) for name in RULE_STATE_CHOICES}


def parse_core_forces(text: str) -> dict[str, str]:
    """'A=naval, B=aerial' -> {"A": "naval", "B": "aerial"} (R002.4)."""
    found: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        side, sep, force = (x.strip() for x in part.partition("="))
        if not sep or not side or force.lower() not in CORE_FORCES:
            raise UserError(
                f"core_forces entry {part!r}: expected SIDE=FORCE with FORCE one of "
                + ", ".join(CORE_FORCES),
                spec_id="R002.4",
            )
        found[side] = force.lower()
    return found


def derived_core_force(units: Sequence[Unit]) -> str:
    """A fleet's Core Force when the setup leaves it out: the force holding most of its
    points (most models when no points are given), ties in the order naval, armoured, aerial."""
    points = dict.fromkeys(FORCE_ORDER, 0)
    count = dict.fromkeys(FORCE_ORDER, 0)
    for unit in units:
        profile = card(unit)
        if profile.is_tiny_flyer:
            continue
        points[profile.force] += profile.points
        count[profile.force] += 1
    weights = points if any(points.values()) else count
    return max(FORCE_ORDER, key=lambda force: (weights[force], -FORCE_ORDER.index(force)))


def fleet_points(units: Sequence[Unit]) -> int:
    return sum(card(u).points for u in units)


def game_setup(state: GameState, options: Mapping[str, Any]) -> GameSetup:
    """R002.2-R002.4: the setup choices in force for this table."""
    game_type = str(options["game_type"])
    if game_type not in GAME_TYPES:
        raise UserError(f"game type {game_type!r}: expected one of {GAME_TYPES}", spec_id="R002.2")
    given = parse_core_forces(str(options["core_forces"]))
    unknown = sorted(set(given) - set(state.sides))
    if unknown:
        raise UserError(
            f"core_forces names side(s) {', '.join(unknown)} with no units on the table",
            spec_id="R002.4",
        )
    forces: dict[str, str] = {}
    mfv: dict[str, int] = {}
    agreed = int(options["max_fleet_value"])
    largest = max((fleet_points(_side_units(state, s)) for s in state.sides), default=0)
    for side in state.sides:
        units = _side_units(state, side)
        forces[side] = given.get(side) or derived_core_force(units)
        mfv[side] = agreed or largest
    return GameSetup(
        core_forces=forces,
        mfv=mfv,
        game_type=game_type,
        field_orders=bool(options["field_orders"]),
        game_length=str(options["game_length"]),
        game_turns=int(options["game_turns"]),
    )


def _side_units(state: GameState, side: str) -> tuple[Unit, ...]:
    return tuple(u for u in state.units if u.side == side)


# --------------------------------------------------------------------------- R002.5


def squadron_size(units: Sequence[Unit]) -> SizeClass:
    """A squadron's size class: that of its largest model."""
    return max((u.size for u in units), key=lambda size: size.rank)


def missing_mandatory(state: GameState, side: str, core_force: str) -> list[str]:
    """R002.5: which mandatory Core Force squadrons the fleet lacks ("small", "medium",
    "large or massive"); empty when it has them all."""
    found = {"small": False, "medium": False, "large or massive": False}
    for units in squadrons(state, side).values():
        if card(units[0]).force != core_force or card(units[0]).is_tiny_flyer:
            continue
        size = squadron_size(units)
        if size is SizeClass.SMALL:
            found["small"] = True
        elif size is SizeClass.MEDIUM:
            found["medium"] = True
        elif size in LARGE_OR_MASSIVE:
            found["large or massive"] = True
    return [name for name, present in found.items() if not present]


# --------------------------------------------------------------------------- R002.6


def tournament_shares(units: Sequence[Unit], core_force: str) -> dict[str, int]:
    """R002.6: points in each T002.2 category."""
    shares = dict.fromkeys(TOURNAMENT_LIMITS, 0)
    for unit in units:
        profile = card(unit)
        if unit.size in LARGE_OR_MASSIVE:
            shares["large+massive"] += profile.points
        elif unit.size is SizeClass.MEDIUM:
            shares["medium"] += profile.points
        elif unit.size is SizeClass.SMALL:
            shares["small"] += profile.points
        if profile.force != core_force:
            shares["not-core-force"] += profile.points
    return shares


def tournament_problems(units: Sequence[Unit], core_force: str, mfv: int) -> list[Problem]:
    """R002.6 / T002.2: every category over its percentage of the MFV (each independently)."""
    problems = []
    for category, points in tournament_shares(units, core_force).items():
        limit = TOURNAMENT_LIMITS[category]
        if points > limit * mfv + 1e-9:
            problems.append(
                Problem(
                    category,
                    f"at most {limit:.0%} of the MFV {mfv} ({limit * mfv:g} points) on "
                    f"{category.replace('+', ' and ').replace('-', ' ')}, not {points}",
                    "R002.6",
                )
            )
    return problems


# --------------------------------------------------------------------------- wings


def wing_problems(units: Sequence[Unit]) -> list[Problem]:
    """R002.53 / T002.11: one Tiny Flyer type per Wing, 3-5 of a combat type, exactly 1 recon."""
    types = {card(u).wing_type for u in units}
    squadron = card(units[0]).squadron
    if len(types) != 1:
        return [
            Problem(
                squadron,
                f"a Wing of one Tiny Flyer type, not {', '.join(sorted(map(str, types)))}",
                "R002.53",
            )
        ]
    wing_type = next(iter(types))
    low, high = WING_SIZES[str(wing_type)]
    if not low <= len(units) <= high:
        wanted = f"exactly {low}" if low == high else f"{low} to {high}"
        return [
            Problem(
                squadron,
                f"a {wing_type} Wing of {wanted} Tiny Flyers, not {len(units)}",
                "R002.53",
            )
        ]
    return []


def air_support_problems(wings: Mapping[str, Sequence[Unit]]) -> list[Problem]:
    """R002.58 / A002.15: at most two Wings at no points cost (Local Air Support), and at most
    one Reconnaissance Plane Wing in the whole fleet."""
    problems = []
    free = [key for key, units in wings.items() if sum(card(u).points for u in units) == 0]
    if len(free) > 2:
        problems.append(
            Problem("wings", f"at most 2 Local Air Support Wings, not {len(free)}", "R002.58")
        )
    recon = [key for key, units in wings.items() if card(units[0]).wing_type == "recon"]
    if len(recon) > 1:
        problems.append(
            Problem("wings", f"at most 1 Reconnaissance Plane Wing, not {len(recon)}", "A002.15")
        )
    return problems


def fleet_problems(state: GameState, side: str, setup: GameSetup) -> list[Problem]:
    """Everything the fleet-building rules find wrong with one side's fleet."""
    units = _side_units(state, side)
    wings = {
        key: group for key, group in squadrons(state, side).items() if card(group[0]).is_tiny_flyer
    }
    problems: list[Problem] = []
    for group in wings.values():
        problems.extend(wing_problems(group))
        if not contact_graph_connected(group):
            problems.append(
                Problem(
                    card(group[0]).squadron,
                    "a Wing deployed in formation (every Tiny Flyer in base contact with it)",
                    "R002.52",
                )
            )
    problems.extend(air_support_problems(wings))
    force = setup.core_forces[side]
    total = fleet_points(units)
    if setup.mfv[side] and total > setup.mfv[side]:
        problems.append(
            Problem("points", f"at most the MFV of {setup.mfv[side]} points, not {total}", "R002.4")
        )
    if setup.game_type in ("friendly", "tournament"):
        for missing in missing_mandatory(state, side, force):
            problems.append(
                Problem(
                    "squadrons",
                    f"at least one {force} Squadron of {missing} models (Core Force)",
                    "R002.5",
                )
            )
    if setup.game_type == "tournament":
        problems.extend(tournament_problems(units, force, setup.mfv[side]))
    return problems


def check_fleets(state: GameState, setup: GameSetup) -> None:
    """UserError for the first fleet-building problem of any side."""
    for side in state.sides:
        problems = fleet_problems(state, side, setup)
        if problems:
            problem = problems[0]
            raise UserError(
                f"fleet {side!r} ({problem.key}): expected {problem.expected}",
                spec_id=problem.spec_id,
            )
