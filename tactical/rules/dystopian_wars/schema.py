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

from tactical.rules.base import Problem
from tactical.rules.fields import choice, flag, number, text, whole

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
    flag("tesla_coils", None, "R002.37",
         "a Tesla Coil gunnery weapon (R002.37); default: 'tesla' in its name"),
    flag("rocket_battery", False, "R002.15",
         "an FSA Rocket Battery: a turret for LoS and range (R002.15)"),
)  # fmt: skip

STATS_EXTRA_FIELDS = (
    whole("points", 0, 0, 100000, "R002.6", "points value"),
    text("faction", "", "R002.44", "e.g. Kingdom of Britannia"),
    text("model_class", doc="e.g. Ruler Class Battleship (default: name)"),
    text("mars", doc="comma-separated Model Assigned Rules, e.g. spotter"),
    whole("hull_points", None, 1, 100, doc="Hull Points (base game)"),
    whole("damage_rating", None, 1, 100, doc="Damage Rating (base game)"),
    whole("critical_rating", None, 1, 100, doc="Critical Rating (base game)"),
    flag("commander", False, doc="the squadron's commanding model (A002.2)"),
    text("escort_of", doc="id of the Parent Model (R002.42)"),
    whole("carrier_capacity", 0, 0, 100, "R002.60"),
    whole("tiny_flyers_aboard", 0, 0, 100, "R002.61"),
    choice("wing_type", WING_TYPES, "R002.53", "a Tiny Flyer's type", default=None),
    whole("fuel", None, 0, 6, "R002.54", "a Wing's Fuel when the map starts"),
    whole("assault_points", 0, 0, 100, doc="boarding (base game)"),
    whole("ram_dice", 0, 0, 100, doc="AD of a ram (base game)"),
)

OPTION_EXTRA_FIELDS = (
    choice("game_type", GAME_TYPES, "R002.2"),
    flag("field_orders", True, "R002.20"),
    choice("game_length", ("turns", "time"), "R002.3"),
    whole("game_turns", 6, 1, 99, "R002.3"),
    whole("max_fleet_value", 0, 0, 1000000, "R002.4",
          "MFV; 0 = the larger fleet's points at the start"),
    text("core_forces", "", "R002.4",
         "e.g. 'A=naval, B=aerial'; a side left out: its movement class with the most points"),
    whole("ad_hit_on", 4, 2, 6, doc="AD score for a hit (external)"),
    whole("ad_six_hits", 2, 1, 3, doc="hits of a 6 (external)"),
    flag("ad_exploding", True, doc="a 6 rolls another AD (external)"),
    whole("critical_damage", 1, 0, 10, doc="Damage of a Critical Hit"),
    choice("linked_fire_rounding", ("down", "up"), "A002.17"),
    whole("tiny_flyer_kill_hits", 2, 1, 6, "R002.56"),
    whole("fuel_per_activation", 1, 0, 6, "R002.54"),
    choice("tesla_critical_reroll", ("once", "until-clear"), "R002.46",
           "re-roll a Double 1 / Double 6 once, or until neither shows"),
    whole("morale_pass_max", 7, 2, 12, "R002.27"),
    whole("repair_on", 4, 1, 7, "R002.19"),
    whole("boarding_hit_on", 4, 1, 7),
    number("boarding_range", 1.0, 0, 12),
    number("tiny_flyer_base", 1.0, 0.25, 3, "R002.61"),
)  # fmt: skip
