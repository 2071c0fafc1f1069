"""The three levels of play: `random`, `greedy` and `search`.

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
- `search`: the greedy player's close calls played out (`agents.search`).

Table moves of the session (which are not a go) are made in the turn's first phase, at
most once per unit, so that a player always gets on with the game.
"""

from __future__ import annotations

import math
import random
import weakref
from collections.abc import Hashable
from dataclasses import dataclass, replace

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
FOLLOW_UPS = 3  # attacks rolled later weighed with the same unit's next one (`plan_ahead`)


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
        """Units that made a session table move this turn (the steps read back to the
        turn's first only: every decision asks, and a whole game's steps grow with it;
        once per game value, `Game.derived`)."""
        return set(game.derived("table moved", _table_moved))

    @staticmethod
    def stalled(game: Game) -> bool:
        """Whether the side to act has been at it too long in this phase (then it passes;
        not where the rules refuse it a pass: their steps move the game on)."""
        if game.pass_refusal() is not None:
            return False
        count = 0
        now = (game.turn, game.position.phase)
        for step in reversed(game.steps):
            if (step.before.turn, step.before.phase) != now:
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
            game, table_moves=table_moves, paths_per_move=1 if quick else None, moved=moved
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

    @staticmethod
    def move_threshold(game: Game) -> float:
        """The positional gain a table move must bring: `MOVE_THRESHOLD`, or the rule
        system's hint (lower where the table move is a unit's only movement)."""
        threshold = hints.get(game.rules, game.system).move_threshold
        return MOVE_THRESHOLD if threshold is None else threshold

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
                if gain < self.move_threshold(game):
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
                # a roll, made for the game's progress; not the very same roll again (`progress`)
                again = GreedyPlayer.made_this_turn(game, item.candidate.action)
                lift = 0.0 if again else 2 * PROGRESS
                scored[k] = replace(item, score=item.score + lift, pending=False)

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
                how = how_found(later.outcomes, later.exact)
                worth = (
                    f"expected material gain {signed(gained)}"
                    if abs(gained) > 1e-9
                    else "no material change"  # (a missile lock: its worth comes later)
                )
                why = f"{aimed(title, game, candidate.target)}: {worth} when it is rolled ({how})"
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
                    f"{aimed(title, game, candidate.target)}: "
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
        if not rolls:
            return -PROGRESS
        return -PROGRESS if self.made_this_turn(game, action) else PROGRESS  # (as above)

    @staticmethod
    def made_this_turn(game: Game, action: Action) -> bool:
        """Whether the same unit already made this very action (kind and parameters) in
        the current turn (the turn's actions gathered once per game value)."""
        made = game.derived("made this turn", _made_this_turn)
        key = (action.actor, action.kind, action.params)
        if made is not None:
            try:
                return key in made
            except TypeError:  # a parameter that is not a value: compared one by one
                pass
        return any(key == (m.actor, m.kind, m.params) for m in _turn_actions(game))

    @staticmethod
    def describe(
        title: str, action: Action, delta: float, outcomes: int, exact: bool, where: str
    ) -> str:
        path = f" {action.params['path']}" if "path" in action.params else ""
        if abs(delta) > 1e-9:
            how = how_found(outcomes, exact)
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
        position.reach_all(ends)
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
            f"in reach of {round(100 * after.held_by)}% of it: a positional gain of "
            f"{signed(gain, '')} points"
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


def aimed(title: str, game: Game, target: str) -> str:
    """A choice's title with the unit it is aimed at, unless the title names it already
    ("Cylon Raider 2: at Battlestar Galactica, fire missiles", or first: "at Nowhere:
    Turbolasers, front, from Imperial Raider")."""
    at = f" at {unit_name(game.state, target)}"
    return title if at in f" {title}" else title + at


def how_found(outcomes: int, exact: bool) -> str:
    """How an expected effect was found, as a why says it: "exact odds over 12 outcomes",
    "8 sample rolls"; exact over one outcome (every roll leaves the same material: a
    missile lock, a result whose dice were rolled before): "the same whatever the dice"."""
    if exact:
        return (
            "the same whatever the dice"
            if outcomes == 1
            else f"exact odds over {outcomes} outcomes"
        )
    return f"{outcomes} sample roll{'' if outcomes == 1 else 's'}"


def signed(share: float, unit: str = "%") -> str:
    """A share as a signed percentage with one decimal, "+1.4%"; one that rounds to
    nothing reads "+0.0%", never "-0.0%". Formatted at once: the digits of a correctly
    rounded decimal, as `round(x, 1)` gives them (every candidate weighed is described)."""
    text = f"{100 * share:+.1f}"
    return ("+0.0" if text == "-0.0" else text) + unit


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
class _TurnRun:
    """What the run of steps of one turn ending at a step made: every (actor, kind,
    parameters), None where a parameter is not a value; the units that made a session
    table move; and the turn of the step before the run (None: the run opens the game)."""

    made: frozenset[tuple[str, str, Hashable]] | None
    moved: frozenset[str]
    before: int | None


# the run ending at a step (`_turn_run`), by the step's identity, with a weak reference to
# it (an id is not trusted once its step is gone; a finished game is not held): a
# decision's game is the last one's with a few steps more, so only those are read
_RUNS: dict[int, tuple[weakref.ref, _TurnRun]] = {}
MAX_RUNS = 64


def _turn_run(game: Game) -> _TurnRun:
    """The current turn's run of steps (those read back while of the game's turn), from the
    run remembered at one of its steps and the steps since; kept for the last step."""
    turn = game.turn  # read once: a property, and a turn has many steps
    newer = []
    earlier: _TurnRun | None = None
    before: int | None = None
    for step in reversed(game.steps):
        if step.before.turn != turn:
            before = step.before.turn
            break
        kept = _RUNS.get(id(step))
        if kept is not None and kept[0]() is step:
            earlier = kept[1]  # the run to that step, every one of this same turn
            before = earlier.before
            break
        newer.append(step)
    made: set[tuple[str, str, Hashable]] | None = set(earlier.made or ()) if earlier else set()
    if earlier is not None and earlier.made is None:
        made = None
    moved = set(earlier.moved) if earlier is not None else set()
    for step in newer:
        action = step.action
        if made is not None:
            try:
                made.add((action.actor, action.kind, action.params))
            except TypeError:  # a parameter that is not a value: compared one by one
                made = None
        if step.by_session and action.kind == MOVE:
            moved.add(action.actor)
    run = _TurnRun(None if made is None else frozenset(made), frozenset(moved), before)
    if newer:
        if len(_RUNS) >= MAX_RUNS:
            _RUNS.clear()
        _RUNS[id(newer[0])] = (weakref.ref(newer[0]), run)
    return run


def _table_moved(game: Game) -> frozenset[str]:
    """`Player.table_moved` worked out: the steps read back to the turn's first only (the
    turn's run, `_turn_run`, where the step before it is of an earlier turn)."""
    run = _turn_run(game)
    if run.before is None or run.before < game.turn:
        return run.moved
    return _table_moved_read(game)


def _table_moved_read(game: Game) -> frozenset[str]:
    """`_table_moved` read step by step."""
    moved: set[str] = set()
    turn = game.turn  # read once: a property, and a turn has many steps
    for step in reversed(game.steps):
        if step.before.turn < turn:
            break  # turns only go forward: every earlier step is of an earlier turn
        if step.by_session and step.action.kind == MOVE and step.before.turn == turn:
            moved.add(step.action.actor)
    return frozenset(moved)


def _turn_actions(game: Game) -> tuple[Action, ...]:
    """The actions of the current turn's steps, the latest first."""
    found = []
    turn = game.turn
    for step in reversed(game.steps):
        if step.before.turn != turn:
            break
        found.append(step.action)
    return tuple(found)


def _made_this_turn(game: Game) -> frozenset[tuple[str, str, Hashable]] | None:
    """Every (actor, kind, parameters) made in the current turn, as a set (`made_this_turn`);
    None where a parameter is not a value (then compared one by one)."""
    return _turn_run(game).made
