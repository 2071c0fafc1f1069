"""How search's overturn rule fares, decision by decision (`hints.overturn_errors`).

Whole games are a slow judge of a rule of the search player: 400 mirrored games tell 55%
from 50% only just. This looks at the decisions instead.

- `collect` plays search against greedy on a rule system's mirrored map (the seats and
  mirrors of `bench_agents.py strength --mirror`). At each search decision with two or
  more contenders it plays every contender out `--rounds` times, the same dice for each
  in a round, exactly as search values them (its play-outs, its anchors); one JSON line a
  decision: the contenders' titles, the greedy player's scores and each round's values.
  The game then goes on as search decides it.
- `replay` judges overturn rules on those lines. For each decision, `--draws` times: as
  many rounds as a budget of play-outs gives (`playouts // contenders`, as search plays
  them) are drawn at random and judged by search's own rule (`search.choose`,
  with the standard errors asked for); the other rounds tell what each contender is
  truly worth against the greedy choice. It reports how often the greedy choice was
  overturned, how often wrongly (the held-out rounds say the chosen one gains nothing),
  and what the chosen contender gains over the greedy one, in points of material a
  decision.

    .venv/bin/python bench/bench_search_decisions.py collect --rules cortex-space \\
        --seeds 5000 5001 --rounds 40 --out cx-decisions.jsonl
    .venv/bin/python bench/bench_search_decisions.py replay cx-decisions.jsonl \\
        --playouts 12 24 --errors 0 0.5 1 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_agents import SEARCH, scenario

from tactical.agents import Budget, SearchPlayer, hints, mirrored, play_game
from tactical.agents.players import Scored
from tactical.agents.search import choose, estimate, reseeded
from tactical.session.game import Game


@dataclass
class RecordingSearch(SearchPlayer):
    """The search player, which also plays out each of its decisions' contenders `rounds`
    times and keeps what it found (`found`) before deciding as ever."""

    rounds: int = 40
    found: list[dict] = field(default_factory=list)

    def decide(self, game: Game):
        if not self.stalled(game):
            ranked = self.contenders(game)
            if len(ranked) >= 2:
                self.found.append(self.played_out(game, ranked))
        return super().decide(game)

    def played_out(self, game: Game, ranked: list[Scored]) -> dict:
        side = game.side_to_act
        material = self.greedy.material(game)
        anchors = [self.anchor(game, scored, material, side) for scored in ranked]
        reach = self.budget.reach(hints.get(game.rules, game.system))
        dice = random.Random(self.seed * 1_000_003 + game.step_number)
        rows = []
        for _ in range(self.rounds):
            sampled = reseeded(game, dice.getrandbits(48))
            row = []
            for scored, anchor in zip(ranked, anchors, strict=True):
                played = self.play_out(sampled, scored.candidate.action, side, material, reach)
                row.append(estimate(anchor, played and played[:2]))
            rows.append(row)
        return {
            "step": game.step_number,
            "turn": game.turn,
            "titles": [scored.candidate.choice.title for scored in ranked],
            "scores": [scored.score for scored in ranked],
            "rows": rows,
        }


def collect(rules_id: str, seed: int, rounds: int) -> list[dict]:
    """The decisions of one mirrored search-vs-greedy game (`bench_agents.one_game`'s
    seats and mirror)."""
    state = scenario(rules_id)
    state = mirrored(state, state.sides[(seed // 2) % 2])
    first, last = state.sides[0], state.sides[-1]
    # seeded as `play_game` seeds a search player by name in that seat (`players_for`)
    search = RecordingSearch(seed * 31 + seed % 2, Budget(**SEARCH), rounds=rounds)
    seats = {first: search, last: "greedy"} if seed % 2 == 0 else {first: "greedy", last: search}
    play_game(state, seed, seats, **SEARCH)
    return [{"rules": rules_id, "seed": seed, **found} for found in search.found]


@dataclass(frozen=True)
class Verdict:
    decisions: int
    overturned: float  # share of the draws in which the greedy choice was replaced
    wrongly: float  # share in which it was replaced by one gaining nothing
    gain: float  # mean gain of the chosen contender over the greedy one, material


def replay(decisions: list[dict], playouts: int, errors: float, draws: int) -> Verdict:
    """Search's rule on `playouts // contenders` rounds drawn at random, judged by the
    decision's other rounds (`__doc__`)."""
    dice = random.Random(1)
    judged = overturned = wrongly = 0
    gain = 0.0
    used = 0
    for decision in decisions:
        rows = [row for row in decision["rows"] if row[0] is not None]
        count = len(decision["scores"])
        rounds = max(1, playouts // count)
        if len(rows) < rounds + 2:
            continue  # nothing left over to judge by
        used += 1
        for _ in range(draws):
            order = list(range(len(rows)))
            dice.shuffle(order)
            sample = [rows[i] for i in order[:rounds]]
            held = [rows[i] for i in order[rounds:]]
            chosen = choice(sample, count, decision["scores"], errors)
            truth = mean_gain(held, chosen)
            judged += 1
            gain += truth
            if chosen:
                overturned += 1
                wrongly += truth <= 0
    if not judged:
        return Verdict(used, 0.0, 0.0, 0.0)
    return Verdict(used, overturned / judged, wrongly / judged, gain / judged)


def choice(sample: list[list], count: int, scores: list[float], errors: float) -> int:
    """The contender search chooses on `sample` (`search.choose`, as `SearchPlayer.decide`
    does): its paired gains over the greedy choice (0) in those rounds."""
    diffs = [[row[k] - row[0] for row in sample if row[k] is not None] for k in range(count)]
    return choose(diffs, scores, errors)


def mean_gain(rows: list[list], k: int) -> float:
    """Contender `k`'s mean paired gain over the greedy choice in `rows`."""
    diffs = [row[k] - row[0] for row in rows if row[k] is not None]
    return sum(diffs) / len(diffs) if diffs else 0.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="what", required=True)
    gather = commands.add_parser("collect", help="play games, playing out each decision")
    gather.add_argument("--rules", required=True)
    gather.add_argument("--seeds", type=int, nargs="+", required=True)
    gather.add_argument("--rounds", type=int, default=40)
    gather.add_argument("--out", required=True, help="JSON lines, one a decision")
    judge = commands.add_parser("replay", help="judge overturn rules on collected decisions")
    judge.add_argument("files", nargs="+")
    judge.add_argument("--playouts", type=int, nargs="+", default=[12])
    judge.add_argument("--errors", type=float, nargs="+", default=[0.0, 1.0])
    judge.add_argument("--draws", type=int, default=200)
    args = parser.parse_args(argv)
    if args.what == "collect":
        out = Path(args.out)
        if out.exists():
            print(f"{out} is there already: give another --out (or remove it)", file=sys.stderr)
            return 2
        for seed in args.seeds:
            started = time.process_time()
            found = collect(args.rules, seed, args.rounds)
            with out.open("a") as stream:
                stream.writelines(json.dumps(row) + "\n" for row in found)
            print(
                f"{args.rules} seed {seed}: {len(found)} decisions played out, "
                f"{time.process_time() - started:.0f} s CPU",
                flush=True,
            )
        return 0
    decisions = []
    for name in args.files:
        text = Path(name).read_text()
        decisions += [json.loads(line) for line in text.splitlines() if line.strip()]
    for playouts in args.playouts:
        for errors in args.errors:
            verdict = replay(decisions, playouts, errors, args.draws)
            print(
                f"{playouts:3d} play-outs, a gain above {errors:g} standard errors: "
                f"{verdict.decisions} decisions, overturned {verdict.overturned:6.1%} "
                f"(wrongly {verdict.wrongly:5.1%}), gain over the greedy choice "
                f"{100 * verdict.gain:+.2f} points a decision"
            )
    return 0


RESULTS = Path(__file__).resolve().parent / "results"
DECISIONS = RESULTS / "search-decisions-cortex-space-seeds-5000-5001.jsonl"


def test_replay_on_the_stored_decisions(benchmark):
    """`replay` over the decisions collected from two Cortex Space games (bench/results),
    as `replay DECISIONS --playouts 12 --errors 0 1` judges them (fewer draws in quick
    mode): a verdict of shares and a gain, each decision judged by its held-out rounds."""
    from conftest import quick, record

    lines = DECISIONS.read_text().splitlines()
    decisions = [json.loads(line) for line in lines if line.strip()]
    draws = quick(200, 5)
    verdicts = benchmark.pedantic(
        lambda: [replay(decisions, 12, errors, draws) for errors in (0.0, 1.0)],
        rounds=quick(3, 1),
        iterations=1,
    )
    record("search decisions: replay of two games' decisions", benchmark)
    for verdict in verdicts:
        assert 0 < verdict.decisions <= len(decisions)
        assert 0.0 <= verdict.wrongly <= verdict.overturned <= 1.0
    # a spread asked for overturns no more often than the bare mean does
    assert verdicts[1].overturned <= verdicts[0].overturned


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
