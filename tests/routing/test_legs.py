"""A leg made in one compiled call (``_network.c``) equals the untrimmed leg trimmed afterwards:
the same points, passage masks and lengths, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import sealane
from sealane.routing.graph import default_graph
from sealane.routing.legs import sail, sail_trimmed, trim
from sealane.routing.locations import Location, resolve_location
from sealane.routing.passages import closed_passages, passage_mask
from sealane.routing.ports import registry


def assert_same_leg(start: Location, end: Location, blocked: int) -> int:
    """Both ways of making the leg agree; the number of its points."""
    graph = default_graph()
    fast = sail_trimmed(graph, start, end, blocked)
    slow = trim(*sail(graph, start, end, blocked))
    for mine, theirs in zip(fast, slow, strict=True):
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
    for mine, theirs in zip(fast, slow, strict=True):
        assert np.array_equal(mine, theirs)
    return int(fast[0].shape[0])


def sea_ports(count: int, seed: int) -> list[Location]:
    ports = [port for port in registry().ports if not port.inland]
    picked = np.random.default_rng(seed).choice(len(ports), count, replace=False)
    return [resolve_location(ports[i]) for i in picked.tolist()]


def test_port_to_port__the_same_for_a_hundred_pairs() -> None:
    ports = sea_ports(200, seed=5)
    blocked = passage_mask(closed_passages((), allow_arctic=False), default_graph().passage_names)
    sizes = [assert_same_leg(a, b, blocked) for a, b in zip(ports[::2], ports[1::2], strict=True)]
    assert max(sizes) > 50  # long legs were among them, not only the short way's fallbacks


def test_points_off_the_network_and_on_its_nodes__the_same() -> None:
    graph = default_graph()
    rng = np.random.default_rng(9)
    nodes = rng.choice(graph.node_lon.size, 60, replace=False).tolist()
    on_nodes = [Location(float(graph.node_lon[n]), float(graph.node_lat[n])) for n in nodes]
    ports = sea_ports(60, seed=11)
    off = [Location(p.lon + rng.uniform(-0.3, 0.3), p.lat + rng.uniform(-0.3, 0.3)) for p in ports]
    blocked = passage_mask(closed_passages((), allow_arctic=False), graph.passage_names)
    for a, b in zip(on_nodes + off, off + on_nodes, strict=True):
        try:
            assert_same_leg(a, b, blocked)
        except sealane.NoRouteError:
            with pytest.raises(sealane.NoRouteError):
                sail(graph, a, b, blocked)


@pytest.mark.parametrize(
    ("origin", "destination", "avoid"),
    [
        ("CNSHA", "NLRTM", ("suez",)),
        ("CNSHA", "NLRTM", ("suez", "panama")),
        ("NLRTM", "BEANR", ()),  # a short leg: few nodes, the general way
        ("SGSIN", "SGSIN", ()),  # no leg at all
        ("DEHAM", "PLGDN", ("kiel",)),
    ],
)
def test_named_legs_and_restrictions__the_same(
    origin: str, destination: str, avoid: tuple[str, ...]
) -> None:
    blocked = passage_mask(
        closed_passages(avoid, allow_arctic=False), default_graph().passage_names
    )
    assert_same_leg(resolve_location(origin), resolve_location(destination), blocked)
