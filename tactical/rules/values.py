"""The values a rule system and its front ends pass each other: what a resolver did
(`Event`, `Resolution`), what a player may do and did (`ActionChoice`, `Action`, `Attack`),
an attack's exact odds (`OddsReport`) and what a side may not read yet (`StepFacts`,
`Withheld`). Small, immutable, plain data (docs/architecture.md "The rule-system protocol");
`tactical.rules.base` re-exports them with the protocol.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tactical.model import FrozenMap, GameState
from tactical.rules.schema import Field

if TYPE_CHECKING:  # a command that reads no odds loads no dice
    from tactical.dice import Distribution

# --------------------------------------------------------------------------- events and actions


@dataclass(frozen=True, slots=True)
class Event:
    """One thing a resolver did: a roll, a threshold, a table lookup, an outcome.

    `kind` names it ("roll", "threshold", "lookup", "outcome", ...), `spec_id`
    cites the rule that decided it, `data` holds the values as (key, value)
    pairs of plain immutable values (kept as a tuple: resolvers make many of
    these while odds are enumerated). Rule systems give data, not prose:
    front ends word it.
    """

    kind: str
    spec_id: str | None
    data: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, kind: str, spec_id: str | None = None, **data: Any) -> Event:
        return cls(kind, spec_id, tuple(data.items()))

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self.data:
            if name == key:
                return value
        return default

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.data)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "spec_id": self.spec_id, **_plain(dict(self.data))}

    def describe(self) -> str:
        """A plain one-line rendering for logs and the text CLI."""
        values = ", ".join(f"{key}={_plain(value)}" for key, value in self.data)
        cited = f" ({self.spec_id})" if self.spec_id else ""
        return f"{self.kind}: {values}{cited}" if values else f"{self.kind}{cited}"


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Resolution:
    """What a resolver returns: events in order, the new state, and the outcome summary."""

    state: GameState
    events: tuple[Event, ...]
    summary: Hashable


@dataclass(frozen=True)
class Attack:
    """A declared attack: who fires what at whom, with the declaration's parameters."""

    attacker: str
    weapon: str
    target: str
    params: FrozenMap = field(default_factory=FrozenMap)


AttackParams = Mapping[str, Any] | None
"""What a declared attack carries beyond attacker, weapon and target (a power, a mode, the
system aimed at): the `params` of `RuleSystem.declare_attack`, None for nothing more."""


@dataclass(frozen=True)
class Action:
    """Any declared action: an attack, an order, a power allocation, a roll for initiative...

    `kind` is the rule system's name for it, `actor` the unit id (or the side, for
    side-level actions), `params` the declaration's values, checked against the
    fields of the matching `ActionChoice`.
    """

    kind: str
    actor: str
    params: FrozenMap = field(default_factory=FrozenMap)


def attack_declaration(action: Action) -> tuple[str, str, dict[str, Any]]:
    """An attack action's weapon, target and the rest of its parameters (the declaration's
    own: battery size, missiles...), as `declare_attack` takes them."""
    params = dict(action.params)
    return str(params.pop("weapon", "")), str(params.pop("target", "")), params


@dataclass(frozen=True)
class ActionChoice:
    """An action a side may declare now: what a play panel offers and a script may send.

    `fields` is the schema of its parameters (weapon, target, dice allocated...),
    with choices where the options are known; `spec_id` the rule allowing it.
    """

    kind: str
    actor: str
    title: str
    fields: tuple[Field, ...] = ()
    spec_id: str | None = None


def fixed_field(name: str, value: str) -> Field:
    """A choice's field it has already decided (the weapon of a weapon's attack, say)."""
    return Field(name, "str", required=True, default=value, choices=(value,))


def pick_field(name: str, values: tuple[str, ...]) -> Field:
    """A choice's field to pick one of `values` for, the first by default."""
    return Field(name, "str", required=True, default=values[0], choices=values)


@dataclass(frozen=True)
class OddsSection:
    """One distribution of an odds report, e.g. the result of a laser attack.

    `label` is the JSON key each outcome row uses for its outcome; `title` is what a player
    reads for it where its `name` (a key for scripts) would not do ("shield damage to USS
    Enterprise" for "enterprise shield damage"); "" reads the name as words.
    """

    name: str
    spec_id: str | None
    label: str
    distribution: Distribution[Any]
    title: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "spec_id": self.spec_id,
            "outcomes": self.distribution.rows(self.label),
        }


@dataclass(frozen=True)
class OddsReport:
    """The exact odds of one declared attack as it stands on the table.

    `facts` are what the geometry and the declaration decided (range, threshold,
    number of missiles...), `sections` the distributions, first the main one.
    `fact_words` says a fact whose value is a structure (a dice pool by contributor, the
    modifiers with their rules) as a player reads it, by the fact's key; the data stays in
    `facts` for scripts and the JSON.
    """

    rules: str
    attack: Attack
    facts: FrozenMap
    sections: tuple[OddsSection, ...]
    fact_words: FrozenMap = field(default_factory=FrozenMap)
    key: tuple[tuple[str, str], ...] = ()
    """What the codes among its outcomes mean against this target ("B2", "2 damage points"):
    the chart's legend (`RuleSystem.result_key` has them all)."""

    def section(self, name: str) -> OddsSection:
        for section in self.sections:
            if section.name == name:
                return section
        raise KeyError(name)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "attacker": self.attack.attacker,
            "weapon": self.attack.weapon,
            "target": self.attack.target,
            "params": _plain(self.attack.params),
            "facts": _plain(self.facts),
            "distributions": [section.as_dict() for section in self.sections],
        }


# --------------------------------------------------------------------------- hidden information

LAST_SEEN_KEY = "last_seen"
"""The `rule_state` key a side's view (`RuleSystem.view_for`) sets to the ids of the units it
shows where they were last seen, not where they are: what the table draws faded. Never set in
a true state, so a state read without a view has none."""


def last_seen(state: GameState) -> frozenset[str]:
    """The units `state`, a side's view, shows only where they were last seen (none in a true
    state, nor in the view of a system that hides nothing)."""
    found = state.rule_state.get(LAST_SEEN_KEY) or ()
    return frozenset(str(unit_id) for unit_id in found)


@dataclass(frozen=True)
class StepFacts:
    """One step of play as a rule system is asked what of it a side may read
    (`RuleSystem.withheld`): the turn and phase it was played in, whose go it was, the
    action and the events it resolved to. No table: asking it never rebuilds one."""

    turn: int
    phase: str
    side: str
    action: Action
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Withheld:
    """What of one step a side may not read yet: the whole step (its action, rolls and events:
    the side reads `words` in its place) or some of its events (by index)."""

    step: bool = False
    events: frozenset[int] = frozenset()
    words: str = "hidden movement"

    @property
    def anything(self) -> bool:
        return self.step or bool(self.events)


NOTHING_WITHHELD = Withheld()


def probability_row(probability: Any) -> dict[str, Any]:
    """{"probability": "a/b", "percent": float} for one exact probability."""
    from tactical.dice import fraction_text, percent  # here: loaded with the odds

    return {"probability": fraction_text(probability), "percent": percent(probability)}
