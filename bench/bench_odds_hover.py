"""Odds for a hovered target: "the odds for a hovered target ready within one frame".

Run: .venv/bin/pytest bench/bench_odds_hover.py --benchmark-enable -p no:cacheprovider -s

For each scenario map, the typical attack (the first one offered) and the heaviest one
found, three figures:

- cold: `Game.odds` on a game value that has computed nothing yet — the naive baseline,
  what a frame would wait for without the board;
- hit: `OddsBoard.get` once the board has prefetched every target of that declaration
  (budget: one frame at 60 fps, 16.7 ms);
- prefetch: from `OddsBoard.prefetch` of every target of the declaration to the last one
  ready, on a fresh game (how long after picking a weapon every hover is a hit);
- chart drawn: `odds_chart` of the report at the action panel's size (once per change
  of what is shown, not every frame).

And how much longer a frame's Python work takes while the worker computes: on the
board's thread it shares the interpreter's lock with the frame; `ProcessOdds` moves the
enumeration to a child process.

The heaviest of a map is the slowest odds its own scenario offers in two turns of the
stand-in player (found by trying every offered choice); where the benches of a rule
system know a heavier attack built for it (Heavy Combat's photon at range 1 into a ship
without shields, Cortex's six-railgun battery, Dystopian Wars' 20-die linked broadside),
that one is measured too, on a game made from its state.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import bench_cortex_space
import bench_dystopian_wars
import bench_heavy_combat
import pytest
from conftest import FIGURES, RATIOS, is_quick, quick, record

from tactical.io.maps import load_map
from tactical.model import FrozenMap, GameState
from tactical.rules import registry
from tactical.rules.base import Action, ActionChoice
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.ui.fonts import shared_fonts
from tactical.ui.odds_chart import odds_chart
from tactical.ui.odds_view import OddsBoard, ProcessOdds, game_odds

FRAME = 1 / 60
CHART_SIZE = (296, 170)  # the action panel's chart (tactical/ui/play_mode.py)
PREFETCH_TIMEOUT = 120.0
MAX_STEPS = 400


@dataclass(frozen=True)
class Case:
    """A game, the declaration hovered, and every target of it (the prefetch)."""

    name: str
    game: Game
    hovered: Action
    targets: tuple[Action, ...]


def _actions(choice: ActionChoice) -> tuple[Action, ...]:
    """One action per target the choice lists (its other fields at their defaults), or the
    stand-in player's parameter sets when it has no target field."""
    first = next(autoplay.candidate_params(choice))
    for spec in choice.fields:
        if spec.name == "target" and spec.choices:
            return tuple(
                Action(choice.kind, choice.actor, first.set("target", target))
                for target in spec.choices
            )
    return tuple(
        Action(choice.kind, choice.actor, params) for params in autoplay.candidate_params(choice)
    )


def _reach(
    map_name: str, wanted: Callable[[Game, ActionChoice], bool]
) -> tuple[Game, ActionChoice]:
    game = Session.new(load_map(f"maps/{map_name}.toml"), 1).game
    for _ in range(MAX_STEPS):
        for choice in game.rule_choices():
            if wanted(game, choice):
                return game, choice
        game = autoplay.next_game(game)
    raise AssertionError(f"{map_name}: no such choice in {MAX_STEPS} steps")


def _offered(map_name: str, name: str, wanted: Callable[[Game, ActionChoice], bool]) -> Case:
    game, choice = _reach(map_name, wanted)
    targets = _actions(choice)
    return Case(name, game, targets[0], targets)


def _kind(kind: str, actor: str | None = None, weapon: str | None = None):
    def wanted(game: Game, choice: ActionChoice) -> bool:
        if choice.kind != kind or (actor is not None and choice.actor != actor):
            return False
        if weapon is None:
            return True
        return any(f.name == "weapon" and f.default == weapon for f in choice.fields)

    return wanted


def _has_target(kinds: tuple[str, ...]):
    def wanted(game: Game, choice: ActionChoice) -> bool:
        return choice.kind in kinds and any(f.name == "target" for f in choice.fields)

    return wanted


def _on_state(state: GameState, actor: str, kind: str, **params) -> tuple[Game, Action]:
    """A game whose state is `state` as built by a rule system's bench (already set up)."""
    system = registry.get(state.rules)
    sides = tuple(dict.fromkeys(unit.side for unit in state.units))
    game = Game(state, 1, state, system.turn_sequence().start(), sides)
    return game, Action(kind, actor, FrozenMap(params))


def _single(name: str, game: Game, action: Action) -> Case:
    return Case(name, game, action, (action,))


def _hc_typical() -> Case:
    game = Session.new(load_map("maps/heavy-combat.toml"), 1).game
    targets = tuple(
        Action("fire", "enterprise", FrozenMap(weapon=weapon, target="kronos"))
        for weapon in ("photon-1", "phasers", "photon-2")
    )
    return Case("heavy-combat typical (photon-1)", game, targets[0], targets)


def _hc_heaviest() -> Case:
    state = bench_heavy_combat._shields_down(bench_heavy_combat._duel(6.0))
    game, action = _on_state(state, "a", "fire", weapon="photon-1", target="b")
    return _single("heavy-combat heaviest (photon r1, no shields)", game, action)


def _cortex_heaviest() -> Case:
    state, attack = bench_cortex_space.heavy_attack()
    params = {"weapon": attack.weapon, "target": attack.target, "battery": 6}
    game, action = _on_state(state, attack.attacker, "attack", **params)
    return _single("cortex-space heaviest (6-railgun battery)", game, action)


def _dw_heaviest() -> Case:
    state, attack = bench_dystopian_wars.battle(10)
    params = {"weapon": attack.weapon, "target": attack.target, "linked": ["bb1", "bb2"]}
    game, action = _on_state(state, attack.attacker, "declare-attack", **params)
    return _single("dystopian-wars heaviest (20 AD linked)", game, action)


CASES: dict[str, Callable[[], Case]] = {
    "bfm-typical": lambda: _offered(
        "battlefleet-mars", "battlefleet-mars typical", _has_target(("attack",))
    ),
    "bfm-heaviest": lambda: _offered(
        "battlefleet-mars", "battlefleet-mars heaviest (missiles)", _kind("attack", "ares-missiles")
    ),
    "hc-typical": _hc_typical,
    "hc-heaviest": _hc_heaviest,
    "dw-typical": lambda: _offered(
        "dystopian-wars", "dystopian-wars typical", _has_target(("declare-attack",))
    ),
    "dw-map-heaviest": lambda: _offered(
        "dystopian-wars",
        "dystopian-wars map heaviest (Main turrets)",
        _kind("declare-attack", "markgraf", "Main turrets"),
    ),
    "dw-heaviest": _dw_heaviest,
    "cortex-typical": lambda: _offered(
        "cortex-space", "cortex-space typical", _has_target(("attack",))
    ),
    "cortex-map-heaviest": lambda: _offered(
        "cortex-space", "cortex-space map heaviest (start-turn)", _kind("start-turn")
    ),
    "cortex-heaviest": _cortex_heaviest,
    "sw-typical": lambda: _offered(
        "sw-d6-capital", "sw-d6-capital typical", _has_target(("attack",))
    ),
    "sw-heaviest": lambda: _offered(
        "sw-d6-capital", "sw-d6-capital heaviest (initiative)", _kind("initiative")
    ),
}


@cache
def case(key: str) -> Case:
    return CASES[key]()


def _fresh(game: Game) -> Game:
    """The same game value with nothing computed yet (Game memoises its odds)."""
    return replace(game, _memo={})


@pytest.mark.parametrize("key", list(CASES))
def test_hovered_odds_within_a_frame(benchmark, key):
    subject = case(key)
    cold_game = _fresh(subject.game)
    start = time.perf_counter()
    expected = cold_game.odds(subject.hovered)
    cold = time.perf_counter() - start
    assert expected is not None

    board = OddsBoard()
    try:
        game = _fresh(subject.game)
        start = time.perf_counter()
        board.prefetch(game, subject.targets)
        assert board.wait_idle(PREFETCH_TIMEOUT)
        prefetch = time.perf_counter() - start
        result = benchmark(board.get, game, subject.hovered)
    finally:
        board.shutdown()
    assert result.status == "ready"
    for mine, theirs in zip(result.report.sections, expected.sections, strict=True):
        assert mine.distribution.pairs == theirs.distribution.pairs

    start = time.perf_counter()
    chart = odds_chart(result.report, CHART_SIZE, shared_fonts())
    drawn = time.perf_counter() - start
    assert chart.get_size() == CHART_SIZE

    hit_name = f"{subject.name}: hit"
    record(hit_name, benchmark, FRAME)
    if getattr(benchmark, "stats", None) is None:
        return
    FIGURES[f"{subject.name}: chart drawn"] = drawn
    FIGURES[f"{subject.name}: cold (naive)"] = cold
    FIGURES[f"{subject.name}: prefetch {len(subject.targets)}"] = prefetch
    RATIOS.append((f"{subject.name}: cold / hit", f"{subject.name}: cold (naive)", hit_name, 1.0))
    benchmark.extra_info.update(
        {"cold_s": cold, "prefetch_s": prefetch, "targets": len(subject.targets)}
    )
    assert benchmark.stats.stats.median <= FRAME


def _frame_work() -> float:
    """A stand-in for a frame's Python work (about 5 ms here): seconds it took."""
    start = time.perf_counter()
    total = 0
    for number in range(60_000):
        total += number * number
    assert total > 0
    return time.perf_counter() - start


def test_frame_work_while_the_worker_computes():
    """The worker shares the interpreter (the GIL) with the frame: how much longer a
    frame's Python work takes while the heaviest odds are computed in the background —
    on the board's thread at the interpreter's switch interval (5 ms by default) and at
    1 ms, and in a child process (`ProcessOdds`). Budget: the frame still fits in one
    frame (the median)."""
    idle = sorted(_frame_work() for _ in range(quick(30, 3)))
    FIGURES["frame work, worker idle (median)"] = idle[len(idle) // 2]
    subject = case(quick("hc-heaviest", "bfm-typical"))  # quick: the lightest odds
    default = sys.getswitchinterval()
    settings = [
        (f"thread, switch {default * 1e3:g} ms", default, game_odds),
        ("thread, switch 1 ms", 0.001, game_odds),
        ("child process", default, None),
    ]
    try:
        for label, interval, compute in settings:
            sys.setswitchinterval(interval)
            board = OddsBoard(compute or ProcessOdds())
            try:
                if compute is None:  # the child's start-up is not what is measured
                    board.wait(subject.game, Action("pass", "A"), PREFETCH_TIMEOUT)
                board.prefetch(_fresh(subject.game), subject.targets)
                time.sleep(0.05)
                busy = sorted(_frame_work() for _ in range(quick(30, 3)))
                assert board.wait_idle(PREFETCH_TIMEOUT)
            finally:
                board.shutdown()
            FIGURES[f"frame work, worker busy, {label} (median)"] = busy[len(busy) // 2]
            FIGURES[f"frame work, worker busy, {label} (max)"] = busy[-1]
            assert is_quick() or busy[len(busy) // 2] <= FRAME
    finally:
        sys.setswitchinterval(default)
