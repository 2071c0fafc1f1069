"""What a lab run plays: the run's specification, its games, their seeds and results.

A run plays `games` games of each variant. Game number `j` of every variant has the
same seed, `game_seed(run seed, j)`, and the seat `j % 2`: in seat 0 the map's first
side is played by the first AI player, in seat 1 by the second (the sides swap who is
which player from one game to the next). Games `2k` and `2k + 1` share one random
table (`terrain_seed(run seed, k)`) when the run lays random terrain, so each table
is played from both seats and in every variant (common random numbers: the variants
are compared on the same tables and dice streams).

Everything here is plain, picklable data: it is what a worker process or a Ray task
receives and sends back.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tactical.lab.variants import Variant

SEATS = 2
TERRAIN_KINDS = ("map", "random")
SEED_BITS = 62  # seeds fit a signed 64-bit SQLite integer


def derived_seed(purpose: str, run_seed: int, number: int) -> int:
    """A seed that depends on the run's seed and a number only (sha256, reproducible)."""
    digest = hashlib.sha256(f"tactical-lab-{purpose}:{run_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def game_seed(run_seed: int, number: int) -> int:
    return derived_seed("game", run_seed, number)


def terrain_seed(run_seed: int, number: int) -> int:
    """The random table of game `number` (shared by the two seats of a pair)."""
    return derived_seed("terrain", run_seed, number // SEATS)


def run_key(
    map_text: str, options: Sequence[str], players: Sequence[str], terrain: str, seed: int
) -> str:
    """A run's key: the digest of its map's text, its variants' options (canonical JSON),
    its players, terrain and seed. The store finds a run by it, and checks a stored run's
    row against it."""
    document = {
        "map": map_text,
        "variants": list(options),
        "players": list(players),
        "terrain": terrain,
        "seed": seed,
    }
    return hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()


def map_digest(map_text: str) -> str:
    """What a scenario is known by: its map's content (two maps with one title differ)."""
    return hashlib.sha256(map_text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class RunSpec:
    """A run as the workers need it: the map (its TOML text), the variants, the players.

    `players` are the AI levels of the first and second player; `terrain` is "map" (the
    map's own terrain) or "random" (R002.9, a new table for each pair of games).
    """

    map_text: str
    map_source: str
    rules: str
    title: str
    sides: tuple[str, str]
    variants: tuple[Variant, ...]
    players: tuple[str, str]
    terrain: str
    seed: int
    games: int

    @property
    def key(self) -> str:
        """What identifies the run in the results store: the same key resumes it."""
        options = [v.options_json for v in self.variants]
        return run_key(self.map_text, options, self.players, self.terrain, self.seed)

    def tasks(self) -> Iterator[GameTask]:
        """Every game of the run, game number by game number, variants interleaved."""
        for number in range(self.games):
            for variant in range(len(self.variants)):
                yield self.task(variant, number)

    def task(self, variant: int, number: int) -> GameTask:
        return GameTask(
            variant=variant,
            number=number,
            seed=game_seed(self.seed, number),
            seat=number % SEATS,
            terrain_seed=terrain_seed(self.seed, number) if self.terrain == "random" else None,
        )

    def players_by_side(self, seat: int) -> dict[str, str]:
        """Which AI level plays which side in `seat` (seat 1 swaps them)."""
        first, second = self.sides
        one, two = self.players
        return {first: one, second: two} if seat == 0 else {first: two, second: one}


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: its variant, its number, its seed, the seat and the table."""

    variant: int
    number: int
    seed: int
    seat: int
    terrain_seed: int | None = None


@dataclass(frozen=True, slots=True)
class UnitFate:
    """How one unit ended a game: its class, its side, and whether it was lost."""

    unit_id: str
    unit_class: str
    side: str
    lost: bool


@dataclass(frozen=True)
class SideResult:
    """One side's figures in a game: its AI level, its score, the share of its starting
    strength it lost, the enemy strength it took (damage dealt), the units it lost, and
    the damage it had dealt by the end of each turn (cumulative, turn 1 first)."""

    side: str
    ai: str
    score: float
    losses: float
    damage: float
    units_lost: int = 0
    damage_by_turn: tuple[float, ...] = ()


@dataclass(frozen=True)
class GameResult:
    """A played game as the results store keeps it (one row)."""

    variant: int
    number: int
    seed: int
    seat: int
    terrain_seed: int | None
    winner: str | None  # None: a draw
    reason: str
    spec_id: str | None
    turns: int
    steps: int
    sides: tuple[SideResult, SideResult]
    units: tuple[UnitFate, ...] = ()
    seconds: float = 0.0
    code_version: str = ""


def chunked(tasks: Sequence[GameTask], size: int) -> list[tuple[GameTask, ...]]:
    """`tasks` in chunks of `size` (the last may be shorter): many games per task."""
    if size < 1:
        raise ValueError("a chunk holds at least one game")
    return [tuple(tasks[start : start + size]) for start in range(0, len(tasks), size)]


def chunk_size(pending: int, workers: int, largest: int = 16) -> int:
    """Games per chunk: about four chunks per worker (so the load evens out and an
    interrupted chunk loses little), at most `largest`."""
    if pending <= 0:
        return 1
    return max(1, min(largest, -(-pending // (4 * max(1, workers)))))
