"""What the computer players read of Dystopian Wars: the states alone (`model.worded`), and
the answers the rules remember by what they read (G.5, R002.10, R002.22, R002.36, GEO002.7).

Each remembered answer must equal the answer worked out afresh, and change when what it
reads changes."""

from __future__ import annotations

from dw_builders import GUNS, SHIELDED, TORPEDOES, duel, rock, table, unit

from tactical.dice import ScriptedDice, SeededDice, enumerate_outcomes
from tactical.errors import UserError
from tactical.model import FrozenMap, Pose
from tactical.model.worded import unworded
from tactical.rules.dystopian_wars import (
    attacks,
    combat,
    outcome,
    play,
    resolving,
    tracking,
    victory,
)
from tactical.rules.dystopian_wars.chance import AttackRollOf, Defence
from tactical.rules.dystopian_wars.dicework import PoolRules


def _effects(roll: AttackRollOf):
    """The roll's exact distribution of what it changes on the table."""
    found = enumerate_outcomes(roll, key=roll.key)
    return found.map(lambda rolled: rolled.summary.effect).sorted(key=repr)


def test_G_5_an_attack_roll_read_for_states_has_the_same_odds_of_what_it_changes():
    worded = AttackRollOf(SHIELDED, "a", "t", "gunnery")
    plain = AttackRollOf(SHIELDED, worded=False)
    assert _effects(plain) == _effects(worded)
    outcomes = enumerate_outcomes(plain, key=plain.key)
    assert all(rolled.events == () for rolled, _ in outcomes)
    # merged by what it changes: fewer outcomes than the summaries a report reads
    assert len(outcomes) < len(enumerate_outcomes(worded, key=worded.key))
    for seed in range(20):  # the same dice, rolled alike
        assert plain(SeededDice(seed)).summary == worded(SeededDice(seed)).summary


def test_G_5_a_wing_attack_roll_read_for_states_has_the_same_odds():
    wing = Defence(4, PoolRules(), 0, 0, None, 1, 2, 1, 1, wing_size=3, kill_hits=1)
    assert _effects(AttackRollOf(wing, worded=False)) == _effects(AttackRollOf(wing, "a", "w"))


def test_R002_36_a_resolution_read_for_states_leaves_the_same_state_without_words():
    state = duel({"weapons": [GUNS]}, {"damage_rating": 1, "critical_rating": 2}, distance=4.0)
    attack = combat.declare(state, "a", "Guns", "t")
    rolls = [6, 6, 5, 4, 3, 2, 6, 1, 1, 4, 3]
    worded = resolving.resolve_declared(state, attack, ScriptedDice(rolls))
    with unworded():
        plain = resolving.resolve_declared(state, attack, ScriptedDice(rolls))
    assert plain.state == worded.state and plain.summary == worded.summary
    assert plain.events == () and worded.events


def test_GEO002_7_a_declaration_reads_no_line_of_sight_out_of_range_but_reach_does():
    state = duel({"weapons": [TORPEDOES]}, distance=30.0)  # torpedoes: no dice in RB4
    a, t = state.unit("a"), state.unit("t")
    weapon = combat.card(a).weapon("Torpedoes")
    assert weapon is not None
    lazy = combat.reach(state, a, weapon, t, lazy=True)
    assert not lazy.sighted and lazy.dice == 0
    full = combat.reach(state, a, weapon, t)  # asked whole: measured whole
    assert full.sighted and full.los and (full.distance, full.band) == (lazy.distance, lazy.band)
    assert combat.reach(state, a, weapon, t, lazy=True) is full  # the whole one serves both
    assert attacks.targets_for(state, a, "Torpedoes", False) == ()


def test_R002_36_targets_are_remembered_by_what_a_declaration_reads():
    state = duel({"weapons": [GUNS]}, distance=4.0)
    a = state.unit("a")
    assert attacks.targets_for(state, a, "Guns", False) == ("t",)
    assert attacks.targets_for(state, a, "Guns", False) == ("t",)  # remembered
    captured = tracking.put_in(state, "prizes", "t", "A")  # R002.19: a Prize is not attacked
    assert attacks.targets_for(captured, a, "Guns", False) == ()
    assert attacks._targets(captured, a, "Guns", False, {}) == ()
    # what it does not read leaves the answer as it was
    other = state.with_rule_state(turn=3)
    assert attacks.targets_for(other, other.unit("a"), "Guns", False) == ("t",)


def _fleets():
    return play.setup(
        table(
            unit("a-big", 10, 5, size="large", points=60, squadron="big"),
            unit("b-big", 10, 40, "B", size="large", points=60, squadron="big"),
            unit("b-small", 30, 40, "B", size="small", points=40, squadron="small"),
            max_fleet_value=100,
        )
    )


def test_R002_22_the_field_orders_are_checked_again_when_a_loss_is_recorded():
    state = _fleets()
    assert victory.check_victory(state) == (state, [])
    assert victory.check_victory(state.with_rule_state(turn=2))[1] == []  # remembered
    lost = tracking.record_loss(state, state.unit("b-big"), "destroyed")
    assert victory.check_victory(lost)[1] == []  # 60 of 100: not yet (FO 1)
    lost = tracking.record_loss(lost, state.unit("b-small"), "destroyed")
    decided, events = victory.check_victory(lost)
    assert tracking.get(decided, "result")["winner"] == "A" and len(events) == 1
    assert victory.check_victory(state)[1] == []  # the first state's answer still its own


def test_R002_22_every_condition_at_once_is_each_condition():
    state = _fleets()
    hit = tracking.put_in(state, "hull_lost", "b-small", 1)
    gone = tracking.record_loss(hit, hit.unit("b-big"), "destroyed").without_unit("b-big")
    units = state.units
    for case in (state, hit, gone):
        assert list(outcome.unit_conditions(case, units)) == [
            outcome.unit_condition(case, u) for u in units
        ]
    assert outcome.unit_conditions(gone, units)[1].out
    assert outcome.unit_conditions(hit, units)[2].lost > 0


def test_R002_10_an_empty_table_is_shared_and_never_changed():
    state = _fleets()
    empty = tracking.mapping(state, "boosts")
    assert empty == FrozenMap() and tracking.mapping(state, "wings") is empty
    changed = tracking.put_in(state, "boosts", "a-big", FrozenMap(kinetic=3))
    assert dict(tracking.mapping(changed, "boosts")) == {"a-big": FrozenMap(kinetic=3)}
    assert tracking.mapping(state, "boosts") == FrozenMap()


def test_R002_35_a_plan_is_kept_while_only_models_away_from_its_path_move():
    from dataclasses import replace

    from tactical.rules.dystopian_wars import maneuver

    state = table(
        unit("a", 10, 10, move=8.0),
        unit("far", 60, 40, "B"),
        unit("b", 30, 10, "B"),
    )
    first = maneuver.plan(state, state.unit("a"), "F8")
    assert first.contact_kind is None
    far = state.replace_unit(replace(state.unit("far"), pose=Pose(60, 35, 0)))
    again = maneuver.plan(far, far.unit("a"), "F8")
    assert again is first  # nothing near the path moved
    fresh = maneuver._plan.__wrapped__(
        far.unit("a"), "F8", None, far.options, far.units, far.terrain, far.board
    )
    assert fresh == first
    # a model moved across the path stops it (a ram): planned again
    start, end = state.unit("a").pose, first.final
    middle = Pose((start.x + end.x) / 2, (start.y + end.y) / 2, 90)
    across = state.replace_unit(replace(state.unit("b"), pose=middle))
    rammed = maneuver.plan(across, across.unit("a"), "F8")
    assert rammed.contact_kind == "ram" and rammed.contact_id == "b"


def _declared(state, attacker: str, weapon: str, target: str, **params) -> bool:
    try:
        combat.declare(state, attacker, weapon, target, params)
    except UserError:
        return False
    return True


def test_GEO002_7_a_target_out_of_reach_is_refused_by_the_declaration_too():
    """`out_of_reach` (the choices' first look) says True only where `declare` refuses the
    pair: out of range (GEO002.7), out of arc, no line of sight (R002.40 terrain, R002.41 a
    model between) unless indirect; False where the pair reaches or the weapon is unknown."""
    fore_guns = {**GUNS, "name": "Fore guns", "arc": "fore"}
    a = unit("a", 20, 10, "A", weapons=[GUNS, TORPEDOES, fore_guns])
    near, far = unit("near", 20, 16, "B", 90.0), unit("far", 20, 44, "B", 90.0)
    behind = unit("behind", 20, 3, "B", 90.0)
    screened = unit("screened", 40, 10, "B", 90.0)
    screen = unit("screen", 30, 10, "A", 90.0, size="large")  # a model in the line
    state = table(a, near, far, behind, screened, screen, terrain=(rock("r", 8, 20, 12, 30),))
    cases = {
        ("Guns", "near"): False,
        ("Torpedoes", "far"): True,  # no Attack Dice in Range Band 4
        ("Fore guns", "behind"): True,  # out of arc
        ("Guns", "screened"): True,  # a model blocks the line
        ("Lances", "near"): False,  # no such weapon: the declaration says why
    }
    for (weapon, target), refused in cases.items():
        assert combat.out_of_reach(state, "a", weapon, target, False) is refused, (weapon, target)
        if refused:
            assert not _declared(state, "a", weapon, target)
    assert not combat.out_of_reach(state, "a", "Guns", "screened", True)  # indirect: no sight
    assert combat.out_of_reach(state, "a", "Guns", "nobody", False) is False
    assert attacks.targets_for(state, a, "Guns", False) == tuple(
        t for t in ("near", "far", "behind", "screened") if _declared(state, "a", "Guns", t)
    )


def test_R002_35_a_plan_asked_again_on_its_own_table_is_given_without_looking_near(
    monkeypatch,
):
    """A plan asked again on the very table it was planned (or found alike) on is the plan
    kept; on another table the models near its path are compared (a model moved across the
    path: planned again)."""
    from dataclasses import replace

    from tactical.rules.dystopian_wars import maneuver

    state = table(unit("a", 10, 10, move=8.0), unit("b", 30, 10, "B"))
    first = maneuver.plan(state, state.unit("a"), "F8")
    looked = []
    near = maneuver._near
    monkeypatch.setattr(maneuver, "_near", lambda *a: looked.append(a) or near(*a))
    assert maneuver.plan(state, state.unit("a"), "F8") is first
    assert looked == []
    start, end = state.unit("a").pose, first.final
    middle = Pose((start.x + end.x) / 2, (start.y + end.y) / 2, 90)
    across = state.replace_unit(replace(state.unit("b"), pose=middle))
    rammed = maneuver.plan(across, across.unit("a"), "F8")
    assert looked and rammed.contact_kind == "ram" and rammed.contact_id == "b"
    assert maneuver.plan(state, state.unit("a"), "F8") == first  # the first table again
