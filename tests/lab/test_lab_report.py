"""`tactical lab report`: the figures of a results file, as text, JSON, HTML and plots."""

from __future__ import annotations

import json
import sqlite3

import pytest
from lab_scripted_games import scripted_game

import tactical.cli as cli
from tactical.lab.pool import LocalPool
from tactical.lab.report import build_report
from tactical.lab.runner import run_games
from tactical.lab.stats import two_proportion_test, wilson_interval
from tactical.lab.store import Store


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """40 scripted games of each of two Battlefleet Mars variants."""
    from tactical.io import builtin_map
    from tactical.lab.specs import build_spec

    spec = build_spec(
        builtin_map("battlefleet-mars"), 40, ("greedy", "random"), against_items=["lp_limit=6"]
    )
    db = tmp_path_factory.mktemp("lab") / "results.sqlite"
    with Store.open(db) as store:
        run_games(spec, store, LocalPool(2, scripted_game, "fork"), 2, False)
    return db


def _count(db, sql):
    with sqlite3.connect(db) as connection:
        return connection.execute(sql).fetchone()[0]


def test_the_report_counts_wins_and_gives_wilson_intervals(results):
    with Store.read(results) as store:
        report = build_report(store)
    assert report["games"] == 80
    (scenario,) = report["scenarios"]
    assert scenario["sides"] == ["Mars", "Ares"]
    assert scenario["players"] == ["greedy", "random"]
    first, second = scenario["variants"]
    assert (first["label"], second["label"]) == ("lp_limit=4", "lp_limit=6")
    mars_wins = _count(results, "SELECT COUNT(*) FROM games WHERE variant = 0 AND winner = 'Mars'")
    draws = _count(results, "SELECT COUNT(*) FROM games WHERE variant = 0 AND winner IS NULL")
    assert first["sides"]["Mars"]["wins"] == mars_wins
    assert first["draws"] == draws
    assert first["games"] == 40
    interval = wilson_interval(mars_wins, 40)
    assert first["sides"]["Mars"]["interval"] == [
        round(interval.low, 4),
        round(interval.high, 4),
    ]
    mean_turns = _count(results, "SELECT AVG(turns) FROM games WHERE variant = 0")
    assert first["turns"]["mean"] == pytest.approx(mean_turns, abs=1e-4)
    damage = _count(results, "SELECT AVG(damage_a * 1.0 / turns) FROM games WHERE variant = 0")
    assert first["sides"]["Mars"]["damage_per_turn"] == pytest.approx(damage, abs=1e-4)
    # the cumulative damage by turn ends at the mean total damage
    assert first["sides"]["Mars"]["damage_by_turn"][-1] == pytest.approx(
        first["sides"]["Mars"]["damage_mean"], abs=1e-3
    )


def test_the_report_compares_the_variants_with_a_test(results):
    with Store.read(results) as store:
        (scenario,) = build_report(store)["scenarios"]
    mars = next(c for c in scenario["comparisons"] if c["side"] == "Mars")
    wins_1 = scenario["variants"][0]["sides"]["Mars"]["wins"]
    wins_2 = scenario["variants"][1]["sides"]["Mars"]["wins"]
    test = two_proportion_test(wins_1, 40, wins_2, 40)
    assert mars["p_value"] == pytest.approx(test.p_value, abs=1e-6)
    assert mars["difference"] == pytest.approx((wins_2 - wins_1) / 40, abs=1e-4)
    assert mars["significant"] == (test.p_value < 0.05)


def test_the_report_says_which_unit_classes_die_and_win(results):
    with Store.read(results) as store:
        (scenario,) = build_report(store)["scenarios"]
    rows = {(r["class"], r["side"]): r for r in scenario["variants"][0]["unit_classes"]}
    assert set(rows) == {("cruiser", "Mars"), ("cruiser", "Ares"), ("fighter", "Ares")}
    lost = _count(
        results,
        "SELECT SUM(u.lost) FROM units u JOIN games g ON g.id = u.game_id "
        "WHERE g.variant = 0 AND u.unit_class = 'fighter'",
    )
    assert rows[("fighter", "Ares")]["lost"] == lost
    assert rows[("fighter", "Ares")]["fielded"] == 40


def test_report_command_writes_json_html_and_plots(results, tmp_path, capsys):
    page = tmp_path / "report.html"
    code = cli.main(["lab", "report", str(results), "--json", "--html", str(page)])
    assert code == 0
    document = json.loads(capsys.readouterr().out)
    assert document["games"] == 80
    plots = [tmp_path / "report-1-win-rates.png", tmp_path / "report-1-damage.png"]
    assert document["written"] == [str(page), *map(str, plots)]
    html = page.read_text(encoding="utf-8")
    assert "Win rates" in html and "lp_limit=6" in html and 'src="report-1-win-rates.png"' in html
    for plot in plots:
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # nothing is replaced without --force
    before = page.read_bytes()
    assert cli.main(["lab", "report", str(results), "--html", str(page)]) == 2
    assert "exists; give --force" in capsys.readouterr().err
    assert page.read_bytes() == before


def test_report_text_reads_as_sentences(results, capsys):
    assert cli.main(["lab", "report", str(results)]) == 0
    out = capsys.readouterr().out
    assert "Variant lp_limit=6: 40 games" in out
    assert "Mars wins" in out and "95%" in out
    for code_word in ("None", "True", "False", "_rate", "{"):
        assert code_word not in out


def test_report_of_a_foreign_file_is_refused(tmp_path, capsys):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    assert cli.main(["lab", "report", str(other)]) == 2
    assert "made by another program" in capsys.readouterr().err
    assert cli.main(["lab", "report", str(tmp_path / "missing.sqlite")]) == 2
    assert "no such results file" in capsys.readouterr().err


@pytest.fixture(scope="module")
def frigates(tmp_path_factory):
    """12 scripted games on the Dystopian Wars map, whose units are the map's own: three
    Attacker Class Frigates sharing a name among them."""
    from lab_scripted_games import map_units_game

    from tactical.io import builtin_map
    from tactical.lab.specs import build_spec

    spec = build_spec(builtin_map("dystopian-wars"), 12, ("greedy", "random"))
    db = tmp_path_factory.mktemp("lab") / "frigates.sqlite"
    with Store.open(db) as store:
        run_games(spec, store, LocalPool(1, map_units_game, "fork"), 2, False)
    return db


def test_units_sharing_a_name_are_one_class_and_each_its_own_row_by_its_shown_name(frigates):
    """The class table groups the three frigates (a group: 36 fielded in 12 games); the unit
    table gives each its own row under the name the play screen shows ("Attacker Class
    Frigate 2"), with its own losses."""
    with Store.read(frigates) as store:
        (scenario,) = build_report(store)["scenarios"]
    (variant,) = scenario["variants"]
    classes = {(r["class"], r["side"]): r for r in variant["unit_classes"]}
    assert classes[("Attacker Class Frigate", "A")]["fielded"] == 36
    rows = {r["id"]: r for r in variant["units"]}
    for number in (1, 2, 3):
        row = rows[f"attacker-{number}"]
        assert row["unit"] == f"Attacker Class Frigate {number}"
        assert (row["class"], row["side"], row["fielded"]) == ("Attacker Class Frigate", "A", 12)
        lost = _count(frigates, f"SELECT SUM(lost) FROM units WHERE unit_id = 'attacker-{number}'")
        assert row["lost"] == lost
    assert rows["ruler"]["unit"] == "Ruler Class Battleship"  # a unique name: no number
    assert [r["id"] for r in variant["units"]][:3] == ["ruler", "tribal-1", "tribal-2"]
    assert (
        sum(rows[f"attacker-{n}"]["lost"] for n in (1, 2, 3))
        == (classes[("Attacker Class Frigate", "A")]["lost"])
    )


def test_text_and_html_name_each_unit_as_the_play_screen_does(frigates, tmp_path, capsys):
    assert cli.main(["lab", "report", str(frigates)]) == 0
    out = capsys.readouterr().out
    assert "by unit class (every unit of a class counted together" in out
    assert "by unit (each unit of the map on its own" in out
    for number in (1, 2, 3):
        assert f"      Attacker Class Frigate {number} (A): lost in " in out
    page = tmp_path / "report.html"
    assert cli.main(["lab", "report", str(frigates), "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "<td>Attacker Class Frigate 2</td>" in html
    assert "By unit class: every unit of a class counted together" in html
    for text in (out, html):
        assert "attacker-2" not in text
