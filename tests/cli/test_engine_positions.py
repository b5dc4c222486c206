"""The ``sealane positions`` sub-command, called in-process through ``main(argv)``."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta

import pytest

import sealane
from sealane.cli import commands as cli

GULF_OF_ADEN = (
    "positions",
    "--lon",
    "60.1",
    "--lat",
    "12.3",
    "--previous-port",
    "CNSHA",
    "--port",
    "NLRTM",
    "--speed",
    "18",
    "--start-time",
    "2026-11-21T12:00:00Z",
)
STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def parse_stamp(text: str) -> datetime:
    assert STAMP.match(text), text
    return datetime.fromisoformat(text)


def assert_eta_consistent(eta_text: str, distance_nm: float, speed_kn: float = 18.0) -> None:
    """The ETA is the engine's, to the second: the start plus the route on its speed profile
    (5,661 nm at 18 kn is 315 hours, and Suez's convoy and its expected wait add 16)."""
    assert distance_nm == pytest.approx(5_671, rel=0.01)
    engine = sealane.future_positions(
        (60.1, 12.3), "CNSHA", "NLRTM", speed_kn=speed_kn, start_time=START
    )
    assert eta_text == engine.timestamps()[-1]
    expected = START + timedelta(hours=engine.route.duration_h(speed_kn))
    assert abs((parse_stamp(eta_text) - expected).total_seconds()) <= 1
    assert 330 < (parse_stamp(eta_text) - START).total_seconds() / 3600 < 332


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_positions__table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *GULF_OF_ADEN)
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert lines[0].startswith("eta ")
    assert lines[1].startswith("distance remaining ")
    assert lines[1].endswith(" nm at 18 kn")
    eta = lines[0].split()[-1]
    assert_eta_consistent(eta, float(lines[1].split()[2].replace(",", "")))
    assert lines[2].startswith("eta range P10-P90 ")
    p10, p90 = lines[2].split()[-3], lines[2].split()[-1]
    assert p10 <= eta <= p90  # ISO 8601 UTC strings order as their instants
    assert lines[3].split() == ["speed", "source", "given"]
    assert "babalmandab, suez, gibraltar, dover" in out
    header = next(i for i, line in enumerate(lines) if line.startswith("timestamp"))
    assert lines[header].split() == ["timestamp", "latitude", "longitude", "heading"]
    first = lines[header + 1].split()
    assert first[:3] == ["2026-11-21T12:00:00Z", "12.30000", "60.10000"]
    assert lines[-1].split()[0] == eta
    assert lines[-1].split()[1:3] == ["51.90438", "4.44245"]  # Rotterdam


def test_positions__csv(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *GULF_OF_ADEN, "--format", "csv", "--step", "3600")
    assert code == 0
    assert err == ""
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["timestamp", "latitude", "longitude", "heading"]
    assert rows[1] == ["2026-11-21T12:00:00Z", "12.300000", "60.100000", "189.42"]
    assert rows[2][0] == "2026-11-21T13:00:00Z"
    assert all(len(row) == 4 and STAMP.match(row[0]) for row in rows[1:])
    assert rows[-1][1:3] == ["51.904383", "4.442447"]
    assert 325 < len(rows) - 1 < 335  # 315 hours at 18 kn, and 16 through Suez and its wait
    for row in rows[1:]:
        assert 0.0 <= float(row[3]) < 360.0


def test_positions__geojson(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *GULF_OF_ADEN, "--format", "geojson")
    assert code == 0
    assert err == ""
    feature = json.loads(out)
    assert feature["type"] == "Feature"
    assert feature["geometry"]["type"] == "LineString"
    assert feature["geometry"]["coordinates"][0] == [60.1, 12.3]
    properties = feature["properties"]
    assert properties["start_time"] == "2026-11-21T12:00:00Z"
    assert_eta_consistent(properties["eta"], properties["distance_remaining_nm"])
    assert properties["speed_kn"] == 18.0
    # The line has the 540 positions of Suez's 9 h convoy wait, on one point, once.
    assert properties["positions"] == len(feature["geometry"]["coordinates"]) + 539
    assert properties["passages"] == ["babalmandab", "suez", "gibraltar", "dover", "maas"]


def test_positions__default_speed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [arg for arg in GULF_OF_ADEN if arg not in ("--speed", "18")]
    code, out, _ = run(capsys, *argv, "--format", "geojson")
    assert code == 0
    assert json.loads(out)["properties"]["speed_kn"] == 14.0


def test_positions__antimeridian_geojson(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "positions",
        "--lon=170",
        "--lat=40",
        "--previous-port=JPYOK",
        "--port=USLGB",
        "--start-time=2026-01-01T00:00:00Z",
        "--format=geojson",
    )
    assert code == 0
    assert json.loads(out)["geometry"]["type"] == "MultiLineString"


# --- errors: exit status 2, one line on stderr, no traceback --------------------------------------


def assert_one_line_error(code: int, out: str, err: str, *fragments: str) -> None:
    assert code == 2
    assert out == ""
    assert err.startswith("sealane: error: ")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err


def test_positions__on_land(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "positions", "--lon=10", "--lat=50", "--previous-port=CNSHA", "--port=NLRTM"
    )
    assert_one_line_error(code, out, err, "on land")


def test_positions__unknown_port(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "positions", "--lon=60.1", "--lat=12.3", "--previous-port=CNSHA", "--port=XXXXX"
    )
    assert_one_line_error(code, out, err, "XXXXX")


def test_positions__bad_latitude(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "positions", "--lon=60.1", "--lat=95", "--previous-port=CNSHA", "--port=NLRTM"
    )
    assert_one_line_error(code, out, err, "latitude")


def test_positions__bad_start_time(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *GULF_OF_ADEN[:-1], "not-a-time")
    assert_one_line_error(code, out, err, "not-a-time")


def test_positions__bad_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *GULF_OF_ADEN, "--step", "0")
    assert_one_line_error(code, out, err, "step_s")


def test_positions__unknown_passage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *GULF_OF_ADEN, "--avoid", "nope")
    assert_one_line_error(code, out, err, "nope")


def test_positions__missing_required_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli.main(["positions", "--lon", "60.1", "--lat", "12.3", "--port", "NLRTM"])
    assert raised.value.code == 2
    assert "--previous-port" in capsys.readouterr().err
