"""What one route may not sail: the passages closed by name or by default, those a vessel's size
does not fit (with the depth band its draft closes), and why, in the words a refused route gives.

:func:`~.routes.route` asks :func:`closed_for` and :func:`refused_for` for bit masks over the
graph's passage names (both remembered: callers ask again and again with the same few sets and
vessels), refuses an end that only a refused passage reaches (:func:`check_within_reach`), and
when no route is left for the vessel names the limits to blame (:func:`vessel_cause`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .depth import band_below, band_mask, needed_depth_m
from .errors import NoRouteError
from .graph import SeaGraph
from .legs import sail_trimmed
from .limits import Refusal, refusals
from .locations import Location
from .passages import Passage, closed_passages, names_from_mask, passage_mask
from .vessel import Vessel


@lru_cache(maxsize=256)
def closed_for(
    avoid: frozenset[Passage],
    allow_arctic: bool,
    allow: frozenset[Passage],
    names: tuple[str, ...],
) -> tuple[frozenset[Passage], int]:
    """The passages closed to a route and their bit mask over ``names``, with the default
    vessel's depth band (remembered: most callers ask again and again with the same few sets)."""
    closed = closed_passages(avoid, allow_arctic=allow_arctic, allow=allow)
    return closed, passage_mask(closed, names) | band_mask(None, names)


#: What a vessel of unknown dimensions is refused: nothing.
NOTHING_REFUSED: tuple[int, tuple[Refusal, ...]] = (0, ())


@lru_cache(maxsize=256)
def refused_for(vessel: Vessel, names: tuple[str, ...]) -> tuple[int, tuple[Refusal, ...]]:
    """The bit mask over ``names`` of the passages ``vessel`` does not fit and of the depth band
    its draft closes (:mod:`.depth`), and why it is refused the passages (remembered, as a
    vessel asks again and again; a :class:`~.vessel.Vessel` is checked and hashable)."""
    why = refusals(vessel)
    mask = passage_mask({refusal.passage for refusal in why}, names)
    if vessel.draft_m is not None:
        mask |= band_mask(vessel.draft_m, names)
    return mask, why


@lru_cache(maxsize=256)
def held_for(vessel: Vessel, names: tuple[str, ...]) -> tuple[int, float] | None:
    """The mask to search first for ``vessel`` and the depth its route's edges must have: its
    refused mask with the band below the one its draft closes (:func:`~.depth.band_below`),
    when that band lies above its need; None when the band's own mask is the answer."""
    if vessel.draft_m is None:
        return None
    below = band_below(vessel.draft_m)
    if below is None or below not in names:
        return None
    mask, _ = refused_for(vessel, names)
    mask &= ~band_mask(vessel.draft_m, names)
    return mask | (1 << names.index(below)), needed_depth_m(vessel.draft_m)


def check_within_reach(
    network: SeaGraph, stop: Location, refused: int, why: tuple[Refusal, ...]
) -> None:
    """Refuse an end whose nearest lane lies in a passage the vessel does not fit: a port up
    that passage (Hamburg on the Elbe) is no nearer by water for it than the passage itself."""
    bits = int(network.edge_passages[network.snap(stop.lon, stop.lat).edge]) & refused
    names = names_from_mask(bits, network.passage_names)  # a depth band alone is no passage
    if names:
        where = stop.port.locode if stop.port is not None else f"({stop.lon}, {stop.lat})"
        reasons = "; ".join(str(r) for r in why if r.passage.value in names)
        raise NoRouteError(
            f"{where} lies on the {', '.join(names)}, closed to this vessel: {reasons}"
        )


def vessel_cause(
    network: SeaGraph,
    start: Location,
    end: Location,
    blocked: int,
    refused: int,
    why: tuple[Refusal, ...],
) -> str | None:
    """Why no route was left, when the vessel's size is why: the limits of the passages that
    the route without them would sail (None when that route does not exist either)."""
    if not refused:
        return None
    try:
        masks = sail_trimmed(network, start, end, blocked)[2]
    except NoRouteError:
        return None
    needed = names_from_mask(int(np.bitwise_or.reduce(masks)) & refused, network.passage_names)
    reasons = [str(r) for r in why if r.passage.value in needed] or [str(r) for r in why]
    return f"no sea route for this vessel: {'; '.join(reasons)}"
