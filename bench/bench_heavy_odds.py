"""The heaviest exact odds of each rule system, and plain dice sums against icepool.

Run: .venv/bin/pytest bench/bench_heavy_odds.py --benchmark-enable -p no:cacheprovider
(BENCH_QUICK=1: each case once, the first system only.)

- Plain pools: `tactical odds 10d6` is `expression_odds`, the exact enumeration of
  `roll_expression` itself, whose dice are steps that add one die to a sum (`DieStep`): the
  enumerator convolves the sum with each die instead of replaying the step. Timed on the
  first call in a fresh process (as a player's `tactical odds` meets it), against icepool's
  first call in a fresh process (both timed inside the child: wall time of the call, not
  the start-up), and against the same fold with its steps hidden from the enumerator (the
  replayed tree, as before): budget, at most icepool's time.
- The heaviest odds of each system (budget 100 ms each; figures over it are printed OVER,
  not failed: they are the figures the closing note gives), in CPU time: every round from
  the dice up (what the odds remember between calls forgotten first), and the first call in
  a fresh process; against a 100,000-sample Monte Carlo of the same resolver (CPU time of
  2,000 seeded runs, scaled). Quick mode: one round, 20 samples, no child process.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bench_cortex_space import heavy_attack as cortex_heavy
from bench_dystopian_wars import battle
from bench_heavy_combat import _duel, _shields_down, _ship
from bench_sw_d6_capital import MAP as SW_MAP
from bench_sw_d6_capital import _heavy_attack as sw_heavy
from conftest import BEST, BUDGETS, FIGURES, RATIOS, quick, record

from tactical.dice import SeededDice
from tactical.dice.exact import enumerate_outcomes
from tactical.dice.notation import _expression_steps, _Progress, _total_only, parse_expression
from tactical.io import load_map
from tactical.model import Board, CircleBase, FrozenMap, GameState, MovementClass, Pose, Unit
from tactical.rules import registry

BUDGET = 0.100
POOLS = ("10d6", "20d10")
FIRST_CALL = {
    "ours": (
        "from tactical.dice.notation import expression_odds, parse_expression;"
        "expression = parse_expression({text!r});"
        "import time; start = time.perf_counter(); expression_odds(expression);"
        "print(time.perf_counter() - start)"
    ),
    "icepool": (
        "import icepool, time; count, sides = {count}, {sides};"
        "start = time.perf_counter(); (count @ icepool.Die(range(1, sides + 1))).probabilities();"
        "print(time.perf_counter() - start)"
    ),
}


def first_call(which: str, text: str, repeat: int) -> float:
    """The best wall time of one first call in a fresh process (the child times the call)."""
    count, sides = (int(part) for part in text.split("d"))
    code = FIRST_CALL[which].format(text=text, count=count, sides=sides)
    best = float("inf")
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        best = min(best, float(out.stdout.strip()))
    return best


def replayed(text: str) -> Callable[[], Any]:
    """The same fold with each die's step hidden behind a plain function: the enumerator
    replays it as it did before it knew a sum step (the baseline)."""
    expression = parse_expression(text)
    steps = [
        (lambda state, dice, step=step: step(state, dice))
        for step in _expression_steps(expression, "")
    ]

    def run() -> Any:
        return enumerate_outcomes(
            lambda dice: dice.fold(_Progress(expression.constant, (), True), steps, key=_total_only)
        )

    return run


@pytest.mark.parametrize("text", POOLS)
def test_plain_pool_first_call_against_icepool(benchmark, text):
    repeat = quick(5, 1)
    ours = first_call("ours", text, repeat)
    theirs = first_call("icepool", text, repeat)
    before = replayed(text)
    benchmark.pedantic(before, rounds=quick(5, 1), iterations=1)
    record(f"{text} replayed (before)", benchmark)
    if benchmark.stats is not None:
        FIGURES[f"{text} first call, ours"] = ours
        FIGURES[f"{text} first call, icepool"] = theirs
        RATIOS.append((f"{text}: icepool / ours", f"{text} first call, icepool",
                       f"{text} first call, ours", 1.0))  # fmt: skip
        RATIOS.append((f"{text}: replayed / convolved", f"{text} replayed (before)",
                       f"{text} first call, ours", 1.0))  # fmt: skip
        assert ours <= theirs, f"{text}: {ours * 1e3:.2f} ms, icepool {theirs * 1e3:.2f} ms"


# --------------------------------------------------------------------------- heaviest attacks

SAMPLES = 100_000  # the Monte Carlo baseline's size, timed on SAMPLED runs and scaled
SAMPLED = 2_000


def _attack_case(system_id: str, build: Callable[[], tuple]) -> Callable[[], tuple]:
    """An attack's odds and one seeded resolution of it (the Monte Carlo baseline)."""

    def case() -> tuple:
        system = registry.get(system_id)
        state, attack = build()

        def sample(seed: int) -> Any:
            return system.resolve_attack(state, attack, SeededDice(seed)).summary

        return system.attack_odds, (state, attack), sample

    return case


def _bfm_salvo() -> tuple[GameState, Any]:
    """Battlefleet Mars: a salvo of nine missiles into a base's CIWS."""
    bfm = registry.get("battlefleet-mars")

    def unit(unit_id: str, x: float, side: str, **stats: Any) -> Unit:
        return Unit(unit_id, unit_id, side, Pose(x, 10), CircleBase(0.5),
                    MovementClass.SPACE, stats=FrozenMap(stats))  # fmt: skip

    state = GameState(
        "battlefleet-mars",
        Board(48, 48),
        units=(unit("a", 10, "A", type="missile", count=9), unit("t", 13, "B", type="base")),
    )
    return state, bfm.declare_attack(state, "a", "missiles", "t")


def _hc_photon() -> tuple[GameState, Any]:
    """Heavy Combat: a photon at range 1 into a ship whose shields are down."""
    hc = registry.get("heavy-combat")
    state = _shields_down(_duel(6.0))
    return state, hc.declare_attack(state, "a", "photon-1", "b")


def _hc_photon_2d6() -> tuple[GameState, Any]:
    """Heavy Combat: the same photon with the tracking weapons' 2d6 damage roll (A001.6)."""
    hc = registry.get("heavy-combat")
    units = (_ship("a", 20.0, 90.0, "A"), _ship("b", 26.0, 270.0, "B"))
    options = FrozenMap(tracking_damage_die="2d6")
    table = GameState("heavy-combat", Board(72, 48), options=options, units=units)
    state = _shields_down(hc.setup(table))
    return state, hc.declare_attack(state, "a", "photon-1", "b")


def _sw_initiative() -> tuple:
    """SW D6: the Initiative contest of the scenario's six captains (the odds shown before
    a turn's Initiative roll); the baseline resolves the contest of the same captains."""
    from tactical.rules.base import Action
    from tactical.rules.sw_d6_capital import initiative, ledger
    from tactical.rules.sw_d6_capital.odds import NO_ROLLS, contest_entries
    from tactical.rules.sw_d6_capital.sequence import turn_upkeep

    sw = registry.get("sw-d6-capital")
    state = sw.setup(load_map(SW_MAP))
    upkept, _ = turn_upkeep(state.with_rule_state(turn=ledger.turn_of(state) + 1), NO_ROLLS)
    captains = contest_entries(upkept)

    def sample(seed: int) -> Any:
        contest = initiative.resolve_contest(captains, SeededDice(seed))
        return contest.winner, contest.masterstroke

    return sw.action_odds, (state, Action("initiative", state.sides[0], FrozenMap())), sample


HEAVIEST: dict[str, Callable[[], tuple]] = {
    "battlefleet-mars 9-missile salvo": _attack_case("battlefleet-mars", _bfm_salvo),
    "heavy-combat photon at range 1": _attack_case("heavy-combat", _hc_photon),
    "heavy-combat photon at range 1, 2d6 damage": _attack_case("heavy-combat", _hc_photon_2d6),
    "cortex-space 6-railgun battery": _attack_case("cortex-space", cortex_heavy),
    "sw-d6-capital heavy turbolasers": _attack_case("sw-d6-capital", sw_heavy),
    "sw-d6-capital initiative of six captains": _sw_initiative,
    "dystopian-wars 20-dice broadside": _attack_case("dystopian-wars", lambda: battle(10)),
}


def forget() -> None:
    """Drop what the odds remember between calls, so that each is timed from the dice up
    (as a player's first `tactical odds` meets it)."""
    from tactical.dice import exact
    from tactical.rules.cortex_space import gunnery
    from tactical.rules.heavy_combat import internals
    from tactical.rules.sw_d6_capital import initiative

    exact._SUBROLLS.clear()
    internals._READINGS.clear()
    internals._arrangements.cache_clear()
    initiative.total_odds.cache_clear()
    gunnery._PLANS.clear()
    gunnery._LAST_PLAN = gunnery._LAST_BOOKED = (None, None, None)


FIRST_ODDS = (
    "import sys, time; sys.path.insert(0, {bench!r}); import bench_heavy_odds as b;"
    "fn, args, _ = b.HEAVIEST[{name!r}](); start = time.process_time(); fn(*args);"
    "print(time.process_time() - start)"
)


def first_odds(name: str) -> float:
    """CPU time of the odds' first call in a fresh process (the child times the call)."""
    code = FIRST_ODDS.format(bench=str(Path(__file__).resolve().parent), name=name)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", list(HEAVIEST))
def test_heaviest_odds(benchmark, name):
    """The exact odds against a 100,000-sample Monte Carlo of the same resolver (CPU time of
    SAMPLED seeded runs, scaled), every round from the dice up; and the first call in a
    fresh process."""
    fn, args, sample = HEAVIEST[name]()
    rounds = quick(5, 1)
    cpu: list[float] = []

    def timed() -> Any:
        started = time.process_time()
        report = fn(*args)
        cpu.append(time.process_time() - started)
        return report

    report = benchmark.pedantic(timed, setup=forget, rounds=rounds, iterations=1)
    assert report is not None and report.sections
    assert all(section.distribution.total == 1 for section in report.sections)
    started = time.process_time()
    seen = {sample(seed) for seed in range(quick(SAMPLED, 20))}
    sampled = time.process_time() - started
    assert seen  # the baseline ran the resolver
    record(f"odds: {name}", benchmark, BUDGET)
    if benchmark.stats is not None:
        cpu.sort()
        FIGURES[f"odds CPU: {name}"] = cpu[len(cpu) // 2]
        FIGURES[f"odds CPU, fastest round: {name}"] = cpu[0]
        FIGURES[f"odds CPU, slowest round: {name}"] = cpu[-1]
        BEST[f"odds CPU: {name}"] = cpu[0]
        FIGURES[f"odds CPU first call: {name}"] = first_odds(name)
        FIGURES[f"Monte Carlo CPU, {SAMPLES:,} samples: {name}"] = sampled * SAMPLES / SAMPLED
        BUDGETS[f"odds CPU: {name}"] = BUDGET
        BUDGETS[f"odds CPU first call: {name}"] = BUDGET
        RATIOS.append((f"{name}: Monte Carlo / exact",
                       f"Monte Carlo CPU, {SAMPLES:,} samples: {name}", f"odds CPU: {name}",
                       1.0))  # fmt: skip
