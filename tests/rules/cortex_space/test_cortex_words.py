"""Cortex Space's steps in words, as the log, the status line and the cards show them:
rolls, dogfights, missiles, collisions and station actions read as sentences, never as a
dump of their fields ("avoided no, destroyed -", "out fly", "lock missile: result ...")."""

from __future__ import annotations

import re

import pytest

from tactical.agents import GreedyPlayer, mirrored
from tactical.io import builtin_map, load_map
from tactical.session.game import Game

SENTENCES = {
    "initiative": r"^Battlestar Galactica rolls Initiative: \d+$",
    "advantage": r"^Viper \(Apollo\) dogfights Cylon Raider 2 for the Advantage: 5 against 12; "
    r"Cylon Raider 2 has it, \+2 steps \(extraordinary\)$",
    "avoid-collision": r"^Viper \(Starbuck\) tries to avoid Cylon Raider 1: 12 against 15, "
    r"a collision",
    "lock-missile": r"^Cylon Raider 2 locks its missiles on Battlestar Galactica: 11 against "
    r"3, locked \(extraordinary\)",
    "fire-missile": r"^Cylon Raider 2 fires its missiles at Battlestar Galactica: 1 turn to "
    r"strike \(4d2\)$",
    "out-fly": r"^Battlestar Galactica tries to out-fly a missile in flight: 2 \(1 turn left "
    r"to reach 15\)$",
    "shoot-down": r"^Battlestar Galactica's point-defense at a missile in flight: 7 against "
    r"15, missed$",
    "attack-manoeuvre": r"^Battlestar Galactica, Hoshi at the helm: attack manoeuvre 5 against "
    r"11, failure; defense now 3$",
    "evasive-manoeuvre": r"^Battlestar Galactica, Hoshi at the helm: evasive manoeuvre 2 "
    r"against 11, failure; -2 steps on attack rolls; defense now 2$",
    "agility-defense": r"^Battlestar Galactica, Hoshi at the helm: agility defense 2; defense "
    r"now 2$",
}


@pytest.fixture(scope="module")
def first_words() -> dict[str, str]:
    """The first step of each kind in a greedy game on the built-in map (seed 0)."""
    game = Game.new(load_map(builtin_map("cortex-space")), 0)
    player = GreedyPlayer(1)
    found: dict[str, str] = {}
    while not game.over and not set(SENTENCES) <= set(found) and game.step_number < 400:
        game = player.decide(game).after
        step = game.steps[-1]
        found.setdefault(step.action.kind, step.words)
    return found


@pytest.mark.parametrize("kind", sorted(SENTENCES))
def test_R003_each_kind_of_step_reads_as_a_sentence(first_words, kind):
    assert re.search(SENTENCES[kind], first_words[kind]), first_words[kind]


def test_R003_a_station_roll_names_the_post_and_the_steps_it_gives(first_words):
    """R003.45-R003.58: "Adama in command", "Gaeta at tactical: ... +1 step on helm and
    attack rolls" (one step, not "steps"), never "at the co"."""
    game = Game.new(load_map(builtin_map("cortex-space")), 0)
    player = GreedyPlayer(1)
    said = []
    while not game.over and game.step_number < 300:
        game = player.decide(game).after
        if game.steps[-1].action.kind == "station-roll":
            said.append(game.steps[-1].words)
    assert "Battlestar Galactica, Adama in command: station roll 9 against 11, failure" in said
    assert any(s.endswith("success; +1 step on helm and attack rolls") for s in said), said
    assert not any(" at the co" in s for s in said)


def test_R003_41_a_missile_to_out_fly_is_named_by_its_launcher_and_when_it_strikes():
    """R003.39 / R003.41: "Battlestar Galactica: out-fly missile 1 from Cylon Raider 2 (strikes
    next turn)", not the missile's id ("out-fly missile-1"); its number first, so that the
    rows of two missiles differ in their first words."""
    game = Game.new(load_map(builtin_map("cortex-space")), 0)
    player = GreedyPlayer(1)
    titles: list[str] = []
    while not game.over and game.step_number < 300 and not titles:
        offered = game.system.actions(game.state, game.position, game.side_to_act)
        titles = [c.title for c in offered if c.kind in ("out-fly", "distract")]
        game = player.decide(game).after
    assert titles, "no missile came at a vessel in 300 steps"
    for title in titles:
        assert "missile-" not in title
        assert re.fullmatch(
            r"[A-Za-z() ]+: (out-fly|distract) missile \d+ from Cylon Raider \d "
            r"\(strikes (next turn|in \d turns)\)",
            title,
        ), title


def test_R003_22_a_strafing_run_reads_as_a_sentence_not_its_fields():
    """R003.21-R003.24: "Cylon Raider 2 strafes Cylon Basestar (mirror): 5 against 15 to
    close, a collision: the run is aborted", never "strafe: result collided, aborted yes"."""
    base = load_map(builtin_map("cortex-space"))
    game = Game.new(mirrored(base, base.sides[1]), 3)  # two Cylon fleets, in reach at once
    player = GreedyPlayer(3)
    said = []
    while not game.over and game.step_number < 200 and not said:
        game = player.decide(game).after
        if game.steps[-1].action.kind == "strafe":
            said.append(game.steps[-1].words)
    assert said, "no strafing run in 200 steps"
    assert re.match(
        r"^Cylon Raider \d strafes Cylon Basestar( \(mirror\))?: \d+ against \d+ to close, "
        r"(a collision: the run is aborted|no collision; the run \d+ against \d+, \w+)",
        said[0],
    ), said[0]
    assert "result" not in said[0] and "aborted yes" not in said[0]
