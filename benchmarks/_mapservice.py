"""A sealane service in this process, serving the map of containers on the benchmark itinerary.

The database (a fresh SQLite file) holds an account with the routing feature and two containers
on the same four port calls, timed by the engine's itinerary, their vessel of leg 2 last seen at
the benchmark's position: one with no recorded positions (its track sailed is the sea lane, the
features the library call draws), one with a position recorded every hour since it left port.
The app runs under uvicorn on a thread, and requests go over loopback with ``http.client``.
"""

from __future__ import annotations

import http.client
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import uvicorn
from sqlalchemy.orm import Session

import sealane
from sealane.api.app import create_app
from sealane.config import Settings
from sealane.service.access.gatekeeper import Caller
from sealane.service.container_routes.reading import container_map
from sealane.service.core.context import ServiceContext
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Container, RouteLocation, Shipment, Vessel, VesselPosition

HOST = "127.0.0.1"


@dataclass(frozen=True)
class MapService:
    """The running service: where it listens, its context, the account and its key, and the two
    containers (their ids)."""

    port: int
    context: ServiceContext
    account_id: str
    key: str
    lane_only: str
    with_track: str
    recorded_positions: int

    def map_in_process(self, container: str) -> bytes:
        """The map use case called directly, serialised: the service's work without HTTP."""
        caller = Caller(self.account_id, routing_enabled=True)
        return orjson.dumps(container_map(self.context, caller, container).to_geojson())


def _vessels(session: Session, tag: str, legs: int) -> list[Vessel]:
    """One vessel per leg, with no position yet."""
    found = []
    for i in range(legs):
        vessel = Vessel(name=f"BENCH {tag} {i}", imo=f"9{tag}{i:05d}"[:7], mmsi=None)
        found.append(vessel)
        session.add(vessel)
    return found


def _seed(
    session: Session,
    account_id: str,
    trip: sealane.Itinerary,
    tag: str,
    position: tuple[float, float],
    leg: int,
    at: datetime,
    speed_kn: float,
    track: bool,
) -> tuple[str, int]:
    """A container on ``trip`` whose vessel of ``leg`` is at ``position`` at ``at``; with
    ``track``, a position recorded every hour of the leg before that. Its id and the count."""
    ports = [call.port.locode for call in trip.calls]
    shipment = Shipment(
        account_id=account_id, shipping_line_scac="TEST", port_of_lading_locode=ports[0],
        port_of_discharge_locode=ports[-1], transshipment_locodes=ports[1:-1],
        carrier_request_type="bill_of_lading", carrier_number=f"BENCH{tag}",
        carrier_epoch=at, created_at=at, updated_at=at,
    )  # fmt: skip
    session.add(shipment)
    session.flush()
    container = Container(
        account_id=account_id, shipment_id=shipment.id, number=f"BNCU{tag}0000{tag}"[:11],
        equipment_type="dry", equipment_length=40, equipment_height="standard",
        weight_in_lbs=20000, created_at=at, updated_at=at,
    )  # fmt: skip
    session.add(container)
    vessels = _vessels(session, tag, len(trip.legs))
    session.flush()
    sailing = vessels[leg]
    sailing.longitude, sailing.latitude = position
    sailing.nautical_speed_knots, sailing.position_timestamp = speed_kn, at
    last = len(trip.calls) - 1
    for i, call in enumerate(trip.calls):
        behind = i <= leg  # reached, and left, before the leg under way
        session.add(
            RouteLocation(
                account_id=account_id, shipment_id=shipment.id, container_id=container.id,
                sequence=call.sequence, port_locode=call.port.locode,
                inbound_mode="vessel" if i else None, inbound_scac="TEST" if i else None,
                inbound_vessel_id=vessels[i - 1].id if i else None,
                inbound_ata_at=call.arrival_at if behind else None,
                inbound_eta_at=None if behind else call.arrival_at,
                outbound_mode="vessel" if i < last else None,
                outbound_scac="TEST" if i < last else None,
                outbound_vessel_id=vessels[i].id if i < last else None,
                outbound_atd_at=call.departure_at if behind else None,
                outbound_etd_at=None if behind else call.departure_at,
                created_at=at, updated_at=at,
            )
        )  # fmt: skip
    count = 0
    if track:
        left = trip.calls[leg].departure_at
        assert left is not None
        sailed = sealane.future_positions(
            trip.calls[leg].port.coordinates, trip.calls[leg].port.locode,
            trip.calls[leg + 1].port.locode, speed_kn=speed_kn, start_time=left, step_s=3600,
        )  # fmt: skip
        for lon, lat, moment in zip(sailed.lons, sailed.lats, sailed.times, strict=True):
            when = moment.astype("datetime64[us]").item().replace(tzinfo=UTC)
            if left < when < at - timedelta(minutes=30):
                session.add(VesselPosition(vessel_id=sailing.id, longitude=float(lon),
                                           latitude=float(lat), timestamp=when))  # fmt: skip
                count += 1
    return container.id, count


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def map_service(
    trip: sealane.Itinerary, position: tuple[float, float], leg: int, at: datetime, speed_kn: float
) -> Iterator[MapService]:
    """The service with its two containers, listening until the block ends."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            database_url=f"sqlite:///{Path(folder) / 'sealane.db'}",
            rate_limit_per_minute=10_000_000,
            base_url=f"http://{HOST}/v2",
        )
        app = create_app(settings)
        with transaction(app.state.sealane.sessions) as session:
            account = create_account(session, "Bench Co", routing=True, now=at)
            lane, _ = _seed(
                session, account.account_id, trip, "1", position, leg, at, speed_kn, False
            )
            tracked, count = _seed(
                session, account.account_id, trip, "2", position, leg, at, speed_kn, True
            )
        port = _free_port()
        config = uvicorn.Config(app, host=HOST, port=port, log_level="warning", access_log=False)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        try:
            context = app.state.sealane.context
            yield MapService(
                port, context, account.account_id, account.secret, lane, tracked, count
            )
        finally:
            server.should_exit = True
            thread.join()
            app.state.sealane.engine.dispose()


def fetch_map(connection: http.client.HTTPConnection, service: MapService, container: str) -> bytes:
    """One ``GET .../map_geojson`` as ``application/geo+json`` on a kept-alive connection."""
    return fetch(connection, service, f"/v2/containers/{container}/map_geojson")


def fetch(connection: http.client.HTTPConnection, service: MapService, path: str) -> bytes:
    """One authenticated ``GET path`` on a kept-alive connection; its body (200 only)."""
    connection.request(
        "GET",
        path,
        headers={"Authorization": f"Token {service.key}", "Accept": "application/geo+json"},
    )
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}: {body[:300]!r}")
    return body
