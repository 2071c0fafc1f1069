"""The chi-square agreement test every rule system's tests use: sampled resolutions with
seeded dice against the exact distribution from the same resolver (docs/architecture.md "Odds come
from the same code"). Imported as `from chi_square import ...` (tests/ is on sys.path
through tests/conftest.py)."""

from __future__ import annotations

import numpy as np

SAMPLES = 20_000

# chi-square critical values at p = 0.001 by degrees of freedom
CRITICAL_0_001 = {
    1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322,
    8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528, 14: 36.123,
    15: 37.697, 16: 39.252, 17: 40.790, 18: 42.312, 19: 43.820, 20: 45.315, 21: 46.797,
    22: 48.268, 23: 49.728, 24: 51.179, 25: 52.620, 26: 54.052, 27: 55.476, 28: 56.892,
    29: 58.301, 30: 59.703,
}  # fmt: skip


def chi_square(observed: dict, expected_probabilities: dict, samples: int) -> tuple[float, int]:
    """Statistic and degrees of freedom; categories expected below 5 are pooled."""
    keys = list(expected_probabilities)
    expected = np.array([float(expected_probabilities[k]) * samples for k in keys])
    counts = np.array([observed.get(k, 0) for k in keys], dtype=float)
    assert sum(observed.values()) == samples
    assert set(observed) <= set(keys), "a sampled outcome the exact odds say is impossible"
    small = expected < 5
    if small.any():
        expected = np.append(expected[~small], expected[small].sum())
        counts = np.append(counts[~small], counts[small].sum())
    statistic = float(((counts - expected) ** 2 / expected).sum())
    return statistic, len(expected) - 1
