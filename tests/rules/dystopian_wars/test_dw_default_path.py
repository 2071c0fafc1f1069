"""The move choice's default path (GEO002.8, R002.30, R002.35): passing over the candidates
whose first straight motion reaches a contact an earlier candidate met offers the very path
that planning every candidate in turn offers, on random tables and at the edge of the
contact (a rock just before, at and just past where the shorter moves end)."""

from __future__ import annotations

import math
import random

from dw_builders import rock, table, unit

from tactical.rules.dystopian_wars import maneuver, play


def _planned_in_turn(state, mover):
    """The default path as found before: every candidate planned, in order."""
    candidates = maneuver.default_candidates(maneuver.turning_rules(state, mover))
    for candidate in candidates:
        found = maneuver.plan(state, mover, candidate)
        if found.legal and found.contact_kind is None:
            return candidate
    for candidate in candidates:
        if maneuver.plan(state, mover, candidate).legal:
            return candidate
    return candidates[0]


def _passed_over(state, mover):
    """How many candidates the straight contact of the first settles unplanned."""
    candidates = maneuver.default_candidates(maneuver.turning_rules(state, mover))
    stopped = maneuver._straight_contact(maneuver.plan(state, mover, candidates[0]))
    if stopped is None:
        return 0
    return sum(maneuver._stopped_within(state, mover, c, stopped) for c in candidates[1:])


def _random_table(rng: random.Random):
    mover = unit(
        "m",
        rng.uniform(4, 68),
        rng.uniform(4, 44),
        heading=rng.choice((0.0, 90.0, 180.0, 270.0, rng.uniform(0, 360))),
        move=rng.choice((6.0, 8.0, 9.0, 12.0)),
        min_move=rng.choice((0.0, 2.0, 3.0)),
        squadron="m",
    )
    others = [
        unit(f"o{i}", rng.uniform(2, 70), rng.uniform(2, 46), rng.choice("AB"), rng.uniform(0, 360))
        for i in range(rng.randint(0, 4))
    ]
    # a rock somewhere ahead of it, mostly: what stops its straight moves
    ahead = rng.uniform(1.0, 14.0)
    radians = math.radians(mover.pose.heading)
    x, y = mover.pose.x + ahead * math.sin(radians), mover.pose.y + ahead * math.cos(radians)
    size = rng.uniform(0.5, 6)
    rocks = [rock("ahead", x - size / 2, y - size / 2, x + size / 2, y + size / 2)]
    for i in range(rng.randint(0, 5)):
        x, y = rng.uniform(0, 70), rng.uniform(0, 46)
        rocks.append(rock(f"r{i}", x, y, x + rng.uniform(0.5, 8), y + rng.uniform(0.5, 8)))
    return play.setup(table(mover, *others, terrain=tuple(rocks)))


def test_GEO002_8_the_default_path_is_the_one_planned_in_turn_on_random_tables():
    rng = random.Random(20261129)
    settled = 0
    for _ in range(150):
        state = _random_table(rng)
        mover = state.unit("m")
        offered = maneuver.default_path(state, mover)  # first: nothing planned before it
        assert offered == _planned_in_turn(state, mover)
        settled += _passed_over(state, mover) > 0
    assert settled >= 20  # the tables do meet the case passed over


def test_GEO002_8_a_rock_just_short_of_at_and_past_the_shorter_moves():
    # the mover's front is 1.5" ahead of its centre; it moves 8", at least 3" straight
    # first: the half move and the turns' straight part end 4" and 3" on
    answers = set()
    for reach in (3.0, 4.0):
        for delta in (-0.003, -0.001, -0.0005, 0.0, 0.0005, 0.001, 0.003):
            front = 10 + 1.5 + reach + delta
            state = play.setup(
                table(
                    unit("m", 30, 10, move=8.0, min_move=3.0, squadron="m"),
                    terrain=(rock("r", 25, front, 35, front + 4),),
                )
            )
            mover = state.unit("m")
            offered = maneuver.default_path(state, mover)
            assert offered == _planned_in_turn(state, mover)
            answers.add(offered)
    assert len(answers) > 1  # the rock's place decides which path is offered
