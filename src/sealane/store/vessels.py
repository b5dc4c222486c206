"""Vessel look-up by id or IMO number: one indexed Core query, no ORM session.

The routing endpoints read one vessel per request before a CPU-heavy computation; going through
the ORM (session, identity map, instance loading) cost several times the query itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, String, bindparam, or_, select
from sqlalchemy.sql.elements import BindParameter

from .models import Vessel

_TABLE = Vessel.__table__
#: The columns of what a vessel reports of itself, in :class:`VesselRecord` order after the
#: position (see :mod:`sealane.feeds.ais.statics`).
STATIC_FIELDS = (
    "call_sign",
    "ship_type",
    "length_m",
    "beam_m",
    "draught_m",
    "dimensions_source",
    "dimensions_updated_at",
    "reported_destination",
    "reported_eta",
    "static_updated_at",
)
_KEY: BindParameter[str] = bindparam("key", type_=String())
#: The vessel whose id is the key, else the one whose IMO number is (ids are uuids, IMO numbers
#: seven digits, so at most one of each; the id wins if both exist).
_BY_ID_OR_IMO = (
    select(
        _TABLE.c.id,
        _TABLE.c.name,
        _TABLE.c.imo,
        _TABLE.c.mmsi,
        _TABLE.c.latitude,
        _TABLE.c.longitude,
        _TABLE.c.nautical_speed_knots,
        _TABLE.c.navigational_heading_degrees,
        _TABLE.c.position_timestamp,
        *(_TABLE.c[name] for name in STATIC_FIELDS),
    )
    .where(or_(_TABLE.c.id == _KEY, _TABLE.c.imo == _KEY))
    .order_by((_TABLE.c.id == _KEY).desc())
    .limit(1)
)


@dataclass(frozen=True, slots=True)
class VesselRecord:
    """A vessel's identity and latest known position, as read in one query."""

    id: str
    name: str
    imo: str | None
    mmsi: str | None
    latitude: float | None
    longitude: float | None
    nautical_speed_knots: float | None
    navigational_heading_degrees: float | None
    position_timestamp: datetime | None
    #: What the vessel reported of itself (AIS static data, the position feed): call sign, AIS
    #: ship type code, length, beam and draught in metres, who reported the dimensions
    #: (``ais`` or ``position_feed``) and when, its destination and ETA, and when the latest
    #: static report came. None where nothing usable was reported.
    call_sign: str | None = None
    ship_type: int | None = None
    length_m: float | None = None
    beam_m: float | None = None
    draught_m: float | None = None
    dimensions_source: str | None = None
    dimensions_updated_at: datetime | None = None
    reported_destination: str | None = None
    reported_eta: datetime | None = None
    static_updated_at: datetime | None = None


def find_vessel(engine: Engine, key: str) -> VesselRecord | None:
    """The vessel whose id or IMO number is ``key``, or None."""
    with engine.connect() as connection:
        row = connection.execute(_BY_ID_OR_IMO, {"key": key}).first()
    return None if row is None else VesselRecord(*row)
