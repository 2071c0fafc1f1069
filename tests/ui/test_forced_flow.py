"""The play screen shows what the game took by itself, undoes by decision, asks before Next
throws an action away, and has the "Take forced steps for me" toggle (headless, synthetic
events only)."""

from __future__ import annotations

import pygame
from ui_events import key, press_button, settle

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.ui.app import App

SEED = 11


def app_for(map_name: str, autosave=None) -> App:
    state = load_map(builtin_map(map_name))
    session = Session.new(state, SEED, autosave)
    return App(state, (1280, 800), headless=True, session=session)


def decide(app, count: int) -> None:
    """The stand-in's next `count` decisions, declared on the screen's play mode."""
    for _ in range(count):
        step = autoplay.next_game(app.play.game).last_step
        if step.is_pass:
            app.play.next_go(ask=False)
        else:
            assert app.play.do(step.action) is not None, app.view.status
        settle(app, 1)


def test_ctrl_z_takes_back_the_last_decision_with_the_steps_the_game_took_after_it():
    app = app_for("dystopian-wars")
    decide(app, 10)
    game = app.play.game
    decisions = [s.number for s in game.steps if not s.forced]
    assert game.steps[-1].forced, "the game took steps after the last decision"
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.play.session.step_number == decisions[-1] - 1
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.play.session.step_number == decisions[-2] - 1
    key(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert app.play.session.step_number == decisions[-1] - 1
    key(app, pygame.K_y, mod=pygame.KMOD_CTRL)
    assert app.play.session.step_number == game.step_number
    # the screen log says why the game took a step, in words
    lines = app.play.log.lines
    assert any(" — the only step open to " in line for line in lines), lines
    app.play.close()


def test_solo_ctrl_z_goes_back_to_the_humans_last_decision():
    from tactical.ui.ai_player import InlineWorker

    app = app_for("dystopian-wars")
    app.play.ai.set_seats({"B": "random"})
    app.play.ai.worker = InlineWorker()  # the decisions at once: the test steps the frames
    app.play.ai.set_pace("No pause")
    for _ in range(400):  # A decides; the computer plays B; until B decided last
        game = app.play.game
        decided = [s for s in game.steps if not s.forced]
        if len(decided) > 3 and decided[-1].side == "B" and game.side_to_act == "A":
            break
        if app.play.ai.is_ai(game.side_to_act):
            app.step()
        else:
            decide(app, 1)
    game = app.play.game
    human = max(s.number for s in game.steps if s.side == "A" and not s.forced)
    assert any(s.side == "B" and not s.forced and s.number > human for s in game.steps)
    app.play.ai.set_pace("Space steps")
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.play.session.step_number == human - 1
    assert app.play.session.side_to_act == "A"
    app.play.close()


def test_n_asks_once_by_name_and_can_stop_asking():
    app = app_for("battlefleet-mars")
    for _ in range(80):
        if app.play.game.choices() and _question(app):
            break
        decide(app, 1)
    question = _question(app)
    assert question and question.endswith("can still fire: pass anyway?")
    before = app.play.session.step_number
    key(app, pygame.K_n)
    warning = app.play.warning
    assert warning is not None and warning.question == question
    assert app.play.session.step_number == before  # nothing thrown away yet
    assert question in app.view.status
    press_button(app, warning.buttons["keep"])
    assert app.play.warning is None and app.play.session.step_number == before
    key(app, pygame.K_n)
    press_button(app, app.play.warning.buttons["stop-asking"])
    assert app.play.session.step_number > before and not app.play.ask_before_pass
    for _ in range(80):  # no question any more: N passes at once
        if _question(app):
            break
        decide(app, 1)
    after = app.play.session.step_number
    key(app, pygame.K_n)
    assert app.play.warning is None and app.play.session.step_number > after
    app.play.close()


def _question(app):
    from tactical.session.forced import pass_loses

    return pass_loses(app.play.game)


def test_the_toggle_turns_single_choice_steps_off_and_on_and_is_saved(tmp_path):
    from tactical.session.saving import Autosave

    autosave = tmp_path / "auto.json"
    app = app_for("dystopian-wars", Autosave(autosave))
    toggle = app.top.buttons["auto"]
    assert toggle.text == "Auto: on"
    press_button(app, toggle)
    assert not app.play.session.take_single and toggle.text == "Auto: off"
    assert toggle.tool_tip_text.startswith("Take forced steps for me: off")
    assert "Take forced steps for me: off" in app.view.status
    from tactical.session.forced import single_choice

    for _ in range(40):  # until a step is the only one open (the game would take it)
        if single_choice(app.play.game) is not None:
            break
        decide(app, 1)
    kinds = {s.action.kind for s in app.play.game.steps if s.forced}
    assert kinds <= {"pass"}  # only a side with nothing to do passes by itself
    # the single choice waits for the player, on the form already: Enter takes it
    only = app.play.game.choices()
    assert len(only) == 1 and app.play.actions.picked == only[0]
    assert Session.open(app.play.session.autosave.path).take_single is False
    press_button(app, toggle)  # on again: the open single step is taken at once
    assert app.play.session.take_single and app.play.game.steps[-1].forced
    assert "taken for you" in app.view.status
    app.play.close()
