"""What the online play screen says, in a player's words: the online bar, the held action
panel, the chat lines in the log, the Host window's heading and the steps that arrived.

No pygame: tactical.ui.online_play shows these in its widgets. A session here is the
game played on the screen: a `RemoteSession` (tactical.net.client), a game played by file
(tactical.session.by_file_session) or a `Session` on one screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from tactical.io.saves import ChatLine
from tactical.net.client import RemoteSession
from tactical.net.hosting import Invite
from tactical.session.game import Step

PROBLEM_RED = "#ff6b6b"
WARNING_AMBER = "#ffc857"
FINE_GREEN = "#8fd694"


def asks_to_undo(session: Any) -> bool:
    """Whether Undo asks the other players (a game served online: `ask_undo`) rather than
    goes back at once, and Redo is off."""
    if not getattr(session, "online", False) or getattr(session, "undo_at_once", False):
        return False
    return callable(getattr(session, "ask_undo", None))


def chat_words(line: ChatLine) -> str:
    """A chat line as the log shows it."""
    return f"{line.side} says: {line.text}"


def with_chat(lines: Sequence[str], chat: Sequence[ChatLine], limit: int) -> tuple[str, ...]:
    """The log's lines with each chat line after the lines of the step it was said at
    (`ChatLine.step`: the steps played by then); the last `limit` lines."""
    if not chat:
        return tuple(lines)
    numbers = [_step_number(line) for line in lines]
    first = next((n for n in numbers if n is not None), 0)
    said = [c for c in chat if c.step >= first - 1 or first == 0]
    out: list[str] = []
    index = 0
    for line, number in zip(lines, numbers, strict=True):
        if number is not None:
            while index < len(said) and said[index].step < number:
                out.append(chat_words(said[index]))
                index += 1
        out.append(line)
    out.extend(chat_words(c) for c in said[index:])
    return tuple(out[-limit:]) if limit > 0 else tuple(out)


def _step_number(line: str) -> int | None:
    head = line.split(" ", 1)[0]
    return int(head[1:]) if head.startswith("#") and head[1:].isdigit() else None


def hold_lines(session: Any, active: bool, work: str | None) -> tuple[str, ...]:
    """The action panel's lines while nobody here may declare; () when one may. `work`:
    "host" or "join" while a server is started or a game joined, else None."""
    if work is not None:
        doing = "Starting the server…" if work == "host" else "Joining the game…"
        return (doing, "The game goes on once it is done.")
    if not active:
        return ()
    reason = session.hold_reason()
    if reason is None:
        return ()
    if getattr(session, "watching", False):
        more = "Every step appears here as it is played; a watcher declares nothing."
    elif getattr(session, "final", False):
        more = "The game as it stood is kept: Save (Ctrl+S) writes it."
    elif getattr(session, "status", "connected") != "connected":
        more = "Nothing is lost: the window reconnects by itself."
    elif getattr(session, "undo_asked_by", None) is not None:
        more = "Answer in the window over the table."
    else:
        more = session.meanwhile_words()
    return (reason, more)


def bar_html(session: Any, active: bool) -> str:
    """The online bar's two lines: where and who; then the connection, or what a check of
    the server's reveals found (red). `active`: the game on the screen is played online."""
    if not isinstance(session, RemoteSession):  # another game played elsewhere (by file)
        side = getattr(session, "side", None)
        who = f" · you play {escape(side)}" if side else ""
        waiting = session.hold_reason() if active else None
        return f"<b>played with others elsewhere</b>{who}<br>{escape(waiting or 'your go')}"
    # where the game is served is on the top bar (`headline`): here, who and how
    if session.watching and session.sees is not None:  # where the rules hide something
        who = f"Watching {session.sees}'s view: read-only"
    elif session.watching:
        who = "Watching: read-only"
    elif session.side is not None:
        who = f"You play {session.side}"
    else:
        who = "Joining…"
    lines = [f"<b>{escape(who)}</b>"]
    status = session.status
    if session.final:
        lines.append(coloured(status, PROBLEM_RED))
    elif status != "connected":
        lines.append(coloured(status, WARNING_AMBER))
    if session.problems:
        count = len(session.problems)
        more = f" (and {count - 1} more)" if count > 1 else ""
        lines.append(coloured(f"check failed: {session.problems[-1]}{more}", PROBLEM_RED))
    if len(lines) == 1:
        computer = [side for side, seat in session.seats.items() if seat.startswith("ai")]
        here = ", ".join([*session.connected_sides, *(f"{s} (computer)" for s in computer)])
        here = here or "no player"
        lines.append(coloured("connected", FINE_GREEN) + f" · at the table: {escape(here)}")
    return "<br>".join(lines)


def invite_heading(invite: Invite) -> tuple[str, ...]:
    """What the Host window says above the lines to give out."""
    reach = (
        "Every machine that can reach this one may join (mind your firewall)."
        if invite.public
        else 'Only this machine can join (for others, tick "let other machines join" when hosting).'
    )
    give = (
        "Give each player their own line: its token is their seat. Anyone may watch."
        if invite.lines
        else "Every side is played here or by the computer: others may watch."
    )
    return (f"Serving on {invite.address}.", reach, give)


def coloured(text: str, colour: str) -> str:
    return f"<font color='{colour}'>{escape(text)}</font>"


def followed(steps: Sequence[Step], shown: Step) -> str:
    """What else arrived with the step the status line names: passes and the steps the
    game took by itself, and the other players' steps."""
    others = [s for s in steps if s is not shown]
    if not others:
        return ""
    passed = list(dict.fromkeys(s.side for s in others if s.is_pass))
    rest = [s.title for s in others if not s.is_pass]
    words = ""
    if passed:
        words += " · " + ", ".join(passed) + " passed"
    if rest:
        words += " · then " + ", ".join(dict.fromkeys(rest))
    return words
