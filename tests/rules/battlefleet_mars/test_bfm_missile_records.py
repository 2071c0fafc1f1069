"""A missile salvo at a ship or base, enumerated exactly, keeps what its record comes to
(R000.12: the codes go to the base game; this game reads of them the ship's condition,
A000.E1, and its laser strength, A000.11). Folded by "destroyed yet", which a ship never
is, every outcome was merged into the first: the computer players valued missiles at
ships as if every surviving missile had rolled 0."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from tactical.dice import enumerate_outcomes
from tactical.io import builtin_map, load_map
from tactical.model.worded import unworded
from tactical.rules import registry
from tactical.rules.battlefleet_mars import chance
from tactical.rules.battlefleet_mars.outcome import damage_points
from tactical.rules.battlefleet_mars.tables import DESTROYED_RESULT, laser_loss

OPTIONS = {"missile_to_hit": "auto", "missile_to_hit_score": 5}


def _what_is_read(results: tuple[str, ...], cripples: int, laser: int) -> tuple:
    """What the game reads of a record: crippled or its points, and the laser lost."""
    points = sum(damage_points(r) for r in results)
    crippled = DESTROYED_RESULT in results or points >= cripples
    return (crippled, 0 if crippled else points, min(laser, sum(laser_loss(r) for r in results)))


def _read(room: chance.Room | None, cripples: int, laser: int) -> dict:
    found = enumerate_outcomes(
        lambda dice: chance.missile_salvo(6, 2, "ship", "ship", OPTIONS, dice, room=room).strikes
    )
    by_reading: dict = defaultdict(Fraction)
    for strikes, p in found.pairs:
        by_reading[_what_is_read(strikes.results, cripples, laser)] += p
    return dict(by_reading)


def test_R000_12_a_salvo_at_a_ship_keeps_what_its_record_comes_to():
    """Folded by the ship's room, the salvo gives what every outcome kept apart gives
    (a room no record reaches merges none but equal readings)."""
    exact = _read(chance.Room(99, 99), 5, 3)
    assert _read(chance.Room(5, 3), 5, 3) == exact
    assert len(exact) > 10 and sum(exact.values()) == 1


def test_R000_12_the_odds_fold_a_ships_strikes_by_the_summary_alone():
    """Without a room (the odds read the summary alone) the strikes at a ship are folded
    by "destroyed yet": one record per number of CIWS survivors, fewer than the readings
    they stand for, and cheap."""
    assert len(_read(None, 5, 3)) <= 7 < len(_read(chance.Room(99, 99), 5, 3))


def test_A000_E1_the_computer_weighs_a_salvo_at_a_ship_over_its_damage():
    """The resolver enumerated for the state alone (as the computer players weigh an
    attack): the chance a 6-missile salvo cripples the Ares catapult (strength 5, laser
    strength 3, CIWS 3) is the salvo's own, every outcome kept apart: 86%. Folded into
    one record per survivor count, it read 14%."""
    state = load_map(builtin_map("battlefleet-mars"))
    system = registry.get(state.rules)
    target = state.unit("ares-catapult")
    attack = system.declare_attack(
        state, "deimos-base", "missiles", target.id, {"missiles": 6, "ciws": True}
    )
    with unworded():
        found = enumerate_outcomes(lambda dice: system.resolve_attack(state, attack, dice).state)
    crippled = sum(p for after, p in found.pairs if system.unit_condition(after, target).out)
    apart = enumerate_outcomes(
        lambda dice: (
            chance.missile_salvo(
                6, 3, "ship", "ship", OPTIONS, dice, room=chance.Room(99, 99)
            ).strikes
        )
    )
    expected = sum(p for strikes, p in apart.pairs if _what_is_read(strikes.results, 5, 3)[0])
    assert crippled == expected
    assert Fraction(85, 100) < crippled < Fraction(87, 100)
