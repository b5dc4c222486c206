"""AIS static data: types 5, 19 and 24 decoded into StaticReports, read and stored on vessels."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.decoding import SentenceDecoder
from sealane.feeds.ais.ingest import Ingestor
from sealane.feeds.ais.reports import StaticReport, eta_time_s
from sealane.feeds.ais.statics import POSITION_FEED, VesselStatic, read_report, store_statics
from sealane.store.database import transaction
from sealane.store.models import Vessel

from .support import T0, T0_S, line, sentences

MMSI = 244670316
FIVE: dict[str, Any] = {
    "type": 5,
    "mmsi": MMSI,
    "imo": 9074729,
    "callsign": "PDAB",
    "shipname": "SEALANE STATIC",
    "ship_type": 71,
    "to_bow": 300,
    "to_stern": 66,
    "to_port": 24,
    "to_starboard": 24,
    "month": 12,
    "day": 3,
    "hour": 6,
    "minute": 30,
    "draught": 14.7,
    "destination": "NLRTM",
}


def decoded(*messages: dict[str, Any]) -> list[StaticReport]:
    lines = [line(text) for fields in messages for text in sentences(**fields)]
    return SentenceDecoder().decode(lines).statics


# -- decoding ---------------------------------------------------------------------------------


def test_type5__every_static_field() -> None:
    (report,) = decoded(FIVE)
    eta = datetime(2026, 12, 3, 6, 30, tzinfo=UTC).timestamp()
    assert report == StaticReport(
        MMSI,
        T0_S,
        imo="9074729",
        name="SEALANE STATIC",
        callsign="PDAB",
        destination="NLRTM",
        ship_type=71,
        to_bow_m=300,
        to_stern_m=66,
        to_port_m=24,
        to_starboard_m=24,
        draught_m=pytest.approx(14.7),
        eta_s=eta,
    )


def test_type5__the_public_sample_of_the_ever_diadem() -> None:
    """The two-sentence type 5 sample of the AIVDM/AIVDO protocol notes (gpsd), decoded."""
    parts = [
        "!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C",
        "!AIVDM,2,2,1,A,88888888880,2*25",
    ]
    (report,) = SentenceDecoder().decode([line(text) for text in parts]).statics
    assert report == StaticReport(
        351759000,
        T0_S,
        imo="9134270",
        name="EVER DIADEM",
        callsign="3FOF8",
        destination="NEW YORK",
        ship_type=70,
        to_bow_m=225,
        to_stern_m=70,
        to_port_m=1,
        to_starboard_m=31,
        draught_m=pytest.approx(12.2),
        eta_s=datetime(2027, 5, 15, 14, 0, tzinfo=UTC).timestamp(),
    )
    facts = read_report(report)
    assert (facts.length_m, facts.beam_m, facts.draught_m) == (295.0, 32.0, pytest.approx(12.2))


def test_type24__the_public_samples_of_the_proguy() -> None:
    """The type 24 part A and part B samples of the AIVDM/AIVDO protocol notes (gpsd): the part B
    gives its reference point at the bow and port side (0 m), which still sizes the vessel."""
    parts = [
        "!AIVDM,1,1,,A,H42O55i18tMET00000000000000,2*6D",
        "!AIVDM,1,1,,A,H42O55lti4hhhilD3nink000?050,0*40",
    ]
    part_a, part_b = SentenceDecoder().decode([line(text) for text in parts]).statics
    assert part_a == StaticReport(271041815, T0_S, name="PROGUY")
    assert (part_b.callsign, part_b.ship_type) == ("TC6163", 60)
    dims = (part_b.to_bow_m, part_b.to_stern_m, part_b.to_port_m, part_b.to_starboard_m)
    assert dims == (0, 15, 0, 5)
    facts = read_report(part_b)
    assert (facts.length_m, facts.beam_m, facts.draught_m) == (15.0, 5.0, None)


def test_type24__part_a_names_part_b_sizes() -> None:
    part_a = {"type": 24, "mmsi": MMSI, "partno": 0, "shipname": "LITTLE B"}
    part_b = {
        "type": 24,
        "mmsi": MMSI,
        "partno": 1,
        "ship_type": 37,
        "callsign": "PE1234",
        "to_bow": 9,
        "to_stern": 3,
        "to_port": 2,
        "to_starboard": 2,
    }
    first, second = decoded(part_a, part_b)
    assert first == StaticReport(MMSI, T0_S, name="LITTLE B")
    assert second == StaticReport(
        MMSI,
        T0_S,
        callsign="PE1234",
        ship_type=37,
        to_bow_m=9,
        to_stern_m=3,
        to_port_m=2,
        to_starboard_m=2,
    )


def test_type19__name_type_and_dimensions() -> None:
    fields = {"type": 19, "mmsi": MMSI, "shipname": "NINETEEN", "ship_type": 60, "lon": 4.1}
    fields |= {"lat": 52.0, "to_bow": 20, "to_stern": 10, "to_port": 4, "to_starboard": 5}
    (report,) = decoded(fields)
    assert (report.name, report.ship_type, report.to_bow_m, report.to_starboard_m) == (
        "NINETEEN",
        60,
        20,
        5,
    )


@pytest.mark.parametrize(
    ("parts", "reported_at", "expected"),
    [
        ((12, 3, 6, 30), T0, datetime(2026, 12, 3, 6, 30, tzinfo=UTC)),
        ((1, 5, 0, 0), datetime(2026, 12, 20, tzinfo=UTC), datetime(2027, 1, 5, tzinfo=UTC)),
        ((12, 30, 0, 0), datetime(2027, 1, 2, tzinfo=UTC), datetime(2026, 12, 30, tzinfo=UTC)),
        ((2, 29, 12, 0), datetime(2027, 11, 1, tzinfo=UTC), datetime(2028, 2, 29, 12, tzinfo=UTC)),
    ],
)
def test_eta__nearest_year(
    parts: tuple[int, int, int, int], reported_at: datetime, expected: datetime
) -> None:
    assert eta_time_s(*parts, reported_at.timestamp()) == expected.timestamp()


@pytest.mark.parametrize(
    "parts", [(0, 3, 6, 30), (12, 0, 6, 30), (12, 3, 24, 30), (12, 3, 6, 60), (4, 31, 0, 0)]
)
def test_eta__not_available_or_no_such_day(parts: tuple[int, int, int, int]) -> None:
    assert eta_time_s(*parts, T0_S) is None


# -- reading the codes ------------------------------------------------------------------------


def sized(**dims: Any) -> StaticReport:
    return StaticReport(MMSI, T0_S, **dims)


def test_read__length_beam_draught_from_the_parts() -> None:
    facts = read_report(decoded(FIVE)[0])
    assert (facts.length_m, facts.beam_m, facts.draught_m) == (366.0, 48.0, pytest.approx(14.7))
    assert (facts.call_sign, facts.ship_type, facts.destination) == ("PDAB", 71, "NLRTM")


@pytest.mark.parametrize(
    ("dims", "expected"),
    [
        ({"to_bow_m": 0, "to_stern_m": 0, "to_port_m": 0, "to_starboard_m": 0}, (None, None)),
        ({"to_bow_m": 100, "to_stern_m": 0, "to_port_m": 10, "to_starboard_m": 0}, (100.0, 10.0)),
        ({"to_bow_m": 511, "to_stern_m": 20, "to_port_m": 63, "to_starboard_m": 5}, (None, 68.0)),
        ({"to_bow_m": 400, "to_stern_m": 200, "to_port_m": 63, "to_starboard_m": 63}, (None, None)),
        ({"to_bow_m": -5, "to_stern_m": 300, "to_port_m": -1, "to_starboard_m": 30}, (None, None)),
    ],
    ids=["all-zero", "one-side-zero", "511-and-63-or-more", "beyond-any-ship", "negative"],
)
def test_read__unavailable_and_lower_bound_dimensions(
    dims: dict[str, int], expected: tuple[float | None, float | None]
) -> None:
    facts = read_report(sized(**dims))
    assert (facts.length_m, facts.beam_m) == expected


@pytest.mark.parametrize(
    ("draught", "expected"), [(0.0, None), (25.5, 25.5), (31.0, None), (math.nan, None)]
)
def test_read__draught_codes(draught: float, expected: float | None) -> None:
    assert read_report(sized(draught_m=draught)).draught_m == expected


@pytest.mark.parametrize("kind", [0, 100, 255])
def test_read__ship_type_not_available(kind: int) -> None:
    assert read_report(sized(ship_type=kind)).ship_type is None


# -- storing ----------------------------------------------------------------------------------


def add_vessel(sessions: sessionmaker[Session], mmsi: str | None, imo: str | None = None) -> str:
    with transaction(sessions) as session:
        vessel = Vessel(name="Static test", imo=imo, mmsi=mmsi)
        session.add(vessel)
        session.flush()
        return vessel.id


def stored(sessions: sessionmaker[Session], vessel_id: str) -> Vessel:
    with sessions() as session:
        found = session.scalars(select(Vessel).where(Vessel.id == vessel_id)).one()
        session.expunge(found)
        return found


def test_store__ingested_type5_lands_on_the_vessel(sessions: sessionmaker[Session]) -> None:
    vessel_id = add_vessel(sessions, str(MMSI))
    Ingestor(sessions, ManualClock(T0)).ingest([], decoded(FIVE))
    vessel = stored(sessions, vessel_id)
    assert (vessel.length_m, vessel.beam_m, vessel.draught_m) == (366.0, 48.0, 14.7)
    assert (vessel.call_sign, vessel.ship_type, vessel.reported_destination) == (
        "PDAB",
        71,
        "NLRTM",
    )
    assert vessel.reported_eta == datetime(2026, 12, 3, 6, 30, tzinfo=UTC)
    assert (vessel.dimensions_source, vessel.dimensions_updated_at) == ("ais", T0)
    assert vessel.static_updated_at == T0


def test_store__the_mmsi_learnt_from_the_imo_in_the_same_batch(
    sessions: sessionmaker[Session],
) -> None:
    vessel_id = add_vessel(sessions, None, imo="9074729")
    Ingestor(sessions, ManualClock(T0)).ingest([], decoded(FIVE))
    assert stored(sessions, vessel_id).draught_m == 14.7


def test_store__newest_wins_and_unavailable_values_keep_known_ones(
    sessions: sessionmaker[Session],
) -> None:
    vessel_id = add_vessel(sessions, str(MMSI))
    newer = StaticReport(MMSI, T0_S + 60, draught_m=12.0, to_bow_m=0, to_stern_m=0)
    older = StaticReport(MMSI, T0_S, draught_m=9.0, to_bow_m=100, to_stern_m=50, callsign="OLD")
    blank = StaticReport(MMSI, T0_S + 120, draught_m=0.0, ship_type=0, to_bow_m=0)
    ingestor = Ingestor(sessions, ManualClock(T0))
    ingestor.ingest([], [newer])
    ingestor.ingest([], [older])  # older dimensions: ignored; its call sign is the first known
    ingestor.ingest([], [blank])  # "not available" everywhere: nothing changes
    vessel = stored(sessions, vessel_id)
    assert (vessel.draught_m, vessel.length_m, vessel.call_sign) == (12.0, None, "OLD")
    assert vessel.dimensions_updated_at == datetime.fromtimestamp(T0_S + 60, UTC)


def test_store__one_batch_merges_field_by_field_newest_first(
    sessions: sessionmaker[Session],
) -> None:
    vessel_id = add_vessel(sessions, str(MMSI))
    facts = [
        VesselStatic(MMSI, T0_S + 10, POSITION_FEED, draught_m=11.0),
        VesselStatic(MMSI, T0_S, POSITION_FEED, draught_m=8.0, length_m=200.0),
        VesselStatic(MMSI + 1, T0_S, POSITION_FEED, draught_m=5.0),  # no such vessel
    ]
    with transaction(sessions) as session:
        assert store_statics(session, facts) == 1
    vessel = stored(sessions, vessel_id)
    assert (vessel.draught_m, vessel.length_m, vessel.dimensions_source) == (
        11.0,
        200.0,
        "position_feed",
    )
