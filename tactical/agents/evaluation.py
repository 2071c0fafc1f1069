"""What an agent counts: material (the game-end score's measure) and position (the geometry).

- *Material* (`Material`): each side's share of its starting strength lost, from the
  rule system's `unit_condition` (the measure `outcome` scores by, docs/game-end.md);
  a side's value is the enemies' mean share lost minus its own, a unit destroyed or
  crippled (what the score counts) weighing `OUT_WEIGHT` more. A rule system's
  registered hint (`tactical.agents.hints`) may replace a unit's value.
- *Expected effect* (`expected_value`, `attack_effect`): the exact distribution of the
  material value after an action, by running the rule system's own resolver under
  `tactical.dice.enumerate_outcomes` (the odds machinery), merged by value: the whole
  action replayed, or for an attack its attack resolver alone (`resolve_attack`, whose
  folds merge a salvo's dice). A tree too large is estimated from a fixed set of seeded
  rolls instead. Each effect is remembered while the game lasts by the state, and by
  what of the state it read (`agents.reads`): a later table that differs only in what
  it never read gives the same effect without enumerating it again.
- *Position* (`Position`): for a unit at a candidate pose, computed with the vectorised
  pair matrix (`TableGeometry`): the enemies it would hold in its own arcs, inside a
  range band (a nearer band counts more: the rules' odds improve) and in line of sight,
  against the enemies that would hold it in theirs;
  and, when none is in reach, how near it comes to the nearest enemy.

Nothing here names a rule system.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from operator import is_

import numpy as np

from tactical.agents import hints
from tactical.agents.place_pairs import PairSight, named, pair_sight, partial_matrix
from tactical.agents.reads import ALL, read_values, table_key, watching
from tactical.dice import Dice, Die, SeededDice, TooManyOutcomes, enumerate_outcomes
from tactical.dice.exact import remembering
from tactical.errors import UserError
from tactical.geometry.arcs_spec import Omni
from tactical.geometry.shapes import Pose
from tactical.model import GameState, Unit
from tactical.model.worded import read_for_conditions, unworded
from tactical.rules.base import Action, RuleSystem, attack_declaration
from tactical.rules.conventions import WeaponReach
from tactical.rules.ending import UnitCondition, side_losses
from tactical.rules.measuring import TableGeometry
from tactical.session.game import Game

EXACT_NODES = 48  # replays of a resolver before its effect is estimated from samples
ATTACK_NODES = 4_000  # replays of an attack resolver (merged by fold) before it is sampled
ATTACK_SAMPLES = 8  # seeded rolls of an attack too large to enumerate
SAMPLES = 2  # seeded rolls of that estimate
MAX_STRATA = 20  # faces of a first roll read exactly in a sampled estimate (`stratified`)
EXPOSURE_WEIGHT = 0.6  # an enemy arc entered weighs this much against one of ours brought in
APPROACH_WEIGHT = 0.15  # closing on the nearest enemy, when none is in reach
OUT_WEIGHT = 0.5  # a unit destroyed or crippled counts this much more than its damage
FAR_BAND = 0.5  # an enemy held in the farthest band counts this much (the nearest: 1)
MAX_EFFECTS = 4096  # expected effects a game's material count remembers
MAX_REACHES = 4096  # positions scored a game remembers
_UNKNOWN = object()  # an effect not remembered (None is an effect: "not an attack")


class _Asked:
    """A question to `Material.remembered` (a tuple of values) with its hash worked out
    once: it is looked up in several memos, and its action hashed field by field each time."""

    __slots__ = ("_hash", "value")

    def __init__(self, value: Hashable) -> None:
        self.value = value
        self._hash = hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, _Asked) and self.value == other.value)


class Material:
    """The material count of one game (its starting units fixed): see the module docstring."""

    def __init__(self, game: Game) -> None:
        self.system: RuleSystem = game.system
        self.start: GameState = game.initial
        self.sides: tuple[str, ...] = game.sides
        self.hint = hints.get(game.rules, game.system)
        # keyed by id with the state kept alive beside it: states are immutable but not
        # cheap to hash, and the same state is valued many times in one decision
        self._cache: dict[int, tuple[GameState, dict[str, tuple[float, float]]]] = {}
        # by the conditions a rule system gives again (`unit_conditions`), kept beside them
        self._by_conditions: dict[int, tuple[object, dict[str, tuple[float, float]]]] = {}
        self._sides = [unit.side for unit in self.start.units]
        # each side's value of the shares `shares` gave, by their identity, kept beside it
        self._values: dict[int, tuple[dict[str, tuple[float, float]], dict[str, float]]] = {}
        # expected effects by what they depend on: the question (`head`: the declared
        # action, the side, the budget and the game's seed, a sampled estimate's dice) and
        # the very state, by its identity (kept beside); and by the part of the state the
        # computation read, by value (`reads`:
        # a later decision often weighs the same attack on a table that differs only in
        # what the attack never reads)
        self.effects: dict[Hashable, tuple[GameState, Effect | None]] = {}
        # by (head, table), then by (keys read, their values): the table (every unit) is
        # hashed once a question, not once for each set of keys it was read by
        self.by_reads: dict[Hashable, dict[Hashable, Effect | None]] = {}
        self._by_reads_held = 0  # entries of `by_reads`'s inner tables, bounded
        self.reads: dict[Hashable, list[tuple[str, ...]]] = {}
        # each question (`head`) asked, by value, as the first equal one asked (`_Asked`,
        # its hash kept): the memos above then hash it once and find it by identity, not
        # by comparing its action field by field
        self._heads: dict[_Asked, _Asked] = {}
        self._last_table: _Asked | None = None  # `_table`'s last, its objects kept alive
        # positions scored (`Position.reach_many`) by what they read, while the game lasts
        self.reaches: dict[Hashable, Reach] = {}

    def remembered(
        self,
        head: Hashable,
        state: GameState,
        compute: Callable[[GameState], Effect | None],
    ) -> Effect | None:
        """`compute(state)` for a pure `compute`, once per `head` and what of the state it
        reads while the game lasts (a bounded memo; `reads`). The very state asked again is
        found by its identity (kept beside): hashing a whole state, its rule state too, cost
        more than the lookups it saved, where a table is seldom asked twice."""
        try:
            asked = _Asked(head)
            if len(self._heads) >= MAX_EFFECTS:
                self._heads.clear()
            head = self._heads.setdefault(asked, asked)
            exact = (head, id(state))
            kept = self.effects.get(exact)
            if kept is not None and kept[0] is state:
                return kept[1]
            outer = (head, self._table(state))
            known = self.reads.setdefault(head, [])
            inner = self.by_reads.get(outer) if known else None
            if inner is not None:
                for keys in known:
                    found = inner.get((keys, read_values(state, keys)), _UNKNOWN)
                    if found is not _UNKNOWN:
                        self._keep(exact, state, found)
                        return found
        except TypeError:  # a parameter that is not a value (never seen): not remembered
            return compute(state)
        if ALL in known:  # it read the whole rule state before: it is the key, unwatched
            found, keys = compute(state), ALL
        else:
            watched, reads = watching(state)
            found = compute(watched)
            keys = reads.key()
        if self._by_reads_held >= MAX_EFFECTS:
            self.by_reads.clear()
            self.reads.clear()
            self._by_reads_held = 0
            known, inner = self.reads.setdefault(head, []), None
        if inner is None:
            inner = self.by_reads.setdefault(outer, {})
        try:
            inner[(keys, read_values(state, keys))] = found
        except TypeError:  # a value read that cannot be a key: not remembered
            return found
        if keys not in known:
            known.append(keys)
        self._by_reads_held += 1
        self._keep(exact, state, found)
        return found

    def _table(self, state: GameState) -> _Asked:
        """`table_key` of the state as a question (`_Asked`): the last one again for a state
        holding the very same table objects (most states a decision weighs share them)."""
        table = table_key(state)
        last = self._last_table
        if last is not None and all(map(is_, last.value, table)):
            return last
        self._last_table = found = _Asked(table)
        return found

    def _keep(self, key: Hashable, state: GameState, found: Effect | None) -> None:
        if len(self.effects) >= MAX_EFFECTS:
            self.effects.clear()
        self.effects[key] = (state, found)  # the state kept alive beside its id

    def condition(self, state: GameState, unit: Unit) -> UnitCondition:
        condition = self.system.unit_condition(state, unit)
        if self.hint.unit_value is not None:
            condition = replace(condition, strength=float(self.hint.unit_value(unit)))
        return condition

    def _conditions(self, state: GameState) -> list[tuple[str, UnitCondition]]:
        """Every starting unit's side and condition in `state`, in the start's order (what
        `condition` gives, in one loop: every leaf of an enumeration asks for all of them)."""
        units, unit_value = self.start.units, self.hint.unit_value
        conditions = self.system.unit_conditions(state, units)
        if unit_value is None:
            return [(unit.side, found) for unit, found in zip(units, conditions, strict=True)]
        return [
            (unit.side, replace(found, strength=float(unit_value(unit))))
            for unit, found in zip(units, conditions, strict=True)
        ]

    def shares(self, state: GameState) -> dict[str, tuple[float, float]]:
        """Per side: the (smooth) share of its starting strength lost, and the share out
        (destroyed or crippled: what the game-end score counts)."""
        cached = self._cache.get(id(state))
        if cached is not None and cached[0] is state:
            return cached[1]
        batch = getattr(self.system, "unit_conditions", None)
        if batch is not None and self.hint.unit_value is None:
            # a rule system that gives the same conditions again (`unit_conditions`): the
            # shares of those conditions, once
            conditions = batch(state, self.start.units)
            known = self._by_conditions.get(id(conditions))
            if known is not None and known[0] is conditions:
                result = known[1]
            else:
                result = self._shares(list(zip(self._sides, conditions, strict=True)))
                if len(self._by_conditions) > 512:
                    self._by_conditions.clear()
                self._by_conditions[id(conditions)] = (conditions, result)
        else:
            result = self._shares(self._conditions(state))
        if len(self._cache) > 512:
            self._cache.clear()
        self._cache[id(state)] = (state, result)
        return result

    def _shares(
        self, conditions: list[tuple[str, UnitCondition]]
    ) -> dict[str, tuple[float, float]]:
        """Per side: its shares lost and out, from each starting unit's side and condition."""
        found = side_losses(self.sides, conditions)
        return {side: (values[1], values[0]) for side, values in found.items()}

    def losses(self, state: GameState) -> dict[str, float]:
        """Per side: the (smooth) share of its starting strength lost."""
        return {side: lost for side, (lost, _) in self.shares(state).items()}

    def value(self, state: GameState, side: str) -> float:
        """The enemies' mean loss minus `side`'s own, a loss being the smooth share lost
        plus `OUT_WEIGHT` times the share out: finishing a unit off (what the score
        counts) is worth more than the same damage spread (from -1 - OUT_WEIGHT to
        1 + OUT_WEIGHT)."""
        shares = self.shares(state)
        # shares are given again for the same conditions (`shares`): their value once
        known = self._values.get(id(shares))
        if known is not None and known[0] is shares:
            found = known[1].get(side)
            if found is not None:
                return found
        else:
            if len(self._values) > 512:
                self._values.clear()
            known = self._values[id(shares)] = (shares, {})  # kept beside its id
        loss = {s: lost + OUT_WEIGHT * out for s, (lost, out) in shares.items()}
        enemies = [loss[s] for s in self.sides if s != side]
        enemy = sum(enemies) / len(enemies) if enemies else 0.0
        found = known[1][side] = enemy - loss.get(side, 0.0)
        return found

    def remaining(self, state: GameState, unit: Unit) -> float:
        """A unit's value still in the fight: its strength times the share not lost."""
        start = self.start.unit(unit.id) if self.start.has_unit(unit.id) else unit
        condition = self.condition(state, start)
        if condition.out or not condition.able:
            return 0.0
        return condition.strength * (1.0 - min(1.0, condition.lost))

    @cached_property
    def total_strength(self) -> dict[str, float]:
        totals = dict.fromkeys(self.sides, 0.0)
        for unit in self.start.units:
            totals[unit.side] = (
                totals.get(unit.side, 0.0) + self.condition(self.start, unit).strength
            )
        return totals


@dataclass(frozen=True)
class Effect:
    """An action's expected material value for the side declaring it, and how it was found."""

    expected: float
    outcomes: int
    exact: bool


def expected_value(game: Game, action: Action, material: Material, side: str) -> Effect:
    """The expected material value for `side` after the rule system applies `action` (the
    action completed with its choice's defaults). UserError when the rules refuse it."""
    declared, _ = game.completed(action)
    system = game.system

    def effect(state: GameState) -> Effect:
        def after(dice) -> float:
            return round(material.value(system.apply(state, declared, dice).state, side), 9)

        try:
            with unworded():  # read for the states alone (`model.worded`)
                distribution = enumerate_outcomes(after, max_nodes=EXACT_NODES)
        except TooManyOutcomes:
            with unworded():
                values = [after(SeededDice(game.seed * 7919 + k)) for k in range(SAMPLES)]
            return Effect(sum(values) / len(values), len(values), False)
        expected = sum(float(p) * value for value, p in distribution.pairs)
        return Effect(expected, len(distribution.pairs), True)

    found = material.remembered(("whole", declared, side, game.seed), game.state, effect)
    assert found is not None
    return found


def attack_effect(
    game: Game,
    action: Action,
    material: Material,
    side: str,
    *,
    complete: bool = True,
    max_nodes: int = ATTACK_NODES,
    samples: int = ATTACK_SAMPLES,
) -> Effect | None:
    """The expected material value for `side` once the attack `action` declares is rolled,
    exact over the outcomes of the rule system's own attack resolver (`declare_attack`,
    `resolve_attack` under `enumerate_outcomes`: the odds machinery), on the state as it
    stands. For a declaration whose roll comes at a later step. A tree of more than
    `max_nodes` replays is estimated from `samples` seeded rolls. None when the action is
    not an attack the rule system's combat protocol takes."""
    system = game.system
    if not system.has_combat or "weapon" not in action.params:
        return None
    try:
        # `complete=False`: the action's parameters are whole already (a declaration of a
        # side not to act now, planned ahead)
        declared = game.completed(action)[0] if complete else action
    except UserError:
        return None

    def effect(state: GameState) -> Effect | None:
        try:
            weapon, target, rest = attack_declaration(declared)
            attack = system.declare_attack(state, declared.actor, weapon, target, rest)
        except UserError:
            return None

        def after(dice) -> float:
            resolved = system.resolve_attack(state, attack, dice)
            return round(material.value(resolved.state, side), 9)

        try:
            # read for the states alone: a resolver may leave its words out (`worded`),
            # and `after` reads only their conditions (`read_for_conditions`); one that
            # counts its replays first (`attack_replays`) refuses one too large to
            # enumerate without making them, the folds it found kept for the enumeration
            with unworded(), read_for_conditions(), remembering():
                system.attack_replays(state, attack, max_nodes)
                distribution = enumerate_outcomes(after, max_nodes=max_nodes)
        except TooManyOutcomes:
            with unworded():
                expected, runs = stratified(after, game.seed * 7919, samples)
            return Effect(expected, runs, False)
        except UserError:
            return None
        expected = sum(float(p) * value for value, p in distribution.pairs)
        return Effect(expected, len(distribution.pairs), True)

    head = ("attack", declared, side, max_nodes, samples, game.seed)
    return material.remembered(head, game.state, effect)


class _LeadingDice(SeededDice):
    """Seeded dice whose first roll reads `first` (when given) and that remember its die."""

    def __init__(self, seed: int, first: int | None = None) -> None:
        super().__init__(seed)
        self.first = first
        self.first_die: Die | None = None

    def _draw(self, die: Die, who: str, what: str) -> int:
        if self.first_die is None:
            self.first_die = die
            if self.first is not None:
                return self.first
        return super()._draw(die, who, what)


def stratified(after: Callable[[Dice], float], seed: int, samples: int) -> tuple[float, int]:
    """The expected value of `after(dice)` estimated from seeded rolls, with its first roll
    exact: each face that stands weighed by its chance and followed by seeded rolls (about
    `samples` runs in all, at least one per face). A rare first roll that decides it all
    (a hit on a one-in-six direction roll, say) is never missed by every sample. Returns
    the estimate and the number of runs."""
    probe = _LeadingDice(seed)
    value = after(probe)
    die = probe.first_die
    if die is None:  # it rolled nothing
        return value, 1
    faces = die.standing_weights()
    if len(faces) > MAX_STRATA:
        values = [value] + [after(SeededDice(seed + k)) for k in range(1, samples)]
        return sum(values) / len(values), len(values)
    per_face = max(1, math.ceil(samples / len(faces)))
    total = sum(count for _, count in faces)
    expected = 0.0
    for face, count in faces:
        runs = [after(_LeadingDice(seed + k, face)) for k in range(per_face)]
        expected += count / total * sum(runs) / len(runs)
    return expected, per_face * len(faces) + 1


def sampled_value(game: Game, action: Action, material: Material, side: str) -> Effect:
    """One run of the resolver with the step's own seeded dice: exact when it rolled
    nothing, else one sample (the first, cheap look at an action). UserError when the
    rules refuse it."""
    declared, _ = game.completed(action)
    dice = SeededDice(game.seed * 7919 + game.step_number)
    # read for its state alone (`model.worded`); one that rolls nothing is kept for the step
    value = material.value(game.tried(declared, dice).state, side)
    return Effect(value, 1, not dice.rolls)


@dataclass(frozen=True)
class Reach:
    """A unit's position scored: enemy value it holds in arc and band, enemy value holding
    it, and the distance to the nearest enemy (inches)."""

    holds: float
    held_by: float
    nearest: float
    diagonal: float
    # measured by weapons (`hints.position_by_weapons`): how near the unit's weapons come
    # to the enemies out of their reach, weighed by the enemy's value (None: by `nearest`)
    closing: float | None = None

    @property
    def score(self) -> float:
        approach = 0.0
        if self.closing is not None:
            approach = APPROACH_WEIGHT * self.closing
        elif self.holds <= 0 and self.diagonal > 0 and math.isfinite(self.nearest):
            approach = APPROACH_WEIGHT * (1.0 - self.nearest / self.diagonal)
        return self.holds - EXPOSURE_WEIGHT * self.held_by + approach


class Position:
    """Positional evaluation of one side's units on one game state (module docstring)."""

    def __init__(self, game: Game, material: Material) -> None:
        self.game = game
        self.material = material
        self.state = game.state
        self.system = game.system
        board = self.state.board
        self.diagonal = math.hypot(board.width, board.height)
        total = sum(material.total_strength.values()) or 1.0
        self.values = {u.id: material.remaining(self.state, u) / total for u in self.state.units}
        self._has_bands: dict[str, bool] = {}
        self._bands: dict[str, tuple[str, ...]] = {}
        self._weights: dict[str, dict[str, float]] = {}
        self._reach: dict[tuple[str, Pose | None], Reach] = {}
        self.by_weapons = hints.get(game.rules, self.system).position_by_weapons
        self._weapons: dict[str, tuple[WeaponReach, ...]] = {}

    def _weapon_reaches(self, unit: Unit) -> tuple[WeaponReach, ...]:
        """Where each of the unit's weapons can bear (`RuleSystem.weapon_reach`), kept per
        unit; none where the rule system cannot say."""
        found = self._weapons.get(unit.id)
        if found is None:
            options = self.state.options
            try:
                found = tuple(
                    self.system.weapon_reach(unit, weapon, options)
                    for weapon in self.system.weapons(unit, options)
                )
            except UserError:
                found = ()
            self._weapons[unit.id] = found
        return found

    def _by_weapons(
        self, unit: Unit, distance: float, arcs_holding: frozenset[str], seen: bool
    ) -> tuple[float, float]:
        """How much `unit` reaches an enemy at `distance` by its weapons, and how near
        those out of reach come to it: the means over its weapons of, for one in one of
        its arcs (by name, all-round always) and in sight, its band's weight (1 in its
        nearest band down to `FAR_BAND` in its farthest, 0 out of range), and of 1 - the
        inches still to close to its range over the table's diagonal (1 in range). A mean,
        not the best: bringing the guns in where the missiles already reach still counts."""
        reaches = self._weapon_reaches(unit)
        if not reaches:
            return 0.0, 0.0
        held = closing = 0.0
        for reach in reaches:
            bands = reach.bands
            band = next((k for k, b in enumerate(bands) if b.low <= distance <= b.high), None)
            if band is None:
                gap = max(0.0, distance - reach.max_range)
                closing += max(0.0, 1.0 - gap / self.diagonal) if self.diagonal > 0 else 0.0
                continue
            closing += 1.0  # closed: nothing left to close (so nearer is never worse)
            in_arc = any(isinstance(arc, Omni) or arc.name in arcs_holding for arc in reach.arcs)
            if seen and in_arc:
                held += 1.0 - (1.0 - FAR_BAND) * band / max(1, len(bands) - 1)
        return held / len(reaches), closing / len(reaches)

    def _in_band(self, unit: Unit, distance: float) -> float:
        """How much `unit` reaches at `distance`: 0 out of every band; in a band, from 1
        (the nearest band: the rules' best odds) down to `FAR_BAND` (the farthest)."""
        try:
            band = self.system.range_band(unit, distance, self.state.options)
        except UserError:
            return 0.0
        if band is not None:
            return self._band_weights(unit).get(band, 1.0)
        if unit.id not in self._has_bands:
            try:
                self._has_bands[unit.id] = (
                    self.system.range_band(unit, 0.0, self.state.options) is not None
                )
            except UserError:
                self._has_bands[unit.id] = False
        # a system without range bands at all: every distance is in reach
        return 0.0 if self._has_bands[unit.id] else 1.0

    def _band_weights(self, unit: Unit) -> dict[str, float]:
        """Each of the unit's bands' weight (`_in_band`), kept per unit: from 1 in its nearest
        band down to `FAR_BAND` in its farthest; none with fewer than two bands (every band
        then weighs 1)."""
        found = self._weights.get(unit.id)
        if found is None:
            names = self._band_names(unit)
            found = {}
            if len(names) >= 2:
                for k, name in enumerate(names):  # a name's first place, as `index` finds it
                    found.setdefault(name, 1.0 - (1.0 - FAR_BAND) * k / (len(names) - 1))
            self._weights[unit.id] = found
        return found

    def _band_names(self, unit: Unit) -> tuple[str, ...]:
        """The unit's bands, nearest first (its range table), kept per unit."""
        names = self._bands.get(unit.id)
        if names is None:
            try:
                table = self.system.range_table(unit, self.state.options)
            except UserError:
                table = None
            names = tuple(b.name for b in table.bands) if table is not None else ()
            self._bands[unit.id] = names
        return names

    def reach(self, unit_id: str, pose: Pose | None = None) -> Reach:
        """`unit_id` at `pose` (where it stands, by default) against the enemies."""
        return self.reach_many(unit_id, (pose,))[0]

    def reach_many(self, unit_id: str, poses: Sequence[Pose | None]) -> list[Reach]:
        """`unit_id` at each of `poses` against the enemies, from one pair matrix: the unit's
        candidate poses are added to the table as copies of it (units never block a line of
        sight, so the copies change nothing for the others). Remembered for the game by what
        a score reads (`_reach_head`): a later table where only the unit's friends moved
        gives the same scores."""
        self.reach_all({unit_id: poses})
        return [self._reach[(unit_id, pose)] for pose in poses]

    def reach_all(self, ends: Mapping[str, Sequence[Pose | None]]) -> None:
        """`reach_many` of several units at once: those of one side not remembered are
        measured together, from one pair matrix, where units block no line of sight."""
        memo = self.material.reaches
        missing: dict[str, list[Pose | None]] = {}
        heads: dict[str, Hashable | None] = {}
        for unit_id, poses in ends.items():
            wanted = [p for p in dict.fromkeys(poses) if (unit_id, p) not in self._reach]
            if not wanted:
                continue
            head = heads[unit_id] = self._reach_head(unit_id)
            for pose in wanted:
                found = memo.get((head, pose)) if head is not None else None
                if found is None:
                    missing.setdefault(unit_id, []).append(pose)
                else:
                    self._reach[(unit_id, pose)] = found
        if not missing:
            return
        sides = {self.state.unit(unit_id).side for unit_id in missing}
        if self._shared and len(sides) == 1:
            groups = [missing]
        else:  # each unit in a table of its own
            groups = [{unit_id: poses} for unit_id, poses in missing.items()]
        for group in groups:
            for unit_id, reaches in self._measure_together(group).items():
                head = heads[unit_id]
                for pose, found in zip(group[unit_id], reaches, strict=True):
                    self._reach[(unit_id, pose)] = found
                    if head is not None:
                        if len(memo) >= MAX_REACHES:
                            memo.clear()
                        memo[(head, pose)] = found

    @cached_property
    def _shared(self) -> bool:
        """Whether positions may be remembered across tables: not where models block lines
        of sight (then every unit's place is read)."""
        return self.system.model_blocking(self.state) is None

    def _reach_head(self, unit_id: str) -> Hashable | None:
        """What a unit's scored positions read of the table (`_measure_together`): the unit, the
        enemies in the table's order with their values, the terrain (by identity, the
        same tuple from state to state), the board, the options and the rule system; not
        its friends (units do not block lines of sight here). None when not shareable."""
        if not self._shared:
            return None
        state = self.state
        unit = state.unit(unit_id)
        enemies = tuple(u for u in state.units if u.side != unit.side)
        head = (
            state.rules,
            unit,
            enemies,
            tuple(self.values.get(enemy.id, 0.0) for enemy in enemies),
            _Same(state.terrain),
            state.board,
            state.options,
        )
        try:
            hash(head)
        except TypeError:
            return None
        return head

    def _measure_together(
        self, wanted: Mapping[str, Sequence[Pose | None]]
    ) -> dict[str, list[Reach]]:
        """`wanted` units at their poses, each against its enemies, from one pair matrix:
        every unit's candidate poses are added to the table as copies of it, and the units
        themselves taken off (units of one side only: none is another's enemy; units never
        block a line of sight, so each pair reads as in a table of its own). Where models
        block sight, only the pairs a score reads are measured (`partial_matrix`)."""
        state = self.state
        others = tuple(u for u in state.units if u.id not in wanted)
        copies: list[Unit] = []
        first: dict[str, int] = {}
        for unit_id, poses in wanted.items():
            unit = state.unit(unit_id)
            first[unit_id] = len(others) + len(copies)
            copies.extend(self._copy(unit, k, pose) for k, pose in enumerate(poses))
        found: dict[str, list[Reach]] = {}
        geometry: TableGeometry | None = None
        for unit_id, poses in wanted.items():
            unit = state.unit(unit_id)
            enemies = [k for k, other in enumerate(others) if other.side != unit.side]
            if not enemies:
                found[unit_id] = [Reach(0.0, 0.0, math.inf, self.diagonal) for _ in poses]
                continue
            if geometry is None:
                table = replace(state, units=others + tuple(copies))
                geometry = TableGeometry.of(table, self.system)
            rows = range(first[unit_id], first[unit_id] + len(poses))
            found[unit_id] = self._scored(unit, others, enemies, rows, geometry)
        return found

    def _copy(self, unit: Unit, k: int, pose: Pose | None) -> Unit:
        """`unit` as its k-th candidate place in `_measure_together`: at `pose` (its own
        where None), named `id#k`. Where models block sight (R002.41) the table reads
        every base's outline (`TableGeometry.of`): `Unit.footprint` remembers it by pose
        and base, so the copy stands on the outline already made there."""
        return unit.with_fields(id=f"{unit.id}#{k}", pose=pose or unit.pose)

    def _scored(
        self,
        unit: Unit,
        others: tuple[Unit, ...],
        enemies: list[int],
        rows: range,
        geometry: TableGeometry,
    ) -> list[Reach]:
        """The unit's places (`rows` of the table's matrix) scored against its enemies."""
        centre = self.system.conventions.arc_test == "centre"
        if not self.by_weapons:
            return self._measured_by_bands(
                unit,
                others,
                enemies,
                rows,
                geometry,
                pair_sight(geometry, rows, enemies, self._shared, centre),
            )
        # where models block sight each unit has a table of its own: only its pairs measured;
        # elsewhere one matrix serves the whole side's units
        matrix = geometry.matrix if self._shared else partial_matrix(geometry, rows, enemies)
        in_arc = matrix.in_arc_centre if centre else matrix.in_arc_any
        names = [arc.name for arc in geometry.arcs]
        j = np.asarray(enemies)
        found = []
        for i in rows:
            own = np.full(len(j), i)
            outward = geometry.range_distances(own, j)
            inward = geometry.range_distances(j, own)
            holds = held_by = closing = 0.0
            for slot, e in enumerate(enemies):
                enemy = others[e]
                value = self.values.get(enemy.id, 0.0)
                held, near = self._by_weapons(
                    unit,
                    float(outward[slot]),
                    named(names, in_arc[i, e]),
                    bool(matrix.los_clear[i, e]),
                )
                holds += value * held
                closing += value * near
                held_by += (
                    value
                    * self._by_weapons(
                        enemy,
                        float(inward[slot]),
                        named(names, in_arc[e, i]),
                        bool(matrix.los_clear[e, i]),
                    )[0]
                )
            nearest = float(np.min(matrix.centre_distance[i, j]))
            found.append(Reach(holds, held_by, nearest, self.diagonal, closing))
        return found

    def _measured_by_bands(
        self,
        unit: Unit,
        others: tuple[Unit, ...],
        enemies: list[int],
        rows: range,
        geometry: TableGeometry,
        sight: PairSight,
    ) -> list[Reach]:
        """`_scored` by range bands (`_in_band`): an enemy held where it is in sight and in
        one of the unit's own arcs, the arcs and sight of every enemy read at once for each
        pose; the bands and sums enemy by enemy, in the table's order."""
        names = [arc.name for arc in geometry.arcs]
        j = np.asarray(enemies)
        values = [self.values.get(others[e].id, 0.0) for e in enemies]
        theirs = np.array(
            [[name in geometry.unit_arc_names[e] for name in names] for e in enemies], dtype=bool
        ).reshape(len(enemies), len(names))
        # every pose's arrays read at once (element by element, the same numbers as row by
        # row); the sums below still go enemy by enemy in the table's order
        mine = np.asarray(rows)
        own, them = np.broadcast_arrays(mine[:, None], j[None, :])
        # both ways in one call: each pair's distance is its own (element by element)
        both = geometry.range_distances(
            np.concatenate((own.ravel(), them.ravel())),
            np.concatenate((them.ravel(), own.ravel())),
        ).reshape(2, *own.shape)
        outward, inward = both[0].tolist(), both[1].tolist()
        mine_masks = np.array(
            [[name in geometry.unit_arc_names[i] for name in names] for i in rows], dtype=bool
        ).reshape(len(rows), len(names))
        holding = (
            sight.out_clear & np.any(sight.out_arc & mine_masks[:, None, :], axis=2)
        ).tolist()
        held = (sight.in_clear & np.any(sight.in_arc & theirs[None, :, :], axis=2)).tolist()
        nearest = sight.out_distance.min(axis=1).tolist()
        found = []
        for row in range(len(rows)):
            holds = held_by = 0.0
            for slot, e in enumerate(enemies):
                if holding[row][slot]:
                    holds += values[slot] * self._in_band(unit, outward[row][slot])
                if held[row][slot]:
                    held_by += values[slot] * self._in_band(others[e], inward[row][slot])
            found.append(Reach(holds, held_by, nearest[row], self.diagonal, None))
        return found


class _Same:
    """A value compared by identity, kept alive with the key it is in."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value
