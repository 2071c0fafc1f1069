"""The three levels of play: `random`, `greedy` and `search` (issue 15).

Every player is a pure function of the game and its own seed: `decide(game)` returns a
`Decision` whose action the rule system has accepted (the player applies its choice to
the immutable game and keeps the result, so a refused candidate is never played) and a
one-line `why`. The same seed and the same game give the same decision.

- `random`: a choice offered now, uniformly; then one of its parameter sets, uniformly;
  the first the rules accept.
- `greedy`: every candidate scored once: a rule-system action by its expected material
  effect, exact from the resolver's own outcomes (an attack over its attack resolver's
  outcomes, `evaluation.attack_effect`, missile salvoes merged by the resolver's folds;
  any other action replayed whole, `evaluation.expected_value`); an attack whose roll
  comes at a later step by the same exact expected effect on the state as it stands
  (a little discounted); another declaration whose effect comes later by its odds: the
  chance that the main outcome of its exact odds report is not "nothing" times the
  target's value; a move by the positional gain of where it ends (`evaluation.Position`).
  The rule system's hints (`hints`) may make a kind eager or avoided. The best score
  wins; ties go to the seed.
- `search`: the greedy player's best few candidates, those scored within `CLOSE_CALL`
  of its best and worth at least `CLOSE_SHARE` of it (a clear call stays the greedy
  player's), a pass only where it is the greedy player's own choice (a few steps cannot
  value the actions a pass or an ended activation gives up: the play-outs favoured
  them), each played out with the same
  sampled dice per round (the step's seed replaced: a sample of the resolvers'
  outcomes; common random numbers make the comparison paired), then by a quick greedy
  player for a few steps, at most to the end of the turn (at most `ROLLOUT_SAMPLE`
  candidates a step, one of each choice
  first, scored on one sampled roll; a rules move on its first legal path), and valued
  by the material count, the candidate's own roll replaced by its exact expectation (a
  control variate: what a play-out adds is the consequences). A candidate replaces the
  greedy player's own choice when its mean paired gain exceeds its own standard error
  and a margin: `TIE_MARGIN` where the two were tied (within `TIE`: the one-step look
  cannot tell them apart), else `SEARCH_MARGIN` (flat Monte Carlo over the chance
  outcomes). Its budget is a number of play-outs (deterministic) and a time limit per
  decision (default 1 s), whichever ends first.

Table moves of the session (which are not a go) are made in the turn's first phase, at
most once per unit, so that a player always gets on with the game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any

from tactical.agents import hints
from tactical.agents.candidates import Candidate, candidates, choice_params
from tactical.agents.evaluation import (
    ATTACK_NODES,
    ATTACK_SAMPLES,
    Effect,
    Material,
    Position,
    attack_effect,
    expected_value,
    sampled_value,
)
from tactical.errors import UserError
from tactical.rules.base import Action, unit_name
from tactical.session.game import MOVE, PASS, Game

LEVELS = ("random", "greedy", "search")
PROGRESS = 1e-3  # a procedural step (one that changes nothing yet) beats passing by this
EAGER = 1e-2  # a kind the rule system hints is worth making (`hints.eager_kinds`)
AVOIDED = 1.0  # a kind the rule system hints to avoid: below passing, whatever it gains
MOVE_THRESHOLD = 0.02  # a table move is made only for at least this positional gain
ODDS_WEIGHT = 0.5  # a declaration's odds count half: the roll is still to come
LATER_WEIGHT = 0.9  # an attack rolled at a later step: its expected gain, a little less sure
NOTHING = frozenset({0, None, "", "-", "miss", "none", "no effect", "no-effect",
                     "failure", "botch", "not-fired"})  # fmt: skip
REFINED = 4  # candidates whose dice are enumerated (the best by one sampled roll)
MAX_STEPS_PER_GO = 120  # a player still at it after this many steps in one phase passes
ROLLOUT_NODES = 16  # replays of an attack in search's play-outs before it is sampled
ROLLOUT_ATTACK_SAMPLES = 2  # and the sample rolls then
ROLLOUT_SAMPLE = 8  # candidates a play-out step weighs (every choice offered gets one first)
FOLLOW_UPS = 3  # attacks rolled later weighed with the same unit's next one (`plan_ahead`)
SEARCH_MARGIN = 0.005  # search leaves the one-step choice only for more material than this
CLOSE_CALL = 0.05  # search weighs the candidates scored within this much of the best only
CLOSE_SHARE = 0.5  # and at least this share of a best that gains something
TIE = 0.005  # candidates this close the one-step look cannot tell apart: the play-outs do
TIE_MARGIN = 0.001  # and a tie goes to a candidate gaining more than this (not rounding)
HORIZON = 12  # greedy steps a play-out plays after its candidate, unless told otherwise


@dataclass(frozen=True)
class Decision:
    """What a player chose, why (one line), and the game after it (the rules accepted it)."""

    action: Action
    why: str
    after: Game
    score: float = 0.0


class Player:
    """A level of play for one side (see the module docstring)."""

    level = "player"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def rng(self, game: Game) -> random.Random:
        """A private generator for this decision: a function of the seed and the step only."""
        return random.Random(f"{self.level}:{self.seed}:{game.seed}:{game.step_number}")

    def decide(self, game: Game) -> Decision:
        raise UserError(f"the {self.level} player cannot decide")

    # ----------------------------------------------------------------- shared

    @staticmethod
    def table_moved(game: Game) -> set[str]:
        """Units that made a session table move this turn."""
        return {
            s.action.actor
            for s in game.steps
            if s.by_session and s.action.kind == MOVE and s.before.turn == game.turn
        }

    @staticmethod
    def stalled(game: Game) -> bool:
        """Whether the side to act has been at it too long in this phase (then it passes;
        not where the rules refuse it a pass: their steps move the game on)."""
        if game.pass_refusal() is not None:
            return False
        count = 0
        for step in reversed(game.steps):
            if (step.before.turn, step.before.phase) != (game.turn, game.position.phase):
                break
            count += 1
        return count >= MAX_STEPS_PER_GO

    weighs_positions = True  # whether moves are scored by where they end

    def options(self, game: Game) -> list[Candidate]:
        """The candidates this player weighs: the session's table moves only in the turn's
        first phase (where a side sets up its turn), once per unit."""
        moved = self.table_moved(game)
        found = []
        quick = not self.weighs_positions
        # a player that does not weigh positions never makes a table move (it cannot tell
        # one from another: `MOVE_THRESHOLD`) and takes a rules move's first legal path
        table_moves = game.position.phase == 0 and not quick
        for candidate in candidates(
            game, table_moves=table_moves, paths_per_move=1 if quick else None
        ):
            table_move = candidate.action.kind == MOVE and game.is_session_action(candidate.action)
            if table_move and candidate.action.actor in moved:
                continue
            found.append(candidate)
        return found

    @staticmethod
    def try_apply(game: Game, action: Action) -> Game | None:
        try:
            return game.apply(action)
        except UserError:
            return None

    def pass_decision(self, game: Game, why: str, *, fallback: bool = True) -> Decision:
        """A pass; where the rules refuse it, any legal action (UserError: none, or the
        game is over)."""
        action = Action(PASS, game.side_to_act)
        try:
            after = game.apply(action)
        except UserError:
            if not fallback or game.over:
                raise
            # a system whose own pass is not offered now: take anything legal
            return RandomPlayer(self.seed).decide(game, fallback=False)
        return Decision(after.steps[-1].action, why, after)


class RandomPlayer(Player):
    level = "random"

    def decide(self, game: Game, *, fallback: bool = True) -> Decision:
        rng = self.rng(game)
        if fallback and self.stalled(game):
            return self.pass_decision(game, "passes: long enough in this phase")
        by_choice: dict[tuple[str, str, str], list[Candidate]] = {}
        for candidate in self.options(game):
            choice = candidate.choice
            by_choice.setdefault((choice.kind, choice.actor, choice.title), []).append(candidate)
        groups = list(by_choice.values())
        rng.shuffle(groups)
        for group in groups:
            order = list(group)
            rng.shuffle(order)
            for candidate in order:
                after = self.try_apply(game, candidate.action)
                if after is not None:
                    why = f"random pick among {len(groups)} choices"
                    return Decision(after.steps[-1].action, why, after)
        return self.pass_decision(game, "passes: nothing else the rules accept", fallback=fallback)


@dataclass
class Scored:
    candidate: Candidate
    score: float
    why: str
    after: Game | None = None
    effect: Effect | None = None
    gain: float = 0.0
    where: str = ""
    pending: bool = False  # whether it rolls is still open (scored as if it did not)
    later: bool = False  # an attack rolled at a later step, valued by `attack_effect`


class GreedyPlayer(Player):
    level = "greedy"

    def __init__(
        self,
        seed: int = 0,
        *,
        positional: bool = True,
        refined: int = REFINED,
        attack_nodes: int = ATTACK_NODES,
        attack_samples: int = ATTACK_SAMPLES,
        sample: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.sample = sample  # weigh at most this many candidates (a play-out's quick player)
        self.positional = positional
        self.weighs_positions = positional
        self.refined = refined
        self.attack_nodes = attack_nodes  # a fast player (search's play-outs) enumerates less
        self.attack_samples = attack_samples  # and estimates a larger tree from fewer rolls
        self._material: dict[int, Material] = {}
        self._position: Position | None = None

    @property
    def attack_budget(self) -> dict[str, int]:
        return {"max_nodes": self.attack_nodes, "samples": self.attack_samples}

    def position(self, game: Game, material: Material) -> Position:
        """The positional evaluation of this state, kept while the state stands (a table
        move leaves the next decision's state for every other unit the same)."""
        if self._position is None or self._position.state is not game.state:
            self._position = Position(game, material)
        return self._position

    def material(self, game: Game) -> Material:
        key = id(game.initial)
        found = self._material.get(key)
        if found is None or found.start is not game.initial:
            found = Material(game)
            self._material = {key: found}
        return found

    def decide(self, game: Game) -> Decision:
        if self.stalled(game):
            return self.pass_decision(game, "passes: long enough in this phase")
        ranked = self.ranked(game)
        for scored in ranked:
            after = scored.after or self.try_apply(game, scored.candidate.action)
            if after is not None:
                return Decision(after.steps[-1].action, scored.why, after, scored.score)
        return self.pass_decision(game, "passes: nothing else the rules accept")

    def ranked(self, game: Game) -> list[Scored]:
        """Every candidate the rules accept, best first (ties in the seed's order)."""
        rng = self.rng(game)
        material = self.material(game)
        side = game.side_to_act
        now = material.value(game.state, side)
        position: Position | None = None
        scored: list[Scored] = []
        options = self.options(game)
        if self.sample is not None:
            options = sampled(options, self.sample, rng)
        if self.positional:
            position = self.measure_moves(game, material, options)
        for candidate in options:
            action = candidate.action
            title = candidate.choice.title
            if candidate.is_pass:
                scored.append(Scored(candidate, 0.0, f"{title}: nothing better"))
                continue
            table_move = game.is_session_action(action)
            gain = 0.0
            where = ""
            if candidate.is_move and self.positional and game.state.has_unit(action.actor):
                # (a move declared by a side, a Wing's in formation, say: the planner and
                # the geometry measure units, so it is valued like any other declaration)
                position = position or self.position(game, material)
                gain, where = self.move_gain(game, position, candidate)
                if gain is None:
                    continue
            if table_move:
                if gain < MOVE_THRESHOLD:
                    continue
                why = f"{title} {action.params['path']}: {where}"
                scored.append(Scored(candidate, gain, why))
                continue
            try:
                effect = sampled_value(game, action, material, side)
            except UserError:
                continue
            scored.append(self.judged(game, candidate, effect, now, gain, where))
        # the best that rolled dice, one by one: their effect over the resolver's outcomes,
        # at least `refined` of them and until the best is known from them (one sampled
        # roll only ranks them: the choice is always made on the exact effect)
        refined: set[int] = set()
        while True:  # each round refines one more: it ends
            open_ = [
                k for k, s in enumerate(scored)
                if s.effect is not None and not s.effect.exact and k not in refined
            ]  # fmt: skip
            if not open_:
                break
            top = max(range(len(scored)), key=lambda k: scored[k].score)
            if top not in open_ and len(refined) >= self.refined:
                break
            k = top if top in open_ else max(open_, key=lambda k: scored[k].score)
            refined.add(k)
            item = scored[k]
            try:
                # an attack: exact over its resolver's outcomes (merged by the resolver's
                # folds: missile salvoes too); any other action replayed whole
                effect = attack_effect(
                    game, item.candidate.action, material, side, **self.attack_budget
                ) or expected_value(game, item.candidate.action, material, side)
            except UserError:
                continue
            scored[k] = self.judged(game, item.candidate, effect, now, item.gain, item.where)
        if self.positional:  # a play-out's quick player looks one step only
            self.plan_ahead(game, scored, material, side)
        self.settle(game, scored)
        order = list(range(len(scored)))
        rng.shuffle(order)
        ranked = sorted(order, key=lambda k: -scored[k].score)
        return [scored[k] for k in ranked]

    def plan_ahead(self, game: Game, scored: list[Scored], material: Material, side: str) -> None:
        """The best few attacks rolled later that spend an amount (a required number: power,
        dice...) also count the same unit's best attack declared after them: one-step
        greed would spend everything on the first weapon and starve the better ones."""
        spending = [
            k
            for k, item in enumerate(scored)
            if item.later
            and any(f.kind == "int" and f.required for f in item.candidate.choice.fields)
        ]
        if not spending:
            return
        later = [k for k, item in enumerate(scored) if item.later]
        top = sorted(later, key=lambda k: -scored[k].score)[:FOLLOW_UPS]
        for k in top:
            item = scored[k]
            after = self.try_apply(game, item.candidate.action)
            if after is None:
                continue
            best, named = 0.0, ""
            base = material.value(after.state, side)
            actor = item.candidate.action.actor
            for choice in game.system.actions(after.state, after.position, side):
                if choice.actor != actor:
                    continue
                for params in choice_params(choice):
                    action = Action(choice.kind, actor, params)
                    effect = attack_effect(
                        after, action, material, side, complete=False, **self.attack_budget
                    )
                    if effect is not None and effect.expected - base > best:
                        best, named = effect.expected - base, choice.title
            if best > 0:
                why = f"{item.why}; then {named}: {signed(best)}"
                scored[k] = replace(item, score=item.score + LATER_WEIGHT * best, why=why)

    @staticmethod
    def settle(game: Game, scored: list[Scored]) -> None:
        """Candidates whose rolling is open: read from their odds only where it could decide
        the choice (a candidate already ahead by more than the step makes it moot), once per
        choice offered (its parameters change what is rolled, not whether)."""
        settled = [s.score for s in scored if not s.pending]
        best = max(settled, default=-math.inf)
        known: dict[tuple[str, str, str], bool] = {}  # one look per choice offered
        for k, item in enumerate(scored):
            if not item.pending or item.score + 2 * PROGRESS < best:
                continue
            choice = item.candidate.choice
            key = (choice.kind, choice.actor, choice.title)
            if key not in known:
                try:
                    known[key] = game.odds(item.candidate.action) is not None
                except UserError:
                    known[key] = False
            if known[key]:
                scored[k] = replace(item, score=item.score + 2 * PROGRESS, pending=False)

    def judged(
        self, game: Game, candidate: Candidate, effect: Effect, now: float, gain: float, where: str
    ) -> Scored:
        """A candidate scored from its effect (module docstring)."""
        action, title = candidate.action, candidate.choice.title
        material = self.material(game)
        delta = effect.expected - now
        progress = self.progress(game, candidate, delta, settle=False, rolled=not effect.exact)
        pending = progress is None  # settled in `ranked` only if it could matter
        score = delta + gain + (-PROGRESS if progress is None else progress)
        why = self.describe(title, action, delta, effect.outcomes, effect.exact, where)
        if abs(delta) < 1e-9 and effect.exact and candidate.target is not None:
            # the roll comes later: the attack's effect over its resolver's outcomes
            later = attack_effect(game, action, material, game.side_to_act, **self.attack_budget)
            if later is not None:
                gained = later.expected - now
                how = (
                    f"exact odds over {later.outcomes} outcomes"
                    if later.exact
                    else f"{later.outcomes} sample rolls"
                )
                why = (
                    f"{title} at {unit_name(game.state, candidate.target)}: expected material gain "
                    f"{signed(gained)} when it is rolled ({how})"
                )
                score += LATER_WEIGHT * gained
                return Scored(
                    candidate, score, why, effect=effect, gain=gain, where=where, later=True
                )
            chance = self.odds_effect(game, action)  # no attack protocol: its odds report
            if chance is not None:
                state = game.state
                target = state.unit(candidate.target) if state.has_unit(candidate.target) else None
                total = sum(material.total_strength.values()) or 1.0
                worth = material.remaining(state, target) / total if target else 0.0
                score += ODDS_WEIGHT * chance * worth
                why = (
                    f"{title} at {unit_name(game.state, candidate.target)}: "
                    f"{min(100, round(100 * chance))}% "
                    f"chance of an effect (exact odds) on a target worth "
                    f"{round(100 * worth)}% of all strength"
                )
        return Scored(candidate, score, why, effect=effect, gain=gain, where=where, pending=pending)

    def progress(
        self,
        game: Game,
        candidate: Candidate,
        delta: float,
        *,
        settle: bool = True,
        rolled: bool = False,
    ) -> float | None:
        """What an action that changes nothing measurable yet is worth against passing: a
        side's own step of the sequence (activate, end a segment, resolve) or a roll (one
        with odds) keeps the game going; a unit's declaration that rolls nothing and aims
        at nothing (spending points, say) is not made for nothing, unless the rule system
        hints its kind is worth it (`hints.eager_kinds`, while enough turns are left to
        pay it off: `hints.eager_turns`); a kind it hints to avoid goes
        below passing. Whether a declaration rolls is read from its exact odds, which
        cost an enumeration: with `settle=False` that case is left open (None)."""
        action = candidate.action
        hint = self.material(game).hint
        if action.kind in hint.avoid_kinds:
            return -AVOIDED
        if abs(delta) > 1e-9:
            return PROGRESS
        if action.kind in hint.eager_kinds:
            # its worth comes in later turns: none when too few are left to pay it off
            left = game.system.turn_limit(game.state) - game.turn
            worth = EAGER if hint.eager_worth is None else hint.eager_worth
            return worth if left >= hint.eager_turns else -PROGRESS
        if candidate.is_move:
            return PROGRESS
        if action.actor in game.sides:
            return PROGRESS  # a side's own step of the sequence
        if rolled or candidate.target is not None:
            # `rolled`: applying it rolled dice (a roll, seen without odds). The very same
            # roll again by the same unit in the same turn is made for nothing: it only
            # sets again what the first set (a Cortex ship's defense roll, at a growing
            # multiple-action penalty), or tries again what the first missed
            return -PROGRESS if self.made_this_turn(game, action) else PROGRESS
        if not settle:
            return None
        try:
            rolls = game.odds(action) is not None
        except UserError:
            rolls = False
        return PROGRESS if rolls else -PROGRESS

    @staticmethod
    def made_this_turn(game: Game, action: Action) -> bool:
        """Whether the same unit already made this very action (kind and parameters) in
        the current turn."""
        for step in reversed(game.steps):
            if step.before.turn != game.turn:
                return False
            made = step.action
            if (made.actor, made.kind, made.params) == (action.actor, action.kind, action.params):
                return True
        return False

    @staticmethod
    def describe(
        title: str, action: Action, delta: float, outcomes: int, exact: bool, where: str
    ) -> str:
        path = f" {action.params['path']}" if "path" in action.params else ""
        if abs(delta) > 1e-9:
            how = f"exact odds over {outcomes} outcomes" if exact else f"{outcomes} sample rolls"
            head = f"{title}{path}: expected material gain {signed(delta)} ({how})"
        else:
            head = f"{title}{path}"
        return f"{head}; {where}" if where else head

    @staticmethod
    def odds_effect(game: Game, action: Action) -> float | None:
        """The chance that the main outcome of the action's exact odds is not "nothing" (up
        to twice that for a numeric outcome, by its mean)."""
        try:
            report = game.odds(action)
        except UserError:
            return None
        if report is None or not report.sections:
            return None
        nothing = mean = 0.0
        numeric = True
        for outcome, probability in report.sections[0].distribution.pairs:
            if _is_nothing(outcome):
                nothing += float(probability)
            if isinstance(outcome, int | float) and not isinstance(outcome, bool):
                mean += float(probability) * float(outcome)
            else:
                numeric = False
        chance = max(0.0, 1.0 - nothing)
        if numeric and mean > 0:  # more of it (damage points, hits) is better, by a little
            chance *= 1.0 + mean / (1.0 + mean)
        return chance

    def measure_moves(
        self, game: Game, material: Material, options: list[Candidate]
    ) -> Position | None:
        """Every unit's candidate moves measured at once (one pair matrix per unit)."""
        ends: dict[str, list] = {}
        for candidate in options:
            if not candidate.is_move:
                continue
            actor, path = candidate.action.actor, str(candidate.action.params["path"])
            try:
                plan = game.preview_move(actor, path)
            except UserError:
                continue
            if plan.legal and not plan.lost:
                ends.setdefault(actor, [None]).append(plan.final)
        if not ends:
            return None
        position = self.position(game, material)
        for actor, poses in ends.items():
            position.reach_many(actor, poses)
        return position

    @staticmethod
    def move_gain(game: Game, position: Position, candidate: Candidate) -> tuple[float | None, str]:
        """The positional gain of a move (None when the planner refuses it) and its words."""
        actor = candidate.action.actor
        try:
            plan = game.preview_move(actor, str(candidate.action.params["path"]))
        except UserError:
            return None, ""
        if not plan.legal or plan.lost:
            return None, ""
        before = position.reach(actor)
        after = position.reach(actor, plan.final)  # measured with the unit's other moves
        gain = after.score - before.score
        words = (
            f"holds {round(100 * after.holds)}% of the enemy in arc and range, "
            f"in reach of {round(100 * after.held_by)}% (gain {signed(gain, '')})"
        )
        contact, state = plan.collision, game.state
        if (
            contact is not None
            and contact.kind == "ram"
            and state.has_unit(contact.id)
            and state.unit(contact.id).side == state.unit(actor).side
        ):  # a ram of its own side's unit: stopped, and the rules may damage it
            gain -= AVOIDED
            words += f"; rams {unit_name(state, contact.id)} of its own side"
        return gain, words


def signed(share: float, unit: str = "%") -> str:
    """A share as a signed percentage with one decimal, "+1.4%"; one that rounds to
    nothing reads "+0.0%", never "-0.0%"."""
    return f"{round(100 * share, 1) + 0.0:+.1f}{unit}"


def sampled(options: list[Candidate], count: int, rng: random.Random) -> list[Candidate]:
    """At most `count` candidates (and passing): one of every choice offered in turn, the
    choices and their parameter sets in a random order, so that each choice is weighed
    before any gets a second set."""
    if len(options) <= count:
        return options
    groups: dict[tuple[str, str, str], list[Candidate]] = {}
    kept = [candidate for candidate in options if candidate.is_pass]
    for candidate in options:
        if not candidate.is_pass:
            choice = candidate.choice
            groups.setdefault((choice.kind, choice.actor, choice.title), []).append(candidate)
    queues = list(groups.values())
    rng.shuffle(queues)
    for queue in queues:
        rng.shuffle(queue)
    chosen: list[Candidate] = []
    while len(chosen) < count and queues:
        for queue in list(queues):
            if len(chosen) >= count:
                break
            chosen.append(queue.pop())
            if not queue:
                queues.remove(queue)
    return kept + chosen


def _is_nothing(outcome: Hashable) -> bool:
    try:
        return outcome in NOTHING
    except TypeError:
        return False


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
        self.rollout = GreedyPlayer(
            self.seed + 1,
            positional=False,
            refined=0,
            attack_nodes=ROLLOUT_NODES,
            attack_samples=ROLLOUT_ATTACK_SAMPLES,
            sample=ROLLOUT_SAMPLE,
        )

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
        reach = self.budget.reach(hints.get(game.rules, game.system))
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
        gains = [sum(d) / len(d) if d else -math.inf for d in diffs]
        best = max(range(len(ranked)), key=lambda k: (gains[k], -k))
        if not beats_one_step(diffs[best], tied=ranked[best].score >= ranked[0].score - TIE):
            best = 0
        chosen = ranked[best]
        mean = sum(means[best]) / len(means[best])
        after = game.apply(chosen.candidate.action)
        how = (
            f"{signed(gains[best])} over the one-step choice"
            if best
            else "none of the others did better"
        )
        why = (
            f"{chosen.why} | search: material {signed(mean)} on average over "
            f"{len(means[best])} play-outs ({played} for {len(ranked)} candidates, the same "
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
        the turn (`decide`)."""
        ranked: list[Scored] = []
        weigh_passes = hints.get(game.rules, game.system).weigh_passes
        for scored in self.greedy.ranked(game):  # the best the rules accept
            if len(ranked) >= self.budget.width:
                break
            best = ranked[0].score if ranked else 0.0
            if ranked and scored.score < best - CLOSE_CALL:
                break  # a clear call: the play-outs are for the close ones
            if ranked and scored.candidate.is_pass:
                if not weigh_passes:
                    continue  # passing: what it gives up lies past a short play-out
            elif ranked and 0 < best * CLOSE_SHARE > scored.score:
                continue  # a step worth far less than the greedy choice's gain
            if self.try_apply(game, scored.candidate.action) is not None:
                ranked.append(scored)
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
        play-out saw the turn (or the game) end; None when the rules refuse it."""
        if reach is None:
            reach = self.budget.reach(hints.get(game.rules, game.system))
        try:
            game = game.apply(action)
        except UserError:
            return None
        first = material.value(game.state, side)
        turn = game.turn
        steps, turn_end = reach
        for _ in range(steps):
            if game.over or (turn_end and game.turn != turn):
                break
            game = self.rollout.decide(game).after
        return first, material.value(game.state, side), game.over or game.turn != turn

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


def beats_one_step(diffs: list[float], *, tied: bool) -> bool:
    """Whether a candidate's paired gains over the greedy player's choice make it the
    choice (`clearly_better`): by a small margin where the one-step look broke a tie by
    the seed alone, by `SEARCH_MARGIN` where it scored the candidate lower."""
    if tied:
        return clearly_better(diffs, margin=TIE_MARGIN)
    return clearly_better(diffs)


def clearly_better(diffs: list[float], margin: float = SEARCH_MARGIN) -> bool:
    """Whether paired gains over the one-step choice say it is beaten: a mean gain above
    `margin` and above its own standard error (noise of a few play-outs alone does not
    overturn the exact one-step look)."""
    if not diffs:
        return False
    mean = sum(diffs) / len(diffs)
    if mean <= margin:
        return False
    if len(diffs) < 2:
        return True
    variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean > math.sqrt(variance / len(diffs))


def reseeded(game: Game, seed: int) -> Game:
    """The same game with other dice for the steps to come (a sample of the chance)."""
    return Game(game.initial, seed, game.state, game.position, game.sides, game.steps)


def make_player(level: str, seed: int = 0, **options: Any) -> Player:
    """A player of `level` ("random", "greedy" or "search"); `options` go to `search`'s
    `Budget` (playouts, seconds, width, horizon, turn_end)."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "greedy":
        return GreedyPlayer(seed)
    if level == "search":
        return SearchPlayer(seed, Budget(**options) if options else Budget())
    raise UserError(f"unknown AI level {level!r}: expected one of {', '.join(LEVELS)}")
