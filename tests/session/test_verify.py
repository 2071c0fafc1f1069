"""The proof afterwards (`session.verify`): a fair save checks out, and every kind of edit
by hand is caught at the step it was made, with the reason in words."""

from __future__ import annotations

import copy
import json

import pytest
from fair_games import SERVER, fair_document, server_chain

from tactical.io import builtin_map, load_map
from tactical.io.saves import loads_save
from tactical.session.autoplay import play_turns
from tactical.session.game import Game
from tactical.session.saving import saved_game
from tactical.session.verify import check_saved

RULES = "battlefleet-mars"
MISSILES = 11  # the action index of the scripted game's first missile salvo (13 dice)


@pytest.fixture(scope="module")
def clean() -> dict:
    return fair_document(RULES)


def verdict(document: dict):
    return check_saved(loads_save(json.dumps(document))).verdict


def edited(clean: dict, change) -> dict:
    document = copy.deepcopy(clean)
    change(document)
    return document


def fair_steps(document: dict) -> list[int]:
    return [index for index, action in enumerate(document["actions"]) if "fair" in action]


def test_a_clean_fair_save_checks_out(clean):
    found = verdict(clean)
    assert found.ok
    rolls = sum(len(action["rolls"]) for action in clean["actions"])
    dice_steps = len(fair_steps(clean))
    assert (found.rolls, found.dice_steps, found.seeded) == (rolls, dice_steps, 0)
    assert dice_steps == 44 and rolls == 69
    guest = clean["fair"]["players"][0]
    assert found.message() == (
        f"all {rolls} rolls check out ({dice_steps} dice steps, each with {guest}'s nonce); "
        "the game replays to the table saved"
    )
    assert found.replayed_to_digest is True


def test_the_missile_salvo_is_where_the_edits_are_made(clean):
    action = clean["actions"][MISSILES]
    assert action["params"]["weapon"] == "missiles" and len(action["rolls"]) > 6
    assert "fair" in action


def test_a_die_changed_by_hand_is_caught_at_its_step(clean):
    def change(document):
        rolls = document["actions"][MISSILES]["rolls"]
        rolls[2] = (rolls[2] + 1) % 10

    found = verdict(edited(clean, change))
    assert not found.ok
    assert found.problem.step == MISSILES + 1
    assert "a die was changed after it was rolled" in found.problem.reason
    assert found.problem.what.startswith("Ares: Ares missile salvo: missiles at Deimos Base")
    assert found.message().startswith(f"step {MISSILES + 1} (turn 1, Ares: ")


def test_an_action_parameter_changed_by_hand_is_caught_at_its_step(clean):
    def change(document):
        document["actions"][MISSILES]["params"]["missiles"] = 5

    found = verdict(edited(clean, change))
    assert found.problem is not None and found.problem.step == MISSILES + 1
    assert "rolls" in found.problem.reason


def test_a_reveal_changed_by_hand_is_caught_at_its_step(clean):
    def change(document):
        document["actions"][MISSILES]["fair"]["reveal"] = "ab" * 32

    found = verdict(edited(clean, change))
    assert found.problem.step == MISSILES + 1
    assert found.problem.reason.startswith(f"{SERVER}'s revealed value does not hash to the one")


def test_a_nonce_changed_by_hand_is_caught_at_its_step(clean):
    def change(document):
        fresh = document["actions"][MISSILES]["fair"]["fresh"]
        party = next(iter(fresh))
        fresh[party] = "cd" * 32

    found = verdict(edited(clean, change))
    assert found.problem.step == MISSILES + 1
    assert "a die was changed" in found.problem.reason


def test_a_dropped_fair_record_is_caught_at_its_step(clean):
    def change(document):
        del document["actions"][MISSILES]["fair"]

    found = verdict(edited(clean, change))
    assert found.problem.step == MISSILES + 1
    assert found.problem.reason == "it rolled dice with no nonces from the players"


def test_a_skipped_chain_value_is_caught_at_its_step(clean):
    chain = server_chain()
    first = fair_steps(clean)[3]

    def change(document):
        record = document["actions"][first]["fair"]
        record["index"] += 1
        record["reveal"] = chain.value(record["index"])  # a genuine value: only out of turn

    found = verdict(edited(clean, change))
    assert found.problem.step == first + 1
    assert "revealed value 5 of its chain where value 4 was next" in found.problem.reason


def starting_state(**changed) -> dict:
    """The bookkeeping Battlefleet Mars keeps for the scenario's starting table, changed."""
    return {"turn": 1, "stage": "", "logistics_done": [], "fired": [], "lp_spent": [], **changed}


def test_a_starting_state_changed_by_hand_is_caught_at_the_step_it_breaks(clean):
    """The bookkeeping of the starting table (a save's rule_state) says the Deimos Base
    already fired this turn: its first shot no longer applies."""
    shooter = next(i for i, a in enumerate(clean["actions"]) if a["actor"] == "deimos-base")

    def change(document):
        document["rule_state"] = starting_state(fired=["deimos-base"])

    found = verdict(edited(clean, change))
    assert found.problem.step == shooter + 1
    assert found.problem.what == "Mars: Deimos Base: attack at Ares cruiser Nemesis"
    assert found.problem.reason.startswith("it no longer applies: 'attack' by Deimos Base is")
    assert "offered:" not in found.message()  # the rules' own names of the choices


def test_a_starting_state_the_rules_cannot_read_is_named(clean):
    def change(document):
        document["rule_state"] = starting_state(lp_spent=[["mars-miner", 3]])

    found = verdict(edited(clean, change))
    assert found.problem.step == 1
    assert "saved bookkeeping (rule_state, changed by hand?)" in found.problem.reason


def test_an_edit_that_replays_to_another_table_is_caught_after_the_last_step(clean):
    """The starting table said to be turn 2: every step still plays, with every die as
    recorded, but the game ends on another table than the one saved."""

    def change(document):
        document["rule_state"] = starting_state(turn=2)

    found = verdict(edited(clean, change))
    assert found.problem is not None and found.problem.step == 0
    assert found.message() == (
        f"after the last step (step {len(clean['actions'])}): the game does not replay to "
        "the table saved: the starting table, its saved bookkeeping (rule_state) or an "
        "action was changed after the save was written"
    )


def test_a_save_without_a_ledger_says_no_one_supplied_nonces():
    game = play_turns(Game.new(load_map(builtin_map(RULES)), 77), turns=2)
    found = check_saved(saved_game(game)).verdict
    rolls = sum(len(step.rolls) for step in game.steps)
    assert found.ok and found.ledger is None and rolls > 0
    assert found.message() == (
        f"this game was played on one screen: its {rolls} rolls replay exactly from its seed "
        "(77), but no second player supplied nonces, so they show the game as it was "
        "played, not that its dice were fair; the game replays to the table saved"
    )


def test_json_document_of_a_problem(clean):
    def change(document):
        document["actions"][MISSILES]["fair"]["reveal"] = "ab" * 32

    document = verdict(edited(clean, change)).document()
    assert document["ok"] is False
    assert document["problem"]["step"] == MISSILES + 1
    assert document["problem"]["side"] == "Ares"
    assert document["fair"] is True and document["players"] == clean["fair"]["players"]
