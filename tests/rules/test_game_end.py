"""How a game ends and who won, in every rule system (docs/game-end.md).

The attrition reading (A000.E1, A001.E1, A003.E1, A004.E1): the game ends when a side has
no unit able to fight or when the turn limit (map option `turn_limit`, default 6) is
over; each side scores the share of the enemy's starting strength destroyed or crippled.
Dystopian Wars ends by its own rules (R002.3 game length, R002.22 victory, A002.19).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tactical.agents import with_options
from tactical.errors import UserError
from tactical.io import builtin_map, load_map
from tactical.model import FrozenMap
from tactical.rules import registry
from tactical.rules.battlefleet_mars import outcome as bfm_end
from tactical.rules.cortex_space import outcome as cortex_end
from tactical.rules.dystopian_wars import tracking as dw_tracking
from tactical.rules.ending import NO_UNIT_ABLE, TURN_LIMIT, UnitCondition, attrition_outcome
from tactical.rules.heavy_combat import duel as hc_duel
from tactical.rules.heavy_combat.duel_state import current as hc_current
from tactical.rules.heavy_combat.ships import profile
from tactical.rules.sw_d6_capital import ledger as sw_ledger
from tactical.session.game import Game
from tactical.session.log import game_log


def scenario(rules_id: str):
    return load_map(builtin_map(rules_id))


def end(state, turn: int = 1):
    return registry.get(state.rules).outcome(state, scenario(state.rules), turn)


# --------------------------------------------------------------------------- generic


def test_attrition_scores_the_share_of_enemy_strength_out_and_ends_at_the_turn_limit():
    conditions = [
        ("A", UnitCondition(3.0)),
        ("A", UnitCondition(1.0, 1.0, True, False)),  # a quarter of A's strength out
        ("B", UnitCondition(2.0, 0.5)),  # damaged, not out: scores nothing
        ("B", UnitCondition(2.0)),
    ]
    assert attrition_outcome(("A", "B"), conditions, 6, 6, "A000.E1") is None
    ended = attrition_outcome(("A", "B"), conditions, 7, 6, "A000.E1")
    assert ended is not None
    assert (ended.winner, ended.scores, ended.reason, ended.turn) == (
        "B",
        (("A", 0.0), ("B", 0.25)),
        TURN_LIMIT,
        6,
    )
    assert ended.headline() == "B wins (A 0% - B 25%): the turn limit is over, turn 6"


def test_attrition_ends_when_a_side_has_no_unit_able_to_fight_and_equal_shares_draw():
    wiped = [("A", UnitCondition.gone(2.0)), ("B", UnitCondition.gone(4.0))]
    ended = attrition_outcome(("A", "B"), wiped, 2, 6, "A001.E1")
    assert ended is not None and ended.reason == NO_UNIT_ABLE
    assert ended.is_draw and ended.scores == (("A", 1.0), ("B", 1.0))


@pytest.mark.parametrize(
    "rules_id", ["battlefleet-mars", "heavy-combat", "cortex-space", "sw-d6-capital"]
)
def test_the_turn_limit_is_a_map_option_defaulting_to_6(rules_id):
    system = registry.get(rules_id)
    state = scenario(rules_id)
    assert system.options({})["turn_limit"] == 6
    assert end(state, 6) is None and end(state, 7).reason == TURN_LIMIT
    short = with_options(state, turn_limit=2)
    assert system.check_options(dict(short.options)) == []
    assert system.outcome(short, state, 3).turn == 2
    assert system.check_options({"turn_limit": 0})[0].key == "turn_limit"


# --------------------------------------------------------------------------- per system


def test_A000_E1_bfm_strength_and_ships_crippled_by_their_recorded_results():
    state = scenario("battlefleet-mars")
    cruiser = state.unit("ares-cruiser")  # LS 5, launch capacity 2
    assert bfm_end.strength(cruiser) == 7.0
    assert bfm_end.strength(state.unit("mars-fighters")) == pytest.approx(1.0)  # 3 x 1/3
    hit = bfm_end.record_results(state, "ares-cruiser", ("B2", "iL", "-"))
    condition = bfm_end.unit_condition(hit, cruiser)
    assert (condition.lost, condition.out) == (pytest.approx(4 / 7), False)
    crippled = bfm_end.record_results(hit, "ares-cruiser", ("R",))  # 2 + 2 + 3 = 7 points
    assert bfm_end.unit_condition(crippled, cruiser).out
    fighters = state.unit("mars-fighters")
    fewer = state.replace_unit(fighters.with_stats(count=1))
    assert bfm_end.unit_condition(fewer, fighters).lost == pytest.approx(2 / 3)
    assert bfm_end.unit_condition(state.without_unit("mars-fighters"), fighters).out


def test_A001_E1_heavy_combat_ship_crippled_at_the_catastrophic_threshold():
    state, duel = hc_current(scenario("heavy-combat"))
    enterprise = state.unit("enterprise")  # 23 internals: threshold round(17.25) = 17
    ship = duel.ship("enterprise")
    boxes = list(ship.destroyed)
    boxes[0] = 16
    damaged = hc_duel.to_rule_state(
        state, duel.with_ship("enterprise", ship.evolve(destroyed=tuple(boxes)))
    )
    condition = registry.get("heavy-combat").unit_condition(damaged, enterprise)
    # no shield damage yet: the share lost is the destroyed boxes alone
    assert (condition.strength, condition.lost, condition.out) == (23.0, 16 / 23, False)
    # the shields' wear adds to it, up to the cap only with every facing spent: one more
    # point of damage always counts until the ship is crippled
    shares = []
    for spent in (0.0, 0.5, 1.0):
        worn = ship.evolve(
            destroyed=tuple(boxes),
            shield_damage=tuple(round(spent * c) for c in profile(enterprise).shields),
        )
        worn_state = hc_duel.to_rule_state(state, duel.with_ship("enterprise", worn))
        shares.append(registry.get("heavy-combat").unit_condition(worn_state, enterprise).lost)
    assert shares[0] < shares[1] < shares[2] <= 0.99
    boxes[0] = 17
    crippled = hc_duel.to_rule_state(
        state, duel.with_ship("enterprise", ship.evolve(destroyed=tuple(boxes)))
    )
    assert registry.get("heavy-combat").unit_condition(crippled, enterprise).out
    wreck = hc_duel.to_rule_state(state, duel.with_ship("enterprise", ship.evolve(out="wreck")))
    ended = end(wreck)
    assert (ended.winner, ended.reason, ended.spec_id) == ("Klingon", NO_UNIT_ABLE, "A001.E1")


def test_A003_E1_cortex_strength_by_scale_and_out_when_adrift():
    state = scenario("cortex-space")
    galactica, viper = state.unit("galactica"), state.unit("starbuck")
    assert cortex_end.strength(galactica) == 40 * 5  # spacecraft scale (T003.14)
    assert cortex_end.strength(viper) == 14 * 2  # planetcraft scale
    adrift = state.replace_unit(galactica.with_stats(wound=10, stun=30))
    condition = cortex_end.unit_condition(adrift, galactica)
    assert condition.out and not condition.able
    hurt = state.replace_unit(galactica.with_stats(wound=10))
    assert cortex_end.unit_condition(hurt, galactica).lost == 0.25


def test_A004_E1_sw_ship_crippled_at_severe_damage():
    state = scenario("sw-d6-capital")
    isd = state.unit("isd")
    system = registry.get("sw-d6-capital")
    fresh = sw_ledger.condition(state, "isd")
    heavy = sw_ledger.with_condition(state, "isd", replace(fresh, level="heavy"))
    assert system.unit_condition(heavy, isd).lost == 0.5
    severe = sw_ledger.with_condition(state, "isd", replace(fresh, level="severe"))
    assert system.unit_condition(severe, isd).out
    assert system.unit_condition(state.without_unit("isd"), isd).out


def test_R002_22_dystopian_wars_reads_the_recorded_result():
    state = Game.new(scenario("dystopian-wars"), 1).state
    assert end(state) is None
    won = dw_tracking.put(
        state,
        result=FrozenMap(winner="B", how="victory-points", turn=6, points=FrozenMap(A=0, B=0)),
    )
    ended = end(won, 99)
    assert (ended.winner, ended.spec_id, ended.measure, ended.turn) == ("B", "R002.22", "VP", 6)
    drawn = dw_tracking.put(
        state, result=FrozenMap(winner=None, how="draw", turn=6, points=FrozenMap(A=0, B=0))
    )
    assert end(drawn).spec_id == "A002.19" and end(drawn).is_draw


# --------------------------------------------------------------------------- session


def test_the_session_refuses_actions_after_the_end_and_logs_it():
    state = with_options(scenario("heavy-combat"), turn_limit=1)
    game = Game.new(state, 3)
    while not game.over:
        kinds = {choice.kind for choice in game.choices()}
        resolve = game.declare("resolve", game.side_to_act)
        game = game.apply(resolve) if "resolve" in kinds else game.pass_go()
    assert game.outcome.reason == TURN_LIMIT
    last = game_log(game).entries[-1]
    assert last.entry == "end" and last.get("spec_id") == "A001.E1"
    assert last.text().startswith(
        f"#{game.step_number} Game over: Draw (Federation 0% - Klingon 0%)"
    )
    with pytest.raises(UserError, match="the game is over"):
        game.pass_go()
