"""The tables of seed 002 (SPEC §3.13, T002.1-T002.12) as data, with their lookups.

Every table is exactly as in the SPEC. Base-game values the booklet only names
(the Critical Hit Table's entries, G.5) are opaque codes.
"""

from __future__ import annotations

from dataclasses import dataclass

from tactical.errors import UserError
from tactical.model import SizeClass

# --------------------------------------------------------------------------- T002.1


@dataclass(frozen=True, slots=True)
class FieldOrder:
    """One Field Order of T002.1: what satisfies it, as data.

    `share` is the part of the opposing fleet's MFV to Destroy or Capture in VP
    (None: no VP share); `all_of` names the models that must all be destroyed or
    captured ("large+massive", "medium", "small", "core-force", "fleet-commodore");
    `capture_only` means capture (not destruction) is required; `destroy_only`
    means only destruction counts.
    """

    number: int
    text: str
    share: float | None = None
    all_of: str | None = None
    destroy_only: bool = False
    capture_only: bool = False


FIELD_ORDERS: dict[int, FieldOrder] = {
    1: FieldOrder(
        1,
        "Destroy or Capture at least 70% of the MFV of any opposing Fleet in Victory Points",
        share=0.70,
    ),
    2: FieldOrder(
        2,
        "Destroy all Large and Massive models in any opposing Fleet",
        all_of="large+massive",
        destroy_only=True,
    ),
    3: FieldOrder(
        3,
        "Destroy or Capture at least 50% of the MFV of any opposing Fleet in Victory Points, "
        "including all Medium models",
        share=0.50,
        all_of="medium",
    ),
    4: FieldOrder(
        4,
        "Destroy or Capture all models in any opposing Fleet belonging to its Core Force",
        all_of="core-force",
    ),
    5: FieldOrder(
        5,
        "Destroy or Capture at least 50% of the MFV of any opposing Fleet in Victory Points, "
        "including all Small models",
        share=0.50,
        all_of="small",
    ),
    6: FieldOrder(
        6,
        "Capture the Fleet Commodore's Vessel of any opposing Fleet",
        all_of="fleet-commodore",
        capture_only=True,
    ),
}
DEFAULT_FIELD_ORDER = 1  # R002.21


def field_order(roll: int) -> FieldOrder:
    """T002.1: the Field Order for a 1D6 roll."""
    if roll not in FIELD_ORDERS:
        raise UserError(f"a Field Order roll is 1D6 (1-6), not {roll!r}", spec_id="T002.1")
    return FIELD_ORDERS[roll]


# --------------------------------------------------------------------------- T002.2

TOURNAMENT_LIMITS: dict[str, float] = {
    "large+massive": 0.70,
    "medium": 0.70,
    "small": 0.40,
    "not-core-force": 0.50,
}

# --------------------------------------------------------------------------- T002.3


@dataclass(frozen=True, slots=True)
class CommodoreOption:
    """T002.3: one Fleet Commodore re-roll and its range condition (None: no condition)."""

    option: str
    reroll: str
    within: float | None


FC_RANGE = 8.0  # inches (R002.10, GEO002.4)
COMMODORE_OPTIONS: dict[str, CommodoreOption] = {
    "a": CommodoreOption("a", "treacherous-terrain", FC_RANGE),
    "b": CommodoreOption("b", "critical-vs-enemy", FC_RANGE),
    "c": CommodoreOption("c", "critical-vs-own-commodore", None),
    "d": CommodoreOption("d", "damage-repair", FC_RANGE),
}
COMMODORE_OPTION_OF = {o.reroll: o.option for o in COMMODORE_OPTIONS.values()}

# --------------------------------------------------------------------------- T002.4


@dataclass(frozen=True, slots=True)
class MeasurementPoints:
    """T002.4: where a model type turns from and where its weapons measure from."""

    turning_pivot: str | None
    broadside_and_channel: str
    batteries: str


MEASUREMENT_POINTS: dict[str, MeasurementPoints] = {
    "naval": MeasurementPoints("side-centre", "centre", "centre"),
    "armoured": MeasurementPoints("front-corner", "edge", "centre"),
    "aerial": MeasurementPoints("stand-front", "centre", "centre"),
    "rocket-battery": MeasurementPoints(None, "turret", "turret"),
}

# --------------------------------------------------------------------------- T002.5


@dataclass(frozen=True, slots=True)
class Segment:
    """One step of the Squadron Activation Sequence (T002.5)."""

    segment: str
    step: str
    content: str


ACTIVATION_SEQUENCE: tuple[Segment, ...] = (
    Segment("Command", "1", "Declare the Commanded Element for the Active Squadron, if necessary"),
    Segment("Movement", "2a", "Perform movement for the Active Squadron"),
    Segment("Movement", "2b", "Resolve any Collisions or Rams resulting from that movement"),
    Segment(
        "Combat",
        "3a",
        "Declare ALL attacks from Ordnance and Auxiliary weapons of the Active Squadron",
    ),
    Segment(
        "Combat",
        "3b",
        "Declare ALL Counterattacks from any targeted Squadron; resolve ALL Counterattack Ack "
        "Ack against Flying or Obscured models/tokens that is NOT from Tiny Flyers; resolve ALL "
        "Counterattack Concussion Charges against Diving models/tokens",
    ),
    Segment(
        "Combat",
        "3c",
        "Tiny Flyer combat: (i) simultaneously resolve ALL Attack/Counterattack Ack Ack between "
        "Tiny Flyers; (ii) simultaneously resolve ALL Attack/Counterattack Ack Ack between Tiny "
        "Flyers and Flying or Obscured models; (iii) resolve ALL Ordnance attacks by Tiny Flyers",
    ),
    Segment(
        "Combat",
        "3d",
        "Resolve ALL remaining Ordnance and Auxiliary attacks of the Active Squadron, in any order",
    ),
    Segment("Boarding", "4", "Resolve Boarding Assaults for the Active Squadron"),
    Segment("Morale", "5", "Resolve ALL Break Tests"),
)

# The combat resolution steps of R002.28 in order, with whether a step is simultaneous.
COMBAT_STEPS: tuple[tuple[str, bool], ...] = (
    ("3b-ack-ack", False),
    ("3b-concussion", False),
    ("3c-i", True),
    ("3c-ii", True),
    ("3c-iii", False),
    ("3d", False),
)

# --------------------------------------------------------------------------- R002.36, T002.6

ORDNANCE = ("gunnery", "rocket", "torpedo", "bomb")
AUXILIARY = ("ack-ack", "concussion")
MINES = ("mines",)
WEAPON_CLASS = {
    **dict.fromkeys(ORDNANCE, "ordnance"),
    **dict.fromkeys(AUXILIARY, "auxiliary"),
    **dict.fromkeys(MINES, "mines"),
}

SURFACE_NAVAL, SURFACE_LAND, DIVING, FLYING, OBSCURED = (
    "surface-naval",
    "surface-land",
    "diving",
    "flying",
    "obscured",
)
TARGET_COLUMNS = (SURFACE_NAVAL, SURFACE_LAND, DIVING, FLYING, OBSCURED)

# T002.6 cells: "base" = base rules (external default in BASE_RULES), "yes", "no",
# "rb1" = Range Band 1 only, "rb1-naval" = Range Band 1 only and only a Naval model.
TARGET_PERMISSIONS: dict[str, dict[str, str]] = {
    "tesla-coils": {
        SURFACE_NAVAL: "base",
        SURFACE_LAND: "base",
        DIVING: "rb1",
        FLYING: "rb1",
        OBSCURED: "rb1",
    },
    "rocket": {
        SURFACE_NAVAL: "base",
        SURFACE_LAND: "base",
        DIVING: "rb1",
        FLYING: "rb1",
        OBSCURED: "rb1",
    },
    "torpedo": {
        SURFACE_NAVAL: "yes",
        SURFACE_LAND: "no",
        DIVING: "rb1-naval",
        FLYING: "no",
        OBSCURED: "rb1-naval",
    },
    "auxiliary": {
        SURFACE_NAVAL: "base",
        SURFACE_LAND: "base",
        DIVING: "rb1",
        FLYING: "rb1",
        OBSCURED: "rb1",
    },
}
INDIRECT_FIRE_BANDS = ("RB3", "RB4")
SPOTTER_RANGE = 32.0  # inches, R002.43

# Base rules (external, G.5) for the cells T002.6 leaves to the base game and for the
# weapons it does not list: "yes" or "no". Ordnance fires at surface models; Auxiliary
# weapons are anti-air / anti-submarine and do not fire at surface models.
BASE_RULES: dict[str, dict[str, str]] = {
    "gunnery": {
        SURFACE_NAVAL: "yes",
        SURFACE_LAND: "yes",
        DIVING: "no",
        FLYING: "no",
        OBSCURED: "no",
    },
    "rocket": {SURFACE_NAVAL: "yes", SURFACE_LAND: "yes"},
    "bomb": {SURFACE_NAVAL: "yes", SURFACE_LAND: "yes", DIVING: "no", FLYING: "no", OBSCURED: "no"},
    "mines": {
        SURFACE_NAVAL: "yes",
        SURFACE_LAND: "no",
        DIVING: "yes",
        FLYING: "no",
        OBSCURED: "no",
    },
    "auxiliary": {SURFACE_NAVAL: "no", SURFACE_LAND: "no"},
}


def permission(weapon_row: str, column: str) -> str:
    """The T002.6 cell for a weapon row and a target column, base rules resolved."""
    cell = TARGET_PERMISSIONS.get(weapon_row, {}).get(column, "base")
    if cell == "base":
        base_row = "gunnery" if weapon_row == "tesla-coils" else weapon_row
        return BASE_RULES.get(base_row, {}).get(column, "no")
    return cell


# --------------------------------------------------------------------------- T002.7


@dataclass(frozen=True, slots=True)
class PulverisingResult:
    """T002.7: effects until the End Phase (no Damage), and whether Hard Pounding is applied
    as a full Critical Hit (A002.12)."""

    effects: tuple[str, ...]
    hard_pounding: bool


CHAOS_AND_DISARRAY = "chaos-and-disarray"
SHREDDED_DEFENCES = "shredded-defences"
HARD_POUNDING = "hard-pounding"

ULTRASONIC_TABLE: dict[int, PulverisingResult] = {
    1: PulverisingResult((), False),
    2: PulverisingResult((CHAOS_AND_DISARRAY,), False),
    3: PulverisingResult((CHAOS_AND_DISARRAY,), False),
    4: PulverisingResult((CHAOS_AND_DISARRAY, SHREDDED_DEFENCES), False),
    5: PulverisingResult((CHAOS_AND_DISARRAY, SHREDDED_DEFENCES), False),
    6: PulverisingResult((CHAOS_AND_DISARRAY, SHREDDED_DEFENCES), True),
}


def ultrasonic_result(roll: int) -> PulverisingResult:
    """T002.7 lookup for a 1D6 roll."""
    if roll not in ULTRASONIC_TABLE:
        raise UserError(f"an Ultrasonic roll is 1D6 (1-6), not {roll!r}", spec_id="T002.7")
    return ULTRASONIC_TABLE[roll]


# --------------------------------------------------------------------------- T002.8

TESLA_EFFECT_ON = (5, 6)  # T002.8: 1-4 none, 5-6 the effect of one Critical Hit
TESLA_REROLL_DOUBLES = (1, 6)  # re-roll Double 1 and Double 6


def tesla_effect(roll: int) -> bool:
    """T002.8: whether a 1D6 roll gives the effect (not Damage) of one Critical Hit."""
    if not 1 <= roll <= 6:
        raise UserError(f"a Tesla roll is 1D6 (1-6), not {roll!r}", spec_id="T002.8")
    return roll in TESLA_EFFECT_ON


# --------------------------------------------------------------------------- T002.9

GUARDIAN_SAVES: dict[str, int | None] = {
    "gunnery": 4,
    "ack-ack": 4,
    "concussion": 4,
    "rocket": 5,
    "torpedo": 5,
    "bomb": None,
    "mines": None,
}


def guardian_save(weapon_kind: str) -> int | None:
    """T002.9: the lowest 1d6 score that saves against this attack type; None: no save."""
    return GUARDIAN_SAVES.get(weapon_kind)


# --------------------------------------------------------------------------- T002.10


@dataclass(frozen=True, slots=True)
class GeneratorRow:
    generator: str
    trigger: str
    effect: str
    reach: str
    restriction: str


GENERATORS_SUMMARY: tuple[GeneratorRow, ...] = (
    GeneratorRow(
        "tesla", "on activation (choice)", '+1D3" Mv', "-", "must move >= 1/2 Mv incl. boost"
    ),
    GeneratorRow(
        "tesla (alt)",
        "after movement, if no boost",
        "1D6: 5-6 crit effect",
        'one model <= 8", any height',
        "-",
    ),
    GeneratorRow(
        "ultrasonic",
        "after movement",
        "T002.7",
        'one model <= 8", 270 deg arc from generator centre',
        "-",
    ),
    GeneratorRow(
        "kinetic",
        "on activation (choice)",
        '+1D6" Mv and +1D6" Minimum Move',
        "-",
        ">= 1/2 Mv incl. boost; one KG per activation",
    ),
    GeneratorRow(
        "guardian",
        "always",
        "own: one Shield Generator; aura T002.9",
        '<= 8" from GG vessel centre',
        "one GG per protected model",
    ),
)
GENERATOR_RANGE = 8.0  # inches: Tesla alternative use, UPG, Guardian aura (R002.46, 47, 50)
TESLA_BOOST_DIE = 3  # 1D3 (R002.45)
KINETIC_BOOST_DIE = 6  # 1D6 (R002.48)

# --------------------------------------------------------------------------- T002.11

WING_SIZES: dict[str, tuple[int, int]] = {
    "fighter": (3, 5),
    "dive-bomber": (3, 5),
    "torpedo-bomber": (3, 5),
    "recon": (1, 1),
}
WING_FUEL = 6  # R002.54
WING_REACH = 4.0  # inches: CAP attachment, Landing, Launch deployment (GEO002.5)

# --------------------------------------------------------------------------- T002.12

COLLISIONS: dict[str, dict[str, str]] = {
    "water": {"soft": "collides", "dense": "collides"},
    "land": {"soft": "passes", "dense": "collides"},
    "air": {"soft": "passes", "dense": "collides (height permitting)"},
}

# --------------------------------------------------------------------------- sizes

LARGE_OR_MASSIVE = (SizeClass.LARGE, SizeClass.MASSIVE)
