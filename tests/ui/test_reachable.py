"""No wasted clicks, no silent gaps: what the rules offer is on the screen.

For every rule system, the first steps of a scripted game: at each, every choice the
session offers the side to act is a row of the action panel (the session's pass is the
tracker's Next), a move of a unit on the table can be drawn with the move tool, the
tracker names the side to act, and a side left with nothing but a pass is passed by the
screen itself, logged with the reason. Refused actions of the phase are listed greyed
with the rules' reason and SPEC id.
"""

from __future__ import annotations

import pygame
import pygame_gui
import pytest
from ui_events import move, screen, settle

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.session.forced import forced_step
from tactical.session.game import PASS
from tactical.ui.app import App

SEED = 7
STEPS = 60


def app_for(rules_id: str) -> App:
    state = load_map(builtin_map(rules_id))
    return App(state, (1280, 800), headless=True, session=Session.new(state, SEED))


def phases_checked(app: App) -> set[str]:
    """Play the stand-in's steps through the session; after each, check the panel."""
    seen = set()
    for _ in range(STEPS):
        game = app.play.session.game
        offered = {(c.kind, c.actor, c.title) for c in game.choices() if c.kind != PASS}
        shown = {(c.kind, c.actor, c.title) for c in app.play.actions.choices}
        assert offered <= shown, (game.phase_name, offered - shown)
        for choice in app.play.actions.choices:
            if choice.kind == "move" and app.state.has_unit(choice.actor):
                assert app.play.can_draw(choice), choice.title
        assert game.side_to_act in app.play.tracker.text.html_text
        seen.add(game.phase_name)
        step = autoplay.next_game(game).last_step
        if step.is_pass:
            app.play.next_go(ask=False)
        else:
            app.play.do(step.action)
        settle(app, 1)
        # the side the tracker names to act really acts: the rules offer it something (a
        # side they give nothing while another acts was passed by the game itself)
        after = app.play.session.game
        assert forced_step(after) is None, after.phase_name
        assert app.play.tracker.side_label.text.startswith(f"{after.side_to_act} to act")
    return seen


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_every_offered_action_is_on_the_panel_in_every_phase(rules_id):
    app = app_for(rules_id)
    seen = phases_checked(app)
    app.play.close()
    pygame.event.clear()
    assert len(seen) >= 2, seen


def test_cortex_vessels_can_be_moved_on_the_table():
    """Cortex ships move on screen: the session's table move, within Speed."""
    app = app_for("cortex-space")
    moves = [c for c in app.play.actions.choices if c.kind == "move"]
    assert moves and all(app.play.can_draw(c) for c in moves)
    app.play.close()


def test_a_side_that_can_only_pass_is_passed_with_the_reason():
    """SW D6 Movement (R004.50): ships move one at a time, lowest Initiative first; the side
    without the ship to move has only a pass, and the game makes it, marked with why."""
    app = app_for("sw-d6-capital")
    session = app.play.session
    for _ in range(200):
        game = session.game
        step = autoplay.next_game(game).last_step
        if step.is_pass:
            app.play.next_go(ask=False)
        else:
            app.play.do(step.action)
        if any(s.is_pass and s.forced for s in session.game.steps):
            break
    passes = [s for s in session.game.steps if s.is_pass and s.forced]
    assert passes, "no side was left with only a pass"
    assert passes[0].forced.startswith("nothing else is open")
    last = passes[-1]
    assert f"#{last.number} {last.side} passed: {last.forced}" in app.play.log.lines
    assert "taken by the game: nothing else is open" in session.log_text()
    game = session.game
    assert any(c.kind != PASS for c in game.choices())  # the side shown to act can act
    app.play.close()


def test_refused_actions_are_greyed_with_the_reason_and_rule():
    """Heavy combat: once a ship has spent its power, the costly declarations are refused;
    they are listed after the offered ones, and a click says why with the SPEC id."""
    app = app_for("heavy-combat")
    session = app.play.session
    for _ in range(40):
        if app.play.actions.unavailable:
            break
        step = autoplay.next_game(session.game).last_step
        if step.is_pass:
            app.play.next_go()
        else:
            app.play.do(step.action)
    panel = app.play.actions
    assert panel.unavailable, "no refused declaration listed"
    refused = panel.unavailable[0]
    assert refused.reason and refused.spec_id
    label = panel.unavailable_labels[0]
    texts = [item["text"] for item in panel.choice_list.item_list]
    assert texts[len(panel.choices) :] == list(panel.unavailable_labels)
    item = panel.choice_list.item_list[len(panel.choices)]
    assert item["object_id"] == "#unavailable_choice"
    picked = panel.picked
    click = pygame.event.Event(
        pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, text=label, ui_element=panel.choice_list
    )
    app.handle(click)
    assert panel.picked == picked  # the row cannot be picked
    assert refused.reason in app.view.status and refused.spec_id in app.view.status
    app.play.close()


def test_during_an_attack_the_pair_panel_measures_attacker_to_target():
    """With an attack open, hovering a ringed target measures from the attacker,
    whatever unit is selected."""
    app = app_for("battlefleet-mars")
    session = app.play.session
    while not any(c.kind == "attack" for c in session.game.choices()):
        step = autoplay.next_game(session.game).last_step
        if step.is_pass:
            app.play.next_go()
        else:
            app.play.do(step.action)
    attack = next(c for c in app.play.actions.choices if c.kind == "attack")
    other = next(u for u in app.state.units if u.id != attack.actor)
    app.select(other.id)
    app.play.actions.pick(attack)
    target = next(t for t in app.play.target_ids() if t != other.id)
    unit = app.state.unit(target)
    move(app, screen(app, unit.x, unit.y))
    report = app.hover.pair_report
    assert report is not None and (report.source, report.target) == (attack.actor, target)
    assert app.pair_panel.box.visible
    app.play.close()


def test_the_action_list_shows_eight_rows_and_stays_put_at_1280x800():
    """At least 8 rows, and the list does not move or change height between
    clicks (a pick, a step played) while the form is short."""
    app = app_for("battlefleet-mars")
    panel = app.play.actions
    rects = []
    for _ in range(12):
        rects.append((tuple(panel.choice_list.get_abs_rect()), tuple(panel.panel.get_abs_rect())))
        if panel.choices:
            panel.pick(0)
            app.play.panel_command("picked", None)
            rects.append(
                (tuple(panel.choice_list.get_abs_rect()), tuple(panel.panel.get_abs_rect()))
            )
            panel.pick(None)
        step = autoplay.next_game(app.play.session.game).last_step
        if step.is_pass:
            app.play.next_go()
        else:
            app.play.do(step.action)
    assert len(set(rects)) == 1, set(rects)
    assert rects[0][0][3] >= 8 * 20
    app.play.close()
