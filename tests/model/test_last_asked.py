"""`last_asked`: what was made of the last value asked, kept by that value's identity."""

from tactical.model.frozen import last_asked


def test_the_last_value_asked_again_is_not_made_again():
    made: list[tuple] = []

    def make(value: tuple) -> list:
        made.append(value)
        return [len(made)]

    remembered = last_asked(make)
    value = (1, 2)
    first = remembered(value)
    assert first == [1]
    assert remembered(value) is first
    assert made == [(1, 2)]


def test_an_equal_other_value_or_an_earlier_one_is_made_again():
    made: list[tuple] = []

    def make(value: tuple) -> list:
        made.append(value)
        return [len(made)]

    remembered = last_asked(make)
    value, equal, other = (1, 2), tuple([1, 2]), (3,)
    remembered(value)
    assert remembered(equal) == [2]  # equal, not the same: made anew
    assert remembered(other) == [3]
    assert remembered(value) == [4]  # only the last value is kept
    assert made == [(1, 2), (1, 2), (3,), (1, 2)]


def test_none_is_a_value_like_any_other():
    remembered = last_asked(lambda value: ("made", value))
    assert remembered(None) == ("made", None)
    assert remembered(None) is remembered(None)
