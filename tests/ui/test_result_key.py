"""Battlefleet Mars writes its results in codes (B1-B4, L1-L4, iL, R, D: T000.2); what each
means against fighters, missiles, ships and bases (T000.5, A000.11, A000.E1) is said in plain
words in the odds chart's legend (the codes its outcomes can show, against this target) and
in the F1 help (all of them). The ui draws whatever key the rule system gives
(`OddsReport.key`, `RuleSystem.result_key`): a system whose results are words has none."""

from __future__ import annotations

import pygame
import pytest
from ui_events import key, settle

from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.session.controller import Session
from tactical.ui.app import App
from tactical.ui.fonts import Fonts
from tactical.ui.odds_chart import odds_chart, odds_lines

RULES = "battlefleet-mars"


def _report(target: str):
    state = load_map(builtin_map(RULES))
    system = registry.get(state.rules)
    attack = system.declare_attack(state, "deimos-base", "laser", target, {})
    return system.attack_odds(state, attack)


def test_the_chart_explains_the_codes_it_shows_against_this_target(monkeypatch):
    drawn: list[str] = []
    original = Fonts.render

    def render(self, text, size, colour):
        drawn.append(text)
        return original(self, text, size, colour)

    monkeypatch.setattr(Fonts, "render", render)
    pygame.init()
    fonts = Fonts()
    ship = _report("ares-cruiser")
    odds_chart(ship, (296, 260), fonts)
    legend = " ".join(text for text in drawn if text.startswith("key:"))
    assert "key: B1–B4: 1–4 damage points" in legend, drawn
    text = "\n".join(odds_lines(ship))
    assert "L1–L4: laser strength down 1–4" in text and "iL: 2 damage points" in text
    codes = {str(o) for s in ship.sections if s.label == "result" for o, _ in s.distribution.pairs}
    assert {"B2", "iL"} & codes  # the codes the legend explains are the chart's own
    fighters = dict(_report("ares-fighters").key)
    assert fighters["B1–B4"] == "no effect" and fighters["R"] == "destroyed"
    missiles = dict(_report("ares-missiles").key)
    assert missiles["L1–L4"] == "destroyed"


def _help_text(rules_id: str) -> str:
    state = load_map(builtin_map(rules_id))
    app = App(state, (1280, 800), headless=True, session=Session.new(state, 1))
    key(app, pygame.K_F1)
    settle(app, 2)
    assert app.view.help_visible
    text = app.help.box.html_text
    app.play.close()
    return text


def test_the_help_has_the_key_of_the_result_codes():
    text = _help_text(RULES)
    assert "Result codes" in text
    for code in ("B1–B4", "L1–L4", "iL", "R", "D"):
        assert f"<b>{code}</b>" in text
    assert "laser strength down 1–4" in text and "fighter: destroyed" in text


@pytest.mark.parametrize("rules_id", [r for r in registry.rule_ids() if r != RULES])
def test_a_system_whose_results_are_words_has_no_key(rules_id):
    assert "Result codes" not in _help_text(rules_id)
