"""R002.25: a Commanded Element remembered by the very models it reads equals the one worked
out afresh, and changes when a model moves, the distance or the commander changes."""

from __future__ import annotations

from dataclasses import replace

from dw_builders import refused, unit

from tactical.model import Pose
from tactical.rules.dystopian_wars import command


def _squadron(*positions: tuple[float, float]) -> tuple:
    return tuple(
        unit(f"A{i}", x, y, "A", squadron="sq", commander=(i == 0))
        for i, (x, y) in enumerate(positions)
    )


def test_R002_25_a_remembered_element_is_the_element_worked_out_afresh():
    units = _squadron((10, 10), (19, 10), (28, 10), (50, 10))
    first = command.command_element(units, 10.0)
    assert command.command_element(units, 10.0) is first  # the same models: remembered
    assert first == command._command_element(units, 10.0, None)
    assert first.out_of_command == ("A3",)
    # a straggler that closes up is a new model: back in command
    moved = replace(units[3], pose=Pose(35, 10, 0.0))
    closer = command.command_element((*units[:3], moved), 10.0)
    assert closer.out_of_command == ()
    # the distance and the commander are read too
    assert command.command_element(units, 5.0).out_of_command == ("A1", "A2", "A3")
    assert command.command_element(units, 10.0, "A3").element == ("A3",)
    assert command.command_element(units, 10.0) is first
    with refused("R002.25"):  # refused each time, never remembered
        command.command_element(units, 10.0, "nobody")
    with refused("R002.25"):
        command.command_element(units, 10.0, "nobody")
