"""Close quarters in Dystopian Wars: rams (R002.28 segment 2b) and Boarding Assaults
(R002.26 limits who may start one); both rolls are the base game's (external, G.5).

A ram is an attack of the rammer's `ram_dice` on plain numbers (`chance.attack_roll`,
without Shield or Guardian saves); a Boarding Assault sets the attacker's Assault Points
against the defender's, and more attacker successes capture the target as a Prize.
"""

from __future__ import annotations

from dataclasses import dataclass

from tactical.dice import D6, Dice
from tactical.model import GameState, Unit
from tactical.rules.base import Event, Resolution
from tactical.rules.dystopian_wars import tracking
from tactical.rules.dystopian_wars.cards import card
from tactical.rules.dystopian_wars.chance import Defence, attack_roll
from tactical.rules.dystopian_wars.combat import settings
from tactical.rules.dystopian_wars.dicework import PoolRules
from tactical.rules.dystopian_wars.resolving import destroy


def ram(state: GameState, rammer: Unit, target: Unit, dice: Dice) -> Resolution:
    """R002.28 segment 2b (base game, external): a ram is `ram_dice` AD from the rammer
    against the rammed model, with no Shield or Guardian saves, then the usual thresholds."""
    options = settings(state)
    profile = card(target)
    count = card(rammer).ram_dice
    events = [Event.of("ram", "R002.28", rammer=rammer.id, target=target.id, attack_dice=count)]
    if count <= 0 or profile.is_tiny_flyer:
        return Resolution(state, tuple(events), None)
    defence = Defence(
        dice=count,
        pool=PoolRules(
            int(options["ad_hit_on"]), int(options["ad_six_hits"]), bool(options["ad_exploding"])
        ),
        shield_dice=0,
        guardian_dice=0,
        save_on=None,
        damage_rating=profile.damage_rating,
        critical_rating=profile.critical_rating,
        critical_damage=int(options["critical_damage"]),
        hull_left=tracking.hull_left(state, target),
        wing_size=0,
        kill_hits=int(options["tiny_flyer_kill_hits"]),
    )
    roll = dice.chance(
        lambda source: attack_roll(
            defence, source, who=rammer.id, target=target.id, weapon_kind="ram"
        ),
        key=lambda r: r.summary,
    )
    events.extend(roll.events)
    summary = roll.summary
    if summary.hull_lost:
        state = tracking.put_in(
            state, "hull_lost", target.id, tracking.hull_lost(state, target.id) + summary.hull_lost
        )
    if summary.critical:
        state = tracking.add_effect(state, target.id, summary.critical)
    if summary.destroyed:
        state = destroy(state, target)
        events.append(Event.of("destroyed", "G.5", unit=target.id))
    return Resolution(state, tuple(events), summary)


@dataclass(frozen=True, slots=True)
class Tally:
    successes: int
    events: tuple[Event, ...]


def assault_dice(count: int, hit_on: int, dice: Dice, who: str, what: str) -> Tally:
    """Boarding dice (base game, external): 1D6 per Assault Point, successes on `hit_on`+."""

    def step(tally: Tally, source: Dice) -> Tally:
        value = source.roll(D6, who=who, what=what)
        success = value >= hit_on
        event = Event.of(
            "roll", "G.5", who=who, what=what, die="1D6", result=value, success=success
        )
        return Tally(tally.successes + success, (*tally.events, event))

    return dice.fold(Tally(0, ()), [step] * count, key=lambda t: t.successes)


def boarding(state: GameState, attacker: Unit, target: Unit, dice: Dice) -> Resolution:
    """A Boarding Assault (R002.26 limits who may start one; the roll is the base game's,
    external): more attacker successes than defender successes capture the target."""
    options = settings(state)
    hit_on = int(options["boarding_hit_on"])
    ours = dice.chance(
        lambda source: assault_dice(
            card(attacker).assault_points, hit_on, source, attacker.id, "boarding"
        ),
        key=lambda t: t.successes,
    )
    theirs = dice.chance(
        lambda source: assault_dice(
            card(target).assault_points, hit_on, source, target.id, "repel boarders"
        ),
        key=lambda t: t.successes,
    )
    captured = ours.successes > theirs.successes
    events = [
        *ours.events,
        *theirs.events,
        Event.of(
            "boarding",
            "G.5",
            attacker=attacker.id,
            target=target.id,
            attacker_successes=ours.successes,
            defender_successes=theirs.successes,
            captured=captured,
        ),
    ]
    if captured:
        state = tracking.record_loss(state, target, "captured")
        state = tracking.put_in(state, "prizes", target.id, attacker.side)
        state = tracking.put_in(state, "offers", target.side, None)
    return Resolution(state, tuple(events), captured)
