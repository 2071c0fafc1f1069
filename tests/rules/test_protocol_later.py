"""A hook bound by its module's name is imported when first asked for, with the checks of one
bound at once: an unknown role, a hook bound twice or an odds hook without the system's id
fail when the class is made; a missing function, or a module that declares its own hooks,
when the hook is first asked for (and over every system here, where all are asked)."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass

import pytest

from tactical.rules import registry
from tactical.rules.base import RuleSystem
from tactical.rules.protocol import Later, hook, later

SYSTEMS = ("battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital")
PACKAGE = "later_made_up"  # never a real module: made up in sys.modules by each test


def _combat(**functions):
    module = types.ModuleType(f"{PACKAGE}.combat")
    module.__dict__.update(functions)
    return module


def _declare(state, attacker, weapon, target, params=None):
    return "declared"


def _resolve(state, attack, dice):
    return "resolved"


def _odds(state, attack, *, rules_id):
    return rules_id


def test_a_module_named_is_imported_when_one_of_its_hooks_is_first_asked_for(monkeypatch):
    monkeypatch.delitem(sys.modules, f"{PACKAGE}.combat", raising=False)

    # made while the module does not exist: nothing was imported
    @dataclass(frozen=True)
    class MadeUp(RuleSystem, rules_id="made-up", hooks_from=(f"{PACKAGE}.combat",)):
        weapons = hook(f"{PACKAGE}.combat", "weapons_of")

    assert MadeUp.has_combat is True  # its resolver is its own, read without importing it
    system = MadeUp(id="made-up", title="Made up", seed="999")
    monkeypatch.setitem(
        sys.modules,
        f"{PACKAGE}.combat",
        _combat(declare=_declare, resolve=_resolve, attack_odds=_odds, weapons_of=len),
    )
    assert system.attack_odds(None, None) == "made-up"  # told the system's id
    assert system.resolve_attack(None, None, None) == "resolved"
    assert system.declare_attack(None, "a", "w", "t") == "declared"
    assert system.weapons("ab") == 2
    # once asked, the class holds the function itself
    assert vars(MadeUp)["resolve_attack"].__func__ is _resolve
    assert type(vars(MadeUp)["resolve_attack"]) is staticmethod


def test_a_module_named_is_checked_when_the_class_is_made_or_first_asked():
    with pytest.raises(TypeError, match="plays no standard role"):

        class Unknown(RuleSystem, hooks_from=(f"{PACKAGE}.helpers",)):
            pass

    with pytest.raises(TypeError, match="bound twice"):

        class Twice(RuleSystem, rules_id="t", hooks_from=(f"{PACKAGE}.combat",)):
            resolve_attack = hook(f"{PACKAGE}.combat", "resolve")

    with pytest.raises(TypeError, match="rules_id"):

        class Nameless(RuleSystem, hooks_from=(f"{PACKAGE}.combat",)):
            pass


def test_a_missing_function_or_a_module_declaring_its_hooks_fails_when_asked(monkeypatch):
    @dataclass(frozen=True)
    class Missing(RuleSystem, rules_id="m", hooks_from=(f"{PACKAGE}.combat",)):
        pass

    system = Missing(id="m", title="M", seed="999")
    monkeypatch.setitem(sys.modules, f"{PACKAGE}.combat", _combat(declare=_declare))
    with pytest.raises(AttributeError, match="resolve"):
        system.resolve_attack(None, None, None)
    declaring = _combat(declare=_declare, HOOKS={"declare_attack": "declare"})
    monkeypatch.setitem(sys.modules, f"{PACKAGE}.combat", declaring)
    with pytest.raises(TypeError, match="declares its HOOKS"):
        system.declare_attack(None, "a", "w", "t")


def test_a_turn_declared_later_is_read_when_first_asked_for(monkeypatch):
    from tactical.rules.turns import Phase, TurnSequence

    turn = TurnSequence((Phase("Move", "R9.1"), Phase("Fire", "R9.2")))
    module = types.ModuleType(f"{PACKAGE}.sequence")
    module.TURN = turn  # type: ignore[attr-defined]
    system = RuleSystem(id="t", title="T", seed="999", turn=later(f"{PACKAGE}.sequence", "TURN"))
    assert isinstance(system.__dict__["_turn"], Later)  # not read yet
    monkeypatch.setitem(sys.modules, f"{PACKAGE}.sequence", module)
    assert system.phases == ("Move", "Fire")
    assert system.turn is turn and system.turn_sequence() is turn
    assert system == RuleSystem(id="t", title="T", seed="999", turn=turn)
    assert RuleSystem(id="t", title="T", seed="999").turn is None


@pytest.mark.parametrize("rules", SYSTEMS)
def test_every_hook_of_every_system_is_a_function_once_asked_for(rules):
    system = registry.get(rules)
    bound = [name for name, value in vars(type(system)).items() if isinstance(value, staticmethod)]
    assert len(bound) >= 15
    for name in bound:
        assert callable(getattr(system, name)), (rules, name)
        assert type(vars(type(system))[name]) is staticmethod, (rules, name)
    assert system.turn is not None and system.phases


@pytest.mark.parametrize("rules", SYSTEMS)
def test_every_hook_a_module_declares_is_the_one_its_system_answers_with(rules):
    """A module's `HOOKS` table says which hooks it implements: each is what the system
    answers when asked (not the protocol's default). A hook added to a table and not
    bound by the class would be silently skipped: Heavy Combat's replay count was, once."""
    import importlib
    import pkgutil

    system = registry.get(rules)
    package = importlib.import_module(type(system).__module__)  # its package or system.py
    if not hasattr(package, "__path__"):
        package = importlib.import_module(package.__name__.rsplit(".", 1)[0])
    declared = 0
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for hook_name, function_name in getattr(module, "HOOKS", {}).items():
            declared += 1
            answer = getattr(system, hook_name)
            assert getattr(answer, "func", answer) is getattr(module, function_name), (
                rules,
                module.__name__,
                hook_name,
            )
    assert declared or rules in ("dystopian-wars", "cortex-space")
