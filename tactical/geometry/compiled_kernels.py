"""When to run the compiled kernels (numba, the optional `fast` extra) instead of their numpy
code: both give the same bytes, but loading numba and the kernels' cached code costs some
0.35 s CPU once a process, repaid only by a stream of many pairs (`tactical check` of a
big table). The caller that knows the whole stream's size decides (`worth_compiling`)
and asks the kernels for each of its blocks; a short command never imports numba.

`TACTICAL_NO_JIT` set (not empty, not "0") forces the numpy code everywhere.
"""

from __future__ import annotations

import os
from functools import cache

__all__ = ["COMPILED_PAIRS", "NO_JIT", "available", "worth_compiling"]

NO_JIT = "TACTICAL_NO_JIT"
# pairs a stream needs before the kernels repay their loading (measured: they save some
# 0.2 us a pair from 1,000 units up, so about 1,400 units break even)
COMPILED_PAIRS = 2_000_000


@cache
def _numba_installed() -> bool:
    """Whether numba can be imported (looked up once, not imported; importlib.util only
    then: every command's start-up pays for what it imports)."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def available() -> bool:
    """Whether the kernels may run: numba installed and NO_JIT not set."""
    return os.environ.get(NO_JIT, "") in ("", "0") and _numba_installed()


def worth_compiling(pairs: int) -> bool:
    """Whether a stream of `pairs` pairs is big enough for the kernels (and they may run)."""
    return pairs >= COMPILED_PAIRS and available()
