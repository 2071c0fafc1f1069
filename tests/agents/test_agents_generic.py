"""The agents play any rule system through the generic protocol only: no string in
tactical/agents (docstrings aside) names a rule system or a SPEC id."""

from __future__ import annotations

from pathlib import Path

from generic_names import rule_systems_named, spec_ids_named

import tactical.agents

AGENTS = Path(tactical.agents.__file__).parent


def test_no_rule_system_named_in_the_agents():
    assert rule_systems_named(AGENTS) == []


def test_no_spec_id_in_the_agents():
    assert spec_ids_named(AGENTS) == []
