"""What Cortex Space offers a side now (`actions`): every choice applies with its defaults.

Before the turn's bookkeeping, `start-turn`; in the Advantage / initiative
phase, each vessel's `advantage` roll (against an enemy within the dogfight
distance) or `initiative` roll (R003.10, R003.11); in the Actions phase, the
activation of each of the side's vessels acting now (attacks, missile locks
and launches, shooting missiles down, out-flying and distracting them,
avoiding collisions, ramming, strafing, joining a wing, bombardment, crew
stations, ending it), point defense on the side's go (R003.43) and the side's
pass (R003.11). It offers only what the resolvers (`play`) accept.
"""

from __future__ import annotations

from tactical.errors import UserError
from tactical.model import GameState, Unit
from tactical.rules.base import ActionChoice, Field, TurnPosition, unit_name
from tactical.rules.cortex_space import (
    bombardment,
    collisions,
    combat,
    crew,
    missiles,
    stations,
    tracker,
)
from tactical.rules.cortex_space.positions import (
    band_index,
    band_of,
    centre_distance,
    edge_distance,
    in_formation,
    strafe_inches,
    terrain_distance,
)
from tactical.rules.cortex_space.sequence import (
    ADVANTAGE_PHASE,
    PASS,
    can_act,
    current_group,
    is_current,
    setup,
)
from tactical.rules.cortex_space.tables import MISSILE_BY_RANGE, STRUCTURE_KINDS
from tactical.rules.cortex_space.units import MAX_WING, Vessel, settings, vessel
from tactical.rules.values import fixed_field, pick_field

# --------------------------------------------------------------------------- choices


def actions(state: GameState, position: TurnPosition, side: str) -> tuple[ActionChoice, ...]:
    """What `side` may declare now (see the module docstring)."""
    if tracker.TURN not in state.rule_state:
        state = setup(state)  # a map straight from its file: turn 1
    if not is_current(state, position):
        return (
            ActionChoice(
                "start-turn",
                side,
                f"Start turn {position.turn}",
                (
                    Field(
                        "turn",
                        "int",
                        required=True,
                        default=position.turn,
                        low=position.turn,
                        high=position.turn,
                    ),
                ),
                "R003.39",
            ),
        )
    options = settings(state)
    if position.phase == ADVANTAGE_PHASE:
        return _roll_choices(state, side, options)
    choices: list[ActionChoice] = []
    group = current_group(state)
    for unit in state.units:
        if unit.side == side and unit.id in group:
            choices.extend(_activation_choices(state, unit, options))
    choices.extend(_point_defense_choices(state, side, options))
    own = tuple(u for u in group if state.unit(u).side == side)
    if own:
        choices.append(_pass_choice(state, side, own))
    return tuple(choices)


def _pass_choice(state: GameState, side: str, own: tuple[str, ...]) -> ActionChoice:
    """R003.11: a side with vessels in the group acting now passes by ending their
    activation; the turn goes on to the next group. (The session's own pass, two in a row
    ending the phase, would end the Actions phase before the vessels later in the order of
    action have acted: the side waiting for them has only a pass to make.)"""
    names = ", ".join(unit_name(state, u) for u in own)
    return ActionChoice(PASS, side, f"Pass: end the activation of {names}", (), "R003.11")


def _enemies(state: GameState, unit: Unit) -> list[Unit]:
    return [u for u in state.units if u.side != unit.side and not vessel(u).destroyed]


def _roll_choices(state: GameState, side: str, options) -> tuple[ActionChoice, ...]:
    rolled = tracker.table(state, tracker.INITIATIVE)
    choices = []
    reach = float(options["dogfight_inches"])
    for unit in state.units:
        card = vessel(unit)
        if unit.side != side or unit.id in rolled or card.destroyed or card.disabled:
            continue
        if options["dogfighting"]:
            opponents = tuple(
                u.id
                for u in _enemies(state, unit)
                if u.id not in rolled
                and not vessel(u).disabled
                and centre_distance(unit, u) <= reach + 1e-9
            )
            if opponents:
                choices.append(
                    ActionChoice(
                        "advantage",
                        unit.id,
                        f"{unit_name(state, unit.id)}: dogfight for the Advantage",
                        (
                            Field(
                                "opponent",
                                "str",
                                required=True,
                                default=opponents[0],
                                choices=opponents,
                            ),
                        ),
                        "R003.10",
                    )
                )
        choices.append(
            ActionChoice(
                "initiative",
                unit.id,
                f"{unit_name(state, unit.id)}: roll Initiative",
                (),
                "R003.11",
            )
        )
    return tuple(choices)


def _int_field(name: str, low: int, high: int, default: int, spec_id: str) -> Field:
    return Field(name, "int", default=default, low=low, high=high, spec_id=spec_id)


def _activation_choices(state: GameState, unit: Unit, options) -> list[ActionChoice]:
    """The activation of a vessel acting now (R003.11): its weapons' attacks and missile
    locks, its locked missiles' launches, shooting missiles down, out-flying and
    distracting those coming at it, avoiding collisions and ramming, strafing, joining a
    wing, bombardment, crew stations, and ending it."""
    card = vessel(unit)
    if not can_act(state, unit):
        return []
    end = ActionChoice(
        "end", unit.id, f"{unit_name(state, unit.id)}: end activation", (), "R003.11"
    )
    if card.destroyed or card.disabled:
        # still in its group (R003.11, A003.6) but out of action: every resolver refuses a
        # vessel out of action (base Cortex, G.5), so all that is left is to end
        return [end]
    enemies = _enemies(state, unit)
    flying = missiles.missiles_in_flight(state)
    return [
        *_weapon_choices(state, unit, card, enemies, options),
        *_launch_choices(state, unit, card),
        *_shoot_down_choices(state, unit, card, flying),
        *_evasion_choices(state, unit, flying, options),
        *_collision_choices(state, unit, enemies, options),
        *_strafe_choices(state, unit, card, enemies, options),
        *_join_wing_choices(state, unit, card, options),
        *_bombard_choices(state, unit, card),
        *_station_choices(state, unit, card, options),
        end,
    ]


def _weapon_choices(
    state: GameState, unit: Unit, card: Vessel, enemies: list[Unit], options
) -> list[ActionChoice]:
    """Weapon by weapon, a gun's attack (R003.7) and a launcher's missile lock (R003.38)."""
    gunner_field = _gunner_field(card, options)
    locks = tracker.get(state, tracker.LOCKS, ())
    choices: list[ActionChoice] = []
    for weapon in card.weapons:
        attack = _attack_choice(state, unit, card, weapon, enemies, gunner_field, options)
        if attack is not None:
            choices.append(attack)
        lock = _lock_choice(state, unit, weapon, enemies, gunner_field, locks, options)
        if lock is not None:
            choices.append(lock)
    return choices


def _attack_choice(
    state: GameState,
    unit: Unit,
    card: Vessel,
    weapon,
    enemies: list[Unit],
    gunner_field: tuple[Field, ...],
    options,
) -> ActionChoice | None:
    """R003.7: a gun with shots left fires at an enemy in its reach; a spacecraft's guns
    as a battery (R003.35), a wing's fighters in combined fire (R003.32), a called shot
    (R003.59)."""
    free = weapon.working - tracker.fired(state, unit.id, weapon.name)
    if weapon.kind != combat.GUN or free <= 0:
        return None
    targets = tuple(
        u.id
        for u in enemies
        if _in_reach(unit, u, weapon, options) and _may_attack(state, unit, u, weapon)
    )
    if not targets:
        return None
    extra = []
    if card.scale == "spacecraft" and options["weapon_batteries"] and free > 1:
        extra.append(_int_field("battery", 1, min(MAX_WING, free), 1, "R003.35"))
    if card.is_wing and len(card.fighters) > 1:
        # combined fire of more than one fighter needs the wing rules (R003.30)
        alive = len(card.fighters) if options["fighter_wings"] else 1
        extra.append(_int_field("fighters", 1, alive, alive, "R003.32"))
    return ActionChoice(
        "attack",
        unit.id,
        f"{unit_name(state, unit.id)}: fire {weapon.name}",
        (
            fixed_field("weapon", weapon.name),
            pick_field("target", targets),
            *extra,
            *gunner_field,
            Field("called_shot", "bool", default=False, spec_id="R003.59"),
        ),
        "R003.7",
    )


def _lock_choice(
    state: GameState,
    unit: Unit,
    weapon,
    enemies: list[Unit],
    gunner_field: tuple[Field, ...],
    locks,
    options,
) -> ActionChoice | None:
    """R003.38: a working launcher with missiles left locks on an enemy at a range band
    that allows a lock (T003.8) and within its own reach, not locked by it already."""
    if not (
        weapon.kind == combat.MISSILE
        and options["missile_locks"]
        and weapon.missiles > 0
        and weapon.working > 0  # a damaged launcher locks nothing (R003.29)
    ):
        return None
    targets = tuple(
        u.id
        for u in enemies
        if (band := band_of(centre_distance(unit, u), options)) is not None
        and MISSILE_BY_RANGE[band].lock is not None
        and band_index(band) <= weapon.max_band
        and _may_attack(state, unit, u, weapon)
        and (unit.id, weapon.name, u.id) not in locks
    )
    if not targets:
        return None
    return ActionChoice(
        "lock-missile",
        unit.id,
        f"{unit_name(state, unit.id)}: lock {weapon.name}",
        (fixed_field("weapon", weapon.name), pick_field("target", targets), *gunner_field),
        "R003.38",
    )


def _launch_choices(state: GameState, unit: Unit, card: Vessel) -> list[ActionChoice]:
    """R003.39: a missile fired at each target the vessel's launchers have locked on, while
    the launcher has missiles left (locks outlive the magazine, R003.38)."""
    choices = []
    for owner, weapon_name, target in tracker.get(state, tracker.LOCKS, ()):
        launcher = card.weapon(weapon_name)
        if (
            owner == unit.id
            and state.has_unit(target)
            and launcher is not None
            and launcher.missiles > 0
        ):
            choices.append(
                ActionChoice(
                    "fire-missile",
                    unit.id,
                    # the vessels of a group act together: the vessel, then the target
                    # (its launches differ in it), in the words the list shows
                    f"{unit_name(state, unit.id)}: at {unit_name(state, target)}, "
                    f"fire {weapon_name}",
                    (fixed_field("weapon", weapon_name), fixed_field("target", target)),
                    "R003.39",
                )
            )
    return choices


def _shoot_down_choices(state: GameState, unit: Unit, card: Vessel, flying) -> list[ActionChoice]:
    """R003.40: a gun or point defense with shots left attacks an enemy missile in flight."""
    hostile = tuple(
        m["id"]
        for m in flying
        if state.has_unit(str(m["owner"])) and state.unit(str(m["owner"])).side != unit.side
    )
    shooters = tuple(
        w.name
        for w in card.weapons
        if w.kind in (combat.GUN, combat.POINT_DEFENSE)
        and w.working - tracker.fired(state, unit.id, w.name) > 0
    )
    if not (hostile and shooters):
        return []
    return [
        ActionChoice(
            "shoot-down",
            unit.id,
            f"{unit_name(state, unit.id)}: shoot down a missile",
            (pick_field("weapon", shooters), pick_field("missile", hostile)),
            "R003.40",
        )
    ]


def _evasion_choices(state: GameState, unit: Unit, flying, options) -> list[ActionChoice]:
    """Missile by missile coming at the vessel: out-flying it, one roll a turn (R003.41),
    and distracting it with a ship or object close by (R003.42)."""
    choices = []
    rolled = tracker.get(state, tracker.OUTFLY_ROLLED, ())
    for entry in flying:
        if entry["target"] != unit.id:
            continue
        missile = fixed_field("missile", entry["id"])
        if entry["id"] not in rolled:
            choices.append(
                ActionChoice(
                    "out-fly",
                    unit.id,
                    f"{unit_name(state, unit.id)}: out-fly {missile_words(state, entry)}",
                    (missile,),
                    "R003.41",
                )
            )
        decoys = _near_things(state, unit, float(options["distract_inches"]))
        if decoys and options["collisions"]:
            choices.append(
                ActionChoice(
                    "distract",
                    unit.id,
                    f"{unit_name(state, unit.id)}: distract {missile_words(state, entry)}",
                    (missile, pick_field("decoy", decoys)),
                    "R003.42",
                )
            )
    return choices


def missile_words(state: GameState, entry) -> str:
    """A missile in flight as a player names it (R003.39): its number first (each missile's
    own, so rows about missiles differ in their first words), its launcher and when it
    strikes: "missile 1 from Cylon Basestar (strikes next turn)"."""
    owner = str(entry["owner"])
    launcher = unit_name(state, owner) if state.has_unit(owner) else "a lost ship"
    number = str(entry["id"]).rsplit("-", 1)[-1]
    turns = int(entry["turns_left"])
    when = "strikes next turn" if turns <= 1 else f"strikes in {turns} turns"
    return f"missile {number} from {launcher} ({when})"


def _collision_choices(
    state: GameState, unit: Unit, enemies: list[Unit], options
) -> list[ActionChoice]:
    """With the collision rules: avoiding an obstacle in contact, or a random one (R003.15),
    and ramming an enemy in contact (R003.20); who else rolls is a field (R003.19)."""
    if not options["collisions"]:
        return []
    reach = float(options["contact_inches"])
    contacts = _near_things(state, unit, reach)
    choices = [
        ActionChoice(
            "avoid-collision",
            unit.id,
            f"{unit_name(state, unit.id)}: avoid a collision",
            (
                Field(
                    "obstacle",
                    "str",
                    required=True,
                    default=(*contacts, "random")[0],
                    choices=(*contacts, collisions.RANDOM_OBSTACLE),
                ),
                Field("other_rolls", "bool", default=True, spec_id="R003.19"),
            ),
            "R003.15",
        )
    ]
    rammable = tuple(u.id for u in enemies if edge_distance(unit, u) <= reach + 1e-9)
    if rammable:
        choices.append(
            ActionChoice(
                "ram",
                unit.id,
                f"{unit_name(state, unit.id)}: ram",
                (
                    pick_field("target", rammable),
                    Field("target_rolls", "bool", default=True, spec_id="R003.19"),
                ),
                "R003.20",
            )
        )
    return choices


def _strafe_choices(
    state: GameState, unit: Unit, card: Vessel, enemies: list[Unit], options
) -> list[ActionChoice]:
    """R003.21: a planetcraft-scale vessel strafes a spacecraft within strafing reach."""
    if not (options["strafing_runs"] and card.scale == "planetcraft"):
        return []
    reach = strafe_inches(options)
    hulls = tuple(
        u.id
        for u in enemies
        if vessel(u).scale == "spacecraft" and edge_distance(unit, u) <= reach + 1e-9
    )
    if not hulls:
        return []
    return [
        ActionChoice(
            "strafe",
            unit.id,
            f"{unit_name(state, unit.id)}: strafing run",
            (pick_field("target", hulls),),
            "R003.21",
        )
    ]


def _join_wing_choices(state: GameState, unit: Unit, card: Vessel, options) -> list[ActionChoice]:
    """R003.30: a fighter not in a wing joins a friendly fighter or wing in formation with
    it, while the wing has room (at most MAX_WING fighters)."""
    if not (options["fighter_wings"] and not card.is_wing and card.scale != "spacecraft"):
        return []
    wings = tuple(
        u.id
        for u in state.units
        if u.side == unit.side
        and u.id != unit.id
        and vessel(u).scale != "spacecraft"
        and not (vessel(u).destroyed or vessel(u).disabled)
        and (len(vessel(u).fighters) if vessel(u).is_wing else 1) < MAX_WING
        and in_formation(unit, u, options)
    )
    if not wings:
        return []
    return [
        ActionChoice(
            "join-wing",
            unit.id,
            f"{unit_name(state, unit.id)}: join a wing",
            (pick_field("wing", wings),),
            "R003.30",
        )
    ]


def _bombard_choices(state: GameState, unit: Unit, card: Vessel) -> list[ActionChoice]:
    """R003.63-R003.67: a bombardment per gun with the ground targets T003.19 lets it hit."""
    spotters = tuple(
        u.id
        for u in state.units
        if u.side == unit.side
        and u.id != unit.id
        and not (vessel(u).destroyed or vessel(u).disabled)
        and not tracker.actions_taken(state, u.id)
        and not tracker.is_done(state, u.id)
    )
    choices = []
    for weapon in card.weapons:
        if (
            weapon.kind != combat.GUN
            or weapon.working - tracker.fired(state, unit.id, weapon.name) < 1
        ):
            continue
        targets = tuple(
            p.id
            for p in state.terrain
            if p.kind in STRUCTURE_KINDS and _can_bombard(p.kind, weapon.scale)
        )
        if not targets:
            continue
        choices.append(
            ActionChoice(
                "bombard",
                unit.id,
                f"{unit_name(state, unit.id)}: bombard with {weapon.name}",
                (
                    fixed_field("weapon", weapon.name),
                    pick_field("target", targets),
                    Field("spotter", "str", default="", choices=("", *spotters), spec_id="R003.67"),
                ),
                "R003.63",
            )
        )
    return choices


def _can_bombard(kind: str, scale: str) -> bool:
    try:
        bombardment.bombardment_difficulty(kind, scale)
    except UserError:
        return False
    return True


def _gunner_field(card: Vessel, options) -> tuple[Field, ...]:
    names = tuple(p.name for p in crew.gunners(card, options))
    if not names:
        return ()
    return (Field("gunner", "str", default=names[0], choices=names, spec_id="R003.8"),)


def _in_reach(unit: Unit, other: Unit, weapon, options) -> bool:
    band = band_of(centre_distance(unit, other), options)
    return band is not None and band_index(band) <= weapon.max_band


def _may_attack(state: GameState, unit: Unit, other: Unit, weapon) -> bool:
    strafer = tracker.table(state, tracker.STRAFING).get(other.id)
    return not (strafer == unit.id and weapon.kind != combat.POINT_DEFENSE)


def _near_things(state: GameState, unit: Unit, reach: float) -> tuple[str, ...]:
    units = tuple(
        u.id for u in state.units if u.id != unit.id and edge_distance(unit, u) <= reach + 1e-9
    )
    pieces = tuple(
        p.id
        for p in state.terrain
        if p.kind in ("dense", "obstructing") and terrain_distance(unit, p) <= reach + 1e-9
    )
    return units + pieces


def _station_choices(state: GameState, unit: Unit, card: Vessel, options) -> list[ActionChoice]:
    choices = []
    used = tuple(tracker.table(state, tracker.STATIONS_USED).get(unit.id, ()))
    full = tracker.table(state, tracker.FULL_TURN).get(unit.id)
    pilot = crew.pilot_member(card, options)
    gunners = tuple(p.name for p in crew.gunners(card, options))
    variant = crew.variant(options)
    full_turn_kinds = ("offensive-manoeuvre", "evasive-manoeuvre") if variant == "A" else ()
    for kind, (_, _) in stations.STATION_ACTIONS.items():
        people = stations.station_members(card, options, kind)
        if kind == "station-roll":
            people = tuple(p for p in people if p.name not in used)
        if full and pilot is not None:
            people = tuple(p for p in people if p.name != pilot.name or kind == "agility-defense")
        if kind == "agility-defense" and full == "offensive-manoeuvre" and variant == "A":
            people = ()  # an EASY target after an offensive manoeuvre (R003.47)
        if kind in full_turn_kinds:  # a full-turn manoeuvre by someone yet to act (R003.47)
            people = tuple(
                p
                for p in people
                if not tracker.actions_taken(state, tracker.character_key(unit.id, p.name))
            )
        if kind == "forward-command" and not stations.pending_commands(state, unit.id):
            people = ()
        if kind in ("offensive-manoeuvre", "dradis-gunner") and not gunners:
            people = ()
        if not people:
            continue
        names = tuple(p.name for p in people)
        extra: list[Field] = [Field("crew", "str", default=names[0], choices=names)]
        if kind == "assist":
            others = tuple(p.name for p in card.crew if p.station not in ("co", "xo"))
            if not others:
                continue
            extra += [
                Field(
                    "station",
                    "str",
                    required=True,
                    default=others[0],
                    choices=others,
                    spec_id="R003.46",
                ),
                Field("via_comms", "bool", default=False, spec_id="R003.50"),
            ]
        if kind in ("offensive-manoeuvre", "dradis-gunner"):
            extra.append(Field("gunner", "str", default=gunners[0], choices=gunners))
        if kind == "station-roll" and any(p.station in ("co", "xo") for p in people):
            extra.append(
                Field(
                    "apply_to",
                    "str",
                    default="attack",
                    choices=("attack", "helm"),
                    spec_id="R003.52",
                )
            )
        spec = {"A": "R003.46", "B": "R003.51"}[variant]
        choices.append(
            ActionChoice(
                kind,
                unit.id,
                f"{unit_name(state, unit.id)}: {kind.replace('-', ' ')}",
                tuple(extra),
                spec,
            )
        )
    return choices


def _point_defense_choices(state: GameState, side: str, options) -> list[ActionChoice]:
    if not options["point_defense"]:
        return []
    engaged = tracker.get(state, tracker.PD_ENGAGED, ())
    choices = []
    for unit in state.units:
        card = vessel(unit)
        if unit.side != side or card.destroyed or card.disabled:
            continue
        for weapon in card.weapons:
            if weapon.kind != combat.POINT_DEFENSE or weapon.working < 1:
                continue
            targets = tuple(
                u.id
                for u in _enemies(state, unit)
                if _in_reach(unit, u, weapon, options)
                and (unit.id, weapon.name, u.id) not in engaged
            )
            if targets:
                choices.append(
                    ActionChoice(
                        "point-defense",
                        unit.id,
                        f"{unit_name(state, unit.id)}: {weapon.name}",
                        (
                            Field(
                                "weapon",
                                "str",
                                required=True,
                                default=weapon.name,
                                choices=(weapon.name,),
                            ),
                            Field(
                                "target", "str", required=True, default=targets[0], choices=targets
                            ),
                        ),
                        "R003.43",
                    )
                )
    return choices
