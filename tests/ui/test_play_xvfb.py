"""One real window under Xvfb: the play screen drawn and flipped, its display surface saved."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

SCRIPT = """
import sys
import pygame
from tactical.io.maps import load_map
from tactical.io.paths import default_map_path
from tactical.ui.app import App

app = App(load_map(default_map_path()), (1024, 700))
app.select("ruler")
for _ in range(3):
    app.pump()
    app.step()
    app.frame()
    pygame.display.flip()
pygame.image.save(pygame.display.get_surface(), sys.argv[1])
print(pygame.display.get_driver())
pygame.quit()
"""


def _free_display() -> int:
    for number in range(90, 190):
        if (
            not Path(f"/tmp/.X11-unix/X{number}").exists()
            and not Path(f"/tmp/.X{number}-lock").exists()
        ):
            return number
    pytest.skip("no free X display number for Xvfb")


def test_real_window_screenshot_under_xvfb(tmp_path):
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (.ci/run installs it where it can)")
    display = _free_display()
    server = subprocess.Popen(
        ["Xvfb", f":{display}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{display}").exists():
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.skip("Xvfb did not start")
            time.sleep(0.05)
        env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
        env["DISPLAY"] = f":{display}"
        env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
        shot = tmp_path / "window.png"
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(shot)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().splitlines()[-1] == "x11"  # a real X11 window
        picture = pygame.image.load(str(shot))
        assert picture.get_size() == (1024, 700)
        colours = {
            tuple(picture.get_at((x, y))) for x in range(0, 1024, 16) for y in range(0, 700, 16)
        }
        assert len(colours) > 20  # a drawn table, not a blank window
    finally:
        server.terminate()
        server.wait(timeout=10)
