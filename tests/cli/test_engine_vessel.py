"""The vessel's dimensions on the command line: ``--draft``, ``--beam``, ``--length`` and
``--air-draft`` (metres) on ``sealane route``, ``positions`` and ``itinerary`` close the passages
the vessel does not fit; a bad value is one line on stderr and exit status 2."""

from __future__ import annotations

import json

import pytest

from sealane.cli import commands as cli

ARABIAN_SEA = ["--lon", "60.1", "--lat", "12.3", "--previous-port", "CNSHA", "--port", "NLRTM"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def passages(table: str) -> list[str]:
    """The passages row of a route or positions table."""
    row = next(line for line in table.splitlines() if line.startswith("passages"))
    return row.split(None, 1)[1].split(", ")


def test_route__draft_closes_kiel(capsys: pytest.CaptureFixture[str]) -> None:
    _, default, _ = run(capsys, "route", "DEHAM", "PLGDN")
    code, deep, err = run(capsys, "route", "DEHAM", "PLGDN", "--draft", "10.5")
    assert (code, err) == (0, "")
    assert "kiel" in passages(default)
    assert "kiel" not in passages(deep)


def test_route__geojson_with_dimensions(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["route", "CNSHA", "NLRTM", "--format", "geojson", "--draft", "21", "--beam", "50"]
    code, out, _ = run(capsys, *argv, "--length", "366", "--air-draft", "70")
    assert code == 0
    assert "suez" not in json.loads(out)["properties"]["passages"]


def test_positions__draft_closes_suez(capsys: pytest.CaptureFixture[str]) -> None:
    _, default, _ = run(capsys, "positions", *ARABIAN_SEA, "--speed", "18")
    code, deep, _ = run(capsys, "positions", *ARABIAN_SEA, "--speed", "18", "--draft", "21")
    assert code == 0
    assert "suez" in passages(default)
    assert "suez" not in passages(deep)
    assert "good_hope" in passages(deep)


def test_itinerary__draft_applies_to_every_leg(capsys: pytest.CaptureFixture[str]) -> None:
    _, default, _ = run(capsys, "itinerary", "DEHAM", "DKAAR", "PLGDN")
    code, deep, _ = run(capsys, "itinerary", "DEHAM", "DKAAR", "PLGDN", "--draft", "10.5")
    assert code == 0
    assert "kiel" in default
    assert "kiel" not in deep


@pytest.mark.parametrize(
    ("command", "flag", "value", "named"),
    [
        ("route", "--draft", "-1", "--draft must be above 0 m"),
        ("route", "--beam", "0", "--beam must be above 0 m"),
        ("route", "--length", "9000", "--length 9000 m is more than any ship's"),
        ("route", "--air-draft", "nan", "--air-draft must be finite"),
        ("positions", "--draft", "inf", "--draft must be finite"),
        ("itinerary", "--beam", "-20", "--beam must be above 0 m"),
    ],
)
def test_bad_dimension__one_line_exit_2(
    capsys: pytest.CaptureFixture[str], command: str, flag: str, value: str, named: str
) -> None:
    ends = {"route": ["DEHAM", "PLGDN"], "itinerary": ["DEHAM", "PLGDN"]}.get(command, ARABIAN_SEA)
    code, out, err = run(capsys, command, *ends, f"{flag}={value}")
    assert (code, out) == (2, "")
    assert err.startswith("sealane: error: ") and err.count("\n") == 1
    assert named in err
    assert "Traceback" not in err


def test_route__a_draft_no_passage_takes_names_the_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "route", "DEHAM", "USNYC", "--draft", "30")
    assert code == 2
    assert "draft 30 m" in err and err.count("\n") == 1


def test_dimension_not_a_number__usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["route", "DEHAM", "PLGDN", "--draft", "deep"])
    assert exit_.value.code == 2
    assert "--draft" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["route", "positions", "itinerary"])
def test_help__lists_the_dimensions(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    for flag in ("--draft", "--beam", "--length", "--air-draft"):
        assert flag in out
