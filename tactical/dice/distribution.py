"""Exact distributions: outcomes with exact `Fraction` probabilities (docs/architecture.md
"Odds come from the same code"), what the exact enumerator (`tactical.dice.exact`) returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import Any, Generic, TypeVar

T = TypeVar("T")
U = TypeVar("U")

ONE = Fraction(1)


@dataclass(frozen=True)
class Distribution(Generic[T]):
    """Outcomes with exact probabilities, in a fixed order (first reached first, or sorted)."""

    pairs: tuple[tuple[T, Fraction], ...]

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        return cls(((outcome, ONE),))

    @classmethod
    def from_weights(cls, weights: Iterable[tuple[T, Fraction | int]]) -> Distribution[T]:
        """Merge equal outcomes and normalise the weights to probabilities (in integers over
        the weights' least common denominator: one Fraction an outcome)."""
        found = [
            (outcome, weight if isinstance(weight, int | Fraction) else Fraction(weight))
            for outcome, weight in weights
        ]
        common = lcm(*(weight.denominator for _, weight in found))
        merged: dict[Any, int] = {}
        for outcome, weight in found:
            share = weight.numerator * (common // weight.denominator)
            merged[outcome] = merged.get(outcome, 0) + share
        total = sum(merged.values())  # 0 when there are no weights
        if total <= 0:
            raise ValueError("a distribution needs a positive total weight")
        made = cls(tuple((outcome, Fraction(weight, total)) for outcome, weight in merged.items()))
        made.__dict__["_shares"] = total, tuple(merged.values())  # known: not found again
        return made

    def __iter__(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    @property
    def outcomes(self) -> tuple[T, ...]:
        return tuple(outcome for outcome, _ in self.pairs)

    def as_dict(self) -> dict[T, Fraction]:
        return dict(self.pairs)

    @property
    def total(self) -> Fraction:
        return exact_sum(p for _, p in self.pairs)

    def probability(self, outcome: T) -> Fraction:
        """P(outcome); 0 for an outcome that cannot happen."""
        for candidate, p in self.pairs:
            if candidate == outcome:
                return p
        return Fraction(0)

    @cached_property
    def _shares(self) -> tuple[int, tuple[int, ...]]:
        """The probabilities as integers over a common denominator (their least, unless
        made from weights), made once (a report reads one distribution many ways): exact,
        without Fraction arithmetic."""
        common = lcm(*(p.denominator for _, p in self.pairs))
        return common, tuple(p.numerator * (common // p.denominator) for _, p in self.pairs)

    def where(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(outcome))."""
        common, shares = self._shares
        found = (share for (o, _), share in zip(self.pairs, shares, strict=True) if predicate(o))
        return Fraction(sum(found), common)

    def map(self, fn: Callable[[T], U]) -> Distribution[U]:
        """The distribution of fn(outcome), equal images merged (first-reached order kept)."""
        common, shares = self._shares
        merged: dict[Any, int] = {}
        get = merged.get
        for (outcome, _), share in zip(self.pairs, shares, strict=True):
            image = fn(outcome)
            merged[image] = get(image, 0) + share
        if sum(merged.values()) != common:  # not a whole distribution: normalised
            return Distribution.from_weights((fn(outcome), p) for outcome, p in self.pairs)
        return Distribution(tuple((image, Fraction(n, common)) for image, n in merged.items()))

    def expected(self, fn: Callable[[T], Fraction | int] | None = None) -> Fraction:
        """E[fn(outcome)] (E[outcome] for numeric outcomes)."""
        value = fn or (lambda outcome: outcome)
        # over the probabilities' common denominator: whole values in integers
        common, shares = self._shares
        whole, other = 0, Fraction(0)
        for (outcome, _), share in zip(self.pairs, shares, strict=True):
            found = value(outcome)
            if type(found) is int or type(found) is bool:
                whole += found * share
            else:
                other += Fraction(found) * share
        return (whole + other) / common

    def sorted(self, key: Callable[[T], Any] | None = None) -> Distribution[T]:
        order = key or (lambda outcome: outcome)
        return Distribution(tuple(sorted(self.pairs, key=lambda pair: order(pair[0]))))

    def rows(self, name: str = "outcome") -> list[dict[str, Any]]:
        """JSON rows: {name: outcome, "probability": "a/b", "percent": float}."""
        return [
            {name: outcome, "probability": fraction_text(p), "percent": percent(p)}
            for outcome, p in self.pairs
        ]


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum of fractions, over their least common denominator: one gcd per term
    instead of the normalisation of every partial sum."""
    found = tuple(values)
    common = lcm(*(value.denominator for value in found))
    return Fraction(sum(value.numerator * (common // value.denominator) for value in found), common)


def fraction_text(value: Fraction) -> str:
    """'3/10', '1' or '0': exact and JSON-safe."""
    value = Fraction(value)
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def percent(value: Fraction, places: int = 4) -> float:
    """A probability as a percentage, rounded for display (the fraction stays exact)."""
    return round(float(Fraction(value) * 100), places)
