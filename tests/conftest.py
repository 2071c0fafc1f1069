"""Test-suite settings shared by every folder.

Hypothesis runs derandomized: the same examples on every machine and every
run, so CI's verdict never depends on luck. Set HYPOTHESIS_PROFILE=explore
for a randomized search with more examples.

`tactical play` autosaves under $XDG_STATE_HOME (~/.local/state when unset):
every test runs with it pointed at a folder of the test session, so that no
test ever writes into the real home.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session", autouse=True)
def state_home_in_tmp(tmp_path_factory):
    """$XDG_STATE_HOME in a temporary folder for the whole run (child processes too)."""
    folder = tmp_path_factory.mktemp("xdg-state")
    before = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = before


@pytest.fixture(autouse=True)
def play_screens_cleaned_up():
    """After each test: the odds workers of the play screens it made are stopped (an App left
    to the garbage collector would go on computing odds while later tests run), and
    pygame_gui's translation search path loses the copy each UIManager adds to it (a
    process makes one manager; a test session makes hundreds, and every new button would
    search each copy)."""
    yield
    odds_view = sys.modules.get("tactical.ui.odds_view")
    if odds_view is not None:
        odds_view.OddsBoard.shutdown_all()
    i18n = sys.modules.get("i18n")
    if i18n is not None:
        unique = list(dict.fromkeys(i18n.load_path))
        if len(unique) != len(i18n.load_path):
            i18n.load_path[:] = unique
