"""Undo in an online game: a request the other players accept or decline.

A player asks to take back the last decision; the other human players are asked and one
accepts or declines (a computer seat accepts). The game goes back to before that decision
and everyone is sent the whole game again. The dice values the steps taken back used stay
used (`dice.fair`: recorded as withdrawn), so that no value is ever revealed twice. No
undo is taken while a guest's copy referees a stretch of hidden moves, nor back into one
once it is checked (`net.referee`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from tactical.net.protocol import frame
from tactical.session.history import History


class ServerUndo:
    """The undo request of an online game (module docstring): `asked` is (the side that
    asked, the version it asked at) while the others have not answered."""

    def __init__(self, server: Any) -> None:
        self.server = server  # the `GameServer` this is part of (it imports this module)
        self.asked: tuple[str, int] | None = None

    def _humans_but(self, side: str) -> list[str]:
        server = self.server
        return [s for s, seat in server.seats.items() if s != side and not seat.startswith("ai")]

    async def asked_by(self, client: Any, version: int) -> None:
        """An undo asked: refused with its reason, done (the computer accepts), or put to
        the other players."""
        server = self.server
        assert client.side is not None
        if server.stretch is not None:
            why = "the other side's hidden moves are being played: undo once they are revealed"
            await client.send(frame("refused", reason=f"undo: {why}", version=server.version))
            return
        if self._cuts_a_stretch():
            why = "it would go back into moves that were hidden and checked when revealed"
            await client.send(frame("refused", reason=f"undo: {why}", version=server.version))
            return
        if version != server.version or not server.session.can_undo:
            why = "nothing to undo" if not server.session.can_undo else "the game moved on"
            await client.send(frame("refused", reason=f"undo: {why}", version=server.version))
            return
        others = self._humans_but(client.side)
        if not others:  # the computer accepts
            await self._undo()
            return
        self.asked = (client.side, version)
        for other in list(server.clients):
            if other.side in others:
                await other.send(frame("undo_asked", by=client.side))
        await client.send(frame("waiting", on=others, what="an answer to your undo request"))

    def _cuts_a_stretch(self) -> bool:
        """Whether the undo would go back into a stretch refereed and checked (`net.referee`)."""
        server = self.server
        ledger = server.session.fair
        if ledger is None or not ledger.sealed or not ledger.sealed[-1].steps:
            return False
        computer = [s for s, seat in server.seats.items() if seat.startswith("ai")]
        back = server.session.history.undo_decision(computer)
        return back.game.step_number < ledger.sealed[-1].steps[-1].step

    async def answered(self, client: Any, accept: bool) -> None:
        server = self.server
        asked = self.asked
        if asked is None or client.side == asked[0]:
            await client.send(frame("error", message="no undo request is waiting for you"))
            return
        self.asked = None
        if not accept:
            await server._broadcast(frame("undo_declined", by=client.side))
            return
        await self._undo()

    async def _undo(self) -> None:
        """Back to before the last decision; the dice values its steps used stay used."""
        server = self.server
        assert server.lock is not None
        async with server.lock:
            computer = [s for s, seat in server.seats.items() if seat.startswith("ai")]
            old = server.session.history
            back = old.undo_decision(computer)
            cut = History.of_line(back.first, back.game, back.cursor, back.take_single)
            offset = old.first.step_number
            dropped = [
                (step.number, step.fair)
                for step in old.steps[offset + back.cursor :]
                if step.fair is not None
            ]
            assert server.session.fair is not None
            server.session.fair = server.session.fair.with_withdrawn(dropped)
            server.session.history = cut
            server.version += 1
            server.session.write_autosave()
            clients = list(server.clients)
            texts = [server.views.whole_frame(client) for client in clients]
            await asyncio.gather(*(c.send(t) for c, t in zip(clients, texts, strict=True)))
        server._kick_ai()
