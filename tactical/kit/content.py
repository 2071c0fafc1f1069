"""What a printed kit holds, as plain values in inches: gathered from the rule system and a map.

- range rulers: each distinct band profile of the units (the rule system's own
  `range_band`, through `band_limits`), a profile that is the start of a longer one
  folded into it;
- turning templates: each distinct turning limit of the units (`turning_rules`), with
  the SPEC id the limit cites;
- arc templates: each distinct base with the arcs the rule system gives it;
- for a map: its terrain by 2'x2' area (the area holding each piece's centre) and its
  units where the map places them.

No drawing here (`tactical.kit.pdf` draws): tests check these values against the rules.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import shapely

from tactical.errors import UserError
from tactical.geometry.arcs_spec import ArcSpec
from tactical.geometry.movement_spec import Pivot, TurningRules
from tactical.io.maps import load_map
from tactical.io.paths import builtin_map
from tactical.model import Area, Base, CircleBase, GameState, RectBase, Terrain, Unit
from tactical.rules import registry
from tactical.rules.base import RuleSystem
from tactical.rules.measuring import band_limits

RULER_CAP = 48.0  # inches: rulers stop at 4 feet (a tape measure does the rest)
PIVOT_WORDS = {
    Pivot.SIDE_CENTRE: "about the middle of the side turned toward",
    Pivot.FRONT_CORNER: "about the front corner on the side turned toward",
    Pivot.STAND_FRONT: "about the front of the flight stand on the side turned toward",
    Pivot.CENTRE: "about the centre",
}


@dataclass(frozen=True)
class RulerSpec:
    """A range ruler: band edges (name of the band ending there, inches) up to `length`;
    `beyond` lists the bands ending past the ruler; `units` who measure with it."""

    length: float
    edges: tuple[tuple[str, float], ...]
    beyond: tuple[tuple[str, float], ...]
    units: tuple[str, ...]
    measured_from: str


@dataclass(frozen=True)
class TurningSpec:
    """A turning template: the largest turn of one step (`step`, degrees) or of a whole move
    (`move`), or neither (free turning: a protractor); pivots and the SPEC ids cited."""

    step: float | None
    move: float | None
    pivots: tuple[str, ...]
    spec_ids: tuple[str, ...]
    units: tuple[str, ...]


@dataclass(frozen=True)
class ArcTemplateSpec:
    """A base at true size with its arcs' boundary lines."""

    base: Base
    arcs: tuple[ArcSpec, ...]
    units: tuple[str, ...]

    @property
    def title(self) -> str:
        return base_words(self.base)


@dataclass(frozen=True)
class AreaSheet:
    """One 2'x2' area of a map with the pieces whose centre lies in it."""

    area: Area
    pieces: tuple[Terrain, ...]


@dataclass(frozen=True)
class KitContent:
    """Everything the kit prints, for a rule system and (optionally) a map."""

    system: RuleSystem
    source: str
    rulers: tuple[RulerSpec, ...]
    turning: tuple[TurningSpec, ...]
    arc_templates: tuple[ArcTemplateSpec, ...]
    state: GameState | None  # the map, for its terrain and deployment sheets
    areas: tuple[AreaSheet, ...] = ()
    # Each unit's name as a player reads it on the play screen, by id (`GameState.shown_names`:
    # numbered where units share a name); the specs above list ids, the pages print these.
    shown_names: Mapping[str, str] = field(default_factory=dict, compare=False)
    # The layout's fairness score in a player's words: the headline, then one line a part
    # (worked out above the kit, by `tactical print`, from the threat layer's score).
    fairness: tuple[str, ...] = ()

    def unit_name(self, unit_id: str) -> str:
        """The unit's name as on the play screen; its id where it has none."""
        return self.shown_names.get(unit_id, unit_id)


def base_words(base: Base) -> str:
    """'1.5" x 4" rectangle' or '2" round' (width across, length along the heading)."""
    if isinstance(base, CircleBase):
        return f'{_num(2 * base.radius)}" round base'
    assert isinstance(base, RectBase)
    return f'{_num(base.width)}" x {_num(base.length)}" base'


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def kit_for_map(path: str) -> KitContent:
    """The kit of a map: its rule system's templates for its units, and its sheets."""
    state = load_map(path)
    system = registry.get(state.rules)
    if not state.units:
        raise UserError(f"{path} has no units: a kit's templates are for the units it uses")
    return _content(system, state, map_label(state, path), with_sheets=True)


def map_label(state: GameState, path: str | os.PathLike[str]) -> str:
    """How the kit names a map on its pages: its title and its file's name
    ("Deimos orbital base (deimos.toml)"), never the folders the file sits in."""
    name = Path(path).name
    return f"{state.title} ({name})" if state.title else name


def kit_for_rules(rules_id: str) -> KitContent:
    """The kit of a rule system: templates for the units of its built-in scenario map."""
    system = registry.get(rules_id)  # a UserError naming the known ids
    path = builtin_map(f"{rules_id}.toml")
    if not path.is_file():
        raise UserError(
            f"rule system {rules_id!r} has no built-in scenario map to take its units from"
        )
    state = load_map(path)
    return _content(system, state, f"the built-in {rules_id} scenario", with_sheets=False)


def _content(system: RuleSystem, state: GameState, source: str, with_sheets: bool) -> KitContent:
    if not state.units:
        raise UserError(f"{source} has no units: a kit's templates are for the units it uses")
    options = system.options(state.options)
    return KitContent(
        system,
        source,
        rulers(system, state, options),
        turning_templates(system, state.units, options),
        arc_templates(system, state.units),
        state if with_sheets else None,
        area_sheets(state) if with_sheets else (),
        dict(state.shown_names),
    )


def rulers(system: RuleSystem, state: GameState, options: dict) -> tuple[RulerSpec, ...]:
    """One ruler per distinct band profile; a profile that starts a longer one is folded in."""
    probe = max(state.board.width, state.board.height, RULER_CAP) * 2
    profiles: dict[tuple[tuple[str, float], ...], list[str]] = {}
    for unit in state.units:
        limits = band_limits(system, unit, options, probe)
        if limits:
            profiles.setdefault(limits, []).append(unit.id)
    ordered = sorted(profiles, key=len, reverse=True)
    kept: dict[tuple[tuple[str, float], ...], list[str]] = {}
    for profile in ordered:
        longer = next((k for k in kept if k[: len(profile)] == profile), None)
        (kept[longer] if longer else kept.setdefault(profile, [])).extend(profiles[profile])
    conventions = system.conventions
    measured = (
        f"the firer's {'base edge' if conventions.distance_from == 'edge' else 'centre'} to the "
        f"target's {'nearest point' if conventions.distance_to == 'nearest' else 'centre'}"
    )
    specs = []
    for profile, units in kept.items():
        length = min(profile[-1][1], RULER_CAP)
        edges = tuple(e for e in profile if e[1] <= length + 1e-9)
        beyond = tuple(e for e in profile if e[1] > length + 1e-9)
        specs.append(RulerSpec(length, edges, beyond, tuple(units), measured))
    return tuple(specs)


def turning_templates(
    system: RuleSystem, units: tuple[Unit, ...], options: dict
) -> tuple[TurningSpec, ...]:
    """One template per distinct turning limit (pivots gathered per limit)."""
    found: dict[tuple[float | None, float | None], tuple[list[str], list[str], list[str]]] = {}
    for unit in units:
        rules: TurningRules = system.turning_rules(unit, options)
        key = (rules.max_turn_per_step, rules.max_turn_per_move)
        pivots, ids, names = found.setdefault(key, ([], [], []))
        words = PIVOT_WORDS[rules.pivot]
        if words not in pivots:
            pivots.append(words)
        cited = [rules.step_turn_rule] if key[0] is not None else []
        cited += [rules.move_turn_rule] if key[1] is not None else []
        ids.extend(c for c in cited if c not in ids)
        names.append(unit.id)
    return tuple(
        TurningSpec(step, move, tuple(pivots), tuple(ids), tuple(names))
        for (step, move), (pivots, ids, names) in found.items()
    )


def arc_templates(system: RuleSystem, units: tuple[Unit, ...]) -> tuple[ArcTemplateSpec, ...]:
    """One template per distinct base and arc set."""
    found: dict[tuple[Base, tuple[ArcSpec, ...]], list[str]] = {}
    for unit in units:
        found.setdefault((unit.base, tuple(system.unit_arcs(unit))), []).append(unit.id)
    return tuple(ArcTemplateSpec(b, a, tuple(n)) for (b, a), n in found.items())


def area_sheets(state: GameState) -> tuple[AreaSheet, ...]:
    """Every 2'x2' area with the pieces whose centre lies in it (each piece on one sheet)."""
    board = state.board
    sheets = []
    for area in board.areas:
        pieces = []
        for piece in state.terrain:
            centre = shapely.centroid(piece.geometry)
            x, y = min(max(centre.x, 0.0), board.width), min(max(centre.y, 0.0), board.height)
            held = board.area_at(x, y)
            if held is not None and held.name == area.name:
                pieces.append(piece)
        sheets.append(AreaSheet(area, tuple(pieces)))
    return tuple(sheets)
