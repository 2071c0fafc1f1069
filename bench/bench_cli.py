"""Command-line budgets (issue 2): `tactical check` of the default map <= 0.5 s wall.

Measured as a whole process, the way a person runs it, against the bare
interpreter start-up and the reference import of pygame, shapely and pymunk
(DESIGN.md: about 0.2 s) in the same run. The check command must not import
pygame at all.
"""

from __future__ import annotations

import subprocess
import sys

from tactical.io.paths import default_map_path

PYTHON = sys.executable


def _run(*args: str) -> None:
    subprocess.run([PYTHON, *args], check=True, capture_output=True)


def test_check_default_map_wall(benchmark):
    benchmark.pedantic(
        _run, args=("-m", "tactical", "check", str(default_map_path()), "--json"),
        rounds=7, iterations=1, warmup_rounds=1,
    )  # fmt: skip


def test_baseline_interpreter_start(benchmark):
    benchmark.pedantic(_run, args=("-c", "pass"), rounds=7, iterations=1, warmup_rounds=1)


def test_reference_import_pygame_shapely_pymunk(benchmark):
    benchmark.pedantic(
        _run, args=("-c", "import pygame, shapely, pymunk"), rounds=7, iterations=1,
        warmup_rounds=1,
    )  # fmt: skip


def test_check_does_not_import_pygame():
    code = (
        "import sys; from tactical.cli import main; "
        f"main(['check', {str(default_map_path())!r}, '--json']); "
        "assert 'pygame' not in sys.modules, sorted(m for m in sys.modules if 'pygame' in m)"
    )
    _run("-c", code)
