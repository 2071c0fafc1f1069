"""Critical effects as a player reads them: their names and what they do.

The rules keep a critical effect as a code in `rule_state` and in events (saves and
logs keep the codes): `critical-N`, the Critical Hit Table's entry for a 2D6 total of
N (the table itself is the rulebook's, external: G.5, R002.1), and the three effects
T002.7 names (Chaos and Disarray, Shredded Defences, the Hard Pounding Critical Hit,
A002.12). Everything a player reads names them as below instead.
"""

from __future__ import annotations

from tactical.rules.dystopian_wars.tables import (
    CHAOS_AND_DISARRAY,
    HARD_POUNDING,
    SHREDDED_DEFENCES,
)

CRITICAL_PREFIX = "critical-"  # `dicework.critical_code`: the table's entry for a 2D6 total

# T002.7 / A002.12: the effects the booklet names, and what each does on the table
NAMED: dict[str, tuple[str, str]] = {
    CHAOS_AND_DISARRAY: (
        "Chaos and Disarray",
        "its effect only, no Damage, until the End Phase (T002.7)",
    ),
    SHREDDED_DEFENCES: (
        "Shredded Defences",
        "its effect only, no Damage, until the End Phase (T002.7)",
    ),
    HARD_POUNDING: (
        "Hard Pounding",
        "a full Critical Hit, its effect and its Damage, until repaired (T002.7, A002.12)",
    ),
}


def table_total(code: str) -> int | None:
    """The 2D6 total of a Critical Hit Table code (`critical-7` -> 7), else None."""
    number = code.removeprefix(CRITICAL_PREFIX)
    if code.startswith(CRITICAL_PREFIX) and number.isdigit() and 2 <= int(number) <= 12:
        return int(number)
    return None


def is_critical(code: object) -> bool:
    """Whether `code` is a critical effect's code (a table entry or a named effect)."""
    return isinstance(code, str) and (code in NAMED or table_total(code) is not None)


def critical_name(code: str) -> str:
    """The name a player reads: "Critical Hit Table 7", "Chaos and Disarray"; any other
    code as it is."""
    total = table_total(code)
    if total is not None:
        return f"Critical Hit Table {total}"
    named = NAMED.get(code)
    return named[0] if named is not None else code


def critical_effect(code: str) -> str:
    """What the effect does, in words ("" for a code that is no critical effect)."""
    total = table_total(code)
    if total is not None:
        return (
            f"the rulebook's effect for a 2D6 roll of {total} on its Critical Hit Table, "
            "until repaired (R002.1, R002.19)"
        )
    named = NAMED.get(code)
    return named[1] if named is not None else ""


def critical_lasts(code: str) -> str:
    """How long the effect lasts: "until repaired" (a Critical Hit, R002.19) or "until the
    End Phase" (Chaos and Disarray, Shredded Defences: T002.7)."""
    return (
        "until the End Phase"
        if code in (CHAOS_AND_DISARRAY, SHREDDED_DEFENCES)
        else ("until repaired")
    )


def critical_words(code: str) -> str:
    """Name and effect: "Chaos and Disarray: its effect only, no Damage, until the End
    Phase (T002.7)"."""
    effect = critical_effect(code)
    return f"{critical_name(code)}: {effect}" if effect else critical_name(code)
