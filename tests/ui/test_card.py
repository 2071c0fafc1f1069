"""The adjudication card: its numbers are `tactical check`'s, its lines are drawn
where those numbers say (GEO002.7 range and arcs, R002.40 line of sight, GEO004.2/GEO004.3)."""

from __future__ import annotations

import math

import pygame
import pytest

from tactical.cli import main
from tactical.io import load_map, loads_map
from tactical.io.paths import builtin_map
from tactical.rules import registry
from tactical.rules.measuring import TableGeometry
from tactical.ui import palette
from tactical.ui.card import card_lines, render_card
from tactical.ui.card_view import card_view

TABLE = """
rules = "dystopian-wars"
[board]
width = 48
height = 48

[[terrain]]
id = "peak"
kind = "obstructing"
height = "massive"
polygon = [[20, 18], [28, 18], [28, 22], [20, 22]]

[[unit]]
id = "a"
side = "A"
x = 24
y = 8
heading = 0
base = { shape = "rect", width = 2, length = 4 }
[unit.stats]
weapons = [{ name = "Guns", kind = "gunnery", arc = "fore" }]

[[unit]]
id = "b"
side = "B"
x = 31
y = 30
heading = 180
base = { shape = "circle", diameter = 2 }

[[unit]]
id = "c"
side = "B"
x = 8
y = 12
heading = 90
base = { shape = "circle", diameter = 2 }
"""


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.font.init()


def test_card_numbers_are_the_table_geometrys_GEO002_7():
    state = loads_map(TABLE)
    view = card_view(state, "a", "b")
    expected = TableGeometry.of(state, registry.get(state.rules)).pair("a", "b")
    assert view.report == expected
    assert view.report.distance == pytest.approx(
        math.dist(view.report.witness.start, view.report.witness.end)
    )
    margins = dict(expected.arc_margins)
    assert {arc.name: arc.margin for arc in view.arcs} == margins
    assert {arc.name for arc in view.arcs if arc.holds} == set(expected.arcs)


def test_band_edge_is_the_rule_systems_own_GEO002_7():
    state = loads_map(TABLE)
    system = registry.get(state.rules)
    view = card_view(state, "a", "b")
    edge = view.band_edge
    options = system.options(state.options)
    assert system.range_band(view.firer, edge.limit - 1e-3, options) == edge.inside
    assert system.range_band(view.firer, edge.limit + 1e-3, options) == edge.outside
    assert edge.margin == pytest.approx(edge.limit - view.report.distance)
    # 8" bands: the target at ~21.4" is nearest the RB3 | RB4 edge at 24"
    assert (edge.inside, edge.outside, edge.limit) == ("RB3", "RB4", pytest.approx(24.0, abs=1e-3))


def test_arc_lines_are_the_fore_sector_rays_GEO002_7():
    state = loads_map(TABLE)
    view = card_view(state, "a", "b")
    (fore,) = [arc for arc in view.arcs if arc.name == "fore"]
    bearings = sorted(
        round(math.degrees(math.atan2(end[0] - start[0], end[1] - start[1])) % 360.0, 6)
        for start, end in fore.lines
    )
    assert bearings == [45.0, 315.0]
    assert fore.holds and fore.margin.value > 0


def test_blocked_line_lists_the_blocker_R002_40():
    state = loads_map(TABLE)
    view = card_view(state, "a", "b")
    assert not view.report.los and view.report.blocked_by == ("peak",)
    text = [line for _, line in card_lines(view)]
    assert "blocked by Obstructing terrain" in text  # unnamed: its kind in words, not its id
    assert "Line of sight (R002.40)" in text
    assert "Range (GEO002.7)" in text


def test_witness_is_drawn_between_the_two_reported_points():
    state = loads_map(TABLE)
    view = card_view(state, "a", "b")
    surface, layout = render_card(view, (1000, 700))
    start, end = view.report.witness.start, view.report.witness.end
    a = layout.camera.to_screen(*start)
    b = layout.camera.to_screen(*end)
    on_line = 0
    samples = [k / 20 for k in range(1, 20) if not 0.35 < k / 20 < 0.65]  # the label sits mid-way
    for t in samples:
        point = (round(a[0] + t * (b[0] - a[0])), round(a[1] + t * (b[1] - a[1])))
        on_line += surface.get_at(point)[:3] == palette.CARD_WITNESS
    assert on_line == len(samples)
    for point in (a, b):  # the end dots
        assert surface.get_at((round(point[0]), round(point[1])))[:3] == palette.CARD_WITNESS
    # and nowhere else: 12 px to the side of the segment is not the witness colour
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    side = (-dy / length * 12, dx / length * 12)
    off = (round(a[0] + 0.25 * dx + side[0]), round(a[1] + 0.25 * dy + side[1]))
    assert surface.get_at(off)[:3] != palette.CARD_WITNESS


@pytest.mark.parametrize(
    ("name", "firer", "target"),
    [
        ("battlefleet-mars", "deimos-base", "ares-cruiser"),
        ("heavy-combat", "enterprise", "kronos"),
        ("cortex-space", "galactica", "basestar"),
        ("sw-d6-capital", "nowhere", "isd"),
    ],
)
def test_every_rule_system_cites_its_measuring_rules(name, firer, target):
    state = load_map(builtin_map(f"{name}.toml"))
    view = card_view(state, firer, target)
    text = "\n".join(line for _, line in card_lines(view))
    for question in ("range", "arcs", "line of sight"):
        assert view.conventions.citation(question) in text
    assert "None" not in text and "True" not in text and "_" not in text.replace("-", "")
    assert any(v.may_fire for v in view.weapons)


def test_a_numbered_band_reads_as_band_n_and_a_named_one_as_its_name():
    state = load_map(builtin_map("heavy-combat.toml"))  # bands "1" to "4" (T001.2)
    text = [line for _, line in card_lines(card_view(state, "enterprise", "kronos"))]
    assert any(line.endswith(": band 3") for line in text), text
    assert any(line.startswith("nearest band edge: band 3 ends at 36.00") for line in text)
    dw = [line for _, line in card_lines(card_view(loads_map(TABLE), "a", "b"))]
    assert any("nearest band edge: RB3 ends at 24.00" in line for line in dw), dw


def test_a_refused_weapon_carries_its_spec_id_R004_29():
    state = load_map(builtin_map("sw-d6-capital.toml"))
    view = card_view(state, "nowhere", "isd")
    refused = {v.weapon: v.spec_id for v in view.weapons if not v.may_fire}
    assert refused["left-turbolasers"] == "R004.29"
    assert any("(R004.29)" in line for _, line in card_lines(view))


def test_card_command_writes_a_png(tmp_path):
    source = tmp_path / "t.toml"
    source.write_text(TABLE)
    out = tmp_path / "card.png"
    assert main(["card", str(source), "a", "b", "-o", str(out), "--size", "900x600"]) == 0
    assert pygame.image.load(str(out)).get_size() == (900, 600)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["a", "nobody"], "nobody"),
        (["a", "a"], "itself"),
        (["a", "b", "-o", "{tmp}/missing/x.png"], "does not exist"),
        (["a", "b", "-o", "{tmp}/x.jpg"], ".png"),
        (["a", "b", "--size", "big"], "WIDTHxHEIGHT"),
    ],
)
def test_card_errors_are_one_line_exit_2_and_nothing_written(tmp_path, capsys, args, words):
    source = tmp_path / "t.toml"
    source.write_text(TABLE)
    full = ["card", str(source), *[a.replace("{tmp}", str(tmp_path)) for a in args]]
    if "-o" not in args:
        full += ["-o", str(tmp_path / "out.png")]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


def test_a_refusal_names_the_units_by_their_names_never_their_ids_GEO002_7():
    """The rule system's reason quotes ids ('markgraf' … 'ruler''s); the card reads names."""
    state = load_map(builtin_map("dystopian-wars.toml"))
    view = card_view(state, "ruler", "markgraf")
    refused = [v.reason for v in view.weapons if not v.may_fire]
    assert refused and all("'markgraf'" not in r and "'ruler'" not in r for r in refused)
    names = state.shown_names
    assert any(names["markgraf"] in r and names["ruler"] in r for r in refused), refused


def test_arc_tints_stay_on_the_table_GEO002_7():
    """The fore arc of a ship 4" from the left edge reaches past it: its tint is cut at
    the table's edge, not laid over the floor around it."""
    from tactical.ui.card import SCREEN_INKS
    from tactical.ui.card_scene import card_scene

    state = loads_map(TABLE.replace("x = 24", "x = 4").replace("x = 31", "x = 10"))
    scene = card_scene(card_view(state, "a", "b"), SCREEN_INKS, 0.05)
    tints = [p for p in scene.under if getattr(p.style, "fill", None) is not None]
    assert tints
    bounds = [p.geometry.bounds for p in tints]
    assert min(b[0] for b in bounds) == 0.0  # cut at the left edge (it reached -16")
    assert min(b[1] for b in bounds) >= 0.0
    assert max(b[2] for b in bounds) <= 48.0 and max(b[3] for b in bounds) <= 48.0
