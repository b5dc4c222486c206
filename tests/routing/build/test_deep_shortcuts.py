"""The build's deep shortcuts (issue 28): where closing a depth band sends a port-to-port path
round by the lanes' zigzag, a straight leg over deep water is added, never over the shallow
water or land, and nothing where the band changes no path."""

from __future__ import annotations

from typing import cast

import numpy as np
from scipy.spatial import cKDTree

from sealane.routing.build.coast import Coastline, sample_geodesics
from sealane.routing.build.corridors import CorridorIndex
from sealane.routing.build.deep_shortcuts import DeepLegs, deep_shortcuts, least_mean_depths
from sealane.routing.build.depth import band_masks, least_depths
from sealane.routing.build.shortcuts import Training
from sealane.routing.build.tags import tag_passages
from sealane.routing.depth import BAND_NAMES
from sealane.routing.geodesy import unit_vectors

from .test_approaches import BANK, BoxCoast, sea

#: Two ports west and east of the bank, joined straight over it (A - P - B) and round it to the
#: north by a zigzag (A - C - D - E - B) over 40 m water.
PORTS = [(0.2, 0.5), (1.8, 0.5)]
LON = np.array([0.2, 1.0, 1.8, 0.35, 1.0, 1.65])
LAT = np.array([0.5, 0.5, 0.5, 1.2, 1.45, 1.2])
U = np.array([0, 1, 0, 3, 4, 5])
V = np.array([1, 2, 3, 4, 5, 2])


def run(coast: BoxCoast, least: np.ndarray) -> DeepLegs:
    """The step on the six-node network with the edges' least depths ``least``."""
    masks = band_masks(least, BAND_NAMES)
    return deep_shortcuts(
        LON,
        LAT,
        U,
        V,
        masks,
        BAND_NAMES,
        {},
        Training(joined=PORTS, busiest=[]),
        np.array(PORTS),
        CorridorIndex([]),
        sea(),
        cast(Coastline, coast),
    )


def over_bank(legs: DeepLegs) -> bool:
    """Whether any added leg runs over the bank."""
    s_lon, s_lat, _, _ = sample_geodesics(LON[legs.u], LAT[legs.u], LON[legs.v], LAT[legs.v], 500.0)
    west, south, east, north = BANK
    return bool(((s_lon > west) & (s_lon < east) & (s_lat > south) & (s_lat < north)).any())


def test_deep_shortcuts__a_straight_leg_round_the_bank() -> None:
    legs = run(BoxCoast([]), np.array([5.0, 5.0, 40.0, 40.0, 40.0, 40.0]))
    assert legs.u.size >= 1
    assert (legs.least >= 13.5).all()
    assert not over_bank(legs)
    # A leg skips at least one node of the zigzag, from a port's end.
    ends = {frozenset(pair) for pair in zip(legs.u.tolist(), legs.v.tolist(), strict=True)}
    assert ends & {frozenset({0, 5}), frozenset({3, 2}), frozenset({0, 4}), frozenset({4, 2})}


def test_deep_shortcuts__a_leg_carries_the_passages_of_the_run_it_replaces_not_its_bands() -> None:
    # A gate north of the bank crosses the zigzag at D; C - D is 20 m deep (the 25 m band's).
    spec = {"strait": {"gates": [[[1.0, 0.75], [1.0, 2.0]]]}}
    names = ("strait", *BAND_NAMES)
    least = np.array([5.0, 5.0, 40.0, 20.0, 40.0, 40.0])
    masks = band_masks(least, names) | tag_passages(LON, LAT, U, V, spec)
    legs = deep_shortcuts(
        LON,
        LAT,
        U,
        V,
        masks,
        names,
        spec,
        Training(joined=PORTS, busiest=[]),
        np.array(PORTS),
        CorridorIndex([]),
        sea(),
        cast(Coastline, BoxCoast([])),
    )
    assert legs.u.size >= 1
    assert (legs.masks == 1 << names.index("strait")).all()


def test_deep_shortcuts__nothing_where_the_band_changes_no_path() -> None:
    legs = run(BoxCoast([]), np.array([40.0, 40.0, 40.0, 40.0, 40.0, 40.0]))
    assert legs.u.size == 0


def test_deep_shortcuts__never_over_land() -> None:
    # Land fills the zigzag's inside: no leg may cut across it.
    legs = run(BoxCoast([(0.3, 0.75, 1.7, 1.15)]), np.array([5.0, 5.0, 40.0, 40.0, 40.0, 40.0]))
    s_lon, s_lat, _, _ = sample_geodesics(LON[legs.u], LAT[legs.u], LON[legs.v], LAT[legs.v], 500.0)
    assert legs.u.size >= 1  # C - E, north of the land
    assert not BoxCoast([(0.3, 0.75, 1.7, 1.15)]).is_land(s_lon, s_lat).any()
    assert not over_bank(legs)


def test_least_mean_depths__a_cell_deep_at_one_corner_only_is_shallow() -> None:
    # A 3 m shelf east of 1.0 E but for one 40 m corner (1.1 E, 0.6 N): the deepest-corner
    # reading of a shortcut calls the cells round it 40 m, a deep shortcut's reading does not.
    grid = sea()
    _, lon = np.meshgrid(np.arange(16) / 10.0, np.arange(21) / 10.0, indexing="ij")
    grid.z[lon >= 1.0] = -3.0
    grid.z[6, 11] = -40.0
    lon_n, lat_n = np.array([1.05, 1.15]), np.array([0.55, 0.55])
    one, two = np.array([0]), np.array([1])
    berths = cKDTree(unit_vectors(np.array([0.0]), np.array([0.0])))
    mean = least_mean_depths(lon_n, lat_n, one, two, berths, CorridorIndex([]), grid)
    deepest = least_depths(
        lon_n,
        lat_n,
        one,
        two,
        np.ones(1, dtype=bool),
        np.array([[0.0, 0.0]]),
        CorridorIndex([]),
        grid,
    )
    assert deepest[0] == 40.0
    assert mean[0] == (40.0 + 3.0 * 3) / 4
