"""The play screen is built of parts that own their own state: what it forwards is theirs."""

from __future__ import annotations

import pytest

from tactical.ui.parts import Forward, forwards
from tactical.ui.play_mode import PlayScreen


class Flow:
    def __init__(self) -> None:
        self.result = None

    def next_go(self) -> str:
        return "passed"


def test_a_forwarded_attribute_is_read_and_set_on_its_part():
    @forwards(flow="result next_go go=next_go")
    class Screen:
        def __init__(self) -> None:
            self.flow = Flow()

    screen = Screen()
    screen.result = 3
    assert screen.flow.result == 3 and "result" not in vars(screen)
    assert screen.next_go() == "passed" and screen.go() == "passed"
    assert isinstance(Screen.__dict__["go"], Forward) and Screen.go.name == "next_go"


def test_a_class_cannot_forward_a_name_it_defines_itself():
    with pytest.raises(TypeError, match=r"Screen\.result is its own"):

        @forwards(flow="result")
        class Screen:
            result = None


def test_the_play_screen_declares_no_field_of_its_parts_and_stays_small():
    """Every forwarded name is one of its parts' own, and it defines at most 30 methods."""
    forwarded = {n: f for n, f in vars(PlayScreen).items() if isinstance(f, Forward)}
    parts = {f.part for f in forwarded.values()}
    assert parts == {"handover", "flow", "moves", "targets", "files"}
    assert {"session", "next_go", "cancel_move", "save_game", "refresh_odds"} <= set(forwarded)
    methods = [v for v in vars(PlayScreen).values() if callable(v) or isinstance(v, property)]
    assert len([m for m in methods if not isinstance(m, Forward)]) <= 30
