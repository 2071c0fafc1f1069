"""Writing the lab's output files: atomically, and never over a file without being asked."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tactical.errors import UserError


def refuse_existing(paths: Sequence[Path], force: bool) -> None:
    """UserError naming the first of `paths` that exists, unless `force` (checked before
    anything is written, so a refusal leaves every file as it was)."""
    if force:
        return
    for path in paths:
        if path.exists():
            raise UserError(f"{str(path)!r} exists; give --force to replace it")


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write `data` so that readers see the old file or the new one, never half of it."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"{path}: cannot write: folder {folder} does not exist")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise UserError(f"{path}: cannot write: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise UserError(f"{path}: cannot write: {error.strerror}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
