"""Joining the named corridors and the ports to the repaired network, by water.

Corridors become chains of edges with their passage bit; each port (placed on navigable water
first) is joined to its nearest edge and, by straight legs, to edges in other directions; joins
that still touch land are re-routed. Build-time only.
"""

from __future__ import annotations

import time

import numpy as np

from ..data import data_dir
from .attach import Join, NetworkTargets, apply_joins, attach, extra_joins
from .berths import (
    Navigable,
    PortSite,
    corrected,
    read_aliases,
    renamed,
    searoute_ports,
    without_aliases,
)
from .coast import coastline
from .corridors import Corridor, CorridorIndex
from .lanegraph import LaneGraph
from .repair import RepairReport, reroute_edges


def log(message: str) -> None:
    """One line of build progress, with the wall-clock time."""
    print(time.strftime("%H:%M:%S"), message, flush=True)


def add_corridors(net: LaneGraph, corridors: list[Corridor], names: tuple[str, ...]) -> None:
    """Each traced corridor as a chain of edges with its passage bit, its ends (only the sea end
    of a port's approach) joined to the network by water."""
    coast, index = coastline(), CorridorIndex(corridors)
    targets = NetworkTargets(net)
    joins: list[tuple[Join, int, int]] = []
    for corridor in corridors:
        bit = 1 << names.index(corridor.passage) if corridor.passage else 0
        ids = net.add_chain(corridor.line, bit)
        ends = [0] if corridor.ports else [0, -1]
        for end in ends:
            x, y = (float(c) for c in corridor.line[end])
            found = attach(coast, targets, x, y, index)
            if found is None:
                raise ValueError(f"corridor {corridor.name!r}: an end cannot reach the network")
            joins.append((found, 0, ids[end]))
    apply_joins(net, joins)


def placed_ports(
    net: LaneGraph, corridors: list[Corridor], names: tuple[str, ...]
) -> list[PortSite]:
    """Ports with corrected positions, moved onto water, each joined to the network (inland
    ports and those no water path joins are flagged, not joined)."""
    coast = coastline()
    sites = corrected(searoute_ports(), data_dir() / "port_positions.csv")
    sites = without_aliases(sites, data_dir() / "port_aliases.csv")
    sites = renamed(sites, read_aliases(data_dir() / "official_aliases.csv"))
    navigable = Navigable(coast, corridors)
    sites = [navigable.place(site) for site in sites]
    log(f"ports: {sum(s.status == 'moved' for s in sites)} moved onto water")
    targets = NetworkTargets(net)
    index = CorridorIndex(corridors)
    joins: list[tuple[Join, int, int]] = []
    out: list[PortSite] = []
    for k, site in enumerate(sites):
        if k % 500 == 0:
            log(f"ports: joining {k} of {len(sites)}")
        found = (
            None if site.status == "inland" else attach(coast, targets, site.lon, site.lat, index)
        )
        if found is None:
            out.append(site if site.status == "inland" else _unjoined(site))
            continue
        # A port's join carries a corridor's passage only when the corridor is its approach
        # (Hamburg on the Elbe), not when the port merely lies by a canal (Balboa, Panama).
        k = int(index.which(np.array([site.lon]), np.array([site.lat]))[0])
        passage = corridors[k].passage if k >= 0 and site.locode in corridors[k].ports else None
        mask = 1 << names.index(passage) if passage else 0
        joins.append((found, mask, -1))
        extra = extra_joins(coast, targets, site.lon, site.lat, found)
        joins.extend((j, mask, -1) for j in extra)
        out.append(site)
    apply_joins(net, joins)
    joined = sum(site.status != "inland" for site in out)
    log(f"ports: {len(out)}, joined {joined}, inland {len(out) - joined}; {len(joins)} joins")
    return out


def repair_joins(net: LaneGraph, corridors: list[Corridor]) -> None:
    """Re-route by water the joins (of corridor ends and ports) that touch land outside the
    corridors, keeping any that no water path replaces (logged)."""
    coast, index, report = coastline(), CorridorIndex(corridors), RepairReport()
    added = reroute_edges(net, coast, index, report, keep=True)
    reroute_edges(net, coast, index, report, only=added, keep=True)
    log(f"joins repaired: re-routed {dict(report.rerouted)}; kept {len(report.dropped)}")


def _unjoined(site: PortSite) -> PortSite:
    """A port on water that no water path joins to the network: flagged like an inland port."""
    return PortSite(
        site.locode, site.name, site.country_name, site.lon, site.lat, "inland", 0.0, site.source
    )


def flag_unjoined(net: LaneGraph, sites: list[PortSite]) -> list[PortSite]:
    """Ports whose berth is not a node of the final network (their join was cut off with a small
    component) are flagged inland."""
    nodes = {(round(x, 6), round(y, 6)) for x, y in zip(net.lon, net.lat, strict=True)}
    return [
        s if s.status == "inland" or (round(s.lon, 6), round(s.lat, 6)) in nodes else _unjoined(s)
        for s in sites
    ]
