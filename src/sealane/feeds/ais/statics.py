"""Store what vessels report of themselves: call sign, ship type, size, destination and ETA.

AIS static reports (types 5, 19 and 24, AISStream's ShipStaticData) and the optional dimensions
of ``POST /v2/vessel_positions`` become :class:`VesselStatic` facts, which :func:`store_statics`
writes onto the vessels with those MMSIs: one query finds the vessels of a whole batch, one
statement (run once per vessel's parameters) updates them. Newest wins: a report older than
what a vessel already holds leaves it, per group of fields (the dimensions, the rest), and a
value not reported (None) never erases a known one.

How AIS "not available" and "that or more" codes are read (:func:`read_report`):

* draught: 0 is unknown; 25.5 m means "25.5 m or more" and is kept as 25.5 m, a lower bound
  that already closes every passage shallower than that;
* length is to bow + to stern, beam to port + to starboard, each unknown when both of its parts
  are 0 ("not available") or one is negative; one part 0 is kept (a transponder given only the
  overall size reports its reference point at the bow, as the AIVDM notes' type 24 sample does);
* 511 m to bow or stern ("511 m or more") makes a length over any ship's: unknown;
  63 m to port or starboard ("63 m or more") is kept as 63 m, a lower bound like the draught's;
* a dimension beyond the routing engine's bound (30 m draught, 80 m beam, 500 m length) is a
  transponder's typo, not a ship: unknown;
* ship type 0 (and anything outside 1-99) is unknown.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, case, func, or_, select, update
from sqlalchemy.orm import Session

from ...routing.vessel import MAX_BEAM_M, MAX_DRAFT_M, MAX_LENGTH_M
from ...store.models import Vessel
from .reports import StaticReport
from .storage import among

#: Who reported a vessel's dimensions (``Vessel.dimensions_source``).
AIS = "ais"
POSITION_FEED = "position_feed"
#: Longest destination kept (AIS allows 20 characters; AISStream's texts are alike).
MAX_DESTINATION_CHARS = 64
MAX_CALL_SIGN_CHARS = 16
#: AIS's "511 m or more" to bow or stern (its 63 m to port or starboard is kept: see above).
FAR_BOW_STERN_M = 511


class VesselStatic(NamedTuple):
    """What one report says of a vessel (None: not reported, or not usable), metres and UTC."""

    mmsi: int
    time_s: float
    source: str = AIS
    call_sign: str | None = None
    ship_type: int | None = None
    length_m: float | None = None
    beam_m: float | None = None
    draught_m: float | None = None
    destination: str | None = None
    eta_s: float | None = None

    @property
    def has_dimensions(self) -> bool:
        """Whether it gives any of length, beam and draught."""
        return not (self.length_m is None and self.beam_m is None and self.draught_m is None)

    @property
    def has_other(self) -> bool:
        """Whether it gives any of call sign, ship type, destination and ETA."""
        values = (self.call_sign, self.ship_type, self.destination, self.eta_s)
        return any(value is not None for value in values)


def read_report(report: StaticReport) -> VesselStatic:
    """The usable facts of an AIS static report (see the module docstring for the codes)."""
    bow, stern = report.to_bow_m, report.to_stern_m
    port, starboard = report.to_port_m, report.to_starboard_m
    length = beam = None
    if (
        bow is not None
        and stern is not None
        and 0 <= min(bow, stern) <= max(bow, stern) < FAR_BOW_STERN_M
    ):
        length = bounded(bow + stern, MAX_LENGTH_M)
    if port is not None and starboard is not None and min(port, starboard) >= 0:
        beam = bounded(port + starboard, MAX_BEAM_M)
    kind = report.ship_type
    return VesselStatic(
        report.mmsi,
        report.time_s,
        AIS,
        call_sign=_clipped(report.callsign, MAX_CALL_SIGN_CHARS),
        ship_type=kind if kind is not None and 1 <= kind <= 99 else None,
        length_m=length,
        beam_m=beam,
        draught_m=bounded(report.draught_m, MAX_DRAFT_M),
        destination=_clipped(report.destination, MAX_DESTINATION_CHARS),
        eta_s=report.eta_s,
    )


def bounded(value: float | None, most: float) -> float | None:
    """``value`` in metres when finite, above 0 and at most ``most``, else None (unknown)."""
    if value is None or not math.isfinite(value) or not 0.0 < value <= most:
        return None
    return float(value)


def _clipped(text: str | None, most: int) -> str | None:
    return text[:most] if text else None


def store_reports(session: Session, reports: Sequence[StaticReport]) -> int:
    """Store a batch of AIS static reports (:func:`store_statics` of :func:`read_report`)."""
    return store_statics(session, [read_report(r) for r in reports])


def store_statics(session: Session, statics: Iterable[VesselStatic]) -> int:
    """Write the newest facts of each MMSI onto its vessels; how many vessels were updated."""
    newest = _newest(statics)
    if not newest:
        return 0
    by_key = {str(mmsi): facts for mmsi, facts in newest.items()}
    query = select(Vessel.id, Vessel.mmsi).where(among(session, Vessel.mmsi, sorted(by_key)))
    rows = session.execute(query).all()
    params = [_params(vessel_id, by_key[mmsi]) for vessel_id, mmsi in rows if mmsi in by_key]
    if params:
        session.connection().execute(_UPDATE, params)
    return len(params)


def _newest(statics: Iterable[VesselStatic]) -> dict[int, tuple[VesselStatic, VesselStatic]]:
    """By MMSI, the latest report with dimensions and the latest with other facts, merged
    field by field (a type 24 part A and part B of one moment make one vessel's facts)."""
    found: dict[int, tuple[VesselStatic, VesselStatic]] = {}
    for fact in statics:
        if not (fact.has_dimensions or fact.has_other):
            continue
        empty = VesselStatic(fact.mmsi, -math.inf)
        sized, other = found.get(fact.mmsi, (empty, empty))
        if fact.has_dimensions:
            sized = _merged(sized, fact)
        if fact.has_other:
            other = _merged(other, fact)
        found[fact.mmsi] = (sized, other)
    return found


def _merged(held: VesselStatic, new: VesselStatic) -> VesselStatic:
    """``new`` with ``held``'s values where it has none, or ``held`` if ``new`` is older."""
    older, newer = (held, new) if new.time_s >= held.time_s else (new, held)
    kept = {name: getattr(older, name) for name in _FACTS if getattr(newer, name) is None}
    return newer._replace(**kept)


#: The fields of a :class:`VesselStatic` that are facts (not the MMSI, time or source).
_FACTS = VesselStatic._fields[3:]


def _params(vessel_id: str, facts: tuple[VesselStatic, VesselStatic]) -> dict[str, Any]:
    sized, other = facts
    return {
        "b_id": vessel_id,
        "b_sized_at": _time(sized.time_s),
        "b_source": sized.source if sized.has_dimensions else None,
        "b_length": sized.length_m,
        "b_beam": sized.beam_m,
        "b_draught": sized.draught_m,
        "b_other_at": _time(other.time_s),
        "b_call_sign": other.call_sign,
        "b_ship_type": other.ship_type,
        "b_destination": other.destination,
        "b_eta": _time(other.eta_s) if other.eta_s is not None else None,
    }


def _time(time_s: float) -> datetime | None:
    return datetime.fromtimestamp(time_s, UTC) if math.isfinite(time_s) else None


def _param(name: str, column: Any) -> Any:
    """Bind parameter ``name`` of ``column``'s type; never tested with IS NULL itself, so
    PostgreSQL infers its type from the column it meets."""
    return bindparam(name, type_=column.type)


def _newer(column: Any, at: str) -> Any:
    """The report timed by bind parameter ``at`` is not older than the column's time (when the
    report has no time, only a column without one passes: the values are None then, below)."""
    return or_(column.is_(None), column <= _param(at, column))


def _keep(column: Any, name: str, newer: Any) -> Any:
    """The reported value when the report is newer and gives one, else the stored value."""
    return case((newer, func.coalesce(_param(name, column), column)), else_=column)


_SIZED = _newer(Vessel.dimensions_updated_at, "b_sized_at")
_OTHER = _newer(Vessel.static_updated_at, "b_other_at")
_UPDATE = (
    update(Vessel)
    .where(Vessel.id == bindparam("b_id"))
    .values(
        length_m=_keep(Vessel.length_m, "b_length", _SIZED),
        beam_m=_keep(Vessel.beam_m, "b_beam", _SIZED),
        draught_m=_keep(Vessel.draught_m, "b_draught", _SIZED),
        dimensions_source=_keep(Vessel.dimensions_source, "b_source", _SIZED),
        dimensions_updated_at=_keep(Vessel.dimensions_updated_at, "b_sized_at", _SIZED),
        call_sign=_keep(Vessel.call_sign, "b_call_sign", _OTHER),
        ship_type=_keep(Vessel.ship_type, "b_ship_type", _OTHER),
        reported_destination=_keep(Vessel.reported_destination, "b_destination", _OTHER),
        reported_eta=_keep(Vessel.reported_eta, "b_eta", _OTHER),
        static_updated_at=_keep(Vessel.static_updated_at, "b_other_at", _OTHER),
    )
)
