"""The game takes the steps the rules leave no choice for, saves them marked, undoes by decision."""

from __future__ import annotations

import json

import pytest

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.io.saves import SaveError, loads_save, read_save
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.forced import forced_step, pass_loses, settle
from tactical.session.game import Game
from tactical.session.saving import load_game

SEED = 11


def dw_session(take_single: bool = True, decisions: int = 12) -> Session:
    """A Dystopian Wars game after `decisions` of the stand-in's decisions."""
    session = Session.new(load_map(builtin_map("dystopian-wars")), SEED)
    if not take_single:
        session.set_take_single(False)
    for _ in range(decisions):
        session.apply(autoplay.next_game(session.game).last_step.action)
    return session


def test_single_choice_steps_are_taken_with_the_reason():
    session = dw_session()
    taken = {s.action.kind: s.forced for s in session.game.steps if s.forced}
    assert "end-movement" in taken and "pass" in taken
    assert taken["end-movement"] in {f"the only step open to {s} (R002.28)" for s in "AB"}
    assert taken["pass"].startswith("nothing else is open to it now")
    log = session.log_text()
    assert (
        "end movement (turn 1, Squadron Activation Sequence) — taken by the game: the only" in log
    )
    # after every decision the game stands where someone has a decision to make
    assert forced_step(session.game) is None
    # the same game as when every step was someone's: the same actions, the same dice
    expected = Game.new(load_map(builtin_map("dystopian-wars")), SEED)
    for _ in range(session.step_number):
        expected = autoplay.next_game(expected)
    assert [s.action for s in expected.steps] == [s.action for s in session.game.steps]
    assert expected.state == session.state


def test_the_setting_off_leaves_single_choice_steps_to_the_player():
    session = dw_session(take_single=False)
    kinds = {s.action.kind for s in session.game.steps if s.forced}
    assert kinds == {"pass"}  # a side with nothing to do still passes by itself
    assert not session.take_single


def test_a_save_keeps_the_marks_and_the_setting_and_replays_them_as_recorded(tmp_path):
    session = dw_session(take_single=False, decisions=6)
    session.set_take_single(True)
    session.apply(autoplay.next_game(session.game).last_step.action)
    path = tmp_path / "game.json"
    session.save(path)
    document = json.loads(path.read_text())
    forced = [a for a in document["actions"] if "forced" in a]
    assert forced and all(isinstance(a["forced"], str) and a["forced"] for a in forced)
    assert "settings" not in document  # the default is not written
    reopened = load_game(path)
    assert [s.forced for s in reopened.last.steps] == [s.forced for s in session.game.steps]
    session.set_take_single(False)
    session.save(path)
    assert json.loads(path.read_text())["settings"] == {"take_forced_steps": False}
    assert read_save(path).take_forced_steps is False
    assert Session.open(path).take_single is False


def test_a_save_without_marks_replays_exactly_as_played(tmp_path):
    """A save made before the game took steps: every step replays as a decision, nothing is
    derived again (the replay adds no step and marks none)."""
    session = dw_session(decisions=8)
    path = tmp_path / "old.json"
    session.save(path)
    document = json.loads(path.read_text())
    for action in document["actions"]:
        action.pop("forced", None)
    cut = len(document["actions"]) - 3  # stop where the game would have taken steps
    document["actions"] = document["actions"][:cut]
    document["cursor"] = cut
    document["version"] = 2  # a save from before the game took steps recorded no digest
    document.pop("digest")
    path.write_text(json.dumps(document))
    history = load_game(path)
    assert history.length == cut and not any(s.forced for s in history.last.steps)
    assert [s.action for s in history.last.steps] == [s.action for s in session.game.steps[:cut]]


@pytest.mark.parametrize(
    ("value", "key"),
    [
        ({"settings": {"take_forced_steps": "yes"}}, "settings.take_forced_steps"),
        ({"settings": {"other": True}}, "settings.other"),
        ({"settings": []}, "settings"),
    ],
)
def test_bad_settings_are_refused_by_key(tmp_path, value, key):
    session = dw_session(decisions=1)
    path = tmp_path / "game.json"
    session.save(path)
    document = {**json.loads(path.read_text()), **value}
    with pytest.raises(SaveError) as caught:
        loads_save(json.dumps(document), "bad.json")
    assert caught.value.key == key


def test_a_bad_forced_mark_is_refused(tmp_path):
    session = dw_session(decisions=2)
    path = tmp_path / "game.json"
    session.save(path)
    document = json.loads(path.read_text())
    document["actions"][0]["forced"] = ""
    with pytest.raises(SaveError) as caught:
        loads_save(json.dumps(document), "bad.json")
    assert caught.value.key == "actions[0].forced"


def test_undo_goes_back_by_decision_and_redo_mirrors_it():
    session = dw_session(decisions=10)
    steps = session.game.steps
    decisions = [s.number for s in steps if not s.forced]
    end = session.step_number
    assert end > decisions[-1]  # the game took steps after the last decision
    session.undo_decision()
    assert session.step_number == decisions[-1] - 1
    session.undo_decision()
    assert session.step_number == decisions[-2] - 1
    session.redo_decision()
    assert session.step_number == decisions[-1] - 1
    session.redo_decision()
    assert session.step_number == end
    # the slider still reaches every step, a forced one included
    forced = next(s.number for s in steps if s.forced)
    session.goto(forced)
    assert session.step_number == forced


def test_solo_undo_takes_the_computers_steps_back_too():
    session = dw_session(decisions=10)
    steps = session.game.steps
    last_a = max(s.number for s in steps if s.side == "A" and not s.forced)
    session.undo_decision(computer={"B"})
    assert session.step_number == last_a - 1
    assert session.side_to_act == "A"


def test_the_computer_players_games_take_the_same_steps_by_themselves():
    from tactical.agents import play_game
    from tactical.agents.games import with_options

    state = with_options(load_map(builtin_map("dystopian-wars")), game_turns=1)
    record = play_game(state, SEED, {"A": "random", "B": "random"})
    steps = record.game.steps
    taken = [s for s in steps if s.forced]
    assert taken and {"pass", "end-movement"} <= {s.action.kind for s in taken}
    # no player was asked where there was nothing to decide
    assert all((s.number, s.side, f"no choice: {s.forced}") in record.whys for s in taken)
    assert "taken by the game: " in record.log_text
    assert settle(record.game) is record.game


def test_next_asks_by_unit_name_before_a_pass_throws_an_attack_away():
    state = load_map(builtin_map("battlefleet-mars"))
    session = Session.new(state, SEED)
    questions = []
    while session.turn <= 1 and not session.game.over:
        question = pass_loses(session.game)
        if question:
            questions.append(question)
        session.apply(autoplay.next_game(session.game).last_step.action)
    assert questions and all(q.endswith("can still fire: pass anyway?") for q in questions)
    names = {u.name for u in state.units}
    assert any(q.split(" and ")[0].split(" can ")[0] in names for q in questions)
    assert not any(u.id in q.split(" ") for q in questions for u in state.units if u.id != u.name)


def test_undo_by_decision_never_takes_back_the_games_own_opening_steps():
    """A game whose first steps the game took itself (every captain's Initiative roll, the
    only step open) has no person's decision to take back: undo refuses and nothing moves;
    after a decision, undo returns to just after those opening steps."""
    from tactical.errors import UserError

    session = Session.new(load_map(builtin_map("sw-d6-capital")), 3)
    opening = session.step_number
    assert opening > 0 and all(step.forced for step in session.game.steps)
    with pytest.raises(UserError, match="no one has chosen anything yet"):
        session.undo_decision()
    assert session.step_number == opening
    chosen = next(c for c in session.choices() if c.kind != "pass")
    session.apply(session.game.declare(chosen.kind, chosen.actor))
    assert session.step_number > opening
    session.undo_decision()
    assert session.step_number == opening
