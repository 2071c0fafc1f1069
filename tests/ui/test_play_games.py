"""Whole games on the play screen: two full turns of every registered rule system,
played through the UI layer with synthetic events (tests/ui_play_driver.py).

Each step is the stand-in player's choice (`tactical.session.autoplay`), made on the screen
by clicks and keys; after every step the screen's game must equal the stand-in's, so the
screen's moves, declarations and rolls are the command line's.
"""

from __future__ import annotations

import pytest
from ui_play_driver import play_step, play_turns

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.game import Game
from tactical.ui.app import App

SEED = 11


def scenario_of(rules_id: str) -> str:
    """The maps/ scenario of a registered rule system: the map named after it."""
    return rules_id


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_two_full_turns_on_screen_equal_the_stand_in(rules_id, tmp_path):
    state = load_map(builtin_map(scenario_of(rules_id)))
    assert state.rules == rules_id
    session = Session.new(state, SEED)
    app = App(state, (1280, 800), headless=True, session=session)
    steps = play_turns(app, turns=2)
    game = app.play.played_session.game  # the true game (the screen shows a side's view)
    expected = autoplay.play_turns(Game.new(state, SEED), 2)
    made = game.steps[: len(expected.steps)]
    assert game.turn >= 3 and steps >= len(expected.steps)
    # the game as the stand-in left it (the game may then take steps of its own)
    assert app.play.session.history.games[len(expected.steps)].state == expected.state
    assert [s.action for s in made] == [s.action for s in expected.steps]
    assert [s.rolls for s in made] == [s.rolls for s in expected.steps]
    # past the stand-in's last step, only the steps the game took by itself, with why
    assert all(s.forced for s in game.steps[len(made) :])
    app.play.close()


def played_log(map_name: str, seed: int, tmp_path) -> tuple[str, bytes]:
    """Two full turns on screen; the log as the screen's session gives it and as exported."""
    state = load_map(builtin_map(map_name))
    app = App(state, (1280, 800), headless=True, session=Session.new(state, seed))
    play_turns(app, turns=2)
    exported = app.play.export_log(
        ".json", tmp_path / f"log-{seed}-{len(list(tmp_path.iterdir()))}.json"
    )
    app.play.close()
    assert exported is not None
    return app.play.session.log_text(), exported.read_bytes()


def test_the_same_seed_and_events_give_the_same_log_byte_for_byte(tmp_path):
    text, data = played_log("battlefleet-mars", SEED, tmp_path)
    again_text, again_data = played_log("battlefleet-mars", SEED, tmp_path)
    assert again_text == text and again_data == data
    assert "roll" in text and text.count("\n") > 50
    other_text, _ = played_log("battlefleet-mars", SEED + 1, tmp_path)
    assert other_text != text  # the seed decides the dice: the comparison can fail


KILLED_CHILD = """
import sys, time
sys.path.insert(0, {tests!r})
from ui_play_driver import play_step
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session.controller import Session
from tactical.session.saving import Autosave
from tactical.ui.app import App

state = load_map(builtin_map({map_name!r}))
session = Session.new(state, {seed}, Autosave({autosave!r}))
app = App(state, (1280, 800), headless=True, session=session)
number = 0
while True:
    number += 1
    play_step(app, number)
    print("step", app.play.session.step_number, flush=True)
"""


def test_a_killed_session_loses_at_most_the_action_in_progress(tmp_path):
    """The process is killed while it plays; the autosave holds every completed step."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    autosave = tmp_path / "autosave.json"
    tests = str(Path(__file__).parents[1])
    script = KILLED_CHILD.format(
        tests=tests, map_name="sw-d6-capital", seed=SEED, autosave=str(autosave)
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    completed = 0
    try:
        for line in child.stdout:
            completed = int(line.split()[1])
            if completed >= 12:
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert completed >= 12, child.stderr.read()
    resumed = Session.open(autosave)
    saved = resumed.step_number
    assert completed <= saved <= completed + 1  # at most the action in progress is lost
    expected = Game.new(load_map(builtin_map("sw-d6-capital")), SEED)
    for _ in range(saved):
        expected = autoplay.next_game(expected)
    assert resumed.game.state == expected.state
    assert [s.action for s in resumed.game.steps] == [s.action for s in expected.steps]
    # the play screen reopens it where it stopped and plays on
    app = App(resumed.state, (1280, 800), headless=True, session=resumed)
    assert app.play.session.step_number == saved
    play_step(app, saved + 1)
    # the step played, then any steps the game took by itself
    assert app.play.session.step_number >= saved + 1
    assert all(s.forced for s in app.play.game.steps[saved + 1 :])
    app.play.close()
