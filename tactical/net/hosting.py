"""Starting a server for a game, from the command line or from the play screen.

`start_hosting` seats the sides (the host's own side, the computer's, the rest for players
elsewhere), opens the server in a thread of its own and, for a host who plays, joins its
window to it like any other player (over loopback, with its own seat's token). `Invite`
is what the host gives the other players: the address and, per seat, the line to type.
`resume_hosting` goes on with a game whose server was stopped or killed: its autosave and
its server file (`server.ServerFile`) give the same tokens and the same committed dice.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tactical.errors import UserError
from tactical.net.client import RemoteSession
from tactical.net.protocol import DEFAULT_PORT
from tactical.net.server import GameServer, ServerFile, server_file_of
from tactical.session.controller import Session
from tactical.session.saving import Autosave

LOOPBACK = "127.0.0.1"
EVERYWHERE = "0.0.0.0"


@dataclass(frozen=True)
class Invite:
    """How the other players join: the address, and per side the command to type (with the
    seat's token: whoever has it plays that side, so it goes to that player only)."""

    address: str
    public: bool
    lines: Mapping[str, str]
    watch_line: str

    def words(self) -> tuple[str, ...]:
        """What the host is told, line by line (the terminal and the play screen)."""
        said = [f"serving on {self.address}"]
        if not self.public:
            said.append(
                "only this machine can join (give --public, or tick 'other machines', to "
                "let players on your network or the internet join)"
            )
        else:
            said.append("open to every machine that can reach this one (--public)")
        for side, line in self.lines.items():
            said.append(f"{side}: {line}")
        said.append(f"to watch: {self.watch_line}")
        return tuple(said)


def reachable_address() -> str:
    """This machine's address on its network as others would use it (no packet is sent:
    the system only picks the interface a route would use); loopback when there is none."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # a documentation address: never reached
        return str(probe.getsockname()[0])
    return LOOPBACK


def seats_for(
    sides: tuple[str, ...], host_side: str | None, computer: Mapping[str, str]
) -> dict[str, str]:
    """Each side's seat: `host` (the host's window), `ai:LEVEL`, or `remote`."""
    seats = {}
    for side in sides:
        if side == host_side:
            seats[side] = "host"
        elif side in computer:
            seats[side] = f"ai:{computer[side]}"
        else:
            seats[side] = "remote"
    if host_side is not None and host_side not in sides:
        raise UserError(f"--side: {host_side!r} is not a side of this game ({', '.join(sides)})")
    for side in computer:
        if side not in sides:
            raise UserError(f"--ai: {side!r} is not a side of this game ({', '.join(sides)})")
        if side == host_side:
            raise UserError(f"--ai: {side} is the side you play")
    return seats


def invite_of(server: GameServer, public: bool) -> Invite:
    shown = reachable_address() if public else LOOPBACK
    address = f"{shown}:{server.port}"
    lines = {
        side: f"tactical join {address} --token {server.tokens[side]}"
        for side, seat in server.seats.items()
        if seat == "remote"
    }
    return Invite(address, public, lines, f"tactical join {address} --watch")


def start_hosting(
    session: Session,
    *,
    host_side: str | None,
    computer: Mapping[str, str] | None = None,
    port: int = DEFAULT_PORT,
    public: bool = False,
    autosave: Autosave | None = None,
    watchers: str | None = None,
) -> tuple[GameServer, RemoteSession | None, Invite]:
    """Serve `session`'s game; with `host_side`, this window's copy of it too. `watchers`:
    the side whose view watchers see where the rules hide something (None: both sides')."""
    seats = seats_for(session.game.sides, host_side, dict(computer or {}))
    if autosave is not None:
        session.autosave = autosave
    file = server_file_of(session.autosave.path) if session.autosave is not None else None
    server = GameServer(
        session,
        seats,
        host=EVERYWHERE if public else LOOPBACK,
        port=port,
        server_file=file,
        watchers=watchers,
    )
    return _started(server, public, host_side)


def resume_hosting(
    autosave: Autosave, *, port: int = DEFAULT_PORT, public: bool = False, watch_only: bool = False
) -> tuple[GameServer, RemoteSession | None, Invite]:
    """Go on with a hosted game from its autosave and server file (same tokens, same chain)."""
    file = server_file_of(autosave.path)
    if not file.is_file():
        raise UserError(
            f"--resume: {str(autosave.path)!r} was not hosted (no server file next to it): "
            "host it as a new game with `tactical host SAVE`"
        )
    kept = ServerFile.read(file)
    session = Session.open(autosave.path, autosave)
    server = GameServer(
        session,
        kept.seats,
        tokens=kept.tokens,
        chains=kept.chains,
        host=EVERYWHERE if public else LOOPBACK,
        port=port,
        server_file=file,
        watchers=kept.watchers,
    )
    host_side = (
        None if watch_only else next((s for s, v in kept.seats.items() if v == "host"), None)
    )
    return _started(server, public, host_side)


def _started(
    server: GameServer, public: bool, host_side: str | None
) -> tuple[GameServer, RemoteSession | None, Invite]:
    server.run_in_thread()
    invite = invite_of(server, public)
    window = None
    if host_side is not None:
        try:
            window = RemoteSession.join(f"{LOOPBACK}:{server.port}", server.tokens[host_side])
        except UserError:
            server.stop()
            raise
    return server, window, invite


def newest_hosted(folder: Path) -> Autosave | None:
    """The most recent autosave in `folder` that was hosted (has its server file)."""
    found = [
        path for path in folder.glob("*.json") if server_file_of(path).is_file() and path.is_file()
    ]
    if not found:
        return None
    return Autosave(max(found, key=lambda path: path.stat().st_mtime_ns))
