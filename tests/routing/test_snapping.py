"""Snapping's memos: a point snaps once, until the snapper forgets; the compiled arcs against
their numpy twin, and the shortcuts' cell index against a scan of every shortcut (snapping
itself is measured against a brute-force search in test_graph.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sealane.routing.geodesy import MEAN_EARTH_RADIUS_M, unit_vectors
from sealane.routing.graph import default_graph
from sealane.routing.snapping import (
    SHORTCUT_CELL_DEG,
    SHORTCUT_STEP_DEG,
    ArcKernel,
    ArcsPython,
    EdgeSnapper,
    Nearest,
    arc_arrays,
    arc_cells,
)

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


# --- the compiled arcs against their numpy twin ---------------------------------------------------


def _points(seed: int, count: int) -> list[tuple[float, float]]:
    rng = np.random.default_rng(seed)
    points = np.column_stack([rng.uniform(-180, 180, count), rng.uniform(-85, 85, count)])
    return [(float(x), float(y)) for x, y in points] + [(-180.0, 0.0), (179.99, -60.0)]


def _same(found: Nearest | None, expected: Nearest | None) -> None:
    assert (found is None) == (expected is None)
    if found is not None and expected is not None:
        # Two edges at one distance (shortcuts meeting at the node nearest the point) are a
        # tie either may win; the point reached is the same.
        assert found[0] == expected[0] or abs(found[1] - expected[1]) < 1e-12
        np.testing.assert_allclose(found[1:4], expected[1:4], rtol=0, atol=1e-9)
        if found[0] == expected[0]:
            assert found[4] == pytest.approx(expected[4], abs=1e-9)


@pytest.fixture(scope="module")
def twins() -> tuple[ArcKernel, ArcsPython]:
    graph = default_graph()
    return graph.snapper.arcs, ArcsPython(*arc_arrays(graph))


def test_arcs__compiled_in_cell_is_the_twins(twins: tuple[ArcKernel, ArcsPython]) -> None:
    compiled, python = twins
    graph = default_graph()
    cols = round(360 / graph.cell_deg)
    for lon, lat in _points(1, 200):
        cell = min(int((lat + 90) // graph.cell_deg), 179) * cols + min(
            int((lon + 180) // graph.cell_deg), cols - 1
        )
        _same(compiled.in_cell(lon, lat, cell), python.in_cell(lon, lat, cell))


@pytest.mark.parametrize("blocked", [0, (1 << 5) | (1 << 9)])
def test_arcs__compiled_among_is_the_twins(
    twins: tuple[ArcKernel, ArcsPython], blocked: int
) -> None:
    compiled, python = twins
    ids = np.flatnonzero(default_graph().edge_snappable).astype(np.int32)
    for lon, lat in _points(2, 40):
        for reach in (2.0, 0.05):
            _same(
                compiled.among(lon, lat, ids, blocked, reach),
                python.among(lon, lat, ids, blocked, reach),
            )


def test_arcs__shortcut_index_finds_what_a_scan_of_every_shortcut_finds() -> None:
    graph = default_graph()
    compiled = graph.snapper.shortcuts
    ids = np.flatnonzero(~graph.edge_snappable).astype(np.int32)
    index = arc_cells(*arc_arrays(graph)[:2], ids, SHORTCUT_CELL_DEG, SHORTCUT_STEP_DEG)
    python = ArcsPython(*arc_arrays(graph)[:4], *index)
    slack = math.radians(SHORTCUT_STEP_DEG) / 2 * 1.001
    for lon, lat in _points(3, 300):
        within = graph.snap(lon, lat).distance_m / MEAN_EARTH_RADIUS_M
        for blocked in (0, 1 << 3):
            _same(
                compiled.near(lon, lat, blocked, within, slack, SHORTCUT_CELL_DEG),
                python.near(lon, lat, blocked, within, slack, SHORTCUT_CELL_DEG),
            )


def test_arcs__near_refuses_a_cell_size_not_its_index() -> None:
    with pytest.raises(ValueError, match="cell_deg"):
        default_graph().snapper.shortcuts.near(0.0, 0.0, 0, 0.1, 0.01, 5.0)


def test_arc_cells__every_sample_of_an_arc_is_listed_in_its_cell() -> None:
    a = unit_vectors(np.array([-10.0, 170.0]), np.array([0.0, 10.0]))
    b = unit_vectors(np.array([10.0, -170.0]), np.array([0.0, 10.0]))
    pointers, listed = arc_cells(a, b, np.array([0, 1], dtype=np.int32), 1.0, 0.5)
    cells_of = {k: set() for k in (0, 1)}
    for cell in range(pointers.size - 1):
        for arc in listed[pointers[cell] : pointers[cell + 1]].tolist():
            cells_of[arc].add(cell)
    # Along the equator from 10 W to 10 E: the 20 cells between and the one 10 E starts.
    assert {cell % 360 for cell in cells_of[0]} == set(range(170, 191))
    rows = {cell // 360 for cell in cells_of[1]}
    cols = {cell % 360 for cell in cells_of[1]}
    assert rows >= {100} and cols == set(range(350, 360)) | set(range(0, 11))  # over 180


def test_arcs__compiled_ahead_is_the_twins(twins: tuple[ArcKernel, ArcsPython]) -> None:
    compiled, python = twins
    snapper = default_graph().snapper
    for lon, lat in _points(4, 150):
        cell = snapper.cell_of(lon, lat)
        for count, reach in ((6, 0.02), (3, 0.5), (0, 0.5)):
            mine = compiled.ahead(lon, lat, cell, 4.0, 52.0, count, reach)
            theirs = python.ahead(lon, lat, cell, 4.0, 52.0, count, reach)
            assert [m[:2] for m in mine] == [t[:2] for t in theirs]
            np.testing.assert_allclose([m[2] for m in mine], [t[2] for t in theirs], atol=1e-12)
            assert all(angle <= reach for _, _, angle in mine)


def test_arcs__ahead_refuses_a_count_over_64() -> None:
    with pytest.raises(ValueError, match="64"):
        default_graph().snapper.arcs.ahead(0.0, 0.0, 0, 1.0, 1.0, 65, 0.1)


def test_arcs__ahead_with_count_zero_is_empty() -> None:
    """Regression: with nothing to keep, the kernel compared and filled the slot before its
    arrays (index -1); it now answers an empty list at once."""
    arcs = default_graph().snapper.arcs
    assert (
        arcs.ahead(4.0, 52.0, default_graph().snapper.cell_of(4.0, 52.0), 5.0, 53.0, 0, 3.0) == []
    )


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.uint8])
def test_arcs__among_refuses_ids_not_int32(dtype: type) -> None:
    """Regression: any buffer of a length divisible by four was read as int32 ids (an int64
    array became pairs of an id and edge 0)."""
    arcs = default_graph().snapper.arcs
    with pytest.raises(ValueError, match="int32"):
        arcs.among(4.0, 52.0, np.arange(8, dtype=dtype), 0, 2.0)


@pytest.mark.parametrize("cell_deg", [0.0, -1.0, float("nan"), 1e-300])
def test_arcs__near_refuses_a_cell_size_before_dividing(cell_deg: float) -> None:
    arcs = default_graph().snapper.arcs
    with pytest.raises(ValueError, match="cell_deg"):
        arcs.near(4.0, 52.0, 0, 1000.0, 0.0, cell_deg)


def test_edge_snapper__on_the_twin_snaps_as_on_the_compiled_arcs() -> None:
    """Where the extension was not compiled, the twin snaps every point the same way."""
    graph = default_graph()
    twin = EdgeSnapper(graph, ArcsPython(*arc_arrays(graph)))
    for lon, lat in _points(5, 60):
        mine, theirs = twin.snap(lon, lat), graph.snap(lon, lat)
        assert mine.edge == theirs.edge
        assert mine.distance_m == pytest.approx(theirs.distance_m, abs=1e-6)
        assert (mine.lon, mine.lat) == pytest.approx((theirs.lon, theirs.lat), abs=1e-9)
