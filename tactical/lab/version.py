"""The code version a lab game records: the package's version and a digest of the code
that decides a game (everything but the front ends and the lab's own bookkeeping).

Two games with the same code version were played by the same rules and agents, byte
for byte; a results file that mixes versions says so in its report.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata, resources
from typing import Any

# folders and lab modules that do not change how a game plays
NOT_PLAYING = ("cli", "ui")
LAB_PLAYING = ("games.py", "plan.py", "variants.py")


@functools.cache
def code_version() -> str:
    """ "tactical 0.1.0+<12 hex digits of the sha256 of the code that plays a game>"."""
    try:
        version = metadata.version("tactical")
    except metadata.PackageNotFoundError:
        version = "0"
    digest = hashlib.sha256()
    for name, data in sorted(_sources(resources.files("tactical"))):
        digest.update(name.encode())
        digest.update(data)
    return f"tactical {version}+{digest.hexdigest()[:12]}"


def _sources(folder: Any, prefix: str = "") -> list[tuple[str, bytes]]:
    found = []
    for entry in folder.iterdir():
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__" and name not in NOT_PLAYING:
                found.extend(_sources(entry, f"{name}/"))
        elif entry.name.endswith(".py") and (prefix != "lab/" or entry.name in LAB_PLAYING):
            found.append((name, entry.read_bytes()))
    return found
