"""Shared fixtures of the lab tests: a run specification on the Battlefleet Mars map."""

from __future__ import annotations

import pytest

from tactical.io import builtin_map
from tactical.lab.specs import build_spec


@pytest.fixture
def make_spec():
    def make(games=12, against=("lp_limit=6",), seed=11, players=("greedy", "greedy"), **kw):
        return build_spec(
            builtin_map("battlefleet-mars"),
            games,
            players,
            against_items=against,
            seed=seed,
            **kw,
        )

    return make
