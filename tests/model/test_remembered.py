"""`remembered`: what was made of an immutable value, kept by the value's identity."""

from tactical.model.frozen import remembered


def test_the_same_value_is_made_once_and_an_equal_other_value_again():
    made: list[tuple] = []
    memo: dict = {}

    def make(value: tuple) -> list:
        made.append(value)
        return [len(made)]

    value, equal = (1, 2), tuple([1, 2])
    first = remembered(memo, value, make, 8)
    assert remembered(memo, value, make, 8) is first
    assert remembered(memo, equal, make, 8) == [2]  # equal, not the same: made anew
    assert made == [(1, 2), (1, 2)]


def test_the_memo_starts_again_when_full():
    memo: dict = {}
    values = [(n,) for n in range(3)]
    for value in values:
        remembered(memo, value, list, 2)
    assert len(memo) == 1
    assert memo[id(values[2])] == (values[2], [2])
