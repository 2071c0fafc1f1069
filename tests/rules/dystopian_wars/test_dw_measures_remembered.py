"""Table questions Dystopian Wars remembers (GEO002.7, GEO002.11, R002.52): each remembered
answer equals the one worked out afresh, and a model moved is asked again."""

from __future__ import annotations

from dw_builders import flyer, unit

from tactical.geometry.arcs_spec import AFT, FORE
from tactical.model import Pose
from tactical.rules.dystopian_wars import measures


def test_GEO002_7_an_arc_remembered_is_the_arc_measured_and_a_moved_target_is_measured():
    ship = unit("a", 20, 10)  # heading 0: its fore arc looks along +y
    ahead = unit("t", 20, 20, "B")
    assert measures.in_weapon_arc(ship, FORE, ahead) is True
    assert measures.in_weapon_arc(ship, AFT, ahead) is False
    assert measures.in_weapon_arc(ship, FORE, ahead) is True  # remembered: the same answer
    behind = ahead.moved_to(Pose(20, 0, 0.0))  # a new model object, now astern
    assert measures.in_weapon_arc(ship, FORE, behind) is False
    assert measures.in_weapon_arc(ship, AFT, behind) is True
    turned = ship.moved_to(Pose(20, 10, 180.0))  # the attacker turned about
    assert measures.in_weapon_arc(turned, FORE, behind) is True
    assert measures.in_weapon_arc(turned, FORE, ahead) is False


def wing(*xs: float) -> tuple:
    return tuple(flyer(f"f{k}", x, 10) for k, x in enumerate(xs))


def test_GEO002_11_a_wing_asked_again_by_its_values_gets_the_answer_worked_out():
    touching = wing(10, 11, 12)  # 1" round stands (1" across), edge to edge in a line
    assert measures.contact_graph_connected(touching) is True
    apart = wing(10, 11, 20)
    assert measures.contact_graph_connected(apart) is False
    # the same Wing made again (new objects, equal values): the same answers
    assert measures.contact_graph_connected(wing(10, 11, 20)) is False
    assert measures.contact_graph_connected(list(wing(10, 11, 12))) is True  # any sequence
    assert measures.contact_graph_connected(touching[:1]) is True


def test_R002_52_the_flyers_removable_from_a_wing_are_remembered_by_its_values():
    line = wing(10, 11, 12)
    # only an end of the line may go: the middle one holds it together
    assert measures.removable_for_formation(line) == ("f0", "f2")
    again = wing(10, 11, 12)
    assert measures.removable_for_formation(again) is measures.removable_for_formation(line)
    assert measures._removable.__wrapped__(again) == ("f0", "f2")  # as worked out afresh
    closed = wing(10, 11, 10.5)  # f2 sits between and touches both: any one may go
    assert measures.removable_for_formation(closed) == ("f0", "f1", "f2")
