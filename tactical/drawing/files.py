"""Where a drawing is written: the output file checked before any work is done."""

from __future__ import annotations

import os
from pathlib import Path

from tactical.errors import UserError
from tactical.io.files import output_path


def checked_output(path: str | os.PathLike[str], suffix: str) -> Path:
    """`path` as a `suffix` file (".png", ".pdf") that can be written, or a UserError saying
    what is wrong (nothing is written either way)."""
    target = Path(path)
    if target.suffix.lower() != suffix:
        raise UserError(f"output {str(target)!r} must be a {suffix} file")
    output_path(target)
    return target
