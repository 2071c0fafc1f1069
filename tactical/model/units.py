"""Units and terrain: small immutable values (the map format, docs/maps.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property

from shapely.geometry import Point, Polygon

from tactical.geometry.shapes import Base, Pose, footprint
from tactical.model.frozen import FrozenMap, kept_hash, without_kept_hash
from tactical.records import forward


class SizeClass(StrEnum):
    """Size classes, also used as terrain Surface Height (R002.8). Ordered smallest first."""

    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    MASSIVE = "massive"

    @property
    def rank(self) -> int:
        return list(SizeClass).index(self)

    # StrEnum would otherwise compare the names as strings ("medium" > "large")
    def __lt__(self, other: object) -> bool:  # type: ignore[override]
        return self.rank < other.rank if isinstance(other, SizeClass) else NotImplemented

    def __le__(self, other: object) -> bool:  # type: ignore[override]
        return self.rank <= other.rank if isinstance(other, SizeClass) else NotImplemented

    def __gt__(self, other: object) -> bool:  # type: ignore[override]
        return self.rank > other.rank if isinstance(other, SizeClass) else NotImplemented

    def __ge__(self, other: object) -> bool:  # type: ignore[override]
        return self.rank >= other.rank if isinstance(other, SizeClass) else NotImplemented


class MovementClass(StrEnum):
    """How a unit moves, which picks its turning pivot (R002.11-R002.13) and terrain collisions."""

    NAVAL = "naval"
    ARMOURED = "armoured"
    AERIAL = "aerial"
    SPACE = "space"


class TerrainKind(StrEnum):
    """Terrain kinds of docs/maps.md; a rule system may accept further kinds as plain strings."""

    SOFT = "soft"
    DENSE = "dense"
    OBSTRUCTING = "obstructing"


@dataclass(frozen=True, slots=True)
class Circle:
    """A round terrain footprint."""

    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class Terrain:
    """A terrain piece: a polygon (tuple of (x, y) vertices) or a circle."""

    id: str
    kind: str
    height: SizeClass
    polygon: tuple[tuple[float, float], ...] | None = None
    circle: Circle | None = None
    name: str = ""

    @cached_property
    def geometry(self) -> Polygon:
        """The footprint in table inches (circles as 64-gons)."""
        if self.circle is not None:
            return Point(self.circle.x, self.circle.y).buffer(self.circle.radius, quad_segs=16)
        assert self.polygon is not None
        return Polygon(self.polygon)

    def outline(self) -> list[tuple[float, float]]:
        """Vertices of the footprint, closing point excluded (circles as polygons)."""
        return [tuple(p) for p in self.geometry.exterior.coords[:-1]]  # type: ignore[misc]


# the kinds of docs/maps.md in a player's words; any other kind reads as its own words
TERRAIN_KIND_WORDS = {
    "soft": "Soft terrain",
    "dense": "Dense terrain",
    "obstructing": "Obstructing terrain",
}


def terrain_kind_words(kind: str) -> str:
    """A terrain kind as a player reads it: "Dense terrain", "Large city"."""
    if kind in TERRAIN_KIND_WORDS:
        return TERRAIN_KIND_WORDS[kind]
    words = " ".join(kind.replace("-", " ").replace("_", " ").split())
    return words[:1].upper() + words[1:] if words else "Terrain"


def terrain_names(pieces: Sequence[Terrain]) -> dict[str, str]:
    """Each piece's name as a player reads it, by id: its own name; without one, its kind in
    words ("Dense terrain"). Numbered in the map's order where two or more pieces share it
    ("Asteroid 1", "Asteroid 2"; "Dense terrain 1", ...: `numbered_names`). Never its id:
    a map file may leave names out."""
    return numbered_names(
        [(piece.id, piece.name or terrain_kind_words(piece.kind)) for piece in pieces]
    )


def numbered_names(entries: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Each (id, name) as a player reads it, by id: a name one entry alone carries as it is;
    those sharing one numbered in their order ("Frigate 1", "Frigate 2"), a number that
    would read as another entry's own name skipped, and a name already ending in a digit
    numbered in brackets ("Ship 1 (2)": two numbers in a row read as one)."""
    shared = Counter(name for _, name in entries)
    seen: Counter[str] = Counter()
    names = {}
    for entry_id, name in entries:
        if shared[name] == 1:
            names[entry_id] = name
            continue
        seen[name] += 1
        while _numbered(name, seen[name]) in shared:  # another entry's own name
            seen[name] += 1
        names[entry_id] = _numbered(name, seen[name])
    return names


def _numbered(name: str, number: int) -> str:
    return f"{name} ({number})" if name[-1:].isdigit() else f"{name} {number}"


@dataclass(frozen=True)
class Unit:
    """A model (or stand) on the table.

    `stats` holds the rule system's own values; each rule system documents
    and validates its schema.
    """

    id: str
    name: str
    side: str
    pose: Pose
    base: Base
    movement: MovementClass = MovementClass.NAVAL
    size: SizeClass = SizeClass.MEDIUM
    stats: FrozenMap = field(default_factory=FrozenMap)

    x = forward("pose.x")
    y = forward("pose.y")
    heading = forward("pose.heading")

    @cached_property
    def footprint(self) -> Polygon:
        # a pure function of the pose and base: a unit copied with new stats by a rule
        # system (`dataclasses.replace`) stands where it stood, on the same outline
        key = (self.pose, self.base)
        found = _FOOTPRINTS.get(key)
        if found is None:
            found = footprint(self.pose, self.base)
            if len(_FOOTPRINTS) >= MAX_FOOTPRINTS:
                _FOOTPRINTS.clear()
            _FOOTPRINTS[key] = found
        return found

    def __hash__(self) -> int:
        """The hash of every field, worked out once (a unit is hashed with every state
        that holds it, and most states share most units)."""
        return kept_hash(self, _UNIT_FIELDS)

    def __getstate__(self) -> dict[str, object]:
        return without_kept_hash(self)

    def moved_to(self, pose: Pose) -> Unit:
        return self.with_fields(pose=pose)

    def with_stats(self, **changes: object) -> Unit:
        stats = self.stats
        for key, value in changes.items():
            stats = stats.set(key, value)
        return self.with_fields(stats=stats)

    def with_fields(self, **changes: object) -> Unit:
        """`dataclasses.replace(self, **changes)`, made field by field for a plain Unit
        (resolvers change units after every roll the agents enumerate, and every candidate
        place the agents score is such a copy). A new pose or base drops the cached
        footprint; other changes keep it (it is the pose and base's alone)."""
        if type(self) is not Unit:  # a subclass may hold more: the long way
            return replace(self, **changes)
        mine = self.__dict__
        copy = object.__new__(Unit)
        made = copy.__dict__
        for field_name in _UNIT_FIELDS:
            made[field_name] = mine[field_name]
        made.update(changes)
        if "pose" not in changes and "base" not in changes and "footprint" in mine:
            made["footprint"] = mine["footprint"]
        return copy


_UNIT_FIELDS = tuple(f.name for f in fields(Unit))  # every one compared and hashed
# bases' outlines by pose and base (`Unit.footprint`), bounded: shapely polygons, immutable
_FOOTPRINTS: dict[tuple[Pose, Base], Polygon] = {}
MAX_FOOTPRINTS = 1024
