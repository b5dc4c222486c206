"""``/healthz``, ``/readyz`` and ``/metrics`` (sealane.api.probes): no key, outside ``/v2``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.feeds.ais.sample import SampleVessel, sample_lines
from sealane.service.ingest.ais_feeds import replay_nmea
from sealane.store.database import make_engine
from sealane.store.migrate import upgrade
from tests.toolkit import START, Keys, auth, make_app
from tests.webhooks.receiver import Reply, receiving
from tests.webhooks.support import (
    account_id,
    close_app,
    create_webhook,
    deliver,
    emit_event,
    private_app,
    tracking_request,
)

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: TestClient) -> Samples:
    """``GET /metrics`` parsed by prometheus_client's own parser: value by (name, labels)."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text[:300]
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
def private(settings: Settings, clock: ManualClock) -> Iterator[FastAPI]:
    """An app whose webhooks may call a receiver on 127.0.0.1."""
    the_app = private_app(settings, clock)
    yield the_app
    close_app(the_app)


# -- /healthz --------------------------------------------------------------------------------------


def test_healthz__ok_without_a_key(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_healthz__head_has_no_body(client: TestClient) -> None:
    response = client.head("/healthz")
    assert response.status_code == 200
    assert response.content == b""


def test_healthz__post_405(client: TestClient) -> None:
    response = client.post("/healthz")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"
    assert response.json()["errors"][0]["status"] == "405"


# -- /readyz ---------------------------------------------------------------------------------------


def test_readyz__migrated_database_200(client: TestClient) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["status"] == "ready"


def unmigrated_client(settings: Settings, clock: ManualClock) -> TestClient:
    return TestClient(create_app(settings, clock=clock, migrate=False))


def test_readyz__database_without_tables_503(tmp_path: Path, clock: ManualClock) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'empty.db'}")
    with unmigrated_client(settings, clock) as client:
        response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["reason"] == "the database schema has not been migrated"
    assert body["schema"] == []


def test_readyz__schema_behind_the_head_503(tmp_path: Path, clock: ManualClock) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'old.db'}")
    engine = make_engine(settings.database_url)
    upgrade(engine, "0009_rate_limit_counts")
    engine.dispose()
    with unmigrated_client(settings, clock) as client:
        response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["schema"] == ["0009_rate_limit_counts"]
    assert "not at the migration head" in body["reason"]
    assert body["head"] and body["head"] != body["schema"]


def test_readyz__unreachable_database_503(tmp_path: Path, clock: ManualClock) -> None:
    missing = tmp_path / "no such directory" / "sealane.db"
    settings = Settings(database_url=f"sqlite:///{missing}", web_secret_key="k" * 32)
    with unmigrated_client(settings, clock) as client:
        healthz, readyz = client.get("/healthz"), client.get("/readyz")
    assert healthz.status_code == 200  # the process is up all the same
    assert readyz.status_code == 503
    assert readyz.json()["reason"] == "the database does not answer"


# -- /metrics --------------------------------------------------------------------------------------


def test_metrics__counts_a_request_by_its_route_template(client: TestClient, keys: Keys) -> None:
    response = client.get("/v2/shipments/no-such-shipment", headers=auth(keys.plain))
    assert response.status_code == 404
    samples = scrape(client)
    labels = {"route": "/v2/shipments/{shipment_id}", "method": "GET", "status": "404"}
    assert value(samples, "sealane_http_requests_total", **labels) == 1
    latency = {"route": "/v2/shipments/{shipment_id}", "method": "GET"}
    assert value(samples, "sealane_http_request_duration_seconds_count", **latency) == 1
    routes = {dict(labels)["route"] for (_name, labels) in samples if "route" in dict(labels)}
    assert not any("no-such-shipment" in route for route in routes)


def test_metrics__unknown_paths_share_one_label(client: TestClient) -> None:
    for path in ("/v2/nothing-here", "/v2/nor-here/at/all"):
        assert client.get(path).status_code == 404
    samples = scrape(client)
    labels = {"route": "unmatched", "method": "GET", "status": "404"}
    assert value(samples, "sealane_http_requests_total", **labels) == 2


def test_metrics__counts_probes_and_a_web_page(client: TestClient) -> None:
    client.get("/healthz")
    client.get("/")
    samples = scrape(client)
    labels = {"route": "/healthz", "method": "GET", "status": "200"}
    assert value(samples, "sealane_http_requests_total", **labels) == 1
    home = {"route": "/", "method": "GET"}
    assert value(samples, "sealane_http_request_duration_seconds_count", **home) == 1


def test_metrics__webhook_outcomes_after_a_delivery(
    private: FastAPI, clock: ManualClock, keys: Keys
) -> None:
    with TestClient(private) as client:
        request_id = tracking_request(client, keys.routing)
        account = account_id(private, keys.routing)
        with receiving(Reply(500), Reply(204)) as receiver:
            create_webhook(client, keys.routing, receiver.url, ["tracking_request.succeeded"])
            emit_event(private, account, request_id)
            deliver(private)  # 500: to be retried
            clock.advance(2)
            deliver(private)  # 204
        samples = scrape(client)
    assert value(samples, "sealane_webhook_deliveries_total", outcome="retrying") == 1
    assert value(samples, "sealane_webhook_deliveries_total", outcome="succeeded") == 1
    assert value(samples, "sealane_webhook_deliveries_total", outcome="failed") == 0
    assert value(samples, "sealane_webhook_queue_depth") == 0


def test_metrics__webhook_queue_and_poller_lag(
    private: FastAPI, clock: ManualClock, keys: Keys
) -> None:
    with TestClient(private) as client:
        request_id = tracking_request(client, keys.routing)  # due now, not yet looked up
        create_webhook(client, keys.routing, "http://127.0.0.1:9/hooks")
        emit_event(private, account_id(private, keys.routing), request_id)
        clock.advance(90)
        samples = scrape(client)
    assert value(samples, "sealane_database_up") == 1
    assert value(samples, "sealane_webhook_outbox_depth") == 1  # not yet fanned out
    assert value(samples, "sealane_poller_lag_seconds") == pytest.approx(90.0)


def test_metrics__turned_off_404_and_nothing_counted(
    settings: Settings, clock: ManualClock
) -> None:
    app = make_app(settings, clock=clock, metrics_enabled=False)
    with TestClient(app) as client:
        response = client.get("/metrics")
        assert client.get("/healthz").status_code == 200
    assert response.status_code == 404
    assert response.json()["errors"][0]["status"] == "404"
    assert (
        app.state.sealane.context.metrics.registry.get_sample_value(
            "sealane_http_requests_total",
            {"route": "/healthz", "method": "GET", "status": "200"},
        )
        is None
    )


def test_metrics__backlog_unknown_when_the_database_is_gone(
    tmp_path: Path, clock: ManualClock
) -> None:
    missing = tmp_path / "no such directory" / "sealane.db"
    settings = Settings(database_url=f"sqlite:///{missing}", web_secret_key="k" * 32)
    with unmigrated_client(settings, clock) as client:
        samples = scrape(client)
    assert value(samples, "sealane_database_up") == 0
    assert ("sealane_webhook_queue_depth", frozenset()) not in samples


def test_metrics__ais_counters_after_an_ingest(app: FastAPI, tmp_path: Path) -> None:
    ship = SampleVessel(
        mmsi=211_000_777,
        imo="9074729",
        name="COUNTED",
        previous_port="CNSHA",
        destination_port="NLRTM",
        speed_kn=14.0,
        hours_sailed=30.0,
    )
    lines = sample_lines([ship], START.timestamp(), 20 * 60.0, seed=3)
    broken = lines[0].replace("*", "*0", 1)[:-2] + "ZZ"  # a checksum that cannot match
    path = tmp_path / "feed.nmea"
    path.write_text("".join(line + "\n" for line in [*lines, broken]), encoding="ascii")
    report = replay_nmea(
        app.state.sealane.context,
        path,
        speed=0.0,
        shift_to_now=False,
        from_start=True,
        all_vessels=True,
        batch_size=25,
    )
    with TestClient(app) as client:
        samples = scrape(client)
    assert value(samples, "sealane_ais_sentences_total") == report.sentences == len(lines) + 1
    stored = value(samples, "sealane_ais_positions_stored_total")
    assert stored == report.ingest.stored > 0
    positions = value(samples, "sealane_ais_messages_ingested_total", kind="position")
    assert positions == report.ingest.positions
    assert value(samples, "sealane_ais_dropped_total", reason="bad_checksum") == 1


@pytest.mark.parametrize(("text", "enabled"), [("0", False), ("off", False), ("1", True)])
def test_settings__sealane_metrics(text: str, enabled: bool) -> None:
    assert Settings.from_env({"SEALANE_METRICS": text}).metrics_enabled is enabled


def test_settings__sealane_metrics_unreadable() -> None:
    with pytest.raises(ValueError, match="SEALANE_METRICS"):
        Settings.from_env({"SEALANE_METRICS": "maybe"})


def test_settings__sealane_metrics_token() -> None:
    assert Settings.from_env({"SEALANE_METRICS_TOKEN": " s3cret "}).metrics_token == "s3cret"
    assert Settings.from_env({"SEALANE_METRICS_TOKEN": ""}).metrics_token is None
    assert "s3cret" not in repr(Settings.from_env({"SEALANE_METRICS_TOKEN": "s3cret"}))


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer wrong", "Token scrape-7f1c", "Bearer", "bearer scrape-7f1cX"],
)
def test_metrics__token_set_401_without_it(
    settings: Settings, clock: ManualClock, authorization: str | None
) -> None:
    app = create_app(replace(settings, metrics_token="scrape-7f1c"), clock=clock)
    headers = {} if authorization is None else {"Authorization": authorization}
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/metrics", headers=headers)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"] == "Bearer"
        assert response.json()["errors"][0]["status"] == "401"
        assert "sealane_" not in response.text
        assert client.get("/healthz").status_code == 200  # the probes stay open
    app.state.sealane.engine.dispose()


def test_metrics__token_set_200_with_it(settings: Settings, clock: ManualClock) -> None:
    app = create_app(replace(settings, metrics_token="scrape-7f1c"), clock=clock)
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/metrics", headers={"Authorization": "Bearer scrape-7f1c"})
        assert response.status_code == 200 and "sealane_database_up" in response.text
    app.state.sealane.engine.dispose()


def test_metrics__made_at_most_once_in_its_window(client: TestClient, clock: ManualClock) -> None:
    """Scrapes within two seconds of the one that made the text get that text again (no
    database read, no rendering); after the window the text is made anew."""
    first = scrape(client)
    client.get("/healthz")
    labels = {"route": "/healthz", "method": "GET", "status": "200"}
    assert value(scrape(client), "sealane_http_requests_total", **labels) == 0
    assert scrape(client) == first
    clock.advance(2.0)
    assert value(scrape(client), "sealane_http_requests_total", **labels) == 1
