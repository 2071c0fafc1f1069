"""The compact field builders build the very `Field` the long form does (same defaults, same
checks, same messages)."""

from __future__ import annotations

from tactical.rules.fields import choice, flag, number, text, whole
from tactical.rules.schema import Field, check_fields


def test_each_builder_is_the_long_form():
    assert whole("lp_limit", 4, 0, 99, "R000.16") == Field(
        "lp_limit", "int", default=4, low=0, high=99, spec_id="R000.16"
    )
    assert number("range", 1.0, 0.05, 48, doc="inches") == Field(
        "range", "float", default=1.0, low=0.05, high=48, doc="inches"
    )
    assert flag("cloak", False, "R001.29", before=True) == Field(
        "cloak", "bool", default=False, spec_id="R001.29", before=True
    )
    assert text("name", None, required=True) == Field("name", "str", required=True)
    assert text("squadron") == Field("squadron", "str", default="")


def test_a_choice_takes_its_first_value_unless_told():
    assert choice("die", ("d10", "2d6"), "A001.9", "roll") == Field(
        "die", "str", default="d10", choices=("d10", "2d6"), doc="roll", spec_id="A001.9"
    )
    assert choice("die", ("d10", "2d6"), default="2d6").default == "2d6"
    assert choice("chart", ("a", "b"), default=None).default is None


def test_a_built_field_checks_as_the_long_form_does():
    fields = (whole("speed", 3, 1, 9, "R9.1"), choice("reading", ("a", "b"), "A9.2"))
    problems = check_fields(fields, {"speed": 0, "reading": "c"})
    assert [(p.key, p.expected, p.spec_id) for p in problems] == [
        ("speed", "a whole number from 1 to 9", "R9.1"),
        ("reading", "one of 'a', 'b'", "A9.2"),
    ]
