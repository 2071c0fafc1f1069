"""The lab's seams: its SQL is written in the store only, and a game is played once (its
figures by turn are read from the game that was played, not from a second playing)."""

from __future__ import annotations

import ast
from pathlib import Path

import tactical.lab
from tactical import agents
from tactical.agents.evaluation import Material
from tactical.lab import games
from tactical.lab.games import play_task, variant_state
from tactical.session.game import Game

LAB = Path(tactical.lab.__file__).parent
SQL_WORDS = ("SELECT", "INSERT", "UPDATE", "DELETE", "PRAGMA", "CREATE", "DROP", "WITH", "BEGIN")
QUERY_CALLS = {"execute", "executemany", "executescript", "query"}


def _sql_in(path: Path) -> list[str]:
    """Each string that starts like an SQL statement, and each call that runs one, but
    docstrings (which may name a pragma)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and node.value.lstrip().upper().startswith(SQL_WORDS)
            and node.value.lstrip().split(" ", 1)[0].isupper()
        ):
            found.append(f"{path.name}:{node.lineno}: {node.value[:40]!r}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in QUERY_CALLS
        ):
            found.append(f"{path.name}:{node.lineno}: .{node.func.attr}(...)")
    return found


def test_the_lab_writes_sql_in_the_store_only():
    modules = sorted(p for p in LAB.glob("*.py") if p.name != "store.py")
    assert len(modules) >= 10  # the scan looks at the lab, not at an empty folder
    assert [hit for path in modules for hit in _sql_in(path)] == []
    # and the scan does see SQL where there is some
    assert len(_sql_in(LAB / "store.py")) > 10


def _replayed_by_turn(game: Game, material: Material) -> dict[str, tuple[float, ...]]:
    """The figures by turn from a second playing of the game, read at each change of
    turn: the reference that the figures taken as the game is played must match."""
    sides = game.sides
    replayed = Game.new(game.initial, game.seed)
    ends = []
    for step in game.steps:
        turn = replayed.turn
        replayed = replayed.apply(step.action)
        if replayed.turn != turn:
            ends.append(replayed.state)
    if not ends or ends[-1] is not replayed.state:
        ends.append(replayed.state)
    series: dict[str, list[float]] = {side: [] for side in sides}
    for state in ends:
        losses = material.losses(state)
        for side in sides:
            taken = sum(losses[o] * material.total_strength[o] for o in sides if o != side)
            series[side].append(round(taken, 6))
    return {side: tuple(values) for side, values in series.items()}


def test_a_game_is_played_once_and_its_figures_by_turn_are_those_of_a_second_playing(
    make_spec, monkeypatch
):
    """`play_task` starts one game (the one it plays) and takes the tables at the ends of
    turns as they are played; a second playing of the same game, read at each change of
    turn, gives the same figures."""
    spec = make_spec(games=2, against=(), players=("greedy", "random"))
    started = []
    real_new = Game.new.__func__

    def counting_new(cls, *args, **kwargs):
        started.append(1)
        return real_new(cls, *args, **kwargs)

    for task in spec.tasks():
        monkeypatch.setattr(Game, "new", classmethod(counting_new))
        result = play_task(spec, task)
        monkeypatch.undo()
        assert len(started) == 1  # the game played, not a second one for the figures
        started.clear()
        state = variant_state(spec, spec.variants[task.variant], task.terrain_seed)
        record = agents.play_game(
            state, task.seed, spec.players_by_side(task.seat), **games.SEARCH_BUDGET
        )
        game = record.game
        assert game is not None and record.turns >= 2
        assert (result.winner, result.turns, result.steps) == (
            record.winner,
            record.turns,
            record.steps,
        )
        expected = _replayed_by_turn(game, Material(game))
        assert all(len(series) >= 2 for series in expected.values())
        assert {side.side: side.damage_by_turn for side in result.sides} == expected
