"""Budgets and figures for the agents.

- a greedy decision <= 50 ms median on each scenario (positions of a greedy-vs-greedy
  game), against a naive greedy measured in the same run (every candidate's dice
  enumerated, instead of one sampled roll each and the best four enumerated);
- a whole greedy-vs-greedy game of each scenario: games per second per core (one process);
- strength tables and a soak (not part of pytest: minutes to hours):

      .venv/bin/python bench/bench_agents.py strength --games 400 --search-games 400
      .venv/bin/python bench/bench_agents.py soak --games 1000
      .venv/bin/python bench/bench_agents.py soak --games 200 --include gr.json sg.json
      AGENT_GAMES=400 .venv/bin/python bench/bench_agents.py strength   # the same

  `--games` (default: the AGENT_GAMES environment variable, else 40) is the number of
  games per pairing per system (strength) or per system (soak); `--workers` processes
  play them (default 2); `--rules` picks systems; `--out` keeps the raw results (JSON).

  Seat-swapped pairings (each pairing plays both seats equally often), win / draw / loss
  counts with the stronger side's win rate and its Wilson 95% interval; the soak plays
  random and greedy players (`SOAK_LEVELS`) and counts refused actions, exceptions and
  games that did not end, over its own games and those of the strength runs it includes
  (`--include`: their `--out` files, or the `.jsonl` journal next to `--out` that a run
  appends each finished game to, so a run cut short keeps its games).

Run: .venv/bin/pytest bench/bench_agents.py --benchmark-enable -p no:cacheprovider
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from tactical.agents import GreedyPlayer, mirrored, play_game, with_options
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.session.game import Game

RULES = registry.rule_ids()
DECISION_BUDGET = 0.050
POSITIONS = 40  # decisions of a greedy game sampled per scenario
# the play-outs' reach (horizon, turn_end) is the rule system's hint, else 12 steps and no
# further than the turn's end (`search.Budget.reach`)
SEARCH: dict[str, int | bool | None] = {"playouts": 12, "seconds": None, "width": 4}
if os.environ.get("AGENT_SEARCH"):  # another budget for an experiment: "playouts=24,width=6"
    for _pair in os.environ["AGENT_SEARCH"].split(","):
        _key, _, _value = _pair.partition("=")
        if _key not in ("playouts", "width", "horizon", "turn_end") or not _value.isdigit():
            print(
                f"AGENT_SEARCH: {_pair!r} is not KEY=NUMBER with KEY one of playouts, width, "
                "horizon, turn_end (e.g. playouts=24,width=4,horizon=12,turn_end=1)",
                file=sys.stderr,
            )
            sys.exit(2)
        SEARCH[_key] = _value == "1" if _key == "turn_end" else int(_value)
# the soak's pairings, in turn by seed: random games reach the oddest states, cheaply
SOAK_LEVELS = [
    ("random", "random"),
    ("greedy", "random"),
    ("random", "random"),
    ("greedy", "greedy"),
    ("random", "random"),
]

try:
    from conftest import RATIOS, record
except ImportError:  # run as a script
    RATIOS, record = [], None


def scenario(rules_id: str):
    return load_map(builtin_map(rules_id))


def positions(rules_id: str) -> list[Game]:
    """`POSITIONS` games spread evenly over a greedy-vs-greedy game (before a decision)."""
    state = scenario(rules_id)
    record_ = play_game(state, 1, {side: "greedy" for side in state.sides})
    games = [Game.new(state, 1)]
    for step in record_.game.steps:
        games.append(games[-1].apply(step.action))
    games = [game for game in games if not game.over]  # a finished game has no decision
    every = max(1, len(games) // POSITIONS)
    return games[::every][:POSITIONS]


for rules_id in RULES:
    RATIOS.append(
        (
            f"greedy decision vs naive {rules_id}",
            f"greedy decision (naive) {rules_id}",
            f"greedy decision {rules_id}",
            1.0,
        )
    )


@pytest.mark.parametrize("naive", [False, True], ids=["greedy", "naive"])
@pytest.mark.parametrize("rules_id", RULES)
def test_greedy_decision(benchmark, rules_id, naive):
    games = positions(rules_id)
    player = GreedyPlayer(3, refined=10**6 if naive else 4)
    cursor = iter(range(10**9))

    def decide():
        player.decide(games[next(cursor) % len(games)])

    benchmark.pedantic(decide, rounds=len(games) * (1 if naive else 2), iterations=1)
    name = f"greedy decision{' (naive)' if naive else ''} {rules_id}"
    record(name, benchmark, None if naive else DECISION_BUDGET)
    if benchmark.stats is not None and not naive:
        assert benchmark.stats.stats.median <= DECISION_BUDGET


@pytest.mark.parametrize("rules_id", RULES)
def test_greedy_game(benchmark, rules_id):
    state = scenario(rules_id)
    seeds = iter(range(100, 10**6))

    def game():
        play_game(state, next(seeds), {side: "greedy" for side in state.sides})

    benchmark.pedantic(game, rounds=2, iterations=1)
    record(f"greedy game {rules_id}", benchmark)
    if benchmark.stats is not None:
        median = benchmark.stats.stats.median
        print(f"\n{rules_id}: {1 / median:.3f} greedy-vs-greedy games per second per core")


# --------------------------------------------------------------------------- strength


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


def one_game(job: tuple[str, int, str, str, dict]) -> dict:
    """One seat of a pairing: `strong` plays the first side when the seed is even. With
    the option `mirror`, on the map with one side's fleet on both (`mirrored`): the first
    side's when the seed's half is even, so each mirror is played from both seats."""
    rules_id, seed, strong, weak, options = job
    state = scenario(rules_id)
    options = dict(options)
    mirror = options.pop("mirror", False)
    if mirror:
        state = mirrored(state, state.sides[(seed // 2) % 2])
    if options:
        state = with_options(state, **options)
    first, last = state.sides[0], state.sides[-1]
    seats = {first: strong, last: weak} if seed % 2 == 0 else {first: weak, last: strong}
    started, cpu = time.perf_counter(), time.process_time()
    try:
        game = play_game(state, seed, seats, **SEARCH)
    except Exception as error:  # the soak counts them
        return {
            "rules": rules_id,
            "seed": seed,
            "pairing": f"{strong}-{weak}",
            "error": f"{type(error).__name__}: {error}",
            "cpu": time.process_time() - cpu,
        }
    strong_side = first if seats[first] == strong else last
    winner = game.outcome.winner
    return {
        "rules": rules_id,
        "seed": seed,
        "pairing": f"{strong}-{weak}",
        "result": "draw" if winner is None else ("win" if winner == strong_side else "loss"),
        "seat": "first" if strong_side == first else "last",  # the strong player's side
        "map": state.title,
        "mirror": mirror,
        "steps": game.steps,
        "turns": game.turns,
        "refused": game.refused,
        "seconds": time.perf_counter() - started,
        "cpu": time.process_time() - cpu,
    }


def run_jobs(jobs: list, workers: int, journal: Path | None = None) -> list[dict]:
    """Every job's result, in order; a line per finished game on stderr (long runs).

    With a `journal`, each finished game is also appended to it as a JSON line, so a run
    cut short keeps its games (`--include` reads the journal as well).
    """
    found: list[dict] = []

    def report(row: dict) -> None:
        found.append(row)
        if journal is not None:
            with journal.open("a") as stream:
                stream.write(json.dumps(row) + "\n")
        outcome = row.get("result", row.get("error", ""))
        print(f"  {len(found)}/{len(jobs)} {row['rules']} seed {row['seed']}: {outcome}",
              file=sys.stderr, flush=True)  # fmt: skip

    if workers <= 1:
        for job in jobs:
            report(one_game(job))
        return found
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for row in pool.map(one_game, jobs, chunksize=1):
            report(row)
    return found


def seat_record(rows: list[dict], seat: str) -> str:
    """The stronger player's wins-draws-losses from one seat (the first or the last side)."""
    mine = [r for r in rows if r.get("seat") == seat]
    counts = [sum(r["result"] == result for r in mine) for result in ("win", "draw", "loss")]
    return "-".join(str(count) for count in counts)


def table(results: list[dict], strong: str, weak: str, rules: list[str]) -> list[str]:
    lines = []
    for rules_id in rules:
        rows = [r for r in results if r["rules"] == rules_id and "result" in r]
        wins = sum(r["result"] == "win" for r in rows)
        draws = sum(r["result"] == "draw" for r in rows)
        losses = sum(r["result"] == "loss" for r in rows)
        games = len(rows)
        low, high = wilson(wins, games)
        rate = wins / games if games else 0.0
        seconds = sum(r["seconds"] for r in rows) / games if games else 0.0
        cpu = sum(r["cpu"] for r in rows) / games if games else 0.0
        score = (wins + draws / 2) / games if games else 0.0
        by_seat = "  ".join(
            f"{seat} side {seat_record(rows, seat)}" for seat in ("first", "last")
            if any(r.get("seat") == seat for r in rows)
        )  # fmt: skip
        lines.append(
            f"{rules_id:<18} {strong} vs {weak}: {games:4d} games  W {wins:3d} D {draws:3d} "
            f"L {losses:3d}  win {100 * rate:5.1f}% [95% {100 * low:5.1f}-{100 * high:5.1f}]"
            f"  score {100 * score:5.1f}% (a draw half a win)  {by_seat}"
            f"  {seconds:6.1f} s/game wall, {cpu:6.1f} s/game CPU"
        )
    return lines


def earlier_games(path: Path) -> list[dict]:
    """The games of an earlier run: its `--out` file, or the journal of a run cut short."""
    text = path.read_text()
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)["results"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("strength", "soak"))
    default_games = int(os.environ.get("AGENT_GAMES", "40"))
    parser.add_argument(
        "--games", type=int, default=default_games, help="games per pairing per system"
    )
    parser.add_argument("--search-games", type=int, default=None, help="default: --games")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--first-seed", type=int, default=0, help="seeds run from this one (more games later)"
    )
    parser.add_argument("--rules", nargs="*", default=list(RULES))
    parser.add_argument(
        "--mirror",
        action="store_true",
        help="strength on mirrored maps: one side's fleet on both (a fair fight)",
    )
    parser.add_argument("--out", default=None, help="JSON file for the raw results")
    parser.add_argument(
        "--include",
        nargs="*",
        default=[],
        help="also count the games of earlier runs (their --out JSON files)",
    )
    parser.add_argument(
        "--pairing",
        choices=("all", "greedy-random", "search-greedy", "greedy-greedy", "random-random"),
        default="all",
        help=(
            "strength: one pairing (greedy-greedy: the baseline of each seat on the same "
            "seeds); soak: random-random plays only random games"
        ),
    )
    args = parser.parse_args(argv)
    lines: list[str] = []
    results: list[dict] = []
    started = time.perf_counter()
    cpu_before = time.process_time()
    included = []  # the games of earlier runs (`--include`), counted with this run's
    for name in args.include:
        included += [row for row in earlier_games(Path(name)) if row["rules"] in args.rules]
    journal = Path(args.out).with_suffix(".jsonl") if args.out else None
    if journal is not None and journal.exists():  # appending would count its games twice
        print(
            f"{journal} is there from an earlier run: count its games with --include "
            f"{journal} and give this run another --out (or remove it)",
            file=sys.stderr,
        )
        return 2
    if args.what == "strength":
        search_games = args.games if args.search_games is None else args.search_games
        pairings = [("greedy", "random", args.games), ("search", "greedy", search_games)]
        if args.pairing == "greedy-greedy":
            pairings = [("greedy", "greedy", args.games)]
        for strong, weak, count in pairings:
            if args.pairing not in ("all", f"{strong}-{weak}"):
                continue
            seeds = range(args.first_seed, args.first_seed + count)
            options = {"mirror": True} if args.mirror else {}
            jobs = [(r, seed, strong, weak, options) for r in args.rules for seed in seeds]
            found = run_jobs(jobs, args.workers, journal) if jobs else []
            results.extend({**row, "pairing": f"{strong}-{weak}"} for row in found)
            earlier = [
                row for row in included
                if row.get("pairing") == f"{strong}-{weak}"
                and row.get("mirror", False) == args.mirror
            ]  # fmt: skip
            lines += table(found + earlier, strong, weak, args.rules)
            print("\n".join(lines[-len(args.rules) :]), flush=True)
    else:
        levels = [("random", "random")] if args.pairing == "random-random" else SOAK_LEVELS
        jobs = [
            (r, seed, *levels[seed % len(levels)], {})
            for r in args.rules
            for seed in range(args.first_seed, args.first_seed + args.games)
        ]
        results = run_jobs(jobs, args.workers, journal) if jobs else []
        for rules_id in args.rules:
            rows = [r for r in results + included if r["rules"] == rules_id]
            errors = [r for r in rows if "error" in r]
            refused = sum(r.get("refused", 0) for r in rows)
            pairings: dict[str, int] = {}
            for row in rows:
                pairings[row.get("pairing", "?")] = pairings.get(row.get("pairing", "?"), 0) + 1
            mix = ", ".join(f"{count} {name}" for name, count in sorted(pairings.items()))
            lines.append(
                f"{rules_id:<18} soak: {len(rows)} games ({mix}), {len(errors)} errors or "
                f"games that did not end, {refused} refused actions"
                + (f"; first: {errors[0]['error']}" if errors else "")
            )
        print("\n".join(lines), flush=True)
    cpu = sum(r.get("cpu", 0.0) for r in results) + time.process_time() - cpu_before
    lines.append(
        f"({len(results)} games: {time.perf_counter() - started:.0f} s wall, "
        f"{cpu:.0f} s CPU in all processes, {args.workers} workers)"
    )
    print(lines[-1])
    if args.out:
        Path(args.out).write_text(json.dumps({"lines": lines, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
