"""Built-in scenarios by name from any folder: every command's MAP is a file where there is
one, else a built-in map of that name, else one line listing the built-in names (exit 2)."""

from __future__ import annotations

import shutil

import pytest

from tactical.cli import main
from tactical.io import builtin_map
from tactical.io.paths import builtin_map_names, find_map


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A folder with no maps in it, as the current folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_builtin_names_are_the_scenarios():
    names = builtin_map_names()
    for rules in ("battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space"):
        assert rules in names
    assert "sw-d6-capital" in names and all("." not in name for name in names)


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "heavy-combat"],
        ["check", "Battlefleet-Mars.toml"],
        ["odds", "dystopian-wars", "ruler", "Main turrets", "markgraf"],
        ["threat", "sw-d6-capital", "--side", "Empire"],
    ],
)
def test_a_builtin_map_opens_by_name_from_any_folder(elsewhere, capsys, argv):
    assert main(argv) == 0, capsys.readouterr().err
    assert capsys.readouterr().out


def test_a_file_of_that_name_wins_over_the_builtin_map(elsewhere, capsys):
    shutil.copy(builtin_map("battlefleet-mars"), elsewhere / "heavy-combat")
    assert find_map("heavy-combat").resolve() == (elsewhere / "heavy-combat").resolve()
    assert main(["check", "heavy-combat"]) == 0
    assert "Deimos orbital base" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["check", "play", "render", "print", "move", "card"])
def test_an_unknown_name_is_one_line_listing_the_builtin_maps(elsewhere, capsys, command):
    extra = {"render": ["-o", "x.png"], "print": ["-o", "x.pdf"], "move": ["ruler", "F1"]}
    extra["card"] = ["a", "b", "-o", "x.png"]
    assert main([command, "heavy-combta", *extra.get(command, [])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("tactical: map 'heavy-combta' not found: no such file")
    assert "built-in maps: battlefleet-mars, cortex-space, default" in err


def test_play_opens_a_builtin_scenario_by_name(elsewhere, monkeypatch):
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from tactical.ui import app as app_module

    monkeypatch.setenv("XDG_STATE_HOME", str(elsewhere))
    monkeypatch.setattr(pygame.event, "get", lambda: [pygame.event.Event(pygame.QUIT)])
    opened = []
    real = app_module.App.__init__

    def spy(self, state, *args, **kwargs):
        opened.append((state.title, kwargs.get("path")))
        real(self, state, *args, **kwargs)

    monkeypatch.setattr(app_module.App, "__init__", spy)
    assert main(["play", "battlefleet-mars", "--size", "800x600"]) == 0
    assert opened == [("Deimos orbital base", builtin_map("battlefleet-mars"))]
