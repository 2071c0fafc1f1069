"""Cortex R003.58 / T003.14: a smaller-scale attacker's hit counts whole against the
target's Life Points and Armor times k (it does not divide its own damage); option
`scale_reading` ("damage-divided", before) keeps the earlier reading for recorded games."""

from __future__ import annotations

from fractions import Fraction

from cortex_builders import BATTLESTAR, SYSTEM, VIPER, table, unit, with_stats

from tactical.dice import ScriptedDice, enumerate_outcomes
from tactical.rules.cortex_space import combat, units
from tactical.rules.cortex_space.damage import Target, Track, deliver, receiver_of, target_of
from tactical.rules.cortex_space.units import OPTION_FIELDS, vessel
from tactical.rules.schema import earlier_readings

# the catalogue's basestar (spacecraft, LP 40, Armor W2/S2) and an armoured Viper
BASESTAR = {
    "scale": "spacecraft",
    "agility": "d4",
    "strength": "d12+d8",
    "vitality": "d12",
    "alertness": "d10",
    "pilot": "d6",
    "gunnery": "d8",
    "life_points": 40,
    "armor_wound": 2,
    "armor_stun": 2,
    "speed": 5,
    "ftl": True,
    "weapons": [{"name": "guns", "kind": "gun", "damage": "d12", "count": 12, "range": "capital"}],
}
ARMOURED_VIPER = with_stats(VIPER, armor_wound=2, armor_stun=2)
# attack 19 against defense 9: Basic 10 -> 5 Stun / 5 Wound, the d8 rolls 1 -> 6 Wound
VIPER_HIT = [19, 9, 1]


def _viper_on_basestar(reading=None, **basestar):
    options = {} if reading is None else {"scale_reading": reading}
    return table(
        unit("viper", 10, 10, "A", **ARMOURED_VIPER),
        unit("basestar", 12, 10, "B", diameter=4, **with_stats(BASESTAR, **basestar)),
        **options,
    )


def _shoot(state, attacker="viper", weapon="autocannons", target="basestar", rolls=VIPER_HIT):
    attack = combat.declare(state, attacker, weapon, target)
    return combat.resolve(state, attack, ScriptedDice(list(rolls)))


def _event(resolution, kind):
    return next(e for e in resolution.events if e.kind == kind)


def test_R003_58_a_vipers_hit_on_a_basestar_counts_whole_on_80_life_points():
    """5 Stun / 6 Wound less Armor x2 (4/4) -> 1 Stun and 2 Wound of the basestar's 40 x 2."""
    resolution = _shoot(_viper_on_basestar())
    damage = _event(resolution, "damage")
    assert (damage.get("stun"), damage.get("wound"), damage.get("life_points")) == (1, 2, 80)
    assert (resolution.summary.stun, resolution.summary.wound) == (1, 2)
    armor = _event(resolution, "armor")
    assert (armor.get("stun_armor"), armor.get("wound_armor")) == (4, 4)
    stats = resolution.state.unit("basestar").stats
    assert (stats["wound"], stats["stun"], stats["lp_multiple"]) == (2, 1, 2)
    card = vessel(resolution.state.unit("basestar"))
    assert (card.life_points, card.printed_life_points, card.wound) == (80, 40, 2)


def test_R003_58_option_damage_divided_plays_the_earlier_reading_exactly():
    """The value a game recorded before the revision replays with: 1 Stun and 1 Wound on 40
    (each divided by 2, rounded half up), the basestar's stats as they were written then."""
    assert earlier_readings(OPTION_FIELDS, {}) == {"scale_reading": "damage-divided"}
    assert units.settings(table())["scale_reading"] == "target-multiplied"
    state = _viper_on_basestar("damage-divided")
    resolution = _shoot(state)
    damage = _event(resolution, "damage")
    assert (damage.get("stun"), damage.get("wound"), damage.get("life_points")) == (1, 1, 40)
    assert (resolution.summary.stun, resolution.summary.wound) == (1, 1)
    assert resolution.state.unit("basestar").stats == {
        **state.unit("basestar").stats,
        "wound": 1,
        "stun": 1,
    }
    new = _shoot(_viper_on_basestar())
    # the same rolls and the same events up to the damage: only where the hit counts differs
    kinds = [e.kind for e in resolution.events]
    assert kinds == [e.kind for e in new.events]
    cut = kinds.index("damage")
    assert resolution.events[:cut] == new.events[:cut]


def test_R003_26_the_battle_damage_roll_adds_the_wound_as_counted_on_80():
    """At 20 of 40 Wound the next hit rolls battle damage (R003.25): d10 9 + the Viper's 2
    Wound (of 80) = 11, a weapon damaged; the earlier reading added 1: 10, sublight."""
    resolution = _shoot(_viper_on_basestar(wound=20), rolls=[*VIPER_HIT, 9])
    total = _event(resolution, "battle-damage-total")
    assert (total.get("roll"), total.get("wound"), total.get("total")) == (9, 2, 11)
    assert resolution.summary.effects == ("weapon damaged",)
    stats = resolution.state.unit("basestar").stats
    assert (stats["wound"], stats["lp_multiple"]) == (42, 2)  # 20 of 40 are 40 of 80
    old = _shoot(_viper_on_basestar("damage-divided", wound=20), rolls=[*VIPER_HIT, 9])
    total = _event(old, "battle-damage-total")
    assert (total.get("wound"), total.get("total")) == (1, 10)
    assert old.summary.effects == ("sublight engines damaged",)
    assert old.state.unit("basestar").stats["wound"] == 21


def test_R003_58_exact_odds_of_a_vipers_attack_on_a_basestar():
    """The Wound the Viper's attack deals: E = 14567/4800 of 80 LP (8179/4800 of 40 under the
    earlier reading, which is the same distribution halved, rounded half up); at half its
    Life Points the basestar's weapon is damaged with 16391/64000 (3263/19200 before)."""

    def report(reading=None, **basestar):
        state = _viper_on_basestar(reading, **basestar)
        return combat.attack_odds(
            state, combat.declare(state, "viper", "autocannons", "basestar"), "cortex-space"
        )

    new, old = report().section("wound"), report("damage-divided").section("wound")
    assert new.distribution.expected() == Fraction(14567, 4800)
    assert old.distribution.expected() == Fraction(8179, 4800)
    halved = new.distribution.map(lambda wound: (wound + 1) // 2)
    assert dict(halved.sorted()) == dict(old.distribution.sorted())
    worn = report(wound=20).section("battle_damage").distribution
    assert worn.probability(("weapon damaged",)) == Fraction(16391, 64000)
    worn_old = report("damage-divided", wound=20).section("battle_damage").distribution
    assert worn_old.probability(("weapon damaged",)) == Fraction(3263, 19200)
    assert worn_old.probability(("FTL engine destroyed",)) == 0
    assert worn.probability(("FTL engine destroyed",)) == Fraction(17, 32000)


def test_R003_58_a_same_scale_hit_counts_k_times_on_a_recounted_track():
    """Galactica (spacecraft) on a basestar counted x2: 2 Stun / 4 Wound of its 40 are 4 / 8
    of 80, on top of the Viper's 1 / 2."""
    state = table(
        unit("galactica", 10, 10, "A", **BATTLESTAR),
        unit(
            "basestar",
            14,
            10,
            "B",
            diameter=4,
            **with_stats(BASESTAR, wound=2, stun=1, lp_multiple=2),
        ),
    )
    resolution = _shoot(state, "galactica", "railguns", rolls=[12, 5, 3])  # Basic 7, d12+d2 3
    damage = _event(resolution, "damage")
    assert (damage.get("stun"), damage.get("wound")) == (4, 8)
    assert (damage.get("total_stun"), damage.get("total_wound"), damage.get("life_points")) == (
        5,
        10,
        80,
    )
    assert (resolution.summary.stun, resolution.summary.wound) == (4, 8)


def test_R003_58_hits_of_two_smaller_scales_count_on_their_least_common_multiple():
    """A basestar counted x2 (Viper hits) taking a personal-scale hit (x5) is recounted x10:
    2 Wound / 1 Stun of 80 are 10 / 5 of 400; 6 Stun / 11 Wound less Armor x5 leave 1
    Wound of 200, 2 of 400."""
    receiver = receiver_of(unit("b", 0, 0, "B", **BASESTAR), units.settings(table()))
    start = Target((Track(2, 1, 80, 2),), target_of(vessel(unit("b", 0, 0, **BASESTAR))).systems)
    hit = deliver(start, receiver, 6, 11, "personal", ScriptedDice([]))
    assert hit.tracks == (Track(12, 5, 400, 10),)


def test_R003_58_armor_that_stops_the_hit_leaves_the_track_as_it_was():
    resolution = _shoot(_viper_on_basestar(), rolls=[10, 8, 1])  # Basic 2: 1 / 2 less 4 / 4
    assert (resolution.summary.stun, resolution.summary.wound) == (0, 0)
    assert "lp_multiple" not in resolution.state.unit("basestar").stats


def test_R003_58_a_wing_fighter_keeps_its_own_count():
    """A personal-scale pistol on a Viper wing: the fighter hit is counted x2 (LP 28), the
    other fighter's track stays as it was."""
    wing = {
        "scale": "planetcraft",
        "life_points": 14,
        "armor_wound": 2,
        "armor_stun": 2,
        "members": [{"id": "v1", "pilot": "d8"}, {"id": "v2", "pilot": "d10"}],
    }
    pistol = {
        "scale": "personal",
        "agility": "d8",
        "gunnery": "d8",
        "life_points": 10,
        "weapons": [{"name": "pistol", "damage": "d6", "range": "skirmish"}],
    }
    state = table(
        unit("marine", 10, 10, "A", **pistol),
        unit("wing", 12, 10, "B", **wing),
        wing_damage="chosen",
    )
    resolution = _shoot(state, "marine", "pistol", "wing", rolls=[20, 2, 6])
    first, second = resolution.state.unit("wing").stats["members"]
    assert (first["wound"], first["stun"], first["lp_multiple"]) == (11, 5, 2)
    assert "lp_multiple" not in second
    fighters = vessel(resolution.state.unit("wing")).members
    assert [(m.life_points, m.printed_life_points) for m in fighters] == [(28, 14), (14, 14)]


def test_R003_58_the_card_counts_the_basestars_damage_on_80():
    state = _viper_on_basestar()
    resolution = _shoot(state)
    basestar = resolution.state.unit("basestar")
    status = SYSTEM.unit_status(resolution.state, basestar)
    shown = {v.label: v for v in status.values}
    assert shown["Life points"].text == "77/80"
    assert shown["Wound"].text == "2/80"
    assert shown["Stun"].text == "1/80"
    assert (
        "counted ×2 (40 printed) since a smaller-scale vessel hit it" in shown["Life points"].help
    )
    assert shown["Life points"].spec_id == "R003.58"
    fresh = {v.label: v for v in SYSTEM.unit_status(state, state.unit("basestar")).values}
    assert fresh["Life points"].text == "40/40"
    assert "counted" not in fresh["Life points"].help
    # adjust mode sets Wound and Stun as the card counts them
    wound = next(f for f in SYSTEM.status_fields(resolution.state, basestar) if f.name == "wound")
    assert (wound.default, wound.high) == (2, 80)
    # the game-end reading values the basestar by its printed Life Points (A003.E1)
    condition = SYSTEM.unit_condition(resolution.state, state.unit("basestar"))
    assert condition.strength == 200.0  # spacecraft x5 on 40
    assert condition.lost == 2 / 80


def test_R003_25_a_hit_read_for_its_state_alone_rolls_alike_without_words():
    """A hit past half the Life Points rolls battle damage: read for the state alone
    (`words=False`, what the computer players enumerate) the same outcomes and odds, no
    events."""
    basestar = unit("b", 0, 0, "B", **BASESTAR)
    receiver = receiver_of(basestar, units.settings(table()))
    fresh = target_of(vessel(basestar))
    start = Target((Track(20, 0, 40),), fresh.systems)  # half its Life Points in Wound

    def odds(words: bool) -> dict:
        found = enumerate_outcomes(
            lambda dice: deliver(start, receiver, 4, 6, "spacecraft", dice, words=words),
            key=lambda target: target.key,
        )
        return {target.key: (p, target.events) for target, p in found.pairs}

    worded, bare = odds(True), odds(False)
    assert len(worded) > 1
    assert {k: p for k, (p, _) in worded.items()} == {k: p for k, (p, _) in bare.items()}
    assert all(events for _, events in worded.values())
    assert not any(events for _, events in bare.values())
