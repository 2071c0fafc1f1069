"""The fight drawn on the table: the last attack as an arrow with its result in words, and
the units it destroyed fading out.

`last_attack` reads the game's steps (what the rule system logged, nothing worked out
again): the newest step that struck a unit (`results.step_units`), from its firer (the
acting unit, else the unit its events name as the attacker) to its targets, with the
result as the rule system's own summary words give it ("8 dice, 7 hits, none saved").
It stays on the table until a unit acts again (moves, declares, activates): passes and
the steps that only end a phase leave it, so that an attack answered by the game's own
steps is still seen. `FightLayer` draws it clear of the names on the table.

`Fades` keeps the units that left the table (destroyed, or taken off by an undo) for
FADE_SECONDS, drawn fainter and fainter where they stood, instead of vanishing at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from tactical.model import GameState, Unit
from tactical.present.results import step_units
from tactical.session.game import Game, Step
from tactical.ui import palette
from tactical.ui.camera import Camera
from tactical.ui.draw import arrow_head
from tactical.ui.fonts import Fonts
from tactical.ui.palette import Colour
from tactical.ui.units_layer import unit_pictures

ARROW = (255, 240, 120)  # the attack's arrow: bright over any table and any side's colour
ARROW_SHADOW = (20, 20, 20)
WORDS_SIZE = 13
WORDS_WIDTH = 260  # pixels a line of the result may take; longer ones are wrapped
WRAPPED_LINES = 4  # lines of the result drawn at most
WORDS_LINES = 3  # the result's parts ("7 hits, none saved", "damage", ...) shown at most
FIRER_KEYS = ("attacker", "firer", "shooter", "who")
FADE_SECONDS = 1.0
FADE_MOST = 12  # units vanishing at once past which none fades (another table opened)
SCAN = 400  # steps looked back through for the last attack


@dataclass(frozen=True)
class Shot:
    """One attack of a step as the table shows it: who fired, at whom, what it did."""

    firer: str
    target: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class AttackMark:
    """The last attack step as the table shows it: its number and its shots."""

    number: int
    shots: tuple[Shot, ...]


def firer_of(step: Step) -> str | None:
    """The unit that made the attack: the acting unit, else the first unit its events name
    as the attacker (a side resolving a declared attack)."""
    state = step.state_before
    if state is None:
        return None
    if state.has_unit(step.action.actor):
        return step.action.actor
    for event in step.events:
        for key, value in event.data:
            if key in FIRER_KEYS and isinstance(value, str) and state.has_unit(value):
                return value
    return None


def _pairs(step: Step, targets: Sequence[str]) -> list[tuple[str, str]]:
    """(firer, target) of each attack the step made: the pairs its events name (an
    exchange of fire resolved at once), else its firer at each target."""
    state = step.state_before
    found: list[tuple[str, str]] = []
    for event in step.events:
        data = dict(event.data)
        firer = next((data[k] for k in FIRER_KEYS if isinstance(data.get(k), str)), None)
        target = data.get("target")
        if (
            isinstance(firer, str)
            and isinstance(target, str)
            and firer != target
            and target in targets
            and state is not None
            and state.has_unit(firer)
            and (firer, target) not in found
        ):
            found.append((firer, target))
    if found:
        return found
    firer = firer_of(step)
    if firer is None or state is None:
        return []
    return [(firer, target) for target in targets if target != firer and state.has_unit(target)]


def result_lines(words: str, target_name: str, most: int = WORDS_LINES) -> tuple[str, ...]:
    """An attack's result in the rule system's own words: what its summary says after the
    target's name ("Ruler's Main turrets at Markgraf: 8 dice, 7 hits, none saved — damage"
    gives "8 dice, 7 hits, none saved" and "damage"), one line per part, `most` parts."""
    head, found, tail = words.partition(f"{target_name}: ")
    if not (found and head):
        tail = words.partition(": ")[2] or words
    parts = [part.strip() for part in tail.split(" — ") if part.strip()]
    return tuple(parts[:most])


def _acts(step: Step) -> bool:
    """Whether a unit acted in the step (a move, a declaration, an activation): what
    takes the last attack off the table."""
    state = step.state_before
    return state is not None and not step.is_pass and state.has_unit(step.action.actor)


def last_attack(game: Game) -> AttackMark | None:
    """The last attack of `game` still shown (see the module docstring), or None."""
    for step in reversed(game.steps[-SCAN:]):
        targets = () if step.by_session else step_units(step)
        state = step.state_before
        if targets and state is not None:
            pairs = _pairs(step, targets)
            if pairs:
                names = state.shown_names
                most = WORDS_LINES if len(pairs) == 1 else 1  # an exchange: a line each
                shots = tuple(
                    Shot(firer, target, result_lines(step.words, names[target], most))
                    for firer, target in pairs
                )
                return AttackMark(step.number, shots)
        if _acts(step):
            return None
    return None


class FightLayer:
    """The last attack drawn over the table (its arrow and words), found once per game."""

    def __init__(self) -> None:
        self._for: tuple[Game, AttackMark | None] | None = None

    def mark(self, game: Game) -> AttackMark | None:
        if self._for is None or self._for[0] is not game:
            self._for = (game, last_attack(game))
        return self._for[1]

    def draw(
        self,
        surface: pygame.Surface,
        camera: Camera,
        state: GameState,
        game: Game,
        fonts: Fonts,
        avoid: Callable[[], Sequence[pygame.Rect]] = list,
    ) -> list[pygame.Rect]:
        """Each shot's arrow from the firer to the target and its result's words beside it,
        clear of `avoid()` (the names on the table) and of each other where a place allows;
        where the words went."""
        mark = self.mark(game)
        if mark is None:
            return []
        before = (
            game.steps[mark.number - 1].state_before if mark.number <= len(game.steps) else None
        )

        def unit(unit_id: str) -> Unit | None:
            for table in (state, before):
                if table is not None and table.has_unit(unit_id):
                    return table.unit(unit_id)
            return None

        placed: list[pygame.Rect] = []
        taken = list(avoid())
        for shot in mark.shots:
            firer, target = unit(shot.firer), unit(shot.target)
            if firer is None or target is None:
                continue
            start = camera.to_screen(firer.x, firer.y)
            end = camera.to_screen(target.x, target.y)
            _arrow(surface, start, end, camera.pixels(target.base.radius))
            if shot.lines:
                rect = _words(surface, fonts, shot.lines, start, end, taken)
                placed.append(rect)
                taken.append(rect)
        return placed


def _arrow(
    surface: pygame.Surface,
    start: tuple[float, float],
    end: tuple[float, float],
    short: float,
) -> None:
    """A thick arrow from `start` to `short` pixels before `end` (the head at the target's
    edge, not over its middle), on a dark shadow that keeps it seen on a light table."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 2:
        return
    direction = (dx / length, dy / length)
    stop = max(length - short - 2, min(length, 12.0))
    tip = (start[0] + direction[0] * stop, start[1] + direction[1] * stop)
    head = 12.0
    neck = (tip[0] - direction[0] * head * 0.8, tip[1] - direction[1] * head * 0.8)
    pygame.draw.line(surface, ARROW_SHADOW, start, neck, 5)
    pygame.draw.line(surface, ARROW, start, neck, 3)
    arrow_head(
        surface, ARROW_SHADOW, (tip[0] + direction[0], tip[1] + direction[1]), direction, head + 3
    )
    arrow_head(surface, ARROW, tip, direction, head)


def _words(
    surface: pygame.Surface,
    fonts: Fonts,
    lines: Sequence[str],
    start: tuple[float, float],
    end: tuple[float, float],
    avoid: Sequence[pygame.Rect],
) -> pygame.Rect:
    """The result's lines on a plate by the arrow: beside its middle, else by either end,
    the first place clear of `avoid` and inside the surface (the middle where none is)."""
    texts = [text for line in lines for text in wrapped(fonts, line)][:WRAPPED_LINES]
    pictures = [fonts.render(text, WORDS_SIZE, ARROW) for text in texts]
    width = max(picture.get_width() for picture in pictures) + 10
    pitch = max(picture.get_height() for picture in pictures)
    height = pitch * len(pictures) + 6
    box = pygame.Rect(0, 0, width, height)
    bounds = surface.get_rect()
    places = []
    for out in (8, 24, 48):
        for t in (0.5, 0.3, 0.7, 0.15, 0.85):
            x = start[0] + (end[0] - start[0]) * t
            y = start[1] + (end[1] - start[1]) * t
            for ox, oy in ((0, -1), (0, 1), (1, 0), (-1, 0)):
                rect = box.copy()
                rect.center = (
                    round(x + ox * (width / 2 + out)),
                    round(y + oy * (height / 2 + out)),
                )
                places.append(rect)
    inside = [rect for rect in places if bounds.contains(rect)] or places
    chosen = next((rect for rect in inside if rect.collidelist(avoid) == -1), inside[0])
    plate = pygame.Surface(chosen.size, pygame.SRCALPHA)
    plate.fill(palette.LEGEND_PANEL)
    surface.blit(plate, chosen)
    pygame.draw.rect(surface, ARROW, chosen, 1)
    for k, picture in enumerate(pictures):
        surface.blit(picture, (chosen.left + 5, chosen.top + 3 + k * pitch))
    return chosen


def wrapped(fonts: Fonts, line: str) -> list[str]:
    """`line` in lines of at most WORDS_WIDTH pixels, broken between words (a word too
    long alone is cut)."""
    found: list[str] = []
    current = ""
    for word in line.split():
        trial = f"{current} {word}" if current else word
        if current and fonts.width(trial, WORDS_SIZE) > WORDS_WIDTH:
            found.append(current)
            trial = word
        current = trial
    if current:
        found.append(current)
    return [fonts.fit(text, WORDS_SIZE, WORDS_WIDTH) or text[:1] for text in found]


class Fades:
    """Units that left the table, fading out where they stood over FADE_SECONDS (see the
    module docstring). `clock` gives the time in seconds (tests give their own)."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.clock = clock or (lambda: pygame.time.get_ticks() / 1000)
        self._last: GameState | None = None
        # each unit gone, its side's colour and when it went
        self.fading: list[tuple[Unit, Colour, float]] = []

    def follow(self, state: GameState) -> None:
        """The table shown now: the units gone from the last one start fading."""
        last = self._last
        if last is not None and state.units is last.units:
            return
        here = {unit.id for unit in state.units}
        # an undo brings a unit back: it stops fading
        self.fading = [entry for entry in self.fading if entry[0].id not in here]
        if last is not None and state.board == last.board:
            gone = [unit for unit in last.units if unit.id not in here]
            if len(gone) <= FADE_MOST:
                colours = palette.side_colours(last.sides)
                now = self.clock()
                self.fading += [(unit, colours[unit.side], now) for unit in gone]
        self._last = state

    @property
    def active(self) -> bool:
        """Whether a unit is still fading (frames must keep coming)."""
        now = self.clock()
        return any(now - went < FADE_SECONDS for *_, went in self.fading)

    def draw(self, surface: pygame.Surface, camera: Camera) -> None:
        """Each unit still fading, its base and heading less opaque as its second runs."""
        now = self.clock()
        self.fading = [entry for entry in self.fading if now - entry[2] < FADE_SECONDS]
        if not self.fading:
            return
        units = [unit for unit, _, _ in self.fading]
        pictures = unit_pictures(units, [colour for _, colour, _ in self.fading], camera.scale)
        for (unit, _, went), (picture, half) in zip(self.fading, pictures, strict=True):
            alpha = round(255 * (1 - (now - went) / FADE_SECONDS))
            picture.set_alpha(max(0, min(255, alpha)))
            x, y = camera.to_screen(unit.x, unit.y)
            surface.blit(picture, (round(x) - half, round(y) - half))
