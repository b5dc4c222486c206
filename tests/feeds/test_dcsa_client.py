"""The T&T 2.2 client against the test server: headers, auth, paging forms, waits and limits."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from sealane.clock import ManualClock
from sealane.config.dcsa_carriers import OAuth2
from sealane.feeds.dcsa.client import CarrierUnreachable, DcsaClient, UnrecognizedResponse

from .dcsa_fixtures import BL, day
from .dcsa_server import CLIENT, DcsaState, Fault, dcsa_server
from .dcsa_world import config_for


@pytest.fixture
def server() -> Iterator[tuple[str, DcsaState]]:
    from .dcsa_fixtures import shipment_events

    with dcsa_server(shipment_events(), day(40)) as (url, state, _stop):
        yield url, state


def client_for(url: str, slept: list[float] | None = None, **changes: object) -> DcsaClient:
    """A client whose sleeps move its manual clock (and are recorded in ``slept``)."""
    clock = ManualClock(day(40))

    def sleep(seconds: float) -> None:
        if slept is not None:
            slept.append(seconds)
        clock.advance(seconds)

    return DcsaClient(config_for(url, **changes), clock=clock, sleep=sleep)


def test_events__all_pages_with_the_api_version_header(server: tuple[str, DcsaState]) -> None:
    url, state = server
    client = client_for(url)
    events = client.events("bill_of_lading", BL)
    client.close()
    assert len(events) == len(state.visible({"transportDocumentReference": [BL]}))
    assert len({e["eventID"] for e in events}) == len(events)
    assert len(state.requests) == -(-len(events) // 5)  # pages of five
    assert all(headers.get("API-Version") == "2" for _path, headers in state.requests)


def test_events__bare_cursor_in_next_page(server: tuple[str, DcsaState]) -> None:
    url, state = server
    state.next_page = "cursor"
    client = client_for(url)
    events = client.events("bill_of_lading", BL)
    client.close()
    assert len(events) == len(state.visible({"transportDocumentReference": [BL]}))
    assert any("cursor=" in path for path, _headers in state.requests)


def test_events__next_page_elsewhere_refused(server: tuple[str, DcsaState]) -> None:
    url, state = server
    state.next_page = "foreign"
    client = client_for(url)
    with pytest.raises(UnrecognizedResponse, match="points elsewhere"):
        client.events("bill_of_lading", BL)
    client.close()
    assert len(state.requests) == 1


def test_auth_header__sent_on_every_request(server: tuple[str, DcsaState]) -> None:
    url, state = server
    client = client_for(url, auth_header=("X-API-Key", "k-123"))
    client.events("container", "MSKU1234565")
    client.close()
    assert {headers.get("X-API-Key") for _path, headers in state.requests} == {"k-123"}


def test_oauth2__one_token_for_many_requests(server: tuple[str, DcsaState]) -> None:
    url, state = server
    state.require_token = True
    grant = OAuth2(f"{url}/oauth/token", CLIENT[0], CLIENT[1])
    client = client_for(url, oauth2=grant)
    client.events("bill_of_lading", BL)
    client.events("booking_number", "DCSABK0001")
    client.close()
    assert state.tokens_issued == 1


def test_oauth2__wrong_secret_is_unreachable(server: tuple[str, DcsaState]) -> None:
    url, state = server
    state.require_token = True
    client = client_for(url, oauth2=OAuth2(f"{url}/oauth/token", CLIENT[0], "wrong"))
    with pytest.raises(CarrierUnreachable, match="no token"):
        client.events("bill_of_lading", BL)
    client.close()


def test_no_token__401_is_unrecognized(server: tuple[str, DcsaState]) -> None:
    url, state = server
    state.require_token = True
    client = client_for(url)
    with pytest.raises(UnrecognizedResponse, match="401"):
        client.events("bill_of_lading", BL)
    client.close()


def test_rate_limit__requests_spaced(server: tuple[str, DcsaState]) -> None:
    url, _state = server
    slept: list[float] = []
    client = client_for(url, slept, requests_per_second=2.0)
    client.events("bill_of_lading", BL)
    client.close()
    assert slept and all(s == pytest.approx(0.5) for s in slept)


def test_retry_after_too_long__unreachable(server: tuple[str, DcsaState]) -> None:
    url, state = server
    state.fail(Fault.RATE_LIMITED)
    client = client_for(url, max_retry_after_s=0.5)
    with pytest.raises(CarrierUnreachable, match="rate limited"):
        client.events("bill_of_lading", BL)
    client.close()


def test_not_found_path__404_reads_as_no_events(server: tuple[str, DcsaState]) -> None:
    url, _state = server
    client = DcsaClient(replace(config_for(url), base_url=f"{url}/nothing"))
    assert client.events("bill_of_lading", BL) == []
    client.close()
