"""Proof afterwards: every roll of a save checked against the players' nonces and chains.

`check_saved` (what `tactical verify` runs, and what a game by file checks each time it
is opened):

1. replays every action of the saved line from the starting map, each step with its own
   dice (from its players' nonces and revealed value, `FairRoll.seed`, or from the
   game's seed), and compares every die with the one recorded;
2. checks the chains (`dice.fair.check_rolls`): each revealed value hashes to the one
   its side committed to, values are used in order, and each roll has a nonce from every
   player but the revealer;
3. with a side's secrets (a game by file, `session.file_secrets`), checks that each nonce
   the side gave was given for the step as the save now has it;
4. where one side's client refereed a stretch of its own hidden moves while a player
   hosted (`net.referee`, `dice.sealed`), checks each hidden move against the commitment
   sent in its place, and each answer that client gave against the view the replay gives;
5. compares the table the replay ends on with the save's digest (`session.digest`).

The first step that fails is named in words: its number, turn, who acted and what, and
why. A save without a ledger was played on one screen: its rolls replay exactly from its
seed, but no second player supplied nonces, and the verdict says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tactical.dice.fair import FairLedger, FairRoll, check_rolls, next_index
from tactical.dice.sealed import SealedStep, SealedStretch, seal
from tactical.errors import UserError
from tactical.io.saves import SavedGame, SavedPending
from tactical.records import field_dict
from tactical.rules.base import Action, unit_name
from tactical.session.digest import game_digest, same_scheme
from tactical.session.file_secrets import SideSecret, step_fingerprint
from tactical.session.game import Game, Step
from tactical.session.saving import UNTRUSTED_FAULTS, lasting_objects
from tactical.session.view_codes import action_text, view_answer
from tactical.session.views import viewed


@dataclass(frozen=True)
class StepProblem:
    """The first step that does not check out: where it is, who did what, and why."""

    step: int
    turn: int
    side: str
    what: str
    reason: str

    def sentence(self) -> str:
        if self.step == 0:
            return self.reason
        return f"step {self.step} (turn {self.turn}, {self.what}): {self.reason}"

    def document(self) -> dict[str, Any]:
        return field_dict(self)


@dataclass(frozen=True)
class Verdict:
    """What `check_saved` found (see the module docstring)."""

    steps: int  # actions in the saved line
    rolls: int  # dice rolled by the steps replayed
    dice_steps: int  # steps that rolled dice
    seeded: int  # of them, rolled from the game's seed (before any chain, or no ledger)
    seed: int
    ledger: FairLedger | None
    revealed: tuple[tuple[str, str, int], ...] = ()  # (revealer, nonce givers, steps)
    witnessed: tuple[str, ...] = ()  # the sides whose own nonces were checked (any given)
    pending: str = ""  # the step a game by file waits on, in words ("" when none)
    problem: StepProblem | None = None
    replayed_to_digest: bool | None = None  # None: the save records no digest to compare
    seeded_rolls: int = 0  # the dice the steps rolled from the game's seed
    # each stretch a side's client refereed: (referee, seen by, steps, hidden moves)
    sealed: tuple[tuple[str, str, int, int], ...] = ()

    @property
    def ok(self) -> bool:
        return self.problem is None

    def message(self) -> str:
        """The verdict in one line, as `tactical verify` prints it."""
        if self.problem is not None:
            return self.problem.sentence()
        rolls = _count(self.rolls, "roll")
        if self.ledger is None:
            text = (
                f"this game was played on one screen: its {rolls} replay exactly from its "
                f"seed ({self.seed}), but no second player supplied nonces, so they show the "
                "game as it was played, not that its dice were fair"
            )
        else:
            fair = self.dice_steps - self.seeded
            parts = [
                f"{count} revealed by {by} with {givers}'s nonce"
                if len(self.revealed) > 1
                else f"{'each ' if fair > 1 else ''}with {givers}'s nonce"
                for by, givers, count in self.revealed
            ]
            detail = f"{_count(fair, 'dice step')}" + (
                f", {parts[0]}" if len(parts) == 1 else f": {', '.join(parts)}" if parts else ""
            )
            fair_rolls = self.rolls - self.seeded_rolls
            said = []
            if fair_rolls == 1:
                said.append(f"the one roll checks out ({detail})")
            elif fair_rolls:
                said.append(f"all {_count(fair_rolls, 'roll')} check out ({detail})")
            if self.seeded:
                said.append(
                    f"{_count(self.seeded_rolls, 'roll')} of {_count(self.seeded, 'dice step')} "
                    "played on one screen, before the players published their dice chains, "
                    "replay exactly from the game's seed"
                )
            text = "; ".join(said) or "nothing has been rolled yet"
        if self.replayed_to_digest:
            text += "; the game replays to the table saved"
        elif self.replayed_to_digest is None:
            text += "; the game replays (the save records no table to compare with)"
        for side in self.witnessed:
            text += f"; every nonce {side} gave was for the step as played"
        for referee, seen_by, steps, hidden in self.sealed:
            text += (
                f"; {_count(hidden, 'hidden move')} {referee} kept match its commitments, and "
                f"its {_count(steps, 'answer')} to {seen_by} follow from them"
            )
        if self.pending:
            text += f"; {self.pending}"
        return text

    def document(self) -> dict[str, Any]:
        """The verdict for machines (`tactical verify --json`)."""
        return {
            "ok": self.ok,
            "message": self.message(),
            "steps": self.steps,
            "rolls": self.rolls,
            "dice_steps": self.dice_steps,
            "seeded_dice_steps": self.seeded,
            "seeded_rolls": self.seeded_rolls,
            "fair": self.ledger is not None,
            "players": list(self.ledger.players) if self.ledger is not None else [],
            "revealed": [
                {"by": by, "nonces_from": givers, "dice_steps": count}
                for by, givers, count in self.revealed
            ],
            "witnessed": list(self.witnessed),
            "sealed": [
                {"referee": r, "seen_by": b, "steps": n, "hidden_moves": h}
                for r, b, n, h in self.sealed
            ],
            "replays_to_saved_table": self.replayed_to_digest,
            "pending": self.pending or None,
            "problem": None if self.problem is None else self.problem.document(),
        }


@dataclass(frozen=True)
class Checked:
    """A save checked: the verdict, and the games the replay started from and ended on
    (None where it could not start or stopped short)."""

    verdict: Verdict
    first: Game | None
    last: Game | None


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def declared_words(game: Game, action: Action, step: Step | None = None) -> str:
    """Who did what at a step, as a player reads it: "Klingon: IKS Kronos: photons at USS
    Enterprise" (the choice's title, and its target by name)."""
    if step is not None:
        side, title = step.side, step.title
    else:
        side = game.side_to_act
        wanted = (action.kind, action.actor)
        try:
            titles = [c.title for c in game.choices() if (c.kind, c.actor) == wanted]
        except (UserError, *UNTRUSTED_FAULTS):  # a table edited by hand: its name will do
            titles = []
        actor = unit_name(game.state, action.actor) if game.state.has_unit(action.actor) else ""
        title = titles[0] if titles else ": ".join(filter(None, (actor, action.kind)))
    target = action.params.get("target")
    if isinstance(target, str) and game.state.has_unit(target):
        title += f" at {unit_name(game.state, target)}"
    return f"{side}: {title}"


def witness_problem(
    game: Game, number: int, action: Action, forced: str, fair: FairRoll | SavedPending,
    fresh: Sequence[tuple[str, str]], ledger: FairLedger, secrets: Sequence[SideSecret],
) -> str | None:  # fmt: skip
    """Why a nonce a side whose secrets are given gave for step `number` (played from
    `game`) was not given for that step as it stands, or None (see `session.file_secrets`)."""
    chains = ledger.chains_of(fair.by)
    head = chains[fair.chain].head if fair.chain < len(chains) else ""
    table = game_digest(game)
    for secret in secrets:
        given = dict(fresh).get(secret.side)
        if given is None or secret.side == fair.by:
            continue
        fingerprint = step_fingerprint(
            table, action, forced, number, fair.by, fair.chain, fair.index, head
        )
        if secret.nonce_for(fingerprint) != given:
            return (
                f"{secret.side}'s nonce was not given for this step as it stands: the step, "
                f"or the chain value it waits for, was changed after {secret.side} gave it "
                "(or the nonce itself was edited)"
            )
    return None


def check_saved(saved: SavedGame, secrets: Sequence[SideSecret] = ()) -> Checked:
    """`saved` checked as the module docstring says; `secrets`: the sides' whose own nonces
    are checked too."""
    with lasting_objects():
        return _check(saved, tuple(secrets))


def _check(saved: SavedGame, secrets: tuple[SideSecret, ...]) -> Checked:
    ledger = saved.fair
    try:
        first = Game.new(saved.initial, saved.seed)
    except (UserError, *UNTRUSTED_FAULTS) as error:
        words = error.message if isinstance(error, UserError) else type(error).__name__
        problem = StepProblem(0, 0, "", "", f"the saved table cannot start a game ({words})")
        return Checked(_verdict(saved, 0, [], problem, None, secrets, ""), None, None)
    game = first
    sealed = _sealed_steps(ledger)
    records: list[tuple[int, FairRoll | None, bool]] = []
    problems: list[tuple[int, int, StepProblem]] = []  # (step, rank at one step, problem)
    rolls = seeded_rolls = 0
    for index, saved_action in enumerate(saved.actions):
        number = index + 1
        action = Action(saved_action.kind, saved_action.actor, saved_action.params)
        fair = saved_action.fair
        if fair is not None and ledger is not None and secrets:
            why = witness_problem(
                game, number, action, saved_action.forced, fair, fair.fresh, ledger, secrets
            )
            if why is not None:
                problems.append((number, 1, _problem(game, number, action, None, why)))
        try:
            following = game.apply(action, forced=saved_action.forced, fair=fair)
        except UserError as error:
            # the choices it lists are named as the rules name them: not for a player
            why = f"it no longer applies: {error.message.split('; offered:')[0]}"
            problems.append((number, 2, _problem(game, number, action, None, why)))
            records.append((number, fair, bool(saved_action.rolls)))
            break
        except UNTRUSTED_FAULTS as fault:
            why = (
                "the rules cannot play it from the starting table's saved bookkeeping "
                "(rule_state, changed by hand?)"
                if saved.initial.rule_state
                else f"the rules cannot play it ({type(fault).__name__})"
            )
            problems.append((number, 2, _problem(game, number, action, None, why)))
            records.append((number, fair, bool(saved_action.rolls)))
            break
        step = following.steps[-1]
        records.append((number, fair, bool(step.rolls)))
        if step.results != saved_action.rolls:
            why = (
                f"it rolls {list(step.results)} on replay where the save records "
                f"{list(saved_action.rolls)}: a die was changed after it was rolled"
            )
            if ledger is None:
                why += " (or the save comes from another version of the rules)"
            problems.append((number, 3, _problem(game, number, action, step, why)))
        rolls += len(step.rolls)
        seeded_rolls += len(step.rolls) if fair is None else 0
        if number in sealed:
            why = sealed_problem(*sealed[number], action, following)
            if why is not None:
                problems.append((number, 2, _problem(game, number, action, step, why)))
        game = following
        if problems:
            break
    for number, why in given_problems(saved, secrets):
        pending = saved.pending
        if number == len(saved.actions) + 1 and pending is not None:
            action = Action(pending.kind, pending.actor, pending.params)
            what = declared_words(game, action)
            problems.append((number, 1, StepProblem(number, game.turn, pending.by, what, why)))
        elif number > len(saved.actions):
            problems.append((number, 1, StepProblem(0, 0, "", "", why)))
        else:
            problems.append((number, 1, _named(saved, game, number, why)))
    if ledger is not None:
        chain_problem = check_rolls(ledger, records)
        if chain_problem is not None:
            named = _named(saved, game, chain_problem.step, chain_problem.reason)
            problems.append((chain_problem.step, 0, named))
    problem = min(problems, key=lambda item: item[:2])[2] if problems else None
    digest_ok: bool | None = None
    pending_words = ""
    if problem is None:
        if saved.digest is not None and same_scheme(saved.digest):
            digest_ok = game_digest(game) == saved.digest
            if not digest_ok:
                problem = StepProblem(
                    0,
                    0,
                    "",
                    "",
                    f"after the last step (step {len(saved.actions)}): the game does not "
                    "replay to the table saved: the starting table, its saved bookkeeping "
                    "(rule_state) or an action was changed after the save was written",
                )
        if saved.pending is not None and problem is None:
            pending_words, problem = _pending(saved, game, records, secrets)
    verdict = _verdict(saved, rolls, records, problem, digest_ok, secrets, pending_words)
    counted = tuple(
        (s.referee, s.seen_by, len(s.steps), sum(1 for step in s.steps if step.commitment))
        for s in (ledger.sealed if ledger is not None else ())
    )
    verdict = replace(verdict, seeded_rolls=seeded_rolls, sealed=counted)
    return Checked(verdict, first, game if problem is None else None)


def _sealed_steps(ledger: FairLedger | None) -> dict[int, tuple[SealedStretch, SealedStep]]:
    """Each step of a stretch a side's client refereed, by number."""
    if ledger is None:
        return {}
    return {step.step: (stretch, step) for stretch in ledger.sealed for step in stretch.steps}


def sealed_problem(
    stretch: SealedStretch, sealed: SealedStep, action: Action, after: Game
) -> str | None:
    """Why a step of a refereed stretch does not check out (`dice.sealed`), or None: its
    hidden move is not the one committed to, or the answer its referee gave for it is not
    what the other side sees after it."""
    who = stretch.referee
    if sealed.commitment:
        if not sealed.salt:
            return f"{who} never revealed the move it kept hidden here"
        if seal(action_text(action), sealed.salt) != sealed.commitment:
            return f"{who}'s move is not the one it committed to while it was hidden"
    if view_answer(viewed(after, stretch.seen_by)) != sealed.answer:
        return (
            f"what {who}'s client reported {stretch.seen_by} sees does not follow from the "
            "moves it revealed"
        )
    return None


def given_problems(saved: SavedGame, secrets: Sequence[SideSecret]) -> list[tuple[int, str]]:
    """(step, why) for each nonce a side with secrets gave that the save no longer holds
    where it was given: a step its revealer dropped or changed after the nonce (to try the
    same chain value on another step), or a file older than the one the side last had."""
    found = []
    last = len(saved.actions)
    for secret in secrets:
        for number, by, chain, index, nonce in secret.given:
            if number <= last:
                fair = saved.actions[number - 1].fair
                held = (
                    fair is not None
                    and (fair.by, fair.chain, fair.index)
                    == (
                        by,
                        chain,
                        index,
                    )
                    and dict(fair.fresh).get(secret.side) == nonce
                )
            elif number == last + 1 and saved.pending is not None:
                pending = saved.pending
                held = (pending.by, pending.chain, pending.index) == (by, chain, index) and (
                    dict(pending.fresh).get(secret.side) == nonce
                )
            else:
                found.append(
                    (
                        number,
                        f"this file is older than the one {secret.side} last had: it ends "
                        f"before step {number}, which {secret.side} gave its nonce for",
                    )
                )
                continue
            if not held:
                found.append(
                    (
                        number,
                        f"{secret.side} gave its nonce for another step here: {by} withdrew "
                        "or changed the step after it (its roll could be tried again)",
                    )
                )
    return found


def _problem(game: Game, number: int, action: Action, step: Step | None, why: str) -> StepProblem:
    side = step.side if step is not None else game.side_to_act
    return StepProblem(number, game.turn, side, declared_words(game, action, step), why)


def _named(saved: SavedGame, last: Game, number: int, reason: str) -> StepProblem:
    """The problem `reason` at step `number`, named from the replayed line (`last`: the
    last game the replay reached)."""
    steps = last.steps
    if number <= len(steps):
        step = steps[number - 1]
        before = step.state_before
        what = f"{step.side}: {step.title}"
        target = step.action.params.get("target")
        if before is not None and isinstance(target, str) and before.has_unit(target):
            what += f" at {unit_name(before, target)}"
        return StepProblem(number, step.before.turn, step.side, what, reason)
    saved_action = saved.actions[number - 1]
    action = Action(saved_action.kind, saved_action.actor, saved_action.params)
    return _problem(last, number, action, None, reason)


def _pending(
    saved: SavedGame,
    game: Game,
    records: Sequence[tuple[int, FairRoll | None, bool]],
    secrets: Sequence[SideSecret],
) -> tuple[str, StepProblem | None]:
    """The pending step of a game by file in words, and what is wrong with it."""
    pending = saved.pending
    assert pending is not None
    ledger = saved.fair
    number = len(saved.actions) + 1
    action = Action(pending.kind, pending.actor, pending.params)
    what = declared_words(game, action)
    if ledger is None:
        why = "it waits for dice from the players' nonces, but the save has no chain heads"
        return "", StepProblem(number, game.turn, pending.by, what, why)
    chains = ledger.chains_of(pending.by)
    if pending.chain < len(chains):
        records_only = [fair for _, fair, _ in records]
        wanted = next_index(records_only, pending.by, pending.chain, ledger)
        if pending.index != wanted:
            why = (
                f"it waits for value {pending.index} of {pending.by}'s chain where value "
                f"{wanted} is next (a skipped value could have been picked for its roll)"
            )
            return "", StepProblem(number, game.turn, pending.by, what, why)
    why = witness_problem(
        game, number, action, pending.forced, pending, pending.fresh, ledger, secrets
    )
    if why is not None:
        return "", StepProblem(number, game.turn, pending.by, what, why)
    given = {party for party, _ in pending.fresh}
    missing = [p for p in ledger.players if p != pending.by and p not in given]
    waits = f"{' and '.join(missing)}'s nonce" if missing else f"{pending.by} to reveal its roll"
    return f"step {number} ({what}) waits for {waits}", None


def _verdict(
    saved: SavedGame,
    rolls: int,
    records: Sequence[tuple[int, FairRoll | None, bool]],
    problem: StepProblem | None,
    digest_ok: bool | None,
    secrets: Sequence[SideSecret],
    pending: str,
) -> Verdict:
    ledger = saved.fair
    dice = [(fair, rolled) for _, fair, rolled in records if rolled]
    seeded = sum(1 for fair, _ in dice if fair is None)
    by: Counter[tuple[str, str]] = Counter()
    for fair, _ in dice:
        if fair is not None:
            givers = " and ".join(sorted(party for party, _ in fair.fresh)) or "no one"
            by[(fair.by, givers)] += 1
    revealed = tuple((who, givers, count) for (who, givers), count in sorted(by.items()))
    # the sides with secrets that gave a nonce: each of those was checked
    gave = {party for _, fair, _ in records if fair is not None for party, _ in fair.fresh}
    if saved.pending is not None:
        gave |= {party for party, _ in saved.pending.fresh}
    witnessed = tuple(sorted({s.side for s in secrets} & gave)) if ledger is not None else ()
    return Verdict(
        steps=len(saved.actions),
        rolls=rolls,
        dice_steps=len(dice),
        seeded=seeded,
        seed=saved.seed,
        ledger=ledger,
        revealed=revealed,
        witnessed=witnessed,
        pending=pending,
        problem=problem,
        replayed_to_digest=digest_ok,
    )
