"""Play by file (`session.by_file`): two players in two folders send one file back and
forth to the end of a game; the proof still holds, and the game is the one the same
actions and dice make on one screen. A player who edits the file is caught."""

from __future__ import annotations

import json
import stat

import pytest
from fair_games import play_by_file

import tactical.cli as cli
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.io.saves import SaveError, loads_save
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.session.autoplay import play_turns
from tactical.session.by_file import from_saved
from tactical.session.game import Game
from tactical.session.log import game_log
from tactical.session.saving import save_game
from tactical.session.verify import check_saved

RULES = ("heavy-combat", "battlefleet-mars")


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> dict:
    return {}


def played(finished, tmp_path_factory, rules):
    if rules not in finished:
        folders = (tmp_path_factory.mktemp("one"), tmp_path_factory.mktemp("two"))
        finished[rules] = (*play_by_file(rules, folders), folders)
    return finished[rules]


@pytest.mark.parametrize("rules", RULES)
def test_a_game_by_file_reaches_its_end_and_checks_out(finished, tmp_path_factory, rules, capsys):
    text, players, sent, _ = played(finished, tmp_path_factory, rules)
    saved = loads_save(text)
    checked = check_saved(saved)
    assert checked.verdict.ok, checked.verdict.message()
    assert checked.last is not None and checked.last.over
    assert saved.pending is None and sent > 10
    fair = [a for a in saved.actions if a.fair is not None]
    assert fair and all(a.rolls for a in fair)
    assert not [a for a in saved.actions if a.rolls and a.fair is None]  # every roll fair
    assert {a.fair.by for a in fair} == set(players)  # each side revealed its own
    # both players' copies say the same, and each side's secret proves its nonces
    for player in players.values():
        player.receive(text)
        capsys.readouterr()
        assert cli.main(["verify", str(player.path)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"all {sum(len(a.rolls) for a in saved.actions)} rolls check out")
        assert f"every nonce {player.side} gave was for the step as played" in out


@pytest.mark.parametrize("rules", RULES)
def test_the_game_is_the_one_hot_seat_play_makes_with_the_same_dice(
    finished, tmp_path_factory, rules
):
    text, _, _, _ = played(finished, tmp_path_factory, rules)
    saved = loads_save(text)
    game = Game.new(load_map(builtin_map(rules)), saved.seed)
    for action in saved.actions:
        game = game.apply(
            Action(action.kind, action.actor, action.params), action.forced, action.fair
        )
    by_file = check_saved(saved).last
    assert game.state == by_file.state and game.position == by_file.position
    assert game_log(game).text() == game_log(by_file).text()
    assert [s.results for s in game.steps] == [a.rolls for a in saved.actions]


def test_each_side_keeps_its_secret_to_itself(finished, tmp_path_factory):
    text, players, _, _ = played(finished, tmp_path_factory, "heavy-combat")
    for player in players.values():
        secret_file = player.path.with_name(f"game.json.{player.side}.secret")
        assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
        secret = json.loads(secret_file.read_text())
        assert secret["side"] == player.side
        for value in (*secret["chains"], secret["key"]):
            assert value not in text
        other = next(p for p in players.values() if p is not player)
        assert not other.folder.joinpath(secret_file.name).exists()


def aimed_and_nonced(text: str) -> bool:
    """The file holds an attack fixed as pending, with the other side's nonce in, on its
    way back to its revealer: the moment a cheat would change the attack."""
    pending = json.loads(text).get("pending")
    return bool(pending and pending["fresh"] and "target" in pending["action"]["params"])


@pytest.fixture
def cheat(tmp_path):
    """A Battlefleet Mars game by file stopped where an attack waits for its reveal, with
    the revealer's copy of the file changed to aim the attack elsewhere."""
    folders = (tmp_path / "one", tmp_path / "two")
    for folder in folders:
        folder.mkdir()
    text, players, _ = play_by_file("battlefleet-mars", folders, until=aimed_and_nonced)
    document = json.loads(text)
    pending = document["pending"]
    revealer, victim = (
        players[pending["by"]],
        next(p for p in players.values() if p.side != pending["by"]),
    )
    game = from_saved(loads_save(text), "<file>").game
    action = pending["action"]
    enemies = [u.id for u in game.state.units if u.side != game.state.unit(action["actor"]).side]
    for target in enemies:
        if target == action["params"]["target"]:
            continue
        aimed = Action(
            action["kind"], action["actor"], FrozenMap({**action["params"], "target": target})
        )
        try:
            game.apply(aimed)
        except UserError:
            continue
        action["params"]["target"] = target
        break
    else:
        pytest.skip("no other target in reach for this attack")
    number = len(document["actions"]) + 1
    return revealer, victim, json.dumps(document), number


def test_a_pending_attack_changed_after_the_nonce_is_caught_by_verify(cheat, capsys):
    revealer, victim, text, number = cheat
    revealer.receive(text)
    revealer.play()  # the cheat's own client reveals and plays on
    victim.receive(revealer.path.read_text())
    capsys.readouterr()
    assert cli.main(["verify", str(victim.path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f": step {number} (turn " in err
    assert f"{victim.side}'s nonce was not given for this step as it stands" in err
    # the victim's own client refuses the file too, and writes nothing
    before = victim.path.read_bytes()
    assert cli.main(["turn", str(victim.path), "--side", victim.side, "--no-window"]) == 2
    assert f"step {number}" in capsys.readouterr().err
    assert victim.path.read_bytes() == before


def test_a_pending_attack_changed_is_caught_before_it_is_even_revealed(cheat, capsys):
    _, victim, text, number = cheat
    victim.receive(text)
    capsys.readouterr()
    assert cli.main(["verify", str(victim.path)]) == 2
    err = capsys.readouterr().err
    assert f"step {number} (turn " in err and "was not given for this step" in err


def test_a_die_changed_in_the_file_is_caught(finished, tmp_path_factory, tmp_path, capsys):
    text, _, _, _ = played(finished, tmp_path_factory, "heavy-combat")
    document = json.loads(text)
    index = next(i for i, a in enumerate(document["actions"]) if "fair" in a)
    document["actions"][index]["rolls"][0] = 7 - document["actions"][index]["rolls"][0]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    assert cli.main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert f": step {index + 1} (turn 1, " in err and "a die was changed" in err


def test_a_pending_step_dropped_after_the_nonce_is_caught(cheat, capsys):
    """The revealer, who knows its roll once the nonce is in, deletes the pending step to
    try its chain value again: the other side remembers the nonce it gave."""
    revealer, victim, text, number = cheat
    document = json.loads(text)
    del document["pending"]
    revealer.receive(json.dumps(document))
    revealer.play()  # declares again: a new step waits on the same chain value
    assert json.loads(revealer.path.read_text())["pending"]["fresh"] == {}
    victim.receive(revealer.path.read_text())
    before = victim.path.read_bytes()
    capsys.readouterr()
    assert cli.main(["turn", str(victim.path), "--side", victim.side, "--no-window"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f": step {number} (turn " in err
    assert f"{victim.side} gave its nonce for another step here" in err
    assert victim.path.read_bytes() == before
    assert cli.main(["verify", str(victim.path)]) == 2
    assert "withdrew or changed the step after it" in capsys.readouterr().err


def test_the_end_of_the_game_is_said(finished, tmp_path_factory, capsys):
    text, players, _, _ = played(finished, tmp_path_factory, "heavy-combat")
    player = next(iter(players.values()))
    player.receive(text)
    capsys.readouterr()
    assert cli.main(["turn", str(player.path), "--side", player.side, "--no-window"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("the game is over: ")
    assert "Send game.json to the other players so they have the end" in out


@pytest.mark.parametrize(
    ("pending", "key"),
    [
        ({"action": {"kind": "attack"}, "by": "A", "chain": 0, "index": 1, "fresh": {}}, "action"),
        (
            {"action": {"kind": "a", "actor": "b", "params": {}}, "by": "A", "chain": 0,
             "index": 0, "fresh": {}},
            "index",
        ),
        (
            {"action": {"kind": "a", "actor": "b", "params": {}}, "by": "A", "chain": 0,
             "index": 1, "fresh": {"B": "not a nonce"}},
            "fresh",
        ),
    ],
)  # fmt: skip
def test_a_bad_pending_step_is_refused_naming_its_key(finished, tmp_path_factory, pending, key):
    text, _, _, _ = played(finished, tmp_path_factory, "heavy-combat")
    document = json.loads(text)
    document["pending"] = pending
    with pytest.raises(SaveError) as caught:
        loads_save(json.dumps(document), "game.json")
    assert caught.value.key == f"pending.{key}"
    assert caught.value.message.startswith(f"game.json: pending.{key}: expected ")


def test_a_one_screen_game_goes_on_by_file(tmp_path, capsys):
    """Its steps so far rolled from the seed; from the players' chains on, their dice."""
    game = play_turns(Game.new(load_map(builtin_map("heavy-combat")), 9), turns=1)
    path = tmp_path / "game.json"
    save_game(game, path)
    assert cli.main(["turn", str(path), "--side", "Klingon", "--no-window"]) == 0
    capsys.readouterr()
    assert cli.main(["verify", str(path)]) == 0
    seeded = [s for s in game.steps if s.rolls]
    rolls = sum(len(s.rolls) for s in seeded)
    assert capsys.readouterr().out == (
        f"{rolls} rolls of {len(seeded)} dice steps played on one screen, before the players "
        "published their dice chains, replay exactly from the game's seed; the game replays "
        "to the table saved\n"
    )
