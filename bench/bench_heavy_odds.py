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
- The heaviest attack of each system, timed in this process (budget 100 ms each; figures
  over it are printed OVER, not failed: they are the figures the closing note gives).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
from bench_cortex_space import heavy_attack as cortex_heavy
from bench_dystopian_wars import battle
from bench_heavy_combat import _duel, _shields_down
from bench_sw_d6_capital import MAP as SW_MAP
from bench_sw_d6_capital import _heavy_attack as sw_heavy
from conftest import FIGURES, RATIOS, quick, record

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


def _bfm_salvo() -> tuple[Callable[..., Any], tuple]:
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
    return bfm.attack_odds, (state, bfm.declare_attack(state, "a", "missiles", "t"))


def _hc_photon() -> tuple[Callable[..., Any], tuple]:
    """Heavy Combat: a photon at range 1 into a ship whose shields are down."""
    hc = registry.get("heavy-combat")
    state = _shields_down(_duel(6.0))
    return hc.attack_odds, (state, hc.declare_attack(state, "a", "photon-1", "b"))


def _cortex_battery() -> tuple[Callable[..., Any], tuple]:
    return registry.get("cortex-space").attack_odds, cortex_heavy()


def _sw_turbolasers() -> tuple[Callable[..., Any], tuple]:
    return registry.get("sw-d6-capital").attack_odds, sw_heavy()


def _sw_initiative() -> tuple[Callable[..., Any], tuple]:
    """SW D6: the Initiative contest of the scenario's six captains (the odds shown before
    a turn's Initiative roll)."""
    from tactical.rules.base import Action

    sw = registry.get("sw-d6-capital")
    state = sw.setup(load_map(SW_MAP))
    action = Action("initiative", state.sides[0], FrozenMap())

    def odds(state: GameState, action: Action) -> Any:
        from tactical.rules.sw_d6_capital import initiative

        initiative.total_odds.cache_clear()  # every call from the dice up
        return sw.action_odds(state, action)

    return odds, (state, action)


def _dw_broadside() -> tuple[Callable[..., Any], tuple]:
    return registry.get("dystopian-wars").attack_odds, battle(10)


HEAVIEST = {
    "battlefleet-mars 9-missile salvo": _bfm_salvo,
    "heavy-combat photon at range 1": _hc_photon,
    "cortex-space 6-railgun battery": _cortex_battery,
    "sw-d6-capital heavy turbolasers": _sw_turbolasers,
    "sw-d6-capital initiative of six captains": _sw_initiative,
    "dystopian-wars 20-dice broadside": _dw_broadside,
}


@pytest.mark.parametrize("name", list(HEAVIEST))
def test_heaviest_odds(benchmark, name):
    fn, args = HEAVIEST[name]()
    started = time.process_time()
    report = benchmark.pedantic(fn, args, rounds=quick(3, 1), iterations=1)
    cpu = time.process_time() - started
    assert report is not None and report.sections
    assert all(section.distribution.total == 1 for section in report.sections)
    record(f"odds: {name}", benchmark, BUDGET)
    if benchmark.stats is not None:
        FIGURES[f"odds CPU: {name}"] = cpu / quick(3, 1)
