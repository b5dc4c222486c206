"""Snapping's memos: a point snaps once, until the snapper forgets (snapping itself is measured
against a brute-force search in test_graph.py)."""

from __future__ import annotations

from sealane.routing.graph import default_graph

#: Off the Maasvlakte, near the lanes into Rotterdam (lon, lat).
OFF_ROTTERDAM = (4.0, 52.0)


def test_snap__remembered_until_forgotten() -> None:
    graph = default_graph()
    first = graph.snap(*OFF_ROTTERDAM)
    assert graph.snap(*OFF_ROTTERDAM) is first
    graph.snapper.forget()
    again = graph.snap(*OFF_ROTTERDAM)
    assert again == first and again is not first


def test_snap_shortcut__remembered_until_forgotten() -> None:
    graph = default_graph()
    lane = graph.snap(*OFF_ROTTERDAM)
    first = graph.snap_shortcut(*OFF_ROTTERDAM, lane.distance_m)
    assert graph.snap_shortcut(*OFF_ROTTERDAM, lane.distance_m) is first
    graph.snapper.forget()
    info = graph.snapper._shortcut_snap_cached.cache_info()
    assert info.currsize == 0
