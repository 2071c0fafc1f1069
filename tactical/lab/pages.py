"""The report in words: plain text for the terminal and an HTML page with the plots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

TERRAIN_WORDS = {"map": "the map's terrain", "random": "random terrain (R002.9) per pair of games"}
CLASS_WORDS = (
    "every unit of a class counted together, over all games; a unit whose stats name no "
    "class counts by its name"
)
UNIT_WORDS = "each unit of the map on its own, named as on the play screen"


def _p_cell(p_value: float) -> str:
    return p_text(p_value).removeprefix("p = ").removeprefix("p ")


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def interval_text(interval: Sequence[float]) -> str:
    return f"{percent(interval[0])} to {percent(interval[1])}"


def p_text(p_value: float) -> str:
    """ "p = 0.0123" or "p < 0.0001"."""
    return "p < 0.0001" if p_value < 1e-4 else f"p = {p_value:.4f}"


def players_text(scenario: Mapping[str, Any]) -> str:
    one, two = scenario["players"]
    if one == two:
        return f"the {one} AI on both sides"
    return f"{one} AI against {two} AI, seats swapped every game"


def verdict(comparison: Mapping[str, Any]) -> str:
    if comparison["significant"]:
        return "a real difference (p < 0.05)"
    return "no significant difference (p ≥ 0.05)"


def fairness_text(variant: Mapping[str, Any], sides: Sequence[str]) -> str:
    fair = variant["fairness"]
    first = variant["sides"][sides[0]]["wins"]
    p = fair["p_value"]
    if not fair["decisive_games"]:
        return "no decisive game: nothing to judge fairness by"
    split = f"{first} of {fair['decisive_games']} decisive games to {sides[0]}"
    if p < 0.05:
        return f"unbalanced: {split}, binomial {p_text(p)}"
    return f"no evidence of imbalance: {split}, binomial {p_text(p)}"


# --------------------------------------------------------------------------- text


def text_report(report: Mapping[str, Any]) -> str:
    lines = [f"{report['db']}: {report['games']} games"]
    for scenario in report["scenarios"]:
        sides = scenario["sides"]
        lines += [
            "",
            f"{scenario['heading']} ({scenario['rules']}): {sides[0]} against {sides[1]}, "
            f"{players_text(scenario)}, {TERRAIN_WORDS.get(scenario['terrain'], '')}",
        ]
        for variant in scenario["variants"]:
            turns = variant["turns"]
            lines.append(f"  Variant {variant['label']}: {variant['games']} games")
            for side in sides:
                figures = variant["sides"][side]
                lines.append(
                    f"    {side} wins {percent(figures['win_rate'])} "
                    f"(95% {interval_text(figures['interval'])}), "
                    f"damage {figures['damage_mean']:.2f} ({figures['damage_per_turn']:.2f} a "
                    f"turn), lost {percent(figures['strength_lost_mean'])} of its strength "
                    f"({figures['units_lost_mean']:.2f} units a game)"
                )
            lines.append(f"    draws {percent(variant['draw_rate'])}")
            lines.append(f"    {fairness_text(variant, sides)}")
            lines.append(
                f"    length: {turns['mean']:.2f} turns on average "
                f"(median {turns['median']:g}, {turns['min']} to {turns['max']})"
            )
            ends = ", ".join(
                f"{reason} ({_games(count)})" for reason, count in variant["reasons"].items()
            )
            lines.append(f"    how games ended: {ends}")
            lines.append(f"    by unit class ({CLASS_WORDS}):")
            for row in variant["unit_classes"]:
                lines.append(
                    f"      {row['class']} ({row['side']}): {row['lost']} of {row['fielded']} "
                    f"fielded lost ({percent(row['loss_rate'])}), its side won "
                    f"{percent(row['side_win_rate'])}"
                )
            lines.append(f"    by unit ({UNIT_WORDS}):")
            for row in variant["units"]:
                lines.append(
                    f"      {row['unit']} ({row['side']}): lost in {row['lost']} of "
                    f"{_games(row['fielded'])} ({percent(row['loss_rate'])}, 95% "
                    f"{interval_text(row['loss_interval'])})"
                )
        for comparison in scenario["comparisons"]:
            lines.append(
                f"  {comparison['side']} wins {percent(comparison['win_rate'])} with "
                f"{comparison['variant']} against {percent(comparison['against_win_rate'])} with "
                f"{comparison['against']}: {comparison['difference'] * 100:+.1f} points "
                f"(95% {comparison['interval'][0] * 100:+.1f} to "
                f"{comparison['interval'][1] * 100:+.1f}), z = {comparison['z']:.2f}, "
                f"{p_text(comparison['p_value'])}: {verdict(comparison)}"
            )
    return "\n".join(lines)


# --------------------------------------------------------------------------- html

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 62em;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em; }
h3 { font-size: 1.1em; margin-bottom: .3em; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border-bottom: 1px solid #ddd; padding: .25em .5em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f3f3f3; }
.note { color: #555; }
td.words, th.words { text-align: left; }
.yes { color: #a11; font-weight: 600; } .no { color: #286; }
img { max-width: 100%; border: 1px solid #ddd; margin: .5em 0; }
"""


def html_report(report: Mapping[str, Any], plots: Sequence[Sequence[str]]) -> str:
    """The page; `plots[n]` are the file names of scenario n's plots (beside the page)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Balance lab report</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>Balance lab report</h1>",
        f'<p class="note">{escape(str(report["db"]))}: {report["games"]} games.</p>',
    ]
    for number, scenario in enumerate(report["scenarios"]):
        parts += _scenario_html(scenario, plots[number] if number < len(plots) else ())
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _scenario_html(scenario: Mapping[str, Any], plots: Sequence[str]) -> list[str]:
    sides = scenario["sides"]
    parts = [
        f"<h2>{escape(scenario['heading'])} <small>({escape(scenario['rules'])})</small></h2>",
        f"<p>{escape(sides[0])} against {escape(sides[1])}; {escape(players_text(scenario))}; "
        f"{escape(TERRAIN_WORDS.get(scenario['terrain'], ''))}.</p>",
        "<h3>Win rates</h3>",
        "<table><tr><th>Variant</th><th>Games</th>"
        + "".join(f"<th>{escape(s)} wins</th><th>95% interval</th>" for s in sides)
        + '<th>Draws</th><th class="words">Fair?</th></tr>',
    ]
    for variant in scenario["variants"]:
        cells = "".join(
            f"<td>{percent(variant['sides'][s]['win_rate'])}</td>"
            f"<td>{interval_text(variant['sides'][s]['interval'])}</td>"
            for s in sides
        )
        parts.append(
            f"<tr><td>{escape(variant['label'])}</td><td>{variant['games']}</td>{cells}"
            f"<td>{percent(variant['draw_rate'])}</td>"
            f'<td class="words">{escape(fairness_text(variant, sides))}</td></tr>'
        )
    parts.append("</table>")
    if scenario["comparisons"]:
        parts += [
            "<h3>Between the variants</h3>",
            "<table><tr><th>Side</th><th>Change</th><th>Win rate</th><th>Difference</th>"
            '<th>95% interval</th><th>z</th><th>p</th><th class="words">Verdict</th></tr>',
        ]
        for c in scenario["comparisons"]:
            css = "yes" if c["significant"] else "no"
            parts.append(
                f"<tr><td>{escape(c['side'])}</td>"
                f"<td>{escape(c['against'])} → {escape(c['variant'])}</td>"
                f"<td>{percent(c['against_win_rate'])} → {percent(c['win_rate'])}</td>"
                f"<td>{c['difference'] * 100:+.1f} points</td>"
                f"<td>{c['interval'][0] * 100:+.1f} to {c['interval'][1] * 100:+.1f}</td>"
                f"<td>{c['z']:.2f}</td><td>{escape(_p_cell(c['p_value']))}</td>"
                f'<td class="words {css}">{escape(verdict(c))}</td></tr>'
            )
        parts.append("</table>")
        parts.append(
            '<p class="note">Two-proportion z test (pooled, two-sided) with the Newcombe 95% '
            "interval of the difference; each win rate with its Wilson 95% interval.</p>"
        )
    for name in plots:
        parts.append(f'<img src="{escape(name)}" alt="{escape(name)}">')
    parts += [
        "<h3>Game length and damage</h3>",
        "<table><tr><th>Variant</th><th>Turns (mean)</th><th>Median</th><th>Range</th>"
        + "".join(
            f"<th>{escape(s)} damage</th><th>a turn</th><th>strength lost</th><th>units lost</th>"
            for s in sides
        )
        + "</tr>",
    ]
    for variant in scenario["variants"]:
        turns = variant["turns"]
        cells = "".join(
            f"<td>{variant['sides'][s]['damage_mean']:.2f}</td>"
            f"<td>{variant['sides'][s]['damage_per_turn']:.2f}</td>"
            f"<td>{percent(variant['sides'][s]['strength_lost_mean'])}</td>"
            f"<td>{variant['sides'][s]['units_lost_mean']:.2f}</td>"
            for s in sides
        )
        parts.append(
            f"<tr><td>{escape(variant['label'])}</td><td>{turns['mean']:.2f}</td>"
            f"<td>{turns['median']:g}</td><td>{turns['min']} to {turns['max']}</td>{cells}</tr>"
        )
    parts.append("</table>")
    parts.append("<h3>Which die, which win</h3>")
    for variant in scenario["variants"]:
        parts += [
            f"<p>Variant {escape(variant['label'])}; how games ended: "
            + escape(", ".join(f"{r} ({_games(n)})" for r, n in variant["reasons"].items()))
            + ".</p>",
            f'<p class="note">By unit class: {escape(CLASS_WORDS)}.</p>',
            "<table><tr><th>Class</th><th>Side</th><th>Fielded</th><th>Lost</th>"
            "<th>95% interval</th><th>Its side won</th></tr>",
        ]
        for row in variant["unit_classes"]:
            parts.append(
                f"<tr><td>{escape(row['class'])}</td><td>{escape(row['side'])}</td>"
                f"<td>{row['fielded']}</td><td>{percent(row['loss_rate'])}</td>"
                f"<td>{interval_text(row['loss_interval'])}</td>"
                f"<td>{percent(row['side_win_rate'])}</td></tr>"
            )
        parts.append("</table>")
        parts += [
            f'<p class="note">By unit: {escape(UNIT_WORDS)}.</p>',
            '<table><tr><th>Unit</th><th>Side</th><th class="words">Class</th><th>Games</th>'
            "<th>Lost</th><th>95% interval</th></tr>",
        ]
        for row in variant["units"]:
            parts.append(
                f"<tr><td>{escape(row['unit'])}</td><td>{escape(row['side'])}</td>"
                f'<td class="words">{escape(row["class"])}</td>'
                f"<td>{row['fielded']}</td><td>{percent(row['loss_rate'])}</td>"
                f"<td>{interval_text(row['loss_interval'])}</td></tr>"
            )
        parts.append("</table>")
    return parts
