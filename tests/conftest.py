"""Test-suite settings shared by every folder.

Hypothesis runs derandomized: the same examples on every machine and every
run, so CI's verdict never depends on luck. Set HYPOTHESIS_PROFILE=explore
for a randomized search with more examples.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
