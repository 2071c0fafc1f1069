"""A unit's damage state set by hand mid-game, in every rule system: an adjustment
action in the log, undone, saved, reloaded and replayed to the same state; a value over its
maximum or below 0 is one clear message (citing the rule) and changes nothing."""

from __future__ import annotations

import pytest

from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.io.catalogue import builtin_catalogue
from tactical.rules import registry
from tactical.session import adjust
from tactical.session.autoplay import next_game
from tactical.session.game import Game
from tactical.session.history import History
from tactical.session.log import game_log
from tactical.session.quick_entry import parse_quick_entry
from tactical.session.replay import Replay
from tactical.session.saving import load_game, save_game

SEED = 1414
STEPS = 5

# rule system: unit, values set, (label, text) its card shows then, the log's sentence
SET = {
    "battlefleet-mars": (
        "deimos-base",
        {"laser_strength": 3, "results": "B2 iL"},
        ("Laser strength", "3/6"),
        "Deimos Base status set: Laser strength 6 → 3, Results scored - → B2 iL",
    ),
    "heavy-combat": (
        "enterprise",
        {"weapons": 1, "shield_fore": 3},
        ("Shield fore", "3/27"),
        "USS Enterprise (Fed CA) status set: Weapons 4 → 1, Shield fore 27 → 3",
    ),
    "dystopian-wars": (
        "ruler",
        {"hull": 3},
        ("Hull", "3/8"),
        "Ruler Class Battleship status set: Hull 8 → 3",
    ),
    "cortex-space": (
        "galactica",
        {"wound": 12, "stun": 3},
        ("Life points", "25/40"),
        "Battlestar Galactica status set: Wound 0 → 12, Stun 0 → 3",
    ),
    "sw-d6-capital": (
        "corvette",
        {"damage": "heavy", "ionization": 2},
        ("Damage", "Heavily Damaged"),
        "Corellian Corvette status set: Damage none → heavy, Ionization 0 → 2",
    ),
}
# rule system: a value over its maximum and its message, a negative one and its message
BAD = {
    "battlefleet-mars": (
        {"laser_strength": 7},
        "Laser strength takes a whole number from 0 to 6, not 7",
        {"missiles": -1},
        "Missiles carried takes a whole number from 0 to 999, not -1",
    ),
    "heavy-combat": (
        {"warp": 4},
        "Warp takes a whole number from 0 to 3, not 4",
        {"shield_aft": -2},
        "Shield aft takes a whole number from 0 to 24, not -2",
    ),
    "dystopian-wars": (
        {"hull": 9},
        "Hull takes a whole number from 1 to 8, not 9",
        {"hull": -1},
        "Hull takes a whole number from 1 to 8, not -1",
    ),
    "cortex-space": (
        {"wound": 41},
        "Wound takes a whole number from 0 to 40, not 41",
        {"stun": -1},
        "Stun takes a whole number from 0 to 40, not -1",
    ),
    "sw-d6-capital": (
        {"ionization": 5},
        "Ionization takes a whole number from 0 to 4, not 5",
        {"force_points": -1},
        "Force Points takes a whole number from 0 to 99, not -1",
    ),
}


def _played(history: History, steps: int) -> History:
    for _ in range(steps):
        history = history.apply(next_game(history.game).last_step.action)
    return history


@pytest.fixture(scope="module", params=sorted(SET))
def played(request) -> History:
    return _played(History.start(load_map(builtin_map(request.param)), SEED), STEPS)


@pytest.fixture
def mid_game(played) -> Game:
    return played.game


def _shown(game: Game, unit_id: str) -> dict[str, str]:
    system = registry.get(game.state.rules)
    status = system.unit_status(game.state, game.state.unit(unit_id))
    return {value.label: value.text for value in status.values}


def test_damage_set_mid_game_is_an_adjustment_undone_saved_reloaded_replayed(played, tmp_path):
    mid_game = played.game
    unit_id, values, (label, text), sentence = SET[mid_game.state.rules]
    assert _shown(mid_game, unit_id)[label] != text
    history = played.apply(adjust.set_status(unit_id, values))
    game = history.game
    assert _shown(game, unit_id)[label] == text
    step = game.last_step
    assert step.title == f"adjust: {sentence}" and step.rolls == () and step.by_session
    assert (game.position, game.side_to_act) == (mid_game.position, mid_game.side_to_act)
    assert game_log(game).text().splitlines()[-1] == f"#{step.number}   {sentence}"
    # the others are as they were
    for unit in mid_game.state.units:
        if unit.id != unit_id:
            assert _shown(game, unit.id) == _shown(mid_game, unit.id)
    assert history.undo().game.state == mid_game.state
    history = _played(history.undo().redo(), 3)
    save_game(history, tmp_path / "game.json")
    reloaded = load_game(tmp_path / "game.json")
    assert reloaded.game.state == history.game.state
    assert game_log(reloaded.game).text() == game_log(history.game).text()
    replay = Replay.open(tmp_path / "game.json")
    frames = list(replay.frames())
    assert frames[-1].state == history.game.state
    adjusted = next(f for f in frames if f.step == mid_game.step_number + 1)
    assert adjusted.state == game.state


@pytest.mark.parametrize("which", ["over the maximum", "negative"])
def test_a_value_out_of_bounds_is_one_message_and_changes_nothing(mid_game, which):
    unit_id = SET[mid_game.state.rules][0]
    over, over_words, negative, negative_words = BAD[mid_game.state.rules]
    values, words = (
        (over, over_words) if which == "over the maximum" else (negative, negative_words)
    )
    with pytest.raises(UserError) as raised:
        mid_game.apply(adjust.set_status(unit_id, values))
    assert raised.value.message.startswith(f"adjust {unit_id}: {words}")
    field = next(
        f
        for f in registry.get(mid_game.state.rules).status_fields(
            mid_game.state, mid_game.state.unit(unit_id)
        )
        if f.name in values
    )
    assert raised.value.spec_id == field.spec_id is not None


def test_an_unknown_value_names_the_ones_there_are(mid_game):
    unit_id = SET[mid_game.state.rules][0]
    with pytest.raises(UserError, match="is not one of its values") as raised:
        mid_game.apply(adjust.set_status(unit_id, {"no_such_thing": 1}))
    system = registry.get(mid_game.state.rules)
    for spec in system.status_fields(mid_game.state, mid_game.state.unit(unit_id)):
        assert spec.label in raised.value.message  # as the card and the quick entry read it


def test_a_table_with_no_game_sets_stats_not_damage():
    draft = adjust.TableDraft.of(load_map(builtin_map("dystopian-wars")))
    with pytest.raises(UserError, match="no damage to set"):
        draft.apply(adjust.set_status("ruler", {"hull": 3}))


TYPED = {
    "battlefleet-mars": ("set deimos-base laser strength 3", "Laser strength", "3/6"),
    "heavy-combat": ("set enterprise shield fore 3", "Shield fore", "3/27"),
    "dystopian-wars": ("set ruler hull 3", "Hull", "3/8"),
    "cortex-space": ("set galactica wound 12", "Wound", "12/40"),
    "sw-d6-capital": ("set corvette damage heavy", "Damage", "Heavily Damaged"),
}


def test_the_quick_entry_line_sets_a_status_value_by_its_label(mid_game):
    line, label, text = TYPED[mid_game.state.rules]
    catalogue = builtin_catalogue(mid_game.state.rules)
    entry = parse_quick_entry(line, mid_game.state, catalogue, sides=mid_game.sides)
    assert entry.action.params["op"] == "status"
    assert _shown(mid_game.apply(entry.action), line.split()[1])[label] == text


def test_the_quick_entry_line_reads_yes_and_no_for_a_yes_or_no_value():
    game = Game.new(load_map(builtin_map("dystopian-wars")), SEED)
    catalogue = builtin_catalogue("dystopian-wars")
    entry = parse_quick_entry(
        "set ruler squadron broken yes", game.state, catalogue, sides=("A", "B")
    )
    assert entry.action.params["values"] == {"broken": True}


def test_R004_18_a_capital_ship_given_new_stats_keeps_the_damage_it_took():
    """Setting a Command Deck stat mid-game (its Space) reads that stat anew, not the ship:
    its damage level and Ionization taken in the game stay (they were lost before)."""
    game = Game.new(load_map(builtin_map("sw-d6-capital")), SEED)
    for _ in range(STEPS):
        game = next_game(game)
    game = game.apply(adjust.set_status("corvette", {"damage": "heavy", "ionization": 2}))
    space = game.state.unit("corvette").stats["space"]
    game = game.apply(adjust.set_unit("corvette", stats={"space": space + 1}))
    shown = _shown(game, "corvette")
    assert (shown["Damage"], shown["Ionization"]) == ("Heavily Damaged", "2/4 D")
    assert game.state.unit("corvette").stats["space"] == space + 1
    # a starting damage written in the stats is still taken anew
    game = game.apply(adjust.set_unit("corvette", stats={"damage": "severe"}))
    assert _shown(game, "corvette")["Damage"] == "Severely Damaged"


def test_R002_1_dystopian_wars_critical_hits_are_set_by_their_table_totals():
    """The lasting Critical Hits of a model, by their 2D6 totals: set, shown on its card,
    cleared with "none"; a total off the table (2D6: 2 to 12) is refused citing R002.1."""
    game = Game.new(load_map(builtin_map("dystopian-wars")), SEED)
    catalogue = builtin_catalogue("dystopian-wars")
    entry = parse_quick_entry(
        "set ruler critical hits 7,9", game.state, catalogue, sides=("A", "B")
    )
    assert entry.action.params["values"] == {"criticals": "7,9"}
    hit = game.apply(entry.action)
    assert _shown(hit, "ruler")["Critical effects"] == "Critical Hit Table 7, Critical Hit Table 9"
    assert "Ruler Class Battleship status set: Critical hits none → 7,9" in game_log(hit).text()
    fields = {f.name: f for f in hit.system.status_fields(hit.state, hit.state.unit("ruler"))}
    assert fields["criticals"].default == "7, 9"
    cleared = hit.apply(adjust.set_status("ruler", {"criticals": "none"}))
    assert _shown(cleared, "ruler")["Critical effects"] == "none"
    with pytest.raises(UserError) as refused:
        hit.apply(adjust.set_status("ruler", {"criticals": "7, 13"}))
    assert refused.value.spec_id == "R002.1" and "'13' is not a Critical Hit Table total" in str(
        refused.value
    )
