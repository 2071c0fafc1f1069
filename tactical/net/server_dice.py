"""The server's side of fair dice, and what it keeps of its own to resume.

`ServerDice` is the part of a `GameServer` that makes each step's dice with the players
(`dice.fair`): it keeps the secrets of the server's hash chains, commits a new chain
before the last runs out, asks every player elsewhere for a fresh nonce once a step's
action is fixed, then reveals the chain's next value (through the server's `reveal`,
which a test's cheating server changes). `ServerFile` is what the server keeps next to
the autosave, never sent and never in the save: the seats, their tokens, the chains'
secrets and what watchers see, so that `--resume` goes on with the same tokens and chain.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tactical.dice.fair import CHAIN_LENGTH, Commitment, FairLedger, FairRoll, HashChain, next_index
from tactical.errors import UserError
from tactical.io.files import write_text_atomic
from tactical.net.protocol import frame

REVEALER = "server"  # the party name of the server's chain in the ledger


@dataclass
class NonceWait:
    """A step waiting for the players' fresh nonces; `title_for` words it for a client."""

    step: int
    needed: frozenset[str]
    title_for: Callable[[Any], str]
    got: dict[str, str] = field(default_factory=dict)
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class ServerFile:
    """What a server keeps of its own next to the autosave (never sent, never in the save):
    the seats and their tokens, the secrets of its chains (one per commitment), and the
    side whose view watchers see (None: both sides')."""

    seats: Mapping[str, str]
    tokens: Mapping[str, str]
    chains: tuple[str, ...]
    watchers: str | None = None

    def write(self, path: Path) -> None:
        text = json.dumps(
            {
                "seats": dict(self.seats),
                "tokens": dict(self.tokens),
                "chains": list(self.chains),
                "watchers": self.watchers,
            }
        )
        write_text_atomic(path, text)
        with contextlib.suppress(OSError):
            os.chmod(path, 0o600)  # the tokens and secrets are its owner's only

    @classmethod
    def read(cls, path: Path) -> ServerFile:
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
            seats, tokens, chains = document["seats"], document["tokens"], document["chains"]
            assert isinstance(seats, dict) and isinstance(tokens, dict)
            assert isinstance(chains, list) and all(isinstance(c, str) for c in chains)
            assert all(isinstance(v, str) for v in (*seats.values(), *tokens.values()))
            watchers = document.get("watchers")
            assert watchers is None or isinstance(watchers, str)
        except (OSError, ValueError, KeyError, TypeError, AssertionError):
            raise UserError(
                f"{str(path)!r}: not a server file of tactical (the seats, tokens and dice "
                "secrets of a hosted game): cannot resume"
            ) from None
        return cls(seats, tokens, tuple(chains), watchers)


def server_file_of(autosave: Path) -> Path:
    """Where a hosted game's server file lives: next to its autosave."""
    return autosave.with_name(autosave.name + ".server")


class ServerDice:
    """The server's chains and the nonce exchange of each roll (module docstring)."""

    def __init__(self, server: Any, chains: Iterable[str]) -> None:
        self.server = server  # the `GameServer` this is part of (it imports this module)
        self.secrets = list(chains)
        self.waiting: NonceWait | None = None
        self._chains: dict[int, HashChain] = {}

    @property
    def players(self) -> tuple[str, ...]:
        """The sides whose nonces every roll needs: the ones played from elsewhere."""
        server = self.server
        return tuple(s for s in server.session.game.sides if server.seats[s] == "remote")

    def ready(self) -> None:
        """A chain committed for the rolls to come: the one this server kept (resumed), or a
        new one published now (a new game, or a save hosted by a server without its secret).
        A stretch refereed by a player's client that the server never saw end (it stopped
        meanwhile) is dropped from the ledger: the game goes on from where it began."""
        session = self.server.session
        ledger = session.fair or FairLedger((), self.players)
        ours = ledger.chains_of(REVEALER)
        have = [HashChain(secret) for secret in self.secrets]
        if not ours or len(have) < len(ours) or have[len(ours) - 1].head != ours[-1].head:
            chain = HashChain.new()
            history = session.history
            start = history.first.step_number + history.cursor + 1  # the next step's number
            ledger = ledger.with_commitment(Commitment(REVEALER, chain.head, start))
            self.secrets = [*self.secrets[: len(ours)], chain.secret]
        line = session.game.step_number
        kept = tuple(s for s in ledger.sealed if all(step.step <= line for step in s.steps))
        ledger = replace(ledger, players=self.players, sealed=kept)
        session.fair = ledger
        self.write_server_file()
        session.write_autosave()

    def chain(self, number: int) -> HashChain:
        if number not in self._chains:
            self._chains[number] = HashChain(self.secrets[number])
        return self._chains[number]

    def write_server_file(self) -> None:
        server = self.server
        if server.server_file is not None:
            kept = ServerFile(server.seats, server.tokens, tuple(self.secrets), server.watchers)
            kept.write(server.server_file)

    def next_value(self) -> tuple[int, int]:
        """(chain number, index) of the next value to reveal; a new chain is committed when
        the last runs out. Values used by a stretch being refereed count as used."""
        session = self.server.session
        ledger = session.fair
        assert ledger is not None
        chain = len(ledger.chains_of(REVEALER)) - 1
        records = [step.fair for step in session.game.steps]
        stretch = self.server.stretch
        if stretch is not None:
            records += [played.fair for played in stretch.played]
        index = next_index(records, REVEALER, chain, ledger)
        if index > CHAIN_LENGTH:
            fresh = HashChain.new()
            step = session.game.step_number + 1 + len(records) - len(session.game.steps)
            session.fair = ledger.with_commitment(Commitment(REVEALER, fresh.head, step))
            self.secrets.append(fresh.secret)
            self.write_server_file()
            session.write_autosave()  # published before it is used
            return chain + 1, 1
        return chain, index

    async def fair_roll(self, number: int, title_for: Callable[[Any], str]) -> FairRoll:
        """The fair record of step `number`: every player's fresh nonce, then the reveal.
        Each client reads the step's title as `title_for` words it for that client (a
        hidden step's is "hidden movement")."""
        server = self.server
        needed = frozenset(self.players)
        fresh: dict[str, str] = {}
        if needed:
            wait = NonceWait(number, needed, title_for)
            self.waiting = wait
            on = sorted(needed)
            for client in list(server.clients):
                title = title_for(client)
                await client.send(
                    frame("waiting", on=on, what=f"a nonce for step {number} ({title})")
                )
                if client.side in needed:
                    await client.send(frame("nonce_wanted", step=number, title=title))
            await wait.done.wait()
            self.waiting = None
            fresh = dict(wait.got)
        chain, index = self.next_value()
        revealed = await server._revealed(chain, index)
        return FairRoll(REVEALER, chain, index, revealed, tuple(sorted(fresh.items())))

    async def nonce(self, client: Any, message: Mapping[str, Any]) -> None:
        wait = self.waiting
        if wait is None or message["step"] != wait.step or client.side not in wait.needed:
            await client.send(frame("error", message="no nonce is wanted from you for that step"))
            return
        if client.side in wait.got:
            await client.send(frame("error", message="your nonce for that step is already in"))
            return
        wait.got[client.side] = message["nonce"]
        if set(wait.got) == wait.needed:
            wait.done.set()

    async def joined(self, client: Any) -> None:
        """A player who (re)joins while its nonce is wanted is asked again."""
        wait = self.waiting
        if wait is not None and client.side in wait.needed and client.side not in wait.got:
            title = wait.title_for(client)
            await client.send(frame("nonce_wanted", step=wait.step, title=title))
