"""Building a run's specification from a map file and the command line's choices.

Everything is checked here, before anything is played or written: the map loads, it
has exactly two sides (the lab seats two players), the options given are the rule
system's, the AI levels are known, the numbers are in range.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tactical.errors import UserError
from tactical.io.files import read_input
from tactical.io.maps import loads_map
from tactical.lab.plan import TERRAIN_KINDS, RunSpec
from tactical.lab.variants import build_variants
from tactical.model import GameState
from tactical.rules import registry

MAX_GAMES = 10_000_000


def read_map_text(path: str | os.PathLike[str]) -> str:
    """The map's text: only a regular file of sensible size is read (`read_input`)."""
    source = Path(path)
    try:
        return read_input(source).decode("utf-8")
    except FileNotFoundError:
        raise UserError(f"{str(source)!r}: no such map file") from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise UserError(f"{str(source)!r}: cannot read the map ({reason})") from None
    except UnicodeDecodeError as error:
        raise UserError(f"{str(source)!r}: cannot read the map ({error.reason})") from None


def parse_players(text: str, levels: Sequence[str]) -> tuple[str, str]:
    """`--ai LEVEL` (both players) or `--ai LEVEL,LEVEL` (first and second player)."""
    names = [name.strip() for name in text.split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2:
        raise UserError(f"--ai {text!r}: expected LEVEL or LEVEL,LEVEL (two players)")
    for name in names:
        if name not in levels:
            raise UserError(
                f"--ai {text!r}: unknown level {name!r} (expected one of " + ", ".join(levels) + ")"
            )
    return names[0], names[1]


def build_spec(
    map_path: str | os.PathLike[str],
    games: int,
    players: tuple[str, str],
    set_items: Sequence[str] = (),
    against_items: Sequence[str] = (),
    terrain: str = "map",
    seed: int = 0,
) -> RunSpec:
    """The run's specification (see the module docstring); UserError on bad input."""
    if isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games {games}: expected a whole number from 1 to {MAX_GAMES}")
    if seed < 0 or seed >= 2**62:
        raise UserError(f"--seed {seed}: expected a whole number from 0 to 2^62 - 1")
    if terrain not in TERRAIN_KINDS:
        raise UserError(f"--terrain {terrain!r}: expected one of " + ", ".join(TERRAIN_KINDS))
    text = read_map_text(map_path)
    state = loads_map(text, str(map_path))
    sides = two_sides(state, str(map_path))
    system = registry.get(state.rules)
    variants = build_variants(system, dict(state.options), set_items, against_items)
    return RunSpec(
        map_text=text,
        map_source=Path(map_path).name,
        rules=state.rules,
        title=state.title or Path(map_path).stem,
        sides=sides,
        variants=variants,
        players=players,
        terrain=terrain,
        seed=seed,
        games=games,
    )


def two_sides(state: GameState, source: str) -> tuple[str, str]:
    sides = state.sides
    if len(sides) != 2:
        raise UserError(
            f"{source}: the lab plays two sides against each other; this map has "
            f"{len(sides)} ({', '.join(sides) or 'no units'})"
        )
    return sides[0], sides[1]
