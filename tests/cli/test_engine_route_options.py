"""``sealane route-options`` and ``sealane route --via PASSAGE``, called in-process through
``main(argv)``."""

from __future__ import annotations

import json

import pytest

import sealane
from sealane.cli import commands as cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_route_options__table_fastest_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "route-options", "CNSHA", "NLRTM", "--speed", "16")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["option", "distance", "nm"]
    assert lines[1].startswith("shortest ")
    hours = [float(line.split("  ")[-3].replace(",", "")) for line in lines[1:-1]]
    assert hours == sorted(hours) and len(hours) >= 3
    assert lines[-1] == "at 16 kn in open water, on the speed profile"


def test_route_options__json_matches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route-options", "CNSHA", "NLRTM", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    engine = sealane.route_options("CNSHA", "NLRTM")
    assert [row["option"] for row in rows] == [o.label for o in engine]
    assert [row["duration_h"] for row in rows] == [round(o.duration_h, 1) for o in engine]
    for row in rows:
        assert not set(row["avoided"]) & set(row["passages"])


def test_route_options__unknown_passage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "route-options", "CNSHA", "NLRTM", "--avoid", "atlantis")
    assert (code, out) == (2, "")
    assert err.startswith("sealane: error: unknown passage 'atlantis'")


def test_route__via_a_passage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "route", "NLRTM", "SGSIN", "--via", "good_hope", "--speed", "14")
    assert code == 0
    passages = next(line for line in out.splitlines() if line.startswith("passages"))
    assert "good_hope" in passages and "suez" not in passages
    profile = next(line for line in out.splitlines() if line.startswith("profile"))
    assert "open_water" in profile


def test_route__via_an_unknown_passage(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "route", "CNSHA", "NLRTM", "--via", "suezz")
    assert code == 2
    assert "did you mean 'suez'?" in err
