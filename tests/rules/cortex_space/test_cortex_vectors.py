"""The worked examples of seed 003 (SPEC §4.18, X003.1-X003.11), each its own test.

Dice are scripted in consumption order (G.1). A Cortex roll is one composite die per
pool, so a script gives roll totals as the source examples do ("Starbuck rolls a 20").
"""

from __future__ import annotations

from cortex_builders import BATTLESTAR, RAIDER, VIPER, table, unit, with_stats

from tactical.dice import ScriptedDice, StepDie
from tactical.model import FrozenMap
from tactical.rules.base import Action
from tactical.rules.cortex_space import (
    attack_pools,
    collisions,
    combat,
    gunnery,
    manoeuvres,
    missiles,
    play,
    sequence,
    tracker,
    units,
)
from tactical.rules.cortex_space.damage import absorb, hit_multiple, receiver_of
from tactical.rules.cortex_space.rolls import outcome, pool_die, roll_pool, skill_pool
from tactical.rules.cortex_space.tables import STATION_MODIFIER, fire_linked_steps, to_hit_steps

STARBUCK = with_stats(VIPER, pilot="d12", dogfighting="d6")


def _steps(events, roll="attack"):
    return {e.get("source"): e.get("steps") for e in events
            if e.kind == "modifier" and e.get("roll") == roll}  # fmt: skip


def test_X003_1_starbuck_wins_the_advantage_extraordinarily():
    """R003.10-R003.14, R003.6: 20 vs 7 -> Advantage + Initiative, +-2 steps, +1 next turn."""
    state = table(unit("starbuck", 10, 10, "A", **STARBUCK), unit("raider", 20, 10, "B", **RAIDER))
    result = manoeuvres.resolve_advantage(state, "starbuck", "raider", ScriptedDice([20, 7]))
    assert result.summary.holder == "starbuck" and result.summary.steps == 2
    after = result.state
    assert tracker.table(after, tracker.INITIATIVE) == {"starbuck": 20, "raider": 7}
    assert sequence.current_group(after) == ("starbuck",)  # Starbuck acts first
    mine = attack_pools.dogfight_modifier(after, "starbuck", "raider")
    theirs = attack_pools.dogfight_modifier(after, "raider", "starbuck")
    assert (mine.steps, mine.spec_id) == (2, "R003.14")
    assert (theirs.steps, theirs.spec_id) == (-2, "R003.14")
    attack = combat.declare(after, "starbuck", "autocannons", "raider")
    plan = gunnery.plan_gun(after, attack)
    assert plan.roll.pool.steps == 2
    next_turn = tracker.next_turn(after)
    roll = manoeuvres.advantage_roll(
        next_turn, next_turn.unit("starbuck"), next_turn.unit("raider"), {"crew_variant": "B"}
    )
    assert [(m.steps, m.spec_id) for m in roll.modifiers] == [(1, "R003.12")]


def test_X003_2_nugget_collides_with_a_raider():
    """R003.15-R003.18: Medium 7 + Very High 8 + toward 4 = 19 (HEROIC); roll 9 -> 5/5."""
    nugget = unit("nugget", 10, 10, "A", heading=0, **with_stats(VIPER, speed=3))
    raider = unit("raider", 10, 11.2, "B", heading=180, **RAIDER)
    state = table(nugget, raider)
    result = collisions.resolve_avoid(
        state, "nugget", "raider", ScriptedDice([9]), other_rolls=False
    )  # A003.12
    difficulty = next(e for e in result.events if e.kind == "collision-difficulty")
    assert (difficulty.get("size"), difficulty.get("base")) == ("Medium", 7)
    assert (difficulty.get("speed"), difficulty.get("speed_modifier")) == ("Very High", 8)
    assert (difficulty.get("direction"), difficulty.get("direction_modifier")) == ("toward", 4)
    assert difficulty.get("difficulty") == 19
    summary = result.summary
    assert not summary.avoided
    assert (summary.pilot_stun, summary.pilot_wound) == (5, 5)
    assert (
        result.state.unit("nugget").stats["stun"],
        result.state.unit("nugget").stats["wound"],
    ) == (5, 5)


def _wing(n: int, gunnery: str = "d6") -> dict:
    members = [{"id": f"viper-{i}", "pilot": "d8", "gunnery": "d8"} for i in range(1, n + 1)]
    members[-1] = {"id": f"viper-{n}", "pilot": "d6", "gunnery": gunnery}  # the less skilled
    return with_stats(VIPER, members=members)


def test_X003_3_wing_of_six_attacks_a_tanker():
    """R003.32, R003.7: attack 15 at +5, defense 7; d8 +2 steps = d12 rolls 7 -> 4 Stun, 11."""
    tanker = with_stats(RAIDER, agility="d6", pilot="d4", life_points=40, weapons=[])
    state = table(unit("wing", 10, 10, "A", **_wing(6)), unit("tanker", 15, 10, "B", **tanker))
    attack = combat.declare(state, "wing", "autocannons", "tanker")
    assert attack.params["fighters"] == 6
    result = combat.resolve(state, attack, ScriptedDice([15, 7, 7]))
    assert _steps(result.events) == {"wing of 6": 5}
    verdict = next(e for e in result.events if e.kind == "attack")
    assert (verdict.get("hit"), verdict.get("extraordinary"), verdict.get("basic")) == (
        True, True, 8)  # fmt: skip
    die = next(e for e in result.events if e.kind == "damage-die")
    assert (die.get("die"), die.get("steps")) == ("d12", 2)
    assert (result.summary.stun, result.summary.wound) == (4, 11)


def test_X003_4_attacking_a_wing_of_six():
    """R003.33: the attacker gets +3 steps against a wing of six."""
    state = table(unit("raider", 10, 10, "B", **RAIDER), unit("wing", 15, 10, "A", **_wing(6)))
    plan = gunnery.plan_gun(state, combat.declare(state, "raider", "autocannons", "wing"))
    assert _steps(plan.events) == {"target wing of 6": 3}
    assert plan.roll.pool.steps == 3


def test_X003_5_galactica_batteries_against_a_basestar():
    """R003.35, R003.36, A003.3: two batteries of 6 at +5; 14 vs 9 -> d12+d4, 3/2 Basic;
    13 vs 6 (margin 7) -> extraordinary -> d12+d6, 4/3 Basic."""
    crewed = with_stats(
        BATTLESTAR,
        agility="d4",
        gunnery="d8",
        crew=[{"station": "officer", "name": "Dualla"}, {"station": "officer", "name": "Kelly"}],
    )
    basestar = with_stats(BATTLESTAR, agility="d4", pilot="d6", weapons=[])
    state = table(
        unit("galactica", 10, 24, "A", **crewed),
        unit("basestar", 40, 24, "B", diameter=4, **basestar),
    )
    first = combat.declare(
        state, "galactica", "railguns", "basestar", {"battery": 6, "gunner": "Dualla"}
    )
    one = combat.resolve(state, first, ScriptedDice([13, 6, 10]))
    second = combat.declare(
        one.state, "galactica", "railguns", "basestar", {"battery": 6, "gunner": "Kelly"}
    )
    two = combat.resolve(one.state, second, ScriptedDice([14, 9, 10]))
    for result in (one, two):
        assert _steps(result.events) == {"battery of 6": 5}
    dice_one = next(e for e in one.events if e.kind == "damage-die")
    dice_two = next(e for e in two.events if e.kind == "damage-die")
    assert dice_one.get("die") == "d12+d6" and dice_two.get("die") == "d12+d4"
    basic_one = next(e for e in one.events if e.kind == "basic-damage")
    basic_two = next(e for e in two.events if e.kind == "basic-damage")
    assert (basic_one.get("stun"), basic_one.get("wound")) == (4, 3)
    assert (basic_two.get("stun"), basic_two.get("wound")) == (3, 2)
    assert one.summary.extraordinary == 1 and two.summary.extraordinary == 0
    assert tracker.fired(two.state, "galactica", "railguns") == 12


def test_X003_6_kat_cannot_distract_the_missile():
    """R003.8, R003.39, R003.41, R003.42: capital range -> 1 turn; out-flying needs 15 in one
    roll; the 3rd action (opposed) at -2 steps: 8 < 10 -> the missile stays on Kat."""
    kat = unit("kat", 10, 10, "A", heading=90, **VIPER)
    raider = unit("raider", 30, 10, "B", heading=270, **RAIDER)
    decoy = unit("decoy", 11.5, 10, "B", heading=90, **RAIDER)
    state = table(kat, raider, decoy)
    state = state.with_rule_state(**{tracker.LOCKS: (("raider", "missiles", "kat"),)})
    fired = missiles.resolve_fire(state, "raider", "missiles", "kat")
    flight = next(e for e in fired.events if e.kind == "flight")
    assert (flight.get("band"), flight.get("turns")) == ("capital", 1)
    # action 1: Kat closes in on the other raider (a move, no roll)
    state = tracker.count_action(fired.state, "kat")
    result = missiles.resolve_distract(
        state, "kat", "missile-1", "decoy", ScriptedDice([16, 8, 10])
    )
    avoid = _steps(result.events, "avoid collision")
    contest = _steps(result.events, "distract")
    assert avoid == {"action 2 this turn": -1}
    assert contest == {"action 3 this turn": -2}
    assert result.summary.result == "kept" and result.summary.target == "kat"
    assert tracker.actions_taken(result.state, "kat") == 3
    # out-flying in the one turn left: 15 in a single roll (a FORMIDABLE standard action)
    outfly = missiles.resolve_out_fly(state, "kat", "missile-1", ScriptedDice([14]))
    assert outfly.summary.progress == 14 and not outfly.summary.evaded
    impact = play.start_turn(result.state, 2, ScriptedDice([6]))
    assert impact.summary[0][0] == "kat"
    assert missiles.missiles_in_flight(impact.state) == ()


def test_X003_7_flat_top_in_the_point_defense_kill_zone():
    """R003.43, R003.44: 11 < 19 -> Basic 8 (4/4); PD d12 +1 = d12+d2 rolls 9 -> 4 Stun, 13."""
    state = table(
        unit("galactica", 10, 24, "A", **BATTLESTAR),
        unit("flat-top", 18, 24, "B", **with_stats(VIPER, life_points=30)),
    )
    attack = combat.declare(state, "galactica", "point-defense", "flat-top")
    result = combat.resolve(state, attack, ScriptedDice([11, 9]))
    die = next(e for e in result.events if e.kind == "damage-die")
    assert (die.get("die"), die.get("steps")) == ("d12+d2", 1)
    assert result.summary.failed and not result.summary.botch
    assert (result.summary.stun, result.summary.wound) == (4, 13)


def test_X003_8_six_fire_linked_weapons():
    """R003.45: six fire-linked weapons attack with one roll at +2 steps."""
    assert fire_linked_steps(6) == 2
    linked = with_stats(
        VIPER, weapons=[{"name": "guns", "damage": "d8", "linked": 6, "range": "skirmish"}]
    )
    state = table(unit("a", 10, 10, "A", **linked), unit("b", 15, 10, "B", **RAIDER))
    result = combat.resolve(state, combat.declare(state, "a", "guns", "b"), ScriptedDice([3, 9]))
    assert _steps(result.events) == {"6 fire-linked": 2}
    assert sum(1 for e in result.events if e.kind == "attack") == 1


def test_X003_9_starbuck_on_foot_shoots_a_raider():
    """R003.57, R003.58: personal vs planetcraft: +1 step; Raider LP 14 -> 28, W2/S2 -> W4/S4."""
    assert to_hit_steps("personal", "planetcraft") == 1
    pistol = {
        "scale": "personal",
        "agility": "d8",
        "gunnery": "d8",
        "life_points": 10,
        "weapons": [{"name": "pistol", "damage": "d6", "range": "skirmish"}],
    }
    raider = with_stats(RAIDER, armor_wound=2, armor_stun=2)
    state = table(unit("starbuck", 10, 10, "A", **pistol), unit("raider", 12, 10, "B", **raider))
    plan = gunnery.plan_gun(state, combat.declare(state, "starbuck", "pistol", "raider"))
    assert _steps(plan.events) == {"personal vs planetcraft": 1}
    from tactical.rules.cortex_space.damage import scaled_defenses

    assert scaled_defenses(14, 2, 2, "personal", "planetcraft") == (28, 4, 4)
    receiver = receiver_of(state.unit("raider"), units.settings(state))
    stun, wound, _ = absorb(10, 12, "personal", receiver)
    assert (stun, wound) == (6, 8)  # 10-4 and 12-4, counted on the Raider's 28 LP
    assert hit_multiple("personal", receiver) == 2
    # the reading before the revision: (10-4)/2 and (12-4)/2 on the Raider's own 14
    old = receiver_of(state.unit("raider"), units.settings(table(scale_reading="damage-divided")))
    assert absorb(10, 12, "personal", old)[:2] == (3, 4)
    assert hit_multiple("personal", old) == 1


def test_X003_10_raider_hits_starbuck_on_foot():
    """R003.58 / A003.31: planetcraft vs personal: Basic x2 and the d8 x2 added to Wound."""
    person = {"scale": "personal", "agility": "d6", "pilot": "d4", "life_points": 60}
    state = table(unit("raider", 10, 10, "B", **RAIDER), unit("starbuck", 12, 10, "A", **person))
    attack = combat.declare(state, "raider", "autocannons", "starbuck")
    result = combat.resolve(state, attack, ScriptedDice([12, 7, 5]))
    # Basic 5 -> 3 Stun / 2 Wound, d6 rolls 5 -> Wound 7; all doubled
    assert (result.summary.stun, result.summary.wound) == (6, 14)
    scale = next(e for e in result.events if e.kind == "scale")
    assert (scale.get("multiplies"), scale.get("factor")) == ("damage", 2)


def test_X003_11_second_draft_station_roll():
    """R003.51, T003.10: 2 (botch), 10, 11, 17, 18 vs HARD 11 -> -1, 0, +1, +1, +2."""
    pool = skill_pool(("willpower", StepDie(5)), ("discipline", StepDie(5)))
    assert pool_die((10, 10)).values.count(2) == 1
    steps = []
    for total in (2, 10, 11, 17, 18):
        roll = roll_pool(pool, ScriptedDice([total]))
        steps.append(STATION_MODIFIER[outcome(roll.total, roll.botch, 11)])
    assert steps == [-1, 0, 1, 1, 2]
    ship = with_stats(
        BATTLESTAR, crew=[{"station": "co", "name": "Adama", "attribute": "d10", "skill": "d10"}]
    )
    state = table(unit("galactica", 10, 10, "A", **ship), crew_variant="B")
    for total, expected in zip((2, 10, 11, 17, 18), (-1, 0, 1, 1, 2), strict=True):
        action = Action("station-roll", "galactica", FrozenMap(crew="Adama", apply_to="attack"))
        result = play.apply(state, action, ScriptedDice([total]))
        lookup = next(e for e in result.events if e.kind == "lookup")
        assert lookup.get("steps") == expected
