"""The map loader's depth test (`_nests_deeper`) answers as `nesting_problem` does, at the
limit and one past it, in arrays and in tables: only then is the path asked for."""

from __future__ import annotations

import tomllib

import pytest

from tactical.errors import UserError
from tactical.io.limits import MAX_DEPTH, nesting_problem
from tactical.io.maps import _nests_deeper, read_toml_document


def _arrays(depth: int) -> str:
    return "a = " + "[" * depth + "1" + "]" * depth + "\n"


def _tables(depth: int) -> str:
    return "a = " + "{b = " * depth + "1" + "}" * depth + "\n"


@pytest.mark.parametrize("write", [_arrays, _tables])
@pytest.mark.parametrize("depth", [MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 5])
def test_the_depth_test_agrees_with_the_path_finder(write, depth):
    document = tomllib.loads(write(depth) + 'b = [1, {c = [2]}]\n[t]\nx = "y"\n')
    assert _nests_deeper(document) == (nesting_problem(document) is not None)
    # the key "a" is depth 1, each array or table one more
    assert _nests_deeper(document) == (depth + 1 > MAX_DEPTH)


def test_a_map_one_level_too_deep_is_refused_with_its_line():
    with pytest.raises(UserError, match="nested no more than 32 levels"):
        read_toml_document("x = 1\n" + _arrays(MAX_DEPTH), "deep.toml")
