"""Games whose dice came from the players' nonces, made for the tests of the proof.

`fair_history` plays a scripted game (the stand-in player of `session.autoplay`) as an online
game would: the server commits to a hash chain, and every step that rolls dice gets a
`FairRoll` with the chain's next value and the guest's nonce. Everything is fixed (the
chain's secret, the nonces), so the saves are the same on every run.

`play_by_file` plays a game by file between two players in two folders (`FilePlayer`),
sending the file back and forth; each player's secrets are fresh, as in real play.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import tactical.cli as cli
from tactical.dice.fair import Commitment, FairLedger, FairRoll, HashChain
from tactical.io import builtin_map, load_map
from tactical.io.saves import dumps_save, loads_save
from tactical.session.autoplay import next_game
from tactical.session.by_file import from_saved, holder, open_game
from tactical.session.by_file_session import FileTurnSession
from tactical.session.file_secrets import SideSecret, load_secret, secret_path
from tactical.session.game import Game
from tactical.session.history import History
from tactical.session.saving import saved_game

SERVER = "server"
SEED = 20261129


def guest_nonce(number: int) -> str:
    return hashlib.sha256(f"guest nonce {number}".encode()).hexdigest()


def server_chain() -> HashChain:
    return HashChain(hashlib.sha256(b"the server's secret").hexdigest(), length=512)


def fair_history(rules: str, max_steps: int = 10_000) -> tuple[History, FairLedger]:
    """A game played to its end with fair dice, and its ledger."""
    history = History.start(load_map(builtin_map(rules)), SEED)
    guest = history.game.sides[1]
    chain = server_chain()
    ledger = FairLedger((Commitment(SERVER, chain.head, 1),), (guest,))
    index = 0
    for _ in range(max_steps):
        game = history.game
        if game.over:
            break
        action = next_game(game).steps[game.step_number].action
        trial = history.apply(action)
        if trial.game.steps[-1].rolls:
            index += 1
            nonce = guest_nonce(index)
            fair = FairRoll(SERVER, 0, index, chain.value(index), ((guest, nonce),))
            history = history.apply(action, fair=fair)
        else:
            history = trial
    return history, ledger


def fair_document(rules: str) -> dict[str, Any]:
    """The save of `fair_history` as a JSON document (to edit by hand)."""
    history, ledger = fair_history(rules)
    return json.loads(dumps_save(saved_game(history, ledger)))


# --------------------------------------------------------------------------- games by file


class FilePlayer:
    """One player of a game by file, in a folder of its own: receives the file, does what
    needs no choosing (`tactical turn --no-window`, or the session's own catch-up), then
    plays its go with the stand-in player and leaves the file to send."""

    def __init__(self, folder: Path, side: str, *, command: bool = True) -> None:
        self.folder, self.side, self.command = folder, side, command
        self.path = folder / "game.json"

    def receive(self, text: str) -> None:
        self.path.write_text(text)

    def session(self) -> FileTurnSession:
        secret_file = secret_path(self.path, self.side)
        secret = (
            load_secret(secret_file, self.side)
            if secret_file.exists()
            else SideSecret.new(self.side)
        )
        return FileTurnSession(open_game(self.path, [secret]), self.path, secret, secret_file)

    def play(self) -> str:
        """This player's turn with the file: what it sends back."""
        if self.command:
            code = cli.main(["turn", str(self.path), "--side", self.side, "--no-window"])
            assert code == 0
        session = self.session()
        session.catch_up()
        while session.hold_reason() is None and not session.game.over:
            game = session.game
            action = next_game(game).steps[game.step_number].action
            session.submit(action)
        return self.path.read_text()


def play_by_file(
    rules: str, folders: tuple[Path, Path], *, command: bool = True, until=None, seed: int = SEED
) -> tuple[str, dict[str, FilePlayer], int]:
    """A game by file between two players in two folders, to its end (or until `until(text)`
    says so): the last file, the players by side, and how many times the file was sent."""
    first = folders[0] / "game.json"
    sides = Game.new(load_map(builtin_map(rules)), seed).sides
    command_line = ["turn", rules, "--side", sides[0], "--out", str(first), "--seed", str(seed)]
    assert cli.main([*command_line, "--no-window"]) == 0
    players = {
        sides[0]: FilePlayer(folders[0], sides[0], command=command),
        sides[1]: FilePlayer(folders[1], sides[1], command=command),
    }
    text = players[sides[0]].play()
    sent = 0
    for _ in range(5000):
        if until is not None and until(text):
            break
        session_side = holder_of(text)
        if session_side is None:
            break
        player = players[session_side]
        player.receive(text)
        text = player.play()
        sent += 1
    return text, players, sent


def holder_of(text: str) -> str | None:
    """Whom the file goes to next (as `tactical turn` says it)."""
    return holder(from_saved(loads_save(text), "<file>"))
