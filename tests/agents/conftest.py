"""Fixtures for the agent tests (the scenarios themselves are in tests/agent_scenarios.py)."""

from __future__ import annotations

import pytest
from agent_scenarios import RULES, short_scenario


@pytest.fixture(scope="session")
def scenarios():
    return {rules_id: short_scenario(rules_id) for rules_id in RULES}
