"""Rule systems looked up by id (docs/architecture.md "Conventions")."""

from __future__ import annotations

import importlib

from tactical.errors import UserError
from tactical.rules.base import RuleSystem

# id -> module that defines `RULE_SYSTEM`. Imported lazily so that loading one
# system never pulls in another (rule systems never import each other).
KNOWN: dict[str, str] = {}

_loaded: dict[str, RuleSystem] = {}


def register(rules_id: str, module: str) -> None:
    """Declare that `module` defines `RULE_SYSTEM` for `rules_id`."""
    KNOWN[rules_id] = module


def rule_ids() -> tuple[str, ...]:
    return tuple(KNOWN)


def get(rules_id: str) -> RuleSystem:
    """The registered rule system with this id; UserError naming the known ids otherwise."""
    if rules_id not in KNOWN:
        raise UserError(
            f"unknown rule system {rules_id!r}: expected one of " + ", ".join(sorted(KNOWN))
        )
    if rules_id not in _loaded:
        system = importlib.import_module(KNOWN[rules_id]).RULE_SYSTEM
        assert system.id == rules_id, (system.id, rules_id)
        _loaded[rules_id] = system
    return _loaded[rules_id]
