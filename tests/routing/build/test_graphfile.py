"""Reading a graph file's lanes back for a retag: the edges the depth step added are dropped, so
a second retag derives them again instead of measuring them as the network's own lanes."""

from __future__ import annotations

import numpy as np

from sealane.routing.build.graphfile import Lanes, open_waters, without_edges


def test_without_edges__drops_the_marked_edges_and_the_nodes_only_they_used() -> None:
    # 0 - 1 - 2 the network; 3 and 4 a lane added from 1, and a shortcut 0 - 2 added too.
    lanes = Lanes(
        np.array([0.0, 1.0, 2.0, 1.0, 1.0]),
        np.array([0.0, 0.0, 0.0, 1.0, 2.0]),
        np.array([0, 1, 1, 3, 0]),
        np.array([1, 2, 3, 4, 2]),
        np.array([1, 2, 4, 8, 16], dtype=np.uint32),
        np.array([False, False, False, False, True]),
    )
    kept = without_edges(lanes, np.array([False, False, True, True, True]))
    assert kept.lon.tolist() == [0.0, 1.0, 2.0]
    assert kept.lat.tolist() == [0.0, 0.0, 0.0]
    assert (kept.u.tolist(), kept.v.tolist()) == ([0, 1], [1, 2])
    assert kept.masks.tolist() == [1, 2]
    assert kept.shortcut is not None and kept.shortcut.tolist() == [False, False]


def test_without_edges__renumbers_the_nodes_after_a_dropped_one() -> None:
    # Node 1 is used only by the dropped edge 1 - 2; 0 - 2 and 2 - 3 stay, numbered 0 - 1, 1 - 2.
    lanes = Lanes(
        np.array([0.0, 5.0, 1.0, 2.0]),
        np.array([0.0, 5.0, 0.0, 0.0]),
        np.array([0, 1, 2]),
        np.array([2, 2, 3]),
        np.array([1, 2, 4], dtype=np.uint32),
        None,
    )
    kept = without_edges(lanes, np.array([False, True, False]))
    assert kept.lon.tolist() == [0.0, 1.0, 2.0]
    assert (kept.u.tolist(), kept.v.tolist()) == ([0, 1], [1, 2])
    assert kept.shortcut is None


def test_open_waters__drops_the_edges_across_a_gate_and_says_which_were_kept() -> None:
    # 0 - 1 crosses the gate at 1 E (node 1 goes with it); 2 - 3 and 0 - 2 stay, renumbered.
    spec = {"closed_waters": [{"name": "a sound", "gates": [[[1.0, 0.0], [1.0, 1.0]]]}]}
    lanes = Lanes(
        np.array([0.5, 1.5, 0.5, 0.5]),
        np.array([0.5, 0.5, 0.2, 0.8]),
        np.array([0, 0, 2]),
        np.array([2, 1, 3]),
        np.array([1, 2, 4], dtype=np.uint32),
        np.array([False, True, False]),
    )
    kept_lanes, kept = open_waters(lanes, spec)
    assert kept.tolist() == [True, False, True]
    assert kept_lanes.lat.tolist() == [0.5, 0.2, 0.8]
    assert (kept_lanes.u.tolist(), kept_lanes.v.tolist()) == ([0, 1], [1, 2])
    assert kept_lanes.masks.tolist() == [1, 4]
