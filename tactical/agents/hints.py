"""Optional hints for the agents, registered per rule system id.

The agents need nothing from a rule system beyond the generic protocol; a hint only
sharpens their judgement. Rule systems sit below the agents (import-linter layers), so a
hint is registered from above, e.g. by a front end or a balance lab:

    from tactical.agents import hints
    hints.register("my-rules", hints.Hints(unit_value=lambda unit: unit.stats["points"]))

or declared by the rule system itself as plain data, without importing the agents: a
class attribute `agent_hints = {"eager_kinds": ("close",), "eager_turns": 3}` (keys
`avoid_kinds`, `eager_kinds`, `eager_turns`, `eager_worth`, `playout_steps`,
`playout_turn_end`, `weigh_passes`, `position_by_weapons`, `move_threshold`,
`playout_moves`, `playout_expectations`, `weigh_preparations` and `overturn_errors`). A
registered hint takes precedence.

- `unit_value(unit)`: a unit's value, instead of the strength the rule system's
  `unit_condition` gives (which is also what its game-end score counts).
- `avoid_kinds`: action kinds the agents never choose unless nothing else is offered
  (a kind that hands the decision to another player, say).
- `eager_kinds`: action kinds worth making rather than passing although nothing
  measurable comes of them at once (closing the range where the range is a declaration
  resolved at the end of the turn, say): the one-step look of the greedy player cannot
  see their worth.
- `eager_worth`: what an eager kind is worth against passing, as a share of all strength
  (None: the players' own small step, `players.EAGER`). Larger where the chance passes
  once the unit moves (a Carrier launches only before it moves): the eager action must
  then outweigh the positional gain of the unit's move.
- `eager_turns`: the turns of the game that must remain after the current one for an
  eager kind to pay off (default 1: none in the game's last turn, whose end it never
  sees); with fewer left (the scenario's `turn_limit`), it is not made for nothing.
- `playout_steps`, `playout_turn_end`: how far the `search` level's play-outs look
  where its budget leaves it open (None: the players' defaults, `search.HORIZON` steps
  and no further than the turn's end). A system whose choices pay off turns later
  (which shield faces the enemy, when to close) needs play-outs that see the next
  turn; one with many procedural steps a turn needs more steps to see the same play.
- `weigh_passes`: whether `search` plays out a pass against the greedy player's choice
  (default no: a play-out cut short cannot see what a pass gives up, and favoured it).
  For a system where acting gives something up for the rest of the turn (a ship that
  closes the range cannot fire that turn), so that letting the enemy act first or alone
  can be the better play; a pass then counts only where its play-outs reach the turn's
  end.
- `position_by_weapons`: the greedy player values a place by where each of the unit's
  weapons reaches (`RuleSystem.weapon_reach`: its arcs and bands; the mean over the
  weapons, so bringing the guns in counts where the missiles already reach) and how near
  the weapons out of range come to each enemy, rather than by the unit's range bands
  (default no). For a system whose bands run far past its guns (sensor ranges): there
  every enemy is "in a band" wherever a unit goes, and no move looks worth making.
- `move_threshold`: the positional gain a table move must bring (None: the players'
  `MOVE_THRESHOLD`). Lower for a system whose rules move nothing (a unit moves on the
  table): there the table move is the unit's only movement.
- `playout_moves`: whether `search`'s play-outs make table moves, weighing positions as
  the greedy player does (default no: its quick player never moves on the table). For a
  system whose units move on the table only: play-outs in which nothing moved mistook
  where the fight would be.
- `playout_expectations`: whether `search`'s play-outs count each attack rolled in them at
  its exact expectation over the resolver's outcomes, the sampled dice only moving the
  game on (default no: the material where the play-out ends). For a system whose single
  rolls swing the material a long way (a battery of guns): a dozen play-outs' luck
  otherwise hides what a choice before those rolls changed.
- `weigh_preparations`: whether `search` also plays out the best preparation the greedy
  player scored (a roll that changes no material now and aims at no unit: a crew's
  station roll, a manoeuvre) against the attack the greedy player chose (default no).
  For a system whose preparations lift or guard the rolls after them in the same turn:
  the one-step look values them at nothing, so the greedy player makes them after its
  attacks, when they lift nothing.
- `overturn_errors`: how many standard errors of its paired play-out gains a candidate's
  mean gain must clear, besides the margin, to replace the greedy player's choice
  (default 1: noise of a few play-outs alone does not overturn the exact one-step look).
  0 for a system whose one-step look misses much of what its choices are worth (its
  preparations): there the play-outs' mean is the better judge, and a dozen play-outs'
  spread kept most of their finds out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tactical.model import Unit


@dataclass(frozen=True)
class Hints:
    unit_value: Callable[[Unit], float] | None = None
    avoid_kinds: frozenset[str] = frozenset()
    eager_kinds: frozenset[str] = frozenset()
    eager_turns: int = 1
    eager_worth: float | None = None
    playout_steps: int | None = None
    playout_turn_end: bool | None = None
    weigh_passes: bool = False
    position_by_weapons: bool = False
    move_threshold: float | None = None
    playout_moves: bool = False
    playout_expectations: bool = False
    weigh_preparations: bool = False
    overturn_errors: float = 1.0


NONE = Hints()
_registered: dict[str, Hints] = {}
_declared: dict[int, tuple[Mapping[str, Any], Hints]] = {}  # by the declaring mapping


def register(rules_id: str, hints: Hints) -> None:
    """Register (or replace) the hints for one rule system."""
    _registered[rules_id] = hints


def unregister(rules_id: str) -> None:
    _registered.pop(rules_id, None)


def get(rules_id: str, system: Any = None) -> Hints:
    """The hints registered for `rules_id`, else those `system` declares (`agent_hints`)."""
    found = _registered.get(rules_id)
    if found is not None:
        return found
    declared = getattr(system, "agent_hints", None)
    if not isinstance(declared, Mapping):
        return NONE
    # read once per declaration: the players ask for the hints at every candidate
    kept = _declared.get(id(declared))
    if kept is None or kept[0] is not declared:
        kept = (declared, declared_hints(declared))
        _declared[id(declared)] = kept
    return kept[1]


def declared_hints(declared: Mapping[str, Any]) -> Hints:
    """Hints from a rule system's plain `agent_hints` mapping (the keys above)."""
    steps = declared.get("playout_steps")
    turn_end = declared.get("playout_turn_end")
    return Hints(
        avoid_kinds=frozenset(declared.get("avoid_kinds", ())),
        eager_kinds=frozenset(declared.get("eager_kinds", ())),
        eager_turns=int(declared.get("eager_turns", 1)),
        eager_worth=(
            float(declared["eager_worth"]) if declared.get("eager_worth") is not None else None
        ),
        playout_steps=int(steps) if steps is not None else None,
        playout_turn_end=bool(turn_end) if turn_end is not None else None,
        weigh_passes=bool(declared.get("weigh_passes", False)),
        position_by_weapons=bool(declared.get("position_by_weapons", False)),
        playout_moves=bool(declared.get("playout_moves", False)),
        playout_expectations=bool(declared.get("playout_expectations", False)),
        weigh_preparations=bool(declared.get("weigh_preparations", False)),
        overturn_errors=float(declared.get("overturn_errors", 1.0)),
        move_threshold=(
            float(declared["move_threshold"])
            if declared.get("move_threshold") is not None
            else None
        ),
    )
