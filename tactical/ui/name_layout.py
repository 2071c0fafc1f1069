"""Where the units' names go on the table (`place_names`, `names_under`).

Names (`place_names`): every name that fits under its base goes there first; each other
name goes to the first place around its base (under it, right, left, above it and its
token, then the same a line and more farther out) where it covers no name placed
already (with a few pixels between, so that two names never run into one), no status
token and no base, inside the table (past its edge run the inch numbers); the whole
name first, then the unit's shorter names. A name put away from its base gets a leader
line to it, which crosses no other name, token or base. Where a few names found no such
place (a unit between two touching ones, boxed in by their names), the layout is made
again with those placed first, and what is still left out goes farther away (up to
FAR_RINGS lines), tied by its leader. A name with no place even there is not drawn
(the hover card names it): a name over a base would hide the unit. A crowded table
(over CROWDED names) puts each under its base or nowhere (`names_under`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pygame

from tactical.ui.rect_grid import RectGrid

NAME_MARGIN = (3, 1)  # pixels kept clear left/right and above/below a name
NAME_GAP = 3  # pixels between a base and a name beside it
NAME_RINGS = 5  # places tried at 0 to 4 lines farther out than beside the base
FAR_RINGS = 12  # and, for a name with no room there, out to 11 lines farther (`place_names`)
FEW_MISSED = 12  # names left out past which a table is too full to look again or farther
LEADER_FROM = 6  # pixels between a name and its base past which a leader line ties them
GRAZE = 30  # pixels of a base's bounding box a name may cover and still count as clear
CROWDED = 300  # names past which each goes under its base or nowhere (`names_under`)


@dataclass(frozen=True)
class NameRequest:
    """A unit whose name goes on the table: what it may read (best first, with each
    text's width in pixels), where its base is and its status token above the base."""

    unit_id: str
    wordings: tuple[tuple[str, int], ...]
    centre: tuple[float, float]
    reach: float  # pixels from the centre to the base's farthest point
    token: pygame.Rect | None = None
    base: pygame.Rect | None = None  # the base's bounding box (its own leader line ends in it)


@dataclass(frozen=True)
class NamePlace:
    """A unit's name as placed: the text, its box (a line high), the room it claims (the
    box and its margins) and the leader line to the base when it stands away from it."""

    unit_id: str
    text: str
    rect: pygame.Rect
    claim: pygame.Rect
    leader: tuple[tuple[int, int], tuple[int, int]] | None = None


def _under(width: int, height: int, centre: tuple[float, float], reach: float) -> pygame.Rect:
    """A name's first place: under its base, centred (`_name_places`' first)."""
    cx, cy = round(centre[0]), round(centre[1])
    return pygame.Rect(cx - width // 2, cy + math.ceil(reach) + NAME_GAP, width, height)


def _name_places(
    width: int,
    height: int,
    centre: tuple[float, float],
    reach: float,
    token: pygame.Rect | None,
    rings: int = NAME_RINGS,
) -> list[list[pygame.Rect]]:
    """Where a name `width` x `height` may go around a base, ring by ring outwards, each
    ring in the order tried: under the base (centred, then from its middle rightwards and
    leftwards), right and left of it (level, then a line lower), above it and its token
    (as under it), right and left a line higher. Under the base first: above it, beside
    the token, is where the unit's marks go."""
    cx, cy = round(centre[0]), round(centre[1])
    extent = math.ceil(reach)
    below = cy + extent + NAME_GAP
    top = cy - extent if token is None or not token.height else min(cy - extent, token.top)
    above = top - NAME_GAP - height
    right, left = cx + extent + NAME_GAP + 1, cx - extent - NAME_GAP - width
    level, half = cy - height // 2, width // 2
    found = []
    for ring in range(rings):
        out = ring * (height + NAME_MARGIN[1] * 2)
        places = [
            (cx - half, below + out),
            (cx, below + out),
            (cx - width, below + out),
            (right + out, level),
            (left - out, level),
            (right + out, level + height),
            (left - out, level + height),
            (cx - half, above - out),
            (cx, above - out),
            (cx - width, above - out),
            (right + out, level - height),
            (left - out, level - height),
        ]
        found.append([pygame.Rect(x, y, width, height) for x, y in places])
    return found


def _leader(
    rect: pygame.Rect, centre: tuple[float, float], reach: float, token: pygame.Rect | None
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A line from the name's nearest point to the base's edge towards it, when the name
    stands more than LEADER_FROM pixels off the base and its token; None beside them."""
    if (
        token is not None
        and token.width
        and rect.inflate(2 * LEADER_FROM, 2 * LEADER_FROM).colliderect(token)
    ):
        return None
    cx, cy = centre
    near_x = min(max(cx, rect.left), rect.right - 1)
    near_y = min(max(cy, rect.top), rect.bottom - 1)
    dx, dy = near_x - cx, near_y - cy
    distance = math.hypot(dx, dy)
    if distance - reach <= LEADER_FROM or distance == 0:
        return None
    edge = (round(cx + dx / distance * reach), round(cy + dy / distance * reach))
    return (round(near_x), round(near_y)), edge


def place_names(
    requests: Sequence[NameRequest],
    height: int,
    *,
    keep_off: Sequence[pygame.Rect] = (),
    avoid: Sequence[pygame.Rect] = (),
    within: pygame.Rect | None = None,
) -> list[NamePlace]:
    """Each request's name (see the module docstring), in the requests' order (the first
    placed get the best places): no name covers another or `keep_off` (the status tokens:
    a name must not hide a unit's marks) nor `avoid` (the bases: at most GRAZE pixels of
    their bounding boxes); no name covers a leader line and no leader line crosses a
    name, a token or another unit's base; each stays `within` the table (off it, a name
    would run into the edge's tick labels). `height` is a line's height in pixels."""
    wanted = [(k, request) for k, request in enumerate(requests) if request.wordings]
    # a crowded table (hundreds of names: a big table, far zoomed out) puts each name
    # under its base or nowhere: most of its names are too small to read anyway, and a
    # new zoom level must stay quick
    if len(wanted) > CROWDED:
        items = ((k, r.wordings, *r.centre, r.reach) for k, r in wanted)
        return [
            NamePlace(requests[k].unit_id, text, rect, claim)
            for k, text, rect, claim in names_under(items, height, keep_off, within)
        ]
    keep_off = _around(requests, height, keep_off)
    avoid = _around(requests, height, avoid)
    table = _NameTable(height, keep_off, avoid, within)
    found = table.place(wanted)
    missed = [k for k, _ in wanted if k not in found]
    if missed and len(missed) <= FEW_MISSED:
        # a name left out is often boxed in by its neighbours' names, which took the places
        # around it first: again with the names left out placed first, the neighbours
        # going farther out (kept where more units get their names)
        again = _NameTable(height, keep_off, avoid, within)
        placed = again.place(wanted, first=missed)
        if len(placed) > len(found):
            table, found = again, placed
        # those still left out farther away, tied by their leader lines
        found.update(table.place(wanted, far=True, placed=found))
    # no room even there, or a table too full to look farther: the hover card names it
    return [found[k] for k in sorted(found)]


class _NameTable:
    """The names placed so far on one attempt at a layout (`place_names`), with what they
    must keep clear of: the tokens and names (`hard`), the bases (`soft`) and the leader
    lines drawn."""

    def __init__(
        self,
        height: int,
        keep_off: Sequence[pygame.Rect],
        avoid: Sequence[pygame.Rect],
        within: pygame.Rect | None,
    ) -> None:
        self.height = height
        self.within = within
        self.hard = RectGrid(keep_off)
        self.soft = RectGrid(avoid)
        self.tokens = RectGrid(keep_off)
        self.lines = RectGrid()  # the leader lines drawn, by their bounding boxes
        self.leaders: dict[
            tuple[int, int, int, int], list[tuple[tuple[int, int], tuple[int, int]]]
        ] = {}

    def place(
        self,
        wanted: Sequence[tuple[int, NameRequest]],
        first: Sequence[int] = (),
        far: bool = False,
        placed: Mapping[int, NamePlace] | None = None,
    ) -> dict[int, NamePlace]:
        """The names of `wanted` (index, request) placed, by index: every whole name under
        its base where it fits, then the others around their bases in order (those of
        `first` before the rest). `far`: only those not `placed` yet, on the rings past
        NAME_RINGS."""
        found: dict[int, NamePlace] = {}
        if far:
            for k, request in wanted:
                if placed is None or k not in placed:
                    chosen = self.first_clear(request, range(NAME_RINGS, FAR_RINGS))
                    if chosen is not None:
                        found[k] = self.put(request, *chosen)
            return found
        # first every whole name under its base where it fits: a name that goes elsewhere
        # first would take the room under the unit beside it
        for k, request in wanted:
            text, width = request.wordings[0]
            under = _under(width, self.height, request.centre, request.reach)
            if self.clear(request, under):
                found[k] = self.put(request, text, under)
        ahead = set(first)
        order = [item for item in wanted if item[0] in ahead]
        order += [item for item in wanted if item[0] not in ahead]
        for k, request in order:
            if k not in found:
                chosen = self.first_clear(request, range(NAME_RINGS))
                if chosen is not None:
                    found[k] = self.put(request, *chosen)
        return found

    def first_clear(self, request: NameRequest, rings: range) -> tuple[str, pygame.Rect] | None:
        """The first wording and place of `request` on `rings` that is clear: the best
        wording ring by ring outwards, then the shorter ones (a whole name a line or two
        away, tied by its leader, reads better than a cut one or an id)."""
        height = self.height
        options = [
            (text, rect)
            for text, width in request.wordings
            for places in _name_places(
                width, height, request.centre, request.reach, request.token, rings.stop
            )[rings.start :]
            for rect in places
        ]
        margin_x, margin_y = NAME_MARGIN
        region = options[0][1].unionall([rect for _, rect in options[1:]])
        hard_near = self.hard.near(region.inflate(2 * margin_x, 2 * margin_y))
        soft_near = self.soft.near(region)
        if not rings.start:  # one of the first places most often: tried one by one
            near = (hard_near, soft_near)
            return next(((t, r) for t, r in options if self.clear(request, r, near)), None)
        # farther out, hundreds of places: what covers a name, a token or too much of a base
        # found for all at once, and only the places clear of those looked at one by one
        boxes = np.array([tuple(rect) for _, rect in options], dtype=np.int64)
        ok = np.ones(len(options), dtype=bool)
        if self.within is not None:
            x, y, w, h = self.within
            ok &= (boxes[:, 0] >= x) & (boxes[:, 1] >= y)
            ok &= (boxes[:, 0] + boxes[:, 2] <= x + w) & (boxes[:, 1] + boxes[:, 3] <= y + h)
        claims = boxes + np.array([-margin_x, -margin_y, 2 * margin_x, 2 * margin_y])
        if hard_near:
            ok &= ~(_overlaps(claims, hard_near) > 0).any(axis=1)
        if soft_near:
            ok &= _overlaps(boxes, soft_near).sum(axis=1) <= GRAZE
        for index in np.flatnonzero(ok).tolist():
            text, rect = options[index]
            if self.clear(request, rect, ([], [])):
                return text, rect
        return None

    def crosses_leader(self, claim: pygame.Rect) -> bool:
        return any(
            claim.clipline(*line)
            for box in self.lines.near(claim)
            for line in self.leaders[(box.x, box.y, box.w, box.h)]
        )

    def clear(
        self,
        request: NameRequest,
        rect: pygame.Rect,
        near: tuple[list[pygame.Rect], list[pygame.Rect]] | None = None,
    ) -> bool:
        """Whether the name may go at `rect` (see `place_names`); `near` are the names,
        tokens and bases around the request (gathered once for all its places: a place is
        then tried in C, and only one clear of them is looked at further)."""
        if self.within is not None and not self.within.contains(rect):
            return False
        margin_x, margin_y = NAME_MARGIN
        claim = rect.inflate(2 * margin_x, 2 * margin_y)
        hard, soft = self.hard, self.soft
        if near is None:
            if hard.covers(claim) or (soft.covers(rect) and soft.covered_area(rect) > GRAZE):
                return False
        else:
            hard_near, soft_near = near
            if claim.collidelist(hard_near) != -1:
                return False
            hits = rect.collidelistall(soft_near)
            if hits and _area(rect, [soft_near[i] for i in hits]) > GRAZE:
                return False
        if self.leaders and self.crosses_leader(claim):
            return False
        leader = _leader(rect, request.centre, request.reach, request.token)
        if leader is not None:  # its line must not cross another name, token or base
            return not _crosses(leader, hard, soft, request)
        return not _nearer_another(rect, soft, self.tokens, request)  # read as a neighbour's

    def put(self, request: NameRequest, text: str, rect: pygame.Rect) -> NamePlace:
        margin_x, margin_y = NAME_MARGIN
        claim = rect.inflate(2 * margin_x, 2 * margin_y)
        self.hard.add(claim)
        leader = _leader(rect, request.centre, request.reach, request.token)
        if leader is not None:
            box = _line_box(leader)
            self.lines.add(box)
            self.leaders.setdefault((box.x, box.y, box.w, box.h), []).append(leader)
        return NamePlace(request.unit_id, text, rect, claim, leader)


def _around(
    requests: Sequence[NameRequest], height: int, rects: Sequence[pygame.Rect]
) -> Sequence[pygame.Rect]:
    """Of `rects`, those a few names' places (and their leader lines) can reach; all of
    them for many names. The selected unit's name alone need not file every base of a
    big table."""
    if len(requests) > 8 or not rects:
        return rects
    found: set[int] = set()
    for request in requests:
        if not request.wordings:
            continue
        widest = max(width for _, width in request.wordings)
        out = math.ceil(request.reach) + NAME_GAP + (NAME_RINGS + 1) * (height + 4)
        token = request.token.height if request.token is not None else 0
        region = pygame.Rect(0, 0, 2 * (out + widest), 2 * (out + height + token))
        region.center = (round(request.centre[0]), round(request.centre[1]))
        found.update(region.collidelistall(rects))
    return [rects[i] for i in sorted(found)]


def names_under(
    items: Iterable[tuple[int, tuple[tuple[str, int], ...], float, float, float]],
    height: int,
    keep_off: Sequence[pygame.Rect] = (),
    within: pygame.Rect | None = None,
) -> list[tuple[int, str, pygame.Rect, pygame.Rect]]:
    """`place_names` on a crowded table, from plain values (index, wordings, centre x and
    y, reach): each name under its base in the first wording that covers no name placed
    and no token there and stays `within` the table, or nowhere; (index, text, box, claim)
    of each placed. The bases
    are not looked at: at such a zoom a name is about as wide as a squadron, and a new
    zoom level must stay as quick as a frame."""
    margin_x, margin_y = NAME_MARGIN
    grid = RectGrid(keep_off)
    placed = []
    for index, wordings, x, y, reach in items:
        cx, top = round(x), round(y) + math.ceil(reach) + NAME_GAP
        for text, width in wordings:
            rect = pygame.Rect(cx - width // 2, top, width, height)
            if within is not None and not within.contains(rect):
                continue
            claim = rect.inflate(2 * margin_x, 2 * margin_y)
            if grid.add_if_clear(claim):
                placed.append((index, text, rect, claim))
                break
    return placed


def _overlaps(boxes: np.ndarray, others: Sequence[pygame.Rect]) -> np.ndarray:
    """The pixels each of `boxes` (n, 4: x, y, width, height) shares with each of `others`
    (an (n, m) array; 0 where they do not meet)."""
    them = np.array([tuple(other) for other in others], dtype=np.int64)
    left = np.maximum(boxes[:, None, 0], them[None, :, 0])
    right = np.minimum(boxes[:, None, 0] + boxes[:, None, 2], them[None, :, 0] + them[None, :, 2])
    top = np.maximum(boxes[:, None, 1], them[None, :, 1])
    bottom = np.minimum(boxes[:, None, 1] + boxes[:, None, 3], them[None, :, 1] + them[None, :, 3])
    return np.clip(right - left, 0, None) * np.clip(bottom - top, 0, None)


def _area(rect: pygame.Rect, others: list[pygame.Rect]) -> int:
    """The pixels of `others` that `rect` covers (each counted once)."""
    area = 0
    for other in others:
        overlap = rect.clip(other)
        area += overlap.width * overlap.height
    return area


def _crosses(
    leader: tuple[tuple[int, int], tuple[int, int]],
    hard: RectGrid,
    soft: RectGrid,
    request: NameRequest,
) -> bool:
    """Whether a leader line crosses a name or token (`hard`) or a base (`soft`) other
    than its own unit's: it would read as tying the name to that one. A base the unit
    stands on (its middle inside that base's box: a group just launched from its
    carrier) does not count: every line to the unit crosses it."""
    box = _line_box(leader)
    cx, cy = request.centre
    return any(
        other.clipline(*leader) for other in hard.near(box) if other != request.token
    ) or any(
        other.clipline(*leader)
        for other in soft.near(box)
        if other != request.base and not other.collidepoint(cx, cy)
    )


def _gap(a: pygame.Rect, b: pygame.Rect) -> float:
    """Pixels between two rectangles (0 when they touch or overlap)."""
    dx = max(b.left - a.right, a.left - b.right, 0)
    dy = max(b.top - a.bottom, a.top - b.bottom, 0)
    return math.hypot(dx, dy)


def _nearer_another(
    rect: pygame.Rect, bases: RectGrid, tokens: RectGrid, request: NameRequest
) -> bool:
    """Whether a name at `rect` (with no leader line) stands as near another unit's base
    or token as its own base (or its own token, when over it): it would read as that
    unit's name. Over its own token, of equally near ones the one whose middle is nearer
    the name's middle wins."""
    own = [r for r in (request.base, request.token) if r is not None and r.width]
    if not own:
        return False

    def nearness(other: pygame.Rect) -> tuple[float, float]:
        middle = math.hypot(other.centerx - rect.centerx, other.centery - rect.centery)
        return _gap(rect, other), middle

    mine = min(nearness(r) for r in own)
    reach = math.ceil(mine[0])
    around = rect.inflate(2 * reach + 2, 2 * reach + 2)
    token = request.token
    # straight over its own token, a name centred on it reads as that unit's even where the
    # squadron's tokens touch; elsewhere an equally near neighbour makes it unclear
    over = token is not None and token.width and rect.bottom <= token.top
    over = over and token.left <= rect.centerx < token.right
    return any(
        other not in own and (nearness(other) <= mine if over else nearness(other)[0] <= mine[0])
        for grid in (bases, tokens)
        for other in grid.near(around)
    )


def _line_box(line: tuple[tuple[int, int], tuple[int, int]]) -> pygame.Rect:
    """The pixels a line's bounding box takes."""
    (x0, y0), (x1, y1) = line
    return pygame.Rect(min(x0, x1), min(y0, y1), abs(x1 - x0) + 1, abs(y1 - y0) + 1)
