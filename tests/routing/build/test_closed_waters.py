"""Closed waters: the build drops every edge that crosses into them, and their gates close them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sealane.routing.build.closed_waters import crossing_closed_waters
from sealane.routing.build.coast import coastline
from sealane.routing.build.lanegraph import LaneGraph
from sealane.routing.build.pipeline import close_waters
from sealane.routing.data import data_dir

SPEC = {"closed_waters": [{"name": "a sound", "gates": [[[1.0, 0.0], [1.0, 1.0]]]}]}


def test_crossing__an_edge_across_a_gate_is_cut_one_beside_it_is_not() -> None:
    lon = np.array([0.5, 1.5, 0.5, 0.5, 179.5, -179.5])
    lat = np.array([0.5, 0.5, 0.2, 0.8, 0.5, 0.5])
    u, v = np.array([0, 2, 4]), np.array([1, 3, 5])
    assert crossing_closed_waters(lon, lat, u, v, SPEC).tolist() == [True, False, False]


def test_crossing__no_closed_waters_cut_nothing() -> None:
    lon, lat = np.array([0.5, 1.5]), np.array([0.5, 0.5])
    assert not crossing_closed_waters(lon, lat, np.array([0]), np.array([1]), {}).any()


def test_close_waters__the_network_loses_the_edges_across_a_gate_before_its_shortcuts() -> None:
    net = LaneGraph([0.5, 1.5, 0.5, 0.5], [0.5, 0.5, 0.2, 0.8])
    net.add_edge(0, 1, 4)
    net.add_edge(2, 3, 8)
    close_waters(net, SPEC)
    assert net.edges == {(2, 3): 8}


@pytest.mark.slow
def test_shipped_gates__end_on_land() -> None:
    # A gate ending in water would leave a way round its end.
    spec = json.loads((data_dir() / "passages.json").read_text())
    coast = coastline()
    for water in spec["closed_waters"]:
        for gate in water["gates"]:
            ends = np.array([gate[0], gate[-1]])
            assert coast.is_land(ends[:, 0], ends[:, 1]).all(), (water["name"], gate)
