"""How the build measures each edge's least depth on a bathymetry grid (``routing.build.depth``),
on a synthetic grid: deep sea with a shallow bank and an island."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

pytest.importorskip("scipy")

from sealane.routing.build.corridors import Corridor, CorridorIndex
from sealane.routing.build.depth import (
    Grid,
    band_masks,
    charted_boxes,
    depth_bands,
    least_depths,
    open_fairways,
)
from sealane.routing.depth import BAND_NAMES

NAMES = ("suez", *BAND_NAMES)


def grid() -> Grid:
    """4,000 m deep everywhere but a bank of 6 m at 10-11 E, 0-1 N and an island at 20 E, 0 N
    (one grid node above water)."""
    z = np.full((1801, 3601), -4000.0, dtype=np.float32)
    z[900:911, 100:111] = -6.0  # rows from 90 S, columns from 0 E, 0.1 degree apart
    z[900, 200] = 10.0
    z[899:902, 199:202][z[899:902, 199:202] < 0] = -6.0
    return Grid(z)


def measure(
    lon: list[float],
    lat: list[float],
    shortcut: bool,
    ports: list[tuple[float, float]],
    charted: list[list[float]] | None = None,
) -> float:
    """The least depth of the one edge from (lon[0], lat[0]) to (lon[1], lat[1]), with
    ``charted`` the boxes of the charted straits."""
    least = least_depths(
        np.array(lon),
        np.array(lat),
        np.array([0]),
        np.array([1]),
        np.array([shortcut]),
        np.array(ports or [(-100.0, -60.0)]),
        CorridorIndex([]),
        grid(),
        None if charted is None else np.array(charted, dtype=np.float64).reshape(-1, 4),
    )
    return float(least[0])


@pytest.mark.parametrize("shortcut", [True, False])
def test_least_depth__a_bank_in_open_water_counts_for_every_edge(shortcut: bool) -> None:
    assert measure([9.5, 11.5], [0.5, 0.5], shortcut, []) == pytest.approx(6.0)
    assert measure([5.0, 7.0], [0.5, 0.5], shortcut, []) == pytest.approx(4000.0)


def test_least_depth__cells_holding_land_count_for_shortcuts_only() -> None:
    # The island's cells: their deepest corner is 6 m, but one corner is land.
    assert measure([19.5, 20.5], [0.05, 0.05], True, []) == pytest.approx(6.0)
    assert measure([19.5, 20.5], [0.05, 0.05], False, []) == pytest.approx(4000.0)


def test_least_depth__a_ports_approach_is_not_measured() -> None:
    assert measure([10.4, 10.5], [0.5, 0.5], True, [(10.45, 0.5)]) == math.inf  # none measured
    assert measure([10.4, 10.5], [0.5, 0.5], True, [(12.5, 0.5)]) == pytest.approx(6.0)


def test_least_depth__a_corridor_is_not_measured() -> None:
    line = np.array([[9.0, 0.5], [12.0, 0.5]])
    corridor = Corridor("bank channel", None, 5000.0, line, ())
    least = least_depths(
        np.array([9.5, 11.5]),
        np.array([0.5, 0.5]),
        np.array([0]),
        np.array([1]),
        np.array([True]),
        np.array([(-100.0, -60.0)]),
        CorridorIndex([corridor]),
        grid(),
    )
    assert float(least[0]) == math.inf  # none measured


def test_least_depth__a_charted_straits_lanes_are_not_measured_its_shortcuts_are() -> None:
    strait = [[9.8, 0.2, 11.2, 0.8]]  # the bank lies in the strait's charted box
    assert measure([9.5, 11.5], [0.5, 0.5], False, [], strait) == pytest.approx(4000.0)
    assert measure([9.5, 11.5], [0.5, 0.5], True, [], strait) == pytest.approx(6.0)
    # A box elsewhere leaves the lane measured.
    assert measure([9.5, 11.5], [0.5, 0.5], False, [], [[30.0, 0.0, 31.0, 1.0]]) == 6.0


def test_charted_boxes__every_passages_charted_entry() -> None:
    passages = {
        "malacca": {"gates": [[[99.6, 3.6], [100.7, 4.3]]], "charted": [[1.0, 2.0, 3.0, 4.0]]},
        "suez": {"gates": []},
        "elbe": {"charted": [[5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]},
    }
    assert charted_boxes(passages).tolist() == [
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [9.0, 10.0, 11.0, 12.0],
    ]
    assert charted_boxes({"suez": {}}).shape == (0, 4)


def test_band_masks__cumulative() -> None:
    masks = band_masks(np.array([5.0, 12.0, 20.0, 30.0, np.inf]), NAMES)
    bits = [[bool(m >> NAMES.index(name) & 1) for name in BAND_NAMES] for m in masks.tolist()]
    assert bits == [
        [True, True, True, True],
        [False, True, True, True],
        [False, False, False, True],
        [False, False, False, False],
        [False, False, False, False],
    ]


def test_band_masks__only_shortcuts_carry_the_shallowest_band() -> None:
    # Two edges 5 m deep: a lane (the default vessel's band left off) and a shortcut.
    masks = band_masks(np.array([5.0, 5.0]), NAMES, np.array([False, True]))
    bits = [[bool(m >> NAMES.index(name) & 1) for name in BAND_NAMES] for m in masks.tolist()]
    assert bits == [[False, True, True, True], [True, True, True, True]]


def test_band_masks__stay_cumulative_with_shortcuts_and_each_bands_fairways() -> None:
    # Whatever the depths, shortcut flags and per-band fairways: an edge in a band is in every
    # deeper band, as a vessel closes one band bit only.
    rng = np.random.default_rng(31)
    least = rng.uniform(0.0, 30.0, 400)
    shortcut = rng.random(400) < 0.5
    exempt = [rng.random(400) < 0.2 for _ in BAND_NAMES]
    masks = band_masks(least, NAMES, shortcut, exempt)
    bits = np.array([(masks >> NAMES.index(name)) & 1 for name in BAND_NAMES], dtype=bool)
    assert bits.any(axis=1).all()
    assert (bits[:-1] <= bits[1:]).all()


def test_open_fairways__a_port_cut_off_keeps_its_least_shallow_way_out() -> None:
    # 0 - 1 - 2 deep; port 4 reaches 2 by a shallow edge (4-3, 3-2) or a longer one (4-5, 5-0)
    # that is shallow too but shorter in shallow water.
    u = np.array([0, 1, 4, 3, 4, 5])
    v = np.array([1, 2, 3, 2, 5, 0])
    lengths = np.array([10.0, 10.0, 5.0, 5.0, 1.0, 20.0])
    least = np.array([50.0, 50.0, 5.0, 5.0, 5.0, 50.0])
    exempt = open_fairways(6, u, v, lengths, least < 25.0, np.array([4, 0]))
    assert exempt.tolist() == [False, False, False, False, True, False]


def test_depth_bands__a_port_keeps_a_fairway_for_each_band_that_cuts_it_off() -> None:
    # Port 0 leaves west (0-6 at 12 m, 6-1 at 20 m) to the 25 m network (1-2), or north (0-5 at
    # 10 m) to water of 18 m (5-3-4) that reaches it the long way. The three deeper bands cut
    # the port off; the 25 m band's fairway is the west way (least shallow length), the 13.5 and
    # 17.6 m bands' the north one: a 12 m ship may leave by either (Jakarta's deepest fairway
    # runs far west, to the Sunda Strait).
    u = np.array([0, 5, 3, 4, 0, 6, 1])
    v = np.array([5, 3, 4, 1, 6, 1, 2])
    lengths = np.array([1.0, 1.0, 10.0, 10.0, 2.0, 5.0, 10.0])
    measured = np.array([10.0, 18.0, 18.0, 18.0, 12.0, 20.0, 40.0])
    lon = np.array([0.0, -0.5, -0.9, 0.2, 0.4, 0.0, -0.2])
    lat = np.array([0.0, 0.0, 0.0, 0.3, 0.1, 0.2, 0.0])
    least, masks = depth_bands(lon, lat, u, v, lengths, np.array([[0.0, 0.0]]), NAMES, measured)
    bits = [[bool(m >> NAMES.index(name) & 1) for name in BAND_NAMES] for m in masks.tolist()]
    assert bits[0] == [False, False, False, True]  # 0-5: the 13.5 and 17.6 m bands' fairway
    assert bits[4] == bits[5] == [False, False, False, False]  # the 25 m band's
    assert bits[1] == [False, False, False, True]  # 18 m water off the fairways
    assert np.isnan(least[[0, 4, 5]]).all()
    assert least[1] == 18.0


def test_shipped_charted_straits__have_a_charted_draft_or_none_published() -> None:
    # Only straits whose charted figure closes them to a vessel too deep are exempt from the
    # grid; the Strait of Magellan's main route has no published maximum (data/README.md).
    from sealane.routing.data import data_dir
    from sealane.routing.limits import passage_limits

    passages = json.loads((data_dir() / "passages.json").read_text())["passages"]
    charted = {name for name, rule in passages.items() if rule.get("charted")}
    drafted = {limit.passage.value for limit in passage_limits() if limit.draft_m is not None}
    assert {"malacca", "singapore", "torres", "magellan", "elbe"} <= charted
    assert charted <= drafted | {"magellan"}
    for lon_min, lat_min, lon_max, lat_max in charted_boxes(passages).tolist():
        assert -180.0 <= lon_min < lon_max <= 180.0
        assert -90.0 <= lat_min < lat_max <= 90.0
