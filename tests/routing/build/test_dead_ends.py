"""The build's closing of dead-end gaps: a lane that stops short of another is joined to it by a
straight leg over water, never over land, never back onto its own lane, never from a port's
berth, and a lane ending on an edge becomes a junction there."""

from __future__ import annotations

from typing import cast

import numpy as np
import numpy.typing as npt
import pytest

from sealane.routing.build.coast import Coastline
from sealane.routing.build.deadends import close_dead_ends
from sealane.routing.build.lanegraph import LaneGraph
from sealane.routing.geodesy import distance_m


class StripCoast:
    """A coastline that is water everywhere except a band of latitudes (a stand-in for
    :class:`Coastline`: the step only asks it ``is_land``)."""

    def __init__(self, south: float = 1.0, north: float = 1.0) -> None:
        self.south, self.north = south, north

    def is_land(self, lon: npt.ArrayLike, lat: npt.ArrayLike) -> np.ndarray:
        y = np.asarray(lat, dtype=np.float64)
        return np.asarray((y > self.south) & (y < self.north))


def coast(south: float = 1.0, north: float = 1.0) -> Coastline:
    return cast(Coastline, StripCoast(south, north))


def lane_and_crossing_lane(gap_deg: float = 0.004) -> tuple[LaneGraph, int]:
    """A lane running north in the open Atlantic that stops ``gap_deg`` of latitude short of a
    lane running east (about 445 m for the default); returns the graph and the dead end."""
    net = LaneGraph()
    south = net.add_node(-30.0, 0.0)
    end = net.add_node(-30.0, 0.1)
    net.add_edge(south, end)
    west = net.add_node(-30.1, 0.1 + gap_deg)
    east = net.add_node(-29.9, 0.1 + gap_deg)
    net.add_edge(west, east)
    beyond = net.add_node(-29.9, 0.3)
    net.add_edge(east, beyond)
    return net, end


def degree(net: LaneGraph, node: int) -> int:
    return sum(node in k for k in net.edges)


def key(a: int, b: int) -> tuple[int, int]:
    return min(a, b), max(a, b)


def test_close_dead_ends__closes_a_gap_over_water() -> None:
    net, end = lane_and_crossing_lane()
    closed = close_dead_ends(net, coast(), {})
    assert len(closed) == 1
    assert degree(net, end) == 2
    (other,) = {a + b - end for a, b in net.edges if end in (a, b)} - {0}  # node 0: its lane
    # The leg meets the east-going lane square on, splitting it there (a new node of degree 3).
    assert net.lon[other] == pytest.approx(-30.0, abs=1e-6)
    assert net.lat[other] == pytest.approx(0.104, abs=1e-6)
    assert degree(net, other) == 3
    assert distance_m(-30.0, 0.1, net.lon[other], net.lat[other]) == pytest.approx(442.0, abs=5)


def test_close_dead_ends__refuses_a_gap_over_land() -> None:
    net, _ = lane_and_crossing_lane()
    before = dict(net.edges)
    assert close_dead_ends(net, coast(0.101, 0.103), {}) == []
    assert net.edges == before


def test_close_dead_ends__leaves_a_port_join_end_alone() -> None:
    net, end = lane_and_crossing_lane()
    before = dict(net.edges)
    assert close_dead_ends(net, coast(), {}, keep=frozenset({end})) == []
    assert net.edges == before


def test_close_dead_ends__leaves_a_gap_over_a_kilometre() -> None:
    net, _ = lane_and_crossing_lane(gap_deg=0.01)  # 1.1 km
    assert close_dead_ends(net, coast(), {}) == []


def test_close_dead_ends__never_joins_a_lane_back_onto_itself() -> None:
    net = LaneGraph()
    ids = [net.add_node(x, y) for x, y in [(-30.0, 0.0), (-30.0, 0.05), (-30.005, 0.049)]]
    net.add_edge(ids[0], ids[1])
    net.add_edge(ids[1], ids[2])  # a hook: its end lies 560 m from its own first edge
    before = dict(net.edges)
    assert close_dead_ends(net, coast(), {}) == []
    assert net.edges == before


def test_close_dead_ends__a_lane_ending_on_an_edge_becomes_a_junction() -> None:
    # As searoute's lane south from off Westports (Port Klang) ends on the Strait of Malacca's
    # edge into the hub node 0.5 km away, without a node there.
    net = LaneGraph()
    north = net.add_node(101.25206, 2.878922)
    end = net.add_node(101.312802, 2.589169)
    net.add_edge(north, end)
    west, hub, south_east = (
        net.add_node(100.6, 3.2),
        net.add_node(101.316415, 2.586072),
        net.add_node(102.0, 2.0),
    )
    net.add_edge(west, hub, 4)
    net.add_edge(hub, south_east, 4)
    nodes = len(net.lon)
    assert len(close_dead_ends(net, coast(), {})) == 1
    assert len(net.lon) == nodes
    assert set(net.edges) == {key(north, end), key(west, end), key(end, hub), key(hub, south_east)}
    assert net.edges[key(end, hub)] == net.edges[key(west, end)] == 4


def test_close_dead_ends__two_lanes_stopping_short_of_one_edge_both_join_it() -> None:
    # The first leg splits the east-going edge: the second lane finds it as its pieces.
    net, first = lane_and_crossing_lane()
    south = net.add_node(-29.98, 0.0)
    second = net.add_node(-29.98, 0.1)
    net.add_edge(south, second)
    closed = close_dead_ends(net, coast(), {})
    assert [c[0] for c in closed] == [first, second]
    assert degree(net, first) == degree(net, second) == 2
    (joined,) = {a + b - second for a, b in net.edges if second in (a, b)} - {south}
    assert net.lon[joined] == pytest.approx(-29.98, abs=1e-6)
    assert net.lat[joined] == pytest.approx(0.104, abs=1e-6)
    assert degree(net, joined) == 3
