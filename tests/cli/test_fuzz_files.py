"""The shipped maps and saves, mutated, never give a traceback.

Hypothesis mutates the built-in scenarios (TOML) and saves played on them (JSON), both as
text (bytes cut, inserted, lines doubled) and as data (a value anywhere replaced by another
type, a huge or non-finite number, a deep nest; a key removed), then runs the commands a
person would: `check MAP`, `replay SAVE` and `play SAVE` (the window left out). Each must
succeed, or exit 2 with exactly one line on stderr, and then have written nothing.
Bounded to well under a minute (derandomized in CI, see tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactical.cli import main
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.saving import saved_game

SCENARIOS = ("battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital")


def _played(name: str) -> str:
    from tactical.io.saves import dumps_save

    session = Session.new(load_map(builtin_map(name)), 11)
    for _ in range(5):
        session.apply(autoplay.next_game(session.game).last_step.action)
    document = json.loads(dumps_save(saved_game(session.history)))
    # the rule state the game reached, as a save made from a game under way holds it
    from tactical.model import thaw

    document["rule_state"] = thaw(session.game.state.rule_state)
    return json.dumps(document, indent=1)


MAPS = {name: builtin_map(name).read_text() for name in ("default", *SCENARIOS)}
SAVES = {name: _played(name) for name in SCENARIOS}

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 1, 2, 6, 12, 24, 1e308, -1e308, 1e-9, 0.001, 1e6]),
    st.text(max_size=6),
    st.sampled_from(["", "fore", "d6", "4D+2", "A", "B", "unit", "terrain"]),
    st.lists(st.integers(min_value=-3, max_value=30), max_size=3),
    st.dictionaries(st.sampled_from(["x", "id", "kind"]), st.integers(0, 9), max_size=2),
    st.integers(min_value=40, max_value=400).map(lambda n: json.loads("[" * n + "]" * n)),
)
TOML_VALUES = st.sampled_from(
    [
        '"zz"',
        "-1e9",
        "1e308",
        "nan",
        "inf",
        "-inf",
        "0",
        "true",
        "[]",
        "{}",
        "[[[1]]]",
        '"x" "y"',
        "{ a = [",
        "1979-05-27",
        '"' + "w" * 300 + '"',
        "[" * 300 + "]" * 300,
    ]
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


@st.composite
def mutated_save(draw):
    document = json.loads(SAVES[draw(st.sampled_from(SCENARIOS))])
    for _ in range(draw(st.integers(1, 3))):
        # the rule state and the actions as often as the rest: the map alone has most paths
        region = draw(st.sampled_from(["rule_state", "actions", "map", ""]))
        places = [p for p in _paths(document) if p and (not region or p[0] == region)]
        place = draw(st.sampled_from(places or [("seed",)]))
        parent = document
        for part in place[:-1]:
            parent = parent[part]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[place[-1]]
        else:
            parent[place[-1]] = draw(ODD_VALUES)
    return json.dumps(document)


@st.composite
def mutated_text(draw, sources):
    text = draw(st.sampled_from(sorted(sources.values())))
    lines = text.splitlines()
    kind = draw(st.sampled_from(["value", "value", "cut", "insert", "double"]))
    where = draw(st.integers(0, len(lines) - 1))
    if kind == "value":
        keyed = [i for i, line in enumerate(lines) if re.match(r"^\s*[\w\-\"]+\s*=", line)]
        if keyed:
            where = keyed[where % len(keyed)]
            key = lines[where].split("=", 1)[0]
            lines[where] = f"{key}= {draw(TOML_VALUES)}"
    elif kind == "cut":
        start = draw(st.integers(0, len(text)))
        return text[:start] + text[start + draw(st.integers(1, 80)) :]
    elif kind == "insert":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.text(max_size=12)) + text[at:]
    else:
        lines.insert(where, lines[where])
    return "\n".join(lines) + "\n"


def _run(argv: list[str], folder: Path) -> None:
    """Run a command in `folder`; success, or exit 2 with one stderr line and no write."""
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    message = err.getvalue()
    assert code in (0, 2), (argv, code, message)
    if code == 2:
        assert message.count("\n") == 1 and message.startswith("tactical: "), message
        assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before
    else:
        assert message == ""


class _NoWindow:
    def __init__(self, *args, **kwargs) -> None:
        pass

    def run(self) -> int:
        return 0


@pytest.fixture
def sandbox(monkeypatch):
    """Each command in a fresh folder that is also $XDG_STATE_HOME; no window is opened."""
    from tactical.ui import app as app_module

    monkeypatch.setattr(app_module, "App", _NoWindow)

    @contextlib.contextmanager
    def folder():
        with tempfile.TemporaryDirectory() as name:
            path = Path(name)
            previous, state = os.getcwd(), os.environ.get("XDG_STATE_HOME")
            os.chdir(path)
            os.environ["XDG_STATE_HOME"] = str(path / "state")
            try:
                yield path
            finally:
                os.chdir(previous)
                if state is None:
                    os.environ.pop("XDG_STATE_HOME", None)
                else:
                    os.environ["XDG_STATE_HOME"] = state

    return folder


FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "80")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(text=mutated_text(MAPS))
def test_mutated_maps_check_and_play_or_one_line(sandbox, text):
    with sandbox() as folder:
        (folder / "map.toml").write_text(text)
        _run(["check", "map.toml"], folder)
        _run(["play", "map.toml", "--seed", "1"], folder)


@FUZZ
@given(text=st.one_of(mutated_save(), mutated_text(SAVES)))
def test_mutated_saves_replay_and_play_or_one_line(sandbox, text):
    with sandbox() as folder:
        (folder / "game.json").write_text(text)
        _run(["replay", "game.json"], folder)
        _run(["play", "game.json"], folder)


def _rule_state_edits():
    for name in SCENARIOS:
        for key in sorted(json.loads(SAVES[name])["rule_state"]):
            for edit in ("delete", "zz", [1, "a"]):
                yield name, key, edit


@pytest.mark.parametrize(("name", "key", "edit"), list(_rule_state_edits()))
def test_every_top_level_rule_state_key_deleted_or_mistyped(sandbox, name, key, edit):
    """A save's rule_state edited by hand: a KeyError, ValueError or TypeError before."""
    document = json.loads(SAVES[name])
    if edit == "delete":
        del document["rule_state"][key]
    else:
        document["rule_state"][key] = edit
    with sandbox() as folder:
        (folder / "game.json").write_text(json.dumps(document))
        _run(["replay", "game.json"], folder)
