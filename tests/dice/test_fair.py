"""The commit-reveal dice (`dice.fair`): chains, seeds and the checks of a game's rolls."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.dice.fair import (
    Commitment,
    FairLedger,
    FairRoll,
    HashChain,
    check_rolls,
    follows,
    fresh_nonce,
    is_nonce,
    next_index,
)

GUEST = "Klingon"


def _roll(chain: HashChain, index: int, nonce: str = "ab" * 32, by: str = "server") -> FairRoll:
    return FairRoll(by, 0, index, chain.value(index), ((GUEST, nonce),))


def _ledger(chain: HashChain, withdrawn=()) -> FairLedger:
    return FairLedger((Commitment("server", chain.head, 1),), (GUEST,), tuple(withdrawn))


def test_each_value_hashes_to_the_one_before_down_to_the_head():
    chain = HashChain.new(16)
    assert hashlib.sha256(bytes.fromhex(chain.value(1))).hexdigest() == chain.head
    for index in range(2, 17):
        assert follows(chain.value(index - 1), chain.value(index))
    assert not follows(chain.value(2), chain.value(1))  # no way back up the chain
    with pytest.raises(IndexError):
        chain.value(17)


def test_a_chain_is_made_again_from_its_secret_alone():
    chain = HashChain.new(8)
    assert HashChain(chain.secret, 8).head == chain.head
    assert HashChain.new(8).head != chain.head


def test_nonces_are_64_hex_digits_from_the_system_s_randomness():
    made = {fresh_nonce() for _ in range(50)}
    assert len(made) == 50 and all(is_nonce(n) for n in made)
    assert not is_nonce("AB" * 32) and not is_nonce("ab" * 31) and not is_nonce(5)


@given(st.integers(min_value=1, max_value=10_000))
def test_the_seed_depends_on_every_nonce_and_the_step(step):
    chain = HashChain("cd" * 32, 4)
    base = _roll(chain, 1)
    assert base.seed(step) == _roll(chain, 1).seed(step)  # a function of its inputs only
    assert base.seed(step) != base.seed(step + 1)
    assert base.seed(step) != _roll(chain, 1, "ac" * 32).seed(step)
    assert base.seed(step) != _roll(chain, 2).seed(step)


def test_a_record_reads_back_from_its_document_and_bad_ones_say_why():
    roll = _roll(HashChain.new(4), 2)
    assert FairRoll.from_document(roll.document()) == roll
    bad = {**roll.document(), "index": 0}
    with pytest.raises(ValueError, match="index: a whole number >= 1"):
        FairRoll.from_document(bad)
    with pytest.raises(ValueError, match="reveal: 64 hex digits"):
        FairRoll.from_document({**roll.document(), "reveal": "zz"})
    ledger = _ledger(HashChain.new(4), [(3, roll)])
    assert FairLedger.from_document(ledger.document()) == ledger


def test_rolls_in_order_check_out():
    chain = HashChain.new(8)
    rolled = [
        (1, None, False),
        (2, _roll(chain, 1), True),
        (3, None, False),
        (4, _roll(chain, 2), True),
    ]
    assert check_rolls(_ledger(chain), rolled) is None


@pytest.mark.parametrize(
    ("rolled", "step", "why"),
    [
        ([(2, "skip", True)], 2, "where value 1 was next"),
        ([(2, 1, True), (3, 1, True)], 3, "again"),
        ([(2, 1, True), (3, None, True)], 3, "no nonces"),
        ([(2, "forged", True)], 2, "does not hash"),
        ([(2, "no-guest", True)], 2, "no nonce from Klingon"),
    ],
)
def test_a_roll_out_of_order_forged_or_without_nonces_is_named(rolled, step, why):
    chain = HashChain.new(8)
    made = []
    for number, what, dice in rolled:
        if what is None:
            made.append((number, None, dice))
        elif what == "skip":
            made.append((number, _roll(chain, 2), dice))
        elif what == "forged":
            made.append(
                (number, FairRoll("server", 0, 1, fresh_nonce(), ((GUEST, "ab" * 32),)), dice)
            )
        elif what == "no-guest":
            made.append((number, FairRoll("server", 0, 1, chain.value(1), ()), dice))
        else:
            made.append((number, _roll(chain, what), dice))
    problem = check_rolls(_ledger(chain), made)
    assert problem is not None and problem.step == step and why in problem.reason


def test_values_used_by_steps_taken_back_by_agreement_are_not_a_gap():
    chain = HashChain.new(8)
    line = [(2, _roll(chain, 1), True), (3, _roll(chain, 3), True)]
    assert check_rolls(_ledger(chain), line).reason.startswith("server revealed value 3")
    withdrawn = [(3, _roll(chain, 2))]
    assert check_rolls(_ledger(chain, withdrawn), line) is None
    assert next_index([roll for _, roll, _ in line], "server", 0, _ledger(chain, withdrawn)) == 4


def test_the_chain_and_the_seed_are_made_as_recorded():
    """Pinned: a save's rolls replay only while a chain and a seed are made exactly so."""
    chain = HashChain("cd" * 32, 4)
    assert chain.head == "4a22cbc9e30e500fc45f58fffe9228fd9dfd4c2a48af96b1e3e68672014f1097"
    roll = FairRoll("server", 0, 1, chain.value(1), (("Zed", "ef" * 32), (GUEST, "ab" * 32)))
    assert roll.seed(7) == 2346460533859880134  # the nonces in party order, whatever given


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"by": ""}, "by:"),
        ({"chain": -1}, "chain: a whole number >= 0"),
        ({"chain": True}, "chain: a whole number >= 0"),
        ({"index": 1.0}, "index: a whole number >= 1"),
        ({"fresh": {"": "ab" * 32}}, "fresh:"),
        ({"fresh": {GUEST: "xy"}}, "fresh:"),
        ({"fresh": []}, "fresh:"),
        ({"extra": 1}, "an object with by, chain, index, reveal and fresh"),
    ],
)
def test_a_bad_record_says_what_it_should_be(change, says):
    document = {**_roll(HashChain.new(4), 1).document(), **change}
    with pytest.raises(ValueError) as error:
        FairRoll.from_document(document)
    assert says in str(error.value)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"commitments": []}, "commitments: a list"),
        (
            {"commitments": [{"party": "server", "head": "x", "from_step": 1}]},
            "commitments[0].head",
        ),
        (
            {"commitments": [{"party": "", "head": "ab" * 32, "from_step": 1}]},
            "commitments[0].party",
        ),
        ({"commitments": [{"party": "s", "head": "ab" * 32, "from_step": 0}]}, "from_step"),
        ({"players": [""]}, "players: a list of side names"),
        ({"withdrawn": {}}, "withdrawn: a list"),
        ({"withdrawn": [{"step": 0, "fair": {}}]}, "withdrawn[0].step"),
        ({"withdrawn": [{"step": 2}]}, "withdrawn[0]: an object with step and fair"),
        ({"other": 1}, "an object with commitments, players, withdrawn and sealed"),
    ],
)
def test_a_bad_ledger_says_what_it_should_be(change, says):
    document = {**_ledger(HashChain.new(4)).document(), **change}
    with pytest.raises(ValueError) as error:
        FairLedger.from_document(document)
    assert says in str(error.value)


def test_a_roll_from_a_chain_never_published_or_before_its_step_is_named():
    chain = HashChain.new(8)
    ledger = FairLedger((Commitment("server", chain.head, 5),), (GUEST,))
    assert check_rolls(ledger, [(3, _roll(chain, 1), True)]).reason.startswith(
        "it used a chain server published later"
    )
    other = FairRoll("server", 1, 1, chain.value(1), ((GUEST, "ab" * 32),))
    assert "no chain number 2" in check_rolls(ledger, [(6, other, True)]).reason
    own = FairRoll("server", 0, 1, chain.value(1), ((GUEST, "ab" * 32), ("server", "cd" * 32)))
    assert "its own reveal" in check_rolls(ledger, [(6, own, True)]).reason
    # before the first commitment, a step's dice came from the seed: nothing to check
    assert check_rolls(ledger, [(2, None, True)]) is None


def test_the_next_value_is_one_past_every_one_used_by_this_revealer_s_chain():
    chain = HashChain.new(8)
    mine = [_roll(chain, 1), None, _roll(chain, 2)]
    theirs = FairRoll("Klingon", 0, 7, chain.value(7), ())
    other_chain = FairRoll("server", 1, 5, chain.value(5), ())
    assert next_index([*mine, theirs, other_chain], "server", 0) == 3
    assert next_index([], "server", 0) == 1
    assert next_index([theirs], "Klingon", 0) == 8
