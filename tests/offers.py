"""Parameter sets for checking that what a rule system offers, it accepts (issue 6)."""

from __future__ import annotations

from tactical.model import FrozenMap
from tactical.rules.base import ActionChoice
from tactical.session import autoplay


def variants(choice: ActionChoice) -> list[FrozenMap]:
    """The stand-in's parameters, then each listed value and each bound of each field."""
    first = dict(next(iter(autoplay.candidate_params(choice))))
    found = [FrozenMap(first)]
    for spec in choice.fields:
        for value in spec.choices or ():
            if first.get(spec.name) != value:
                found.append(FrozenMap({**first, spec.name: value}))
        if spec.kind == "int" and spec.low is not None and spec.high is not None:
            found.extend(FrozenMap({**first, spec.name: int(v)}) for v in (spec.low, spec.high))
    return found
