"""Writing the lab's output files: checked first, never over a file without being asked,
each written atomically (`tactical.io.files`: a symlink is written through, a replaced
file keeps its permissions), and all of them or none."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tactical.errors import UserError
from tactical.io.files import check_outputs, write_bytes_atomic


def refuse_existing(paths: Sequence[Path], force: bool) -> None:
    """UserError naming the first of `paths` that cannot be written or exists, unless
    `force` (checked before anything is written, so a refusal leaves every file as it was)."""
    check_outputs(*paths)
    if force:
        return
    for path in paths:
        if os.path.exists(path):
            raise UserError(f"{str(path)!r} exists; give --force to replace it")


def write_files(files: Sequence[tuple[Path, bytes]]) -> list[Path]:
    """Write each (path, bytes), every path checked before the first is written; when one
    fails, the files this call made are removed again: nothing is left behind."""
    check_outputs(*(path for path, _ in files))
    made: list[Path] = []
    try:
        for path, data in files:
            new = not os.path.exists(path)
            target = write_bytes_atomic(path, data)
            if new:
                made.append(target)
    except BaseException:
        for target in made:
            target.unlink(missing_ok=True)
        raise
    return [path for path, _ in files]
