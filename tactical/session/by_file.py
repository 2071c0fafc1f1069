"""Play by file (play-by-email): the commit-reveal dice of online play, carried by a file.

The players send one file back and forth; each side reveals the rolls of its own steps
(`dice.fair`, with the side as the revealing party) and gives a nonce for the others':

- *Joining.* The first time a side opens the game it makes its own hash chains
  (`session.file_secrets`: the secrets stay in a file of its own next to the game's)
  and publishes the head of the first in the save's ledger (`Commitment`); the ledger's
  players are all the sides.
- *A step without dice* (a move, a pass, a hand adjustment: one whose dice are never
  consulted, found by applying it once with throwaway dice) is applied at once: no
  round trip.
- *A step with dice* is fixed as *pending* (the save's `pending`): its action, and the
  value of its side's chain it waits for (the next one, in order). The file goes to the
  other players; each one's client adds its nonce (automatically: there is nothing to
  choose), made from its key and the step as fixed; once every nonce is there the file
  goes back, the side's client reveals its chain value, and the step is applied with
  that `FairRoll`. A step the game takes by itself (`session.forced`) is fixed the same
  way, revealed by the side whose step it is.
- *Checks.* Opening a file replays and checks it all (`session.verify`, with this side's
  secrets: every nonce it gave must have been for the step as it now stands). A side
  gives no nonce for a step until the step's revealer has published the chain the step
  waits for, so no one can pick a chain after seeing a nonce.

`FileGame` is the file's content as values; `join`, `decide` and `settle_fair` are the
moves of the scheme, pure functions over it; `holder` says whose turn the file is.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tactical.dice.fair import CHAIN_LENGTH, Commitment, FairLedger, FairRoll, next_index
from tactical.errors import UserError
from tactical.io.saves import ChatLine, SavedGame, SavedPending, read_save
from tactical.model import FrozenMap, GameState
from tactical.rules.base import Action
from tactical.session.digest import game_digest
from tactical.session.file_secrets import SideSecret, step_fingerprint
from tactical.session.forced import forced_step
from tactical.session.game import Game, Step
from tactical.session.history import History
from tactical.session.saving import saved_game
from tactical.session.verify import check_saved, declared_words


@dataclass(frozen=True)
class Pending:
    """The next step of a game by file, fixed, waiting for its dice (see the module
    docstring): its action, the revealing side `by`, the value it waits for (`index` of
    chain `chain`), the nonces given so far (`fresh`), and why the game takes it by itself
    (`forced`, "" when someone chose it)."""

    action: Action
    by: str
    chain: int
    index: int
    fresh: tuple[tuple[str, str], ...] = ()
    forced: str = ""

    def saved(self) -> SavedPending:
        action = self.action
        return SavedPending(
            action.kind,
            action.actor,
            action.params,
            self.by,
            self.chain,
            self.index,
            self.fresh,
            self.forced,
        )

    @classmethod
    def from_saved(cls, saved: SavedPending) -> Pending:
        action = Action(saved.kind, saved.actor, FrozenMap(saved.params))
        return cls(action, saved.by, saved.chain, saved.index, saved.fresh, saved.forced)

    def given(self) -> set[str]:
        return {party for party, _ in self.fresh}


@dataclass(frozen=True)
class FileGame:
    """A game by file as its file holds it: the line of play (no undone steps), the chain
    heads and players (`ledger`), the pending step, the players' chat."""

    history: History
    ledger: FairLedger
    pending: Pending | None = None
    chat: tuple[ChatLine, ...] = ()

    @property
    def game(self) -> Game:
        return self.history.game

    def saved(self) -> SavedGame:
        """What the file holds (the line up to the cursor: undone steps are not sent)."""
        line = self.history.truncated()
        saved = saved_game(line, self.ledger, self.chat)
        return replace(saved, pending=None if self.pending is None else self.pending.saved())

    def published(self, side: str, chain: int) -> Commitment | None:
        chains = self.ledger.chains_of(side)
        return chains[chain] if chain < len(chains) else None

    def missing(self) -> list[str]:
        """The players whose nonce the pending step still needs."""
        pending = self.pending
        if pending is None:
            return []
        given = pending.given()
        return [p for p in self.ledger.players if p != pending.by and p not in given]


def holder(played: FileGame) -> str | None:
    """The side the file must go to next: the pending step's revealer while it has not
    published the chain the step waits for, then each player that owes a nonce, then the
    revealer; with nothing pending, the side to act. None once the game is over."""
    pending = played.pending
    if pending is not None:
        if played.published(pending.by, pending.chain) is None:
            return pending.by
        missing = played.missing()
        return missing[0] if missing else pending.by
    if played.game.over:
        return None
    return played.game.side_to_act


def waiting_words(played: FileGame, side: str, file_name: str) -> str | None:
    """What `side`'s screen waits for, in words ("sent by file: send game.json to Klingon;
    it waits for Klingon's nonce"), or None when the file is `side`'s to play on."""
    other = holder(played)
    if other is None or other == side:
        return None
    pending = played.pending
    if pending is None:
        return f"{other}'s go: send {file_name} to {other}"
    if other != pending.by:
        waits = f"{other}'s nonce"
    elif played.published(other, pending.chain) is None:
        waits = f"{other} to publish its dice chain"
    else:
        waits = f"{other} to reveal its roll"
    return f"sent by file: send {file_name} to {other}; it waits for {waits}"


# --------------------------------------------------------------------------- starting


def start_game(state: GameState, seed: int, take_single: bool = True) -> FileGame:
    """A new game by file on a loaded map; every side is a player (each joins, `join`,
    before its first roll is made)."""
    history = History.start(state, seed, take_single)
    ledger = FairLedger((), tuple(history.game.sides))
    return settle_fair(FileGame(history, ledger))


def from_saved(saved: SavedGame, source: str, secrets: Sequence[SideSecret] = ()) -> FileGame:
    """A game by file from a save: replayed and checked (`session.verify`, with `secrets`:
    the nonces of those sides are checked too). A save played on one screen goes on by file
    from where it was; one played online (its dice from a server) cannot."""
    checked = check_saved(saved, secrets)
    verdict = checked.verdict
    if verdict.problem is not None or checked.first is None or checked.last is None:
        raise UserError(f"{source}: {verdict.message()} (`tactical verify {source}` says more)")
    sides = tuple(checked.first.sides)
    ledger = saved.fair
    if ledger is None:
        ledger = FairLedger((), sides)
    elif set(ledger.players) != set(sides) or any(c.party not in sides for c in ledger.commitments):
        raise UserError(
            f"{source}: this game's dice come from a server (it was played online): go on "
            "with it online, not by file"
        )
    history = History.of_line(
        checked.first, checked.last, saved.cursor, saved.take_forced_steps
    ).truncated()
    pending = None if saved.pending is None else Pending.from_saved(saved.pending)
    if pending is not None and saved.cursor != len(saved.actions):
        raise UserError(f"{source}: a step is pending, but the save is shown before its end")
    return FileGame(history, ledger, pending, saved.chat)


def open_game(path: str | os.PathLike[str], secrets: Sequence[SideSecret] = ()) -> FileGame:
    """`from_saved` of the save in `path`."""
    return from_saved(read_save(path), str(path), secrets)


# --------------------------------------------------------------------------- the moves


def _records(history: History) -> list[FairRoll | None]:
    return [step.fair for step in history.game.steps]


def next_value(played: FileGame, side: str) -> tuple[int, int]:
    """The chain and value `side` reveals next: the next value of its latest chain, or the
    first of a new chain when that one is used up."""
    chain = max(len(played.ledger.chains_of(side)) - 1, 0)
    index = next_index(_records(played.history), side, chain, played.ledger)
    if index > CHAIN_LENGTH:
        return chain + 1, 1
    return chain, index


def _fixed(played: FileGame, action: Action, forced: str, side: str) -> Pending:
    chain, index = next_value(played, side)
    return Pending(action, side, chain, index, (), forced)


def decide(played: FileGame, side: str, action: Action) -> tuple[FileGame, Step | None]:
    """`side` declares `action` on its go: a step without dice is applied at once (with the
    steps the game then takes by itself), a step with dice is fixed as pending (None)."""
    if played.pending is not None:
        raise UserError("a step is waiting for its dice: nothing else can be declared now")
    game = played.game
    if game.side_to_act != side:
        raise UserError(f"it is {game.side_to_act}'s go, not {side}'s")
    trial = played.history.apply(action)  # throwaway dice: a refusal says why here
    step = trial.game.last_step
    assert step is not None
    if step.rolls:
        return replace(played, pending=_fixed(played, step.action, "", side)), None
    return settle_fair(replace(played, history=trial)), step


def settle_fair(played: FileGame) -> FileGame:
    """The steps the game takes by itself from here (`session.forced`): those without dice
    applied at once, the first with dice fixed as pending (revealed by its own side)."""
    if played.pending is not None:
        return played
    history = played.history
    for _ in range(64):  # as `forced.settled`: a safety net
        taken = forced_step(history.game, history.take_single)
        if taken is None:
            break
        try:
            trial = history.apply(taken.action, forced=taken.reason)
        except UserError:
            break  # a person takes it from there, with the reason shown
        step = trial.game.last_step
        assert step is not None
        if step.rolls:
            fixed = _fixed(replace(played, history=history), step.action, taken.reason, step.side)
            return replace(played, history=history, pending=fixed)
        history = trial
    return replace(played, history=history)


def join(played: FileGame, secret: SideSecret) -> tuple[FileGame, SideSecret, list[str]]:
    """`secret`'s side publishes the chains it has not yet: its first when it joins, the
    one a pending step of its own waits for. Returns the game, the secret (with any new
    chain) and what was done, in words."""
    side = secret.side
    for number, published in enumerate(played.ledger.chains_of(side)):
        if number >= len(secret.chains) or secret.chain(number).head != published.head:
            raise UserError(
                f"the head of {side}'s dice chain in this file is not the one its secret file "
                f"holds: the file was changed, or the secret file is another game's"
            )
    wanted = len(played.ledger.chains_of(side))
    pending = played.pending
    if wanted == 0:
        wanted = 1
    if pending is not None and pending.by == side:
        wanted = max(wanted, pending.chain + 1)
    notes: list[str] = []
    ledger = played.ledger
    for number in range(len(ledger.chains_of(side)), wanted):
        secret = secret.with_chain(number)
        start = played.game.step_number + 1
        ledger = ledger.with_commitment(Commitment(side, secret.chain(number).head, start))
        notes.append(
            f"{side} published the head of its dice chain: the values its rolls will reveal "
            f"are fixed from now on, and only {side} knows them"
        )
    return replace(played, ledger=ledger), secret, notes


def catch_up(played: FileGame, secret: SideSecret) -> tuple[FileGame, SideSecret, list[str]]:
    """What `secret`'s side does by itself on opening the file (nothing is chosen): join,
    give its nonce to a pending step that needs it, or reveal a pending step of its own
    once every nonce is in (then the steps the game takes by itself follow). Returns the
    game, the secret (with any new chain) and what was done, in words."""
    side = secret.side
    notes: list[str] = []
    for _ in range(256):  # each round gives a nonce or applies a step: a safety net
        played, secret, joined = join(played, secret)
        notes += joined
        pending = played.pending
        if pending is None:
            break
        game = played.game
        number = game.step_number + 1
        what = declared_words(game, pending.action)
        commitment = played.published(pending.by, pending.chain)
        if pending.by != side:
            if side in pending.given() or side not in played.ledger.players:
                break
            if commitment is None:
                break  # its revealer publishes its chain first (see the module docstring)
            nonce = secret.nonce_for(_fingerprint(game, pending, commitment.head))
            secret = secret.with_given(number, pending.by, pending.chain, pending.index, nonce)
            fresh = tuple(sorted((*pending.fresh, (side, nonce))))
            played = replace(played, pending=replace(pending, fresh=fresh))
            notes.append(f"{side} gave its nonce for step {number} ({what})")
            break
        if played.missing() or commitment is None:
            break
        if pending.chain >= len(secret.chains):
            raise UserError(
                f"{side}'s secret file has no chain {pending.chain + 1}, which step {number} "
                "waits for: it is not the file this game was played with"
            )
        chain = secret.chain(pending.chain)
        if chain.head != commitment.head:
            raise UserError(
                f"{side}'s secret file is not the one {side} published its dice chain "
                "from in this game: the roll cannot be revealed without it"
            )
        fair = FairRoll(
            side, pending.chain, pending.index, chain.value(pending.index), pending.fresh
        )
        history = played.history.apply(pending.action, forced=pending.forced, fair=fair)
        step = history.game.last_step
        assert step is not None
        notes.append(f"{side} revealed the roll of step {number}: {step.words}")
        played = settle_fair(replace(played, history=history, pending=None))
    return played, secret, notes


def _fingerprint(game: Game, pending: Pending, head: str) -> str:
    """What a nonce for `pending` (the step after `game`) is given for."""
    return step_fingerprint(
        game_digest(game),
        pending.action,
        pending.forced,
        game.step_number + 1,
        pending.by,
        pending.chain,
        pending.index,
        head,
    )
