"""Depth: the water a vessel needs under it, and the depth bands of the network's edges.

Every straight shortcut the build adds to the network carries its least depth, measured on a
bathymetry grid (ETOPO1, see ``data/README.md``), and the bands that depth falls below: an edge
of least depth 12 m carries the bands "under 13.5 m", "under 17.6 m" and "under 25 m". The bands
are bits of the edges' passage masks, named after the passages in the graph file, so the search
closes a band exactly as it closes a passage and keeps its speed.

A vessel needs its draft plus an under-keel clearance: 10 % of the draft, at least 1.5 m. It
closes the shallowest band at or above that need, so an edge it may not use is always closed
(and an edge a little deeper than the need may be closed too: four bands are all the mask has
room for). Where that band's bound lies above the need, the route is searched first with the
band below closed instead (:func:`band_below`) and kept when every edge it sails is as deep as
the need (``SeaGraph.edge_depth_m``); otherwise the band's own route stands, so a vessel is
held to the depth it needs, and to no more where the looser search finds a route deep enough.
A need beyond the deepest band (a draft over 22.7 m) closes that band, the most the bands can
tell. Without a draft the route is the default vessel's (a feeder of 7.7 m draft,
see the README), which needs 9.2 m: the shallowest band is closed on every route. Only the
build's straight shortcuts carry that band (searoute's lanes along shallow coasts are where
feeders sail, though the 0.1 degree grid reads them shallower), so it keeps the default routes
off the build's own lines over shallow water.
"""

from __future__ import annotations

#: Under-keel clearance: this share of the draft, and at least ``MIN_CLEARANCE_M``.
CLEARANCE_SHARE = 0.10
MIN_CLEARANCE_M = 1.5
#: The depth bands' upper bounds in metres, shallowest first: the need of the default vessel
#: (7.7 m draft), of a 12 m draft, of a 16 m draft and of a 22.7 m draft.
BANDS_M: tuple[float, ...] = (9.2, 13.5, 17.6, 25.0)
#: How a band is named among the graph's passage bits.
BAND_PREFIX = "depth<"


def band_name(bound_m: float) -> str:
    """The bit name of the band of edges shallower than ``bound_m``.

    >>> band_name(13.5)
    'depth<13.5m'
    """
    return f"{BAND_PREFIX}{bound_m:g}m"


#: Every band's bit name, shallowest first.
BAND_NAMES: tuple[str, ...] = tuple(band_name(bound) for bound in BANDS_M)


def is_band(name: str) -> bool:
    """Whether a passage-bit name is a depth band's, not a passage's."""
    return name.startswith(BAND_PREFIX)


def needed_depth_m(draft_m: float) -> float:
    """The least depth a vessel of ``draft_m`` may sail over: its draft and the clearance.

    >>> needed_depth_m(12.0), needed_depth_m(20.0)
    (13.5, 22.0)
    """
    return draft_m + max(CLEARANCE_SHARE * draft_m, MIN_CLEARANCE_M)


def band_closed(draft_m: float | None) -> str:
    """The name of the band a vessel of ``draft_m`` closes (None: the default vessel's).

    >>> band_closed(None), band_closed(12.0), band_closed(14.0), band_closed(24.0)
    ('depth<9.2m', 'depth<13.5m', 'depth<17.6m', 'depth<25m')
    """
    if draft_m is None:
        return BAND_NAMES[0]
    need = round(needed_depth_m(draft_m), 6)  # 12 m needs 13.5 m, not 13.500000000000002
    for bound, name in zip(BANDS_M, BAND_NAMES, strict=True):
        if need <= bound:
            return name
    return BAND_NAMES[-1]


def band_below(draft_m: float) -> str | None:
    """The band below the one a vessel of ``draft_m`` closes, when its need lies strictly
    between the two bounds (closing it closes only water too shallow for the vessel); None
    when the need is a band's bound or no deeper than the default vessel's band (always closed).

    >>> band_below(10.0), band_below(12.0), band_below(14.0), band_below(7.0)
    ('depth<9.2m', None, 'depth<13.5m', None)
    """
    need = round(needed_depth_m(draft_m), 6)
    below = [name for bound, name in zip(BANDS_M, BAND_NAMES, strict=True) if bound < need]
    closed = band_closed(draft_m)
    if not below or need >= BANDS_M[BAND_NAMES.index(closed)]:
        return None
    return below[-1]


def band_mask(draft_m: float | None, bit_names: tuple[str, ...]) -> int:
    """The bit over ``bit_names`` of the band a vessel of ``draft_m`` closes (0 for a graph file
    without depth bands)."""
    name = band_closed(draft_m)
    return 1 << bit_names.index(name) if name in bit_names else 0
