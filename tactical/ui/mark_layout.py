"""Where the units' tokens, marks and names go on the table (`place_tokens`, `place_marks`,
`place_names`).

Tokens (each unit's damage bar or pips, centred over its base): tokens of units standing
side by side narrow to the room between them (`token_room`, where that leaves a bar
readable), so that a squadron's bars stand in one row, each over its own unit. Then
(`place_tokens`), units taken left to right, each token goes where it stands unless it
would touch a token placed already; then a row higher, and higher, up to TOKEN_ROWS rows:
a squadron too tight for narrower bars has its tokens staggered like bricks, each still
straight over its own unit. A token with no such place is not drawn (the hover card gives
the unit's status): two bars run together read as one unit's.

Marks ("activated", a critical's name, an order):

Each unit's marks stand one per line, stacked into a block beside its status token.
The blocks are placed one unit after another (the selected unit first). A block goes
to the first place around the token (right, above, left, above from either end, then
the same a little higher) where it covers no token, no unit's name and no block placed
already, and no base either; a crowded unit writes fewer of its marks and counts the
rest ("+2 more"), down to a count ("3 marks", "+3"). Where every wording and place
would cover a base, the one covering the fewest pixels of bases is taken; one with no
room at all shows nothing there (its hover card lists every mark). So no two marks
are ever drawn over each other, and every line drawn is readable whole.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pygame

SIDE_GAP = 4  # pixels between a token and a block beside it
ABOVE_GAP = 2  # pixels between a token and a block above it


@dataclass(frozen=True)
class MarkLine:
    """One mark's text and the pixels its line takes (the block's width, a line high)."""

    text: str
    rect: pygame.Rect
    align: str  # "left", "right" or "centre": how the text sits in the line


@dataclass(frozen=True)
class MarkBlock:
    """A unit's marks as placed: its lines, top to bottom, and how many are counted only."""

    unit_id: str
    lines: tuple[MarkLine, ...]
    counted: int  # marks not written out (summed up by the last line, "+2 more" / "+3")
    token: pygame.Rect  # the unit's token the block belongs to
    rect: pygame.Rect  # the block's pixels: its lines, one under another, as wide
    moved: bool = False  # not in the first place tried (right of the token, level with it)


@dataclass(frozen=True)
class MarkRequest:
    """A unit's marks, in the rule system's order, and its token's pixels on screen."""

    unit_id: str
    marks: tuple[str, ...]
    token: pygame.Rect


def wordings(marks: Sequence[str]) -> list[tuple[tuple[str, ...], int]]:
    """The ways to write `marks`, fullest first, with how many each counts only: every
    mark; the first k and "+n more"; "n marks"; a bare "+n"."""
    count = len(marks)
    found: list[tuple[tuple[str, ...], int]] = [(tuple(marks), 0)]
    for kept in range(count - 1, 0, -1):
        found.append(((*marks[:kept], f"+{count - kept} more"), count - kept))
    found.append(((f"{count} mark{'s' if count > 1 else ''}",), count))
    found.append(((f"+{count}",), count))
    return found


def _places(
    width: int, height: int, pitch: int, token: pygame.Rect
) -> list[tuple[pygame.Rect, str]]:
    """Where a block `width` x `height` may go around `token`, in the order tried, and how
    its lines align: beside the token, its last line level with the token's middle (the
    rest above it), or raised by half a line or a line; above it, on the token or a line
    up."""
    beside = token.centery + (pitch + 1) // 2
    above = token.top - ABOVE_GAP
    right, left = token.right + SIDE_GAP, token.left - SIDE_GAP - width
    places = [
        (x, bottom, align)
        for bottom_beside, bottom_above in ((beside, above), (beside - pitch // 2, above - pitch))
        for x, bottom, align in (
            (right, bottom_beside, "left"),
            (token.centerx - width // 2, bottom_above, "centre"),
            (left, bottom_beside, "right"),
            (token.left, bottom_above, "left"),
            (token.right - width, bottom_above, "right"),
        )
    ]
    places += [(right, beside - pitch, "left"), (left, beside - pitch, "right")]
    return [(pygame.Rect(x, bottom - height, width, height), align) for x, bottom, align in places]


def _block(
    unit_id: str,
    texts: tuple[str, ...],
    counted: int,
    token: pygame.Rect,
    rect: pygame.Rect,
    align: str,
    pitch: int,
    moved: bool,
) -> MarkBlock:
    """The block of `texts` in `rect`, a line every `pitch` pixels."""
    lines = tuple(  # every line the block's width: one even plate behind them
        MarkLine(text, pygame.Rect(rect.left, rect.top + index * pitch, rect.width, pitch), align)
        for index, text in enumerate(texts)
    )
    return MarkBlock(unit_id, lines, counted, token, rect, moved)


def place_marks(
    requests: Sequence[MarkRequest],
    measure: Callable[[str], int],
    pitch: int,
    *,
    keep_off: Sequence[pygame.Rect] = (),
    avoid: Sequence[pygame.Rect] = (),
    within: pygame.Rect | None = None,
) -> list[MarkBlock]:
    """Each request's block (see the module docstring), in the requests' order: no block
    covers a token, another block or `keep_off` (the units' names: text over text reads
    as neither); each avoids `avoid` (the bases) and stays `within` the screen where some
    wording and place lets it. `measure` gives a text's width in pixels, `pitch` the
    height of a line."""
    hard = [request.token for request in requests if request.token.width] + list(keep_off)
    soft = list(avoid)
    placed: list[MarkBlock] = []
    for request in requests:
        if not request.marks:
            continue
        options = []  # (wording, counted, rect, align), fullest wording first
        for texts, counted in wordings(request.marks):
            width = max(measure(text) for text in texts)
            for rect, align in _places(width, pitch * len(texts), pitch, request.token):
                options.append((texts, counted, rect, align))
        # only what lies near the token can be in the way (a crowded table has hundreds)
        rects = [option[2] for option in options]
        near = rects[0].unionall(rects[1:])
        near_hard = [hard[i] for i in near.collidelistall(hard)]
        near_soft = [soft[i] for i in near.collidelistall(soft)]
        chosen = _first_clear(rects, near_hard + near_soft, within)
        if chosen is None:
            chosen = _least_covering(rects, near_hard, near_soft, within)
        if chosen is not None:
            texts, counted, rect, align = options[chosen]
            moved = rect.topleft != rects[0].topleft  # the fullest wording's first place
            block = _block(
                request.unit_id, texts, counted, request.token, rect, align, pitch, moved
            )
            placed.append(block)
            hard.append(rect)
    return placed


def _first_clear(
    rects: list[pygame.Rect], obstacles: list[pygame.Rect], within: pygame.Rect | None = None
) -> int | None:
    """The first of `rects` covering none of `obstacles` (and inside `within`)."""
    for index, rect in enumerate(rects):
        if within is not None and not within.contains(rect):
            continue
        if rect.collidelist(obstacles) == -1:
            return index
    return None


def _least_covering(
    rects: list[pygame.Rect],
    obstacles: list[pygame.Rect],
    avoid: list[pygame.Rect],
    within: pygame.Rect | None,
) -> int | None:
    """Of `rects` covering none of `obstacles` (inside `within`), the one covering the
    fewest pixels of `avoid` (the first of equals: the fullest wording)."""
    best: tuple[int, int] | None = None
    for index, rect in enumerate(rects):
        if within is not None and not within.contains(rect):
            continue
        if rect.collidelist(obstacles) != -1:
            continue
        covered = 0
        for hit in rect.collidelistall(avoid):
            overlap = rect.clip(avoid[hit])
            covered += overlap.width * overlap.height
        if best is None or covered < best[0]:
            best = (covered, index)
    return best[1] if best else None


# --------------------------------------------------------------------------- tokens

TOKEN_ROWS = 4  # places tried over a unit: where its token stands and three rows higher
TOKEN_GAP = (4, 2)  # pixels kept between two tokens side by side and one over the other


def token_room(tokens: Mapping[str, pygame.Rect]) -> dict[str, int]:
    """How wide (pixels) each token may be to keep TOKEN_GAP from the tokens of its
    neighbours side by side (by unit id; only those that touch a neighbour's where they
    stand): the distance between their middles less the gap, so that both fit."""
    gap_x, gap_y = TOKEN_GAP
    claims = {unit_id: rect.inflate(gap_x, gap_y) for unit_id, rect in tokens.items() if rect.width}
    owner = {id(claim): unit_id for unit_id, claim in claims.items()}
    grid = RectGrid(claims.values())
    room: dict[str, int] = {}
    for unit_id, claim in claims.items():
        for other in grid.near(claim):
            if owner[id(other)] != unit_id:
                width = abs(other.centerx - claim.centerx) - gap_x
                room[unit_id] = min(room.get(unit_id, tokens[unit_id].width), width)
    return room


def place_tokens(tokens: Mapping[str, pygame.Rect]) -> dict[str, pygame.Rect]:
    """Each unit's token (by unit id: its pixels where it stands over its unit) moved clear
    of the others (see the module docstring); the tokens with no room left out, empty ones
    kept where they are."""
    gap_x, gap_y = TOKEN_GAP
    claimed = RectGrid()
    placed: dict[str, pygame.Rect] = {}
    for unit_id, rect in sorted(tokens.items(), key=lambda item: (item[1].x, item[1].y)):
        if not rect.width or not rect.height:
            placed[unit_id] = rect
            continue
        rows = [rect.move(0, -row * (rect.height + gap_y)) for row in range(TOKEN_ROWS)]
        claims = [row.inflate(gap_x, gap_y) for row in rows]  # half a gap each side
        chosen = _first_clear(claims, claimed.near(claims[0].unionall(claims[1:])))
        if chosen is not None:
            claimed.add(claims[chosen])
            placed[unit_id] = rows[chosen]
    return placed


# --------------------------------------------------------------------------- names

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


class RectGrid:
    """Rectangles filed by 64-pixel cells: which of them a rectangle covers asks only its
    neighbours (the answer of `Rect.collidelist` over all, for thousands of them)."""

    CELL = 64

    def __init__(self, rects: Sequence[pygame.Rect] = ()) -> None:
        self.cells: dict[tuple[int, int], list[pygame.Rect]] = {}
        for rect in rects:
            self.add(rect)

    def _keys(self, rect: pygame.Rect) -> list[tuple[int, int]]:
        cell = self.CELL
        xs = range(rect.left // cell, (rect.right - 1) // cell + 1)
        ys = range(rect.top // cell, (rect.bottom - 1) // cell + 1)
        return [(x, y) for x in xs for y in ys]

    def add(self, rect: pygame.Rect) -> None:
        if rect.width <= 0 or rect.height <= 0:
            return
        cells = self.cells
        for key in self._keys(rect):
            found = cells.get(key)
            if found is None:
                cells[key] = [rect]
            else:
                found.append(rect)

    def near(self, rect: pygame.Rect) -> list[pygame.Rect]:
        """The rectangles filed that `rect` covers."""
        found: list[pygame.Rect] = []
        seen: set[int] = set()
        cells = self.cells
        for key in self._keys(rect):
            for hit in cells.get(key, ()):
                if id(hit) not in seen and rect.colliderect(hit):
                    seen.add(id(hit))
                    found.append(hit)
        return found

    def add_if_clear(self, rect: pygame.Rect) -> bool:
        """File `rect` unless it covers a rectangle filed; whether it was filed."""
        keys = self._keys(rect)
        cells = self.cells
        for key in keys:
            found = cells.get(key)
            if found is not None and rect.collidelist(found) != -1:
                return False
        for key in keys:
            found = cells.get(key)
            if found is None:
                cells[key] = [rect]
            else:
                found.append(rect)
        return True

    def covers(self, rect: pygame.Rect) -> bool:
        """Whether `rect` covers any rectangle filed."""
        cells = self.cells
        for key in self._keys(rect):
            found = cells.get(key)
            if found is not None and rect.collidelist(found) != -1:
                return True
        return False

    def covered_area(self, rect: pygame.Rect) -> int:
        """The pixels of filed rectangles `rect` covers (each counted once)."""
        seen: set[tuple[int, int, int, int]] = set()
        area = 0
        cells = self.cells
        for key in self._keys(rect):
            for hit in cells.get(key, ()):
                corner = (hit.x, hit.y, hit.width, hit.height)
                if corner in seen or not rect.colliderect(hit):
                    continue
                seen.add(corner)
                overlap = rect.clip(hit)
                area += overlap.width * overlap.height
        return area


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
