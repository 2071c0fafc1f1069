"""What Dystopian Wars hands back unchanged and remembers while a state lives, for the
computer players that replay one step on one state (G.5, R002.10, R002.28): each
remembered answer equals the one worked out afresh."""

from __future__ import annotations

from dw_builders import ACK_ACK, DW, GUNS, duel, flyer, refused, table, unit

from tactical.dice import D6, SeededDice, enumerate_outcomes
from tactical.model import FrozenMap, Pose
from tactical.rules.dystopian_wars import (
    cards,
    combat,
    maneuver,
    outcome,
    play,
    resolving,
    tracking,
    victory,
)
from tactical.rules.dystopian_wars.chance import AttackRollOf
from tactical.rules.dystopian_wars.dicework import PoolRules, PoolState, _pool_steps, attack_pool
from tactical.rules.dystopian_wars.sequence import current_activation, set_activation


def test_R002_10_clearing_an_offer_not_made_gives_the_same_state_back():
    state = play.setup(duel({"weapons": [GUNS]}, distance=4.0))
    offer = FrozenMap(kind="critical", option="b", unit="t", code="fire")
    held = tracking.put_in(state, "offers", "A", offer)
    assert tracking.put_in(held, "offers", "B", None) is held  # nothing to clear
    cleared = tracking.put_in(held, "offers", "A", None)
    assert cleared is not held and "A" not in tracking.mapping(cleared, "offers")
    assert cleared.rule_state["offers"] == FrozenMap()
    # a key never set is set (an empty table), as before: the state's value changes
    bare = state.with_rule_state(offers=None)
    assert tracking.put_in(bare, "offers", "A", None).rule_state["offers"] == FrozenMap()


def test_R002_28_a_recorded_declaration_is_checked_once_per_state():
    state = duel({"weapons": [GUNS]}, distance=4.0)
    params = FrozenMap(counter=False)
    first = combat.declared_on(state, "a", "Guns", "t", params)
    assert first == combat.declare(state, "a", "Guns", "t", dict(params))
    assert combat.declared_on(state, "a", "Guns", "t", params) is first  # remembered
    moved = state.replace_unit(state.unit("a").moved_to(Pose(20.0, 0.0, 0.0)))
    again = combat.declared_on(moved, "a", "Guns", "t", params)
    assert again == combat.declare(moved, "a", "Guns", "t", dict(params))
    assert again.params["pool"] != first.params["pool"]  # another range band: other dice
    with refused("R002.51", "Launched"):  # remembered apart: after a Launch, no gunnery
        combat.declared_on(state, "a", "Guns", "t", params, launched=True)
    with refused("R002.36", "no weapon"):  # a refusal is raised each time, never remembered
        combat.declared_on(state, "a", "Lance", "t", params)
    with refused("R002.36", "no weapon"):
        combat.declared_on(state, "a", "Lance", "t", params)


def _squadrons_afresh(state, side=None):
    found: dict[str, list] = {}
    for member in state.units:
        if side is None or member.side == side:
            found.setdefault(cards.squadron_key(member), []).append(member)
    return {key: tuple(units) for key, units in found.items()}


def test_R002_28_squadrons_are_the_table_s_whoever_asks():
    state = table(
        unit("a1", 10, 5, squadron="line"),
        unit("b1", 10, 40, "B", squadron="line"),
        unit("a2", 14, 5, squadron="line"),
        unit("a3", 30, 5),
        unit("b2", 20, 40, "B", squadron="screen"),
    )
    moved = state.replace_unit(state.unit("a2").moved_to(Pose(15.0, 6.0, 0.0)))
    for case in (state, moved, moved.without_unit("a1")):
        for side in (None, "A", "B"):
            found = cards.squadrons(case, side)
            assert found == _squadrons_afresh(case, side)
            assert list(found) == list(_squadrons_afresh(case, side))  # in map order
            found.clear()  # a copy: the next question is answered whole
            assert cards.squadrons(case, side) == _squadrons_afresh(case, side)
        for key in ("A:line", "B:line", "A:a3", "B:screen", "A:none"):
            assert cards.squadron_units(case, key) == _squadrons_afresh(case).get(key, ())
    assert [u.id for u in cards.squadron_units(moved, "A:line")] == ["a1", "a2"]
    assert cards.squadron_units(moved, "A:line")[1].pose == Pose(15.0, 6.0, 0.0)
    assert [u.id for u in cards.squadron_units(moved.without_unit("a1"), "A:line")] == ["a2"]


def test_G_5_a_roll_s_hull_points_and_critical_hit_are_set_at_once_as_one_by_one():
    state = play.setup(duel({"weapons": [GUNS]}, distance=4.0))
    state = tracking.put_in(state, "hull_lost", "t", 1)
    one_by_one = tracking.add_effect(tracking.put_in(state, "hull_lost", "t", 3), "t", "fire")
    at_once = tracking.put_items(state, ("hull_lost", "t", 3), ("effects", "t", ("fire",)))
    assert at_once == one_by_one
    assert tracking.hull_lost(at_once, "t") == 3 and tracking.effects(at_once, "t") == ("fire",)
    assert tracking.put_items(state) is state  # nothing to set
    offer_a, offer_b = (
        FrozenMap(kind="critical", option="b"),
        FrozenMap(kind="critical", option="c"),
    )
    both = tracking.put_items(state, ("offers", "A", offer_a), ("offers", "B", offer_b))
    one_then_other = tracking.put_in(
        tracking.put_in(state, "offers", "A", offer_a), "offers", "B", offer_b
    )
    assert both == one_then_other
    assert list(tracking.mapping(both, "offers")) == list(
        tracking.mapping(one_then_other, "offers")
    )
    bare = state.with_rule_state(effects=None)  # a key not set: a table made, as put_in does
    assert tracking.put_items(bare, ("effects", "t", ("fire",))) == tracking.put_in(
        bare, "effects", "t", ("fire",)
    )


def test_G_5_the_roll_of_an_attack_is_made_once_per_state_worded_or_not():
    state = duel({"weapons": [GUNS]}, distance=4.0)
    attack = combat.declare(state, "a", "Guns", "t")
    worded = resolving.prepared(state, attack, True).roll
    plain = resolving.prepared(state, attack, False).roll
    assert worded == AttackRollOf(worded.defence, "a", "t", "gunnery")
    assert plain == AttackRollOf(worded.defence, worded=False)
    assert resolving.prepared(state, attack, False).roll is plain  # remembered with the state


def test_R002_28_the_sides_are_the_table_s_in_order():
    state = table(unit("b1", 10, 40, "B"), unit("a1", 10, 5), unit("b2", 20, 40, "B"))
    assert cards.table_sides(state) == state.sides == ("B", "A")
    assert cards.table_sides(state) is cards.table_sides(state)  # remembered by the units
    alone = state.without_unit("a1")
    assert cards.table_sides(alone) == alone.sides == ("B",)


def test_R002_22_conditions_are_read_again_only_where_a_loss_or_the_models_change():
    state = play.setup(table(unit("a1", 10, 5), unit("b1", 10, 40, "B"), unit("b2", 20, 40, "B")))
    units = state.units
    first = outcome.unit_conditions(state, units)
    moved = state.replace_unit(state.unit("b1").moved_to(Pose(12.0, 30.0, 0.0)))
    assert outcome.unit_conditions(moved, units) is first  # only a move: the same conditions
    hit = tracking.put_in(moved, "hull_lost", "b1", 1)
    gone = hit.without_unit("b2")
    for case in (hit, gone):
        assert outcome.unit_conditions(case, units) == tuple(
            outcome.unit_condition(case, u) for u in units
        )
    assert outcome.unit_conditions(hit, units)[1].lost > 0 and not first[1].lost
    assert outcome.unit_conditions(gone, units)[2].out and not first[2].out


def _pool_replayed(dice_count, rules, enough, dice):
    """`attack_pool`'s fold as first written: every die a step the enumerator replays."""

    def key(pool):
        return min(pool.hits, enough), (pool.pending if pool.hits < enough else 0)

    def throw(index):
        def step(pool, source):
            face = source.roll(D6, who="a", what=f"AD: die {index}")
            pending = pool.pending + (1 if face == 6 and rules.exploding else 0)
            return PoolState(pool.hits + rules.hits(face), pending, (*pool.faces, face))

        return step

    def explosion(index):
        def step(pool, source):
            if pool.pending == 0 or pool.hits >= enough:
                return pool
            face = source.roll(D6, who="a", what=f"AD: exploding die {index}")
            pending = pool.pending - 1 + (1 if face == 6 else 0)
            return PoolState(pool.hits + rules.hits(face), pending, (*pool.faces, face))

        return step

    steps = [throw(i + 1) for i in range(dice_count)]
    steps += [explosion(i + 1) for i in range(enough if rules.exploding else 0)]
    return dice.fold(PoolState(0, 0, ()), steps, key=key)


def test_G_5_attack_dice_thrown_as_die_steps_have_the_same_odds_states_and_rolls():
    for count, rules, enough in (
        (3, PoolRules(), 4),
        (7, PoolRules(5, 1, True), 6),
        (5, PoolRules(4, 2, False), 3),
    ):

        def pool(dice, count=count, rules=rules, enough=enough):
            rolled = attack_pool(count, rules, enough, dice, who="a", what="AD")
            return rolled.hits, rolled.faces

        def replayed(dice, count=count, rules=rules, enough=enough):
            rolled = _pool_replayed(count, rules, enough, dice)
            return rolled.hits, rolled.faces

        # outcome by outcome, in the same order, the same representative faces
        assert enumerate_outcomes(pool).pairs == enumerate_outcomes(replayed).pairs
        for seed in range(10):  # the same dice rolled, with the same words
            ours, theirs = SeededDice(seed), SeededDice(seed)
            assert pool(ours) == replayed(theirs) and ours.rolls == theirs.rolls
    first = _pool_steps(4, PoolRules(), 4, "a", "AD")
    assert _pool_steps(4, PoolRules(), 4, "a", "AD") is first  # made once per pool


def test_R002_28_an_activation_record_changed_equals_one_made_afresh():
    state = play.setup(duel({"weapons": [GUNS]}, distance=4.0))
    record = FrozenMap(side="A", stage="declare", declared=(FrozenMap(attacker="a"),))
    held = state.with_rule_state(activation=record)
    changed = set_activation(held, stage="resolve", used_weapons=[("a", "Guns")])
    made = current_activation(changed)
    assert type(made) is FrozenMap
    assert made == FrozenMap(
        side="A",
        stage="resolve",
        declared=(FrozenMap(attacker="a"),),
        used_weapons=(("a", "Guns"),),
    )
    assert list(made) == ["side", "stage", "declared", "used_weapons"]  # its order kept
    assert hash(made) == hash(
        FrozenMap(dict(record, stage="resolve", used_weapons=(("a", "Guns"),)))
    )
    assert current_activation(held) == record  # the state read is unchanged
    # no record yet: one made of the changes
    fresh = current_activation(set_activation(state, stage="command"))
    assert fresh == FrozenMap(stage="command") and type(fresh) is FrozenMap


def test_R002_22_winners_remembered_equal_afresh():
    state = play.setup(duel({"weapons": [GUNS]}, distance=4.0))
    # FO 4 (T002.1): all of the opposing Core Force destroyed
    state = tracking.put_in(state, "field_orders", "A", FrozenMap(order=4))
    first = victory._winners(state)
    assert first == () and victory._winners(state) is first  # remembered by what it reads
    lost = tracking.record_loss(state, state.unit("t"), "destroyed")
    assert victory._winners(lost) == ("A",)  # the losses read: worked out again
    assert victory._winners(state) == ()


def test_GEO002_8_a_move_planned_is_kept_where_no_model_near_its_path_moved():
    state = table(unit("a", 10, 10), unit("far", 60, 40), unit("b", 40, 40, "B"))
    first = maneuver.plan(state, state.unit("a"), "F6")
    assert first.contact_kind is None
    far = state.unit("far")
    elsewhere = state.replace_unit(far.moved_to(Pose(far.x - 5.0, far.y, 0.0)))
    assert maneuver.plan(elsewhere, elsewhere.unit("a"), "F6") is first
    # a model put across the path: met on the way (a ram, R002.28), planned again
    across = state.replace_unit(far.moved_to(Pose(10.0, 15.0, 90.0)))
    rammed = maneuver.plan(across, across.unit("a"), "F6")
    assert (rammed.contact_kind, rammed.contact_id) == ("ram", "far")
    assert rammed.final.y < 15.0 - 1.0
    maneuver._NEAR_PLANS.clear()
    assert maneuver.plan(across, across.unit("a"), "F6") == rammed  # as worked out afresh


def test_R002_36_an_attack_declared_through_the_system_is_resolved_as_declared():
    gun = dict(GUNS, attack_dice="5-5-5-5")
    squadron = [unit(f"s{i}", 20 + 3 * i, 10, squadron="sq", weapons=[gun]) for i in range(3)]
    flying = unit("t", 21, 14, "B", movement="aerial", height_level="flying")
    parent = unit("p", 20, 10, weapons=[ACK_ACK, GUNS], squadron="p")
    escort = unit("e", 23, 10, weapons=[ACK_ACK, GUNS], escort_of="p", squadron="escorts")
    cases = (
        (duel({"weapons": [GUNS]}, distance=4.0), "a", "Guns", {}),
        (table(*squadron, unit("t", 23, 16, "B")), "s0", "Guns", {"linked": "s1, s2"}),
        (table(parent, escort, flying), "p", "Ack Ack", {"combined": ["e"]}),
        (table(*(flyer(f"f{i}", 20 + i, 10, squadron="w") for i in range(3)), flying), "f0",
         "Ack Ack", {}),
    )  # fmt: skip
    for state, attacker, weapon, params in cases:
        attack = DW.declare_attack(state, attacker, weapon, "t", params)
        # declared again from its own parameters on its state: the very same attack, so the
        # resolver takes it as declared there rather than declaring it again
        again = combat.declare(state, attacker, weapon, "t", combat.declared_params(attack))
        assert again == attack
        assert resolving.redeclared(state, attack) is attack
        assert len(attack.params["pool"]) == {"a": 1, "s0": 3, "p": 2, "f0": 3}[attacker]
        rolled = DW.resolve_attack(state, attack, SeededDice(3))
        assert rolled == resolving.resolve_declared(state, again, SeededDice(3))
