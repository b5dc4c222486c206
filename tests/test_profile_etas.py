"""One ETA on the speed profile everywhere: the engine's ``future_positions``, ``sealane.fleet``
(its fast path), the HTTP future positions and the CLI give the same arrival for a vessel in the
Arabian Sea bound for Rotterdam through the Suez Canal (MCP: ``tests/mcp/cases.py``)."""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import pytest
from fastapi.testclient import TestClient

import sealane
from sealane import fleet
from sealane.cli import commands as cli
from sealane.store.models import Vessel
from tests.toolkit import START, Keys, auth


def test_eta__engine_fleet_http_and_cli_agree(
    client: TestClient, keys: Keys, vessel: Vessel, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = sealane.future_positions(
        (60.1, 12.3), "CNSHA", "NLRTM", speed_kn=18.0, start_time=START
    )
    # On the profile: Suez's convoy and its expected wait, the Maas, the port's approach.
    assert engine.eta - START > timedelta(hours=engine.distance_remaining_nm / 18.0 + 16)

    frame = pd.DataFrame(
        [{"lon": 60.1, "lat": 12.3, "previous_port": "CNSHA", "destination_port": "NLRTM",
          "speed_kn": 18.0, "timestamp": START}]
    )  # fmt: skip
    assert fleet.etas(frame).eta.iloc[0] == pd.Timestamp(engine.eta)

    response = client.get(
        f"/v2/vessels/{vessel.id}/future_positions",
        params={"port_id": "NLRTM", "previous_port_id": "CNSHA"},
        headers=auth(keys.routing),
    )
    assert response.status_code == 200, response.text[:300]
    positions = response.json()["data"]["attributes"]["positions"]
    assert positions[-1]["timestamp"] == engine.timestamps()[-1]
    assert len(positions) == len(engine)

    code = cli.main([
        "positions", "--lon", "60.1", "--lat", "12.3", "--previous-port", "CNSHA",
        "--port", "NLRTM", "--speed", "18", "--start-time", START.isoformat(),
    ])  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out.splitlines()[0].split()[-1] == engine.timestamps()[-1]
