"""What the action panel lists, greys and says: the offered choices and the open declaration.

`DeclarationForm` is the panel's state without its widgets: the choices offered (in the
screen's order) and the actions of the phase the rules refuse now, greyed, each with its
reason and rule; the choice picked and the values, typed texts and typing errors of its
form; the problem line and the words of the button that declares it. The values are
checked against the same `Field` schema the session checks (`value_problems`,
`action_from_values`). The widgets (`tactical.ui.action_panel`) draw it and turn clicks
into calls here. Nothing here draws or names a rule system.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tactical.errors import UserError
from tactical.present.declaration import (
    PATH_FIELD,
    action_from_values,
    choice_words,
    form_fields,
    is_move_choice,
    key_words,
    parse_value,
    problem_text,
    unique_labels,
    unique_titles,
    value_problems,
)
from tactical.rules.base import Action, ActionChoice, Field, Problem, check_fields, checkable_params
from tactical.rules.status import Unavailable

Choices = Sequence[ActionChoice]
Refused = Sequence[Unavailable]
Lines = Sequence[str]
NOTHING_PICKED = "pick an action from the list"
NOTHING_OFFERED = "nothing to declare"


def cited(text: str, spec_id: str | None) -> str:
    """A reason as a player reads it, with the rule it comes from."""
    return f"{text} ({spec_id})" if spec_id else text


def refusal_words(refused: Unavailable) -> str:
    """Why a greyed action cannot be taken now: its title, the rules' reason and rule."""
    return cited(f"{refused.title}: {refused.reason}", refused.spec_id)


class DeclarationForm:
    """The panel's choices and its open declaration (see the module docstring)."""

    def __init__(self) -> None:
        self.choices: tuple[ActionChoice, ...] = ()
        self.unavailable: tuple[Unavailable, ...] = ()
        self.unavailable_labels: tuple[str, ...] = ()
        self.labels: tuple[str, ...] = ()
        self.notice: tuple[str, ...] = ()  # why nothing may be declared now (`offer`)
        # whether a path of a choice is drawn with the move tool (its actor is one unit on
        # the table); the screen decides, and a path it cannot draw is typed like any text
        self.drawable: Callable[[ActionChoice], bool] = is_move_choice
        self.picked: ActionChoice | None = None
        self.problem: str | None = None
        # while the move tool draws the picked choice's path: whether that path is legal
        # (None: no move drawn); its card takes the odds' place and the button confirms it
        self.move_legal: bool | None = None
        self.drawn_path = ""
        self.values: dict[str, Any] = {}
        self.texts: dict[str, str] = {}
        self.errors: dict[str, str] = {}

    # ------------------------------------------------------------------ the list

    def offer(self, choices: Choices, unavailable: Refused = (), *, notice: Lines = ()) -> bool:
        """Offer `choices`, then `unavailable` greyed ("(not now)"); with `notice` lines
        nothing is offered: they take the list's place. False when nothing changed."""
        notice = tuple(notice)
        offered = () if notice else tuple(choices)
        refused = () if notice else tuple(unavailable)
        if (offered, refused, notice) == (self.choices, self.unavailable, self.notice):
            return False
        self.notice = notice
        self.choices = offered
        self.unavailable = refused
        self.labels = unique_labels(offered)
        self.unavailable_labels = tuple(
            f"{label} (not now)" for label in unique_titles([u.title for u in refused])
        )
        return True

    def rows(self) -> list[str | tuple[str, str]]:
        """The list's rows: the offered labels, then the greyed ones (tagged `greyed`)."""
        return [*self.labels, *((label, "greyed") for label in self.unavailable_labels)]

    def still_offered(self, choice: ActionChoice | None) -> ActionChoice | None:
        """`choice` if still offered, else the offered one of the same kind and actor (the
        same title first): a pick survives a change of the game that keeps it open."""
        if choice is None:
            return None
        if choice in self.choices:
            return choice
        same = [c for c in self.choices if (c.kind, c.actor) == (choice.kind, choice.actor)]
        titled = [c for c in same if c.title == choice.title]
        return (titled or same or [None])[0]

    def choice_at(self, index_or_choice: int | ActionChoice) -> ActionChoice:
        """The offered choice at a row, or the offered one matching a choice; UserError
        saying what is offered when neither is."""
        if isinstance(index_or_choice, int):
            if not 0 <= index_or_choice < len(self.choices):
                raise UserError(
                    f"choice {index_or_choice} is not offered: {len(self.choices)} on the panel"
                )
            return self.choices[index_or_choice]
        found = self.still_offered(index_or_choice)
        if found is None:
            raise UserError(f"{index_or_choice.title!r} is not offered now")
        return found

    def refusal(self, label: str) -> str | None:
        """The reason of a greyed row (its label), None for another row."""
        if label not in self.unavailable_labels:
            return None
        return refusal_words(self.unavailable[self.unavailable_labels.index(label)])

    def picked_row(self) -> int | None:
        return self.choices.index(self.picked) if self.picked is not None else None

    # ------------------------------------------------------------------ the form

    def start(self, choice: ActionChoice, *, carry: bool) -> None:
        """`choice` picked: its defaults filled in; with `carry`, the values (and typing
        errors) of the choice it replaces that it still takes."""
        old_values, old_texts, old_errors = self.values, self.texts, self.errors
        self.picked = choice
        self.values = {s.name: s.default for s in choice.fields if s.default is not None}
        self.texts, self.errors = {}, {}
        if not carry:
            return
        for spec in choice.fields:
            name = spec.name
            if name in old_errors:
                self.apply_text(spec, old_texts.get(name, ""))
            elif name in old_values and not check_fields(
                (spec,), checkable_params((spec,), {name: old_values[name]})
            ):
                self.values[name] = old_values[name]

    def clear(self) -> None:
        self.picked = None
        self.values, self.texts, self.errors = {}, {}, {}

    def field_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.picked.fields) if self.picked else ()

    def set_value(self, name: str, value: Any) -> None:
        """A field of the picked choice set (a unit clicked on the table, a drawn path)."""
        if self.picked is None or name not in self.field_names():
            fields = ", ".join(self.field_names()) or "none"
            raise UserError(f"{name!r} is not a field of the picked action (fields: {fields})")
        if value is None:
            self.values.pop(name, None)
        else:
            self.values[name] = value
        self.errors.pop(name, None)
        self.texts.pop(name, None)

    def unit_field(self, unit_id: str) -> str | None:
        """The field a unit clicked on the table fills: the first unfilled one of those that
        take it, else the first of them; None when none does."""
        if self.picked is None:
            return None
        taking = [
            s.name
            for s in self.picked.fields
            if s.kind == "str" and s.choices and unit_id in s.choices
        ]
        if not taking:
            return None
        unfilled = [name for name in taking if self.values.get(name) in (None, "")]
        return (unfilled or taking)[0]

    def apply_text(self, spec: Field, text: str) -> None:
        """Text typed into a field: its value, or the error the field's row shows."""
        self.texts[spec.name] = text
        try:
            value = parse_value(spec, text)
        except UserError as error:
            self.errors[spec.name] = error.describe()
            self.values.pop(spec.name, None)
            return
        self.errors.pop(spec.name, None)
        if value is None:
            self.values.pop(spec.name, None)
        else:
            self.values[spec.name] = value

    def toggle(self, name: str) -> None:
        self.values[name] = not bool(self.values.get(name, False))

    def is_drawn(self, spec: Field) -> bool:
        """A path drawn on the table rather than typed."""
        return self.picked is not None and self.drawable(self.picked) and spec.name == PATH_FIELD

    def drawn_text(self, spec: Field) -> str:
        """What a drawn path's row says: the path drawn, or how to draw one."""
        if self.move_legal is not None:
            return self.drawn_path or "(draw it on the table)"
        value = self.values.get(spec.name)
        return str(value) if value else "(draw it on the table)"

    # ------------------------------------------------------------------ what it says

    def action(self) -> Action | None:
        """The declaration on the form, or None (`problem` says why)."""
        if self.problem is not None or self.picked is None or self.move_legal is not None:
            return None  # a drawn move is declared by the move tool, with its path
        return action_from_values(self.picked, self.values)

    def judge(self) -> str | None:
        """The problem line after any change (None: the declaration can be made)."""
        if self.notice:
            self.problem = " ".join(self.notice)
        elif self.picked is None:
            self.problem = NOTHING_PICKED if self.choices else NOTHING_OFFERED
        elif self.errors:
            self.problem = next(iter(self.errors.values()))
        elif self.move_legal is not None and self.drawable(self.picked):
            self.problem = None  # the move card says what is wrong with the path
        else:
            problems = value_problems(self.picked, self.values)
            self.problem = self._problem_line(problems) if problems else None
        return self.problem

    def button_words(self, fits: Callable[[str], bool]) -> str:
        """What the button does, in words: Move while a path is drawn, else the picked
        action's kind ("Attack", "Declare attack", "Roll power") where it `fits`, else
        Apply."""
        if self.move_legal is not None:
            return "Move"
        if self.picked is None:
            return "Apply"
        text = choice_words(self.picked.kind)
        text = text[:1].upper() + text[1:]
        return text if fits(text) else "Apply"

    def _problem_line(self, problems: Sequence[Problem]) -> str:
        first = problems[0]
        choice = self.picked
        if choice is not None and self.drawable(choice) and first.key == PATH_FIELD:
            line = cited(f"{PATH_FIELD}: draw the move on the table", first.spec_id)
        elif first.key in self._unset_menus():
            line = cited(f"{key_words(first.key)}: pick one in its list (required)", first.spec_id)
        else:
            line = problem_text(first)
        more = len(problems) - 1
        return line + (f" (+{more} more)" if more else "")

    def _unset_menus(self) -> set[str]:
        """The fields shown as a drop-down (listed values, not drawn) with nothing picked."""
        if self.picked is None:
            return set()
        return {
            spec.name
            for spec in form_fields(self.picked)
            if spec.kind == "str"
            and spec.choices
            and not self.is_drawn(spec)
            and self.values.get(spec.name) is None
        }
