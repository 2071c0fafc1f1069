"""What the phase tracker says: where play stands, as a pure value, and its words.

`TrackerView` is made from a `Game` (the turn, the phases of the rule system's
`TurnSequence` with the current one, the side to act, the acting order unit by unit);
`tracker_html` writes it in pygame_gui's HTML subset and `prompts` gives the line beside
Next, longest wording first. The colours are the words' own (a side's colour, the
current phase's highlight). No pygame here; nothing names a rule system.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from html import escape

from tactical.model import FrozenMap
from tactical.present.turns import NamedEntry, named_order
from tactical.rules.base import Phase, Stage
from tactical.rules.ending import Outcome
from tactical.rules.status import plain_value, words
from tactical.session.controller import Session
from tactical.session.game import Game

Colour = tuple[int, int, int]
CURRENT_PHASE_TEXT: Colour = (255, 215, 90)
CURRENT_PHASE_BACK: Colour = (52, 80, 126)
SPEC_ID_TEXT: Colour = (154, 160, 166)
UNKNOWN_SIDE: Colour = (230, 230, 230)


@dataclass(frozen=True)
class ReplayView:
    """A replay being shown: its current step (0 = the start) and its length."""

    step: int
    length: int


def hex_colour(colour: Colour) -> str:
    r, g, b = colour[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


# --------------------------------------------------------------------------- the tracker


@dataclass(frozen=True)
class TrackerView:
    """Where play stands, as the tracker shows it (a pure value; equal views draw alike)."""

    turn: int
    phases: tuple[Phase, ...]
    phase_index: int
    side_to_act: str
    order: tuple[str, ...]
    passes: int
    steps: int
    colours: tuple[tuple[str, Colour], ...] = ()
    stage: Stage | None = None
    computer: str = ""  # the level of the computer playing the side to act ("": a human)
    elsewhere: bool = False  # online: the side to act is played on another screen
    yours: bool = False  # online: the side to act is played on this screen
    replay: ReplayView | None = None  # a replay is shown: nobody plays, Page Down steps it
    outcome: Outcome | None = None  # once the game is over, how it ended
    # the order the rules produced for the phase, unit by unit (initiative), where kept
    acting: tuple[NamedEntry, ...] = ()

    @classmethod
    def of(cls, session: Session, side_colours: Mapping[str, Colour]) -> TrackerView:
        """The view of a session's game at its history cursor."""
        return cls.of_game(session.game, side_colours)

    @classmethod
    def of_game(cls, game: Game, side_colours: Mapping[str, Colour]) -> TrackerView:
        """The view of a game (a replay frame's, say)."""
        position = game.position
        phases = game.sequence.phases or (game.phase,)
        order = game.play_order  # who really acts first (an initiative winner), not whose go
        return cls(
            turn=position.turn,
            phases=tuple(phases),
            phase_index=position.phase if game.sequence.phases else 0,
            side_to_act=game.side_to_act,
            order=tuple(order),
            passes=position.passes,
            steps=game.step_number,
            colours=tuple(
                (side, tuple(side_colours[side])) for side in order if side in side_colours
            ),
            stage=_named_stage(game.system.stage(game.state, position), game),
            acting=named_order(game),
            outcome=game.outcome,
        )

    @property
    def phase(self) -> Phase:
        return self.phases[self.phase_index]

    def colour(self, side: str) -> Colour:
        return dict(self.colours).get(side, UNKNOWN_SIDE)


def _named_stage(stage: Stage | None, game: Game) -> Stage | None:
    """The stage with the units its facts name by their names ("acting now Viper (Apollo)")."""
    if stage is None or not stage.facts:
        return stage
    state = game.state

    def named(value: object) -> object:
        if isinstance(value, str) and state.has_unit(value):
            return state.shown_names[value]
        if isinstance(value, tuple):
            return tuple(named(v) for v in value)
        return value

    facts = FrozenMap({key: named(value) for key, value in stage.facts.items()})
    return replace(stage, facts=facts)


def _side(view: TrackerView, side: str) -> str:
    return f"<font color={hex_colour(view.colour(side))}><b>{escape(side)}</b></font>"


def tracker_html(view: TrackerView) -> str:
    """The tracker's text in pygame_gui's HTML subset: the turn, one line per phase (the
    current one highlighted, each with its SPEC id, alternating ones marked "in
    turns") and the acting order."""
    passes = ""
    if view.phase.alternating and view.passes:
        passes = f" · {view.passes} pass{'es' if view.passes > 1 else ''} in a row"
    # no step count here (the log's slider says "step N of M"): the text, laid out again
    # only when it changes, then stays as it is through a phase's steps
    lines = [f"<b>Turn {view.turn}</b>{passes}"]
    for index, phase in enumerate(view.phases):
        spec = f" <font color={hex_colour(SPEC_ID_TEXT)}>{escape(phase.spec_id)}</font>"
        cited = spec if phase.spec_id else ""
        alternating = " <i>in turns</i>" if phase.alternating else ""
        name = escape(phase.name)
        if index == view.phase_index:
            lines.append(
                f"<body bgcolor={hex_colour(CURRENT_PHASE_BACK)}>"
                f"<font color={hex_colour(CURRENT_PHASE_TEXT)}>» <b>{name}</b></font>"
                f"{cited}{alternating}</body>"
            )
        else:
            lines.append(f"&nbsp;&nbsp;&nbsp;{name}{cited}{alternating}")
        if index == view.phase_index and view.stage is not None:
            lines.extend(stage_lines(view.stage))
    lines.append("Order: " + " › ".join(_side(view, s) for s in view.order))
    if view.acting:  # the rules' own order, unit by unit (initiative results)
        lines.append("Units: " + " › ".join(_entry(view, e) for e in view.acting))
    return "<br>".join(lines)


def _entry(view: TrackerView, entry: NamedEntry) -> str:
    """A unit of the acting order: its name in its side's colour and its result; the one
    acting now bold and marked, those that have had their go dim."""
    result = f" {escape(entry.result)}" if entry.result else ""
    if entry.done:
        return f"<font color={hex_colour(SPEC_ID_TEXT)}>{escape(entry.name)}{result}</font>"
    name = f"<font color={hex_colour(view.colour(entry.side))}>{escape(entry.name)}</font>"
    if entry.acting:
        return f"<b>» {name}{result}</b>"
    return f"{name}{result}"


STAGE_INDENT = "&nbsp;" * 6


def stage_lines(stage: Stage) -> list[str]:
    """Under the current phase: the steps of its own sequence by their codes (the current one
    bold, in the highlight colour), then the current step's name, rule and who is at it."""
    codes = []
    for index, step in enumerate(stage.steps):
        code = escape(step.code)
        if index == stage.current:
            code = f"<font color={hex_colour(CURRENT_PHASE_TEXT)}><b>{code}</b></font>"
        codes.append(code)
    facts = " · ".join(
        f"{escape(words(str(k)))} {escape(_fact_text(v))}" for k, v in stage.facts.items()
    )
    current = stage.step
    if current is None:
        detail = facts
    else:
        spec = current.spec_id
        cited = f" <font color={hex_colour(SPEC_ID_TEXT)}>{escape(spec)}</font>" if spec else ""
        detail = f"<b>{escape(current.code)} {escape(current.name)}</b>{cited}"
        detail += f" · {facts}" if facts else ""
    lines = [STAGE_INDENT + " › ".join(codes)] if codes else []
    if detail:
        lines.append(STAGE_INDENT + detail)
    return lines


def _fact_text(value: object) -> str:
    """A stage fact as a player reads it (yes / no, lists joined, units of a table by name)."""
    return plain_value(value)


def hot_seat_text(view: TrackerView, fits: Callable[[str], bool] = lambda text: True) -> str:
    """The line beside Next, in the colour of the side to act: whose go it is and who plays
    it (see `prompts`), the first wording, longest first, that `fits`."""
    wordings = prompts(view)
    return next((text for text in wordings if fits(text)), wordings[-1])


def prompts(view: TrackerView) -> tuple[str, ...]:
    """The prompt's wordings, longest first: in a replay, where it stands and whose go the
    frame shows (nobody plays it); once the game is over, its result; else the side to act
    and who plays it: the computer at its level, a player on another screen, this screen's
    own player online, or a human at the mouse (the unit acting now named, where the rules'
    order has one)."""
    side = f"{view.side_to_act} to act"
    ended = view.outcome
    result = "" if ended is None else "Draw" if ended.winner is None else f"{ended.winner} wins"
    if view.replay is not None:
        where = f"Replay {view.replay.step} of {view.replay.length}"
        if result:
            return (f"{where}: game over, {result}", f"{where}: {result}", where)
        more = "its end" if view.replay.step >= view.replay.length else "Page Down: next"
        return (f"{where}: {side} · {more}", f"{where}: {side}", where)
    if result:
        return (f"Game over: {result}", "Game over")
    if view.computer:
        level = view.computer
        return (
            f"{side}: the computer ({level})",
            f"{view.side_to_act}: computer ({level})",
            side,
        )
    if view.elsewhere:
        return (f"{side}: on the other player's screen", f"{side}: elsewhere", side)
    acting = [e.name for e in view.acting if e.acting and e.side == view.side_to_act]
    named = (f"{side}: {', '.join(acting)}",) if acting else ()
    # online, the screen is the player's own: nobody else is at it to hand the mouse to
    turn = "your move" if view.yours else "take the mouse"
    return (*named, f"{side}: {turn}", side)
