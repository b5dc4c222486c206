"""``sealane serve --demo`` as a real process: the bundled AIS sample moves the demo vessels."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.servers import serving


def vessels(base: str, token: str) -> dict[str, tuple[datetime, float, float]]:
    """IMO -> (position time, longitude, latitude) of every vessel with a position."""
    request = urllib.request.Request(
        f"{base}/vessels?page[size]=100", headers={"Authorization": f"Token {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        body: Any = json.load(response)
    found = {}
    for item in body["data"]:
        attributes = item["attributes"]
        if attributes["position_timestamp"] is not None:
            stamp = datetime.fromisoformat(attributes["position_timestamp"])
            found[attributes["imo"]] = (stamp, attributes["longitude"], attributes["latitude"])
    return found


def token_in(log: Path) -> str:
    """The first demo token ``serve --demo`` printed."""
    for _ in range(100):
        found = re.search(r"token (\S+)", log.read_text(errors="replace"))
        if found:
            return found.group(1)
        time.sleep(0.1)
    raise AssertionError(log.read_text(errors="replace"))


def test_serve_demo__the_demo_vessels_move(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    # 600 times real time: a sample minute every 0.1 s, so the replay shows within seconds
    with serving(url, log, env={"SEALANE_AIS_DEMO": "600"}, arguments=("--demo",)) as base:
        token = token_in(log)
        seeded = vessels(base, token)
        assert len(seeded) >= 4
        deadline = time.monotonic() + 60
        moved: set[str] = set()
        while time.monotonic() < deadline and len(moved) < 4:
            time.sleep(0.5)
            now = vessels(base, token)
            moved = {imo for imo, where in now.items() if imo in seeded and where > seeded[imo]}
        assert len(moved) >= 4, log.read_text(errors="replace")[-2000:]
        later = vessels(base, token)
        assert all(later[imo][1:] != seeded[imo][1:] for imo in moved)
