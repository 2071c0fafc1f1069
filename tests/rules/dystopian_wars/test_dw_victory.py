"""Field Orders and victory (R002.20-R002.22, T002.1, A002.19, A002.20)."""

from __future__ import annotations

from dw_builders import DW, refused, table, unit

from tactical.dice import ScriptedDice
from tactical.model import FrozenMap
from tactical.rules.base import Action, TurnPosition
from tactical.rules.dystopian_wars import play, tracking, victory


def _fleets(**options):
    return play.setup(
        table(
            unit("a-big", 10, 5, size="large", points=60, squadron="big"),
            unit("a-mid", 20, 5, size="medium", points=30, squadron="mid"),
            unit("a-small", 30, 5, size="small", points=10, squadron="small"),
            unit(
                "b-big", 10, 40, "B", size="large", points=60, fleet_commodore=True, squadron="big"
            ),
            unit("b-mid", 20, 40, "B", size="medium", points=30, squadron="mid"),
            unit("b-small", 30, 40, "B", size="small", points=10, squadron="small"),
            **options,
        )
    )


def _lose(state, unit_id, how="destroyed"):
    state = tracking.record_loss(state, state.unit(unit_id), how)
    return state.without_unit(unit_id) if how == "destroyed" else state


def test_R002_20_each_fleet_rolls_its_field_order_openly_after_deployment():
    state = _fleets()
    choices = DW.actions(state, TurnPosition(1, 0, 0), "A")
    assert [(c.kind, c.spec_id) for c in choices] == [("field-order", "R002.20")]
    rolled = DW.apply(state, Action("field-order", "A"), ScriptedDice([3]))
    assert rolled.summary == (3, 3)
    assert victory.order_of(rolled.state, "A").number == 3
    assert DW.actions(rolled.state, TurnPosition(1, 0, 0), "A") == ()
    with refused("R002.20"):
        DW.apply(rolled.state, Action("field-order", "A"), ScriptedDice([3]))
    odds = DW.action_odds(state, Action("field-order", "A")).section("outcome").distribution
    assert len(odds) == 6 and odds.total == 1


def test_R002_21_default_field_order_without_field_orders():
    state = _fleets(field_orders=False)
    assert victory.order_of(state, "A").number == 1
    assert DW.actions(state, TurnPosition(1, 0, 0), "A") == ()
    with refused("R002.21"):
        DW.apply(
            state.with_rule_state(field_orders=FrozenMap()),
            Action("field-order", "A"),
            ScriptedDice([2]),
        )


def test_R002_22_crushing_triumph_the_moment_the_order_is_met_FO1():
    state = _fleets(max_fleet_value=100)
    state = _lose(_lose(state, "b-big"), "b-small")  # 70 of 100
    assert victory.satisfied(state, "A") == "B"
    decided, events = victory.check_victory(state)
    assert dict(tracking.get(decided, "result")) == {
        "winner": "A",
        "how": "crushing-triumph",
        "turn": 1,
        "order": 1,
    }
    assert events[0].spec_id == "R002.22"
    assert DW.actions(decided, TurnPosition(1, 2, 0), "A") == ()
    with refused("R002.22"):
        DW.apply(decided, Action("initiative", "A"), ScriptedDice([6, 1]))


def test_field_orders_2_to_6_T002_1():
    state = _fleets(max_fleet_value=100)

    def with_order(number, current):
        return current.with_rule_state(
            field_orders=FrozenMap(A=FrozenMap(order=number, roll=number, chose_default=False))
        )

    two = with_order(2, _lose(state, "b-big"))
    assert victory.satisfied(two, "A") == "B"
    captured = with_order(2, _lose(state, "b-big", "captured"))
    assert victory.satisfied(captured, "A") is None  # FO 2 is "Destroy"
    three = with_order(3, _lose(_lose(state, "b-big"), "b-small"))
    assert victory.satisfied(three, "A") is None  # 70% but the Medium model survives
    three = with_order(3, _lose(state, "b-mid"))
    assert victory.satisfied(three, "A") is None  # all Medium but only 30%
    three = with_order(3, _lose(_lose(state, "b-mid"), "b-small", "captured"))
    assert victory.satisfied(three, "A") is None  # 40%
    three = with_order(3, _lose(_lose(state, "b-mid"), "b-big", "captured"))
    assert victory.satisfied(three, "A") == "B"
    four = with_order(4, _lose(_lose(_lose(state, "b-mid"), "b-big"), "b-small", "captured"))
    assert victory.satisfied(four, "A") == "B"
    five = with_order(5, _lose(_lose(state, "b-small"), "b-big"))
    assert victory.satisfied(five, "A") == "B"
    six = with_order(6, _lose(state, "b-big"))
    assert victory.satisfied(six, "A") is None  # the Commodore's vessel sunk, not captured
    six = with_order(6, _lose(state, "b-big", "captured"))
    assert victory.satisfied(six, "A") == "B"


def test_R002_22_victory_points_at_the_end_and_A002_19_draw():
    state = _fleets(game_turns=1)
    state = _lose(state, "b-small")
    state = DW.apply(state, Action("end-phase", "A"), ScriptedDice([])).state
    result = tracking.get(state, "result")
    assert (result["winner"], result["how"], dict(result["points"])) == (
        "A",
        "victory-points",
        {"A": 10, "B": 0},
    )
    even = _lose(_lose(_fleets(game_turns=1), "b-small"), "a-small")
    drawn = DW.apply(even, Action("end-phase", "A"), ScriptedDice([]))
    assert tracking.get(drawn.state, "result")["how"] == "draw"
    assert drawn.events[-1].spec_id == "A002.19"


def test_R002_3_A002_20_time_limit_ends_at_the_end_of_the_current_turn():
    state = _fleets(game_length="time")
    choices = DW.actions(state, TurnPosition(1, 3, 0), "A")
    assert [f.name for f in choices[0].fields] == ["time_up"]
    going_on = DW.apply(state, Action("end-phase", "A"), ScriptedDice([]))
    assert not tracking.game_over(going_on.state)
    over = DW.apply(state, Action("end-phase", "A", FrozenMap(time_up=True)), ScriptedDice([]))
    assert tracking.game_over(over.state)


def test_T002_1_an_order_checked_again_after_a_loss_reads_the_new_losses():
    # one deployed fleet, its losses growing and tried in other combinations (as the exact
    # odds do): what is remembered of the fleet and of each losses' record answers afresh
    state = _fleets(max_fleet_value=100)
    state = state.with_rule_state(
        field_orders=FrozenMap(A=FrozenMap(order=3, roll=3, chose_default=False))
    )
    mid = _lose(state, "b-mid")  # all Medium, 30%
    assert victory.satisfied(mid, "A") is None
    more = _lose(mid, "b-big", "captured")  # 90%, the Medium one among them
    assert victory.satisfied(more, "A") == "B"
    other = _lose(state, "b-big")  # 60%, no Medium one
    assert victory.satisfied(other, "A") is None
    assert victory.satisfied(mid, "A") is None  # asked again: the same answer
    assert victory.satisfied(_lose(other, "b-mid"), "A") == "B"
    assert victory.check_victory(more)[0].rule_state["result"]["winner"] == "A"
    assert victory.check_victory(other)[1] == []


def test_R002_22_the_check_on_a_watched_state_reads_what_the_orders_read_and_answers_alike():
    # a watched state (the computer players' copy noting its reads) hands out new views of
    # its tables: the check answers from the entries themselves, and notes at least the
    # reads the Field Orders make
    from tactical.agents.reads import watching

    first = FrozenMap(order=1, roll=1, chose_default=False)
    state = _fleets(max_fleet_value=100).with_rule_state(field_orders=FrozenMap(A=first, B=first))
    for lost, winner in (((), None), (("b-big", "b-small"), "A"), (("b-mid",), None)):
        current = state
        for unit_id in lost:
            current = _lose(current, unit_id)
        for _ in range(2):  # the second time from what is remembered
            watched, reads = watching(current)
            assert victory._winners(watched) == ((winner,) if winner else ())
            plain, plain_reads = watching(current)
            assert tuple(s for s in ("A", "B") if victory.satisfied(plain, s)) == (
                (winner,) if winner else ()
            )
            assert set(plain_reads.key()) <= set(reads.key())


def test_a_loss_record_is_made_once_per_model_and_how_it_was_lost():
    """R002.22: the record the Field Orders read, the same for every outcome that sinks the
    same model the same way."""
    state = _fleets()
    big = state.unit("b-big")
    record = tracking.loss_record(big, "destroyed")
    assert record == FrozenMap(
        id="b-big", side="B", points=60, size="large", force="naval", commodore=True,
        squadron="B:big", how="destroyed",
    )  # fmt: skip
    assert tracking.loss_record(big, "destroyed") is record
    assert tracking.loss_record(big, "captured")["how"] == "captured"
    assert tracking.loss_record(state.unit("b-mid"), "destroyed")["id"] == "b-mid"
