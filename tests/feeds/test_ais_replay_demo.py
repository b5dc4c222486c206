"""Issue 31: ``sealane ais replay`` of reports without tag blocks moves a vessel of a running
``sealane serve --demo`` (it said "dropped: stale 3" and the vessel stayed where it was).

Lines without a tag block are timed as they are read. The reports' own UTC second used to
"refine" that time to the last moment of the current minute carrying that second, which can be
up to a minute earlier than the vessel's latest position: the reports here carry the seconds of
the 20 s before the vessel's last fix, so that refinement made every one of them stale.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.servers import environment, sealane_command, serving

from .support import sentence

#: How far the replayed reports are from the vessel's last position, and between each other
#: (10 s at 4 kn).
AWAY_DEG = 0.025
STEP_DEG = 0.0002


def get(url: str, token: str) -> Any:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def demo_token(log: Path) -> str:
    """The routing account's token that ``serve --demo`` printed."""
    for _ in range(300):
        found = re.search(r"Demo \(routing\)\s+token (\S+)", log.read_text(errors="replace"))
        if found:
            return found.group(1)
        time.sleep(0.1)
    raise AssertionError(log.read_text(errors="replace"))


def carrier_vessel(base: str, token: str) -> dict[str, Any]:
    """A vessel of the demo's shipments with a position. The demo's own sailing vessels are
    moved every few seconds by the bundled AIS sample, which would race the replay; these
    are moved only by tracking polls, off here."""
    found = get(f"{base}/vessels?page[size]=100", token)["data"]
    for vessel in found:
        attributes = vessel["attributes"]
        if attributes["name"].startswith("TEST ") and attributes["position_timestamp"]:
            return dict(vessel)
    raise AssertionError(found)


def test_replay__reports_without_tag_blocks_move_a_demo_vessel(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    log = tmp_path / "serve.log"
    with serving(url, log, arguments=("--demo",)) as base:
        token = demo_token(log)
        vessel = carrier_vessel(base, token)
        before = vessel["attributes"]
        last = datetime.fromisoformat(before["position_timestamp"])
        mmsi = int(before["mmsi"])
        reports = [
            (before["longitude"] + AWAY_DEG + k * STEP_DEG, before["latitude"] + AWAY_DEG)
            for k in range(3)
        ]
        lines = [
            sentence(
                type=1,
                mmsi=mmsi,
                lon=lon,
                lat=lat,
                speed=4.0,
                course=90.0,
                second=(last - timedelta(seconds=20 - 10 * k)).second,
            )
            for k, (lon, lat) in enumerate(reports)
        ]
        path = tmp_path / "three.nmea"
        path.write_text("".join(line + "\n" for line in lines), encoding="ascii")
        started = datetime.now(UTC)
        done = subprocess.run(
            sealane_command("ais", "replay", str(path), "--database", url),
            capture_output=True,
            text=True,
            timeout=300,
            env=environment(),
            check=False,
        )
        ended = datetime.now(UTC)
        assert done.returncode == 0, done.stderr
        assert "stale" not in done.stdout, done.stdout
        after = get(f"{base}/vessels/{vessel['id']}", token)["data"]["attributes"]
    moved_to = (after["longitude"], after["latitude"])
    # the first report is 2-3 km from the last fix: a jump unless that fix is over a minute
    # old; after two rejected jumps the third becomes the vessel's position
    assert any(
        math.isclose(moved_to[0], lon, abs_tol=1e-5)
        and math.isclose(moved_to[1], lat, abs_tol=1e-5)
        for lon, lat in reports
    ), (moved_to, reports, done.stdout)
    stamp = datetime.fromisoformat(after["position_timestamp"])
    assert started - timedelta(seconds=1) <= stamp <= ended + timedelta(seconds=1)
    assert stamp > last
