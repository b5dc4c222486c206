"""The shipped land: small, continuous across the antimeridian, drawn as one SVG path."""

from __future__ import annotations

import re
from itertools import pairwise

import numpy as np

from sealane.routing.data import data_dir
from sealane.web.land import _number, land_path, land_svg


def test_land_file__small_and_in_range() -> None:
    path = data_dir() / "land.npz"
    assert path.stat().st_size < 150_000
    with np.load(path) as archive:
        points, offsets, scale = archive["points"], archive["offsets"], int(archive["scale"])
    assert scale == 100 and offsets[0] == 0 and offsets[-1] == len(points)
    lons, lats = points[:, 0] / scale, points[:, 1] / scale
    assert lons.min() > -200 and lons.max() < 200  # rings run on past 180, never far
    assert lats.min() >= -90 and lats.max() <= 90
    assert len(offsets) - 1 > 1000  # islands kept


def test_land_file__no_ring_jumps_across_the_world() -> None:
    with np.load(data_dir() / "land.npz") as archive:
        points, offsets = archive["points"].astype(int), archive["offsets"]
    for start, end in pairwise(offsets):
        ring = points[start:end]
        steps = np.abs(np.diff(ring[:, 0]))
        # Only Antarctica's closing edge along the South Pole may be a whole world long.
        along_pole = ring[1:, 1] == -9000
        assert np.all((steps < 9000) | along_pole)


def test_land_path__absolute_start_relative_steps() -> None:
    d = land_path()
    rings = d.count("M")
    assert rings == d.count("z") > 1000
    assert re.fullmatch(r"(M[-\d. ]+l[-\d. ]*z)+", d)


def test_land_svg__has_the_element_pages_use() -> None:
    assert '<path id="land" vector-effect="non-scaling-stroke" d="M' in land_svg()


def test_number__shortest_text() -> None:
    assert [_number(v, 100) for v in (-50, 200, 1, -1, 0, 12345)] == [
        "-.5",
        "2",
        ".01",
        "-.01",
        "0",
        "123.45",
    ]
