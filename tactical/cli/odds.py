"""`tactical odds MAP ATTACKER WEAPON TARGET [--json] [--missiles N] [--no-ciws]`.

The exact outcome distribution of one attack as it stands on the table:
the map's rule system declares the attack (range and arc from the geometry,
legality with the SPEC rule when it is not) and enumerates its own resolver
over every dice outcome. Any rule system with combat resolvers works; one
without says so. The text output is in plain words: the units by name, each
fact and distribution labelled as the rule system's schema keys read
(`rules.status.label`, as its `Field` labels), yes / no, decimals beside
exact fractions. `--missiles N` and `--no-ciws` are declaration parameters
(Battlefleet Mars: the declared salvo size R000.18, and not using CIWS A000.15).

JSON keys (stable):

    {"rules": id, "attacker": id, "weapon": name, "target": id,
     "params": {...declaration...},
     "facts": {...what the geometry and the declaration decided...},
     "distributions": [{"name": str, "spec_id": str|null,
                        "outcomes": [{<label>: outcome, "probability": "a/b",
                                      "percent": float}]}]}

For battlefleet-mars a laser attack gives `facts` distance, range,
range_unit_inches, range_rounding, laser_strength, needed, max_range,
range_term, hit_probability, hit_percent, target_type, column, and the
distributions "result" (label "result": "miss" or a T000.2 code) and, against
fighters and missiles, "destroyed" (label "destroyed"). A missile attack gives
`facts` missiles, ciws, ciws_strength, ciws_thresholds, expected_survivors,
expected_results, missile_to_hit, target_type, column, and the distributions
"ciws_destroyed" (label "missiles"), "survivor_damage" (label "result", one
surviving missile) and, against fighters and missiles, "target_destroyed".
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tactical.cli.declare import JSON_OUTPUT, MAP, command
from tactical.errors import UserError

if TYPE_CHECKING:
    from tactical.model import GameState
    from tactical.rules.base import OddsReport


def add_parser(subparsers: Any) -> None:
    command(
        subparsers,
        "odds",
        run,
        (
            MAP,
            ("attacker", {"metavar": "ATTACKER", "help": "attacking unit id"}),
            ("weapon", {"metavar": "WEAPON", "help": "weapon name, e.g. laser or missiles"}),
            ("target", {"metavar": "TARGET", "help": "target unit id"}),
            JSON_OUTPUT,
            (
                "--missiles",
                {
                    "type": int,
                    "default": None,
                    "metavar": "N",
                    "help": "missiles declared (salvo size)",
                },
            ),
            ("--no-ciws", {"action": "store_true", "help": "the target does not use CIWS"}),
            (
                "--param",
                {
                    "action": "append",
                    "default": [],
                    "metavar": "KEY=VALUE",
                    "help": "any other declaration parameter of the rule system (repeatable), "
                    "e.g. --param battery=3 --param gunner=starbuck",
                },
            ),
        ),
        help="exact outcome distribution of one attack on the table",
        description="Exact odds of ATTACKER attacking TARGET with WEAPON on the map.",
    )


def report_for(args: argparse.Namespace, state: GameState | None = None) -> OddsReport:
    """The odds of the attack the arguments declare, on `state` (else the map read)."""
    # the map reader and the rules are loaded here, not at the top: `tactical --help`
    # lists this command without them
    from tactical.io.maps import load_map
    from tactical.rules import registry

    state = load_map(args.map) if state is None else state
    system = registry.get(state.rules)
    params: dict[str, Any] = {}
    if args.missiles is not None:
        params["missiles"] = args.missiles
    if args.no_ciws:
        params["ciws"] = False
    for item in args.param:
        key, value = _param(item)
        params[key] = value
    attack = system.declare_attack(state, args.attacker, args.weapon, args.target, params)
    return system.attack_odds(state, attack)


def run(args: argparse.Namespace) -> int:
    from tactical.io.maps import load_map

    state = load_map(args.map)  # read once: the odds and their words both need it
    report = report_for(args, state)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
        return 0
    print("\n".join(report_lines(state, report)))
    return 0


def report_lines(state: GameState, report: OddsReport) -> list[str]:
    """The report in plain words: who attacks whom with what, each fact labelled as the
    rule system names it, then each distribution as a table of outcome, chance and the
    exact probability."""
    from tactical.dice import fraction_text, percent
    from tactical.rules import registry
    from tactical.rules.base import unit_name
    from tactical.rules.status import label, plain_value, words

    system = registry.get(report.rules)
    attack = report.attack
    lines = [
        f"{unit_name(state, attack.attacker)} attacks {unit_name(state, attack.target)} with "
        f"{words(attack.weapon)} ({system.title})"
    ]
    if attack.params:
        lines.append("Declared: " + _pairs(attack.params))
    said = report.fact_words
    lines.extend(
        f"  {label(str(key))}: {said[key] if key in said else _shown(value)}"
        for key, value in report.facts.items()
    )
    if report.key:  # what the result codes mean against this target
        lines.append("Key:")
        lines.extend(f"  {code}: {meaning}" for code, meaning in report.key)
    for section in report.sections:
        cited = f" ({section.spec_id})" if section.spec_id else ""
        lines.append(f"{section.title or label(section.name)}{cited}:")
        rows = [(plain_value(outcome), p) for outcome, p in section.distribution.pairs]
        heading = label(section.label)
        width = max([len(heading), *(len(text) for text, _ in rows)])
        lines.append(f"  {heading:<{width}}  {'chance':>9}  exact")
        lines.extend(
            f"  {text:<{width}}  {percent(p):>8.4f}%  {fraction_text(p)}" for text, p in rows
        )
    return lines


def _shown(value: Any) -> str:
    """A fact's value: an exact fraction also as a decimal, the rest as a player reads it."""
    from fractions import Fraction  # here: `tactical --help` builds this parser without it

    from tactical.dice import fraction_text
    from tactical.rules.status import plain_value

    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.4g} ({fraction_text(value)})"
    return plain_value(value)


def _pairs(params: Mapping[str, Any]) -> str:
    from tactical.rules.status import label, plain_value

    return ", ".join(f"{label(str(key))} {plain_value(value)}" for key, value in params.items())


def _param(item: str) -> tuple[str, Any]:
    """'battery=3' -> ("battery", 3): numbers and true/false are read as such, the rest as text."""
    key, sep, text = item.partition("=")
    if not sep or not key.strip():
        raise UserError(f"--param {item!r}: expected KEY=VALUE, e.g. --param battery=3")
    value: Any = text
    if text.lower() in ("true", "false"):
        value = text.lower() == "true"
    else:
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
    return key.strip(), value
