"""A scripted two-turn game of maps/cortex-space.toml through the generic protocol only.

The loop knows no Cortex rule: it walks `turn_sequence()`, asks `actions()` for the side
to act, takes a sensible offered choice with its default parameters (or passes), and
`apply()`s it with seeded dice. The same seed must give the same log, event for event.
"""

from __future__ import annotations

from pathlib import Path

from tactical.dice import SeededDice
from tactical.io import load_map
from tactical.model import FrozenMap, GameState
from tactical.rules import registry
from tactical.rules.base import Action, ActionChoice, Event

MAP = Path(__file__).resolve().parents[3] / "maps" / "cortex-space.toml"
PREFERENCE = (
    "start-turn",
    "advantage",
    "initiative",
    "point-defense",
    "station-roll",
    "attack-manoeuvre",
    "fire-missile",
    "out-fly",
    "lock-missile",
    "attack",
    "join-wing",
    "end",
)
FREE = ("start-turn", "advantage", "initiative", "point-defense", "station-roll", "end")
ACTIONS_PER_VESSEL = 2


def _pick(choices: tuple[ActionChoice, ...], used: dict) -> ActionChoice | None:
    for kind in PREFERENCE:
        for choice in choices:
            if choice.kind != kind:
                continue
            if kind not in FREE and used.get(choice.actor, 0) >= ACTIONS_PER_VESSEL:
                continue
            return choice
    return None


def play_two_turns(seed: int, watch=None) -> tuple[GameState, list[tuple], list[Event]]:
    """`watch(state, position, choice)`, if given, sees every go before it is played."""
    state = load_map(MAP)
    system = registry.get(state.rules)
    state = system.setup(state)
    sequence = system.turn_sequence()
    sides = state.sides
    position = sequence.start()
    dice = SeededDice(seed)
    taken: list[tuple] = []
    events: list[Event] = []
    used: dict[tuple[int, str], int] = {}
    for _ in range(1000):
        if position.turn > 2:
            break
        side = sides[position.side]
        choices = system.actions(state, position, side)
        per_turn = {actor: n for (turn, actor), n in used.items() if turn == position.turn}
        choice = _pick(choices, per_turn)
        if watch is not None:
            watch(state, position, choice)
        if choice is None:
            position = sequence.advance(position, len(sides), passed=True)
            continue
        params = {f.name: f.default for f in choice.fields if f.default is not None}
        action = Action(choice.kind, choice.actor, FrozenMap(params))
        resolution = system.apply(state, action, dice)
        state = resolution.state
        key = (position.turn, choice.actor)
        used[key] = used.get(key, 0) + (0 if choice.kind in FREE else 1)
        taken.append((position.turn, position.phase, side, choice.kind, choice.actor))
        events.extend(resolution.events)
        position = sequence.advance(position, len(sides))
    else:
        raise AssertionError("the game did not reach the end of turn 2")
    return state, taken, events


def test_two_full_turns_through_the_generic_protocol():
    state, taken, events = play_two_turns(2026)
    assert state.rule_state["turn"] == 2
    kinds = {kind for _, _, _, kind, _ in taken}
    assert {"start-turn", "advantage", "initiative", "attack", "end"} <= kinds
    turns = {turn for turn, *_ in taken}
    assert turns == {1, 2}
    # every vessel still flying ended its activation in turn 2
    done = set(state.rule_state["done"])
    assert {u.id for u in state.units if not _out(state, u)} <= done
    # every event cites the rule that decided it
    assert all(event.spec_id for event in events)
    # the damage events add up to the damage recorded on the units
    for unit in state.units:
        members = unit.stats.get("members")
        if members:
            continue
        dealt = sum(e.get("wound") for e in events if e.kind == "damage"
                    and e.get("target") == unit.id)  # fmt: skip
        assert unit.stats.get("wound", 0) == dealt, unit.id


def _out(state: GameState, unit) -> bool:
    from tactical.rules.cortex_space.units import vessel

    card = vessel(unit)
    return card.destroyed or card.disabled


def test_the_same_seed_gives_the_same_log():
    first = play_two_turns(7)
    again = play_two_turns(7)
    assert first[1] == again[1]
    assert [e.as_dict() for e in first[2]] == [e.as_dict() for e in again[2]]
    assert first[0] == again[0]
    other = play_two_turns(8)
    assert [e.as_dict() for e in other[2]] != [e.as_dict() for e in first[2]]


def test_R003_11_the_tracker_stage_names_the_initiative_group_acting_now():
    """In the Actions phase the stage is the vessels acting now (the highest initiative yet
    to end its activation); every vessel's action comes from that group."""
    from tactical.rules.cortex_space import sequence

    system = registry.get("cortex-space")
    seen = []

    def watch(state, position, choice):
        stage = system.stage(state, position)
        if position.phase == sequence.ACTIONS_PHASE and sequence.is_current(state, position):
            group = sequence.current_group(state)
            if not group:  # every vessel has ended its activation
                assert stage is None
                return
            assert stage.facts["acting now"] == group and stage.steps == ()
            if choice is not None and state.has_unit(choice.actor):
                assert choice.actor in group
                seen.append(group)
        else:
            assert stage is None

    play_two_turns(2026, watch)
    assert len(seen) > 5 and len(set(seen)) > 1
