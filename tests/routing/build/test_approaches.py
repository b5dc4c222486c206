"""The build's deep approaches (issue 28, item 3): a port whose lanes leave it over a bank gets a
lane round the bank along the grid's deep water, never over land, and a port whose network
already has a deep way out gets nothing."""

from __future__ import annotations

from typing import cast

import numpy as np
import numpy.typing as npt

from sealane.routing.build.approach_paths import Leg, coarse_cells
from sealane.routing.build.approaches import Approaches, deep_approaches
from sealane.routing.build.coast import Coastline, sample_geodesics
from sealane.routing.build.corridors import Corridor, CorridorIndex
from sealane.routing.build.depth_grid import Grid

#: The synthetic sea: 0.1 degree cells from 0 E 0 N, 40 m deep, with a 5 m bank straight east of
#: the berth (lon, lat box).
BANK = (0.85, 0.3, 1.15, 0.7)
BERTH = (0.5, 0.5)


class BoxCoast:
    """A coastline whose land is a few lon/lat boxes (a stand-in for :class:`Coastline`: the
    step asks it ``is_land`` and ``maybe_land``)."""

    def __init__(self, boxes: list[tuple[float, float, float, float]]) -> None:
        self.boxes = boxes

    def is_land(self, lon: npt.ArrayLike, lat: npt.ArrayLike) -> np.ndarray:
        x, y = np.asarray(lon, dtype=np.float64), np.asarray(lat, dtype=np.float64)
        land = np.zeros(x.shape, dtype=bool)
        for west, south, east, north in self.boxes:
            land |= (x > west) & (x < east) & (y > south) & (y < north)
        return land

    def maybe_land(self, lon: npt.ArrayLike, lat: npt.ArrayLike) -> np.ndarray:
        return self.is_land(lon, lat)


def sea(bank_m: float = 5.0) -> Grid:
    """A regional grid 0-2 E, 0-1.5 N at 0.1 degree: 40 m deep, ``bank_m`` over ``BANK``."""
    lat, lon = np.meshgrid(np.arange(16) / 10.0, np.arange(21) / 10.0, indexing="ij")
    z = np.full(lon.shape, -40.0)
    west, south, east, north = BANK
    on_bank = (lon >= west - 0.1) & (lon <= east + 0.1) & (lat >= south - 0.1) & (lat <= north)
    z[on_bank] = -bank_m
    return Grid(z, lon0=0.0, lat0=0.0, step=0.1)


def network(
    first_edge_m: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A berth joined by one edge straight east over the bank to a deep lane running on east and
    north: lon, lat, u, v and each edge's least depth (the first edge's is ``first_edge_m``)."""
    lon = np.array([BERTH[0], 1.4, 1.6, 1.8, 1.8])
    lat = np.array([BERTH[1], 0.5, 0.5, 0.5, 1.2])
    u, v = np.array([0, 1, 2, 3]), np.array([1, 2, 3, 4])
    return lon, lat, u, v, np.array([first_edge_m, 40.0, 40.0, 40.0])


Graph = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def run(
    coast: BoxCoast,
    first_edge_m: float = 5.0,
    *,
    graph: Graph | None = None,
    berth: tuple[float, float] = BERTH,
    corridors: CorridorIndex | None = None,
    grid: Grid | None = None,
) -> Approaches:
    """The step on ``graph`` (default: :func:`network`) with one port at ``berth``."""
    lon, lat, u, v, least = network(first_edge_m) if graph is None else graph
    return deep_approaches(
        lon,
        lat,
        u,
        v,
        least,
        np.array([berth]),
        CorridorIndex([]) if corridors is None else corridors,
        sea() if grid is None else grid,
        cast(Coastline, coast),
    )


def lane_points(added: Approaches) -> np.ndarray:
    """Every node of the added edges, the network's and the new ones, as (N, 2) lon/lat."""
    lon, lat, *_ = network(5.0)
    xy = np.vstack([np.stack([lon, lat], 1), np.stack([added.lon, added.lat], 1)])
    points: np.ndarray = xy[np.concatenate([added.u, added.v])]
    return points


def test_deep_approaches__a_lane_round_the_bank_on_deep_water() -> None:
    added = run(BoxCoast([]))
    assert added.u.size >= 2  # round the bank: no straight leg from berth to deep water
    assert (added.least >= 25.0).all()
    xy = lane_points(added)
    assert 0 in added.u.tolist() + added.v.tolist()  # from the berth ...
    assert {1, 2, 3, 4} & set(added.u.tolist() + added.v.tolist())  # ... to the deep lane
    # No leg of the lane crosses the bank.
    lon_all, lat_all, *_ = network(5.0)
    nodes = np.vstack([np.stack([lon_all, lat_all], 1), np.stack([added.lon, added.lat], 1)])
    s_lon, s_lat, _, _ = sample_geodesics(
        nodes[added.u, 0], nodes[added.u, 1], nodes[added.v, 0], nodes[added.v, 1], 500.0
    )
    west, south, east, north = BANK
    assert not ((s_lon > west) & (s_lon < east) & (s_lat > south) & (s_lat < north)).any()
    assert xy[:, 1].max() > BANK[3] or xy[:, 1].min() < BANK[1]


def test_deep_approaches__never_over_land() -> None:
    # Land north and south of the bank: the grid's deep water round it is ashore.
    coast = BoxCoast([(0.8, 0.6, 1.2, 2.0), (0.8, -1.0, 1.2, 0.4)])
    added = run(coast)
    assert added.u.size == 0


def test_deep_approaches__nothing_when_the_network_has_a_deep_way() -> None:
    added = run(BoxCoast([]), first_edge_m=40.0)
    assert added.u.size == 0
    assert added.lon.size == 0


def test_deep_approaches__a_deep_way_where_the_bands_send_the_network_round() -> None:
    # The berth's short way east crosses the bank (13 m); its deep way runs far round by the
    # north-west. The grid's deep water round the bank is as short as the shallow way.
    lon = np.array([BERTH[0], 1.4, 1.8, 0.2, 0.2, 1.8])
    lat = np.array([BERTH[1], 0.5, 0.5, 0.5, 1.4, 1.4])
    u, v = np.array([0, 1, 0, 3, 4, 5]), np.array([1, 2, 3, 4, 5, 2])
    least = np.array([13.0, 40.0, 40.0, 40.0, 40.0, 40.0])
    added = run(BoxCoast([]), graph=(lon, lat, u, v, least))
    assert added.u.size >= 2
    assert (added.least >= 25.0).all()
    ends = set(added.u.tolist() + added.v.tolist())
    assert 0 in ends
    assert ends & {1, 2}


def test_deep_approaches__no_lane_through_a_corridor() -> None:
    # A corridor (a canal, say) crosses both ways round the bank, north and south of it: a lane
    # through it would carry no passage bit and go unmeasured, so none may run there.
    corridors = CorridorIndex(
        [
            Corridor("north", None, 3_000.0, np.array([[1.0, BANK[3]], [1.0, 1.7]])),
            Corridor("south", None, 3_000.0, np.array([[1.0, -0.2], [1.0, BANK[1]]])),
        ]
    )
    lon, lat, *_ = network(5.0)
    added = run(BoxCoast([]), corridors=corridors)
    nodes = np.vstack([np.stack([lon, lat], 1), np.stack([added.lon, added.lat], 1)])
    s_lon, s_lat, _, _ = sample_geodesics(
        nodes[added.u, 0], nodes[added.u, 1], nodes[added.v, 0], nodes[added.v, 1], 100.0
    )
    assert not corridors.contains(s_lon, s_lat).any()


def test_deep_approaches__a_lane_starts_only_from_a_node_joined_to_the_port() -> None:
    # Node 5 belongs to a second lane, 9 km north of the berth across a strip of land and not
    # joined to the berth's node: it lies within the berth's 10 km, but no lane may start there.
    berth = (0.5, 0.45)
    lon = np.array([berth[0], 1.4, 1.6, 1.8, 1.8, 0.5, 0.2])
    lat = np.array([berth[1], 0.5, 0.5, 0.5, 1.2, 0.53, 0.53])
    u, v = np.array([0, 1, 2, 3, 5]), np.array([1, 2, 3, 4, 6])
    least = np.array([5.0, 40.0, 40.0, 40.0, 40.0])
    coast = BoxCoast([(0.3, 0.47, 0.7, 0.51)])
    added = run(coast, graph=(lon, lat, u, v, least), berth=berth)
    ends = set(added.u.tolist() + added.v.tolist())
    assert 5 not in ends
    assert 6 not in ends


def test_deep_approaches__nodes_wrapped_at_the_antimeridian() -> None:
    # The first test's sea moved 179 degrees east: the berth at 179.5 E, the bank across 180.
    lon, lat, u, v, least = network(5.0)
    lon = (lon + 179.0 + 180.0) % 360.0 - 180.0
    moved = Grid(sea().z, lon0=179.0, lat0=0.0, step=0.1)
    graph = (lon, lat, u, v, least)
    added = run(BoxCoast([]), graph=graph, berth=(lon[0], lat[0]), grid=moved)
    assert added.lon.size > 0
    assert ((added.lon >= -180.0) & (added.lon < 180.0)).all()
    assert (added.least >= 25.0).all()  # measured as deep across the wrap, too


def test_coarse_cells__no_cell_in_a_corridor_is_passable() -> None:
    corridors = CorridorIndex(
        [Corridor("canal", None, 6_000.0, np.array([[1.0, 0.0], [1.0, 1.5]]))]
    )
    coast = cast(Coastline, BoxCoast([]))
    leg = Leg(coast, np.array([BERTH]), corridors, sea())
    cells = coarse_cells(leg, sea(), BERTH, 0.1, np.array([BERTH]))
    inside = np.flatnonzero(corridors.contains(cells.lon, cells.lat))
    assert inside.size > 0
    graph = cells.graph.tocoo()
    assert not np.isin(graph.row, inside).any()
    assert not np.isin(graph.col, inside).any()
