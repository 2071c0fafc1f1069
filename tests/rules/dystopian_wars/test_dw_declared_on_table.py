"""A declaration remembered by what `combat.declare` reads (R002.36, G.5, R002.19, R002.26):
the table and the rule-state entries of `combat.DECLARE_READS`. A new state on the same
table (an activation's record changed) gives the same attack without declaring it again;
a change in what it reads declares it again, and a refusal is refused each time."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dw_builders import GUNS, duel

from tactical.errors import UserError
from tactical.model import Pose
from tactical.rules.dystopian_wars import combat, tracking


@pytest.fixture
def declares(monkeypatch):
    """The declarations actually made (not remembered)."""
    made: list[str] = []
    real = combat.declare

    def counted(state, attacker, weapon, target, params=None, **kwargs):
        made.append(target)
        return real(state, attacker, weapon, target, params, **kwargs)

    monkeypatch.setattr(combat, "declare", counted)
    return made


def test_R002_36_a_new_state_on_the_same_table_declares_the_same_attack_once(declares):
    state = duel({"weapons": [GUNS]}, distance=4.0)
    first = combat.declared_on(state, "a", "Guns", "t", {})
    again = state.with_rule_state(turn=2)  # what a declaration does not read
    assert combat.declared_on(again, "a", "Guns", "t", {}) is first
    assert first == combat.declare(state, "a", "Guns", "t", {})
    assert declares == ["t", "t"]  # the first declaration, and the one asked afresh above


def test_R002_36_what_a_declaration_reads_declares_it_again(declares):
    state = duel({"weapons": [GUNS]}, distance=4.0)
    near = combat.declared_on(state, "a", "Guns", "t", {})
    moved = state.replace_unit(replace(state.unit("t"), pose=Pose(20, 40, 0)))
    far = combat.declared_on(moved, "a", "Guns", "t", {})
    assert far.params["band"] != near.params["band"]  # measured again on the new table
    captured = tracking.put_in(state, "prizes", "t", "A")  # G.5: a Prize is not attacked
    for _ in range(2):
        with pytest.raises(UserError, match="Prize"):
            combat.declared_on(captured, "a", "Guns", "t", {})
    derelict = state.with_rule_state(derelicts=("a",))  # R002.19: no crew at its guns
    with pytest.raises(UserError, match="Derelict"):
        combat.declared_on(derelict, "a", "Guns", "t", {})
    assert declares == ["t", "t", "t", "t", "t"]
    assert combat.declared_on(state.with_rule_state(turn=3), "a", "Guns", "t", {}) is near


def test_R002_26_a_ship_without_firing_options_reads_no_command(declares):
    state = duel({"weapons": [GUNS]}, distance=4.0)
    plain = combat.declared_on(state, "a", "Guns", "t", {})
    commanded = tracking.put_in(state, "commanders", "A:a", "a")  # R002.25: this activation's
    assert combat.declared_on(commanded, "a", "Guns", "t", {}) is plain
    assert combat._reads_of(state, "a", {}) == combat.PLAIN_READS
    # a Firing Option reads the command (R002.26): all of what a declaration may read
    assert combat._reads_of(state, "a", {"linked": "b"}) == combat.DECLARE_READS
    assert combat._reads_of(state, "nobody", {}) == combat.DECLARE_READS
    assert declares == ["t"]


def test_R002_36_a_completed_actions_unset_options_declare_the_same_attack(declares):
    """The computer players weigh a completed action (its Firing Options at their defaults:
    "", False) where the choices checked none: one declaration serves both."""
    state = duel({"weapons": [GUNS]}, distance=4.0)
    plain = combat.declared_on(state, "a", "Guns", "t", {})
    unset = {"linked": "", "combined": "", "indirect": False}
    assert combat.declared_on(state, "a", "Guns", "t", unset) is plain
    assert combat.declare(state, "a", "Guns", "t", unset) == plain
    assert declares == ["t", "t"]  # the first declaration, and the one asked afresh above
