"""An odds report as a player reads it: a bar chart for the action panel, text lines.

`odds_chart` draws an `OddsReport` (tactical.rules.base) as a bar chart: what the action
does to its target first, each bar at least as thick as its text is tall, the other
sections after it (collapsible); `odds_lines` renders it as text. Neither knows any rule
system: they draw what the report publishes (sections, labels, facts, SPEC ids), every
value in words (yes / no, tables as labelled values, units by their names).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pygame

from tactical.present.odds import fraction_text
from tactical.rules.base import OddsReport, OddsSection
from tactical.rules.status import words
from tactical.ui.fonts import Fonts
from tactical.ui.palette import TEXT, TEXT_DIM, Colour

# --------------------------------------------------------------------------- text


CODE_WORD = re.compile(r"[a-z0-9]+(?:[_-][a-z0-9]+)+")


# how units read in the chart being drawn (their names, by id): `odds_chart(names=...)`
UNIT_NAMES: ContextVar[Mapping[str, str] | None] = ContextVar("unit_names", default=None)


def outcome_text(outcome: Any) -> str:
    """An outcome as a short label: yes/no for booleans, tuples joined (pairs of a key and
    a value as "key value"), units by their names, numbers compact."""
    if isinstance(outcome, bool):
        return "yes" if outcome else "no"
    if outcome is None:
        return "none"
    if isinstance(outcome, float):
        return f"{outcome:g}"
    if isinstance(outcome, tuple) and outcome and all(_keyed(part) for part in outcome):
        return ", ".join(f"{words(key)} {outcome_text(value)}" for key, value in outcome)
    if isinstance(outcome, tuple):
        return ", ".join(_part_text(part) for part in outcome) if outcome else "none"
    if isinstance(outcome, Mapping):  # a table: its labelled values, never its repr
        return ", ".join(f"{words(str(k))} {outcome_text(v)}" for k, v in outcome.items())
    names = UNIT_NAMES.get()
    if isinstance(outcome, str) and names and outcome in names:
        return names[outcome]
    if isinstance(outcome, str) and CODE_WORD.fullmatch(outcome):
        return words(outcome)  # "no-effect", "shields_drained": a key, read as words
    return str(outcome)


def _keyed(part: Any) -> bool:
    return isinstance(part, tuple) and len(part) == 2 and isinstance(part[0], str)


def _part_text(part: Any) -> str:
    if isinstance(part, tuple):
        return "(" + " ".join(_part_text(inner) for inner in part) + ")"
    return outcome_text(part)


def percent_text(probability: Fraction, places: int = 2) -> str:
    """A probability as a percentage with `places` decimals; never rounds a possible outcome
    to 0% or an uncertain one to 100% ("<0.01%", ">99.99%" at the ends)."""
    if probability <= 0:
        return "0%"
    if probability >= 1:
        return "100%"
    value = float(probability * 100)
    step = 10.0**-places
    if value < step:
        return f"<{step:.{places}f}%"
    if value > 100 - step:
        return f">{100 - step:.{places}f}%"
    return f"{value:.{places}f}%"


def short_percent(probability: Fraction) -> str:
    """A percentage for a bar's top: whole numbers, "<1%" and ">99%" at the ends."""
    return percent_text(probability, 0)


def fact_text(name: str, value: Any) -> str:
    """One fact of a report as "name value" (floats to two decimals)."""
    if isinstance(value, float):
        shown = f"{value:.2f}".rstrip("0").rstrip(".")
    elif isinstance(value, tuple):  # a list in words, not in a container's brackets
        parts = [outcome_text(part) for part in value]
        shown = ("; " if any("," in part for part in parts) else ", ").join(parts) or "none"
    else:
        shown = outcome_text(value)
    return f"{words(name)} {shown}"


def facts_line(report: OddsReport) -> str:
    """The report's facts (range, threshold, dice...) on one line, in the report's order; a
    fact the rule system words (`OddsReport.fact_words`) as it words it."""
    said, facts = report.fact_words, report.facts
    return " · ".join(
        f"{words(name)} {said[name]}" if name in said else fact_text(name, value)
        for name, value in facts.items()
        # an exact fraction beside its percentage is the same chance, unreadably long
        if not (name.endswith("_probability") and f"{name[:-12]}_percent" in facts)
    )


def section_words(section: OddsSection) -> str:
    """What a player reads for a section: its title, else its name as words."""
    return section.title or words(section.name)


def section_title(section: OddsSection) -> str:
    """The section's title (`section_words`), with its rule."""
    name = section_words(section)
    return f"{name} ({section.spec_id})" if section.spec_id else name


def odds_lines(report: OddsReport, limit: int | None = None) -> list[str]:
    """The report as text: the facts, then per section its title and one line per outcome,
    "outcome: exact fraction = percent". With `limit`, each section lists its `limit`
    likeliest outcomes (in the section's order) and sums up the rest on one line."""
    lines = []
    facts = facts_line(report)
    if facts:
        lines.append(facts)
    if report.key:
        lines.append("key: " + " · ".join(key_entries(report)))
    for section in report.sections:
        lines.append(section_title(section) + ":")
        pairs = list(section.distribution.pairs)
        rest: list[tuple[Any, Fraction]] = []
        if limit is not None and len(pairs) > limit:
            kept = set(_likeliest(pairs, limit))
            rest = [pair for index, pair in enumerate(pairs) if index not in kept]
            pairs = [pair for index, pair in enumerate(pairs) if index in kept]
        for outcome, probability in pairs:
            lines.append(
                f"  {outcome_text(outcome)}: {fraction_text(probability)} = "
                f"{percent_text(probability)}"
            )
        if rest:
            others = sum((p for _, p in rest), Fraction(0))
            lines.append(
                f"  {len(rest)} more outcomes: {fraction_text(others)} = {percent_text(others)}"
            )
    return lines


def _likeliest(pairs: Sequence[tuple[Any, Fraction]], count: int) -> list[int]:
    """Indexes of the `count` likeliest pairs (ties: the earlier first)."""
    ranked = sorted(range(len(pairs)), key=lambda index: (-pairs[index][1], index))
    return sorted(ranked[:count])


# --------------------------------------------------------------------------- the chart

CHART_BACKGROUND: Colour = (22, 24, 31)
CHART_EDGE: Colour = (70, 74, 88)
BAR: Colour = (86, 168, 240)
BAR_OTHER: Colour = (120, 124, 138)  # the bar that sums up outcomes left off
AXIS: Colour = (110, 112, 120)

PAD = 6
CAPTION_LINE = 14  # pixels of the caption line over the chart
TITLE_SIZE = 13
FACTS_SIZE = 11
LABEL_SIZE = 11
ROW_SIZE = 11
ROW_HEIGHT = 13
MIN_PLOT = 52  # pixels of bar height kept before the later sections get rows
MIN_SLOT = LABEL_SIZE + 3  # pixels per column (a bar as wide as the text is tall, a gap)
BAR_ROW = LABEL_SIZE + 4  # pixels per row of a named outcome: a bar as thick as the text
MAX_NAMED_BARS = 12  # bars for outcomes that are not numbers (their labels need the room)


@dataclass(frozen=True)
class Bar:
    """One bar of the chart: its label, its probability, how many outcomes it stands for,
    and whether it is the bar that sums up the outcomes left off (`rest`)."""

    label: str
    probability: Fraction
    outcomes: int = 1
    rest: bool = False


def _numeric(outcome: Any) -> bool:
    return isinstance(outcome, int | float | Fraction) and not isinstance(outcome, bool)


def is_numeric(section: OddsSection) -> bool:
    """Whether every outcome is a number (drawn as columns on an ascending axis)."""
    return bool(section.distribution.pairs) and all(
        _numeric(outcome) for outcome, _ in section.distribution.pairs
    )


def chart_bars(section: OddsSection, most: int) -> list[Bar]:
    """At most `most` bars for a section: one per outcome while they fit.

    Numbers (damage totals, hits) are drawn in ascending order and, when there are too
    many, grouped into runs of neighbours ("10–13"); other outcomes keep the section's
    order, at most `MAX_NAMED_BARS` of them: when there are more, the likeliest keep a
    bar each and one more bar sums up the rest.
    """
    pairs = list(section.distribution.pairs)
    most = max(1, most)
    if is_numeric(section):
        pairs.sort(key=lambda pair: pair[0])
        if len(pairs) <= most:
            return [Bar(outcome_text(o), p) for o, p in pairs]
        size = math.ceil(len(pairs) / most)
        bars = []
        for start in range(0, len(pairs), size):
            run = pairs[start : start + size]
            first, last = outcome_text(run[0][0]), outcome_text(run[-1][0])
            label = first if len(run) == 1 else f"{first}–{last}"
            bars.append(Bar(label, sum((p for _, p in run), Fraction(0)), len(run)))
        return bars
    most = min(most, MAX_NAMED_BARS)
    if len(pairs) <= most:
        return [Bar(outcome_text(o), p) for o, p in pairs]
    kept = _likeliest(pairs, most - 1)
    chosen = set(kept)
    bars = [Bar(outcome_text(pairs[index][0]), pairs[index][1]) for index in kept]
    rest = [p for index, (_, p) in enumerate(pairs) if index not in chosen]
    bars.append(Bar(f"{len(rest)} others", sum(rest, Fraction(0)), len(rest), rest=True))
    return bars


@dataclass(frozen=True)
class ChartLayout:
    """Where the parts of a chart go (pixels): the plot of the columns, the line of their
    labels under it, and where the rows of the later sections start and how many fit."""

    plot: pygame.Rect
    labels_y: int
    rows_y: int
    rows: int

    @property
    def rows_area(self) -> pygame.Rect:
        """Room for outcomes drawn as rows: the plot with its percent and label lines."""
        top = self.plot.top - LABEL_SIZE - 2
        return pygame.Rect(self.plot.left, top, self.plot.width, self.rows_y - top - 2)


def chart_layout(
    size: tuple[int, int], sections: int, headline: bool = False, legend: int = 0
) -> ChartLayout:
    width, height = size
    top = PAD + TITLE_SIZE + 3 + FACTS_SIZE + 4 + LABEL_SIZE + 2  # title, facts, top percents
    if headline:
        top += FACTS_SIZE + 3  # the effect on the target, under the title
    top += legend * (FACTS_SIZE + 2)  # the key's lines, under the facts
    label_band = LABEL_SIZE + 3
    room = height - PAD - top - label_band - MIN_PLOT
    rows = max(0, min(sections - 1, room // ROW_HEIGHT))
    bottom = height - PAD - rows * ROW_HEIGHT - label_band
    plot = pygame.Rect(PAD, top, max(1, width - 2 * PAD), max(1, bottom - top))
    return ChartLayout(plot, plot.bottom + 2, plot.bottom + label_band, rows)


def odds_chart(
    report: OddsReport,
    size: tuple[int, int],
    fonts: Fonts,
    *,
    section: int = 0,
    details: bool = True,
    caption: str = "",
    names: Mapping[str, str] | None = None,
) -> pygame.Surface:
    """A bar chart of one section of `report` (the main one by default).

    Title and SPEC id, the facts on a line under it, then one bar per outcome with its
    label and percent, in proportion to the probabilities (the likeliest bar the full
    length): numbers as columns in ascending order (grouped when too many for the width),
    other outcomes as labelled rows (the likeliest, and one row for the rest, when too
    many for the height). The other sections follow as one-line rows while there is room
    (`details`; collapsed, the main one has all the room). A `caption` (which target, how
    long it took) heads the chart, dim; `names` word the units its outcomes name.
    """
    if names is not None:
        token = UNIT_NAMES.set(names)
        try:
            return odds_chart(
                report, size, fonts, section=section, details=details, caption=caption
            )
        finally:
            UNIT_NAMES.reset(token)
    width, height = max(40, int(size[0])), max(40, int(size[1]))
    surface = pygame.Surface((width, height))
    surface.fill(CHART_BACKGROUND)
    pygame.draw.rect(surface, CHART_EDGE, surface.get_rect(), 1)
    inner = width - 2 * PAD
    if caption:
        _text(surface, fonts, caption, (PAD, PAD - 2), FACTS_SIZE, TEXT_DIM, inner)
        chart = odds_chart(
            report, (width, height - CAPTION_LINE), fonts, section=section, details=details
        )
        surface.blit(chart, (0, CAPTION_LINE))
        return surface
    if not report.sections:
        _text(surface, fonts, "no outcomes", (PAD, PAD), TITLE_SIZE, TEXT_DIM, inner)
        return surface
    main = report.sections[section]
    others = [s for index, s in enumerate(report.sections) if index != section] if details else []
    lead = headline(report)
    legend = legend_lines(report, fonts, inner)
    layout = chart_layout((width, height), len(others) + 1, bool(lead), len(legend))
    _text(surface, fonts, section_title(main), (PAD, PAD), TITLE_SIZE, TEXT, inner)
    y = PAD + TITLE_SIZE + 3
    if lead:
        _text(surface, fonts, lead, (PAD, y), FACTS_SIZE, TEXT, inner)
        y += FACTS_SIZE + 3
    facts = facts_line(report)
    if facts:
        _text(surface, fonts, facts, (PAD, y), FACTS_SIZE, TEXT_DIM, inner)
    y += FACTS_SIZE + 4
    for line in legend:
        _text(surface, fonts, line, (PAD, y), FACTS_SIZE, TEXT_DIM, inner)
        y += FACTS_SIZE + 2
    if is_numeric(main):
        _draw_columns(surface, fonts, chart_bars(main, layout.plot.width // MIN_SLOT), layout)
    else:
        area = layout.rows_area
        _draw_rows(surface, fonts, chart_bars(main, area.height // BAR_ROW), area)
    for index, other in enumerate(others[: layout.rows]):
        row = f"{section_words(other)}: " + _summary(other)
        _text(surface, fonts, row, (PAD, layout.rows_y + index * ROW_HEIGHT), ROW_SIZE, TEXT, inner)
    return surface


LEGEND_LINES = 4  # the most lines the key of the result codes takes on the chart


def key_entries(report: OddsReport) -> list[str]:
    """The report's key, one entry per code: "iL: destroyed" (what the rule system says the
    codes among its outcomes mean against this target)."""
    return [f"{code}: {meaning}" for code, meaning in report.key]


def legend_lines(report: OddsReport, fonts: Fonts, room: int) -> list[str]:
    """The key as lines that fit `room` pixels, entries kept whole where they fit ("key: B1–B4:
    a hit worth 1–4 damage points · iL: ..."), at most `LEGEND_LINES`."""
    entries = key_entries(report)
    if not entries:
        return []
    lines: list[str] = []
    current = "key:"
    for entry in entries:
        joined = f"{current} {entry}" if current == "key:" else f"{current} · {entry}"
        if current != "key:" and fonts.width(joined, FACTS_SIZE) > room:
            lines.append(current)  # a new line for the entry that does not fit
            current = entry
        else:
            current = joined
    lines.append(current)
    return lines[:LEGEND_LINES]


def headline(report: OddsReport) -> str:
    """What the attack does to the target, first: the chance of each yes/no outcome
    ("destroyed 36%") and the average of each count ("hull points lost 0.6 on average")."""
    parts = []
    for section in report.sections:
        pairs = list(section.distribution.pairs)
        if not pairs:
            continue
        if all(isinstance(outcome, bool) for outcome, _ in pairs):
            chance = sum((p for outcome, p in pairs if outcome), Fraction(0))
            parts.append(f"{section_words(section)} {short_percent(chance)}")
        elif all(_numeric(outcome) for outcome, _ in pairs) and len(pairs) > 1:
            mean = sum((Fraction(outcome) * p for outcome, p in pairs), Fraction(0))
            parts.append(f"{section_words(section)} {float(mean):.1f} on average")
    return " · ".join(parts)


def _summary(section: OddsSection, count: int = 3) -> str:
    pairs = list(section.distribution.pairs)
    shown = [pairs[index] for index in _likeliest(pairs, count)]
    text = " · ".join(f"{outcome_text(o)} {short_percent(p)}" for o, p in shown)
    return text + (" …" if len(pairs) > count else "")


def bar_length(probability: Fraction, top: Fraction, span: int) -> int:
    """A bar's length in pixels: in proportion, the likeliest outcome the whole `span`."""
    if top <= 0:
        return 0
    return round(probability / top * span)


def _bar_colour(bar: Bar) -> Colour:
    return BAR_OTHER if bar.rest else BAR


def _draw_columns(
    surface: pygame.Surface, fonts: Fonts, bars: list[Bar], layout: ChartLayout
) -> None:
    plot = layout.plot
    pygame.draw.line(surface, AXIS, (plot.left, plot.bottom), (plot.right - 1, plot.bottom))
    if not bars:
        return
    top = max(bar.probability for bar in bars)
    slot = plot.width / len(bars)
    gap = 1 if slot < 8 else max(2, round(slot * 0.2))
    widest_label = max(fonts.width(bar.label, LABEL_SIZE) for bar in bars)
    every = max(1, math.ceil((widest_label + 4) / slot))
    for index, bar in enumerate(bars):
        left = plot.left + round(index * slot)
        right = plot.left + round((index + 1) * slot) - gap
        bar_width = max(1, right - left)
        tall = bar_length(bar.probability, top, plot.height)
        if tall > 0:
            rect = pygame.Rect(left, plot.bottom - tall, bar_width, tall)
            pygame.draw.rect(surface, _bar_colour(bar), rect)
        centre = left + bar_width / 2
        share = short_percent(bar.probability)
        if fonts.width(share, LABEL_SIZE) > slot + 2:
            share = share.rstrip("%")  # the number alone where the sign does not fit
        if fonts.width(share, LABEL_SIZE) <= slot + 2:
            _centred(surface, fonts, share, centre, plot.bottom - tall - LABEL_SIZE - 1, TEXT)
        if index % every == 0:
            _centred(surface, fonts, bar.label, centre, layout.labels_y, TEXT_DIM)


def _draw_rows(surface: pygame.Surface, fonts: Fonts, bars: list[Bar], area: pygame.Rect) -> None:
    if not bars:
        return
    top = max(bar.probability for bar in bars)
    row = max(BAR_ROW, min(2 * BAR_ROW, area.height // len(bars)))
    widest = max(fonts.width(bar.label, LABEL_SIZE) for bar in bars)
    label_room = min(int(area.width * 0.42), widest + 6)
    share_room = fonts.width(">99%", LABEL_SIZE) + 4
    span = max(1, area.width - label_room - share_room)
    thick = max(LABEL_SIZE, row - 4)  # never thinner than the text beside it
    text_top = (row - LABEL_SIZE) // 2
    for index, bar in enumerate(bars):
        y = area.top + index * row
        label_at = (area.left, y + text_top)
        _text(surface, fonts, bar.label, label_at, LABEL_SIZE, TEXT_DIM, label_room - 4)
        long = bar_length(bar.probability, top, span)
        x = area.left + label_room
        if long > 0:
            rect = pygame.Rect(x, y + (row - thick) // 2, long, thick)
            pygame.draw.rect(surface, _bar_colour(bar), rect)
        share = fonts.render(short_percent(bar.probability), LABEL_SIZE, TEXT)
        surface.blit(share, (x + long + 3, y + text_top))


def _text(
    surface: pygame.Surface,
    fonts: Fonts,
    text: str,
    at: tuple[int, int],
    size: int,
    colour: Colour,
    room: int,
) -> None:
    fitted = fonts.fit(text, size, room)
    if fitted:
        surface.blit(fonts.render(fitted, size, colour), at)


def _centred(
    surface: pygame.Surface,
    fonts: Fonts,
    text: str,
    centre: float,
    y: int,
    colour: Colour,
    room: int | None = None,
) -> None:
    fitted = fonts.fit(text, LABEL_SIZE, room) if room is not None else text
    if not fitted:
        return
    rendered = fonts.render(fitted, LABEL_SIZE, colour)
    left = round(centre - rendered.get_width() / 2)
    left = max(1, min(left, surface.get_width() - rendered.get_width() - 1))
    surface.blit(rendered, (left, y))
