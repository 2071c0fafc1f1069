"""`tactical odds MAP ATTACKER WEAPON TARGET [--json] [--missiles N] [--no-ciws]`.

The exact outcome distribution of one attack as it stands on the table:
the map's rule system declares the attack (range and arc from the geometry,
legality with the SPEC rule when it is not) and enumerates its own resolver
over every dice outcome. Any rule system with combat resolvers works; one
without says so. `--missiles N` and `--no-ciws` are declaration parameters
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
from typing import Any

from tactical.errors import UserError
from tactical.io.maps import load_map
from tactical.rules import registry
from tactical.rules.base import OddsReport


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "odds",
        help="exact outcome distribution of one attack on the table",
        description="Exact odds of ATTACKER attacking TARGET with WEAPON on the map.",
    )
    parser.add_argument("map", metavar="MAP", help="map file (TOML)")
    parser.add_argument("attacker", metavar="ATTACKER", help="attacking unit id")
    parser.add_argument("weapon", metavar="WEAPON", help="weapon name, e.g. laser or missiles")
    parser.add_argument("target", metavar="TARGET", help="target unit id")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--missiles", type=int, default=None, metavar="N", help="missiles declared (salvo size)"
    )
    parser.add_argument("--no-ciws", action="store_true", help="the target does not use CIWS")
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any other declaration parameter of the rule system (repeatable), "
        "e.g. --param battery=3 --param gunner=starbuck",
    )
    parser.set_defaults(run=run)


def report_for(args: argparse.Namespace) -> OddsReport:
    state = load_map(args.map)
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
    report = report_for(args)
    document = report.as_dict()
    if args.json:
        print(json.dumps(document, indent=2))
        return 0
    print(
        f"{document['attacker']} -> {document['target']} with {document['weapon']} "
        f"({document['rules']})"
    )
    for key, value in document["facts"].items():
        print(f"  {key}: {value}")
    for section in document["distributions"]:
        cited = f" ({section['spec_id']})" if section["spec_id"] else ""
        print(f"{section['name']}{cited}:")
        for row in section["outcomes"]:
            outcome = next(
                value for key, value in row.items() if key not in ("probability", "percent")
            )
            print(f"  {outcome!s:>6}  {row['percent']:>8.4f}%  {row['probability']}")
    return 0


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
