"""Saving, loading, autosave, replay and an interrupted session."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.io.saves import SavedAction, read_save
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.session.history import History
from tactical.session.log import game_log
from tactical.session.replay import Replay
from tactical.session.saving import (
    Autosave,
    history_from_saved,
    load_game,
    save_game,
    saved_game,
)

SEED = 515
ROOT = Path(__file__).resolve().parents[2]


def laser(actor: str, target: str) -> Action:
    return Action("attack", actor, FrozenMap(weapon="laser", target=target))


@pytest.fixture(scope="module")
def bfm_map():
    return load_map(builtin_map("battlefleet-mars"))


@pytest.fixture(scope="module")
def played(bfm_map) -> History:
    """Logistics and Launch passed, three attacks, the last one undone (a redo line)."""
    history = History.start(bfm_map, SEED)
    history = history.apply(Action("move", "mars-fighters", FrozenMap(path="C90 F2")))
    for _ in range(4):
        history = history.apply(Action("pass", history.game.side_to_act))
    history = history.apply(laser("deimos-base", "ares-cruiser"))
    history = history.apply(laser("ares-catapult", "mars-fighters"))
    history = history.apply(
        Action("attack", "mars-catapult", FrozenMap(weapon="missiles", target="ares-cruiser"))
    )
    return history.undo()


def test_save_and_load_give_the_same_line_cursor_and_log(played, tmp_path):
    path = tmp_path / "game.json"
    save_game(played, path)
    loaded = load_game(path)
    assert (loaded.cursor, loaded.length) == (played.cursor, played.length)
    assert loaded.actions == played.actions
    assert [s.rolls for s in loaded.steps] == [s.rolls for s in played.steps]
    assert game_log(loaded.game).text() == game_log(played.game).text()
    assert loaded.redo().game.state == played.redo().game.state
    assert path.read_text() == (tmp_path / "game.json").read_text()
    save_game(loaded, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()


def test_a_game_value_saves_with_the_cursor_at_its_last_step(played):
    saved = saved_game(played.game)
    assert saved.cursor == len(played.game.steps) == len(saved.actions)
    assert saved.actions[-1].rolls == played.game.steps[-1].results


def test_a_step_that_no_longer_applies_names_file_and_step(played):
    saved = saved_game(played)
    broken = list(saved.actions)
    broken[5] = SavedAction(
        "attack", "ares-cruiser", FrozenMap(weapon="laser", target="deimos-base")
    )
    with pytest.raises(UserError) as error:
        history_from_saved(replace(saved, actions=tuple(broken)), "old.json")
    message = str(error.value)
    assert message.startswith("old.json: actions[5] (step 6, attack by 'ares-cruiser') no longer")
    assert error.value.spec_id == "R000.18"  # Mars' go in the combat sequence: not offered
    broken[5] = SavedAction("attack", "mars-miner", FrozenMap(weapon="laser", target="ares-miner"))
    with pytest.raises(UserError) as error:
        history_from_saved(replace(saved, actions=tuple(broken)), "old.json")
    assert error.value.spec_id == "R000.6"  # beyond the laser's reach


def test_recorded_rolls_that_differ_on_replay_name_the_step(played):
    saved = saved_game(played)
    changed = list(saved.actions)
    rolls = changed[6].rolls
    changed[6] = replace(changed[6], rolls=tuple((r + 1) % 10 for r in rolls))
    with pytest.raises(UserError, match=r"old\.json: actions\[6\] \(step 7, attack by"):
        history_from_saved(replace(saved, actions=tuple(changed)), "old.json")


def test_a_saved_map_that_cannot_start_a_game_is_a_user_error(played):
    saved = saved_game(played)
    empty = replace(saved.initial, units=())
    with pytest.raises(UserError, match=r"old\.json: the saved map cannot start a game"):
        history_from_saved(replace(saved, initial=empty, actions=(), cursor=0), "old.json")


def test_session_autosaves_after_every_change(bfm_map, tmp_path):
    autosave = Autosave(tmp_path / "auto.json")
    session = Session.new(bfm_map, SEED, autosave)
    assert autosave.exists() and read_save(autosave.path).actions == ()

    def saved_cursor() -> tuple[int, int]:
        saved = read_save(autosave.path)
        return saved.cursor, len(saved.actions)

    session.apply(Action("move", "mars-fighters", FrozenMap(path="C30")))
    assert saved_cursor() == (1, 1)
    session.pass_go()
    assert saved_cursor() == (2, 2)
    session.undo()
    assert saved_cursor() == (1, 2)
    session.redo()
    assert saved_cursor() == (2, 2)
    session.goto(0)
    assert saved_cursor() == (0, 2)
    session.redo()
    session.reset_activation()
    assert saved_cursor() == (0, 2)
    reopened = Session.open(autosave.path)
    assert reopened.history.actions == session.history.actions
    assert reopened.step_number == 0 and reopened.can_redo


def test_a_refused_action_does_not_touch_the_autosave(bfm_map, tmp_path):
    autosave = Autosave(tmp_path / "auto.json")
    session = Session.new(bfm_map, SEED, autosave)
    before = autosave.path.read_bytes()
    with pytest.raises(UserError):
        session.apply(laser("ares-cruiser", "deimos-base"))
    assert autosave.path.read_bytes() == before and session.step_number == 0


def to_combat(session: Session) -> None:
    """Pass Logistics and Launch (R000.16-R000.17) to the tactical combat sequence."""
    while not session.phase.alternating:
        session.pass_go()


def test_session_answers_what_the_play_screen_asks(bfm_map, tmp_path):
    session = Session.new(bfm_map, SEED)
    assert (session.turn, session.phase.name, session.side_to_act) == (1, "Logistics", "Mars")
    assert session.order == ("Mars", "Ares")
    assert [p.name for p in session.phases] == ["Logistics", "Launch", "Tactical combat"]
    assert session.choices() == session.game.choices()
    assert session.odds(laser("deimos-base", "ares-cruiser")) is not None
    assert session.preview_move("mars-fighters", "F2").legal
    to_combat(session)
    step = session.act("attack", "deimos-base", weapon="laser", target="ares-cruiser")
    assert step is session.last_step and step.number == 5
    assert session.entries(5)[0].get("kind") == "attack"
    assert session.log_json() == game_log(session.game).json()
    assert session.log_text() == game_log(session.game).text()
    session.save(tmp_path / "s.json")
    assert Session.open(tmp_path / "s.json").log_text() == session.log_text()
    assert session.replay().length == 5


def test_the_log_exports_as_text_and_json_files(bfm_map, tmp_path):
    session = Session.new(bfm_map, SEED)
    to_combat(session)
    session.act("attack", "deimos-base", weapon="laser", target="ares-cruiser")
    session.export_log(tmp_path / "log.txt")
    session.export_log(tmp_path / "log.JSON")
    assert (tmp_path / "log.txt").read_text() == session.log_text()
    entries = json.loads((tmp_path / "log.JSON").read_text())["entries"]
    actions = [e for e in entries if e["entry"] == "action"]
    assert [e["kind"] for e in actions] == ["pass"] * 4 + ["attack"]
    with pytest.raises(UserError, match="does not exist"):
        session.export_log(tmp_path / "missing" / "log.txt")


def test_replay_steps_through_states_and_their_entries(played, tmp_path):
    path = tmp_path / "game.json"
    save_game(played, path)
    replay = Replay.open(path)
    assert replay.length == played.cursor  # the undone step is not part of the game played
    frame = replay.frame()
    assert frame.step == 0 and frame.state == played.first.state
    assert [e.entry for e in frame.entries] == ["start", "phase"]
    seen = []
    while (frame := replay.next()) is not None:
        seen.append(frame.step)
        assert frame.state == played.games[frame.step].state
        assert frame.entries[0].entry == "action"
        assert frame.entries[0].get("kind") == played.steps[frame.step - 1].action.kind
    assert seen == list(range(1, played.cursor + 1)) and replay.at_end
    assert replay.previous().step == played.cursor - 1
    assert replay.goto(2).step == 2 and replay.index == 2
    with pytest.raises(UserError, match="no step"):
        replay.goto(played.cursor + 1)
    assert replay.goto(0) and replay.previous() is None
    log = game_log(played.game)
    assert [e for f in replay.frames() for e in f.entries] == list(log.entries)


# --------------------------------------------------------------------------- interrupted session

CHILD = textwrap.dedent(
    """
    import sys
    from tactical.io import builtin_map, load_map
    from tactical.model import FrozenMap
    from tactical.rules.base import Action
    from tactical.session.controller import Session
    from tactical.session.saving import Autosave

    path, mode, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    session = Session.new(load_map(builtin_map("battlefleet-mars")), 8, Autosave(path))
    for number in range(1, count + 1):
        if number % 5 == 0:
            session.pass_go()
        else:
            unit = "deimos-base" if session.side_to_act == "Mars" else "ares-fighters"
            session.apply(Action("move", unit, FrozenMap(path="C15")))
        print(f"done {number}", flush=True)
        if mode == "wait":
            sys.stdin.readline()
    print("finished", flush=True)
    """
)


def _child(tmp_path: Path, mode: str, count: int) -> tuple[subprocess.Popen, Path]:
    path = tmp_path / "auto.json"
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**os.environ, "PYTHONHASHSEED": "1"}
    process = subprocess.Popen(
        [sys.executable, str(script), str(path), mode, str(count)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    return process, path


def test_a_session_killed_between_actions_reopens_with_every_completed_action(tmp_path):
    process, path = _child(tmp_path, "wait", 10)
    try:
        for expected in (1, 2, 3):
            assert process.stdout.readline().strip() == f"done {expected}"
            if expected < 3:
                process.stdin.write("\n")
                process.stdin.flush()
        os.kill(process.pid, signal.SIGKILL)  # between actions 3 and 4
    finally:
        process.wait(timeout=30)
        process.stdout.close()
        process.stdin.close()
    assert process.returncode == -signal.SIGKILL
    reopened = Session.open(path)
    assert reopened.step_number == 3 == reopened.history.length
    kinds = [a.kind for a in reopened.history.actions]
    assert kinds == ["move", "move", "move"]
    game = Game.new(load_map(builtin_map("battlefleet-mars")), 8)
    for action in reopened.history.actions:
        game = game.apply(action)
    assert reopened.state == game.state


def test_a_session_killed_at_any_moment_loses_at_most_the_action_in_progress(tmp_path):
    process, path = _child(tmp_path, "run", 400)
    try:
        for _ in range(12):
            assert process.stdout.readline().startswith("done")
        os.kill(process.pid, signal.SIGKILL)  # somewhere in the middle of the run
        process.wait(timeout=30)
        reported = [line for line in process.stdout.read().splitlines() if line.startswith("done")]
    finally:
        process.stdout.close()
        process.stdin.close()
    completed = 12 + len(reported)
    assert completed < 400, "the child finished before it was killed"
    saved = read_save(path)  # a whole file: the write is atomic
    assert completed <= len(saved.actions) <= completed + 1
    assert saved.cursor == len(saved.actions)
    assert Session.open(path).step_number == len(saved.actions)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) <= 1  # at most the temporary file of the write in progress
    json.loads(path.read_text())
