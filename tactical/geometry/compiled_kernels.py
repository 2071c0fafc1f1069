"""When to run a compiled kernel (numba, the optional `fast` extra) instead of its numpy code:
both give the same bytes, and the kernel repays loading numba (~0.2 s, once a process)
only on big blocks of work, so a short command never imports it.

`TACTICAL_NO_JIT` set (not empty, not "0") forces the numpy code everywhere.
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache

__all__ = ["NO_JIT", "use_compiled"]

NO_JIT = "TACTICAL_NO_JIT"


@cache
def _numba_installed() -> bool:
    """Whether numba can be imported (looked up once, not imported)."""
    return importlib.util.find_spec("numba") is not None


def use_compiled(work: int, least: int) -> bool:
    """Whether `work` items (entries, rows) reach `least`, the size from which a kernel
    repays numba's loading, numba is installed and NO_JIT is not set."""
    if work < least or os.environ.get(NO_JIT, "") not in ("", "0"):
        return False
    return _numba_installed()
