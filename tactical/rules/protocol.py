"""The rule-system protocol: `RuleSystem`, everything a rule system declares and the
hooks the rest of the tool asks it, each with its default (docs/architecture.md "The
rule-system protocol"). The values it passes live in `tactical.rules.values`, its default words
in `tactical.rules.wording`; `tactical.rules.base` re-exports all of them.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np

from tactical.errors import UserError
from tactical.geometry.arcs_spec import ArcSpec
from tactical.geometry.movement_spec import Pivot, TurningRules
from tactical.model import (
    FrozenMap,
    GameState,
    MovementClass,
    SizeClass,
    Terrain,
    Unit,
    thaw,
)
from tactical.rules.adjusting import acting_unit_changed, merged_rule_state
from tactical.rules.conventions import (
    REACH_PROBE_LIMIT,
    MeasuringConventions,
    ModelBlocking,
    PlannedMove,
    RangeBands,
    WeaponReach,
    band_limits,
    bands_from_limits,
)
from tactical.rules.ending import DEFAULT_TURN_LIMIT, Outcome, UnitCondition, attrition_outcome
from tactical.rules.schema import Field, Problem, check_fields, with_defaults
from tactical.rules.status import OrderEntry, Unavailable, UnitStatus
from tactical.rules.turns import Phase, Stage, TurnPosition, TurnSequence
from tactical.rules.values import NOTHING_WITHHELD, ActionChoice, attack_declaration
from tactical.rules.wording import (
    default_description,
    default_status,
    status_changes,
    unit_name,
    units_named,
)

if TYPE_CHECKING:  # the values the hooks take and give
    from tactical.dice import Dice
    from tactical.rules.values import (
        Action,
        Attack,
        AttackParams,
        Event,
        OddsReport,
        Resolution,
        StepFacts,
        Withheld,
    )


class NoCombatResolvers(UserError):
    """The rule system has no combat resolvers (yet)."""


# --------------------------------------------------------------------------- rule system


def turn_limit_field(spec_id: str) -> Field:
    """The map option of the attrition end: the number of turns played (docs/game-end.md)."""
    return Field(
        "turn_limit",
        "int",
        default=DEFAULT_TURN_LIMIT,
        low=1,
        high=99,
        doc="turns played before the game ends (the attrition reading of the game's end)",
        spec_id=spec_id,
    )


def default_blocks_los(terrain: Terrain, viewer: Unit | None, target: Unit | None) -> bool:
    """Default LOS rule: obstructing and dense terrain block, soft terrain does not."""
    return terrain.kind in ("obstructing", "dense")


def never_blocks_los(terrain: Terrain, viewer: Unit | None, target: Unit | None) -> bool:
    """The LOS rule of a system that has none (GEO000.1, GEO001.6, GEO003.7, R004.29):
    nothing blocks."""
    return False


# ------------------------------------------------------------------------------- options

MOVE_ENTRY = "activation"
"""The entry the session adds to the options of one move (`RuleSystem.move_activation`):
never a map's option, so never checked against the declared options."""

# each declaration's cached check, by the declaration's identity (hashing a tuple of fields
# costs more than the check); the declarations are kept, so that no identity is reused
_VALIDATORS: dict[int, Callable[[FrozenMap], FrozenMap]] = {}
_DECLARED: list[Sequence[Field]] = []


def validated_options(fields: Sequence[Field], options: Mapping[str, Any]) -> FrozenMap:
    """The options in force (`RuleSystem.option_fields` declares them: name, kind, default,
    allowed values, the rule or adopted reading each changes, the words a player reads):
    `options` checked against `fields`, with the adopted defaults filled in. A wrong option
    is one UserError naming the key, its value and what it takes, citing the option's SPEC
    id. Cached per declaration, by the (frozen) options: the resolvers ask it often."""
    return options_check(fields)(options if isinstance(options, FrozenMap) else FrozenMap(options))


def options_check(fields: Sequence[Field]) -> Callable[[FrozenMap], FrozenMap]:
    """`validated_options` of one declaration, for frozen options: what a rule system's
    modules keep to read their options in force (the call costs no more than its cache)."""
    check = _VALIDATORS.get(id(fields))
    if check is None:
        check = _VALIDATORS[id(fields)] = lru_cache(maxsize=256)(partial(_validated, fields))
        _DECLARED.append(fields)
    return check


def _validated(fields: Sequence[Field], options: FrozenMap) -> FrozenMap:
    given = {key: value for key, value in options.items() if key != MOVE_ENTRY}
    problems = check_fields(fields, given)
    if problems:
        problem = problems[0]
        found = _value_at(given, problem.key)
        value = "" if found is _MISSING else f" is {_shown(found)}"
        raise UserError(
            f"option {problem.key}{value}: expected {problem.expected}", spec_id=problem.spec_id
        )
    return FrozenMap(with_defaults(fields, given))


_MISSING = object()


def _value_at(options: Mapping[str, Any], key: str) -> Any:
    """The value a problem's dotted key (`bombardment[0].terrain`) names, or `_MISSING`."""
    value: Any = options
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", key):
        if part.startswith("["):
            index = int(part[1:-1])
            if not isinstance(value, Sequence) or index >= len(value):
                return _MISSING
            value = value[index]
        elif isinstance(value, Mapping) and part in value:
            value = value[part]
        else:
            return _MISSING
    return value


def _shown(value: Any) -> str:
    """A value as the map's TOML writes it (true, 'text', 1.5, [1, 2])."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(thaw(value))


def kept_rule_state(before: GameState, after: GameState, fresh: GameState) -> GameState:
    """`RuleSystem.adjusted`'s default: every value of the game so far kept, the entries of
    units removed, added or given new stats following the table (`merged_rule_state`)."""
    merged = merged_rule_state(before, after, fresh)
    return after.with_rule_state(**merged) if merged else after


SETTING_MOVEMENT = {
    "sea": MovementClass.NAVAL,
    "land": MovementClass.ARMOURED,
    "space": MovementClass.SPACE,
}
"""How a unit moves by default in each setting (`RuleSystem.background`)."""


# ------------------------------------------------------------------------- standard hooks

STANDARD_HOOKS: Mapping[str, tuple[tuple[str, str], ...]] = {
    # a module's role (its own name): (the hook, the module's function that implements it)
    "status": (
        ("unit_status", "unit_status"),
        ("describe_resolution", "describe"),
        ("unavailable", "unavailable"),
    ),
    "by_hand": (("status_fields", "status_fields"), ("set_status", "set_status")),
    "outcome": (("unit_condition", "unit_condition"),),
    "play": (
        ("setup", "setup"),
        ("actions", "actions"),
        ("apply", "apply"),
        ("action_odds", "action_odds"),
    ),
    "combat": (
        ("declare_attack", "declare"),
        ("resolve_attack", "resolve"),
        ("attack_odds", "attack_odds"),
    ),
}
"""The hooks a rule system's module implements under the standard names, by the module's
role, which is its own name (`RuleSystem`'s `hooks_from`), unless the module declares its
own `HOOKS` (hook: the module's function): `status` what the player reads,
`by_hand` what a player sets by hand, `outcome` how a unit stands at the end, `play` the
turn's actions and `combat` one attack."""

ODDS_HOOKS = ("action_odds", "attack_odds")
"""The hooks whose function is told the system's id (keyword `rules_id`): the odds report
names the rule system it was computed for."""


def _bind_hooks(cls: type[RuleSystem], rules_id: str, modules: Sequence[ModuleType | str]) -> None:
    """`RuleSystem.__init_subclass__`: the standard hooks of `modules` bound on `cls`, each
    at most once, the odds hooks told `rules_id`, and whether `cls` has combat. A module
    given by name (".play", of the class's own package) is bound by its role and imported
    when one of its hooks is first asked for (`hook`)."""
    for module in modules:
        name = module if isinstance(module, str) else module.__name__
        role = name.rpartition(".")[2]
        # a module may say which hooks it implements; one named is read by its role only
        declared = None if isinstance(module, str) else getattr(module, "HOOKS", None)
        if declared is None and role not in STANDARD_HOOKS:
            raise TypeError(f"{cls.__name__}: {name} plays no standard role")
        pairs = tuple(declared.items()) if declared is not None else STANDARD_HOOKS[role]
        for hook_name, function in pairs:
            if not hasattr(RuleSystem, hook_name):
                raise TypeError(f"{cls.__name__}: {name} declares no hook {hook_name!r}")
            if hook_name in vars(cls):
                raise TypeError(f"{cls.__name__}.{hook_name} is bound twice ({name})")
            if isinstance(module, str):
                bound = _Hook(module, function, by_role=True)
                bound.__set_name__(cls, hook_name)
                setattr(cls, hook_name, bound)
            else:
                setattr(cls, hook_name, staticmethod(getattr(module, function)))
    # read from the classes, not through the hook: a hook not asked for stays unimported
    owner = next(c for c in cls.__mro__ if "resolve_attack" in vars(c))
    cls.has_combat = owner is not RuleSystem
    for hook_name in ODDS_HOOKS:
        bound = vars(cls).get(hook_name)
        if isinstance(bound, staticmethod):
            if not rules_id:
                raise TypeError(f"{cls.__name__}.{hook_name} needs the system's rules_id")
            if isinstance(bound, _Hook):
                bound.rules_id = rules_id
            else:
                setattr(cls, hook_name, staticmethod(partial(bound.__func__, rules_id=rules_id)))


class _Hook(staticmethod):  # type: ignore[type-arg]
    """A hook bound to a function of a module imported when the hook is first asked for
    (`hook`); then the class holds the function itself, as `staticmethod(function)`."""

    def __init__(self, module: str, function: str, *, by_role: bool = False) -> None:
        super().__init__(_not_loaded)
        self.module, self.function, self.by_role = module, function, by_role
        self.owner: type | None = None
        self.name = ""
        self.rules_id = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name

    @property  # type: ignore[override]
    def __func__(self) -> Callable[..., Any]:
        """The function the hook is bound to (the odds hooks told the system's id)."""
        assert self.owner is not None, self.function
        package = importlib.import_module(self.owner.__module__).__package__
        module = importlib.import_module(self.module, package)
        declared = getattr(module, "HOOKS", None)
        if self.by_role and declared is not None:
            # its own HOOKS would be read only once it is imported: give the module itself
            raise TypeError(f"{self.owner.__name__}: {module.__name__} declares its HOOKS")
        if declared is not None and declared.get(self.name, self.function) != self.function:
            raise TypeError(
                f"{self.owner.__name__}.{self.name}: {module.__name__} declares "
                f"{declared[self.name]!r}, not {self.function!r}"
            )
        found = getattr(module, self.function)
        return partial(found, rules_id=self.rules_id) if self.rules_id else found

    def __get__(self, instance: object, owner: type | None = None) -> Callable[..., Any]:
        function = self.__func__
        setattr(self.owner, self.name, staticmethod(function))
        return function


def _not_loaded(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a hook is called through its class")  # pragma: no cover


def hook(module: str, function: str) -> Any:
    """A rule system's hook bound to `function` of `module` (".combat": of the class's own
    package), imported when the hook is first asked for: a command that asks only how the
    system measures never loads its turn or its combat (docs/architecture.md "The
    rule-system protocol"). Write `declare_attack = hook(".combat", "declare")`."""
    return _Hook(module, function)


@dataclass(frozen=True, slots=True)
class Later:
    """A declared value the system reads from one of its modules when first asked for
    (`RuleSystem.turn`): `later("tactical.rules.x.sequence", "TURN_SEQUENCE")`."""

    module: str
    name: str

    def load(self) -> Any:
        return getattr(importlib.import_module(self.module), self.name)


def later(module: str, name: str) -> Any:
    """`Later(module, name)`, typed as the value it stands for."""
    return Later(module, name)


class _LaterField:
    """A field of `RuleSystem` that may be declared `later`: read, it is the value itself."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.key = f"_{name}"

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return None  # the field's default
        value = instance.__dict__[self.key]
        if isinstance(value, Later):
            value = instance.__dict__[self.key] = value.load()
        return value

    def __set__(self, instance: object, value: Any) -> None:
        instance.__dict__[self.key] = value


class _PhasesField(_LaterField):
    """`RuleSystem.phases`: where a system declares its turn (perhaps `later`) and no
    phases, the names of the turn's phases, read when first asked for."""

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return ()
        value = instance.__dict__[self.key]
        if value is _FROM_TURN:
            turn: TurnSequence = instance.turn  # type: ignore[attr-defined]
            value = instance.__dict__[self.key] = tuple(phase.name for phase in turn.phases)
        return value


_FROM_TURN = object()


@dataclass(frozen=True)
class RuleSystem:
    """Everything a rule system declares. Subclass or build one per package and register it.

    A declaration, like python-chess variants: its metadata are the fields below, and its
    hooks are the methods below, each with its default. A rule system's class overrides only
    what differs, binding a hook to the function of its own modules that implements it
    (`resolve_attack = staticmethod(resolving.resolve)`: the function takes the hook's
    arguments, without `self`). The modules that implement the standard hooks under the
    standard names are named once instead, in the class keyword `hooks_from`, each bound by
    its role (`STANDARD_HOOKS`); the odds hooks are told the class keyword `rules_id`
    (`ODDS_HOOKS`). A module named (".play" rather than the module, `hook(".combat",
    "declare")` rather than `staticmethod`), and a turn declared `later`, are imported when
    first asked for: a short command loads only the modules it asks. The registry looks the
    object up by id.
    """

    def __init_subclass__(
        cls, *, rules_id: str = "", hooks_from: Sequence[ModuleType | str] = (), **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        _bind_hooks(cls, rules_id, hooks_from)

    id: str
    title: str
    seed: str  # the seed document number, "000".."004"
    background: Literal["sea", "land", "space"] = "sea"
    default_movement: MovementClass = None  # type: ignore[assignment]
    """How a unit moves when its map does not say; None: as the setting (`background`) has it,
    ships at sea, armour on land, spacecraft in space (`SETTING_MOVEMENT`)."""
    default_size: SizeClass = SizeClass.MEDIUM
    conventions: MeasuringConventions = field(default_factory=MeasuringConventions)
    stats_fields: tuple[Field, ...] = ()
    option_fields: tuple[Field, ...] = ()
    phases: tuple[str, ...] = _PhasesField()  # type: ignore[assignment]
    terrain_kinds: tuple[str, ...] = ("soft", "dense", "obstructing")
    blocks_los: Callable[[Terrain, Unit | None, Unit | None], bool] = default_blocks_los
    free_table_moves: bool = True
    """Whether the session offers its own free table `move` to each side (session.game).

    True for a system whose own actions do not move units (no movement rules: its models are
    moved freely on the table); False for one whose actions move them (its own `move` kinds)
    or that allows no movement at all."""
    result_key: tuple[tuple[str, str], ...] = ()
    """What the codes its results are written in mean, in plain words, as (code, meaning)
    pairs ("iL", "destroys a fighter or a missile; ..."): the key the help shows (an odds
    report carries the entries its own outcomes need, `OddsReport.key`). Empty: its results
    are words already."""
    turn: TurnSequence | None = _LaterField()  # type: ignore[assignment]
    """The turn as phases (`turn_sequence`); None: each name in `phases` once per side."""

    def __post_init__(self) -> None:
        if self.default_movement is None:
            object.__setattr__(self, "default_movement", SETTING_MOVEMENT[self.background])
        # a system declaring its turn names its phases there only (read without loading a
        # turn declared `later`)
        if self.__dict__["_turn"] is not None and not self.__dict__["_phases"]:
            object.__setattr__(self, "phases", _FROM_TURN)

    has_combat: ClassVar[bool] = False
    """Whether this system provides the attack hooks (`weapons`, `declare_attack`,
    `resolve_attack`, `attack_odds`): whether its class binds its own `resolve_attack`."""

    def check_stats(self, stats: Mapping[str, Any]) -> list[Problem]:
        """Problems with one unit's `[unit.stats]` table."""
        return check_fields(self.stats_fields, stats)

    def check_options(self, options: Mapping[str, Any]) -> list[Problem]:
        """Problems with the map's `[options]` table."""
        return check_fields(self.option_fields, options)

    def options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The options in force: the map's, with the SPEC's adopted defaults filled in
        (unchecked: `validated_options` checks them)."""
        return with_defaults(self.option_fields, given)

    def range_band(self, unit: Unit, distance: float, options: Mapping[str, Any]) -> str | None:
        """The band `distance` (inches, measured by the conventions) falls in for `unit`'s fire."""
        bands = self.conventions.range_bands
        return bands.band(distance) if bands else None

    def range_table(self, unit: Unit, options: Mapping[str, Any]) -> RangeBands | None:
        """The table `range_band` looks `unit`'s distances up in, when it is one plain
        `RangeBands` lookup (so many distances are banded at once); None when the system
        bands otherwise, and `range_band` is asked distance by distance."""
        return None

    def range_band_indices(
        self, unit: Unit, distances: np.ndarray, options: Mapping[str, Any]
    ) -> tuple[tuple[str | None, ...], np.ndarray] | None:
        """`range_band` of many distances at once for `unit`'s fire: the band names and each
        distance's index into them, the very answers `range_band` gives one by one; None
        when the system bands only one distance at a time. Default: through `range_table`."""
        table = self.range_table(unit, options)
        found = None if table is None else table.indices(distances)
        return None if found is None else (table.names, found)

    def los_level(self, unit: Unit) -> str:
        """A unit's line-of-sight level: `blocks_los` must give the same answer for any two
        units of the same level (e.g. surface / flying for R002.40). Default: one level."""
        return ""

    def model_blocking(self, state: GameState) -> ModelBlocking | None:
        """Which models block line of sight between which units (e.g. R002.41), or None when
        no model blocks any line on this table. Default: models never block."""
        return None

    def terrain_collides(self, unit: Unit, terrain: Terrain) -> bool:
        """Whether `unit` moving collides with `terrain`. Default: dense and obstructing do."""
        return terrain.kind in ("dense", "obstructing")

    def unit_arcs(self, unit: Unit) -> tuple[ArcSpec, ...]:
        """The arcs to show for a unit: its weapons' arcs where the system has them."""
        return self.conventions.arcs

    def weapon_reach(self, unit: Unit, weapon: str, options: Mapping[str, Any]) -> WeaponReach:
        """Where `weapon` of `unit` can bear. Default: any of the unit's arcs (`unit_arcs`),
        at any distance `range_band` names a band for the unit."""
        limits = band_limits(self, unit, options, REACH_PROBE_LIMIT)
        still_open = self.range_band(unit, REACH_PROBE_LIMIT, options)
        return WeaponReach(
            weapon,
            tuple(self.unit_arcs(unit)),
            bands_from_limits(limits, still_open),
            self.conventions.distance_from,
        )

    def turning_rules(self, unit: Unit, options: Mapping[str, Any]) -> TurningRules:
        """How `unit` may move. The default turns freely about the centre."""
        return TurningRules(pivot=Pivot.CENTRE)

    def planned_move(
        self, state: GameState, unit: Unit, path: str, rules: TurningRules
    ) -> PlannedMove | None:
        """`unit`'s move along `path` on `state` as the system's own move action plans it,
        when it plans it under `rules` (the unit's turning rules the session holds it to):
        the session's preview then reads it instead of sweeping the table again (the
        computer players preview every path they weigh, then try it). Default: None, the
        session plans it."""
        return None

    def move_activation(self, state: GameState, unit: Unit) -> Mapping[str, Any] | None:
        """What this point of the game adds to `unit`'s turning rules (the `activation` entry
        of their options: a boost rolled this activation, say), so that a move previewed on
        the screen is held to the limits its own action applies. Default: nothing."""
        return None

    # ----------------------------------------------------------------- turn and combat hooks

    def turn_sequence(self) -> TurnSequence:
        """The turn as phases: `turn`, else each name in `phases` once per side, in order."""
        if self.turn is not None:
            return self.turn
        return TurnSequence(tuple(Phase(name) for name in self.phases))

    def stage(self, state: GameState, position: TurnPosition) -> Stage | None:
        """Where play stands inside the current phase (the phase tracker shows it under the
        phase). Default: None, a phase with no sequence of its own."""
        return None

    def weapons(self, unit: Unit, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The weapon names `unit` may declare an attack with."""
        return ()

    def declare_attack(
        self, state: GameState, attacker: str, weapon: str, target: str, params: AttackParams = None
    ) -> Attack:
        """Check a declaration against the table and the rules; UserError when illegal."""
        raise self._no_combat()

    def resolve_attack(self, state: GameState, attack: Attack, dice: Dice) -> Resolution:
        """Resolve a declared attack with the given dice (a pure function of its inputs)."""
        raise self._no_combat()

    def attack_odds(self, state: GameState, attack: Attack) -> OddsReport:
        """The exact outcome distribution of a declared attack, from `resolve_attack` itself."""
        raise self._no_combat()

    def attack_replays(self, state: GameState, attack: Attack, max_nodes: int) -> int | None:
        """The runs an exact enumeration of `resolve_attack` makes, counted without making
        them (TooManyOutcomes past `max_nodes`, where enumerating it would be refused): a
        computer player asks before enumerating. Default: None, not counted."""
        return None

    # ----------------------------------------------------------------- any declared action

    def setup(self, state: GameState) -> GameState:
        """The state at the start of play: the system's `rule_state` initialised. Default: as is."""
        return state

    def adjusted(self, before: GameState, after: GameState, fresh: GameState) -> GameState:
        """The rule state after the table was adjusted by hand (`session.adjust`) mid-game.

        `before` is the state before the adjustment, `after` the adjusted table still
        holding the old rule state, `fresh` the system's `setup` of the adjusted table.
        Default: every value of the game so far is kept; in a table keyed by unit ids
        (and in a list of unit ids) a removed unit's entry goes, and an added unit's entry,
        or that of a unit whose stats were set by hand, is the fresh one: the system reads
        the unit anew from its stats, as at the start of play. A system whose rule state
        needs more overrides this. (A unit's damage state set by hand goes through
        `set_status`, not here.)"""
        return kept_rule_state(before, after, fresh)

    def adjustment_refused(
        self, before: GameState, after: GameState, position: TurnPosition
    ) -> str | None:
        """Why the table may not be adjusted by hand from `before` to `after` at `position`
        (the rules' bookkeeping depends on what the adjustment changes: a unit taking its go
        now), in plain words, or None. Default: a unit `acting_order` names as acting now
        may not leave the table or change sides (`rules.adjusting.acting_unit_changed`)."""
        return acting_unit_changed(self, before, after, position)

    def status_fields(self, state: GameState, unit: Unit) -> tuple[Field, ...]:
        """The values of `unit`'s status a player may set by hand in a game (adjust mode: its
        damage state), each a `Field`: its name is the key an adjustment sets, its title the
        label the card shows, its bounds what the rules allow (from 0 up to the unit's own
        maximum), its default the value now. Default: none (see `set_status`)."""
        return ()

    def set_status(self, state: GameState, unit: Unit, values: Mapping[str, Any]) -> GameState:
        """`state` with `unit`'s status values set by hand, kept as the system keeps them (in
        its stats or in its rule state); `values` are keys of `status_fields`, already checked
        against them (`rules.adjusting.set_status`). Default: the values are stats."""
        return state.replace_unit(unit.with_stats(**values))

    def actions(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[ActionChoice, ...]:
        """What `side` may declare at `position`. Default: an attack per unit and weapon
        when the system has combat resolvers."""
        if not self.has_combat:
            return ()
        options = state.options
        targets = tuple(u.id for u in state.units if u.side != side)
        choices = []
        for unit in state.units:
            if unit.side != side:
                continue
            for weapon in self.weapons(unit, options):
                choices.append(
                    ActionChoice(
                        "attack",
                        unit.id,
                        f"{unit_name(state, unit.id)}: {weapon}",
                        (
                            Field(
                                "weapon", "str", required=True, default=weapon, choices=(weapon,)
                            ),
                            Field("target", "str", required=True, choices=targets),
                        ),
                    )
                )
        return tuple(choices)

    def apply(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """Resolve any declared action with the given dice. Default: attacks."""
        if action.kind != "attack":
            raise UserError(f"rule system {self.id!r} has no action {action.kind!r}")
        weapon, target, params = attack_declaration(action)
        attack = self.declare_attack(state, action.actor, weapon, target, params)
        return self.resolve_attack(state, attack, dice)

    def action_odds(self, state: GameState, action: Action) -> OddsReport | None:
        """The exact odds of a declared action before its roll, where it has any."""
        if action.kind != "attack":
            return None
        weapon, target, params = attack_declaration(action)
        attack = self.declare_attack(state, action.actor, weapon, target, params)
        return self.attack_odds(state, attack)

    # ----------------------------------------------------------------- what the player reads

    def unit_status(self, state: GameState, unit: Unit) -> UnitStatus:
        """`unit`'s current values, labelled, its weapons and its marks (rules/status.py).
        Default: each stat of the schema with its label and doc (lists counted)."""
        return default_status(self.stats_fields, unit)

    def describe_resolution(
        self, before: GameState, action: Action, events: Sequence[Event]
    ) -> str:
        """What a resolved action did, in plain words (its outcomes); the changes to the
        units' status are added by `summarise`. Default: the outcome events in words."""
        return default_description(before, action, events)

    def summarise(
        self, before: GameState, action: Action, events: Sequence[Event], after: GameState
    ) -> str:
        """One line for the status bar, the log and the target's card: what happened and
        what it changed ("Markgraf: laser at Avenger: hit — Avenger: Hull 7 → 6")."""
        said = self.describe_resolution(before, action, events)
        # what the action did to others; the actor's own bookkeeping (fired, spent) is not news
        others = [u for u in units_named(before, action, events) if u != action.actor]
        changes = status_changes(self, before, after, others)
        return " — ".join(part for part in (said, "; ".join(changes)) if part)

    def unavailable(
        self, state: GameState, position: TurnPosition, side: str
    ) -> tuple[Unavailable, ...]:
        """Actions of this phase `side` cannot take now, each with its reason and rule
        (shown greyed out). Default: none listed."""
        return ()

    def pass_refused(
        self, state: GameState, position: TurnPosition, side: str
    ) -> Unavailable | None:
        """Why `side` may not pass its go now (the rules oblige it to take one of the steps
        they offer it), or None. The session then offers no pass while the rules offer that
        side something. Default: a side may always pass."""
        return None

    def acting_order(self, state: GameState, position: TurnPosition) -> tuple[OrderEntry, ...]:
        """The order the rules produced for the phase at `position`, unit by unit (the
        initiative results), with who has acted and who acts now: what a tracker shows
        and which side really acts. Default: none (the sides simply take turns)."""
        return ()

    def play_order(self, state: GameState, position: TurnPosition) -> tuple[str, ...]:
        """The sides in the order play follows at `position` where the rules order them
        without reordering the session's goes (an initiative winner that goes first while the
        other side's go offers it nothing): what the tracker shows as the order. Default:
        none (the session's order is the order of play)."""
        return ()

    # ----------------------------------------------------------------- hidden information

    def view_for(self, state: GameState, side: str) -> GameState:
        """The state as `side` knows it: what the screen, the log and the computer player of
        that side read, never the rules' own procedures (they run on the true state). A unit
        it knows only where it was last seen stands there, named by `LAST_SEEN_KEY`, with
        the rule state it could read its course from hidden. Default: the state itself
        (nothing is hidden; a view is the same object)."""
        return state

    def withheld(self, now: GameState, step: StepFacts, side: str) -> Withheld:
        """What of a step played earlier `side` may not read yet in `now`, the true state
        (a move made out of sight, until the rules reveal it). Asked only while `side`'s
        view of `now` is not the state itself. Default: nothing."""
        return NOTHING_WITHHELD

    # ----------------------------------------------------------------- the end of the game

    end_reading: str = ""
    """The rule or adopted reading (docs/game-end.md) the attrition end of `outcome` cites."""

    def unit_condition(self, state: GameState, unit: Unit) -> UnitCondition:
        """How `unit` (as it stood at the start of the game) stands in `state`: its strength
        from its stats, the share lost, whether it is destroyed or crippled, whether it can
        still fight. Default: strength 1, and a unit no longer on the table is destroyed."""
        if not state.has_unit(unit.id):
            return UnitCondition.gone(1.0)
        return UnitCondition(1.0)

    def unit_conditions(self, state: GameState, units: Sequence[Unit]) -> list[UnitCondition]:
        """`unit_condition` of each of `units` (as they stood at the start) in `state`, in
        order: a system may read what they share (its records) once for all of them."""
        return [self.unit_condition(state, unit) for unit in units]

    def turn_limit(self, state: GameState) -> int:
        """The scenario's turn limit (map option `turn_limit`, default 6)."""
        return int(state.options.get("turn_limit", DEFAULT_TURN_LIMIT))

    def outcome(self, state: GameState, start: GameState, turn: int) -> Outcome | None:
        """None while the game goes on, else how it ended and who won.

        `start` is the state play began from (the starting strength: destroyed units may
        have left the table), `turn` the session's turn now. Default: the attrition reading
        (`tactical.rules.ending`), citing `end_reading`.
        """
        conditions = [(unit.side, self.unit_condition(state, unit)) for unit in start.units]
        # units that joined later (launched, added to the table) fight but score nothing
        joined = [u for u in state.units if not start.has_unit(u.id)]
        conditions += [(unit.side, UnitCondition(0.0)) for unit in joined]
        return attrition_outcome(
            start.sides, conditions, turn, self.turn_limit(state), self.end_reading
        )

    def _no_combat(self) -> NoCombatResolvers:
        return NoCombatResolvers(
            f"rule system {self.id!r} ({self.title}) has no combat resolvers yet: "
            "attacks and odds are not available for it"
        )
