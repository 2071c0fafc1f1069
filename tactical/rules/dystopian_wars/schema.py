"""Stats and options of seed 002 beyond the conventions: fleet building, damage, command,
tiny flyers, and the base game's external mechanics (G.5) with their documented defaults.

`tactical.rules.dystopian_wars.declaration` appends these to its schema, so a map
is validated against all of them (unknown keys are errors).

External defaults (base game, not in the booklet; G.5):

- Attack Dice (AD): each die scoring `ad_hit_on` or more (default 4) is one hit, a 6
  is `ad_six_hits` hits (default 2) and, with `ad_exploding` (default true), rolls
  one more AD (DW 1.x exploding dice).
- Damage: hits >= Damage Rating costs one Hull Point; hits >= Critical Rating is a
  Critical Hit (2D6 on the Critical Hit Table, opaque codes "critical-2".."critical-12")
  whose Damage is `critical_damage` more Hull Points (default 1). Ratings and Hull
  Points default by size class (`cards.DEFAULT_RATINGS`).
- Shield Generators: one Shield die per generator per attack, thresholds of T002.9.
- Linked Fire (A002.17): the declaring model adds its full AD, every linked model
  half of its AD rounded by `linked_fire_rounding` (default down).
- Tiny Flyers: `tiny_flyer_kill_hits` hits destroy one TF (default 2), a Wing spends
  `fuel_per_activation` Fuel each activation (default 1) and is Lost at 0 Fuel unless
  it Lands.
- Break Test / Bravery Test: 2D6, passed on `morale_pass_max` or less (default 7).
- Damage Repair: 1D6 per critical effect, repaired on `repair_on` or more (default 4).
- Boarding: each side rolls 1D6 per Assault Point, successes on `boarding_hit_on`+
  (default 4); more attacker successes capture the target (a Prize). Within
  `boarding_range` inches edge to edge (default 1).
- Initiative: each side rolls 1D6, ties re-rolled; the winner activates first.
- Treacherous Terrain Test: 1D6 failed on a 1 (the movement module's value); a
  failed test costs one Hull Point.
- Drift (Prize models, End Phase): 1D6 inches straight ahead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactical.rules.base import Field, Problem

WING_TYPES = ("fighter", "dive-bomber", "torpedo-bomber", "recon")
GAME_TYPES = ("open", "friendly", "tournament")
CORE_FORCES = ("naval", "armoured", "aerial")

# AD of one weapon in one Range Band (G.5): a real card's largest are about 20, and exact
# odds of a linked squadron's pool of such weapons stay quick (`ram_dice` has the same)
MAX_ATTACK_DICE = 100


def band_dice(part: str) -> int | None:
    """The AD one band of an `attack_dice` text gives: its whole number, 0 for a band with
    no number ('', '/': cannot fire there), None for a number that is no plain whole
    number of ASCII digits ('²', '1.5')."""
    text = part.strip()
    if text.isascii() and text.isdigit():
        return int(text)
    if any(char.isdigit() or char.isnumeric() or char == "." for char in text):
        return None
    return 0


def attack_dice_problems(stats: Mapping[str, Any]) -> list[Problem]:
    """Each weapon's `attack_dice` read band by band: whole numbers from 0 to
    MAX_ATTACK_DICE (a 400-digit band, '²' or 1e9 AD are refused, not played)."""
    problems: list[Problem] = []
    weapons = stats.get("weapons", ())
    for index, weapon in enumerate(weapons if isinstance(weapons, list | tuple) else ()):
        text = weapon.get("attack_dice", "") if isinstance(weapon, Mapping) else ""
        if not isinstance(text, str):
            continue  # the schema names a text that is not a string
        bands = [band_dice(part) for part in text.split("-")[:4]] if text else []
        if any(dice is None or dice > MAX_ATTACK_DICE for dice in bands):
            problems.append(
                Problem(
                    f"weapons[{index}].attack_dice",
                    f"Attack Dice per Range Band 1-4 such as '8-6-4-2', each a whole number "
                    f"from 0 to {MAX_ATTACK_DICE}",
                    "G.5",
                )
            )
    return problems


WEAPON_EXTRA_FIELDS = (
    Field(
        "tesla_coils",
        "bool",
        doc="a Tesla Coil gunnery weapon (R002.37); default: 'tesla' in its name",
        spec_id="R002.37",
    ),
    Field(
        "rocket_battery",
        "bool",
        default=False,
        doc="an FSA Rocket Battery: a turret for LoS and range (R002.15)",
        spec_id="R002.15",
    ),
)

STATS_EXTRA_FIELDS = (
    Field("points", "int", default=0, low=0, high=100000, doc="points value", spec_id="R002.6"),
    Field("faction", "str", default="", doc="e.g. Kingdom of Britannia", spec_id="R002.44"),
    Field("model_class", "str", default="", doc="e.g. Ruler Class Battleship (default: name)"),
    Field("mars", "str", default="", doc="comma-separated Model Assigned Rules, e.g. spotter"),
    Field("hull_points", "int", low=1, high=100, doc="Hull Points (base game)"),
    Field("damage_rating", "int", low=1, high=100, doc="Damage Rating (base game)"),
    Field("critical_rating", "int", low=1, high=100, doc="Critical Rating (base game)"),
    Field("commander", "bool", default=False, doc="the squadron's commanding model (A002.2)"),
    Field("escort_of", "str", default="", doc="id of the Parent Model (R002.42)"),
    Field("carrier_capacity", "int", default=0, low=0, high=100, spec_id="R002.60"),
    Field("tiny_flyers_aboard", "int", default=0, low=0, high=100, spec_id="R002.61"),
    Field("wing_type", "str", choices=WING_TYPES, doc="a Tiny Flyer's type", spec_id="R002.53"),
    Field("fuel", "int", low=0, high=6, doc="a Wing's Fuel when the map starts", spec_id="R002.54"),
    Field("assault_points", "int", default=0, low=0, high=100, doc="boarding (base game)"),
    Field("ram_dice", "int", default=0, low=0, high=100, doc="AD of a ram (base game)"),
)

OPTION_EXTRA_FIELDS = (
    Field("game_type", "str", default="open", choices=GAME_TYPES, spec_id="R002.2"),
    Field("field_orders", "bool", default=True, spec_id="R002.20"),
    Field("game_length", "str", default="turns", choices=("turns", "time"), spec_id="R002.3"),
    Field("game_turns", "int", default=6, low=1, high=99, spec_id="R002.3"),
    Field(
        "max_fleet_value",
        "int",
        default=0,
        low=0,
        high=1000000,
        doc="MFV; 0 = the larger fleet's points at the start",
        spec_id="R002.4",
    ),
    Field(
        "core_forces",
        "str",
        default="",
        doc="e.g. 'A=naval, B=aerial'; a side left out: its movement class with the most points",
        spec_id="R002.4",
    ),
    Field("ad_hit_on", "int", default=4, low=2, high=6, doc="AD score for a hit (external)"),
    Field("ad_six_hits", "int", default=2, low=1, high=3, doc="hits of a 6 (external)"),
    Field("ad_exploding", "bool", default=True, doc="a 6 rolls another AD (external)"),
    Field("critical_damage", "int", default=1, low=0, high=10, doc="Damage of a Critical Hit"),
    Field("linked_fire_rounding", "str", default="down", choices=("down", "up"), spec_id="A002.17"),
    Field("tiny_flyer_kill_hits", "int", default=2, low=1, high=6, spec_id="R002.56"),
    Field("fuel_per_activation", "int", default=1, low=0, high=6, spec_id="R002.54"),
    Field(
        "tesla_critical_reroll",
        "str",
        default="once",
        choices=("once", "until-clear"),
        doc="re-roll a Double 1 / Double 6 once, or until neither shows",
        spec_id="R002.46",
    ),
    Field("morale_pass_max", "int", default=7, low=2, high=12, spec_id="R002.27"),
    Field("repair_on", "int", default=4, low=1, high=7, spec_id="R002.19"),
    Field("boarding_hit_on", "int", default=4, low=1, high=7),
    Field("boarding_range", "float", default=1.0, low=0, high=12),
    Field("tiny_flyer_base", "float", default=1.0, low=0.25, high=3, spec_id="R002.61"),
)
