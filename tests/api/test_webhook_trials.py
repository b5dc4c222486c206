"""``POST /v2/webhooks/trigger`` against a slow receiver: a test delivery waits for it on
threads of its own, at most two per account at a time (more: 429 with ``Retry-After``), so
another account's requests are answered meanwhile."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sealane.service.webhooks.trials import PER_ACCOUNT
from tests.api.jsonapi_asserts import assert_error
from tests.toolkit import JSONAPI, START, Scenario, auth, make_app
from tests.webhooks.receiver import Receiver, Reply, receiving

EVENT = "tracking_request.succeeded"
#: Long enough that every request of a test is answered while the receiver still holds the
#: trials (the test waits for the receiver to have them first); never a timing assertion.
SLOW_S = 4.0


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, str, str]]:
    app = make_app(tmp_path / "sealane.db", webhook_allow_private=True)
    scenario = Scenario.on(app)
    sender = scenario.account("Trial Co", routing=False, at=START).secret
    other = scenario.account("Other Co", routing=False, at=START).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, sender, other
    app.state.sealane.engine.dispose()


def trigger(client: TestClient, key: str, receiver: Receiver) -> Any:
    body = {"url": f"{receiver.url}/trial", "event": EVENT}
    headers = {**auth(key), "Content-Type": JSONAPI}
    return client.post("/v2/webhooks/trigger", json=body, headers=headers)


def test_trigger__answers_what_the_receiver_said(served: tuple[TestClient, str, str]) -> None:
    client, sender, _ = served
    with receiving(Reply(status=202, body=b"thanks")) as receiver:
        response = trigger(client, sender, receiver)
    assert response.status_code == 200, response.text[:300]
    result = response.json()
    assert (result["succeeded"], result["status_code"]) == (True, 202)
    assert result["response_body"] == "thanks"


def test_trigger__slow_receiver_holds_no_shared_thread(
    served: tuple[TestClient, str, str],
) -> None:
    client, sender, other = served
    with receiving(default=Reply(delay_s=SLOW_S)) as receiver, ThreadPoolExecutor(2) as pool:
        held = [pool.submit(trigger, client, sender, receiver) for _ in range(PER_ACCOUNT)]
        receiver.wait_for(PER_ACCOUNT, timeout_s=30)
        # the account's trials wait on the trial executor's threads, not the request pool's
        names = {thread.name for thread in threading.enumerate()}
        assert sum(name.startswith("webhook-trial") for name in names) == PER_ACCOUNT
        one_more = trigger(client, sender, receiver)
        elsewhere = client.get("/v2/ports/NLRTM", headers=auth(other))
        still_held = [not future.done() for future in held]
        others_trial = trigger(client, other, receiver)  # the bound is per account
        answers = [future.result(timeout=60) for future in held]
    assert still_held == [True] * PER_ACCOUNT  # answered while the receiver held both
    error = assert_error(one_more, 429, code="rate_limited")
    assert int(one_more.headers["Retry-After"]) >= 1
    assert "at a time" in error["detail"]
    assert elsewhere.status_code == 200, elsewhere.text[:300]
    assert others_trial.status_code == 200
    assert [answer.status_code for answer in answers] == [200] * PER_ACCOUNT


def test_trigger__forty_at_once_two_sent_the_rest_429(
    served: tuple[TestClient, str, str],
) -> None:
    client, sender, _ = served
    with receiving(default=Reply(delay_s=SLOW_S)) as receiver, ThreadPoolExecutor(40) as pool:
        statuses = list(
            pool.map(lambda _: trigger(client, sender, receiver).status_code, range(40))
        )
        sent = len(receiver.received)
    assert sorted(set(statuses)) == [200, 429]
    assert statuses.count(200) == sent >= PER_ACCOUNT
