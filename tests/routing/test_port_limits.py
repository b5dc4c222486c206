"""Port limits: the shipped tables read whole, and a vessel drawing more than a port's channel
(or the river to it) takes is refused that port as origin, via point or destination, by every
way into the engine (a route, future positions, an itinerary, a fleet), with the figure that
refused it."""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime
from fractions import Fraction

import pandas as pd
import pytest

import sealane
from sealane import fleet
from sealane.routing.data import data_dir
from sealane.routing.port_limits import port_limits
from sealane.routing.ports import registry
from sealane.routing.vessel import MAX_DRAFT_M

T0 = datetime(2026, 3, 1, 6, 0, tzinfo=UTC)
#: Off Cape Hatteras.
AT_SEA = (-74.8, 34.5)


def test_table__every_row_a_known_port_with_a_draft_and_a_source() -> None:
    limits = port_limits()
    assert len(limits) >= 9
    for locode, limit in limits.items():
        assert limit.locode == locode
        registry().get(locode)  # a known port, or UnknownPortError
        assert 6.0 <= limit.draft_m <= MAX_DRAFT_M, locode  # Seville's river, 6.5 m, the least
        assert limit.name and limit.source, locode


@pytest.mark.parametrize(
    ("origin", "destination", "via", "role"),
    [
        ("USSAV", "NLRTM", (), "origin"),
        ("NLRTM", "USSAV", (), "destination"),
        ("NLRTM", "USNYC", ("USSAV",), "via[0]"),
    ],
)
def test_route__draft_over_the_channel_refused_naming_it(
    origin: str, destination: str, via: tuple[str, ...], role: str
) -> None:
    with pytest.raises(sealane.NoRouteError) as refused:
        sealane.route(origin, destination, via=via, draft_m=17.0)
    message = str(refused.value)
    assert message.startswith(f"{role} USSAV (Savannah)")
    assert "draft 17 m exceeds the 16.73 m of Savannah Harbor's channel at high water" in message


def test_route__a_draft_given_as_a_fraction_refused_not_a_type_error() -> None:
    """A Fraction is a real number the vessel checks take; its message once failed to format."""
    with pytest.raises(sealane.NoRouteError, match=r"draft 17 m exceeds the 16\.73 m"):
        sealane.route("NLRTM", "USSAV", draft_m=Fraction(17))


def test_route__a_draft_the_channel_takes_and_no_draft_sail() -> None:
    fits = sealane.route("NLRTM", "USSAV", draft_m=16.0)
    assert fits.distance_nm == pytest.approx(sealane.route("NLRTM", "USSAV").distance_nm, rel=0.05)
    assert sealane.route("NLRTM", "USSAV", beam_m=50.0).distance_nm > 3_000  # no draft known
    assert sealane.route("NLRTM", "USLGB", draft_m=20.0, allow=["panama"]).distance_nm > 0


def test_future_positions__destination_refused_previous_port_not() -> None:
    with pytest.raises(sealane.NoRouteError, match="destination_port USSAV"):
        sealane.future_positions(AT_SEA, "USNYC", "USSAV", start_time=T0, draft_m=17.0)
    # Having left Savannah the vessel is past its channel: only where it goes is checked.
    away = sealane.future_positions(AT_SEA, "USSAV", "NLRTM", start_time=T0, draft_m=17.0)
    assert away.eta > T0


def test_itinerary__a_call_the_vessel_draws_too_much_for_refused() -> None:
    calls = ["NLRTM", "USSAV", "USHOU"]
    with pytest.raises(sealane.NoRouteError, match="USSAV"):
        sealane.itinerary(calls, departed_at=T0, draft_m=17.0)
    assert len(sealane.itinerary(calls, departed_at=T0, draft_m=13.5).legs) == 2
    with pytest.raises(sealane.NoRouteError, match="USHOU"):  # the Houston Ship Channel's 13.72
        sealane.itinerary(calls, departed_at=T0, draft_m=14.0)


def test_fleet__rows_bound_for_a_port_too_shallow_flagged_others_computed() -> None:
    frame = pd.DataFrame({
        "lon": [AT_SEA[0]] * 3, "lat": [AT_SEA[1]] * 3,
        "previous_port": "USNYC", "destination_port": ["USSAV", "USSAV", "USCHS"],
        "draft_m": [17.0, 16.0, 17.0],
    })  # fmt: skip
    out = fleet.etas(frame, at=T0)
    assert out.error.iloc[0] == "no_route" and out.error.iloc[1:].isna().all()
    expected = sealane.future_positions(AT_SEA, "USNYC", "USSAV", start_time=T0, draft_m=16.0)
    assert out.eta.iloc[1] == pd.Timestamp(expected.eta)


#: Per port up a river corridor (golden): a word of the river's name the refusal gives, and the
#: river's figure to it in metres (``data/river_limits.csv``).
RIVER_PORTS = [
    ("USMSY", "Mississippi", 15.24),
    ("USNEW", "Mississippi", 15.24),
    ("USBTR", "Mississippi", 13.72),
    ("USPHL", "Delaware", 13.72),
    ("USJAX", "St. Johns", 12.19),
    ("USPDX", "Columbia", 13.11),
    ("USVAN", "Columbia", 13.11),
    ("CNHUA", "Pearl River", 11.5),
    ("CNCAN", "Pearl River", 11.5),
    ("CNNKG", "Yangtze", 12.5),
    ("INCCU", "Hooghly", 8.7),
    ("ARROS", "Parana", 10.36),
    ("ARSLO", "Parana", 10.36),
    ("DEBRE", "Weser", 11.1),
    ("FRURO", "Seine", 11.7),
    ("FRBOD", "Garonne", 8.0),
    ("ESSVQ", "Guadalquivir", 6.5),
    ("CAMTR", "St. Lawrence", 11.3),
    ("THBKK", "Chao Phraya", 8.2),
    ("VNSGN", "Saigon", 11.0),
    ("GBLON", "Thames", 15.1),
]


def test_river_limits__every_row_a_corridor_serving_its_port() -> None:
    spec = json.loads((data_dir() / "passages.json").read_text())
    served = {c["name"]: set(c.get("ports", ())) for c in spec["corridors"]}
    with (data_dir() / "river_limits.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted((r["locode"], float(r["draft_m"])) for r in rows) == sorted(
        (locode, draft) for locode, _, draft in RIVER_PORTS
    )
    for row in rows:
        assert row["locode"] in served[row["river"]], row
        assert row["name"] and row["source"], row


@pytest.mark.parametrize(("locode", "river", "draft_m"), RIVER_PORTS)
def test_river_ports__a_ship_deeper_than_the_river_refused_naming_it(
    locode: str, river: str, draft_m: float
) -> None:
    with pytest.raises(sealane.NoRouteError) as refused:
        sealane.route("NLRTM", locode, draft_m=draft_m + 0.5)
    message = str(refused.value)
    assert message.startswith(f"destination {locode} ")
    assert f"draft {draft_m + 0.5:g} m exceeds the {draft_m:g} m of " in message
    assert river in message


@pytest.mark.parametrize(("locode", "river", "draft_m"), RIVER_PORTS)
def test_river_ports__a_ship_the_river_takes_routed_up_it(
    locode: str, river: str, draft_m: float
) -> None:
    assert not sealane.get_port(locode).inland
    assert sealane.route("NLRTM", locode, draft_m=draft_m - 0.5).distance_m > 0
