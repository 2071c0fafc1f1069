"""No Python representation, and no id where a name belongs, reaches the screen, the log or
the status bar.

The first steps of a scripted game in every rule system are played through the play screen
(tests/ui_play_driver.py), firing whenever the rules allow it (so that results reach the
cards); after every step a hovered unit's card is shown (every unit's at the end), the
declarations offered are opened on the panel with a target and their odds, and every
string the ui draws is gathered:
the widgets' texts (labels, buttons, text boxes, lists, menus, entries, tool
tips), everything drawn with the renderer's fonts (table labels, tokens, odds
chart, move card) and the log panel's lines, with the reasons of the greyed rows and the
refusals a player meets: the odds of a declaration aimed at each unit on the table (what a
hover or a click on it shows) and its Apply. None may read like code: a repr
(`AttackSummary(hits=...`, `FrozenMap(`), `True` / `False` / `None`, a snake_case name
(`take_default`, `battery_damage`) or a key joined by a colon (`A:battle-line`); none may
show a unit's or a terrain piece's id where its name belongs (`'ruler-1' is out of range`,
`enterprise shield damage`); and no form row stands for a value the player cannot change
(an attack's index: "Attack 0").
"""

from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pygame
import pytest
from plain_words import code_like, ids_shown
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UISelectionList,
    UITextBox,
    UITextEntryLine,
)
from ui_events import move, screen, settle
from ui_play_driver import play_step

from tactical.errors import UserError
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import FrozenMap
from tactical.present.declaration import menu_options
from tactical.present.results import dice_line
from tactical.rules import registry
from tactical.rules.base import Action
from tactical.rules.status import words
from tactical.session import autoplay
from tactical.session.controller import Session
from tactical.ui.app import App
from tactical.ui.fonts import Fonts
from tactical.ui.odds_chart import UNIT_NAMES, facts_line, odds_lines

SEED = 5
STEPS = 30  # per system: every phase of a turn in most, the first attacks in all


def test_the_detector_sees_what_it_must():
    """The patterns catch a repr, Python's words and snake_case (the scan can fail)."""
    assert code_like("result: AttackSummary(hits=5, saved=1)")
    assert code_like("FrozenMap({'a': 1})")
    assert code_like("destroyed=True") and code_like("effect None")
    assert code_like("take_default: no")
    assert not code_like("Markgraf's main turrets: 6 hits, none saved — Hull 7 → 6")
    assert not code_like("<b>Hull</b>: 8/8 · saved tactical-view-1.png")
    assert code_like("A:battle-line") and not code_like("Hull: 8 · at 12:30")
    assert code_like("captains [ship Nowhere, initiative 5D, bonus 0; s…")


def test_the_id_detector_sees_what_it_must():
    """Ids quoted or standing alone are caught, the names that contain them are not, and an id
    that is an ordinary word counts only quoted (the scan can fail, and fails on what was
    seen on the screen)."""
    ids = ("ruler-1", "markgraf-1", "markgraf", "enterprise", "ruler", "a", "t")
    seen = [
        "refused: 'ruler-1' is out of range of 'markgraf-1''s Main turrets",
        "markgraf: no path yet (W/drag ahead, A/D turn)",
        "enterprise shield damage (R001.28)",
        "no line of sight from 'a' to 't': blocked by the model X",
    ]
    assert [ids_shown(line, ids) for line in seen] == [
        ["ruler-1", "markgraf-1"],
        ["markgraf"],
        ["enterprise"],
        ["a", "t"],
    ]
    plain = 'Markgraf Class Battleship: the ruler reads 12.5" to a Ruler Class Battleship'
    assert ids_shown(plain, ids) == []
    assert ids_shown("shield damage to USS Enterprise (Fed CA)", ids) == []


def widget_strings(app) -> list[str]:
    found = []
    for element in app.manager.get_sprite_group().sprites():
        if not getattr(element, "visible", True):
            continue
        if isinstance(element, UILabel | UIButton):
            found.append(element.text)
        elif isinstance(element, UITextBox):
            found.append(element.html_text)
        elif isinstance(element, UISelectionList):
            found.extend(item["text"] for item in element.item_list)
        elif isinstance(element, UIDropDownMenu):
            found.extend(str(option[0]) for option in element.options_list)
        elif isinstance(element, UITextEntryLine):
            continue  # what the player typed, or a value to edit: data, not words
        tip = getattr(element, "tool_tip_text", None)
        if tip:
            found.append(tip)
    return found


FIRING = ("attack", "fire", "declare-attack", "resolve", "resolve-attack", "roll_power")


def firing_step(app, hold: bool) -> bool:
    """The first firing declaration the rules allow, made on the panel's session; holding,
    a pass instead of anything else (a system whose stand-in never fires, as its ships
    close in, still shows its results)."""
    game = app.play.game
    before = app.play.session.step_number
    for choice in game.choices():
        if choice.kind not in FIRING:
            continue
        for params in autoplay.candidate_params(choice):
            app.play.do(Action(choice.kind, choice.actor, params))
            if app.play.session.step_number > before:
                return True
    if hold:
        app.play.next_go()
    return app.play.session.step_number > before


def fixed(spec) -> bool:
    """Whether a field can hold one value only (a form row the player cannot change)."""
    if spec.choices is not None:
        return len(spec.choices) == 1 and spec.default == spec.choices[0]
    return spec.low is not None and spec.low == spec.high and spec.default == spec.low


def refusals(game, most: int = 60) -> list[str]:
    """What the rules say when a declaration offered now is aimed at each unit on the table
    (a hover or a click on a unit shows its odds, or why there are none) and applied."""
    said = []
    unit_ids = [unit.id for unit in game.state.units]
    for choice in game.choices():
        unit_fields = [s.name for s in choice.fields if set(s.choices or ()) & set(unit_ids)]
        if not unit_fields:
            continue
        for params in list(autoplay.candidate_params(choice))[:1]:
            for name in unit_fields:
                for unit_id in unit_ids[:most]:
                    action = Action(choice.kind, choice.actor, FrozenMap({**params, name: unit_id}))
                    for attempt in (game.odds, game.apply):
                        try:
                            attempt(action)
                        except UserError as error:
                            said.append(f"refused: {error.describe()}")
    return said


def open_every_kind(app) -> None:
    """Each kind of declaration offered now, opened on the panel with its unit fields set
    (a target), and its odds drawn once they are ready."""
    actions = app.play.actions
    unit_ids = {unit.id for unit in app.state.units}
    kinds = set()
    for choice in actions.choices:
        if choice.kind in kinds or app.play.can_draw(choice):
            continue
        kinds.add(choice.kind)
        actions.pick(choice)
        for spec in choice.fields:
            listed = [c for c in spec.choices or () if c in unit_ids]
            if listed and actions.values.get(spec.name) is None:
                actions.set_value(spec.name, listed[0])
        app.play.refresh_odds()
        for _ in range(200):  # the odds come from a child process: at most 2 s
            app.play.update()
            if app.play._shown_odds is not None and app.play._shown_odds[2] != "pending":
                break
            if actions.action() is None:
                break
            time.sleep(0.01)
        settle(app, 1)
        app.frame()


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_a_scripted_game_draws_no_code(rules_id, monkeypatch):
    drawn: list[str] = []
    original = Fonts.render

    def render(self, text, size, colour):
        drawn.append(text)
        return original(self, text, size, colour)

    monkeypatch.setattr(Fonts, "render", render)
    state = load_map(builtin_map(rules_id))
    app = App(state, (1280, 800), headless=True, session=Session.new(state, SEED))
    app.play.warm_odds()
    seen: dict[str, str] = {}
    ids = {u.id for u in state.units} | {t.id for t in state.terrain}

    def note(text: str) -> None:
        for bad in code_like(text) + ids_shown(text, ids | {u.id for u in app.state.units}):
            seen.setdefault(bad, text)

    def scan() -> None:
        panel = app.play.actions
        refused = [f"{u.title}: {u.reason}" for u in panel.unavailable]
        for text in [*widget_strings(app), *drawn, *app.play.log.lines, app.view.status, *refused]:
            note(text)
        for text in refusals(app.play.game):
            note(text)
        for row in panel._rows:
            if fixed(row.field):
                seen.setdefault(f"a fixed row {row.field.name}", row.label.text)
        drawn.clear()

    def look(number: int, every_card: bool = False) -> None:
        # the cards (of a unit cycling through them, or of all) and the offered declarations
        units = app.state.units
        hovered = units if every_card else units[number % len(units) :][:1]
        for unit in hovered:
            move(app, screen(app, unit.x, unit.y))
            settle(app, 1)
            app.frame()
            scan()
        if number % 4 == 0 or every_card:
            open_every_kind(app)
        else:
            actions = app.play.actions
            if actions.choices and actions.picked is None:
                actions.pick(0)
                app.play.refresh_odds()
            settle(app, 2)
            app.frame()
        scan()
        app.play.actions.pick(None)
        move(app, screen(app, *app.state.board.bounds[:2]))

    look(0)
    for number in range(1, STEPS + 1):
        if app.play.game.over:
            break
        if not firing_step(app, hold=number > STEPS // 2):
            play_step(app, number)
        look(number, every_card=number == STEPS)
    app.play.close()
    pygame.event.clear()
    assert seen == {}, "\n".join(f"{k!r}: {v[:300]!r}" for k, v in seen.items())


def test_a_rolls_label_names_units_by_their_names():
    """A die labelled with a unit's id ("damage vs isd") reads the unit's name."""
    game = Session.new(load_map(builtin_map("sw-d6-capital")), 1).game
    for _ in range(60):
        game = autoplay.next_game(game)
        rolls = [r.what for r in game.last_step.rolls if " vs " in (r.what or "")]
        if rolls:
            break
    assert rolls, "no roll against a ship in the first steps"
    line = dice_line(game.last_step, limit=len(game.last_step.rolls))
    state = game.last_step.state_before
    for what in rolls:
        target = what.split(" vs ")[-1]
        assert state.has_unit(target)
        assert f"vs {state.unit(target).name}" in line and f"vs {target} " not in line


@pytest.mark.parametrize("rules_id", ["dystopian-wars", "battlefleet-mars", "sw-d6-capital"])
def test_a_dice_line_names_every_unit_its_labels_quote(rules_id):
    """Issue h19a: a die labelled with a unit's id followed by a colon ("AD vs markgraf: die
    1") reads the unit's name on the screen's log too ("AD vs Markgraf Class Battleship:
    die 1 2, die 2 6"), as the rest of the log does; the stored label is left as it was."""
    game = Session.new(load_map(builtin_map(rules_id)), 1).game
    quoted: list[tuple[str, str]] = []
    for _ in range(60):
        game = autoplay.next_game(game)
        state = game.last_step.state_before
        quoted = [
            (roll.what, unit.id)
            for roll in game.last_step.rolls
            for unit in state.units
            if unit.name and re.search(rf"(?<![\w-]){re.escape(unit.id)}(?![\w-])", roll.what)
        ]
        if quoted:
            break
    assert quoted, "no roll labelled with a unit's id in the first steps"
    line = dice_line(game.last_step, limit=len(game.last_step.rolls))
    for what, unit_id in quoted:
        name = state.unit(unit_id).name
        assert name in line
        assert not re.search(rf"(?<![\w-]){re.escape(words(unit_id))}(?![\w-])", line)
        assert unit_id in what  # the record keeps the id: saves and replays are unchanged
    if rules_id == "dystopian-wars":
        assert re.search(r"AD vs Markgraf Class Battleship: \d, \d", line)
        assert line.count("Markgraf Class Battleship") == 1  # said once for its dice


def test_a_dice_line_says_a_label_repeated_in_a_row_once():
    """Issue h19a: dice rolled in a row for the same thing share their label ("gunnery: 1,
    5"), distinct labels read as before ("laser to hit 7, laser damage 4")."""

    def roll(what: str, result: int) -> SimpleNamespace:
        return SimpleNamespace(what=what, die="d6", result=result)

    def step(*rolls: SimpleNamespace) -> SimpleNamespace:
        return SimpleNamespace(rolls=rolls, state_before=None, state_after=None)

    repeated = step(roll("front-turbolasers gunnery", 1), roll("front-turbolasers gunnery", 5))
    assert dice_line(repeated) == "dice: front turbolasers gunnery: 1, 5"
    mixed = step(roll("AD vs x: die 1", 2), roll("AD vs x: die 2", 6), roll("hull", 4))
    assert dice_line(mixed) == "dice: AD vs x: 2, 6; hull 4"
    distinct = step(roll("laser to-hit", 7), roll("laser damage", 4))
    assert dice_line(distinct) == "dice: laser to hit 7, laser damage 4"
    assert dice_line(step(roll("AD vs x: die 1", 3))) == "dice: AD vs x: 3"
    # a label ending in a number: a colon keeps the result apart from it
    assert dice_line(step(roll("initiative round 1", 3))) == "dice: initiative round 1: 3"
    counted = step(roll("internal damage chart reroll", 3), roll("hull", 4))
    assert dice_line(counted) == "dice: internal damage chart reroll 3, hull 4"


ODDS_STEPS = 40  # steps of the stand-in's game whose offered declarations' odds are read


@pytest.mark.parametrize("rules_id", registry.rule_ids())
def test_the_odds_of_every_offered_declaration_read_plainly(rules_id):
    """Every offered declaration's odds in the stand-in's first steps, as the chart and the
    command line word them (`odds_lines`, units by their names): no code, no id, no facts
    listed as a container's fields ("captains [ship Nowhere, initiative 5D, ..."), no section
    led by an id ("enterprise shield damage"). A step the game takes by itself (an
    Initiative roll) is read too: its odds are what a player clicking through sees."""
    game = Session.new(load_map(builtin_map(rules_id)), SEED).game
    ids = {u.id for u in game.state.units} | {t.id for t in game.state.terrain}
    seen: dict[str, str] = {}
    read = 0
    for _ in range(ODDS_STEPS):
        if game.over:
            break
        state = game.state
        names = {u.id: state.shown_names[u.id] for u in state.units if u.name}
        token = UNIT_NAMES.set(names)
        try:
            for choice in game.choices():
                for params in list(autoplay.candidate_params(choice))[:2]:
                    try:
                        report = game.odds(Action(choice.kind, choice.actor, params))
                    except UserError as error:
                        lines = [error.describe()]
                    else:
                        lines = odds_lines(report, limit=6) if report is not None else []
                        read += report is not None
                    for line in lines:
                        for bad in code_like(line) + ids_shown(line, ids):
                            seen.setdefault(bad, line)
        finally:
            UNIT_NAMES.reset(token)
        game = autoplay.next_game(game)
    assert read, "no odds were read"
    assert seen == {}, "\n".join(f"{k!r}: {v[:200]!r}" for k, v in seen.items())


def test_the_initiative_odds_name_each_captain_plainly():
    """The SW D6 Initiative contest's odds (a step the game may take by itself, whose odds the
    chart shows to a player clicking through) list the captains as "Nowhere 4D+0", not as a
    container's fields ("captains [ship Nowhere, initiative 4D, bonus 0; ...")."""
    state = load_map(builtin_map("sw-d6-capital"))
    system = registry.get(state.rules)
    side = state.units[0].side
    report = system.action_odds(system.setup(state), Action("initiative", side, FrozenMap()))
    line = facts_line(report)
    assert not code_like(line), line
    assert f"captains {state.shown_names[state.units[0].id]} " in line


def test_a_generator_and_a_squadron_read_by_their_names():
    """A Dystopian Wars generator boost's drop-down offers "Tesla Generator", not the key
    "tesla", and its log line says "Markgraf Class Battleship's Tesla Generator boost", not
    "tesla generator boost"; the activation's drop-down offers each squadron by its name
    ("battle line"), not its key ("A:battle-line")."""
    game = Session.new(load_map(builtin_map("dystopian-wars")), 1).game
    activations = boosts = None
    for _ in range(200):
        activations = activations or next((c for c in game.choices() if c.kind == "activate"), None)
        boosts = next((c for c in game.choices() if c.kind == "boost"), None)
        if boosts is not None:
            break
        game = autoplay.next_game(game)
    assert activations is not None and boosts is not None
    squadron = activations.fields[0]
    offered = menu_options(squadron)
    assert "battle line" in offered and not any(":" in label for label in offered)
    generator = boosts.fields[0]
    labels = list(menu_options(generator))
    assert labels and all(label.endswith(" Generator") for label in labels), labels
    step = game.apply(Action(boosts.kind, boosts.actor, FrozenMap()))
    said = step.last_step.words
    assert re.search(r"'s (Tesla|Kinetic) Generator boost: ", said), said
    assert not re.search(r"\b(tesla|kinetic) generator", said), said
