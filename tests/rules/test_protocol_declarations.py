"""A rule system is a declaration: hooks bound to the functions that implement them, options
declared as data and validated by the protocol's one function (`validated_options`)."""

from __future__ import annotations

import importlib
import inspect
import types
from dataclasses import dataclass
from functools import partial

import pytest

from tactical.errors import UserError
from tactical.model import Board, FrozenMap, GameState
from tactical.rules import registry
from tactical.rules.base import Field, RuleSystem, validated_options
from tactical.rules.battlefleet_mars import combat as bfm_combat
from tactical.rules.cortex_space import units as cortex_units
from tactical.rules.dystopian_wars import combat as dw_combat
from tactical.rules.heavy_combat import ships as hc_ships
from tactical.rules.protocol import ODDS_HOOKS, STANDARD_HOOKS
from tactical.rules.sw_d6_capital import ledger as sw_ledger

SYSTEMS = ("battlefleet-mars", "heavy-combat", "dystopian-wars", "cortex-space", "sw-d6-capital")
HANDFUL = 3  # the real methods a system may keep (a hook that builds on the default's answer)

FIELDS = (
    Field("speed", "int", default=3, low=1, high=9, spec_id="R9.1"),
    Field("reading", "str", default="a", choices=("a", "b"), spec_id="A9.2"),
    Field(
        "targets",
        "tables",
        default=(),
        fields=(Field("name", "str", required=True),),
        spec_id="R9.3",
    ),
)


def _hooks(system: RuleSystem) -> dict[str, object]:
    """The hooks a system's own class binds, by name (`name = staticmethod(function)`)."""
    return {
        name: value.__func__
        for name, value in vars(type(system)).items()
        if isinstance(value, staticmethod)
    }


@pytest.mark.parametrize("rules", SYSTEMS)
def test_each_hook_a_system_binds_is_a_protocol_hook_with_its_signature(rules):
    system = registry.get(rules)
    hooks = _hooks(system)
    assert len(hooks) >= 15  # the forwards went: the hooks are bound, not written out
    for name, function in hooks.items():
        protocol = getattr(RuleSystem, name, None)
        # a misspelt hook would override nothing and silently leave the default in force
        assert callable(protocol), f"{rules}: {name} is no hook of the protocol"
        wanted = list(inspect.signature(protocol).parameters.values())[1:]  # without self
        given = inspect.signature(function)
        required = [p for p in wanted if p.default is inspect.Parameter.empty]
        optional = {p.name: p.default for p in wanted if p.default is not inspect.Parameter.empty}
        # the call sites pass the required arguments by position and the optional by name
        bound = given.bind(*range(len(required)), **{key: None for key in optional})
        assert len(bound.arguments) == len(wanted), (rules, name)


@pytest.mark.parametrize("rules", SYSTEMS)
def test_a_system_keeps_only_a_handful_of_real_methods(rules):
    own = [
        name
        for name, value in vars(type(registry.get(rules))).items()
        if inspect.isfunction(value) and not name.startswith("__")  # not the dataclass's own
    ]
    assert 1 <= len(own) <= HANDFUL, (rules, own)


@pytest.mark.parametrize("rules", SYSTEMS)
def test_the_declared_turn_is_the_turn_played(rules):
    system = registry.get(rules)
    sequence = system.turn_sequence()
    assert sequence is system.turn
    assert tuple(phase.name for phase in sequence.phases) == system.phases
    assert system.has_combat


def test_options_are_checked_filled_in_and_cached_once():
    given = FrozenMap(speed=5)
    settings = validated_options(FIELDS, given)
    assert dict(settings) == {"speed": 5, "reading": "a", "targets": ()}
    assert validated_options(FIELDS, FrozenMap(speed=5)) is settings  # cached by value
    assert validated_options(FIELDS, {"speed": 5}) is settings  # a plain mapping too
    # the move's own entry is no option of the map
    assert validated_options(FIELDS, {"speed": 5, "activation": {"boost": 2}}) == settings


@pytest.mark.parametrize(
    ("options", "message", "spec_id"),
    [
        ({"speed": 0}, "option speed is 0: expected a whole number from 1 to 9", "R9.1"),
        ({"reading": "c"}, "option reading is 'c': expected one of 'a', 'b'", "A9.2"),
        (
            {"warp": 9},
            "option warp is 9: expected a known key (one of reading, speed, targets)",
            None,
        ),
        ({"targets": [{}]}, "option targets[0].name: expected a string (required)", None),
        (
            {"targets": [{"name": 3}]},
            "option targets[0].name is 3: expected a string",
            None,
        ),
        ({"speed": True}, "option speed is true: expected a whole number from 1 to 9", "R9.1"),
        (
            FrozenMap(warp=FrozenMap(factor=9)),
            "option warp is {'factor': 9}: expected a known key (one of reading, speed, targets)",
            None,
        ),
    ],
)
def test_a_wrong_option_is_one_message_naming_key_value_and_why(options, message, spec_id):
    with pytest.raises(UserError) as raised:
        validated_options(FIELDS, options)
    assert raised.value.message == message
    assert raised.value.spec_id == spec_id


@pytest.mark.parametrize(
    ("rules", "settings", "key", "value"),
    [
        ("battlefleet-mars", bfm_combat.settings, "turn_limit", 4),
        ("heavy-combat", lambda state: hc_ships.settings(state.options), "turn_limit", 4),
        ("dystopian-wars", dw_combat.settings, "range_band_inches", 6.0),
        ("cortex-space", cortex_units.settings, "turn_limit", 4),
        ("sw-d6-capital", sw_ledger.settings, "turn_limit", 4),
    ],
)
def test_every_system_reads_its_options_through_the_protocol(rules, settings, key, value):
    system = registry.get(rules)
    state = GameState(rules, Board(48, 48), options=FrozenMap({key: value}))
    found = settings(state)
    assert found is validated_options(system.option_fields, state.options)
    assert dict(found) == {**system.options({}), key: value}
    wrong = GameState(rules, Board(48, 48), options=FrozenMap({key: 0}))
    with pytest.raises(UserError, match=f"option {key} is 0: expected a (whole )?number from"):
        settings(wrong)


@pytest.mark.parametrize("rules", SYSTEMS)
def test_the_standard_hooks_are_bound_from_the_modules_a_system_names(rules):
    system = registry.get(rules)
    hooks = _hooks(system)
    package = f"tactical.rules.{rules.replace('-', '_')}"
    # every system names its own status, by_hand and outcome modules: each hook of a role is
    # bound to the function of that very module
    for role in ("status", "by_hand", "outcome"):
        module = importlib.import_module(f"{package}.{role}")
        for hook, name in STANDARD_HOOKS[role]:
            assert hooks[hook] is getattr(module, name), (rules, hook)
    # the odds hooks are told the system's own id, whichever module implements them
    for hook in ODDS_HOOKS:
        assert isinstance(hooks[hook], partial), (rules, hook)
        assert hooks[hook].keywords == {"rules_id": system.id}


def _module(name: str, **functions) -> types.ModuleType:
    module = types.ModuleType(f"tactical.rules.made_up.{name}")
    module.__dict__.update(functions)
    return module


def _status(state, unit):
    return "status"


def _describe(before, action, events):
    return "described"


def _unavailable(state, position, side):
    return ()


def _odds(state, attack, *, rules_id):
    return rules_id


def test_a_declared_class_binds_each_standard_hook_once_and_tells_the_odds_its_id():
    status = _module("status", unit_status=_status, describe=_describe, unavailable=_unavailable)

    @dataclass(frozen=True)
    class MadeUp(RuleSystem, rules_id="made-up", hooks_from=(status,)):
        attack_odds = staticmethod(_odds)

    system = MadeUp(id="made-up", title="Made up", seed="999")
    assert system.unit_status(None, None) == "status"
    assert system.describe_resolution(None, None, ()) == "described"
    assert system.attack_odds(None, None) == "made-up"
    assert system.has_combat is False  # no resolver of its own

    with pytest.raises(TypeError, match="bound twice"):

        class Twice(RuleSystem, hooks_from=(status,)):
            unit_status = staticmethod(_status)

    with pytest.raises(TypeError, match="plays no standard role"):

        class Unknown(RuleSystem, hooks_from=(_module("helpers"),)):
            pass

    with pytest.raises(TypeError, match="rules_id"):

        class Nameless(RuleSystem):
            attack_odds = staticmethod(_odds)


def test_a_module_declaring_its_hooks_is_bound_by_its_declaration_not_its_name():
    """A module named for no standard role (or for one, with other function names) says
    which hooks it implements in `HOOKS`; a hook the protocol does not have is refused."""
    attacks = _module("attacks", fire=_status, HOOKS={"resolve_attack": "fire"})

    @dataclass(frozen=True)
    class Declared(RuleSystem, hooks_from=(attacks,)):
        pass

    system = Declared(id="declared", title="Declared", seed="999")
    assert system.resolve_attack(None, None) == "status"
    assert system.has_combat is True  # its resolver is its own
    with pytest.raises(TypeError, match="declares no hook 'fire_twice'"):

        class Misnamed(RuleSystem, hooks_from=(_module("x", HOOKS={"fire_twice": "f"}),)):
            pass


def test_what_a_system_leaves_out_follows_from_what_it_declares():
    bare = RuleSystem(id="t", title="T", seed="999", background="space")
    assert bare.default_movement.value == "space"  # the setting's own
    assert bare.phases == () and not bare.has_combat
    for rules in SYSTEMS:
        system = registry.get(rules)
        assert system.phases == tuple(phase.name for phase in system.turn.phases)
    assert registry.get("dystopian-wars").default_movement.value == "naval"
    assert registry.get("cortex-space").default_movement.value == "space"
