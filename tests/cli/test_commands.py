"""The ``sealane`` command line, called in-process through ``main(argv)``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sealane.cli import commands as cli
from sealane.cli import serve as cli_serve


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_route__table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "route", "CNSHA", "NLRTM")
    assert code == 0
    assert err == ""
    assert "CNSHA Shanghai" in out  # from
    assert "NLRTM Rotterdam" in out
    distance = next(line for line in out.splitlines() if line.startswith("distance"))
    nautical_miles = float(distance.split()[1].replace(",", ""))
    assert 10_000 < nautical_miles < 11_000
    assert distance.endswith(" km)")
    assert "malacca, babalmandab, suez, gibraltar, dover" in out
    assert "duration" not in out


def test_route__geojson(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route", "JPYOK", "USLGB", "--format", "geojson")
    assert code == 0
    feature = json.loads(out)
    assert feature["type"] == "Feature"
    assert feature["geometry"]["type"] == "MultiLineString"
    assert 4_000 < feature["properties"]["distance_nm"] < 6_000
    assert "duration_h" not in feature["properties"]


def test_route__geojson_with_speed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route", "NLRTM", "BEANR", "--format", "geojson", "--speed", "10")
    assert code == 0
    properties = json.loads(out)["properties"]
    assert properties["duration_h"] == pytest.approx(properties["distance_nm"] / 10.0, rel=1e-12)


def test_route__avoid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route", "CNSHA", "NLRTM", "--avoid", "suez")
    assert code == 0
    passages = next(line for line in out.splitlines() if line.startswith("passages"))
    assert "suez" not in passages


def test_route__avoid_repeated(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route", "CNSHA", "NLRTM", "--avoid", "suez", "--avoid", "panama")
    assert code == 0
    assert "good_hope" in out


def test_route__speed_shows_duration(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route", "CNSHA", "NLRTM", "--speed", "18")
    assert code == 0
    duration = next(line for line in out.splitlines() if line.startswith("duration"))
    assert "at 18 kn" in duration
    assert "days" in duration


def test_route__coordinates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route", "4.0,52.0", "NLRTM")
    assert code == 0
    assert "4.0, 52.0" in out


def test_route__unknown_port_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "route", "XXXXX", "NLRTM")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("sealane: error: ")
    assert "XXXXX" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("where", ["10,23", "14.42,50.08"], ids=["sahara", "prague"])
def test_route__coordinate_on_land_exits_2(capsys: pytest.CaptureFixture[str], where: str) -> None:
    code, out, err = run(capsys, "route", where, "NLRTM")
    assert (code, out) == (2, "")
    assert err.startswith("sealane: error: origin (") and "is on land" in err
    assert err.count("\n") == 1


def test_route__from_the_suez_canal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route", "32.3244,30.657", "NLRTM")
    assert code == 0
    assert "suez" in out


def test_route__unknown_passage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "route", "CNSHA", "NLRTM", "--avoid", "atlantis")
    assert code == 2
    assert "atlantis" in err
    assert err.count("\n") == 1


def test_route__zero_speed_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "route", "CNSHA", "NLRTM", "--speed", "0")
    assert code == 2
    assert "speed" in err


def test_route__malformed_point_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["route", "4,abc", "NLRTM"])
    assert exit_info.value.code == 2
    assert "4,abc" in capsys.readouterr().err


def test_serve__shortens_the_thread_switch_interval(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    seen: list[float] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: seen.append(sys.getswitchinterval()))
    default = sys.getswitchinterval()
    try:
        url = f"sqlite:///{tmp_path / 'serve.db'}"
        assert cli.main(["serve", "--database", url, "--poll-interval", "0"]) == 0
    finally:
        sys.setswitchinterval(default)
    assert seen == [pytest.approx(cli_serve.SERVER_SWITCH_INTERVAL_S)]
    assert default > cli_serve.SERVER_SWITCH_INTERVAL_S
