"""Cortex Space gun attacks resolved (R003.7, R003.32, R003.35-R003.37, R003.45, R003.59).

`plan_gun` decides everything before the first die (pools, modifiers, defense,
damage die; cached, since the exact odds re-run the resolver once per outcome);
`strike` is one attack roll against the defense and its damage die, stepped up
on a battery's or a wing's hit (+2 when extraordinary, A003.4); `gun_volley`
delivers the hit to the target (`damage.deliver`); `resolve_gun` writes it back
and records the attack. `Volley` and `after_damage` (R003.11) serve the
point-defense and missile-lock resolvers too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from tactical.dice import Dice
from tactical.dice.core import ChanceStep, DieStep, Subroll
from tactical.model import GameState, Unit
from tactical.model.frozen import last_asked, memo_of
from tactical.model.worded import conditions_only, worded
from tactical.rules.base import Attack, Event, Resolution
from tactical.rules.cortex_space import tracker
from tactical.rules.cortex_space.acting import weapon_of
from tactical.rules.cortex_space.attack_pools import (
    AttackRoll,
    Defense,
    attack_roll,
    defense_of,
    roll_defense,
)
from tactical.rules.cortex_space.damage import (
    NO_DICE,
    Receiver,
    Target,
    damage_dealt,
    deliver,
    delivery_rolls,
    land,
    landing_of,
    receiver_of,
    target_of,
    write_back,
)
from tactical.rules.cortex_space.outcome import condition_key
from tactical.rules.cortex_space.pilot_rolls import modifier_events
from tactical.rules.cortex_space.positions import band_of, centre_distance
from tactical.rules.cortex_space.rolls import (
    DamageDice,
    Pool,
    PoolRoll,
    attack_hits,
    basic_damage,
    composite_roll,
    damage_composite,
    is_extraordinary_hit,
    pool_composite,
    roll_damage,
    roll_pool,
)
from tactical.rules.cortex_space.tables import called_shot_resist, group_damage_steps
from tactical.rules.cortex_space.units import Vessel, Weapon, settings, vessel

# --------------------------------------------------------------------------- resolving


@dataclass(frozen=True, slots=True)
class Volley:
    """A resolution in progress: the target's state, hits so far, what the next step needs."""

    target: Target
    hits: int = 0
    extraordinary: int = 0
    pending: tuple = ()
    events: tuple[Event, ...] = ()


def volley_key(volley: Volley) -> tuple:
    return volley.target.key, volley.hits, volley.extraordinary, volley.pending


@dataclass(frozen=True, slots=True)
class AttackSummary:
    """What an attack came to: hits, extraordinary hits, damage dealt (as the target's track
    counts it, R003.58), whether it destroyed the target, and the battle-damage results."""

    hits: int
    extraordinary: int
    stun: int
    wound: int
    destroyed: bool
    effects: tuple[str, ...]


def damage_facts(summary: Any) -> dict[str, Any]:
    """The damage an attack or a point-defense volley dealt, as its outcome event states
    it (R003.7, R003.44): stun, wound, whether destroyed, and the battle-damage results."""
    return {
        "stun": summary.stun,
        "wound": summary.wound,
        "destroyed": summary.destroyed,
        "battle_damage": summary.effects,
    }


@dataclass(frozen=True)
class GunPlan:
    attacker: Unit
    target: Unit
    weapon: Weapon
    group: bool
    roll: AttackRoll
    defense: Defense
    damage: DamageDice
    receiver: Receiver
    start: Target
    events: tuple[Event, ...]


def plan_gun(state: GameState, attack: Attack) -> GunPlan:
    """Everything decided before the first die: pools, modifiers, defense, damage die.

    Cached by (state, attack): the exact odds re-run the resolver once per outcome, with the
    very same state and attack, which are recognised without hashing the state again."""
    last = _LAST_PLAN
    if last[0] is state and last[1] is attack:
        return last[2]
    # per state by identity, not an lru_cache keyed by the state: hashing the state reads
    # its whole rule state, which would make every key a dependency of a computer player's
    # remembered effect (`agents.reads`)
    memo = memo_of(_PLANS, state)
    found = memo.get(attack)
    if found is None:
        found = memo[attack] = _plan_gun(state, attack)
    return _remember_plan(state, attack, found)


def _remember_plan(state: GameState, attack: Attack, plan: GunPlan) -> GunPlan:
    global _LAST_PLAN
    _LAST_PLAN = (state, attack, plan)  # one tuple assigned: read whole or not at all
    return plan


_LAST_PLAN: tuple = (None, None, None)  # the last (state, attack, plan) asked for
_PLANS: dict[int, tuple[Any, dict]] = {}  # plans by state (`memo_of`), then by attack


def _plan_gun(state: GameState, attack: Attack) -> GunPlan:
    options = settings(state)
    attacker, target = state.unit(attack.attacker), state.unit(attack.target)
    card, target_card = vessel(attacker), vessel(target)
    weapon = weapon_of(attacker, card, attack.weapon)
    battery = int(attack.params.get("battery", 1))
    fighters = int(attack.params.get("fighters", 1))
    roll = attack_roll(
        state,
        attacker,
        weapon,
        target,
        options,
        gunner=attack.params.get("gunner") or None,
        battery=battery,
        fighters=fighters,
        called_shot=bool(attack.params.get("called_shot", False)),
    )
    defense = defense_of(state, target, options)
    distance = centre_distance(attacker, target)
    events = (
        Event.of(
            "declare",
            "R003.7",
            attacker=attacker.id,
            weapon=weapon.name,
            target=target.id,
            battery=battery,
            fighters=fighters,
            gunner=roll.firer.gunner or None,
        ),
        Event.of(
            "range",
            "GEO003.1",
            distance=round(distance, 6),
            band=band_of(distance, options),
            weapon_range=weapon.range,
        ),
        *modifier_events(roll.modifiers, "attack"),
        Event.of("attack-pool", "R003.2", pool=roll.pool.text, steps=roll.pool.steps),
        *modifier_events(defense.modifiers, "defense"),
        Event.of("defense", defense.spec_id, source=defense.source, value=defense.text),
        *_called_shot_events(attack, weapon, target_card),
    )
    return GunPlan(
        attacker,
        target,
        weapon,
        battery > 1 or fighters > 1,
        roll,
        defense,
        weapon.damage,
        receiver_of(target, options),
        target_of(target_card),
        events,
    )


def _called_shot_events(attack: Attack, weapon: Weapon, target: Vessel) -> tuple[Event, ...]:
    """R003.59 / T003.15: the Difficulty the target rolls to resist the called shot's special
    effect (the effects themselves are the base game's); none possible where the chart has
    no entry."""
    if not attack.params.get("called_shot"):
        return ()
    resist = called_shot_resist(weapon.scale, target.scale)  # type: ignore[arg-type]
    return (
        Event.of(
            "called-shot",
            "R003.59",
            attacker_scale=weapon.scale,
            target_scale=target.scale,
            resist_difficulty=resist,
            effect_possible=resist is not None,
        ),
    )


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack roll's result before it reaches the target: miss, or the hit's Stun and
    Wound in the weapon's scale (R003.7), with its events."""

    pending: tuple
    events: tuple[Event, ...] = ()


def _strike_key(strike: Strike) -> tuple:
    return strike.pending


def strike(plan: GunPlan, number: int, dice: Dice) -> Strike:
    """R003.7 (and R003.32 / R003.36 damage steps): attack roll, defense, damage die, rolled
    as a sub-roll value (`StrikeRoll`)."""
    roll = strike_roll(plan, number)
    return dice.chance(roll, key=roll.key)


def strike_roll(plan: GunPlan, number: int) -> StrikeRoll:
    """The sub-roll value of strike `number` of a plan (`strike`)."""
    return StrikeRoll(
        plan.roll.pool,
        plan.defense,
        plan.group,
        plan.damage,
        plan.attacker.id,
        plan.target.id,
        number,
        worded(),  # read for the state alone: the rolls' words left out (`model.worded`)
    )


@dataclass(frozen=True, slots=True, eq=False)
class StrikeRoll(Subroll):
    """One strike (`strike`) as a value: everything its dice and words depend on. The same
    strike comes back on many tables (the same gun at the same target, whatever damage it
    or the others took), so the exact odds enumerate its rolls once per value.

    Equal by what its outcome reads (`_read`): read for the state alone (no words), the
    dice of its pools, the defense and the damage die, not whose rolls they are or how
    the pools were made up; so equal strikes of different guns and targets are one value."""

    pool: Pool
    defense: Defense
    group: bool
    damage: DamageDice
    who: str
    against: str
    number: int
    words: bool

    def __call__(self, dice: Dice) -> Strike:
        return _strike(self, dice)

    def key(self, outcome: Strike) -> tuple:
        """What the volley reads of the strike (`_strike_key`: not its events)."""
        return outcome.pending

    def _read(self) -> tuple:
        """What the strike's outcome reads (`_strike`): with words, everything; without, the
        dice of its pools (`roll_pool`, `roll_defense`: step by step), the fixed defense,
        a group's damage steps and the damage die; the labels name rolls, which a recorded
        roll keeps but an outcome without words never reads."""
        if self.words:
            return (
                self.pool,
                self.defense,
                self.group,
                self.damage,
                self.who,
                self.against,
                self.number,
                True,
            )
        defense = self.defense
        return (
            _steps_of(self.pool),
            defense.fixed,
            tuple(_steps_of(pool) for pool in defense.pools),
            self.group,
            self.damage,
            False,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not StrikeRoll:
            return NotImplemented
        return self._read() == other._read()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._read())


def _steps_of(pool: Pool) -> tuple[int, ...]:
    """A pool's dice as `roll_pool` rolls them: each die's step, in order."""
    return tuple(entry.die.step for entry in pool.dice)


_NO_STRIKE = Strike(())  # a strike before its first roll


def _strike(plan: StrikeRoll, dice: Dice) -> Strike:
    """`strike`'s rolls: attack roll, defense, damage die."""
    return dice.fold(_NO_STRIKE, _strike_steps(plan), key=_strike_key)


def _made_strike_steps(plan: StrikeRoll) -> tuple:
    """R003.7: the strike's steps (attack roll, defense, damage die). A pool rolled as one
    composite die (`rolls.pool_composite`) is a `DieStep` and the damage die a `ChanceStep`
    (`DamageRoll`), which the exact odds read face by face instead of replaying each step
    once per state and face: the same rolls, states, weights and order."""
    who, against, number, words = plan.who, plan.against, plan.number, plan.words
    attack_what, damage_what = f"attack {number}", f"damage {number}"

    def attacked(roll: PoolRoll) -> Strike:
        said = roll.events(who, attack_what) if words else ()
        return Strike(("attack", roll.total, roll.botch), said)

    def defended(current: Strike, defense: PoolRoll) -> Strike:
        _, total, botch = current.pending
        pending = _verdict(total, botch, defense.total)
        if not words:
            return Strike(pending, current.events)
        hit = pending[0] == "hit"
        events = () if plan.defense.fixed is not None else defense.events(against, "defense")
        verdict = Event.of(
            "attack",
            "R003.7",
            number=number,
            attack=total,
            botch=botch,
            defense=defense.total,
            hit=hit,
            extraordinary=hit and pending[2],
            basic=pending[1] if hit else 0,
        )
        return Strike(pending, current.events + events + (verdict,))

    def damaged(current: Strike, rolled: PoolRoll | None) -> Strike:
        if rolled is None:  # no hit: no damage die
            return current
        _, margin, extraordinary = current.pending
        basic = basic_damage(margin)
        pending = ("damage", basic.stun, basic.wound + rolled.total, extraordinary)
        if not words:
            return Strike(pending, current.events)
        bonus = _damage_bonus(plan, extraordinary)
        events = (
            Event.of(
                "damage-die",
                "R003.36" if plan.group else "R003.7",
                die=plan.damage.up(bonus).name,
                steps=bonus,
            ),
            *rolled.events(who, damage_what),
            basic.event(margin, rolled.total),
        )
        return Strike(pending, current.events + events)

    def attack_step(current: Strike, source: Dice) -> Strike:
        return attacked(roll_pool(plan.pool, source, who=who, what=attack_what))

    def defense_step(current: Strike, source: Dice) -> Strike:
        return defended(current, roll_defense(plan.defense, source, against))

    def damage_step(current: Strike, source: Dice) -> Strike:
        if current.pending[0] != "hit":
            return current
        die = plan.damage.up(_damage_bonus(plan, current.pending[2]))
        return damaged(current, roll_damage(die, source, who=who, what=damage_what))

    steps: list[Callable[[Strike, Dice], Strike]] = [attack_step, defense_step, damage_step]
    attack = pool_composite(plan.pool)
    if attack is not None:
        attack_die, attack_count = attack

        def attack_face(current: Strike, value: int) -> Strike:
            return attacked(composite_roll(attack_die, attack_count, value))

        def attack_key(_: Hashable, value: int) -> tuple:
            return "attack", value, value == attack_count

        steps[0] = DieStep(attack_die, attack_face, who, attack_what, attack_key)
    defense = plan.defense
    rolled = pool_composite(defense.pools[0]) if len(defense.pools) == 1 else None
    if defense.fixed is None and rolled is not None:
        defense_die, defense_count = rolled

        def defense_face(current: Strike, value: int) -> Strike:
            return defended(current, composite_roll(defense_die, defense_count, value))

        def defense_key(key: Hashable, value: int) -> tuple:
            _, total, botch = key  # type: ignore[misc]
            return _verdict(total, botch, value)

        steps[1] = DieStep(defense_die, defense_face, against, "defense", defense_key)
    rolls = {
        extraordinary: DamageRoll(
            plan.damage.up(_damage_bonus(plan, extraordinary)), who, damage_what
        )
        for extraordinary in (False, True)
    }
    if all(damage_composite(roll.damage) is not None for roll in rolls.values()):

        def damage_roll(current: Strike) -> DamageRoll | None:
            pending = current.pending
            return rolls[pending[2]] if pending[0] == "hit" else None

        def damage_keys(current: Strike, key: Hashable, outcomes: Sequence[Any]) -> list:
            if key[0] != "hit":  # type: ignore[index]
                return [key]  # no damage die: the strike as it stands
            _, margin, extraordinary = key  # type: ignore[misc]
            basic = basic_damage(margin)
            return [
                ("damage", basic.stun, basic.wound + rolled.total, extraordinary)
                for rolled in outcomes
            ]

        steps[2] = ChanceStep(damage_roll, damaged, damage_keys)
    return tuple(steps)


# a strike's steps, made once for the last strike asked (the exact odds replay the strike
# once per outcome)
_strike_steps: Callable[[StrikeRoll], tuple] = last_asked(_made_strike_steps)


def _verdict(total: int, botch: bool, defense: int) -> tuple:
    """R003.7 / A003.6: the attack total against the defense, as the step pending: a hit
    with its margin and whether extraordinary (R003.5), or a miss."""
    if attack_hits(total, botch, defense):
        return "hit", total - defense, is_extraordinary_hit(total, defense)
    return ("miss",)


def _damage_bonus(plan: StrikeRoll, extraordinary: bool) -> int:
    """R003.32 / R003.36 / A003.4: a battery's or a wing's damage steps on a hit."""
    return group_damage_steps(True, extraordinary) if plan.group else 0


@dataclass(frozen=True, slots=True)
class DamageRoll(Subroll):
    """A hit's damage die rolled (R003.7), as a value: the strike's damage step reads its
    outcomes once per die and labels."""

    damage: DamageDice
    who: str
    what: str

    def __call__(self, dice: Dice) -> PoolRoll:
        return roll_damage(self.damage, dice, who=self.who, what=self.what)


def gun_volley(plan: GunPlan, dice: Dice, *, by_condition: bool = False) -> Volley:
    """The strike, then the hit delivered to the target (R003.7, R003.25, R003.34); with
    `by_condition`, the volleys that leave the target's condition the same merged (A003.E1,
    `_volley_by_condition`)."""
    initial, steps = _volley_steps(plan)
    if by_condition:
        return dice.fold(initial, _condition_steps(plan), key=_condition_keys(plan.receiver.wing))
    return dice.fold(initial, steps, key=volley_key)


def _volley_by_condition(volley: Volley) -> tuple:
    """A vessel's volley by what its condition reads of the target (A003.E1,
    `outcome.condition_key`) and the step pending: not its hits, systems or battle damage."""
    return condition_key(volley.target.tracks, False), volley.pending


def _wing_volley_by_condition(volley: Volley) -> tuple:
    """A wing's volley by what its condition reads (every fighter's track), and the step
    pending."""
    return condition_key(volley.target.tracks, True), volley.pending


def _condition_keys(wing: bool) -> Callable[[Volley], tuple]:
    return _wing_volley_by_condition if wing else _volley_by_condition


def _made_steps(plan: GunPlan) -> tuple[Volley, tuple, tuple]:
    """R003.7: the strike (attack roll, defense, damage die), then the hit delivered: the
    first state and the steps for a fold keyed by `volley_key`, then by the target's
    condition (the delivery saying how it moves each key: the exact odds make a volley only
    where its key is reached first). A hit that rolls no dice (no fighter picked at random,
    no battle damage) is delivered where it is read, not enumerated as a sub-roll: the same
    volleys, weights and replay counts (one replay, one outcome)."""

    # the strike as a step whose dice are its sub-roll (`strike`, rolled alike): the exact
    # odds read its outcomes instead of replaying the step once per outcome
    def strike_of(volley: Volley) -> StrikeRoll:
        return strike_roll(plan, 1)

    def struck(volley: Volley, rolled: Strike) -> Volley:
        # (made whole rather than by `replace`: once per strike outcome the odds read)
        return Volley(
            volley.target,
            volley.hits,
            volley.extraordinary,
            rolled.pending,
            volley.events + rolled.events,
        )

    rolls: list = [None, False]  # the last target asked and whether a hit on it rolls

    def delivery(volley: Volley) -> Delivery | None:
        if volley.pending[:1] != ("damage",):
            return None
        target = volley.target
        if rolls[0] is not target:  # the same target on every volley of one fold
            rolls[:] = target, delivery_rolls(target, plan.receiver)
        if not rolls[1]:
            return None  # a hit that rolls nothing, made where it is read (`fixed`)
        _, stun, wound, _ = volley.pending
        # read for the state alone: the hit's words left out (`model.worded`)
        return Delivery(target, plan.receiver, stun, wound, plan.weapon.scale, worded())

    last_fixed: list = [None, None, None]  # the last volley asked, its words, its hit

    def fixed(volley: Volley) -> Target:
        """The hit pending on `volley` delivered, where it rolls nothing: asked by the keys
        and then by `delivered` in a row, made once."""
        words = worded()  # read for the state alone: the hit's words left out
        if last_fixed[0] is volley and last_fixed[1] == words:
            return last_fixed[2]
        _, stun, wound, _ = volley.pending
        hit = deliver(
            volley.target, plan.receiver, stun, wound, plan.weapon.scale, NO_DICE, words=words
        )
        last_fixed[:] = volley, words, hit
        return hit

    def delivered(volley: Volley, target: Target | None) -> Volley:
        if target is None:
            if volley.pending[:1] != ("damage",):  # no hit
                return Volley(volley.target, volley.hits, volley.extraordinary, (), volley.events)
            target = fixed(volley)
        return Volley(
            Target(target.tracks, target.systems, target.effects) if target.events else target,
            volley.hits + 1,
            volley.extraordinary + int(volley.pending[3]),
            (),
            volley.events + target.events,
        )

    def hits(volley: Volley, outcomes: Sequence[Any]) -> Sequence[Any]:
        """The targets the delivery step makes of a hit pending on `volley`."""
        return (fixed(volley),) if outcomes[0] is None else outcomes

    def volley_keys(volley: Volley, key: Hashable, outcomes: Sequence[Any]) -> list:
        # `volley_key` of each volley `delivered` makes of `volley` (`ChanceStep.keys`)
        if volley.pending[:1] != ("damage",):
            return [(*key[:3], ())]  # type: ignore[index]
        count, extraordinary = volley.hits + 1, volley.extraordinary + int(volley.pending[3])
        return [(target.key, count, extraordinary, ()) for target in hits(volley, outcomes)]

    def condition_keys(volley: Volley, key: Hashable, outcomes: Sequence[Any]) -> list:
        # `_condition_keys(wing)` of each volley `delivered` makes of `volley`
        if volley.pending[:1] != ("damage",):
            return [(key[0], ())]  # type: ignore[index]
        return [(condition_key(target.tracks, wing), ()) for target in hits(volley, outcomes)]

    def struck_volley_keys(volley: Volley, key: Hashable, outcomes: Sequence[Any]) -> list:
        # `volley_key` of each volley `struck` makes: the strike's pending in the key
        head = key[:3]  # type: ignore[index]
        return [(*head, rolled.pending) for rolled in outcomes]

    def struck_condition_keys(volley: Volley, key: Hashable, outcomes: Sequence[Any]) -> list:
        # the target untouched by the strike: its condition as it was, the pending new
        condition = key[0]  # type: ignore[index]
        return [(condition, rolled.pending) for rolled in outcomes]

    wing = plan.receiver.wing
    return (
        Volley(plan.start),
        (
            ChanceStep(strike_of, struck, struck_volley_keys),
            ChanceStep(delivery, delivered, volley_keys),
        ),
        (
            ChanceStep(strike_of, struck, struck_condition_keys),
            ChanceStep(delivery, delivered, condition_keys),
        ),
    )


# a volley's first state and its steps (`gun_volley`), made once for the last plan asked
# (the exact odds replay the volley once per outcome)
_made_volley: Callable[[GunPlan], tuple[Volley, tuple, tuple]] = last_asked(_made_steps)


def _volley_steps(plan: GunPlan) -> tuple[Volley, tuple[ChanceStep, ChanceStep]]:
    """A volley's first state and its steps for a fold keyed by `volley_key`."""
    made = _made_volley(plan)
    return made[0], made[1]


def _condition_steps(plan: GunPlan) -> tuple[ChanceStep, ChanceStep]:
    """`_volley_steps`'s steps for a fold keyed by the target's condition (`_condition_keys`)."""
    return _made_volley(plan)[2]


@dataclass(frozen=True, slots=True)
class Delivery(Subroll):
    """One hit delivered to the target (`damage.deliver`: scale and Armor, the fighter hit
    R003.34, battle damage R003.25) as a value: the hits of equal Stun and Wound and scale
    on the same target are rolled alike, whoever fired them (its rolls are the target's),
    so the exact odds enumerate each once."""

    target: Target
    receiver: Receiver
    stun: int
    wound: int
    scale: str
    words: bool = True

    def __call__(self, dice: Dice) -> Target:
        # the hit made ready before its roll once for the last delivery asked (`landing_of`:
        # the exact odds replay it once per outcome of its battle-damage roll)
        landing = _landing_of(self)
        if landing is None:  # nothing left to hit, or a fighter picked at random first
            return deliver(
                self.target,
                self.receiver,
                self.stun,
                self.wound,
                self.scale,
                dice,
                words=self.words,
            )
        return land(self.target, self.receiver, landing, dice, self.words)

    def key(self, outcome: Target) -> tuple:
        """What the volley keeps of the target (`volley_key`: not its events)."""
        return outcome.key


def _delivery_landing(delivery: Delivery) -> tuple | None:
    return landing_of(
        delivery.target,
        delivery.receiver,
        delivery.stun,
        delivery.wound,
        delivery.scale,
        delivery.words,
    )


_landing_of: Callable[[Delivery], tuple | None] = last_asked(_delivery_landing)


def summarise(start: Target, end: Target, hits: int, extraordinary: int) -> AttackSummary:
    stun, wound = damage_dealt(start, end)
    return AttackSummary(
        hits,
        extraordinary,
        stun,
        wound,
        end.destroyed and not start.destroyed,
        end.effects,
    )


def after_damage(state: GameState, before: GameState, target_id: str, by: str) -> GameState:
    """Remember a vessel put out of action during its initiative group: it still acts with
    the vessels that act at the same time (R003.11)."""
    if not state.has_unit(target_id):
        return state
    # the state after first: most rolls leave the target in the fight, and then the
    # state before is never read (each outcome the computer players enumerate)
    now = vessel(state.unit(target_id))
    if not (now.destroyed or now.disabled):
        return state
    was = vessel(before.unit(target_id))
    if was.destroyed or was.disabled:
        return state
    initiative = tracker.table(state, tracker.INITIATIVE)
    if by in initiative:
        return tracker.put(state, tracker.WRECKED, target_id, initiative[by])
    return state


def _booked(state: GameState, attack: Attack, plan: GunPlan) -> GameState:
    """The state with the attack recorded (mounts fired, the character's action, one-shot
    bonuses spent), remembered for the last plan."""
    last = _LAST_BOOKED
    if last[0] is plan and last[1] is state:
        return last[2]
    booked = tracker.record_attack(
        state,
        plan.attacker.id,
        plan.weapon.name,
        int(attack.params.get("battery", 1)),
        plan.roll.firer.character,
        plan.roll.entries,
    )
    return _remember_booked(plan, state, booked)


def _remember_booked(plan: GunPlan, state: GameState, booked: GameState) -> GameState:
    global _LAST_BOOKED
    _LAST_BOOKED = (plan, state, booked)
    return booked


_LAST_BOOKED: tuple = (None, None, None)  # the last (plan, state, booked state)


def _fired(
    plan: GunPlan, dice: Dice, *, by_condition: bool = False
) -> tuple[Volley, AttackSummary]:
    """Every roll of a gun attack (`gun_volley`) and what it came to."""
    volley = gun_volley(plan, dice, by_condition=by_condition)
    return volley, summarise(plan.start, volley.target, volley.hits, volley.extraordinary)


def gun_summary(state: GameState, attack: Attack, dice: Dice) -> AttackSummary:
    """R003.7: what `resolve_gun` reports of a gun attack, from the very same rolls, without
    writing it back into the state (which rolls nothing): what the exact odds enumerate."""
    return _fired(plan_gun(state, attack), dice)[1]


def resolve_gun(state: GameState, attack: Attack, dice: Dice) -> Resolution:
    plan = plan_gun(state, attack)
    # read for the units' conditions alone (`model.worded`): the volley is the last roll
    # and what follows reads only whether the target is out (`after_damage`), so volleys
    # that leave every condition the same merge (the first reached stands for them)
    volley, summary = _fired(plan, dice, by_condition=conditions_only())
    # the attack's bookkeeping (the tracker) and the damage (the target's stats) touch
    # different parts of the state: the bookkeeping, the same whatever the dice, is done
    # once for the plan (the exact odds re-run this once per outcome)
    new_state = write_back(_booked(state, attack, plan), plan.target.id, volley.target)
    new_state = after_damage(new_state, state, plan.target.id, plan.attacker.id)
    if not worded():  # read for the state alone (`model.worded`): no words
        return Resolution(new_state, (), summary)
    events = (
        *plan.events,
        *volley.events,
        Event.of(
            "outcome",
            "R003.7",
            target=plan.target.id,
            hits=summary.hits,
            extraordinary=summary.extraordinary,
            **damage_facts(summary),
        ),
    )
    return Resolution(new_state, events, summary)
