"""The game flow over any rule system: turn position, choices, odds, applying actions.

A `Game` is an immutable value: the map it started from, the seed, the state
now, where play stands in the rule system's `TurnSequence`, and every step
applied so far. `apply` returns a new `Game`; nothing is ever changed in
place, so undo is keeping the old value (see `tactical.session.history`).

Everything here is generic; no rule system is named:

- *Whose go it is.* The sides are fixed when the game starts (map order).
  A rule system that orders the sides itself (initiative) puts the order in
  `rule_state["side_order"]` (`SIDE_ORDER_KEY`): a permutation of the sides;
  the side to act is `order[position.side]`.
- *Choices.* The rule system's `actions()` for the side to act, plus the
  session's own: `pass` (end the go: `TurnSequence.advance(..., passed=True)`)
  and, for a rule system that has no movement rules of its own, a free table
  `move` for each of that side's units (`session.movement.play_move`, which
  rolls the Treacherous Terrain tests). A rule system that offers a kind
  itself always wins over the session's kind of the same name. No pass is
  offered while the rules offer the side a step they oblige it to take
  (`RuleSystem.pass_refused`, with the reason a refused pass gives).
- *Applying.* The action must match an offered choice (kind, actor, and the
  choice's field schema, with its defaults filled in). A rule-system action is
  resolved by `RuleSystem.apply`, then the position advances as the phase
  demands (`advance(..., passed=False)`: one go each in a plain phase, the go
  passes after every action in an alternating one). A table move is not a go:
  the side keeps it.
- *Dice.* Step `n` rolls with its own `SeededDice(step_seed(seed, n))`, so
  replaying the saved actions reproduces every roll, and undoing then doing
  something else never shifts the rolls of any other step (docs/architecture.md
  "Reliability": same seed and actions, same log).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

from tactical.dice import RecordingDice, Roll, SeededDice
from tactical.dice.fair import FairRoll
from tactical.errors import UserError
from tactical.model import FrozenMap, GameState
from tactical.model.worded import noting_words
from tactical.records import forward
from tactical.rules import registry
from tactical.rules.base import (
    Action,
    ActionChoice,
    Event,
    Field,
    OddsReport,
    Phase,
    Resolution,
    RuleSystem,
    TurnPosition,
    TurnSequence,
    check_fields,
    checkable_params,
    unit_name,
    with_defaults,
)
from tactical.rules.ending import Outcome
from tactical.rules.status import Unavailable, refusal_words
from tactical.session.adjust import ADJUST, MOVES, adjust_in_game
from tactical.session.movement import MoveOutcome, MovePlan, plan_move, play_move
from tactical.session.steps import StepLine, StepTables, checkpoint_of

MOVE = "move"
PASS = "pass"
SESSION_KINDS = (MOVE, PASS, ADJUST)
SIDE_ORDER_KEY = "side_order"
MAX_LISTED = 8  # offered choices named in a "not offered" message

MOVE_FIELDS = (
    Field(
        "path",
        "str",
        required=True,
        doc='path tokens, e.g. "F3 P45 F2" (docs/architecture.md "Command line")',
        spec_id="GEO002.8",
    ),
    Field("activation", "table", doc="activation choices for the turning rules"),
)


def step_seed(seed: int, step: int) -> int:
    """The seed of step `step`'s dice: a function of the game seed and the step number only."""
    digest = hashlib.sha256(f"tactical-step:{seed}:{step}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def step_dice(seed: int, step: int) -> SeededDice:
    """The recording dice step `step` of a game seeded with `seed` rolls with."""
    return _StepDice(seed, step)


class _StepDice(SeededDice):
    """`SeededDice(step_seed(seed, step))` whose seed (a hash) is worked out when first read,
    at its first roll: most steps (forced passes, declarations) roll nothing."""

    def __init__(self, seed: int, step: int) -> None:
        RecordingDice.__init__(self)
        self._rng = None
        self._of = (seed, step)

    @property
    def seed(self) -> int:  # type: ignore[override]  # read only, as the parent's is
        return step_seed(*self._of)


def offers_table_moves(system: RuleSystem) -> bool:
    """Whether the session offers its free table `move` under `system`: what the system
    declares (`RuleSystem.free_table_moves`). One with movement rules moves its models by
    its own actions; one without lets them be moved freely on the table."""
    return system.free_table_moves


@dataclass(frozen=True, eq=False)
class Step:
    """One applied action and everything it did.

    `number` counts from 1; `before`/`after` are the turn positions around it,
    `phase`/`next_phase` the phases at those positions; `side` is the side whose
    go it was; `events` the resolver's (or the move's) events in order; `rolls`
    every die rolled; `summary` the resolver's outcome summary (None for the
    session's own actions); `by_session` whether the session handled it (a
    table move or a pass) rather than the rule system; `forced` the reason when the
    game took the step by itself (no one chose it).
    """

    number: int
    action: Action
    title: str
    side: str
    before: TurnPosition
    after: TurnPosition
    phase: Phase
    next_phase: Phase
    next_side: str
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...]
    summary: Hashable | None = None
    by_session: bool = False
    # why the game took the step by itself ("" for a step someone chose): a pass for a
    # side the rules leave nothing to do, or a step that was the only one open
    # (`tactical.session.forced`); saved with the step, never re-derived on replay
    forced: str = ""
    # how the step's dice seed was made from the players' nonces (`dice.fair`), in
    # an online game or one played by file; None: from the game's seed
    fair: FairRoll | None = None
    # the tables around the step, held lightly (`session.steps`), and their rule system:
    # what `words` reads (not compared)
    tables: StepTables | None = field(default=None, compare=False, repr=False)
    system: RuleSystem | None = field(default=None, compare=False, repr=False)

    @property
    def state_before(self) -> GameState | None:
        """The table before the step (None for a hand adjustment: its sentence says all)."""
        if self.tables is None or self.system is None:
            return None
        return self.tables.before(self)

    @property
    def state_after(self) -> GameState | None:
        """The table after the step (None for a hand adjustment)."""
        if self.tables is None or self.system is None:
            return None
        return self.tables.after(self)

    @cached_property
    def words(self) -> str:
        """What the step did in plain words (the rule system's `summarise` for its own
        actions; a pass or a table move in the session's words). Made when first read."""
        before, after = self.state_before, self.state_after
        if before is None or after is None or self.system is None:
            return self.title
        if self.is_pass:
            return f"{self.side} passed"
        if self.by_session:
            return move_words(before, self.events)
        return self.system.summarise(before, self.action, self.events, after)

    @property
    def is_pass(self) -> bool:
        """The session's pass: the side ended its go without doing anything."""
        return self.by_session and self.action.kind == PASS

    @property
    def results(self) -> tuple[int, ...]:
        """The roll results in order (what a save records to check a replay against)."""
        return tuple(roll.result for roll in self.rolls)


@dataclass(frozen=True, eq=False)
class Game:
    """A game in progress as an immutable value (see the module docstring).

    Build one with `Game.new(map_state, seed)`; `initial` is the map as loaded,
    before the rule system's `setup`.
    """

    initial: GameState
    seed: int
    state: GameState
    position: TurnPosition
    sides: tuple[str, ...]
    # every step so far: a `StepLine`, shared with the games before and after this one
    # (a tuple given is made one)
    steps: Sequence[Step] = ()
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.steps, StepLine):
            object.__setattr__(self, "steps", StepLine(self.steps))

    # ----------------------------------------------------------------- creating

    @classmethod
    def new(cls, state: GameState, seed: int) -> Game:
        """A game at the start of play on `state` (a loaded map): the rule system's `setup` run."""
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise UserError(f"a game seed is a whole number >= 0, not {seed!r}")
        system = registry.get(state.rules)
        ready = system.setup(state)
        sides = ready.sides or state.sides
        if not sides:
            raise UserError(f"map {state.title or state.rules!r} has no units: nobody can play")
        return cls(state, seed, ready, system.turn_sequence().start(), tuple(sides))

    def resumed(self, state: GameState, position: TurnPosition, steps: StepLine) -> Game:
        """The game of the same map and seed at `state` and `position` after `steps` (a
        game rebuilt from its tables, `session.steps`)."""
        return Game(self.initial, self.seed, state, position, self.sides, steps)

    def derived(self, key: Hashable, compute: Callable[[Game], Any]) -> Any:
        """`compute(self)`, once for this game value (a caller's read of the game alone,
        asked again and again in one decision: the steps of this turn, say). `key` names
        the read; it must not be one of the game's own (a tuple headed by a name)."""
        memo_key = ("derived", key)
        try:
            return self._memo[memo_key]
        except KeyError:
            found = self._memo[memo_key] = compute(self)
            return found

    # ----------------------------------------------------------------- where play stands

    rules = forward("state.rules")

    @property
    def system(self) -> RuleSystem:
        return registry.get(self.state.rules)

    @property
    def sequence(self) -> TurnSequence:
        return self.system.turn_sequence()

    @property
    def phase(self) -> Phase:
        memo = self._memo  # asked for every step's check and record, and by the screen
        found = memo.get("phase")
        if found is None:
            found = memo["phase"] = self._phase_at(self.position)
        return found

    phase_name = forward("phase.name")
    phase_spec_id = forward("phase.spec_id")
    turn = forward("position.turn")

    @property
    def order(self) -> tuple[str, ...]:
        """The sides in acting order: `rule_state["side_order"]` where the rule system keeps one."""
        return acting_order(self.state, self.sides)

    @property
    def play_order(self) -> tuple[str, ...]:
        """The sides in the order play follows, as a tracker shows it: the rule system's
        `play_order` where it gives one (a permutation of the sides), else `order`. Whose go
        it is stays `order`'s: this only says who really acts first."""
        try:
            shown = tuple(self.system.play_order(self.state, self.position))
        except UserError:
            shown = ()
        if len(shown) == len(self.sides) and set(shown) == set(self.sides):
            return shown
        return self.order

    @property
    def side_to_act(self) -> str:
        memo = self._memo  # asked many times a frame by the screen, and by the computer
        found = memo.get("side_to_act")
        if found is None:
            order = self.order
            found = memo["side_to_act"] = order[self.position.side % len(order)]
        return found

    @property
    def step_number(self) -> int:
        """How many steps have been applied."""
        return len(self.steps)

    @property
    def last_step(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    def _phase_at(self, position: TurnPosition) -> Phase:
        phases = self.sequence.phases
        if not phases:
            return Phase("Turn")
        return phases[position.phase]

    # ----------------------------------------------------------------- the end

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended and who won, or None while it goes on (`RuleSystem.outcome`,
        against the map as it started; cached for this value)."""
        if "outcome" not in self._memo:
            self._memo["outcome"] = self.system.outcome(self.state, self.initial, self.turn)
        return self._memo["outcome"]

    @property
    def over(self) -> bool:
        return self.outcome is not None

    # ----------------------------------------------------------------- choices

    def rule_choices(self) -> tuple[ActionChoice, ...]:
        """The rule system's choices for the side to act (cached for this value)."""
        if "rule_choices" not in self._memo:
            self._memo["rule_choices"] = tuple(
                self.system.actions(self.state, self.position, self.side_to_act)
            )
        return self._memo["rule_choices"]

    def session_choices(self) -> tuple[ActionChoice, ...]:
        """The session's own choices the rule system does not already offer: table moves, pass."""
        if "session_choices" in self._memo:
            return self._memo["session_choices"]
        side = self.side_to_act
        taken = {choice.kind for choice in self.rule_choices()}
        found = []
        if MOVE not in taken and offers_table_moves(self.system):
            found.extend(
                ActionChoice(MOVE, unit.id, f"{unit_name(self.state, unit.id)}: move", MOVE_FIELDS)
                for unit in self.state.units
                if unit.side == side
            )
        if PASS not in taken and self.pass_refusal() is None:
            title = "Pass" if self.phase.alternating else f"End {side}'s go"
            found.append(ActionChoice(PASS, side, title, (), self.phase.spec_id))
        self._memo["session_choices"] = tuple(found)
        return self._memo["session_choices"]

    def pass_refusal(self) -> Unavailable | None:
        """Why the side to act may not pass now (`RuleSystem.pass_refused`: the rules oblige
        it to take a step they offer it), or None. Only while the rules offer it something:
        a side with nothing to do may always pass. Cached for this value."""
        if "pass_refusal" not in self._memo:
            refusal = None
            if self.rule_choices() and not self.over:
                refusal = self.system.pass_refused(self.state, self.position, self.side_to_act)
            self._memo["pass_refusal"] = refusal
        return self._memo["pass_refusal"]

    def choices(self) -> tuple[ActionChoice, ...]:
        """Everything the side to act may declare now: the rule system's, then the session's."""
        return self.rule_choices() + self.session_choices()

    def is_session_action(self, action: Action) -> bool:
        """Whether `action` is handled by the session (not offered by the rule system now)."""
        if action.kind not in SESSION_KINDS:
            return False
        return not self._offered(action.kind, action.actor, rules_only=True)

    def _offered(
        self, kind: str, actor: str, *, rules_only: bool = False
    ) -> Sequence[ActionChoice]:
        """The choices of `kind` by `actor` in the order offered: the rule system's only, or
        all of `choices`. Indexed once for this value: the computer players ask it for
        every candidate they weigh (to complete it, and whether the session takes it)."""
        name = "rule_offered" if rules_only else "offered"
        index = self._memo.get(name)
        if index is None:
            lists: dict[tuple[str, str], list[ActionChoice]] = {}
            for choice in self.rule_choices() if rules_only else self.choices():
                lists.setdefault((choice.kind, choice.actor), []).append(choice)
            index = self._memo[name] = {key: tuple(found) for key, found in lists.items()}
        try:
            return index.get((kind, actor), ())
        except TypeError:  # a kind or actor that is no value: looked for one by one
            offered = self.rule_choices() if rules_only else self.choices()
            return [c for c in offered if c.kind == kind and c.actor == actor]

    def declare(self, kind: str, actor: str, **params: Any) -> Action:
        """An action as a script or panel would declare it (not checked until applied)."""
        return Action(kind, actor, FrozenMap(params))

    def completed(self, action: Action) -> tuple[Action, ActionChoice]:
        """The action with its choice's defaults filled in, and that choice.

        UserError (citing the phase's rule) when no offered choice fits: wrong
        kind or actor for this go, or a parameter of the wrong type or value. Cached for
        this value (the computer players complete each candidate to value it, again to
        weigh its odds, and again to apply it); a refusal is worked out again each time.
        """
        key = ("completed", action)
        try:
            return self._memo[key]
        except KeyError:
            pass
        except TypeError:  # a parameter that is not a value: not cached
            return self._completed(action)
        found = self._memo[key] = self._completed(action)
        return found

    def _completed(self, action: Action) -> tuple[Action, ActionChoice]:
        """`completed` worked out."""
        candidates = self._offered(action.kind, action.actor)
        refusal = self.pass_refusal() if action.kind == PASS else None
        if not candidates and refusal is not None:
            raise UserError(
                f"{self.side_to_act} cannot pass now: {refusal.reason}", spec_id=refusal.spec_id
            )
        if not candidates:
            raise UserError(
                f"{action.kind!r} by {action.actor!r} is not offered now "
                f"(turn {self.turn}, {self.phase_name}, {self.side_to_act} to act); "
                f"offered: {_listing(self.choices())}",
                spec_id=self.phase.spec_id,
            )
        fitted = _fitting(candidates, action.params)
        if isinstance(fitted, tuple):
            choice, params = fitted
            return Action(action.kind, action.actor, FrozenMap(params)), choice
        first_problem = fitted
        raise UserError(
            f"{action.kind} by {action.actor!r}: {first_problem.key}: expected "
            f"{first_problem.expected}",
            spec_id=first_problem.spec_id,
        )

    # ----------------------------------------------------------------- looking ahead

    def odds(self, action: Action) -> OddsReport | None:
        """The exact outcome distribution of `action` before its roll, from the rule system's
        resolver (`RuleSystem.action_odds`); None for actions without odds. Cached per value."""
        if action.kind == ADJUST or (
            action.kind in SESSION_KINDS and self.is_session_action(action)
        ):
            return None
        try:
            key = ("odds", action)
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in self._memo:
            cached = self._memo[key]
            if isinstance(cached, UserError):
                raise cached
            return cached
        offered = self._offered(action.kind, action.actor, rules_only=True)
        declared = action
        if offered:
            # the defaults of the choice the parameters fit (one actor may be offered one
            # choice per weapon, each with its own fields), as `completed` picks it
            fitted = _fitting(offered, action.params)
            choice = fitted[0] if isinstance(fitted, tuple) else offered[0]
            params = with_defaults(choice.fields, action.params)
            declared = Action(action.kind, action.actor, FrozenMap(params))
        try:
            report = self.system.action_odds(self.state, declared)
        except UserError as refused:
            error = refusal_words(self.state, refused)
            if key is not None:
                self._memo[key] = error
            raise error from None
        if key is not None:
            self._memo[key] = report
        return report

    def preview_move(
        self, unit_id: str, path: str | Sequence[str], activation: Mapping[str, Any] | None = None
    ) -> MovePlan:
        """Where `unit_id` would end along `path` now (`session.movement.plan_move`); cached
        for this value when the path is text and no activation is given."""
        if activation is not None or not isinstance(path, str):
            return plan_move(self.state, unit_id, path, activation)
        key = ("plan", unit_id, path)
        if key not in self._memo:
            self._memo[key] = plan_move(self.state, unit_id, path)
        return self._memo[key]

    def tried(self, declared: Action, dice: RecordingDice) -> Resolution:
        """A trial of `declared` (completed: `completed`), not a step: the rule system's
        resolution on this state with `dice`, read for its state only (`model.worded`).
        One that rolled nothing and never asked for words is the step's own resolution
        whatever its dice (a resolver is a pure function of the state, the action and the
        dice it rolls): `apply` takes it instead of resolving it again (the computer
        players try every candidate, then play the best)."""
        with noting_words() as noted:
            resolution = self.system.apply(self.state, declared, dice)
        if not noted.asked and not dice.rolls:
            with suppress(TypeError):  # a parameter that is not a value: resolved again
                self._memo[("resolved", declared)] = resolution
        return resolution

    def _tried(self, declared: Action) -> Resolution | None:
        """The resolution a trial kept for `declared` (`tried`), or None."""
        try:
            return self._memo.get(("resolved", declared))
        except TypeError:  # a parameter that is not a value: never kept
            return None

    # ----------------------------------------------------------------- acting

    def apply(self, action: Action, forced: str = "", fair: FairRoll | None = None) -> Game:
        """The game after the side to act declares `action` (see the module docstring).

        An action that is not offered, or that the rules refuse, raises UserError
        and changes nothing; so does any action but an adjustment once the game is over. An
        adjustment of the table (`session.adjust`) is allowed at any moment and is not a go.
        `forced` marks a step the game takes by itself, with the reason (`session.forced`).
        `fair`: the step's dice come from the players' nonces (`dice.fair`), not
        from the game's seed (an online game, or one played by file).
        """
        if action.kind == ADJUST:
            return self._adjusted(action)
        ended = self.outcome
        if ended is not None:
            raise UserError(
                f"the game is over: {ended.headline()}; undo to play on from earlier",
                spec_id=ended.spec_id,
            )
        try:
            declared, choice = self.completed(action)
        except UserError as error:
            raise refusal_words(self.state, error) from None
        number = len(self.steps) + 1
        dice = step_dice(self.seed, number) if fair is None else SeededDice(fair.seed(number))
        side = self.side_to_act
        sequence = self.sequence
        sides = len(self.sides)
        summary: Hashable | None = None
        by_session = self.is_session_action(declared)
        if by_session and declared.kind == PASS:
            state = self.state
            events: tuple[Event, ...] = ()
            position = sequence.advance(self.position, sides, passed=True)
        elif by_session:
            outcome = play_move(
                self.state,
                declared.actor,
                str(declared.params["path"]),
                dice,
                declared.params.get("activation"),
            )
            state = outcome.state
            events = move_events(outcome)
            position = self.position
        else:
            try:
                # a trial that rolled nothing and said everything (`tried`), else resolved now
                resolution = self._tried(declared) or self.system.apply(self.state, declared, dice)
            except UserError as error:  # said with the units' names, never their ids
                raise refusal_words(self.state, error) from None
            state, events, summary = resolution.state, tuple(resolution.events), resolution.summary
            position = sequence.advance(self.position, sides, passed=False)
        # the game after, without the step yet: what it works out (its phase, whose go) holds
        # for the game with it (the same table and position), so its memo is passed on
        memo: dict[Any, Any] = {}
        following = _made(self.initial, self.seed, state, position, self.sides, _NO_STEPS, memo)
        step = _made_step(
            number,
            declared,
            choice.title,
            side,
            self.position,
            position,
            self.phase,
            following.phase,
            following.side_to_act,
            events,
            dice.rolls,
            summary,
            by_session,
            forced,
            fair,
            StepTables(self.state, state, checkpoint_of(self), self.steps),
            self.system,
        )
        steps = self.steps.appended(step)
        return _made(self.initial, self.seed, state, position, self.sides, steps, memo)

    def _adjusted(self, action: Action) -> Game:
        """The game after a hand adjustment of the table: same position, no dice."""
        adjustment = adjust_in_game(self.state, action, self.sides, self.position)
        if action.params.get("op") not in MOVES:
            from tactical.session.going_on import stuck_reason  # it reads games

            reason = stuck_reason(self.resumed(adjustment.state, self.position, self.steps))
            if reason:
                raise UserError(f"adjust: {adjustment.change} is refused: {reason}")
        step = Step(
            number=len(self.steps) + 1,
            action=action,
            title=f"adjust: {adjustment.change}",
            side=self.side_to_act,
            before=self.position,
            after=self.position,
            phase=self.phase,
            next_phase=self.phase,
            next_side=self.side_to_act,
            events=(adjustment.event,),
            rolls=(),
            by_session=True,
            tables=StepTables(self.state, adjustment.state, checkpoint_of(self), self.steps),
        )
        steps = self.steps.appended(step)
        return Game(self.initial, self.seed, adjustment.state, self.position, self.sides, steps)

    def pass_go(self) -> Game:
        """The side to act passes (ends its go)."""
        return self.apply(Action(PASS, self.side_to_act))


def acting_order(state: GameState, sides: tuple[str, ...]) -> tuple[str, ...]:
    """`state.rule_state["side_order"]` when it is a permutation of `sides`, else `sides`."""
    order = state.rule_state.get(SIDE_ORDER_KEY)
    if (
        isinstance(order, tuple)
        and len(order) == len(sides)
        and all(isinstance(s, str) for s in order)
        and set(order) == set(sides)
    ):
        return order
    return sides


def move_words(before: GameState, events: Sequence[Event]) -> str:
    """A table move in words: who moved how far, and where to."""
    for event in events:
        if event.kind == "move":
            unit = str(event.get("unit"))
            name = unit_name(before, unit)
            return (
                f'{name} moved {float(event.get("distance", 0)):.2f}" to '
                f"({float(event.get('x', 0)):.2f}, {float(event.get('y', 0)):.2f}), "
                f"heading {float(event.get('heading', 0)):g}°"
            )
    return "moved"


def move_events(outcome: MoveOutcome) -> tuple[Event, ...]:
    """The events of a table move: where it ended, the tests rolled, what it hit or pushed."""
    plan = outcome.plan
    final = plan.final
    rules = plan.rules
    events = [
        Event.of(
            "move",
            None,
            unit=plan.unit_id,
            path=" ".join(step.step.token for step in plan.path.steps),
            x=round(final.x, 4),
            y=round(final.y, 4),
            heading=round(final.heading, 4),
            distance=round(plan.distance, 4),
        )
    ]
    for test in outcome.tests:
        events.append(
            Event.of(
                "treacherous-test",
                rules.snaking_rule,
                unit=plan.unit_id,
                step=test.step,
                token=test.token,
                roll=test.roll,
                fails_on=rules.treacherous_fails_on,
                failed=test.failed,
            )
        )
    hit = plan.collision
    if hit is not None:
        events.append(
            Event.of(
                "collision" if hit.kind == "terrain" else "ram",
                "R002.35",
                unit=plan.unit_id,
                obstacle=hit.id,
                step=hit.step,
                x=round(hit.pose.x, 4),
                y=round(hit.pose.y, 4),
            )
        )
    if plan.lost:
        events.append(Event.of("lost", rules.off_board_rule, unit=plan.unit_id))
    for push in outcome.displacements:
        events.append(
            Event.of(
                "readjusted",
                "R002.33",
                unit=push.unit_id,
                dx=round(push.dx, 4),
                dy=round(push.dy, 4),
            )
        )
    return tuple(events)


def _made(
    initial: GameState,
    seed: int,
    state: GameState,
    position: TurnPosition,
    sides: tuple[str, ...],
    steps: StepLine,
    memo: dict[Any, Any],
) -> Game:
    """`Game(initial, seed, state, position, sides, steps, memo)` of a `StepLine`, its
    fields set at once rather than one by one through the frozen dataclass's `__init__`
    (every step applied, forced passes included, makes two)."""
    game = object.__new__(Game)
    game.__dict__.update(
        initial=initial,
        seed=seed,
        state=state,
        position=position,
        sides=sides,
        steps=steps,
        _memo=memo,
    )
    return game


_NO_STEPS = StepLine()  # the steps of a game made only to read its phase and side (`apply`)
_STEP_FIELDS = tuple(f.name for f in fields(Step))


def _made_step(*values: Any) -> Step:
    """`Step(*values)` (every field, in order), set at once as `_made` sets a game's."""
    step = object.__new__(Step)
    step.__dict__.update(zip(_STEP_FIELDS, values, strict=True))
    return step


def _listing(choices: Sequence[ActionChoice]) -> str:
    names = [f"{c.kind} by {c.actor}" for c in choices[:MAX_LISTED]]
    if len(choices) > MAX_LISTED:
        names.append(f"... {len(choices) - MAX_LISTED} more")
    return ", ".join(names) or "nothing"


def _fitting(candidates: Sequence[ActionChoice], given: Mapping[str, Any]):
    """The first offered choice the parameters fit, with its defaults filled in, as
    (choice, params); else the first candidate's first problem."""
    if type(given) is FrozenMap:
        # its own table (the same keys and values): copied by `with_defaults` at C speed,
        # where a mapping is copied key by key (every candidate a computer player weighs)
        given = given._data
    first_problem = None
    for choice in candidates:
        params = with_defaults(choice.fields, given)
        problems = check_fields(choice.fields, checkable_params(choice.fields, params))
        if not problems:
            return choice, params
        first_problem = first_problem or problems[0]
    return first_problem
