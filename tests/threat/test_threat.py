"""Reach, threat map and move advice checked against the rule systems' own
judges: `declare_attack` (GEO002.7 arcs and bands, R002.40 line of sight, R004.29 arcs),
`plan_path` / `plan_move` (GEO002.8, R002.30, R004.51) and `attack_odds`."""

from __future__ import annotations

import json

import numpy as np
import pytest
import shapely

from tactical.cli import main
from tactical.errors import UserError
from tactical.geometry.movement import parse_path, plan_path
from tactical.geometry.shapes import Pose
from tactical.io import load_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.rules.base import RuleSystem
from tactical.session.movement import plan_move
from tactical.threat.advice import move_advice
from tactical.threat.damage import DamageCache, expected_damage
from tactical.threat.heatmap import threat_map
from tactical.threat.reach import candidate_moves, reach


@pytest.fixture(scope="module")
def dogger():
    return load_map(builtin_map("dystopian-wars.toml"))


@pytest.fixture(scope="module")
def dogger_threat(dogger):
    return threat_map(dogger, "B", "markgraf", cache=DamageCache())


def bearing_weapons(state, target_id: str, x: float, y: float) -> int:
    """How many enemy weapons `declare_attack` allows on the target moved to (x, y)."""
    system = registry.get(state.rules)
    target = state.unit(target_id)
    placed = state.replace_unit(target.moved_to(Pose(x, y, target.heading)))
    allowed = 0
    for enemy in state.units:
        if enemy.side == target.side:
            continue
        for weapon in system.weapons(enemy, system.options(state.options)):
            try:
                system.declare_attack(placed, enemy.id, weapon, target.id, {})
            except UserError:
                continue
            allowed += 1
    return allowed


def test_weapon_reach_is_each_weapons_own_arc_and_bands_GEO002_7(dogger):
    system = registry.get("dystopian-wars")
    ruler = dogger.unit("ruler")
    options = system.options(dogger.options)
    torpedoes = system.weapon_reach(ruler, "Torpedoes", options)
    assert [a.name for a in torpedoes.arcs] == ["fore"]
    assert [(b.name, b.low, b.high) for b in torpedoes.bands] == [
        ("RB1", 0.0, 8.0), ("RB2", 8.0, 16.0), ("RB3", 16.0, 24.0)
    ]  # fmt: skip


def test_heavy_combat_launchers_fire_through_their_own_facings_T001_8():
    state = load_map(builtin_map("heavy-combat.toml"))
    system = registry.get("heavy-combat")
    unit = state.units[0]
    options = system.options(state.options)
    assert [a.name for a in system.weapon_reach(unit, "photon-1", options).arcs] == ["fore"]
    assert [a.name for a in system.weapon_reach(unit, "photon-2", options).arcs] == ["aft"]


def test_heatmap_counts_what_declare_attack_allows_GEO002_7_R002_40(dogger, dogger_threat):
    """Cell by cell, the count is the number of enemy weapons the rule system lets fire on
    the unit standing there (the grid's few approximations: bases by their circumscribed
    circle for the any-part arc test, line of sight by 0.25° bearings)."""
    rng = np.random.default_rng(17)
    grid = dogger_threat.grid
    rows = rng.integers(0, len(grid.ys), 80)
    columns = rng.integers(0, len(grid.xs), 80)
    exact = 0
    for row, column in zip(rows, columns, strict=True):
        x, y = float(grid.xs[column]), float(grid.ys[row])
        truth = bearing_weapons(dogger, "markgraf", x, y)
        found = int(dogger_threat.count[row, column])
        assert abs(found - truth) <= 2, (x, y, found, truth)
        exact += found == truth
    assert exact >= 0.9 * len(rows)


def test_heatmap_without_line_of_sight_matches_exactly_R004_29():
    state = load_map(builtin_map("sw-d6-capital.toml"))
    found = threat_map(state, "Empire", "isd", damage=False)
    grid = found.grid
    rng = np.random.default_rng(4)
    exact = 0
    for _ in range(40):
        row, column = int(rng.integers(0, len(grid.ys))), int(rng.integers(0, len(grid.xs)))
        truth = bearing_weapons(state, "isd", float(grid.xs[column]), float(grid.ys[row]))
        exact += int(found.count[row, column]) == truth
    assert exact >= 38


def test_expected_damage_is_the_exact_odds_of_the_attack(dogger, dogger_threat):
    """Dystopian Wars' hits depend on the band, not the exact spot: the map's damage at a
    cell is the sum over the weapons that may fire there of their odds' expected hits."""
    system = registry.get("dystopian-wars")
    target = dogger.unit("markgraf")
    grid = dogger_threat.grid
    row, column = np.unravel_index(int(np.argmax(dogger_threat.count)), dogger_threat.count.shape)
    x, y = float(grid.xs[column]), float(grid.ys[row])
    placed = dogger.replace_unit(target.moved_to(Pose(x, y, target.heading)))
    total = 0.0
    for enemy in dogger.units:
        if enemy.side == target.side:
            continue
        for weapon in system.weapons(enemy, system.options(dogger.options)):
            try:
                attack = system.declare_attack(placed, enemy.id, weapon, target.id, {})
            except UserError:
                continue
            total += expected_damage(system.attack_odds(placed, attack)).value
    assert dogger_threat.damage[row, column] == pytest.approx(total, rel=1e-9)
    assert dogger_threat.measure == "expected hits"


@pytest.mark.parametrize(
    ("name", "unit"),
    [("dystopian-wars", "ruler"), ("dystopian-wars", "eagle"), ("sw-d6-capital", "isd"),
     ("cortex-space", "galactica")],
)  # fmt: skip
def test_every_reach_path_is_legal_by_the_planner_GEO002_8_R004_51(name, unit):
    state = load_map(builtin_map(f"{name}.toml"))
    found = reach(state, unit)
    assert len(found) > 0
    system = registry.get(state.rules)
    moving = state.unit(unit)
    rules = system.turning_rules(moving, system.options(state.options))
    rng = np.random.default_rng(8)
    for k in rng.choice(len(found), size=min(len(found), 60), replace=False):
        path = found.paths[k]
        steps = () if path == "stay" else parse_path(path)
        plan = plan_path(moving.pose, moving.base, steps, rules)
        assert plan.legal, (path, plan.violations)
        end = found.poses[k]
        assert (plan.end.x, plan.end.y) == pytest.approx((end[0], end[1]), abs=1e-6)
        assert plan.end.heading % 360 == pytest.approx(end[2] % 360, abs=1e-6)


def test_reach_respects_the_minimum_move_before_a_turn_R002_30(dogger):
    found = reach(dogger, "ruler")
    for path in found.paths:
        tokens = path.split()
        if any(t[0] in "PS" for t in tokens):
            first = float(tokens[0][1:]) if tokens[0][0] == "F" else 0.0
            assert first >= 3.0 - 1e-9, path  # the Ruler's Minimum Move


def test_reach_ends_are_clear_on_the_table(dogger):
    found = reach(dogger, "markgraf")
    rng = np.random.default_rng(3)
    for k in rng.choice(len(found), size=min(len(found), 25), replace=False):
        path = found.paths[k]
        if path == "stay":
            continue
        planned = plan_move(dogger, "markgraf", path)
        assert planned.legal and planned.collision is None, path


def test_candidates_are_cached_per_rules_and_base(dogger):
    candidate_moves.cache_clear()
    reach(dogger, "tribal-1")
    reach(dogger, "tribal-2")  # the same class: the same rules and base
    assert candidate_moves.cache_info().hits >= 1


def test_advice_is_ranked_legal_and_changes_nothing(dogger, dogger_threat):
    before = dogger
    advice = move_advice(dogger, "markgraf", best=3, threat=dogger_threat)
    assert advice and dogger == before
    scores = [a.score for a in advice]
    assert scores == sorted(scores, reverse=True)
    for move in advice:
        if move.path != "stay":
            planned = plan_move(dogger, "markgraf", move.path)
            assert planned.legal and planned.collision is None
            assert (planned.final.x, planned.final.y) == pytest.approx((move.pose.x, move.pose.y))
        assert move.taken == pytest.approx(dogger_threat.at(move.pose.x, move.pose.y)[1])


def test_threat_command_json_keys(tmp_path, capsys):
    path = str(builtin_map("sw-d6-capital.toml"))
    assert main(["threat", path, "--side", "Empire", "--unit", "isd", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"rules", "side", "target", "grid", "measure", "count", "damage",
                             "blocked_by_models", "weapons", "reach", "advice"}  # fmt: skip
    assert document["blocked_by_models"] == []  # no model blocks sight in this system
    assert len(document["count"]) == document["grid"]["rows"] == 96
    assert document["reach"]["ends"] > 0 and len(document["advice"]) >= 1


def test_threat_command_draws_a_png(tmp_path, capsys):
    out = tmp_path / "threat.png"
    path = str(builtin_map("cortex-space.toml"))
    assert main(["threat", path, "--side", "Cylons", "--png", str(out)]) == 0
    assert out.stat().st_size > 0


def no_combat_map(tmp_path, monkeypatch):
    bare = RuleSystem(id="no-combat", title="No combat", seed="999")
    monkeypatch.setitem(registry.KNOWN, "no-combat", "tests.not.imported")
    monkeypatch.setitem(registry._loaded, "no-combat", bare)
    source = tmp_path / "bare.toml"
    source.write_text(
        'rules = "no-combat"\n[board]\nwidth = 24\nheight = 24\n'
        + "".join(
            f'[[unit]]\nid = "{u}"\nside = "{u.upper()}"\nx = {x}\ny = {x}\n'
            'base = { shape = "circle", diameter = 1 }\n'
            for u, x in (("a", 5), ("b", 15))
        )
    )
    return str(source)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--side", "Q"], "unknown side 'Q'"),
        (["--side", "Empire", "--unit", "nobody"], "unknown unit 'nobody'"),
        (["--side", "Empire", "--unit", "nowhere"], "not side Empire"),
        (["--side", "Empire", "--png", "{tmp}/missing/x.png"], "does not exist"),
        (["--side", "Empire", "--png", "{tmp}/x.jpg"], ".png"),
    ],
)
def test_threat_errors_are_one_line_exit_2_and_nothing_written(tmp_path, capsys, args, words):
    full = ["threat", str(builtin_map("sw-d6-capital.toml"))]
    full += [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_map_without_combat_is_refused(tmp_path, capsys, monkeypatch):
    source = no_combat_map(tmp_path, monkeypatch)
    out = tmp_path / "t.png"
    assert main(["threat", source, "--side", "A", "--png", str(out)]) == 2
    assert "no combat resolvers" in capsys.readouterr().err
    assert not out.exists()


def test_a_centre_turner_reaches_its_sector_within_its_turn_limit_R004_51():
    state = load_map(builtin_map("sw-d6-capital.toml"))
    unit = state.unit("nowhere")
    system = registry.get(state.rules)
    rules = system.turning_rules(unit, system.options(state.options))
    found = reach(state, "nowhere")
    grid = np.arange(0.25, 72.0, 0.5)
    x, y = (a.ravel() for a in np.meshgrid(grid, grid[grid < 48.0]))
    inside = shapely.contains_xy(found.region, x, y)
    dx, dy = x[inside] - unit.x, y[inside] - unit.y
    # each cell holds an end: its centre within half a cell's diagonal of one
    assert np.hypot(dx, dy).max() <= rules.max_distance + 0.36
    ahead = np.hypot(dx, dy) > 2.0
    off = np.mod(np.degrees(np.arctan2(dx[ahead], dy[ahead])) - unit.heading + 180, 360) - 180
    assert np.abs(off).max() <= rules.max_turn_per_move + 10.5  # half a cell's width at 2"
    assert inside.sum() > 20
