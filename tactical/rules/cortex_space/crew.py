"""Characters as crew (R003.46-R003.56): who sits where, and what each station rolls.

The option `crew_variant` picks the 1st draft (A, R003.46-R003.50) or the 2nd draft (B,
R003.51-R003.55); they are never both in play (R003.56, A003.29). A vessel with no
`crew` (fighters, raiders) is flown by its one pilot, who also fires: every action it
takes counts against that one character (R003.8).

Stations by variant:

- A: `co`/`xo` assist a station (Willpower + Discipline + So Say We All die, HARD 11);
  `pilot` sets the ship's defense (Agility, or Agility + Pilot) or flies a full-turn
  manoeuvre; `tactical` officers fire weapons; `dradis` grants defensive or gunnery
  steps (Alertness + skill, HARD 11); `comms` forwards complex commands (Intelligence
  + skill, AVERAGE 7).
- B: `co`/`xo` and `tactical` make the once-per-turn station roll (HARD 11, T003.10);
  `helm` flies one attack or evasive manoeuvre (Agility + Pilot); `officer`s make the
  ship's attack rolls (Agility + the ship's Heavy Weapons, R003.55).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.dice import StepDie
from tactical.rules.cortex_space.rolls import Pool, skill_pool
from tactical.rules.cortex_space.units import CrewMember, Vessel

SENSOR_DAMAGE_STEPS = -2  # R003.29: per sensors-damaged result
PILOT_STATIONS = {"A": ("pilot", "helm"), "B": ("helm", "pilot")}
GUNNER_STATIONS = {"A": ("tactical",), "B": ("officer",)}
COMMAND_STATIONS = ("co", "xo")


def variant(options: Mapping[str, Any]) -> str:
    return str(options["crew_variant"])


def crewed(card: Vessel, options: Mapping[str, Any]) -> bool:
    """Whether characters crew this vessel's stations under the variant in play."""
    return variant(options) in ("A", "B") and bool(card.crew) and not card.is_wing


def pilot_member(card: Vessel, options: Mapping[str, Any]) -> CrewMember | None:
    """The character flying the ship (A: pilot; B: helm officer)."""
    if not crewed(card, options):
        return None
    for station in PILOT_STATIONS[variant(options)]:
        found = card.crew_at(station)
        if found:
            return found[0]
    return None


def gunners(card: Vessel, options: Mapping[str, Any]) -> tuple[CrewMember, ...]:
    """The characters who make the ship's attack rolls (A: tactical officers; B: other
    officers, R003.55)."""
    if not crewed(card, options):
        return ()
    return card.crew_at(*GUNNER_STATIONS[variant(options)])


def member(card: Vessel, name: str) -> CrewMember | None:
    for person in card.crew:
        if person.name == name:
            return person
    return None


def pilot_skill(card: Vessel, options: Mapping[str, Any]) -> tuple[str, StepDie]:
    """The Pilot die of the vessel's defense and manoeuvre rolls."""
    person = pilot_member(card, options)
    if person is not None and person.skill is not None:
        return person.name, person.skill
    return "pilot", card.pilot_skill


def gunnery_skill(card: Vessel, options: Mapping[str, Any], gunner: str) -> tuple[str, StepDie]:
    """The attack skill die: the gunner's own (variant A) or the ship's Heavy Weapons."""
    person = member(card, gunner) if gunner else None
    if person is not None and person.skill is not None and variant(options) == "A":
        return person.name, person.skill
    return "gunnery", card.gunnery_skill


def sensor_steps(card: Vessel) -> int:
    """R003.29: -2 steps per sensors-damaged result on rolls operating the sensors."""
    return SENSOR_DAMAGE_STEPS * card.sensors_damaged


def station_pool(card: Vessel, person: CrewMember, options: Mapping[str, Any], steps: int) -> Pool:
    """The roll of a crew station (R003.46, R003.49, R003.50, R003.52-R003.54)."""
    skill = ("skill", person.skill) if person.skill is not None else None
    kind = variant(options)
    if person.station in COMMAND_STATIONS:
        trait = ("So Say We All", person.trait) if kind == "A" else None
        return skill_pool(("willpower", person.attribute), skill, trait, steps)
    if person.station == "comms":
        return skill_pool(("intelligence", person.attribute), skill, None, steps)
    if person.station in ("dradis", "tactical"):
        return skill_pool(("alertness", card.alertness), skill, None, steps)
    return skill_pool(("agility", card.agility), skill or ("pilot", card.pilot), None, steps)
