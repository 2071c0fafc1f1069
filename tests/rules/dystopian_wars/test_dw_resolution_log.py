"""Dystopian Wars: the whole log a player reads for each path of an attack.

Every event line (as the text log renders it, `Event.describe`) and every die recorded
(who rolled, for what): shield and Guardian saves (R002.49, R002.50), Tiny Flyer wings
(R002.52, R002.56), indirect fire (R002.43), auxiliary weapons (R002.41), combined and
linked fire (R002.42, A002.17), re-arming (R002.55), deferred removal (R002.28), the Fleet
Commodore's offer (R002.10), rams (R002.28) and boarding; the refusals by their message;
the odds report's facts and sections for wings, shields and a Guardian aura."""

from __future__ import annotations

import pytest
from dw_builders import ACK_ACK, DW, GUNS, duel, flyer, rock, table, unit

from tactical.dice import ScriptedDice
from tactical.errors import UserError
from tactical.model import FrozenMap
from tactical.rules.dystopian_wars import close_quarters, combat, play, resolving, tracking


def one(weapon: dict, dice: int = 1) -> dict:
    return dict(weapon, attack_dice=f"{dice}-{dice}-{dice}-{dice}")


def declared(attacker, weapon, target, kind, klass, *, linked="[]", combined="[]", **flags):
    counter, indirect = flags.get("counter", False), flags.get("indirect", False)
    rule = "R002.29" if counter else "R002.36"
    return (
        f"declare: attacker={attacker}, weapon={weapon}, weapon_kind={kind}, "
        f"weapon_class={klass}, target={target}, counter={counter}, indirect={indirect}, "
        f"linked={linked}, combined={combined} ({rule})"
    )


def ad(who, target, faces, hits):
    """One line per Attack Die (G.5), then the hits line."""
    lines = []
    for number, face in enumerate(faces, start=1):
        scored = 2 if face == 6 else int(face >= 4)
        lines.append(
            f"roll: who={who}, what=AD vs {target}: die {number}, die=1D6, result={face}, "
            f"hits={scored} (G.5)"
        )
    return lines


def attack(state, attacker, weapon, target, dice, params=None, **how):
    scripted = ScriptedDice(dice)
    declared_attack = combat.declare(state, attacker, weapon, target, params or {})
    resolution = resolving.resolve_declared(state, declared_attack, scripted, **how)
    return lines_and_rolls(resolution, scripted)


def lines_and_rolls(resolution, scripted):
    rolls = [(roll.who, roll.what, roll.result) for roll in scripted.rolls]
    return [event.describe() for event in resolution.events], rolls, resolution


# --------------------------------------------------------------------------- saves


def test_R002_49_a_shield_die_saves_a_hit():
    state = duel(
        {"weapons": [one(GUNS, 2)]},
        {"shield_generator": True, "damage_rating": 1, "critical_rating": 5},
    )
    lines, rolls, resolution = attack(state, "a", "Guns", "t", [5, 5, 4])
    assert lines == [
        declared("a", "Guns", "t", "gunnery", "ordnance"),
        "range: distance=6.0, band=RB1, measured_from=centre, arc=all-round (R002.14)",
        "permission: weapon=gunnery, target_column=surface-naval, band=RB1 (T002.6)",
        "pool: contributions=[['a', 'Guns', 2, 'full']], dice=2 (A002.17)",
        *ad("a", "t", [5, 5], 2),
        "hits: who=a, target=t, dice=2, hit_on=4, hits=2, faces=[5, 5] (G.5)",
        "shield: who=t, roll=4, needed=4, saved=True, weapon=gunnery (R002.49)",
        "damage: target=t, hits=1, damage_rating=1, critical_rating=5, result=damage, "
        "hull_lost=1 (G.5)",
    ]
    assert rolls == [
        ("a", "AD vs t: die 1", 5),
        ("a", "AD vs t: die 2", 5),
        ("t", "Shield die 1", 4),
    ]
    assert (resolution.summary.hits, resolution.summary.saved) == (1, 1)
    assert tracking.hull_lost(resolution.state, "t") == 1


def test_R002_49_no_hit_no_shield_roll():
    state = duel({"weapons": [one(GUNS, 2)]}, {"shield_generator": True})
    lines, rolls, _ = attack(state, "a", "Guns", "t", [1, 2])
    assert [line.split(":")[0] for line in lines[4:]] == ["roll", "roll", "hits", "damage"]
    assert len(rolls) == 2


def test_R002_50_a_guardian_aura_logs_its_generator_and_its_save():
    state = table(
        unit("a", 20, 10, weapons=[one(GUNS, 2)]),
        unit("t", 20, 14, "B", damage_rating=2, critical_rating=4),
        unit("gg", 24, 14, "B", generators="guardian"),
    )
    lines, rolls, resolution = attack(state, "a", "Guns", "t", [6, 3, 5, 4])
    assert (
        lines[1] == "range: distance=2.5, band=RB1, measured_from=centre, arc=all-round (R002.14)"
    )
    assert lines[4] == "guardian-aura: guardian=gg, target=t, save_on=4 (R002.50)"
    assert lines[-3:] == [
        "hits: who=a, target=t, dice=2, hit_on=4, hits=3, faces=[6, 3, 5] (G.5)",
        "guardian-save: who=t, roll=4, needed=4, saved=True, weapon=gunnery (R002.50)",
        "damage: target=t, hits=2, damage_rating=2, critical_rating=4, result=damage, "
        "hull_lost=1 (G.5)",
    ]
    assert rolls[2:] == [
        ("a", "AD vs t: exploding die 1", 5),
        ("t", "Guardian Generator Shield die", 4),
    ]
    assert resolution.summary.saved == 1


# --------------------------------------------------------------------------- Tiny Flyers


def wing_state():
    wing = [flyer(f"f{i}", 20 + i, 14, "B", squadron="w") for i in range(3)]
    return table(unit("a", 20, 10, weapons=[one(ACK_ACK, 3)]), *wing)


WING_HEAD = [
    declared("a", "Ack Ack", "f1", "ack-ack", "auxiliary"),
    "range: distance=3.623106, band=RB1, measured_from=centre, arc=all-round (R002.14)",
    "permission: weapon=ack-ack, target_column=flying, band=RB1 (R002.37)",
    "pool: contributions=[['a', 'Ack Ack', 3, 'full']], dice=3 (A002.17)",
    "line-of-sight: ignores=models and tokens (R002.41)",
]


def test_R002_56_A002_16_five_hits_destroy_two_flyers_and_abort_the_third():
    state = wing_state()
    lines, rolls, resolution = attack(state, "a", "Ack Ack", "f1", [6, 6, 4, 1, 1])
    assert lines[:5] == WING_HEAD
    assert lines[-5:] == [
        "hits: who=a, target=f1, dice=3, hit_on=4, hits=5, faces=[6, 6, 4, 1, 1] (G.5)",
        "wing-hits: target=f1, hits=5, kill_hits=2, destroyed=2, remaining=1, "
        "hits_not_destroying=1, aborted=True (R002.56)",
        "flyer-destroyed: unit=f0, wing=B:w (R002.52)",
        "flyer-destroyed: unit=f1, wing=B:w (R002.52)",
        "abort: wing=B:w (R002.56)",
    ]
    assert rolls[3:] == [
        ("a", "AD vs f1: exploding die 1", 1),
        ("a", "AD vs f1: exploding die 2", 1),
    ]
    summary = resolution.summary
    assert (summary.result, summary.flyers_destroyed, summary.aborted) == ("aborted", 2, True)
    assert (summary.hull_lost, summary.destroyed, summary.saved) == (0, False, 0)
    assert not any(resolution.state.has_unit(f"f{i}") for i in range(3))
    losses = [(loss["id"], loss["how"]) for loss in tracking.get(resolution.state, "losses")]
    assert losses == [("f0", "destroyed"), ("f1", "destroyed"), ("f2", "aborted")]


def test_R002_52_four_hits_destroy_two_flyers_and_the_third_stays():
    lines, _, resolution = attack(wing_state(), "a", "Ack Ack", "f1", [6, 6, 1, 1, 1])
    assert lines[-3:] == [
        "wing-hits: target=f1, hits=4, kill_hits=2, destroyed=2, remaining=1, "
        "hits_not_destroying=0, aborted=False (R002.56)",
        "flyer-destroyed: unit=f0, wing=B:w (R002.52)",
        "flyer-destroyed: unit=f1, wing=B:w (R002.52)",
    ]
    assert (resolution.summary.result, resolution.summary.destroyed) == ("damage", False)
    assert [u.id for u in resolution.state.units] == ["a", "f2"]


def test_R002_52_one_hit_destroys_nothing():
    lines, _, resolution = attack(wing_state(), "a", "Ack Ack", "f1", [5, 1, 1])
    assert lines[-1] == (
        "wing-hits: target=f1, hits=1, kill_hits=2, destroyed=0, remaining=3, "
        "hits_not_destroying=1, aborted=False (R002.56)"
    )
    assert resolution.summary.result == "no effect"


def test_R002_52_a_wing_wiped_out_is_destroyed_not_aborted():
    wing = [flyer(f"f{i}", 20 + i, 14, "B", squadron="w") for i in range(2)]
    state = table(unit("a", 20, 10, weapons=[one(ACK_ACK, 3)]), *wing)
    lines, _, resolution = attack(state, "a", "Ack Ack", "f1", [6, 6, 1, 1])
    assert lines[-3] == (
        "wing-hits: target=f1, hits=4, kill_hits=2, destroyed=2, remaining=0, "
        "hits_not_destroying=0, aborted=False (R002.56)"
    )
    summary = resolution.summary
    assert (summary.result, summary.destroyed, summary.aborted) == ("destroyed", True, False)


def test_R002_52_deferred_flyer_removals_wait_for_the_end_of_the_step():
    lines, _, resolution = attack(wing_state(), "a", "Ack Ack", "f1", [6, 6, 4, 1, 1], defer=True)
    assert lines[-1] == "abort: wing=B:w (R002.56)"
    assert tracking.get(resolution.state, "pending_removals") == ("f0", "f1", "f2")
    assert all(resolution.state.has_unit(f"f{i}") for i in range(3))


def test_R002_55_a_wing_that_dropped_its_bombs_must_rearm():
    wing = [flyer(f"f{i}", 20 + i, 10, wing_type="dive-bomber", squadron="w") for i in range(2)]
    state = table(*wing, unit("t", 20, 12, "B", damage_rating=1, critical_rating=5))
    lines, _, resolution = attack(state, "f0", "Bombs", "t", [1] * 8)
    assert lines[0] == declared("f0", "Bombs", "t", "bomb", "ordnance", combined="['f1']")
    assert lines[3] == (
        "pool: contributions=[['f0', 'Bombs', 4, 'full'], ['f1', 'Bombs', 4, 'combined']], "
        "dice=8 (R002.42)"
    )
    assert lines[-1] == "rearm-needed: wing=A:w (R002.55)"
    wings = tracking.mapping(resolution.state, "wings")
    assert dict(wings["A:w"]) == {"type": "dive-bomber", "fuel": 6, "armed": False}
    with pytest.raises(UserError) as error:
        combat.declare(resolution.state, "f1", "Bombs", "t")
    assert str(error.value) == (
        "'f1''s Wing has made an Ordnance attack: it must Land on a Carrier to be armed again "
        "(R002.55)"
    )


# --------------------------------------------------------------------------- firing options


def test_R002_43_indirect_fire_names_its_spotter():
    wall = rock("wall", 10, 14, 40, 15, "obstructing", "massive")
    state = table(
        unit("a", 20, 10, weapons=[dict(GUNS, attack_dice="4-4-4-4")]),
        unit("t", 20, 35, "B", heading=90.0),
        unit("spot", 30, 30, mars="spotter", squadron="spot"),
        terrain=(wall,),
    )
    lines, _, _ = attack(state, "a", "Guns", "t", [4, 4, 1, 1], {"indirect": True})
    assert lines[:5] == [
        declared("a", "Guns", "t", "gunnery", "ordnance", indirect=True),
        "range: distance=24.5, band=RB4, measured_from=centre, arc=all-round (R002.14)",
        "permission: weapon=gunnery, target_column=surface-naval, band=RB4 (T002.6)",
        "pool: contributions=[['a', 'Guns', 4, 'full']], dice=4 (A002.17)",
        "spotter: spotter=spot (R002.43)",
    ]


def test_R002_42_combined_and_A002_17_linked_pools_are_logged():
    flying = unit("t", 20, 15, "B", movement="aerial", height_level="flying")
    parent = unit("p", 20, 10, weapons=[ACK_ACK, GUNS], squadron="p")
    escort = unit("e", 23, 10, weapons=[ACK_ACK, GUNS], escort_of="p", squadron="escorts")
    state = table(parent, escort, flying)
    lines, _, _ = attack(state, "p", "Ack Ack", "t", [1] * 8, {"combined": ["e"]})
    assert lines[0] == declared("p", "Ack Ack", "t", "ack-ack", "auxiliary", combined="['e']")
    assert lines[3] == (
        "pool: contributions=[['p', 'Ack Ack', 4, 'full'], ['e', 'Ack Ack', 4, 'combined']], "
        "dice=8 (R002.42)"
    )
    gun = dict(GUNS, attack_dice="5-5-5-5")
    squadron = [unit(f"s{i}", 20 + 3 * i, 10, squadron="sq", weapons=[gun]) for i in range(3)]
    linked = table(*squadron, unit("t", 23, 16, "B"))
    lines, _, _ = attack(linked, "s0", "Guns", "t", [1] * 9, {"linked": "s1, s2"})
    assert lines[0] == declared("s0", "Guns", "t", "gunnery", "ordnance", linked="['s1', 's2']")
    assert lines[1] == (
        "range: distance=5.147815, band=RB1, measured_from=centre, arc=all-round (R002.14)"
    )
    assert lines[3] == (
        "pool: contributions=[['s0', 'Guns', 5, 'full'], ['s1', 'Guns', 2, 'half'], "
        "['s2', 'Guns', 2, 'half']], dice=9 (A002.17)"
    )


# --------------------------------------------------------------------------- applying


@pytest.mark.parametrize("defer", [False, True])
def test_R002_28_a_destroyed_model_is_removed_or_waits_for_the_end_of_the_step(defer):
    state = duel(
        {"weapons": [one(GUNS, 2)]}, {"damage_rating": 1, "critical_rating": 5, "hull_points": 1}
    )
    lines, _, resolution = attack(state, "a", "Guns", "t", [5, 5], defer=defer)
    assert lines[-1] == f"destroyed: unit=t, deferred={defer} (G.5)"
    assert resolution.state.has_unit("t") is defer
    assert tracking.get(resolution.state, "pending_removals", ()) == (("t",) if defer else ())
    assert [loss["how"] for loss in tracking.get(resolution.state, "losses")] == ["destroyed"]


def test_R002_10_a_critical_on_the_enemy_commodore_offers_its_side_option_c():
    """A has no commodore (no offer for A); B's commodore was hit: B may re-roll (c)."""
    state = play.setup(
        table(
            unit("a", 20, 10, weapons=[one(GUNS, 2)]),
            unit("t", 20, 14, "B", damage_rating=1, critical_rating=2, hull_points=9,
                 fleet_commodore=True),
        )
    )  # fmt: skip
    lines, _, resolution = attack(state, "a", "Guns", "t", [5, 5, 3, 4])
    assert lines[-4:] == [
        "roll: who=t, what=Critical Hit Table, die=2D6, dice=[3, 4], result=7 (R002.1)",
        "lookup: table=Critical Hit Table, total=7, result=critical-7, "
        "name=Critical Hit Table 7 (G.5)",
        "damage: target=t, hits=2, damage_rating=1, critical_rating=2, result=critical, "
        "hull_lost=2 (G.5)",
        "commodore-offer: side=B, option=c, unit=t (R002.10)",
    ]
    offers = tracking.mapping(resolution.state, "offers")
    assert dict(offers["B"]) == {
        "kind": "critical",
        "option": "c",
        "unit": "t",
        "code": "critical-7",
    }
    assert "A" not in offers
    assert tracking.effects(resolution.state, "t") == ("critical-7",)


# --------------------------------------------------------------------------- rams, boarding


def test_R002_28_a_ram_is_attack_dice_without_saves():
    state = duel({"ram_dice": 3}, {"damage_rating": 1, "critical_rating": 3, "hull_points": 1})
    scripted = ScriptedDice([6, 5, 1, 2, 4])
    resolution = close_quarters.ram(state, state.unit("a"), state.unit("t"), scripted)
    lines, rolls, _ = lines_and_rolls(resolution, scripted)
    assert lines == [
        "ram: rammer=a, target=t, attack_dice=3 (R002.28)",
        *ad("a", "t", [6, 5, 1], 3),
        "hits: who=a, target=t, dice=3, hit_on=4, hits=3, faces=[6, 5, 1] (G.5)",
        "roll: who=t, what=Critical Hit Table, die=2D6, dice=[2, 4], result=6 (R002.1)",
        "lookup: table=Critical Hit Table, total=6, result=critical-6, "
        "name=Critical Hit Table 6 (G.5)",
        "damage: target=t, hits=3, damage_rating=1, critical_rating=3, result=critical, "
        "hull_lost=2 (G.5)",
        "destroyed: unit=t (G.5)",
    ]
    assert rolls[3:] == [
        ("t", "Critical Hit Table (first die)", 2),
        ("t", "Critical Hit Table (second die)", 4),
    ]
    assert not resolution.state.has_unit("t")
    assert [loss["how"] for loss in tracking.get(resolution.state, "losses")] == ["destroyed"]


def test_R002_28_ram_damage_and_criticals_add_to_the_target_record():
    state = duel({"ram_dice": 2}, {"damage_rating": 1, "critical_rating": 3, "hull_points": 5})
    earlier = state.with_rule_state(hull_lost=FrozenMap(t=1))
    damaged = close_quarters.ram(
        earlier, earlier.unit("a"), earlier.unit("t"), ScriptedDice([5, 4])
    )
    assert [event.describe() for event in damaged.events][-1] == (
        "damage: target=t, hits=2, damage_rating=1, critical_rating=3, result=damage, "
        "hull_lost=1 (G.5)"
    )
    assert tracking.hull_lost(damaged.state, "t") == 2
    assert tracking.effects(damaged.state, "t") == ()
    critical = close_quarters.ram(
        state, state.unit("a"), state.unit("t"), ScriptedDice([6, 6, 1, 1])
    )
    assert tracking.hull_lost(critical.state, "t") == 2
    assert tracking.effects(critical.state, "t") == ("critical-2",)
    assert critical.state.has_unit("t")


def test_R002_28_no_ram_dice_or_a_tiny_flyer_target_rolls_nothing():
    plain = duel()
    nothing = close_quarters.ram(plain, plain.unit("a"), plain.unit("t"), ScriptedDice([]))
    assert [event.describe() for event in nothing.events] == [
        "ram: rammer=a, target=t, attack_dice=0 (R002.28)"
    ]
    assert nothing.summary is None and nothing.state is plain
    flying = table(unit("a", 20, 10, ram_dice=2), flyer("f", 20, 14, "B"))
    over = close_quarters.ram(flying, flying.unit("a"), flying.unit("f"), ScriptedDice([]))
    assert [event.describe() for event in over.events] == [
        "ram: rammer=a, target=f, attack_dice=2 (R002.28)"
    ]
    assert over.summary is None


def test_G5_boarding_captures_on_more_successes():
    state = duel({"assault_points": 2}, {"assault_points": 1})
    scripted = ScriptedDice([4, 6, 3])
    resolution = close_quarters.boarding(state, state.unit("a"), state.unit("t"), scripted)
    lines, rolls, _ = lines_and_rolls(resolution, scripted)
    assert lines == [
        "roll: who=a, what=boarding, die=1D6, result=4, success=True (G.5)",
        "roll: who=a, what=boarding, die=1D6, result=6, success=True (G.5)",
        "roll: who=t, what=repel boarders, die=1D6, result=3, success=False (G.5)",
        "boarding: attacker=a, target=t, attacker_successes=2, defender_successes=0, "
        "captured=True (G.5)",
    ]
    assert rolls == [("a", "boarding", 4), ("a", "boarding", 6), ("t", "repel boarders", 3)]
    assert resolution.summary is True
    assert dict(tracking.mapping(resolution.state, "prizes")) == {"t": "A"}
    assert [loss["how"] for loss in tracking.get(resolution.state, "losses")] == ["captured"]


def test_G5_boarding_fails_on_a_tie_and_the_success_number_is_an_option():
    state = duel({"assault_points": 2}, {"assault_points": 1})
    tie = close_quarters.boarding(state, state.unit("a"), state.unit("t"), ScriptedDice([4, 1, 4]))
    assert [event.describe() for event in tie.events][-1] == (
        "boarding: attacker=a, target=t, attacker_successes=1, defender_successes=1, "
        "captured=False (G.5)"
    )
    assert tie.summary is False and tie.state is state
    fives = duel({"assault_points": 1}, {"assault_points": 1}, boarding_hit_on=5)
    result = close_quarters.boarding(fives, fives.unit("a"), fives.unit("t"), ScriptedDice([5, 4]))
    assert [event.get("success") for event in result.events[:2]] == [True, False]


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"range": 1, "arc": 2},
         "an attack takes no arc, range (parameters: linked, combined, indirect, counter)"),
        ({"counter": "yes"}, "counter must be true or false, not 'yes'"),
        ({"indirect": 1}, "indirect must be true or false, not 1"),
        ({"linked": 3}, "linked takes unit ids (a list or a comma-separated string), not 3"),
        ({"combined": [1]},
         "combined takes unit ids (a list or a comma-separated string), not [1]"),
        ({"counter": True}, "a Counterattack can only be made with Auxiliary weapons, not Guns "
         "(gunnery) (R002.29)"),
    ],
)  # fmt: skip
def test_R002_36_a_bad_declaration_says_what_is_wrong(params, message):
    with pytest.raises(UserError) as error:
        combat.declare(duel(), "a", "Guns", "t", params)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("state", "attacker", "weapon", "target", "message"),
    [
        (duel(), "zz", "Guns", "t", "unknown attacker 'zz': the units on this table are a, t"),
        (duel(), "a", "Guns", "zz", "unknown target 'zz': the units on this table are a, t"),
        (table(unit("a", 20, 10), unit("t", 20, 16)), "a", "Guns", "t",
         "'a' and 't' are on the same side"),
        (duel().with_rule_state(prizes=FrozenMap(t="A")), "a", "Guns", "t",
         "a captured model (a Prize) neither attacks nor is attacked (G.5)"),
        (duel().with_rule_state(prizes=FrozenMap(a="B")), "a", "Guns", "t",
         "a captured model (a Prize) neither attacks nor is attacked (G.5)"),
        (duel({"weapons": []}), "a", "Guns", "t",
         "'a' has no weapon 'Guns': it has none (R002.36)"),
        (duel(), "a", "Lasers", "t", "'a' has no weapon 'Lasers': it has Guns (R002.36)"),
    ],
)  # fmt: skip
def test_R002_36_G5_a_refused_attacker_or_target_is_named(state, attacker, weapon, target, message):
    with pytest.raises(UserError) as error:
        combat.declare(state, attacker, weapon, target)
    assert str(error.value) == message


def test_R002_51_a_model_that_launched_a_wing_fires_no_ordnance():
    with pytest.raises(UserError) as error:
        combat.declare(duel(), "a", "Guns", "t", launched=True)
    assert str(error.value) == (
        "'a' Launched a Wing this activation: no gunnery weapons in its Combat Segment (R002.51)"
    )


def test_R002_36_empty_linked_and_combined_mean_none():
    attack_params = combat.declare(duel(), "a", "Guns", "t", {"linked": "", "combined": None})
    assert (attack_params.params["linked"], attack_params.params["combined"]) == ((), ())


# --------------------------------------------------------------------------- odds reports


def _rows(label, rows):
    return [
        {label: outcome, "probability": probability, "percent": percent}
        for outcome, probability, percent in rows
    ]


HITS_ONE_DIE = _rows(
    "hits",
    [(0, "1/2", 50.0), (1, "1/3", 33.3333), (2, "1/12", 8.3333), (3, "1/18", 5.5556),
     (4, "1/72", 1.3889), (5, "1/108", 0.9259), (6, "1/216", 0.463)],
)  # fmt: skip


def test_R002_52_R002_56_a_wing_report_counts_flyers_destroyed_and_aborts():
    wing = [flyer(f"f{i}", 20 + i, 14, "B", squadron="w") for i in range(3)]
    state = table(unit("a", 20, 10, weapons=[one(ACK_ACK, 1)]), *wing)
    report = DW.attack_odds(state, combat.declare(state, "a", "Ack Ack", "f1")).as_dict()
    assert report["facts"] == {
        "distance": 3.623106, "range_band": "RB1", "measured_from": "centre",
        "arc": "all-round", "weapon_kind": "ack-ack", "weapon_class": "auxiliary",
        "attack_dice": 1, "pool": [["a", "Ack Ack", 1, "full"]], "hit_on": 4, "six_hits": 2,
        "exploding": True, "hits_counted_up_to": 6, "expected_hits": "43/54",
        "damage_rating": 1, "critical_rating": 2, "hull_points_left": 1, "shield_dice": 0,
        "guardian": None, "save_on": 4, "target_column": "flying", "wing_size": 3,
        "allowed_by": "R002.37", "indirect": False, "spotter": None, "counter": False,
    }  # fmt: skip
    assert report["distributions"] == [
        {"name": "hits", "spec_id": "G.5", "outcomes": HITS_ONE_DIE},
        {"name": "tiny_flyers_destroyed", "spec_id": "R002.52", "outcomes": _rows(
            "destroyed", [(0, "5/6", 83.3333), (1, "5/36", 13.8889), (2, "5/216", 2.3148),
                          (3, "1/216", 0.463)])},
        {"name": "aborted", "spec_id": "R002.56", "outcomes": _rows(
            "aborted", [(False, "107/108", 99.0741), (True, "1/108", 0.9259)])},
    ]  # fmt: skip


def test_R002_49_a_shielded_target_report_has_the_hits_saved():
    state = duel(
        {"weapons": [one(GUNS, 1)]},
        {"shield_generator": True, "damage_rating": 1, "critical_rating": 5},
    )
    report = DW.attack_odds(state, combat.declare(state, "a", "Guns", "t")).as_dict()
    facts = report["facts"]
    assert (facts["shield_dice"], facts["guardian"], facts["save_on"]) == (1, None, 4)
    assert (facts["hull_points_left"], facts["hits_counted_up_to"]) == (4, 6)
    sections = {section["name"]: section for section in report["distributions"]}
    assert list(sections) == ["hits", "result", "hull_points_lost", "destroyed", "hits_saved"]
    assert sections["hits"]["outcomes"] == HITS_ONE_DIE
    assert sections["result"]["outcomes"] == _rows(
        "result", [("no effect", "2/3", 66.6667), ("damage", "35/108", 32.4074),
                   ("critical", "1/108", 0.9259)])  # fmt: skip
    assert sections["hits_saved"] == {
        "name": "hits_saved", "spec_id": "R002.49",
        "outcomes": _rows("saved", [(0, "3/4", 75.0), (1, "1/4", 25.0)]),
    }  # fmt: skip


def test_R002_50_a_guarded_target_report_cites_the_aura():
    state = table(
        unit("a", 20, 10, weapons=[one(GUNS, 1)]),
        unit("t", 20, 14, "B", damage_rating=2, critical_rating=4),
        unit("gg", 24, 14, "B", generators="guardian"),
    )
    report = DW.attack_odds(state, combat.declare(state, "a", "Guns", "t")).as_dict()
    facts = report["facts"]
    assert (facts["distance"], facts["shield_dice"], facts["guardian"]) == (2.5, 0, "gg")
    assert (facts["hits_counted_up_to"], facts["expected_hits"]) == (5, "19/24")
    sections = {section["name"]: section for section in report["distributions"]}
    assert sections["hits_saved"]["spec_id"] == "R002.50"
    assert sections["hits_saved"]["outcomes"] == _rows(
        "saved", [(0, "3/4", 75.0), (1, "1/4", 25.0)]
    )
    assert sections["hull_points_lost"]["outcomes"] == _rows(
        "hull_points", [(0, "7/8", 87.5), (1, "5/48", 10.4167), (2, "1/48", 2.0833)]
    )


# --------------------------------------------------------------------------- firing options refused

ONE_GUN = {"name": "Gun", "kind": "gunnery", "arc": "all-round", "attack_dice": "2-2-2-2"}


def squadron(*positions):
    return [
        unit(f"A{i}", x, y, "A", squadron="sq", commander=(i == 0), weapons=[ONE_GUN])
        for i, (x, y) in enumerate(positions)
    ]


def refused_with(state, attacker, weapon, target, params):
    with pytest.raises(UserError) as error:
        combat.declare(state, attacker, weapon, target, params)
    return str(error.value)


def test_R002_26_R002_27_out_of_command_or_broken_models_use_no_firing_option():
    state = table(*squadron((10, 10), (40, 10), (42, 10)), unit("t", 41, 14, "B"))
    assert refused_with(state, "A1", "Gun", "t", {"linked": ["A2"]}) == (
        "'A1' is out of command: it cannot use linked fire (no Firing Option) (R002.26)"
    )
    assert refused_with(state, "A2", "Gun", "t", {"linked": ["A1"]}) == (
        "'A2' is out of command: it cannot use linked fire (no Firing Option) (R002.26)"
    )
    flying = unit("t", 20, 15, "B", movement="aerial", height_level="flying")
    parent = unit("p", 20, 10, weapons=[ACK_ACK, GUNS], squadron="p")
    escort = unit("e", 23, 10, weapons=[ACK_ACK, GUNS], escort_of="p", squadron="escorts")
    for broken, who in (("A:escorts", "e"), ("A:p", "p")):
        fleet = table(parent, escort, flying).with_rule_state(broken=(broken,))
        assert refused_with(fleet, "p", "Ack Ack", "t", {"combined": ["e"]}) == (
            f"'{who}' is broken: it cannot use combined fire (no Firing Option) (R002.27)"
        )
    wall = rock("wall", 10, 14, 40, 15, "obstructing", "massive")
    gun = dict(GUNS, attack_dice="4-4-4-4")
    indirect = table(
        unit("a", 20, 10, weapons=[gun], squadron="x"),
        unit("t", 20, 35, "B", heading=90.0),
        unit("spot", 30, 30, mars="spotter", squadron="spot"),
        terrain=(wall,),
    ).with_rule_state(broken=("A:x",))
    assert refused_with(indirect, "a", "Guns", "t", {"indirect": True}) == (
        "'a' is broken: it cannot use indirect fire (no Firing Option) (R002.27)"
    )


def test_R002_42_A002_17_linked_and_combined_models_are_checked():
    flying = unit("t", 20, 15, "B", movement="aerial", height_level="flying")
    parent = unit("p", 20, 10, weapons=[ACK_ACK, GUNS], squadron="p")
    guns_only = unit("e", 23, 10, weapons=[GUNS], escort_of="p", squadron="escorts")
    assert refused_with(
        table(parent, guns_only, flying), "p", "Ack Ack", "t", {"combined": ["e"]}
    ) == ("'e' has no ack-ack weapon to combine (R002.42)")
    assert refused_with(
        table(parent, guns_only, flying), "p", "Ack Ack", "t", {"combined": ["zz"]}
    ) == ("unknown combined model 'zz': the units on this table are p, e, t")
    pair = table(*squadron((10, 10), (14, 10)), unit("t", 12, 14, "B"))
    assert refused_with(pair, "A0", "Gun", "t", {"linked": ["zz"]}) == (
        "unknown linked model 'zz': the units on this table are A0, A1, t"
    )
    other_gun = [
        unit("A0", 10, 10, "A", squadron="sq", commander=True, weapons=[ONE_GUN]),
        unit("A1", 14, 10, "A", squadron="sq", weapons=[GUNS]),
    ]
    assert refused_with(
        table(*other_gun, unit("t", 12, 14, "B")), "A0", "Gun", "t", {"linked": ["A1"]}
    ) == ("'A1' has no Gun to link (A002.17)")


def test_R002_43_GEO002_7_reach_refusals_say_where_the_target_is():
    gun = dict(GUNS, attack_dice="4-4-4-4")
    near = table(
        unit("a", 20, 10, weapons=[gun]),
        unit("t", 20, 20, "B", heading=90.0),
        unit("spot", 30, 18, mars="spotter", squadron="spot"),
    )
    assert refused_with(near, "a", "Guns", "t", {"indirect": True}) == (
        "Indirect Fire needs the target in Range Band 3 or 4, and 't' is in RB2 (R002.43)"
    )
    wall = rock("wall", 10, 14, 40, 15, "obstructing", "massive")
    hidden = table(
        unit("a", 20, 10, weapons=[gun]), unit("t", 20, 35, "B", heading=90.0), terrain=(wall,)
    )
    assert refused_with(hidden, "a", "Guns", "t", {"indirect": True}) == (
        "Indirect Fire at 't' needs a Spotter or a Reconnaissance Plane of the fleet within 32\" "
        "of it with line of sight (R002.43)"
    )
    assert refused_with(hidden, "a", "Guns", "t", {}) == (
        "no line of sight from 'a' to 't': blocked by 'wall' (GEO002.10)"  # named by the session
    )
    short = table(
        unit("a", 20, 10, weapons=[dict(GUNS, attack_dice="1-0-0-0")]), unit("t", 20, 30, "B")
    )
    assert refused_with(short, "a", "Guns", "t", {}) == (
        "'t' is out of range of 'a''s Guns: 18.50\" is RB3 and the weapon has no Attack Dice "
        "there (GEO002.7)"
    )
    far = table(unit("a", 2, 2, weapons=[GUNS]), unit("t", 70, 46, "B"))
    assert refused_with(far, "a", "Guns", "t", {}) == (
        "'t' is out of range of 'a''s Guns: 79.77\" is beyond Range Band 4 and the weapon has "
        "no Attack Dice there (GEO002.7)"
    )


def test_G5_the_system_re_declares_an_attack_on_the_state_it_resolves_it_on():
    state = duel({"weapons": [one(GUNS, 2)]}, {"damage_rating": 1, "critical_rating": 5})
    attack = combat.declare(state, "a", "Guns", "t", {"linked": ""})
    direct = resolving.resolve_declared(state, attack, ScriptedDice([5, 1]))
    via_system = DW.resolve_attack(state, attack, ScriptedDice([5, 1]))
    assert [e.describe() for e in via_system.events] == [e.describe() for e in direct.events]
    assert via_system.summary == direct.summary
    moved = table(unit("a", 20, 10, weapons=[one(GUNS, 2)]), unit("t", 20, 60, "B"), height=72)
    with pytest.raises(UserError) as error:
        DW.resolve_attack(moved, attack, ScriptedDice([5, 1]))
    assert error.value.spec_id == "GEO002.7"


# --------------------------------------------------------------------------- more paths


def test_R002_12_an_armoured_broadside_measures_from_the_edge():
    from tactical.geometry.shapes import RectBase

    broadside = {
        "name": "Broadside", "kind": "gunnery", "arc": "starboard broadside",
        "attack_dice": "1-1-0-0",
    }  # fmt: skip
    state = table(
        unit("a", 20, 10, movement="armoured", base=RectBase(4, 4), weapons=[broadside]),
        unit("t", 29.5, 10, "B"),
    )
    lines, _, _ = attack(state, "a", "Broadside", "t", [1])
    assert lines[1] == (
        "range: distance=7.0, band=RB1, measured_from=edge, arc=starboard broadside (R002.12)"
    )


def test_R002_39_a_medium_obscured_flyer_is_hit_only_on_5_up():
    from dw_builders import ROCKETS

    state = duel({"weapons": [one(ROCKETS)]}, {"movement": "aerial", "height_level": "obscured"})
    lines, _, resolution = attack(state, "a", "Rockets", "t", [4])
    assert lines[2] == "permission: weapon=rocket, target_column=obscured, band=RB1 (R002.37)"
    assert lines[4] == "threshold: target=t, hit_on=5 (R002.39)"
    assert resolution.summary.hits == 0
    small = duel(
        {"weapons": [one(ROCKETS)]},
        {"size": "small", "movement": "aerial", "height_level": "obscured"},
    )
    lines, _, _ = attack(small, "a", "Rockets", "t", [4])
    assert not any(line.startswith("threshold") for line in lines)


@pytest.mark.parametrize(("exploding", "dice", "hits"), [(True, [6, 6, 1], 4), (False, [6], 2)])
def test_R002_28_a_single_ram_die_explodes_as_the_option_says(exploding, dice, hits):
    state = duel(
        {"ram_dice": 1}, {"damage_rating": 2, "critical_rating": 9}, ad_exploding=exploding
    )
    scripted = ScriptedDice(dice)
    resolution = close_quarters.ram(state, state.unit("a"), state.unit("t"), scripted)
    assert len(scripted.rolls) == len(dice)
    assert (resolution.summary.hits, resolution.summary.hull_lost) == (hits, 1)
    assert [e.describe() for e in resolution.events][-1] == (
        f"damage: target=t, hits={hits}, damage_rating=2, critical_rating=9, result=damage, "
        "hull_lost=1 (G.5)"
    )


def test_R002_52_the_flyer_hit_goes_first_when_the_formation_allows_it():
    lines, _, resolution = attack(wing_state(), "a", "Ack Ack", "f2", [6, 6, 1, 1, 1])
    assert lines[-2:] == [
        "flyer-destroyed: unit=f2, wing=B:w (R002.52)",
        "flyer-destroyed: unit=f0, wing=B:w (R002.52)",
    ]
    assert [u.id for u in resolution.state.units] == ["a", "f1"]


def test_R002_52_flyers_already_waiting_for_removal_are_not_hit_again():
    state = wing_state()
    first = attack(state, "a", "Ack Ack", "f1", [6, 6, 1, 1, 1], defer=True)[2].state
    lines, _, second = attack(first, "a", "Ack Ack", "f2", [4, 5, 1], defer=True)
    assert lines[-1] == "flyer-destroyed: unit=f2, wing=B:w (R002.52)"
    assert tracking.get(second.state, "pending_removals") == ("f0", "f1", "f2")


def test_R002_55_a_wing_keeps_its_fuel_when_it_loses_its_bombs():
    wing = [flyer(f"f{i}", 20 + i, 10, wing_type="dive-bomber", squadron="w") for i in range(2)]
    fuelled = FrozenMap({"A:w": FrozenMap(type="dive-bomber", fuel=3)})
    state = table(*wing, unit("t", 20, 12, "B")).with_rule_state(wings=fuelled)
    resolution = attack(state, "f0", "Bombs", "t", [1] * 8)[2]
    wings = tracking.mapping(resolution.state, "wings")
    assert dict(wings["A:w"]) == {"type": "dive-bomber", "fuel": 3, "armed": False}


def test_G5_hull_points_lost_add_up():
    state = duel({"weapons": [one(GUNS, 2)]}, {"damage_rating": 1, "critical_rating": 5})
    hurt = state.with_rule_state(hull_lost=FrozenMap(t=1))
    resolution = attack(hurt, "a", "Guns", "t", [5, 5])[2]
    assert tracking.hull_lost(resolution.state, "t") == 2
