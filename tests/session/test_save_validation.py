"""A save is validated like a map: its rule_state, version and nesting; a tampered
save is refused with what and where, in `replay`, `play SAVE` and `play --resume`."""

from __future__ import annotations

import json

import pytest

from tactical.cli import main
from tactical.errors import UserError
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import thaw
from tactical.session import autoplay
from tactical.session.controller import Session


@pytest.fixture(scope="module")
def played():
    """A Battlefleet Mars save of six steps, and the rule state its game reached."""
    session = Session.new(load_map(builtin_map("battlefleet-mars")), 7)
    for _ in range(6):
        session.apply(autoplay.next_game(session.game).last_step.action)
    document = json.loads(_text(session))
    return document, thaw(session.game.state.rule_state)


def _text(session) -> str:
    from tactical.io.saves import dumps_save
    from tactical.session.saving import saved_game

    return dumps_save(saved_game(session.history))


def _tampered(played, change):
    document, rule_state = played
    copy = json.loads(json.dumps(document))
    copy["rule_state"] = json.loads(json.dumps(rule_state))
    change(copy)
    return copy


def _made_up_change(document) -> dict:
    """A parameter of the first action changed to another value it may take."""
    params = document["actions"][0]["params"]
    for key, value in params.items():
        if isinstance(value, bool):
            return {key: not value}
        if isinstance(value, int | float):
            return {key: value + 1}
    return {}


CASES = {
    "missing key": (lambda d: d["rule_state"].pop("logistics_done"), "rule_state"),
    "wrong type": (lambda d: d["rule_state"].update(turn="zz"), "rule_state"),
    "not an object": (lambda d: d.update(rule_state=[1, 2]), "rule_state"),
    "version true": (lambda d: d.update(version=True), "version"),
    "version 1.0": (lambda d: d.update(version=1.0), "version"),
    "a roll changed": (lambda d: d["actions"][-1].update(rolls=[99]), "actions[5]"),
    # values of the right kinds, made up: the actions no longer replay to the game saved
    "made-up values": (
        lambda d: d["rule_state"].update(turn=d["rule_state"]["turn"] + 4),
        "rule_state",
    ),
    "an action's parameter changed": (
        lambda d: (d.pop("rule_state"), d["actions"][0]["params"].update(_made_up_change(d))),
        "actions",
    ),
    "deep": (lambda d: d["actions"].insert(0, json.loads("[" * 600 + "]" * 600)), "actions"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_tampered_save_is_refused_naming_what_and_where(played, tmp_path, capsys, case):
    change, where = CASES[case]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_tampered(played, change)))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}: {where}" in err, err
    with pytest.raises(UserError, match=rf"{where.replace('[', '.').replace(']', '.')}"):
        Session.open(path)


def test_the_untouched_save_with_its_rule_state_replays(played, tmp_path, capsys):
    document, _ = played
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    assert main(["replay", str(path)]) == 0


@pytest.mark.parametrize("how", ["play", "resume"])
def test_play_and_resume_refuse_a_tampered_save_in_one_line(
    played, tmp_path, capsys, monkeypatch, how
):
    from tactical.ui import app as app_module

    monkeypatch.setattr(app_module.App, "run", lambda self: 0)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    broken = _tampered(played, CASES["missing key"][0])
    if how == "play":
        path = tmp_path / "game.json"
        path.write_text(json.dumps(broken))
        argv = ["play", str(path)]
    else:
        folder = tmp_path / "state" / "tactical" / "autosave"
        folder.mkdir(parents=True)
        (folder / "20260101-000000-abcdef.json").write_text(json.dumps(broken))
        argv = ["play", "--resume"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rule_state" in err
