"""The project's own contracts: lint clean and the DESIGN.md layers (import-linter)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = BIN / name
    if found.exists():
        return str(found)
    located = shutil.which(name)
    if located is None:
        pytest.fail(f"{name} is not installed (it is in the [test] extra)")
    return located


def test_ruff_check_is_clean():
    result = subprocess.run(
        [_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_layers_hold():
    """DESIGN.md: downward-only layers, pygame only in ui, rule systems independent."""
    result = subprocess.run(
        [_tool("lint-imports")], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" not in result.stdout.split("Contracts:")[-1].split("kept")[0]
