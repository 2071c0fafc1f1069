"""The setup panel's words on how fair the table is, in a player's words.

The figure (1: fair), who it favours, and every part of it: how much of each zone is safe
on turn one, how much of the table each zone sees, the lanes blocked and the symmetry
(`tactical.threat.fairness`, R002.9). No pygame: the setup panel
(tactical.ui.setup_mode) shows the text.
"""

from __future__ import annotations

from tactical.threat.fairness import FairnessScore, possessive


def fairness_html(score: FairnessScore, default_zones: bool) -> str:
    """The panel's text: the figure, who it favours and every part, in a player's words."""
    a, b = score.sides
    who = "favours neither side" if score.favours is None else f"favours {score.favours}"
    lines = [
        f"<b>{score.fairness:.2f}</b> of 1: {who}",
        f"Safe on turn one: {a.side} {a.cover:.0%} of its zone, {b.side} {b.cover:.0%}",
        f"Table seen from the zone: {a.side} {a.visibility:.0%}, {b.side} {b.visibility:.0%}",
        f"Lanes blocked: {score.lanes:.0%} ({possessive(a.side)} half {a.lanes:.0%}, "
        f"{possessive(b.side)} {b.lanes:.0%})",
        f"Symmetry: {score.symmetry:.2f} (0: the same from either side)",
        "Red: the enemy can hit there on turn one; green: it cannot",
    ]
    if default_zones:
        lines.append(f"Zones until the roll-off: {a.side} {a.edge}, {b.side} {b.edge}")
    return "<br>".join(lines)
