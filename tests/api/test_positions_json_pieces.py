"""The positions document in pieces (``PositionsJson``, the compiled ``render_rows`` and its numpy
twin): pieces join to exactly the whole document, whatever the cuts."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sealane
from sealane.api import positions_json
from sealane.api.positions_json import PositionsJson, _rows_json_numpy

from .test_positions_json import Columns, as_positions, columns

_render = pytest.importorskip("sealane.api._positions_json")
ROWS_RENDERERS = {"compiled": _render.render_rows, "numpy": _rows_json_numpy}


def cut(data: Columns, bounds: list[int], head: bytes, tail: bytes, renderer: str) -> bytes:
    """The array between ``head`` and ``tail`` written piece by piece at ``bounds``."""
    render_rows = ROWS_RENDERERS[renderer]
    edges = [0, *sorted(bounds), len(data[0])]
    pieces = [
        render_rows(*data, start, stop, b"" if number else head + b"[", b"")
        for number, (start, stop) in enumerate(pairwise(edges))
    ]
    return b"".join(pieces) + tail


def test_rows__compiled_renderer_is_in_use() -> None:
    assert positions_json._render_rows is _render.render_rows


@settings(max_examples=200, deadline=None)
@given(data=columns(min_size=1), cuts=st.lists(st.integers(0, 30), max_size=5), head=st.binary())
@pytest.mark.parametrize("renderer", ROWS_RENDERERS)
def test_rows__pieces_join_to_the_whole_array(
    renderer: str, data: Columns, cuts: list[int], head: bytes
) -> None:
    bounds = [min(c, len(data[0])) for c in cuts]
    assert cut(data, bounds, head, b"}", renderer) == _render.render(*data, head, b"}")


@settings(max_examples=200, deadline=None)
@given(data=columns(), bounds=st.tuples(st.integers(0, 30), st.integers(0, 30)))
def test_rows__compiled_matches_numpy(data: Columns, bounds: tuple[int, int]) -> None:
    start, stop = sorted(min(b, len(data[0])) for b in bounds)
    compiled = _render.render_rows(*data, start, stop, b"<", b">")
    assert compiled == _rows_json_numpy(*data, start, stop, b"<", b">")


@pytest.mark.parametrize(("start", "stop"), [(-1, 2), (2, 1), (0, 4)])
@pytest.mark.parametrize("renderer", ROWS_RENDERERS)
def test_rows__outside_the_array_is_refused(renderer: str, start: int, stop: int) -> None:
    data = (np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="outside"):
        ROWS_RENDERERS[renderer](*data, start, stop, b"", b"")


def test_rows__nan_reported_at_its_row_in_the_array() -> None:
    lats = np.zeros(6)
    lats[4] = np.nan
    data = (lats, np.zeros(6), np.zeros(6), np.zeros(6, dtype=np.int64))
    assert _render.render_rows(*data, 0, 4, b"", b"")  # the NaN is outside these rows
    with pytest.raises(ValueError, match="row 4: latitude is NaN"):
        _render.render_rows(*data, 3, 6, b"", b"")


def test_rows__columns_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="lons has 2 values"):
        _render.render_rows(
            np.zeros(3), np.zeros(2), np.zeros(3), np.zeros(3, np.int64), 0, 1, b"", b""
        )


@pytest.fixture(scope="module")
def voyage() -> sealane.Positions:
    """A voyage of some 16,000 positions (Hong Kong to Jebel Ali at 18 kn)."""
    hkg, jea = sealane.get_port("HKHKG"), sealane.get_port("AEJEA")
    start = datetime(2026, 11, 27, 12, 0, 30, tzinfo=UTC)
    return sealane.future_positions((113.9, 22.3), hkg, jea, speed_kn=18.0, start_time=start)


@pytest.mark.parametrize(
    ("first_bytes", "piece_bytes"), [(32 * 1024, 256 * 1024), (1, 1), (0, 119), (10**9, 10**9)]
)
def test_pieces__join_to_to_json(
    voyage: sealane.Positions, first_bytes: int, piece_bytes: int
) -> None:
    head, tail = b'{"data":{"positions":', b'},"links":{}}'
    doc = PositionsJson(voyage, head=head, tail=tail)
    pieces = list(doc.pieces(first_bytes=first_bytes, piece_bytes=piece_bytes))
    whole = positions_json.positions_json(voyage, head=head, tail=tail)
    assert b"".join(pieces) == whole == doc.whole()
    assert len(doc) == len(whole)
    if first_bytes > len(head) + 119:  # the first piece holds about first_bytes
        assert len(pieces[0]) <= max(first_bytes, len(head) + 120)


def test_pieces__first_piece_small_then_pieces_of_about_piece_bytes(
    voyage: sealane.Positions,
) -> None:
    doc = PositionsJson(voyage, head=b"{", tail=b"}")
    sizes = [len(p) for p in doc.pieces(first_bytes=32 * 1024, piece_bytes=256 * 1024)]
    assert 32 * 1024 - 119 < sizes[0] <= 32 * 1024
    assert all(256 * 1024 - 119 < size <= 256 * 1024 for size in sizes[1:-1])
    assert len(sizes) == 1 + -(-(len(doc) - sizes[0]) // (256 * 1024 // 119 * 119))


def test_pieces__empty_array_one_piece() -> None:
    empty = np.zeros(0)
    positions = as_positions(empty, empty, empty, np.zeros(0, dtype=np.int64))
    doc = PositionsJson(positions, head=b"{", tail=b"}")
    assert list(doc.pieces(first_bytes=10, piece_bytes=10)) == [b"{[]}"]
    assert doc.rows(0, 0) == b"{[]}" and len(doc) == 4
