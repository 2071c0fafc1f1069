"""The report's plots (matplotlib, drawn off screen with the Agg backend) as PNG files.

- win rates: per scenario, each variant's win rate of each side with its Wilson 95%
  interval as error bars, and the draws;
- damage over turns: the mean cumulative damage each side had dealt by the end of each
  turn, one line per variant and side.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: never a window

import matplotlib.pyplot as plt

WIDTH, HEIGHT, DPI = 8.0, 4.5, 110
SIDE_COLOURS = ("#1f5fa8", "#c0392b")
DRAW_COLOUR = "#7f7f7f"
LINE_STYLES = ("-", "--", ":", "-.")


def win_rate_figure(scenario: Mapping[str, Any]) -> Any:
    """Each variant's win rate per side with the Wilson 95% interval, and the draw rate."""
    variants = scenario["variants"]
    sides = scenario["sides"]
    figure, axes = plt.subplots(figsize=(WIDTH, HEIGHT), dpi=DPI)
    spread = 0.22
    for index, side in enumerate(sides):
        xs = [v + (index - 0.5) * spread for v in range(len(variants))]
        rates = [variant["sides"][side]["win_rate"] for variant in variants]
        intervals = [variant["sides"][side]["interval"] for variant in variants]
        lows = [r - low for r, (low, _) in zip(rates, intervals, strict=True)]
        highs = [high - r for r, (_, high) in zip(rates, intervals, strict=True)]
        axes.errorbar(
            xs,
            rates,
            yerr=[lows, highs],
            fmt="o",
            capsize=6,
            markersize=8,
            color=SIDE_COLOURS[index % len(SIDE_COLOURS)],
            label=f"{side} wins",
        )
        for x, rate in zip(xs, rates, strict=True):
            axes.annotate(
                f"{rate:.0%}", (x, rate), textcoords="offset points", xytext=(10, -4), fontsize=9
            )
    draws = [variant["draw_rate"] for variant in variants]
    axes.scatter(range(len(variants)), draws, marker="_", s=300, color=DRAW_COLOUR, label="draws")
    axes.axhline(0.5, color="#444444", linewidth=0.8, linestyle=":")
    axes.set_xticks(range(len(variants)), [f"{v['label']}\n({v['games']} games)" for v in variants])
    axes.set_xlim(-0.6, len(variants) - 0.4)
    axes.set_ylim(0, 1)
    axes.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    axes.set_ylabel("games won (Wilson 95% interval)")
    axes.set_title(f"{scenario['heading']}: win rate per variant")
    axes.legend(loc="upper right", fontsize=9)
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return figure


def damage_figure(scenario: Mapping[str, Any]) -> Any:
    """The mean cumulative damage dealt by the end of each turn, per variant and side."""
    figure, axes = plt.subplots(figsize=(WIDTH, HEIGHT), dpi=DPI)
    for v_index, variant in enumerate(scenario["variants"]):
        style = LINE_STYLES[v_index % len(LINE_STYLES)]
        for s_index, side in enumerate(scenario["sides"]):
            series = variant["sides"][side]["damage_by_turn"]
            axes.plot(
                range(1, len(series) + 1),
                series,
                linestyle=style,
                marker="o",
                markersize=4,
                color=SIDE_COLOURS[s_index % len(SIDE_COLOURS)],
                label=f"{side}, {variant['label']}",
            )
    axes.set_xlabel("turn")
    axes.set_ylabel("damage dealt by the end of the turn (mean)")
    axes.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    axes.set_ylim(bottom=0)
    axes.set_title(f"{scenario['heading']}: damage over turns")
    axes.legend(fontsize=9)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    return figure


def png_bytes(figure: Any) -> bytes:
    from io import BytesIO

    buffer = BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    return buffer.getvalue()


def plot_files(report: Mapping[str, Any], stem: Path) -> list[tuple[Path, bytes]]:
    """Both plots of every scenario as `<stem>-<n>-win-rates.png` and `-damage.png`: each
    path with its PNG, in order (drawn in memory; `files.write_files` writes them)."""
    drawn = []
    for number, scenario in enumerate(report["scenarios"], start=1):
        for kind, draw in (("win-rates", win_rate_figure), ("damage", damage_figure)):
            drawn.append((plot_path(stem, number, kind), png_bytes(draw(scenario))))
    return drawn


def plot_path(stem: Path, number: int, kind: str) -> Path:
    return stem.with_name(f"{stem.name}-{number}-{kind}.png")
