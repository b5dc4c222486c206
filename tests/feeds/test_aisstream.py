"""The AISStream client against a local WebSocket server on 127.0.0.1 speaking AISStream's format:
the subscription it sends, what it stores, how it reconnects, what it does with bad input, and
that its API key is never written anywhere but the subscription."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker
from websockets.asyncio.server import ServerConnection, serve

from sealane.clock import ManualClock
from sealane.feeds.ais.aisstream import AISStreamClient, Backoff, StreamReport
from sealane.feeds.ais.aisstream_subscription import (
    WORLD,
    Box,
    Subscription,
    check_url,
    parse_box,
    parse_mmsi,
)
from sealane.feeds.ais.ingest import Ingestor, IngestSettings, VesselPolicy
from sealane.feeds.ais.reports import Drop
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.migrate import upgrade
from sealane.store.models import FeedCheckpoint, Vessel, VesselPosition

from .aisstream_support import position, ship_static
from .support import T0, T0_S

MMSI = 244670316
KEY = "k3y-0f-the-test-7f1c2a"
NM = 1.0 / 60.0
#: When the client hears the messages (AISStream stamps them when it hears them, earlier).
AFTER_TRACK = T0 + timedelta(minutes=10)
#: Ten minutes northbound at 6 kn, a report a minute: every one is stored.
TRACK = [position(MMSI, 4.0, 52.0 + k * 0.1 * NM, T0_S + 60.0 * k, sog=6.0) for k in range(10)]

#: The local server's own logger, quiet: at debug level it would log the subscription it
#: receives, key and all, and the tests look for the key in every log line.
SERVER_LOG = logging.getLogger("tests.feeds.aisstream_server")
SERVER_LOG.setLevel(logging.WARNING)


@dataclass
class Server:
    """What the local AISStream saw: the subscriptions, one per connection."""

    subscriptions: list[dict[str, Any]] = field(default_factory=list)

    async def subscribed(self, connection: ServerConnection) -> None:
        """Read the subscription, within AISStream's 3 s, as AISStream would."""
        text = await asyncio.wait_for(connection.recv(), 3.0)
        self.subscriptions.append(json.loads(text))


@pytest.fixture
def sqlite_sessions(tmp_path: Path) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(f"sqlite:///{tmp_path / 'ais.db'}")
    upgrade(engine)
    yield session_factory(engine)
    engine.dispose()


def add_vessel(sessions: sessionmaker[Session], mmsi: int = MMSI) -> str:
    with transaction(sessions) as session:
        vessel = Vessel(name="Sealane Test", imo="9074729", mmsi=str(mmsi))
        session.add(vessel)
        session.flush()
        return vessel.id


def stored(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(VesselPosition)) or 0


async def until(done: Callable[[], bool]) -> None:
    """Wait (polling the loop) until ``done()``; a generous limit so a hang fails, never a
    slow machine."""
    for _ in range(6000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the client never got there")


def follow(
    sessions: sessionmaker[Session],
    handler: Callable[[Server, ServerConnection], Awaitable[None]],
    done: Callable[[AISStreamClient], bool],
    *,
    subscription: Subscription | None = None,
    policy: VesselPolicy = VesselPolicy.KNOWN,
    clock: ManualClock | None = None,
    delays: list[float] | None = None,
    backoff: Backoff | None = None,
    **options: Any,
) -> tuple[StreamReport, Server]:
    """Run a local AISStream with ``handler`` and the client until ``done(client)``, then
    cancel the client as Ctrl-C does; the client's report and what the server saw."""
    server = Server()

    async def sleep(seconds: float) -> None:  # backoff recorded, not waited for
        if delays is not None:
            delays.append(seconds)
        await asyncio.sleep(0)

    async def scenario() -> StreamReport:
        async def handle(connection: ServerConnection) -> None:
            await handler(server, connection)

        async with serve(handle, "127.0.0.1", 0, logger=SERVER_LOG) as local:
            port = local.sockets[0].getsockname()[1]
            received = clock or ManualClock(AFTER_TRACK)
            ingestor = Ingestor(sessions, received, IngestSettings(policy=policy))
            client = AISStreamClient(
                f"ws://127.0.0.1:{port}/v0/stream",
                subscription or Subscription(KEY),
                ingestor,
                max_delay_s=0.05,
                backoff=backoff,
                draw=lambda: 1.0,
                sleep=sleep,
                insecure=True,
                **{"batch_size": 4, **options},
            )
            task = asyncio.create_task(client.run())
            await until(lambda: done(client) or task.done())
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return client.report

    return asyncio.run(scenario()), server


async def delivered(connection: ServerConnection) -> None:
    """Until the client has read everything sent so far (it answers a ping after them)."""
    pong = await connection.ping()
    await pong


async def send_all(server: Server, connection: ServerConnection, messages: list[str]) -> None:
    await server.subscribed(connection)
    for message in messages:
        await connection.send(message)
    await connection.wait_closed()  # open until the client leaves


def test_subscription__key_boxes_as_lat_lon_mmsis_and_types(
    sqlite_sessions: sessionmaker[Session],
) -> None:
    wanted = Subscription(
        KEY, (Box(3.5, 51.0, 5.0, 52.5), Box(-10.0, 35.0, 0.0, 44.0)), ("244670316",)
    )

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, [])

    _, server = follow(
        sqlite_sessions, handler, lambda c: c.report.connections == 1, subscription=wanted
    )
    (sent,) = server.subscriptions
    assert sent == {
        "APIKey": KEY,
        "BoundingBoxes": [[[51.0, 3.5], [52.5, 5.0]], [[35.0, -10.0], [44.0, 0.0]]],
        "FiltersShipMMSI": ["244670316"],
        "FilterMessageTypes": [
            "PositionReport",
            "StandardClassBPositionReport",
            "ExtendedClassBPositionReport",
            "ShipStaticData",
            "StaticDataReport",
        ],
    }


def test_subscription__the_world_and_no_mmsi_filter_by_default() -> None:
    sent = json.loads(Subscription(KEY).message())
    assert sent["BoundingBoxes"] == [[[-90.0, -180.0], [90.0, 180.0]]]
    assert "FiltersShipMMSI" not in sent


def test_stream__positions_and_static_data_stored(sessions: sessionmaker[Session]) -> None:
    """On SQLite and PostgreSQL: the known vessel's track and static data stored, another
    MMSI not."""
    vessel_id = add_vessel(sessions)
    stranger = position(366999999, 5.0, 53.0)
    messages = [ship_static(MMSI), *TRACK[:5], stranger, *TRACK[5:]]

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, messages)

    report, _ = follow(sessions, handler, lambda c: c.report.received == len(messages))
    assert stored(sessions) == 10
    run = report.run
    assert (run.sentences, run.ingest.positions, run.ingest.statics) == (12, 11, 1)
    assert run.ingest.stored == 10 and run.ingest.drops == {Drop.UNKNOWN_VESSEL: 1}
    with sessions() as session:
        vessel = session.get(Vessel, vessel_id)
        assert vessel is not None
        assert vessel.latitude == pytest.approx(52.0 + 0.9 * NM)
        assert vessel.position_timestamp is not None
        assert vessel.position_timestamp.timestamp() == T0_S + 540.0
        static = (vessel.call_sign, vessel.ship_type, vessel.reported_destination)
        assert static == ("PDAB", 71, "NLRTM")
        assert (vessel.length_m, vessel.beam_m, vessel.draught_m) == (250.0, 32.0, 12.5)
        assert vessel.reported_eta == datetime(2026, 11, 23, 6, 30, tzinfo=UTC)
    with sessions() as session:
        (checkpoint,) = session.scalars(select(FeedCheckpoint)).all()
    assert checkpoint.source.startswith("aisstream:ws://127.0.0.1:")
    assert checkpoint.position == round((T0_S + 540.0) * 1000)  # the newest report, in ms
    summary = report.summary()
    assert summary.startswith("AISStream: 1 connections, 0 dropped or refused; 12 messages,")
    assert "stored 10" in summary and "unknown_vessel 1" in summary


def test_stream__all_vessels_tracks_every_mmsi(sqlite_sessions: sessionmaker[Session]) -> None:
    messages = [position(366999999, 5.0, 53.0), position(MMSI, 4.0, 52.0)]

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, messages)

    follow(sqlite_sessions, handler, lambda c: c.report.received == 2, policy=VesselPolicy.ALL)
    assert stored(sqlite_sessions) == 2


def test_stream__a_flood_of_one_mmsi_is_thinned(sqlite_sessions: sessionmaker[Session]) -> None:
    add_vessel(sqlite_sessions)
    flood = [position(MMSI, 4.0, 52.0, T0_S + k * 0.1) for k in range(300)]  # 30 s

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, flood)

    report, _ = follow(sqlite_sessions, handler, lambda c: c.report.received == 300)
    assert stored(sqlite_sessions) == 1
    assert report.run.ingest.thinned + report.run.ingest.drops[Drop.STALE] == 299


def test_reconnect__after_the_server_drops_the_connection(
    sqlite_sessions: sessionmaker[Session],
) -> None:
    """Three connections, each closed after a few messages (the last mid-message): every
    message kept, and each reconnection after a longer wait than the one before."""
    add_vessel(sqlite_sessions)
    delays: list[float] = []

    async def handler(server: Server, connection: ServerConnection) -> None:
        await server.subscribed(connection)
        n = len(server.subscriptions)
        for message in TRACK[(n - 1) * 4 : n * 4]:
            await connection.send(message)
        await delivered(connection)
        if n == 1:
            await connection.close()  # a clean close
        elif n == 2:
            connection.transport.abort()  # the socket simply goes away
        else:
            text = b'{"MessageType": "PositionRe'  # a text frame that never finishes
            connection.transport.write(bytes([0x01, len(text)]) + text)
            await asyncio.sleep(0.1)
            connection.transport.abort()

    report, server = follow(
        sqlite_sessions,
        handler,
        lambda c: len(delays) >= 3,
        delays=delays,
        backoff=Backoff(first_s=0.5, cap_s=30.0, healthy_s=60.0),
    )
    assert len(server.subscriptions) >= 3
    assert all(s["APIKey"] == KEY for s in server.subscriptions)
    assert stored(sqlite_sessions) == 10
    assert (report.connections >= 3, report.disconnects >= 3) == (True, True)
    assert delays[:3] == [0.5, 1.0, 2.0]


def test_reconnect__backoff_starts_again_after_a_healthy_connection(
    sqlite_sessions: sessionmaker[Session],
) -> None:
    clock = ManualClock(T0)
    delays: list[float] = []

    async def handler(server: Server, connection: ServerConnection) -> None:
        await server.subscribed(connection)
        if len(server.subscriptions) == 3:
            clock.advance(120.0)  # this one stays up two minutes
        await connection.close()

    follow(
        sqlite_sessions,
        handler,
        lambda c: len(delays) >= 5,
        clock=clock,
        delays=delays,
        backoff=Backoff(first_s=1.0, cap_s=3.0, healthy_s=60.0),
    )
    assert delays[:5] == [1.0, 2.0, 1.0, 2.0, 3.0]


def test_refused__nobody_listening_is_retried(sqlite_sessions: sessionmaker[Session]) -> None:
    async def scenario() -> tuple[list[float], StreamReport]:
        delays: list[float] = []

        async def sleep(seconds: float) -> None:
            delays.append(seconds)
            await asyncio.sleep(0)

        probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = probe.sockets[0].getsockname()[1]
        probe.close()
        await probe.wait_closed()
        ingestor = Ingestor(sqlite_sessions, ManualClock(T0))
        client = AISStreamClient(
            f"ws://127.0.0.1:{port}",
            Subscription(KEY),
            ingestor,
            draw=lambda: 0.0,
            sleep=sleep,
            insecure=True,
        )
        task = asyncio.create_task(client.run())
        await until(lambda: len(delays) >= 2)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return delays, client.report

    delays, report = asyncio.run(scenario())
    assert delays[:2] == [0.5, 1.0]  # half of 1 s and 2 s: the lowest jitter
    assert report.connections == 0


def test_bad_input__counted_and_never_fatal(sqlite_sessions: sessionmaker[Session]) -> None:
    add_vessel(sqlite_sessions)
    bad = [
        "not json at all",
        '{"MessageType": "PositionReport", "Message": {"PositionReport": {"UserID": 1}}}',
        '{"MessageType": "TelepathicReport", "MetaData": {}, "Message": {}}',
        json.dumps({"MessageType": "PositionReport", "Message": {"PositionReport": "x"}}),
        b"\x00\x01binary",
        TRACK[0].replace('"Latitude": 52.0', '"Latitude": "north"'),
    ]

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, [*bad, *TRACK])

    report, _ = follow(sqlite_sessions, handler, lambda c: c.report.received == 16)
    assert stored(sqlite_sessions) == 10
    assert report.run.ingest.drops == {Drop.MALFORMED: 5, Drop.UNKNOWN_TYPE: 1}


NESTED = "[" * 30_000 + "]" * 30_000


@pytest.mark.parametrize(
    "hostile",
    [
        NESTED,
        '{"error": ' + NESTED + "}",
        '{"error": ' + "[" * 15 + "1" + "]" * 15 + "}",
        TRACK[0].replace('"MessageType": "PositionReport"', '"MessageType": ' + NESTED),
    ],
    ids=["nested arrays", "nested error", "error of depth 15", "nested type"],
)
def test_hostile_json__counted_and_never_fatal(
    sqlite_sessions: sessionmaker[Session], hostile: str
) -> None:
    """Nesting that would exhaust the stack (a 60 kB frame, under the frame limit) is a
    malformed message or a server error, and the messages after it are stored."""
    add_vessel(sqlite_sessions)

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, [hostile, *TRACK])

    report, _ = follow(sqlite_sessions, handler, lambda c: c.report.received == 11)
    assert stored(sqlite_sessions) == 10 and report.disconnects == 0
    drops = report.run.ingest.drops
    assert drops[Drop.MALFORMED] + drops[Drop.SERVER_ERROR] == 1


@pytest.mark.parametrize("kind", ["position", "static"])
@pytest.mark.parametrize(
    "time_utc", ["0001-01-01 00:00:00 +2359 UTC", "9999-12-31 23:59:59 -2359 UTC"]
)
def test_time_out_of_range__the_time_of_receipt_stands_for_it(
    sqlite_sessions: sessionmaker[Session], kind: str, time_utc: str
) -> None:
    """A ``time_utc`` whose offset would leave year 1 (or pass year 9999) is read as unreadable:
    the message is stored at the time it was received, and the client goes on."""
    add_vessel(sqlite_sessions)
    last = ship_static(MMSI) if kind == "static" else TRACK[9]
    document = json.loads(last)
    document["MetaData"]["time_utc"] = time_utc

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, [*TRACK[:9], json.dumps(document)])

    report, _ = follow(sqlite_sessions, handler, lambda c: c.report.received == 10)
    assert not report.run.ingest.drops
    assert stored(sqlite_sessions) == (10 if kind == "position" else 9)


def test_commit_failure__retried_then_dropped_and_the_client_goes_on(
    sqlite_sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    """While the positions table cannot be written, each batch is tried in three commits and
    then dropped (counted ``write_failed``); once it can, the next messages are stored."""
    add_vessel(sqlite_sessions)
    engine = sqlite_sessions.kw["bind"]

    def positions_table(name: str, to: str) -> None:
        with engine.begin() as connection:
            connection.exec_driver_sql(f"ALTER TABLE {name} RENAME TO {to}")

    positions_table("vessel_positions", "vessel_positions_away")
    later = [position(MMSI, 4.5, 52.0 + k * 0.1 * NM, T0_S + 600.0 + 60 * k) for k in range(4)]

    async def handler(server: Server, connection: ServerConnection) -> None:
        await server.subscribed(connection)
        for message in TRACK[:4]:  # one batch, which cannot be written
            await connection.send(message)
        for message in TRACK[4:6]:  # two commits more: then the batch is dropped
            await connection.send(message)
            await delivered(connection)
        await until(lambda: "dropped" in caplog.text)
        positions_table("vessel_positions_away", "vessel_positions")
        for message in later:
            await connection.send(message)
        await connection.wait_closed()

    report, _ = follow(sqlite_sessions, handler, lambda c: c.report.run.ingest.stored == 4)
    assert stored(sqlite_sessions) == 4
    assert report.run.ingest.drops[Drop.WRITE_FAILED] == 6
    assert "commit failed 3 times" in caplog.text and KEY not in caplog.text
    assert report.disconnects == 0  # the connection itself was never given up


def test_idle_connection__dropped_and_made_again(sqlite_sessions: sessionmaker[Session]) -> None:
    """An upstream that sends a message one byte-sized fragment at a time, answering pings,
    never delivers it: after the idle timeout the client drops the connection and connects
    again, and the second connection's messages are stored."""
    add_vessel(sqlite_sessions)

    async def trickle() -> Any:
        for character in TRACK[0]:
            yield character
            await asyncio.sleep(0.05)

    async def handler(server: Server, connection: ServerConnection) -> None:
        await server.subscribed(connection)
        if len(server.subscriptions) == 1:
            with contextlib.suppress(Exception):
                await connection.send(trickle())
        else:
            for message in TRACK:
                await connection.send(message)
        await connection.wait_closed()

    report, server = follow(
        sqlite_sessions, handler, lambda c: c.report.received == 10, idle_timeout_s=0.5
    )
    assert stored(sqlite_sessions) == 10
    assert len(server.subscriptions) == 2 and report.disconnects >= 1


def test_batch_bytes__a_batch_is_committed_at_its_byte_bound(
    sqlite_sessions: sessionmaker[Session],
) -> None:
    """With room for a thousand messages but only two messages' bytes, batches are written two
    messages at a time."""
    add_vessel(sqlite_sessions)
    bound = len(TRACK[0]) * 2

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, TRACK)

    report, _ = follow(
        sqlite_sessions,
        handler,
        lambda c: stored(sqlite_sessions) == 10,
        batch_size=1000,
        batch_bytes=bound,
    )
    assert report.run.batches == 5


def test_redirect__refused_naming_the_target_and_the_key_never_sent(
    sqlite_sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    """A handshake answered with a redirect is refused: the target is named in the log, and the
    host redirected to never receives the subscription."""
    caplog.set_level(logging.INFO)
    elsewhere = Server()
    delays: list[float] = []

    async def scenario() -> StreamReport:
        async def other(connection: ServerConnection) -> None:
            await elsewhere.subscribed(connection)

        async with serve(other, "127.0.0.1", 0, logger=SERVER_LOG) as target:
            target_url = f"ws://127.0.0.1:{target.sockets[0].getsockname()[1]}/v0/stream"

            def redirect(connection: ServerConnection, request: Any) -> Any:
                response = connection.respond(HTTPStatus.FOUND, "moved\n")
                response.headers["Location"] = target_url
                return response

            async def never(connection: ServerConnection) -> None:  # pragma: no cover
                await connection.wait_closed()

            async with serve(
                never, "127.0.0.1", 0, process_request=redirect, logger=SERVER_LOG
            ) as first:
                port = first.sockets[0].getsockname()[1]

                async def sleep(seconds: float) -> None:
                    delays.append(seconds)
                    await asyncio.sleep(0)

                client = AISStreamClient(
                    f"ws://127.0.0.1:{port}/v0/stream",
                    Subscription(KEY),
                    Ingestor(sqlite_sessions, ManualClock(AFTER_TRACK)),
                    draw=lambda: 1.0,
                    sleep=sleep,
                    insecure=True,
                )
                task = asyncio.create_task(client.run())
                await until(lambda: len(delays) >= 2)
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                return client.report

    report = asyncio.run(scenario())
    assert report.connections == 0 and elsewhere.subscriptions == []
    assert "refused a redirect (HTTP 302) to ws://127.0.0.1:" in caplog.text
    assert KEY not in caplog.text


def test_plain_ws__refused_with_a_key_unless_insecure(
    sqlite_sessions: sessionmaker[Session],
) -> None:
    ingestor = Ingestor(sqlite_sessions, ManualClock(T0))
    with pytest.raises(ValueError, match="unencrypted"):
        AISStreamClient("ws://stream.example.org/v0/stream", Subscription(KEY), ingestor)
    allowed = AISStreamClient(
        "ws://stream.example.org/v0/stream", Subscription(KEY), ingestor, insecure=True
    )
    assert allowed.url.startswith("ws://")
    assert AISStreamClient("wss://stream.example.org/v0/stream", Subscription(KEY), ingestor)


def test_oversized_message__ends_the_connection_not_the_client(
    sqlite_sessions: sessionmaker[Session],
) -> None:
    add_vessel(sqlite_sessions)
    huge = position(MMSI, 4.0, 52.0).replace(
        '"ShipName": ""', '"ShipName": "' + "X" * 100_000 + '"'
    )

    async def handler(server: Server, connection: ServerConnection) -> None:
        await server.subscribed(connection)
        for message in [huge] if len(server.subscriptions) == 1 else TRACK:
            await connection.send(message)
        await connection.wait_closed()

    report, _ = follow(sqlite_sessions, handler, lambda c: c.report.received == 10)
    assert stored(sqlite_sessions) == 10
    assert (report.connections, report.disconnects) == (2, 1)


def test_server_error__counted_logged_without_the_key_and_retried(
    sqlite_sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    """AISStream answers a bad subscription with an error and closes; a server that echoes
    the key back gets it masked."""
    caplog.set_level(logging.DEBUG)
    delays: list[float] = []

    async def handler(server: Server, connection: ServerConnection) -> None:
        await server.subscribed(connection)
        await connection.send(json.dumps({"error": f"Api Key {KEY} Is Not Valid"}))
        await connection.close(1008, f"bad key {KEY}")

    report, _ = follow(sqlite_sessions, handler, lambda c: len(delays) >= 2, delays=delays)
    assert report.run.ingest.drops[Drop.SERVER_ERROR] >= 2
    assert "Is Not Valid" in caplog.text and "[API key]" in caplog.text
    assert KEY not in caplog.text


def test_key__never_logged_even_at_debug_level(
    sqlite_sessions: sessionmaker[Session],
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """websockets logs every frame at debug level; the subscription's is not among them."""
    caplog.set_level(logging.DEBUG)
    add_vessel(sqlite_sessions)

    async def handler(server: Server, connection: ServerConnection) -> None:
        await send_all(server, connection, TRACK[:2])

    report, server = follow(sqlite_sessions, handler, lambda c: c.report.received == 2)
    assert server.subscriptions[0]["APIKey"] == KEY
    assert "connected and subscribed" in caplog.text
    captured = capsys.readouterr()
    for text in (caplog.text, captured.out, captured.err, report.summary(), repr(report)):
        assert KEY not in text


def test_key__not_in_reprs(sqlite_sessions: sessionmaker[Session]) -> None:
    wanted = Subscription(KEY, (WORLD,), ("244670316",))
    client = AISStreamClient(
        "wss://example.org/v0/stream", wanted, Ingestor(sqlite_sessions, ManualClock(T0))
    )
    for text in (repr(wanted), str(wanted), repr(client), str(client)):
        assert KEY not in text
    assert "244670316" in repr(client)
    assert KEY in wanted.message()


@pytest.mark.parametrize(
    ("text", "box"),
    [
        ("3.5,51,5,52.5", Box(3.5, 51.0, 5.0, 52.5)),
        ("-180,-90,180,90", WORLD),
        (" 170 , -10 , -170 , 10 ", Box(170.0, -10.0, -170.0, 10.0)),
    ],
)
def test_parse_box(text: str, box: Box) -> None:
    assert parse_box(text) == box


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3.5,51,5", "LON1,LAT1,LON2,LAT2"),
        ("3.5,51,5,52.5,1", "LON1,LAT1,LON2,LAT2"),
        ("a,b,c,d", "LON1,LAT1,LON2,LAT2"),
        ("nan,51,5,52", "LON1,LAT1,LON2,LAT2"),
        ("181,51,5,52", r"longitudes must be in \[-180, 180\]"),
        ("3,51,5,-91", r"latitudes must be in \[-90, 90\]"),
        ("51,181,52,182", "longitudes|latitudes"),
    ],
)
def test_parse_box__rejects(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_box(text)


@pytest.mark.parametrize(
    "text",
    [
        "24467031",
        "2446703160",
        "24467031x",
        "\uff12\uff14\uff14\uff16\uff17\uff10\uff13\uff11\uff16",
    ],
)
def test_parse_mmsi__rejects(text: str) -> None:
    with pytest.raises(ValueError, match="9 digits"):
        parse_mmsi(text)


@pytest.mark.parametrize(
    "url", ["http://stream.aisstream.io/v0/stream", "ws://", "wss://user:pw@host/x", "host:80"]
)
def test_check_url__rejects(url: str) -> None:
    with pytest.raises(ValueError, match="URL"):
        check_url(url)


def test_backoff__doubles_with_jitter_up_to_the_cap() -> None:
    backoff = Backoff(first_s=1.0, cap_s=10.0)
    assert [backoff.delay_s(n, 1.0) for n in range(1, 7)] == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    assert [backoff.delay_s(n, 0.0) for n in range(1, 7)] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0]
    assert backoff.delay_s(10_000, 0.5) == 7.5
