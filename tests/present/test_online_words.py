"""What the online play screen says, without its widgets (no pygame, no server)."""

from __future__ import annotations

from types import SimpleNamespace

from tactical.net.hosting import Invite
from tactical.present.online_words import (
    asks_to_undo,
    bar_html,
    coloured,
    followed,
    hold_lines,
    invite_heading,
)


class ByFile:
    """A game played with others by file, as the bar and the held panel read it."""

    online = True
    watching = final = False
    status = "connected"
    undo_asked_by = None

    def __init__(self, side: str | None, reason: str | None) -> None:
        self.side = side
        self.reason = reason

    def hold_reason(self) -> str | None:
        return self.reason

    def meanwhile_words(self) -> str:
        return "Save the game and send it on."


def test_the_held_panel_says_what_is_under_way_then_why_nobody_here_may_declare():
    waiting = ByFile("Klingon", "waiting for Federation")
    assert hold_lines(waiting, True, "host") == (
        "Starting the server…",
        "The game goes on once it is done.",
    )
    assert hold_lines(waiting, True, "join")[0] == "Joining the game…"
    assert hold_lines(waiting, False, None) == ()  # on one screen nothing is held here
    assert hold_lines(ByFile("Klingon", None), True, None) == ()  # its go
    assert hold_lines(waiting, True, None) == (
        "waiting for Federation",
        "Save the game and send it on.",
    )
    lost = ByFile("Klingon", "the connection is lost")
    lost.status = "reconnecting"
    assert hold_lines(lost, True, None)[1] == "Nothing is lost: the window reconnects by itself."


def test_the_bar_of_a_game_played_by_file_says_who_plays_here_and_whose_go_it_is():
    assert bar_html(ByFile("Klingon", "waiting for Federation"), True) == (
        "<b>played with others elsewhere</b> · you play Klingon<br>waiting for Federation"
    )
    assert bar_html(ByFile(None, None), True) == "<b>played with others elsewhere</b><br>your go"
    assert coloured("a <b>", "#fff") == "<font color='#fff'>a &lt;b&gt;</font>"


def test_undo_asks_the_other_players_only_in_a_game_served_online():
    assert not asks_to_undo(SimpleNamespace(online=False, ask_undo=print))
    assert not asks_to_undo(SimpleNamespace(online=True, undo_at_once=True, ask_undo=print))
    assert not asks_to_undo(SimpleNamespace(online=True))  # no way to ask
    assert asks_to_undo(SimpleNamespace(online=True, ask_undo=print))


def test_the_status_line_names_what_else_arrived_with_a_step():
    def step(side: str, title: str, is_pass: bool = False) -> SimpleNamespace:
        return SimpleNamespace(side=side, title=title, is_pass=is_pass)

    shown = step("A", "Ruler fires")
    assert followed([shown], shown) == ""
    steps = [step("B", "B passes", True), shown, step("A", "End Phase"), step("A", "End Phase")]
    assert followed(steps, shown) == " · B passed · then End Phase"


def test_the_host_window_says_who_may_join_and_what_to_give_out():
    local = Invite("127.0.0.1:8765", False, {"B": "tactical join …"}, "tactical join --watch …")
    assert invite_heading(local) == (
        "Serving on 127.0.0.1:8765.",
        'Only this machine can join (for others, tick "let other machines join" when hosting).',
        "Give each player their own line: its token is their seat. Anyone may watch.",
    )
    public = Invite("0.0.0.0:8765", True, {}, "tactical join --watch …")
    assert invite_heading(public)[1:] == (
        "Every machine that can reach this one may join (mind your firewall).",
        "Every side is played here or by the computer: others may watch.",
    )
