"""What the agents consider and how they judge it (generic protocol only)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from agent_scenarios import battle_at_combat, fire_phase, short_scenario

from tactical.agents import (
    LEVELS,
    Budget,
    GreedyPlayer,
    SearchPlayer,
    hints,
    make_player,
    mirrored,
    play_game,
    players,
    with_options,
)
from tactical.agents import search as search_level
from tactical.agents.candidates import candidates, field_values, move_paths
from tactical.agents.evaluation import (
    ATTACK_NODES,
    FAR_BAND,
    Material,
    Position,
    attack_effect,
    expected_value,
    stratified,
)
from tactical.agents.players import AVOIDED, sampled, signed
from tactical.agents.search import CLOSE_CALL, SEARCH_MARGIN, beats_one_step, clearly_better
from tactical.dice import TooManyOutcomes, enumerate_outcomes, numbered_die
from tactical.errors import UserError
from tactical.geometry.shapes import Pose
from tactical.io import builtin_map, load_map
from tactical.rules import registry
from tactical.rules.base import Field
from tactical.rules.measuring import TableGeometry
from tactical.session.game import Game


def test_field_values_required_choices_all_optional_ones_their_default():
    assert field_values(Field("target", "str", required=True, choices=("a", "b"))) == ("a", "b")
    assert field_values(Field("mode", "str", default="x", choices=("x", "y"))) == ("x",)
    assert field_values(Field("system", "str", choices=("x", "y"))) == ()
    assert field_values(Field("n", "int", required=True, low=0, high=3, default=2)) == (2, 0, 1, 3)
    assert field_values(Field("n", "int", required=True, low=0, high=20)) == (0, 10, 20)
    assert field_values(Field("n", "int", default=0, low=0, high=12)) == (0, 12)
    assert field_values(Field("free", "str", required=True)) is None


def test_move_paths_are_the_ones_the_planner_finds_legal():
    game = Game.new(short_scenario("sw-d6-capital"), 1)
    unit = game.state.units[0].id
    paths = move_paths(game, unit)
    assert paths
    assert all(game.preview_move(unit, path).legal for path in paths)


def test_greedy_fires_by_the_expected_effect_of_the_exact_odds():
    game = battle_at_combat()
    player = GreedyPlayer(1)
    ranked = player.ranked(game)
    best = ranked[0]
    assert best.candidate.action.kind == "attack"
    assert "expected material gain" in best.why
    material = player.material(game)
    side = game.side_to_act
    laser = next(
        s.candidate.action for s in ranked if s.candidate.action.params.get("weapon") == "laser"
    )
    effect = expected_value(game, laser, material, side)  # one die: the exact odds
    assert effect.exact and effect.outcomes >= 2
    assert effect.expected > material.value(game.state, side)
    passing = next(s for s in ranked if s.candidate.is_pass)
    assert best.score > passing.score
    decision = player.decide(game)
    assert decision.after.steps[-1].action == decision.action


def test_a_registered_hint_sets_the_value_of_a_unit():
    game = battle_at_combat()
    plain = Material(game).total_strength
    hints.register(game.rules, hints.Hints(unit_value=lambda unit: 10.0))
    try:
        hinted = Material(game).total_strength
    finally:
        hints.unregister(game.rules)
    counts = {side: sum(u.side == side for u in game.initial.units) for side in game.sides}
    assert hinted == {side: 10.0 * counts[side] for side in game.sides}
    assert hinted != plain


def band_weight(names: list[str], band: str) -> float:
    """An enemy in the nearest band counts whole, in the farthest `FAR_BAND`, linearly."""
    if band not in names or len(names) < 2:
        return 1.0
    return 1.0 - (1.0 - FAR_BAND) * names.index(band) / (len(names) - 1)


@pytest.mark.parametrize("rules_id", ["sw-d6-capital", "dystopian-wars"])
def test_position_agrees_with_the_pair_reports_of_the_table(rules_id):
    """The vectorised reach (copies of the unit in one matrix) against `TableGeometry`'s
    reports, pair by pair, for the unit where it stands and turned about; a nearer band
    counts more."""
    game = Game.new(short_scenario(rules_id), 1)
    position = Position(game, Material(game))
    seen = []
    for unit in game.state.units[:4]:
        turned = Pose(unit.x, unit.y, unit.pose.heading + 180.0)
        for pose in (None, turned):
            state = game.state
            if pose is not None:
                state = state.replace_unit(replace(unit, pose=pose))
            reports = TableGeometry.of(state).all_pairs(source_id=unit.id)
            table = game.system.range_table(unit, state.options)
            names = [band.name for band in table.bands] if table is not None else []
            holds = sum(
                position.values[r.target] * band_weight(names, r.range_band)
                for r in reports
                if state.unit(r.target).side != unit.side
                and r.arcs
                and r.los
                and r.range_band is not None
            )
            assert position.reach(unit.id, pose).holds == pytest.approx(holds)
            seen.append(holds)
    assert any(seen), "some unit holds an enemy in arc and range"


def test_a_player_asked_to_decide_a_finished_game_says_so():
    """No action is legal once the game is over: a clear UserError, not a recursion."""
    state = short_scenario("heavy-combat")
    record = play_game(with_options(state, turn_limit=1), 3)
    for level in LEVELS:
        with pytest.raises(UserError, match="the game is over"):
            make_player(level, 1).decide(record.game)


def test_an_attack_rolled_later_is_valued_exactly_over_its_resolvers_outcomes():
    """Heavy Combat declares fire and rolls it at the Result (R001.3): the attack's
    expected material effect is enumerated from `resolve_attack`, and more power in the
    phasers is worth more (a one-sample or chance-only measure could not tell)."""
    game = fire_phase()
    side, material = game.side_to_act, Material(game)
    actor = next(u.id for u in game.state.units if u.side == side)
    target = next(u.id for u in game.state.units if u.side != side)
    now = material.value(game.state, side)
    weak = attack_effect(
        game, game.declare("fire", actor, weapon="phasers", target=target, power=1), material, side
    )
    strong = attack_effect(
        game, game.declare("fire", actor, weapon="phasers", target=target, power=3), material, side
    )
    assert weak is not None and strong is not None and weak.exact and strong.exact
    assert now < weak.expected < strong.expected
    assert attack_effect(game, game.declare("pass", side), material, side) is None
    decision = GreedyPlayer(2).decide(game)
    assert decision.action.kind == "fire"
    assert "expected material gain" in decision.why and "when it is rolled" in decision.why
    aimed = game.state.unit(str(decision.action.params["target"]))
    assert f" at {aimed.name}:" in decision.why and aimed.id not in decision.why  # by name


def test_a_rule_system_declares_eager_kinds_and_the_greedy_player_takes_them():
    """Heavy Combat's `agent_hints` make closing (R001.9) worth more than passing while three
    turns are left to fire at the better multiplier (R001.7), not later; a registered hint
    takes precedence and can turn it off."""
    state = short_scenario("heavy-combat", turns=4)
    game = Game.new(state, 0)
    player = GreedyPlayer(1)
    while not any(c.kind == "close" for c in game.choices()):
        game = player.decide(game).after
    found = hints.get(game.rules, game.system)
    assert found.eager_kinds == {"close"} and found.eager_turns == 3
    assert GreedyPlayer(1).decide(game).action.kind == "close"
    # the same position in a game of three turns: two left after this, not worth it
    shorter = Game.new(with_options(state, turn_limit=3), 0)
    for step in game.steps:
        shorter = shorter.apply(step.action)
    assert GreedyPlayer(1).decide(shorter).action.kind != "close"
    hints.register(game.rules, hints.Hints())
    try:
        assert GreedyPlayer(1).decide(game).action.kind != "close"
    finally:
        hints.unregister(game.rules)


def test_dystopian_wars_hints_make_the_greedy_player_launch_a_wing_and_move_wings():
    """R002.61 / R002.52: a Carrier's Launch and a Wing's move in formation change nothing a
    one-step look measures; Dystopian Wars' `agent_hints` make them worth 0.05 (more than
    the carrier's move: it launches only before it moves), so the Wings leave the deck and
    move. The Wing's move is declared by the side: its candidate is the rules' default
    path (the move planner plans units), valued without the geometry."""
    state = load_map(builtin_map("dystopian-wars"))
    found = hints.get("dystopian-wars", registry.get("dystopian-wars"))
    assert found.eager_kinds == {"launch", "move-wing"}
    assert found.eager_worth == 0.05 and found.eager_turns == 0
    assert (found.playout_steps, found.playout_turn_end, found.weigh_passes) == (40, None, False)
    game = Game.new(state, 1)
    player = GreedyPlayer(31)
    made: list[str] = []
    while not game.over and game.turn <= 2:
        offered = {c.kind for c in game.choices()}
        decision = player.decide(game)
        if offered & {"launch", "move-wing"}:
            made.append(decision.action.kind)
        game = decision.after
    assert "launch" in made and "move-wing" in made
    wing_moves = [c for c in candidates(game) if c.action.kind == "move-wing"]
    assert all(c.action.actor in game.sides for c in wing_moves)
    hints.register("dystopian-wars", hints.Hints())
    try:  # without the hint, the launch goes below passing and the carrier's moves
        carrier = Game.new(state, 1)
        while not any(c.kind == "launch" for c in carrier.choices()):
            carrier = GreedyPlayer(31).decide(carrier).after
        assert GreedyPlayer(31).decide(carrier).action.kind != "launch"
    finally:
        hints.unregister("dystopian-wars")


def test_a_move_declared_by_a_side_takes_the_choices_default_path():
    """A path field whose actor is a side, not a unit, is not planned: its default only."""
    state = load_map(builtin_map("dystopian-wars"))
    game = Game.new(state, 1)
    player = GreedyPlayer(31)
    while not any(c.kind == "move-wing" for c in game.choices()):
        game = player.decide(game).after
    choice = next(c for c in game.choices() if c.kind == "move-wing")
    default = next(f.default for f in choice.fields if f.name == "path")
    found = [c for c in candidates(game) if c.action.kind == "move-wing"]
    assert [dict(c.action.params) for c in found] == [{"path": default}]
    assert game.apply(found[0].action).steps[-1].action.kind == "move-wing"


def test_an_attack_that_spends_power_counts_the_units_next_attack():
    """Heavy Combat's phasers take power (R001.5) that the torpedo needs too: the greedy
    player weighs the best phaser setting with the attack still possible after it, so it
    leaves a point for the torpedo instead of pouring everything into the phasers."""
    game = fire_phase()
    ranked = GreedyPlayer(1).ranked(game)
    best = ranked[0]
    assert best.candidate.action.params["weapon"] == "phasers"
    assert "; then " in best.why and "photon" in best.why
    power = best.candidate.choice.fields
    high = next(f.high for f in power if f.name == "power")
    assert best.candidate.action.params["power"] < high


def test_search_plays_out_with_the_same_dice_and_keeps_greedys_choice_unless_beaten():
    """Paired play-outs (common random numbers): the why says so, and the search player
    leaves the greedy player's choice only with the gain it names."""
    game = fire_phase()
    greedy = GreedyPlayer(4).decide(game)
    search = SearchPlayer(4, Budget(playouts=6, seconds=None, width=3, horizon=3))
    decision = search.decide(game)
    assert "the same dice for each" in decision.why
    if "more than the one-step choice" in decision.why:
        assert decision.action != greedy.action
    else:
        assert "none of the others did better" in decision.why
        assert decision.action == greedy.action
    again = search.decide(game)  # deterministic without a clock
    assert (again.action, again.why) == (decision.action, decision.why)


def test_greedy_will_not_ram_a_unit_of_its_own_side():
    """A move stopped by a friendly unit (a ram: the rules may damage it) scores below
    passing, whatever it gains in position; the same move clear of it is not marked."""
    game = Game.new(short_scenario("dystopian-wars"), 1)
    player = GreedyPlayer(1)
    while not any(c.is_move and c.action.params["path"] for c in candidates(game)):
        game = player.decide(game).after
    mover = next(c for c in candidates(game) if c.is_move and c.action.params["path"])
    actor, path = mover.action.actor, str(mover.action.params["path"])
    plan = game.preview_move(actor, path)
    assert plan.collision is None and plan.distance > 1
    friend = next(u for u in game.state.units if u.side == game.state.unit(actor).side
                  and u.id != actor)  # fmt: skip
    blocked = game.state.replace_unit(replace(friend, pose=plan.final))
    crowded = Game.new(blocked, 1)
    rammed = crowded.preview_move(actor, path)
    assert rammed.collision is not None and rammed.collision.id == friend.id
    position = player.position(crowded, player.material(crowded))
    gain, words = player.move_gain(crowded, position, mover)
    plain = position.reach(actor, rammed.final).score - position.reach(actor).score
    assert gain == pytest.approx(plain - AVOIDED)
    assert f"rams {friend.name} of its own side" in words
    clear_position = player.position(game, player.material(game))
    assert "rams" not in player.move_gain(game, clear_position, mover)[1]


def test_an_estimate_too_large_to_enumerate_reads_its_first_roll_exactly():
    """A one-in-six first roll that decides everything (a shot at a cloaked ship, R001.30)
    followed by more rolls than can be enumerated: the sampled estimate weighs each face
    of that first roll by its chance, so it is exact here, where eight plain samples could
    all miss the one face (and did: the greedy player then held its power back)."""
    d6 = numbered_die(6)

    def after(dice) -> float:
        hit = dice.roll(d6) == 1
        for _ in range(30):  # the internal damage chart: too many leaves to enumerate
            dice.roll(d6)
        return 6.0 if hit else 0.0

    with pytest.raises(TooManyOutcomes):
        enumerate_outcomes(after, max_nodes=ATTACK_NODES)
    expected, runs = stratified(after, 7, 8)
    assert expected == pytest.approx(1.0) and runs == 13
    assert stratified(after, 7, 8) == (expected, runs)  # the same seed, the same estimate
    assert stratified(lambda dice: 0.25, 7, 8) == (0.25, 1)  # nothing rolled: exact


def test_move_paths_limit_keeps_the_first_legal_ones():
    """A play-out's quick player takes a rules move's first legal path (one preview)."""
    game = Game.new(short_scenario("sw-d6-capital"), 1)
    unit = game.state.units[0].id
    every = move_paths(game, unit)
    assert len(every) > 1
    assert move_paths(game, unit, limit=1) == every[:1]


def test_a_quick_players_sample_weighs_every_choice_before_a_second_set():
    """`sampled`: passing always kept; one parameter set of each choice offered before any
    choice gets a second, at most `count` in all, the same for the same generator."""
    game = battle_at_combat()
    options = GreedyPlayer(1).options(game)
    choices = {(c.choice.kind, c.choice.actor, c.choice.title) for c in options if not c.is_pass}
    assert len(options) > len(choices) + 1  # some choice has several parameter sets
    count = len(choices) + 1
    kept = sampled(options, count, random.Random(3))
    assert sum(c.is_pass for c in kept) == 1
    rest = [c for c in kept if not c.is_pass]
    assert len(rest) == count
    assert {(c.choice.kind, c.choice.actor, c.choice.title) for c in rest} == choices
    assert all(c in options for c in kept)
    assert sampled(options, count, random.Random(3)) == kept
    assert sampled(options, len(options), random.Random(3)) == options


def test_search_switches_only_for_a_gain_above_the_margin_and_its_standard_error():
    assert not clearly_better([])
    assert not clearly_better([0.5])  # one play-out: no spread to weigh it against
    assert not clearly_better([SEARCH_MARGIN, SEARCH_MARGIN])  # not above the margin
    assert clearly_better([0.02, 0.02, 0.02])  # the same gain in every play-out
    assert clearly_better([0.03, 0.01, 0.02])  # mean 0.02, standard error 0.0058
    assert not clearly_better([0.2, -0.15, 0.01])  # mean 0.02, standard error 0.10


def test_search_weighs_the_spread_of_its_gains_as_the_rule_system_hints():
    """`hints.overturn_errors`: the standard errors a mean gain must clear besides the
    margin. None: the mean alone decides, above the margin; more: a surer gain."""
    spread = [0.2, -0.15, 0.01]  # mean 0.02, standard error 0.10
    assert clearly_better(spread, errors=0.0)
    assert clearly_better(spread, errors=0.19) and not clearly_better(spread, errors=0.21)
    assert not clearly_better([SEARCH_MARGIN, SEARCH_MARGIN], errors=0.0)  # the margin stays
    assert not clearly_better([0.5], errors=0.0)  # and a single play-out never overturns
    assert clearly_better([0.03, 0.01, 0.02], errors=3.4)  # standard error 0.0058
    assert not clearly_better([0.03, 0.01, 0.02], errors=3.5)
    assert beats_one_step([0.008, -0.004], tied=True, errors=0.0)  # mean 0.002
    assert not beats_one_step([0.008, -0.004], tied=False, errors=0.0)  # below SEARCH_MARGIN


def test_search_breaks_the_one_step_looks_ties_by_the_better_mean():
    """Tied with greedy's choice (within `TIE`): a gain past `TIE_MARGIN` and its standard
    error wins; below it: past `SEARCH_MARGIN`. Rounding noise never switches."""
    assert beats_one_step([0.003, 0.003], tied=True)
    assert not beats_one_step([0.003, 0.003], tied=False)
    assert not beats_one_step([1e-17, 1e-17], tied=True)  # float rounding, not a gain
    assert not beats_one_step([0.006, -0.004], tied=True)  # within its standard error
    assert not beats_one_step([], tied=True)
    assert beats_one_step([0.03, 0.01, 0.02], tied=False)


def test_search_leaves_a_clear_call_to_the_greedy_player(monkeypatch):
    """No other candidate within `CLOSE_CALL` of the best: the greedy choice, no play-out.
    At Heavy Combat's first fire the best two are close: a narrower window leaves one."""
    game = fire_phase()
    best, second = GreedyPlayer(4).ranked(game)[:2]
    gap = best.score - second.score
    assert 0 < gap < CLOSE_CALL
    budget = Budget(playouts=6, seconds=None, width=3, horizon=3)
    assert "play-outs" in SearchPlayer(4, budget).decide(game).why  # a close call
    monkeypatch.setattr(search_level, "CLOSE_CALL", gap / 2)
    decision = SearchPlayer(4, budget).decide(game)
    assert "a clear call" in decision.why and "play-outs" not in decision.why
    assert decision.action == GreedyPlayer(4).decide(game).action


def test_search_plays_out_a_pass_only_where_it_is_greedys_own_choice():
    """A play-out of a few steps cannot value the actions a pass gives up (they favoured
    passing: Cortex vessels ended their activation unfired): a pass is a contender only
    as the greedy player's own choice, unless the rule system hints `weigh_passes`."""
    budget = Budget(playouts=6, seconds=None, width=10, horizon=3)
    game = fire_phase()
    ranked = GreedyPlayer(4).ranked(game)
    passing = next(k for k, s in enumerate(ranked) if s.candidate.is_pass)
    assert 0 < passing < budget.width - 1  # within reach of the contenders
    assert ranked[0].score - ranked[passing].score < CLOSE_CALL
    hints.register(game.rules, hints.Hints())  # no hints: as any system that gives none
    try:
        contenders = SearchPlayer(4, budget).contenders(game)
    finally:
        hints.unregister(game.rules)
    assert len(contenders) > 1 and not any(s.candidate.is_pass for s in contenders)
    assert contenders[0].candidate == ranked[0].candidate
    assert hints.get(game.rules, game.system).weigh_passes  # Heavy Combat's own hint
    contenders = SearchPlayer(4, budget).contenders(game)
    assert contenders[0].candidate == ranked[0].candidate
    assert [s.candidate.is_pass for s in contenders].count(True) == 1


@pytest.mark.parametrize("whole_turn", [True, False])
def test_a_weighed_pass_counts_only_where_its_play_outs_reach_the_turns_end(
    monkeypatch, whole_turn
):
    """R001.9 (a ship that closes cannot fire that turn): where passing is hinted a real
    choice, search takes a pass its play-outs found clearly better, but only if they saw
    the turn end; one cut short by the horizon cannot see what passing gives up."""
    game = fire_phase()
    search = SearchPlayer(4, Budget(playouts=8, seconds=None, width=4))
    contenders = search.contenders(game)
    assert not contenders[0].candidate.is_pass and any(s.candidate.is_pass for s in contenders)

    def play_out(sampled, action, side, material, reach=None):
        if action.kind == "pass":  # far better, if the play-out saw the whole turn
            return 0.0, 0.2, whole_turn
        return 0.0, 0.0, True

    monkeypatch.setattr(search, "play_out", play_out)
    decision = search.decide(game)
    assert (decision.action.kind == "pass") is whole_turn
    if whole_turn:  # why: the play-outs' gain over the greedy choice, which it names
        greedy_title = contenders[0].candidate.choice.title
        now = search.greedy.material(game).value(game.state, game.side_to_act)
        gain = signed(0.2 - now)  # the play-outs' gain from here, not the balance itself
        assert decision.why.startswith(f"Pass | search: expected material gain {gain} over 2")
        assert f"+20.0% more than the one-step choice ({greedy_title})" in decision.why


def test_search_leaves_out_a_step_worth_far_less_than_greedys_gain(monkeypatch):
    """Ending an activation (a procedural step, worth next to nothing) within `CLOSE_CALL`
    of an attack that gains 3%: not a contender (play-outs favoured it: the attacks it
    gives up come after they end); a candidate worth half the gain or more still is."""
    game = fire_phase()
    ranked = GreedyPlayer(4).ranked(game)
    fires = [s for s in ranked if not s.candidate.is_pass]
    scores = [0.03, 0.016, 0.001]  # the attack, one worth over half of it, a step
    faked = [replace(s, score=v) for s, v in zip(fires, scores, strict=False)]
    search = SearchPlayer(4, Budget(playouts=6, seconds=None, width=3, horizon=3))
    monkeypatch.setattr(search.greedy, "ranked", lambda game: faked)
    assert [s.score for s in search.contenders(game)] == [0.03, 0.016]
    ties = [replace(s, score=0.001) for s in fires[:3]]  # a tie of steps: all of them
    monkeypatch.setattr(search.greedy, "ranked", lambda game: ties)
    assert len(search.contenders(game)) == 3


def play_out_turns(search: SearchPlayer, game: Game) -> list[int]:
    """The turn of each step a play-out of the greedy player's choice took."""
    turns: list[int] = []
    decide = search.rollout.decide

    def spy(position: Game):
        turns.append(position.turn)
        return decide(position)

    search.rollout.decide = spy  # type: ignore[method-assign]
    action = GreedyPlayer(1).decide(game).action
    assert search.play_out(game, action, game.side_to_act, search.greedy.material(game))
    return turns


@pytest.mark.parametrize("turn_end", [True, False])
def test_search_play_outs_stop_where_the_turn_ends_unless_told_otherwise(turn_end):
    """A play-out's later steps are the same turn's (the default): it stops as the turn
    ends however long its horizon; without `turn_end` it plays on into the next turn."""
    assert Budget().reach(hints.NONE) == (search_level.HORIZON, True)
    game = Game.new(short_scenario("heavy-combat", turns=4), 0)
    search = SearchPlayer(4, Budget(playouts=1, seconds=None, horizon=200, turn_end=turn_end))
    turns = play_out_turns(search, game)
    assert turns and turns[0] == game.turn
    if turn_end:
        assert set(turns) == {game.turn} and len(turns) < 200
    else:
        assert max(turns) > game.turn


def test_a_rule_systems_hints_set_how_far_play_outs_look_where_the_budget_leaves_it_open():
    """`playout_steps` / `playout_turn_end` (declared as plain data or registered) decide
    the play-outs' reach unless the budget names its own; without either, the defaults."""
    declared = hints.declared_hints({"playout_steps": 30, "playout_turn_end": False})
    assert (declared.playout_steps, declared.playout_turn_end) == (30, False)
    assert Budget().reach(declared) == (30, False)
    assert Budget(horizon=5).reach(declared) == (5, False)
    assert Budget(turn_end=True).reach(declared) == (30, True)
    assert Budget().reach(hints.declared_hints({})) == (search_level.HORIZON, True)
    game = Game.new(short_scenario("heavy-combat", turns=4), 0)
    hints.register(game.rules, hints.Hints(playout_steps=200, playout_turn_end=False))
    try:
        turns = play_out_turns(SearchPlayer(4, Budget(playouts=1, seconds=None)), game)
        assert max(turns) > game.turn  # played on past the turn's end, as the hint says
    finally:
        hints.unregister(game.rules)


def test_a_why_reads_a_gain_that_rounds_to_nothing_as_plus_zero():
    """A player reads "+0.0%", never "-0.0%" (a loss of a millionth, rounded)."""
    assert players.signed(-0.00001) == "+0.0%"
    assert players.signed(0.0143) == "+1.4%" and players.signed(-0.0251) == "-2.5%"
    assert players.signed(0.02, "") == "+2.0"


def test_a_why_reads_a_gain_with_the_digits_of_the_share_rounded_to_a_tenth():
    """The digits `round(100 * share, 1)` gives, ties and tiny losses included."""
    rng = random.Random(5)
    shares = [k / 20000 for k in range(-4000, 4000)] + [(k + 0.5) / 1000 for k in range(-500, 500)]
    shares += [rng.uniform(-1.5, 1.5) for _ in range(4000)] + [-1e-12, -0.0, 0.0]
    for share in shares:
        assert players.signed(share) == f"{round(100 * share, 1) + 0.0:+.1f}%", share
    assert players.signed(0.00049) == "+0.0%" and players.signed(-0.00051) == "-0.1%"


def test_the_same_roll_again_by_the_same_unit_in_a_turn_is_not_made_for_nothing():
    """R003.47 / R003.8: a Cortex ship's Agility roll sets its defense for the turn, and
    each further action of its crew is at a growing multiple-action penalty; rolled again
    it only sets the defense again, likely lower. The greedy player rolled such steps on
    for dozens of steps a ship (the one-step look sees nothing come of them): the very
    same roll again by the same unit in the same turn now ranks below passing."""
    state = load_map(builtin_map("cortex-space"))
    game = Game.new(mirrored(state, state.sides[0]), 0)
    player = GreedyPlayer(1)
    made: list[tuple[str, str]] = []
    while game.turn == 1 and not game.over:
        decision = player.decide(game)
        action = decision.action
        # (a gun fired again is no repeat: each shot is a battery of the guns left)
        for_nothing = "expected material gain" not in decision.why
        if action.kind != "pass" and action.actor not in game.sides and for_nothing:
            made.append((action.actor, action.kind, tuple(sorted(action.params.items()))))
        game = decision.after
    assert made and len(made) == len(set(made))  # no roll made twice by a ship in the turn
    assert game.steps[-1].number < 100  # it was well over a hundred: rolls until stalled


def test_a_why_names_the_target_once():
    """A choice whose title names its target already ("fire missiles at Battlestar
    Galactica", R003.39) is not followed by it again; one that does not, is."""
    game = Game.new(load_map(builtin_map("cortex-space")), 0)
    name = players.unit_name(game.state, "galactica")
    titled = f"Cylon Raider 2: fire missiles at {name}"
    assert players.aimed(titled, game, "galactica") == titled
    first = f"at {name}: Turbolasers, front, from Cylon Raider 2"  # the target leads
    assert players.aimed(first, game, "galactica") == first
    assert players.aimed("Cylon Raider 2: lock missiles", game, "galactica") == (
        f"Cylon Raider 2: lock missiles at {name}"
    )
