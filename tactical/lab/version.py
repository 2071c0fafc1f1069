"""The code version a lab game records: the package's version and a digest of its code.

Two games with the same code version were played by the same rules and agents, byte
for byte; a results file that mixes versions says so in its report.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata, resources


@functools.cache
def code_version() -> str:
    """ "tactical 0.1.0+<12 hex digits of the sha256 of every .py file of the package>"."""
    try:
        version = metadata.version("tactical")
    except metadata.PackageNotFoundError:
        version = "0"
    digest = hashlib.sha256()
    for path in sorted(_sources(resources.files("tactical")), key=lambda p: p[0]):
        name, data = path
        digest.update(name.encode())
        digest.update(data)
    return f"tactical {version}+{digest.hexdigest()[:12]}"


def _sources(folder, prefix: str = "") -> list[tuple[str, bytes]]:
    found = []
    for entry in folder.iterdir():
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__":
                found.extend(_sources(entry, f"{name}/"))
        elif entry.name.endswith(".py"):
            found.append((name, entry.read_bytes()))
    return found
