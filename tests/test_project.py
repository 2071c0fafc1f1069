"""The project's own contracts: lint clean, and the layers of docs/architecture.md."""

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
    """docs/architecture.md: downward-only layers, pygame only in ui, rule systems independent."""
    result = subprocess.run(
        [_tool("lint-imports")], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" not in result.stdout.split("Contracts:")[-1].split("kept")[0]


def test_every_package_is_listed_for_the_build():
    """pyproject lists its packages by hand (maps/ and assets/ are mapped in): none forgotten."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "tactical").rglob("__init__.py")
    }
    assert on_disk <= listed, f"add to [tool.setuptools] packages: {sorted(on_disk - listed)}"
    mapped = config["tool"]["setuptools"]["package-dir"]
    assert mapped == {"tactical.maps": "maps", "tactical.assets": "assets"}
    assert listed - on_disk == set(mapped)


def test_builtin_maps_and_assets_are_package_data():
    """The built-in maps and the terrain library are found through importlib.resources."""
    from importlib import resources

    maps = {p.name for p in resources.files("tactical.maps").iterdir()}
    assert {"default.toml", "battlefleet-mars.toml", "sw-d6-capital.toml"} <= maps
    assert resources.files("tactical.assets").joinpath("terrain_library.toml").is_file()
