"""The ``sealane itinerary`` sub-command, called in-process through ``main(argv)``."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

import sealane
from sealane.cli import commands as cli

FOUR_PORTS = ("CNSHA", "SGSIN", "ESALG", "NLRTM")
DEPARTED = ("--departed-at", "2026-03-01T00:00:00Z")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_itinerary__table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "itinerary", *FOUR_PORTS, "--speed", "18", *DEPARTED)
    assert (code, err) == (0, "")
    trip = sealane.itinerary(FOUR_PORTS, speed_kn=18, departed_at=datetime(2026, 3, 1, tzinfo=UTC))
    summary, calls, legs = (section.splitlines() for section in out.strip().split("\n\n"))
    assert summary[0].startswith("ports     CNSHA Shanghai -> SGSIN Singapore")
    assert summary[1] == f"distance  {trip.distance_nm:,.1f} nm"
    assert summary[3] == "eta       " + trip.eta.strftime("%Y-%m-%dT%H:%M:%SZ")  # type: ignore[union-attr]
    assert calls[0].split() == ["call", "label", "port", "arrival", "departure", "name"]
    assert [row.split()[:3] for row in calls[1:]] == [
        ["1", "POL", "CNSHA"],
        ["2", "TS1", "SGSIN"],
        ["3", "TS2", "ESALG"],
        ["4", "POD", "NLRTM"],
    ]
    assert calls[1].split()[3:5] == ["-", "2026-03-01T00:00:00Z"]
    assert legs[0].split() == ["leg", "from", "to", "nm", "kn", "hours", "passages"]
    assert legs[2].split()[:3] == ["2", "SGSIN", "ESALG"]
    assert legs[2].endswith("malacca, babalmandab, suez")
    assert float(legs[2].split()[3].replace(",", "")) == pytest.approx(
        trip.legs[1].distance_nm, abs=0.06
    )


def test_itinerary__without_departure_no_times(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "itinerary", "CNSHA", "NLRTM")
    assert code == 0
    assert "eta       -" in out
    assert " 14 " in out.splitlines()[-1]  # the service speed


def test_itinerary__geojson_with_a_vessel(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("itinerary", *FOUR_PORTS, "--speed", "18", *DEPARTED, "--format", "geojson")
    vessel = ("--vessel", "48.5,12.3", "--leg", "2", "--at", "2026-03-18T00:00:00Z")
    code, out, _ = run(capsys, *argv, *vessel)
    assert code == 0
    document = json.loads(out)
    assert document["type"] == "FeatureCollection"
    kinds = [f["properties"]["feature_type"] for f in document["features"]]
    assert kinds.count("current_vessel") == 1
    assert kinds.count("estimated_partial_leg") == 1
    assert kinds.count("port") == 4
    current = document["features"][kinds.index("current_vessel")]
    assert current["geometry"]["coordinates"] == [48.5, 12.3]
    eta = datetime.fromisoformat(current["properties"]["arrival_port_eta"])
    expected = sealane.itinerary(FOUR_PORTS, speed_kn=18).at_sea(
        1, (48.5, 12.3), datetime(2026, 3, 18, tzinfo=UTC)
    )
    assert abs(eta - expected.calls[2].arrival_at) < timedelta(seconds=1)  # type: ignore[operator]


def test_itinerary__vessel_in_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    vessel = ("--vessel", "48.5,12.3", "--leg", "2", "--at", "2026-03-18T00:00:00Z")
    code, out, _ = run(capsys, "itinerary", *FOUR_PORTS, *vessel)
    assert code == 0
    assert "vessel    48.50000, 12.30000 on leg 2 at 2026-03-18T00:00:00Z" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("itinerary", "CNSHA"), "at least 2 port calls"),
        (("itinerary", "CNSHA", "XXXXX"), "XXXXX"),
        (("itinerary", "CNSHA", "NLRTM", "--speed", "-3"), "negative"),
        (("itinerary", "CNSHA", "NLRTM", "--vessel", "10,50", "--at", "2026-03-18"), "on land"),
        (("itinerary", "CNSHA", "NLRTM", "--vessel", "60,12", "--leg", "2"), "leg must be"),
    ],
    ids=["one-port", "unknown-port", "negative-speed", "on-land", "no-such-leg"],
)
def test_itinerary__errors_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("sealane: error: ") and message in err
