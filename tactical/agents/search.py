"""The `search` level: the greedy player's close calls, played out.

Its candidates are the greedy player's best few: those scored within `CLOSE_CALL` of
its best and worth at least `CLOSE_SHARE` of it (a clear call stays the greedy
player's), a pass only where it is the greedy player's own choice (a few steps cannot
value the actions a pass or an ended activation gives up: the play-outs favoured them)
or where the rule system hints that passing is a real choice (`hints.weigh_passes`:
then only over play-outs that reach the turn's end). Each is played out with the same
sampled dice per round (the step's seed replaced: a sample of the resolvers' outcomes;
common random numbers make the comparison paired), then by a quick greedy player for a
few steps (`HORIZON`, or the rule system's `hints.playout_steps`), at most to the end
of the turn unless the hints say otherwise (at most `ROLLOUT_SAMPLE` candidates a step,
one of each choice first, scored on one sampled roll; a rules move on its first legal
path), and valued by the material count, the candidate's own roll replaced by its exact
expectation (a control variate: what a play-out adds is the consequences). A candidate
replaces the greedy player's own choice when its mean paired gain exceeds its own
standard error (or as many of them as the rule system's `hints.overturn_errors` says) and
a margin: `TIE_MARGIN` where the two were tied (within `TIE`: the
one-step look cannot tell them apart), else `SEARCH_MARGIN` (flat Monte Carlo over the
chance outcomes). Its budget is a number of play-outs (deterministic) and a time limit
per decision (default 1 s), whichever ends first.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tactical.agents import hints
from tactical.agents.evaluation import Material, attack_effect, sampled_value
from tactical.agents.players import Decision, GreedyPlayer, Player, Scored, signed
from tactical.errors import UserError
from tactical.rules.base import Action
from tactical.session.game import Game

ROLLOUT_NODES = 16  # replays of an attack in search's play-outs before it is sampled
ROLLOUT_ATTACK_SAMPLES = 2  # and the sample rolls then
ROLLOUT_SAMPLE = 8  # candidates a play-out step weighs (every choice offered gets one first)
SEARCH_MARGIN = 0.005  # search leaves the one-step choice only for more material than this
CLOSE_CALL = 0.05  # search weighs the candidates scored within this much of the best only
CLOSE_SHARE = 0.5  # and at least this share of a best that gains something
TIE = 0.005  # candidates this close the one-step look cannot tell apart: the play-outs do
TIE_MARGIN = 0.001  # and a tie goes to a candidate gaining more than this (not rounding)
HORIZON = 12  # greedy steps a play-out plays after its candidate, unless told otherwise


@dataclass(frozen=True)
class Budget:
    """How long `search` thinks per decision: play-outs (deterministic) and seconds (None:
    no time limit). The defaults are the issue's: 1 s per decision."""

    playouts: int = 64
    seconds: float | None = 1.0
    width: int = 4  # candidates searched (the greedy player's best)
    # greedy steps played after each candidate (None: the rule system's hint, else
    # `HORIZON`)
    horizon: int | None = None
    # whether a play-out stops where the turn ends (None: the rule system's hint, else
    # it does): its later steps are the same turn's moves and fire, which the candidate
    # is for (search's score against greedy on mirrored maps, docs/agents.md:
    # Battlefleet Mars 62.9% and SW D6 60.1% over 400 games, against 54.5% each over
    # 100 without)
    turn_end: bool | None = None

    def reach(self, hint: hints.Hints) -> tuple[int, bool]:
        """The play-outs' steps and whether they stop at the turn's end: the budget's
        own, else the rule system's `hint`, else the defaults."""
        steps = self.horizon if self.horizon is not None else hint.playout_steps
        turn_end = self.turn_end if self.turn_end is not None else hint.playout_turn_end
        return (HORIZON if steps is None else steps), (True if turn_end is None else turn_end)


@dataclass
class SearchPlayer(Player):
    seed: int = 0
    budget: Budget = field(default_factory=Budget)
    clock: Callable[[], float] = time.perf_counter
    level = "search"

    def __post_init__(self) -> None:
        self.greedy = GreedyPlayer(self.seed)
        # the play-outs: greedy on one sampled roll per candidate, without the geometry
        quick = {
            "refined": 0,
            "attack_nodes": ROLLOUT_NODES,
            "attack_samples": ROLLOUT_ATTACK_SAMPLES,
            "sample": ROLLOUT_SAMPLE,
        }
        self.rollout = GreedyPlayer(self.seed + 1, positional=False, **quick)
        # where the rule system hints that its units move on the table only
        # (`hints.playout_moves`), the play-outs move them as the greedy player does:
        # play-outs in which no vessel ever moved mistook where the fight would be
        self.moving_rollout = GreedyPlayer(self.seed + 1, positional=True, **quick)

    def decide(self, game: Game) -> Decision:
        if self.stalled(game):
            return self.pass_decision(game, "passes: long enough in this phase")
        ranked = self.contenders(game)
        if not ranked:
            return self.pass_decision(game, "passes: nothing else the rules accept")
        if len(ranked) == 1:
            only = ranked[0]
            after = game.apply(only.candidate.action)
            close = f"{CLOSE_CALL:.0%}"
            why = f"{only.why} | search: a clear call, no other choice scored within {close}"
            return Decision(after.steps[-1].action, why, after, only.score)
        side = game.side_to_act
        material = self.greedy.material(game)
        # common random numbers: every candidate is played out with the same dice in a
        # round, so the comparison is paired (the chance each faces cancels out)
        diffs: list[list[float]] = [[] for _ in ranked]
        means: list[list[float]] = [[] for _ in ranked]
        rng = self.rng(game)
        start = self.clock()
        rounds = max(1, self.budget.playouts // len(ranked))
        anchors = [self.anchor(game, scored, material, side) for scored in ranked]
        hint = hints.get(game.rules, game.system)
        reach = self.budget.reach(hint)
        cut_short: set[int] = set()  # passes one of whose play-outs stopped before the turn's end
        for _ in range(rounds):
            if self.budget.seconds is not None and self.clock() - start > self.budget.seconds:
                break
            sampled = reseeded(game, rng.getrandbits(48))
            values = []
            for k, (scored, anchor) in enumerate(zip(ranked, anchors, strict=True)):
                played = self.play_out(sampled, scored.candidate.action, side, material, reach)
                if k and scored.candidate.is_pass and played is not None and not played[2]:
                    cut_short.add(k)  # it cannot value what a pass gives up: never chosen
                values.append(estimate(anchor, played and played[:2]))
            if values[0] is None:
                continue
            for k, value in enumerate(values):
                if value is not None:
                    diffs[k].append(value - values[0])
                    means[k].append(value)
            for k in cut_short:
                diffs[k], means[k] = [], []
        played = sum(len(m) for m in means)
        if not played:  # no play-out in the time: the greedy player's choice
            chosen = ranked[0]
            after = game.apply(chosen.candidate.action)
            why = f"{chosen.why} | search: no play-out in time, the best by one look"
            return Decision(after.steps[-1].action, why, after, chosen.score)
        gains = mean_gains(diffs)
        best = choose(diffs, [scored.score for scored in ranked], hint.overturn_errors)
        chosen = ranked[best]
        mean = sum(means[best]) / len(means[best])
        after = game.apply(chosen.candidate.action)
        how = (
            f"{signed(gains[best])} more than the one-step choice "
            f"({ranked[0].candidate.choice.title})"
            if best
            else "none of the others did better"
        )
        # a pass the play-outs preferred is not the greedy player's "nothing better"
        head = chosen.candidate.choice.title if best and chosen.candidate.is_pass else chosen.why
        # the gain from here, as the greedy player's whys put it: the balance itself (the
        # enemy's losses minus ours so far) reads as nothing a player can place
        gain = mean - material.value(game.state, side)
        why = (
            f"{head} | search: expected material gain {signed(gain)} over "
            f"{len(means[best])} play-out{'' if len(means[best]) == 1 else 's'} ({played} for "
            f"{len(ranked)} choices, the same "
            f"dice for each), {how}"
        )
        return Decision(after.steps[-1].action, why, after, mean)

    def contenders(self, game: Game) -> list[Scored]:
        """The candidates played out: the greedy player's choice first, then up to `width`
        in all of the next best the rules accept within `CLOSE_CALL` of it and worth at
        least `CLOSE_SHARE` of its score, passing left out. A play-out of a few steps is
        too short to see the actions a pass, or ending a unit's activation, gives up: it
        favoured them over the attack the greedy player chose. Where the rule system
        hints that passing is a real choice (`hints.weigh_passes`), a pass within
        `CLOSE_CALL` is played out too, and counts only if its play-outs reach the end of
        the turn (`decide`). Where it hints that preparations count
        (`hints.weigh_preparations`), the best of them is played out too (`preparation`)."""
        ranked: list[Scored] = []
        hint = hints.get(game.rules, game.system)
        offered = self.greedy.ranked(game)  # the best the rules accept
        for scored in offered:
            if len(ranked) >= self.budget.width:
                break
            best = ranked[0].score if ranked else 0.0
            if ranked and scored.score < best - CLOSE_CALL:
                break  # a clear call: the play-outs are for the close ones
            if ranked and scored.candidate.is_pass:
                if not hint.weigh_passes:
                    continue  # passing: what it gives up lies past a short play-out
            elif ranked and 0 < best * CLOSE_SHARE > scored.score:
                continue  # a step worth far less than the greedy choice's gain
            if self.try_apply(game, scored.candidate.action) is not None:
                ranked.append(scored)
        if ranked and hint.weigh_preparations:
            ranked = self.with_preparation(game, ranked, offered)
        return ranked

    def with_preparation(
        self, game: Game, ranked: list[Scored], offered: list[Scored]
    ) -> list[Scored]:
        """`ranked` with the best preparation the greedy player scored (`preparation`) in
        its last place, unless one is there already. Its worth lies in the rolls after it
        (a crew's station roll lifts the next attack; a manoeuvre sets the ship's
        defense), which the one-step look values at nothing: the greedy player makes it
        after its attacks, when it lifts nothing, and the play-outs weigh it only where
        it is a contender."""
        now = self.greedy.material(game).value(game.state, game.side_to_act)
        for scored in offered:
            if not preparation(scored, now):
                continue
            if any(s.candidate.action == scored.candidate.action for s in ranked):
                return ranked
            if self.try_apply(game, scored.candidate.action) is None:
                continue
            kept = ranked[: self.budget.width - 1] if len(ranked) >= self.budget.width else ranked
            return [*kept, scored]
        return ranked

    def play_out(
        self,
        game: Game,
        action: Action,
        side: str,
        material: Material,
        reach: tuple[int, bool] | None = None,
    ) -> tuple[float, float, bool] | None:
        """The material for `side` right after `action` (its own dice as sampled) and after
        the play-out's further steps (`reach`: how many, and whether it stops where the
        turn ends; None: the budget's `reach` in this rule system), and whether the
        play-out saw the turn (or the game) end; None when the rules refuse it. Where the
        rule system hints it (`hints.playout_expectations`), the value at the end adds up
        what each later step is expected to change (`expected_change`) rather than what
        its dice did."""
        hint = hints.get(game.rules, game.system)
        if reach is None:
            reach = self.budget.reach(hint)
        try:
            game = game.apply(action)
        except UserError:
            return None
        first = material.value(game.state, side)
        value = first
        turn = game.turn
        steps, turn_end = reach
        rollout = self.moving_rollout if hint.playout_moves else self.rollout
        for _ in range(steps):
            if game.over or (turn_end and game.turn != turn):
                break
            before = game
            game = rollout.decide(game).after
            if hint.playout_expectations:
                value += expected_change(before, game, material, side)
        last = value if hint.playout_expectations else material.value(game.state, side)
        return first, last, game.over or game.turn != turn

    @staticmethod
    def anchor(game: Game, scored: Scored, material: Material, side: str) -> float | None:
        """The exact expected material right after a candidate that rolls at once (the
        greedy player's enumeration over its resolver's outcomes); None for one that
        rolls nothing now (a declaration rolled at a later step, a move, a pass), or
        whose expectation is only a sample."""
        effect = scored.effect
        if effect is None or not (effect.exact or effect.outcomes > 1):
            return None
        try:
            rolls_now = not sampled_value(game, scored.candidate.action, material, side).exact
        except UserError:
            return None
        return effect.expected if rolls_now else None


def preparation(scored: Scored, now: float) -> bool:
    """Whether a scored candidate prepares (`SearchPlayer.with_preparation`): it rolls
    dice (a sampled or an enumerated effect), changes no material now (`now`: the
    material before it) and aims at no unit; not a pass, not a move."""
    candidate, effect = scored.candidate, scored.effect
    if candidate.is_pass or candidate.is_move or candidate.target is not None or effect is None:
        return False
    rolls = not effect.exact or effect.outcomes > 1
    return rolls and abs(effect.expected - now) <= 1e-9


def expected_change(before: Game, after: Game, material: Material, side: str) -> float:
    """What one step of a play-out (`before` to `after`) changed in `side`'s material: an
    attack rolled at that step at its exact expectation over its resolver's outcomes
    (`attack_effect`, on the state it was declared in: its sampled dice only move the
    game on), anything else as its dice fell. A control variate at every step: the same
    mean, without the luck of a battery of guns hiding what a choice before it
    changed."""
    now = material.value(before.state, side)
    step = after.steps[-1]
    if step.rolls:
        effect = attack_effect(before, step.action, material, side, complete=False)
        if effect is not None:
            return effect.expected - now
    return material.value(after.state, side) - now


def estimate(anchor: float | None, played: tuple[float, float] | None) -> float | None:
    """A play-out's value of a candidate: with an `anchor` (the exact expectation of its
    own roll), the anchor plus what the play-out's later steps changed: the candidate's
    own roll, the loudest noise of a play-out, replaced by its expectation (a control
    variate: the same mean, much less spread; the consequences, return fire from a unit
    left whole, say, stay); without, the material where the play-out ends."""
    if played is None:
        return None
    first, last = played
    return last if anchor is None else anchor + last - first


def mean_gains(diffs: list[list[float]]) -> list[float]:
    """Each candidate's mean paired gain over the greedy choice (none played: -inf)."""
    return [sum(d) / len(d) if d else -math.inf for d in diffs]


def choose(diffs: list[list[float]], scores: list[float], errors: float = 1.0) -> int:
    """The candidate search takes, by its paired gains over the greedy choice (index 0)
    and the greedy player's `scores`: the best mean gain (the earlier of equals) where it
    beats the greedy choice (`beats_one_step`, `errors`: `hints.overturn_errors`), else
    the greedy choice."""
    gains = mean_gains(diffs)
    best = max(range(len(diffs)), key=lambda k: (gains[k], -k))
    tied = scores[best] >= scores[0] - TIE
    if best and beats_one_step(diffs[best], tied=tied, errors=errors):
        return best
    return 0


def beats_one_step(diffs: list[float], *, tied: bool, errors: float = 1.0) -> bool:
    """Whether a candidate's paired gains over the greedy player's choice make it the
    choice (`clearly_better`): by a small margin where the one-step look broke a tie by
    the seed alone, by `SEARCH_MARGIN` where it scored the candidate lower; `errors`: the
    rule system's `hints.overturn_errors`."""
    if tied:
        return clearly_better(diffs, margin=TIE_MARGIN, errors=errors)
    return clearly_better(diffs, errors=errors)


def clearly_better(diffs: list[float], margin: float = SEARCH_MARGIN, errors: float = 1.0) -> bool:
    """Whether paired gains over the one-step choice say it is beaten: a mean gain above
    `margin` and above `errors` times its own standard error (by default one: noise of a
    few play-outs alone does not overturn the exact one-step look). A single play-out has
    no spread to weigh its gain against: it never does (on screen, where a round of long
    play-outs can fill the second a decision is given, search then keeps the greedy
    choice)."""
    if len(diffs) < 2:
        return False
    mean = sum(diffs) / len(diffs)
    if mean <= margin:
        return False
    variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean > errors * math.sqrt(variance / len(diffs))


def reseeded(game: Game, seed: int) -> Game:
    """The same game with other dice for the steps to come (a sample of the chance)."""
    return Game(game.initial, seed, game.state, game.position, game.sides, game.steps)
