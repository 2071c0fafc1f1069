"""The adjudication card described once, in table inches, for the picture and the page.

`card_scene` is what the card draws over the table (blockers outlined, the firer's arc
tints and lines, the band edge, the line of sight, the measured segments) and the labels
that name them; `card_lines` the numbers with the SPEC ids that decided them; `legend_items`
what each colour means. The looks are the medium's (`CardInks`): the screen's palette on
the PNG, print tints on the PDF. No pygame here: `card` draws the scene through
`PygameCanvas`, `card_paper` through the print kit's `PaperCanvas`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import shapely

from tactical.drawing.primitives import Arc, Colour, Line, Polygon, Primitive, Style, Text
from tactical.geometry.arcs import arc_region
from tactical.rules.conventions import band_name
from tactical.ui.card_view import ArcCall, CardView, margin_text

RGBA = tuple[int, int, int, int]
PLACES = {"centre": "centre", "edge": "base edge", "nearest": "nearest point"}


@dataclass(frozen=True, slots=True)
class CardInks:
    """How the card looks in a medium: its colours, line widths and text sizes (pixels on
    screen, points on paper), and whether lines are smoothed there."""

    witness: Colour  # the measured range segment and its length
    edge_witness: Colour  # the edge-to-edge segment, where it differs
    arc_line: Colour
    band_edge: Colour
    los_clear: Colour
    los_blocked: Colour
    blocking: Colour  # terrain and bases in the way
    arc_tint: Callable[[int], RGBA]
    witness_width: float = 3.0
    line_width: float = 2.0  # arc lines and the band edge
    thin: float = 1.0  # the line of sight and the edge-to-edge segment
    blocking_width: float = 3.0
    dot: float = 4.0  # the measured segment's end dots (radius)
    text_size: float = 14.0
    head_size: float = 15.0


@dataclass(frozen=True, slots=True)
class CardScene:
    """The card's table overlays: `under` the units, `over` them, then the `labels`."""

    under: tuple[Primitive, ...]
    over: tuple[Primitive, ...]
    labels: tuple[Text, ...]


def card_scene(view: CardView, inks: CardInks, unit: float) -> CardScene:
    """What the card draws over the table (GEO002.7 range and arcs, R002.40 line of sight),
    in inches; `unit` is the inches of one pixel or point of the medium (the end dots and
    the labels' offsets are in the medium's units)."""
    state, report = view.state, view.report
    under: list[Primitive] = [
        Polygon(piece.geometry, Style(colour=inks.blocking, width=inks.blocking_width))
        for piece in state.terrain
        if piece.id in report.blocked_by
    ]
    under += [  # the bases in the way (R002.41)
        Polygon(state.unit(model).footprint, Style(inks.blocking, inks.blocking_width))
        for model in report.blocking_models
        if state.has_unit(model)
    ]
    arcs = view.drawn_arcs
    under += _arc_tints(view, inks, arcs)
    # the rings and rays on the table only, as the tints: past its edge is the floor
    edges = view.state.board.bounds
    ring = _band_ring(view)
    if ring is not None:
        under.append(
            Line(shapely.clip_by_rect(ring, *edges), Style(inks.band_edge, inks.line_width))
        )
    rays = [
        shapely.clip_by_rect(shapely.LineString(ray), *edges) for arc in arcs for ray in arc.lines
    ]
    under += [Line(ray, Style(inks.arc_line, inks.line_width)) for ray in rays if not ray.is_empty]
    los = inks.los_clear if report.los else inks.los_blocked
    centres = (view.firer.x, view.firer.y), (view.target.x, view.target.y)
    under.append(Line.between(*centres, Style(los, inks.thin)))
    over, labels = _witnesses(view, inks, unit)
    labels += [_arc_label(view, inks, unit, arc) for arc in arcs]
    if ring is not None:
        labels.append(_band_label(view, inks, unit, ring))
    return CardScene(tuple(under), tuple(over), tuple(labels))


def _arc_tints(view: CardView, inks: CardInks, arcs: tuple[ArcCall, ...]) -> list[Primitive]:
    """Each drawn arc's region out past the target, in its tint, on the table only (a tint
    past the edge would colour the floor); where arcs overlap, the later arc's tint alone
    (tints laid over one another would read as a third arc)."""
    own = {arc.name: arc for arc in view.system.unit_arcs(view.firer)}
    reach = max(view.report.centre_distance * 1.25, view.report.centre_distance + 3.0)
    table = shapely.box(*view.state.board.bounds)
    regions = [
        shapely.intersection(
            arc_region(view.firer.pose, view.firer.base, own[a.name], reach), table
        )
        for a in arcs
    ]
    found: list[Primitive] = []
    for index, region in enumerate(regions):
        later = regions[index + 1 :]
        shown = shapely.difference(region, shapely.union_all(later)) if later else region
        if not shown.is_empty:
            tint = inks.arc_tint(index)
            found.append(Polygon(shown, Style(fill=tint[:3], alpha=tint[3], smooth=False)))
    return found


def _band_ring(view: CardView) -> shapely.LinearRing | None:
    """The ring of the band edge nearest the target, measured as the rule system measures."""
    edge = view.band_edge
    if edge is None or edge.limit <= 0:
        return None
    firer = view.firer
    measured_from = (
        firer.footprint
        if view.conventions.distance_from == "edge"
        else shapely.Point(firer.x, firer.y)
    )
    return measured_from.buffer(edge.limit, quad_segs=128).exterior


def _band_label(view: CardView, inks: CardInks, unit: float, ring) -> Text:
    """The band edge named where its ring passes nearest the target."""
    edge = view.band_edge
    assert edge is not None
    point = ring.interpolate(ring.project(shapely.Point(view.target.x, view.target.y)))
    words = f'{band_name(edge.inside)} ends at {edge.limit:.2f}"'
    at = (point.x + 8 * unit, point.y + 8 * unit)
    return Text(words, at, inks.text_size, Style(inks.band_edge), anchor="bottomleft")


def _witnesses(view: CardView, inks: CardInks, unit: float) -> tuple[list[Primitive], list[Text]]:
    """The edge-to-edge segment where it differs from the measured one; the measured segment,
    its end dots and its length over its middle."""
    report = view.report
    edge, witness = report.edge_witness, report.witness
    found: list[Primitive] = []
    if (
        edge is not None
        and witness is not None
        and (math.dist(edge.start, witness.start) > 1e-6 or math.dist(edge.end, witness.end) > 1e-6)
    ):
        found.append(
            Line.between(edge.start, edge.end, Style(inks.edge_witness, inks.thin, smooth=False))
        )
    if witness is None:
        return found, []
    style = Style(inks.witness, inks.witness_width, smooth=False)
    found.append(Line.between(witness.start, witness.end, style))
    dot = Style(fill=inks.witness, smooth=False)
    found += [
        Arc(point, inks.dot * unit, 0.0, 360.0, dot) for point in (witness.start, witness.end)
    ]
    middle = ((witness.start[0] + witness.end[0]) / 2, (witness.start[1] + witness.end[1]) / 2)
    length = Text(
        f'{report.distance:.2f}"',
        (middle[0], middle[1] + 10 * unit),
        inks.head_size,
        Style(inks.witness),
        anchor="midbottom",
    )
    return found, [length]


def _arc_label(view: CardView, inks: CardInks, unit: float, arc: ArcCall) -> Text:
    """The arc's name and the target's margin, on the line nearer the target, level with it."""
    target = shapely.Point(view.target.x, view.target.y)
    line = min((shapely.LineString(s) for s in arc.lines), key=target.distance)
    point = line.interpolate(min(line.project(target), line.length))
    words = f"{arc.name} line: target margin {margin_text(arc.margin)}"
    at = (point.x, point.y + 6 * unit)
    return Text(words, at, inks.text_size, Style(inks.arc_line), anchor="midbottom")


# --------------------------------------------------------------------------- words


def legend_items(view: CardView, inks: CardInks) -> list[tuple[str, str, Colour, float]]:
    """What the card's colours mean: (label, "line" or "outline", colour, width)."""
    items = [
        ("range measured", "line", inks.witness, inks.witness_width),
        ("edge to edge", "line", inks.edge_witness, inks.thin),
        ("arc lines", "line", inks.arc_line, inks.line_width),
    ]
    if view.band_edge is not None:
        items.append(("band edge", "line", inks.band_edge, inks.line_width))
    items.append(("LOS clear", "line", inks.los_clear, inks.line_width))
    items.append(("LOS blocked", "line", inks.los_blocked, inks.line_width))
    if view.report.blocked_by or view.report.blocking_models:
        items.append(("blocking", "outline", inks.blocking, inks.blocking_width))
    return items


def card_title(view: CardView) -> tuple[str, str]:
    """The card's title (who fires on whom, by the names a player reads and the map's ids)
    and its subtitle (the map and the rule system)."""
    firer, target = view.firer, view.target
    names = view.state.shown_names
    title = (
        f"Adjudication: {names.get(firer.id, firer.id)} ({firer.id}) firing "
        f"on {names.get(target.id, target.id)} ({target.id})"
    )
    return title, f"{view.state.title or 'untitled map'} · {view.system.title}"


def card_lines(view: CardView) -> list[tuple[str, str]]:
    """The panel's text as (style, line): "head", "text" or "dim"."""
    report, conventions = view.report, view.conventions

    def cited(question: str) -> str:
        spec = conventions.citation(question)
        return f" ({spec})" if spec else ""

    lines: list[tuple[str, str]] = [("head", "Range" + cited("range"))]
    measured = (
        f"from the firer's {PLACES[conventions.distance_from]} to the target's "
        f"{PLACES[conventions.distance_to]}"
    )
    band = band_name(report.range_band) if report.range_band else "out of range"
    lines.append(("text", f'{report.distance:.2f}" {measured}: {band}'))
    if report.witness is not None:
        w = report.witness
        lines.append(
            (
                "dim",
                f"measured ({w.start[0]:.2f}, {w.start[1]:.2f}) to "
                f"({w.end[0]:.2f}, {w.end[1]:.2f})",
            )
        )
    edge = view.band_edge
    if edge is not None:
        side = "inside" if edge.margin >= 0 else "beyond"
        lines.append(
            (
                "text",
                f'nearest band edge: {band_name(edge.inside)} ends at {edge.limit:.2f}" '
                f"({band_name(edge.outside) if edge.outside else 'out of range'} beyond); "
                "the target is "
                f'{abs(edge.margin):.2f}" {side} it',
            )
        )
    lines.append(
        (
            "dim",
            f'centre to centre {report.centre_distance:.2f}", edge to edge '
            f'{report.edge_distance:.2f}"',
        )
    )
    lines.append(("head", "Arcs" + cited("arcs")))
    test = "its centre" if conventions.arc_test == "centre" else "any part of its base"
    lines.append(
        ("text", f"bearing {report.bearing:.2f}° ({report.centre_arc}); in an arc by {test}")
    )
    held = ", ".join(report.arcs) or "none of the firer's arcs"
    lines.append(("text", f"in: {held}"))
    for arc in view.arcs:
        verdict = "holds the target" if arc.holds else "misses"
        if math.isinf(arc.margin.value):
            lines.append(("dim", f"{arc.name}: every bearing ({verdict})"))
        else:
            lines.append(
                ("dim", f"{arc.name}: centre margin {margin_text(arc.margin)} ({verdict})")
            )
    lines.append(("head", "Line of sight" + cited("line of sight")))
    if report.los:
        lines.append(("text", "clear, centre to centre"))
    else:
        pieces = view.state.shown_terrain_names
        named = [pieces.get(t, "terrain") for t in report.blocked_by]  # names, never ids
        if report.blocked_by:
            lines.append(("text", "blocked by " + ", ".join(named)))
        if report.blocking_models:  # by the names a player reads, never the ids
            models = report.blocking_model_names
            which = "the model " if len(models) == 1 else "the models "
            lead = "and by " if report.blocked_by else "blocked by "
            lines.append(("text", lead + which + ", ".join(models)))
    if view.weapons:
        lines.append(("head", "Weapons"))
        grouped: dict[tuple[str, str | None], list[str]] = {}
        for verdict in view.weapons:
            if verdict.may_fire:
                lines.append(("text", f"{verdict.weapon}: may fire"))
            else:
                grouped.setdefault((verdict.reason, verdict.spec_id), []).append(verdict.weapon)
        for (reason, spec_id), names in grouped.items():
            spec = f" ({spec_id})" if spec_id and spec_id not in reason else ""
            lines.append(("text", f"{', '.join(names)}: no, {reason}{spec}"))
    return lines


def focus_bounds(view: CardView) -> tuple[float, float, float, float]:
    """Both bases and the measured segments, with room around them for the labels."""
    shapes = [view.firer.footprint, view.target.footprint]
    for segment in (view.report.witness, view.report.edge_witness):
        if segment is not None:
            shapes.append(shapely.LineString([segment.start, segment.end]))
    x0, y0, x1, y1 = shapely.GeometryCollection(shapes).bounds
    pad = max(1.5, 0.18 * max(x1 - x0, y1 - y0))
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad
