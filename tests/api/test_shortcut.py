"""The future-positions operations answered without the router (``sealane.api.shortcut``): each
answer is the one the router gives (same status, headers that matter, body), a request the
shortcut does not take reaches the router untouched, and metrics count both alike."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from fastapi import Depends, FastAPI, Query, Response
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.requests import Request
from starlette.types import Send

from sealane.api.app import create_app
from sealane.api.errors import Forbidden
from sealane.api.params import authenticated_routing
from sealane.api.routers import vessels as vessels_router
from sealane.api.shortcut import Shortcut
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.service.reference import vessels as service_vessels
from sealane.store.models import Vessel
from tests.toolkit import Keys, auth

from .test_probes import scrape, value

HERE = {"latitude": "12.3", "longitude": "60.1"}
PORTS = {"port_id": "NLRTM", "previous_port_id": "CNSHA"}
WITH = "future_positions_with_coordinates"
FROM_LAST = "future_positions"


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the shortcut answered itself."""
    paths: list[str] = []
    real = Shortcut._answer

    async def watched(
        self: Shortcut, dependant: Any, request: Request, values: Any, send: Send
    ) -> None:
        paths.append(request.url.path)
        await real(self, dependant, request, values, send)

    monkeypatch.setattr(Shortcut, "_answer", watched)
    return paths


@pytest.fixture
def routed(
    settings: Settings, clock: ManualClock, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    """A second app on the same database, without the shortcut: every request is routed."""
    monkeypatch.setattr(vessels_router, "shortcut_routes", list)
    other = create_app(settings, clock=clock)
    with TestClient(other, raise_server_exceptions=False) as client:
        yield client


def url(vessel_id: str, endpoint: str = WITH) -> str:
    return f"/v2/vessels/{vessel_id}/{endpoint}"


def answer(client: TestClient, method: str, path: str, **kwargs: Any) -> tuple[Any, ...]:
    """What a client sees of an answer: status, the headers that describe it, the body."""
    response = client.request(method, path, **kwargs)
    body = response.content  # decoded, when gzipped
    named = ("content-type", "content-encoding", "vary", "cache-control", "etag", "allow")
    return response.status_code, {n: response.headers.get(n) for n in named}, body


def cases(vessel_id: str, keys: Keys) -> list[tuple[str, str, dict[str, Any], bool]]:
    """(method, path, request arguments, whether the shortcut answers it)."""
    key, plain = auth(keys.routing), auth(keys.plain)
    gz = {"Accept-Encoding": "gzip"}
    return [
        ("GET", url(vessel_id), {"params": HERE | PORTS, "headers": key}, True),
        ("GET", url(vessel_id), {"params": HERE | PORTS, "headers": key | gz}, True),
        ("HEAD", url(vessel_id), {"params": HERE | PORTS, "headers": key | gz}, True),
        ("GET", url(vessel_id, FROM_LAST), {"params": PORTS, "headers": key}, True),
        ("GET", url(vessel_id), {"params": HERE | {"port_id": "XXNOP"}, "headers": key}, True),
        ("GET", url(vessel_id), {"params": HERE | PORTS | {"draft_m": "-1"}, "headers": key}, True),
        ("GET", url(vessel_id), {"params": HERE | PORTS | {"beam_m": "900"}, "headers": key}, True),
        ("GET", url("no-such-vessel"), {"params": HERE | PORTS, "headers": key}, True),
        ("GET", url(vessel_id), {"params": HERE | PORTS}, True),  # no key: 401
        ("GET", url(vessel_id), {"params": HERE | PORTS, "headers": plain}, True),  # 403
        (
            "GET",
            url(vessel_id),
            {"params": HERE | PORTS, "headers": key | {"Accept": "application/json"}},
            True,
        ),
        ("GET", url(vessel_id), {"params": HERE | {"port_id": "\x00"}, "headers": key}, False),
        ("GET", url("%00"), {"params": HERE | PORTS, "headers": key}, True),
        ("GET", url(vessel_id), {"params": HERE | {"draft_m": "1e-320"}, "headers": key}, True),
        ("GET", url(vessel_id), {"params": HERE | {"port_id": "  "}, "headers": key}, True),
        ("GET", url(vessel_id), {"params": HERE | {"draft_m": "inf"}, "headers": key}, False),
        # refused or unusual parameters: the router's
        ("GET", url(vessel_id), {"params": HERE | {"latitude": "91"}, "headers": key}, False),
        ("GET", url(vessel_id), {"params": HERE | {"latitude": "nan"}, "headers": key}, False),
        ("GET", url(vessel_id), {"params": {"longitude": "60.1"}, "headers": key}, False),
        ("GET", url(vessel_id), {"params": HERE | {"include": "x"}, "headers": key}, False),
        ("GET", url(vessel_id), {"params": HERE | {"colour": "red"}, "headers": key}, False),
        ("GET", url(vessel_id), {"params": HERE | {"port_id": "N" * 65}, "headers": key}, False),
        ("GET", url(vessel_id) + "?port_id=NLRTM&port_id=DEHAM&latitude=1&longitude=1", {}, False),
        ("GET", url(vessel_id), {"params": HERE | {"latitude": "91"}}, False),  # 401 first
        ("POST", url(vessel_id), {"params": HERE, "headers": key}, False),
        (
            "GET",
            url(vessel_id) + "/",
            {"params": HERE, "headers": key, "follow_redirects": False},
            False,
        ),
    ]


def test_shortcut__answers_as_the_router_does(
    client: TestClient, routed: TestClient, keys: Keys, vessel: Vessel, taken: list[str]
) -> None:
    for method, path, kwargs, shortcut in cases(vessel.id, keys):
        before = len(taken)
        ours, theirs = (
            answer(client, method, path, **kwargs),
            answer(routed, method, path, **kwargs),
        )
        assert ours == theirs, (method, path, kwargs)
        assert (len(taken) > before) == shortcut, (method, path, kwargs, ours[0])
        assert ours[0] < 500, (method, path, ours)


def test_shortcut__not_acceptable_before_anything(
    client: TestClient, keys: Keys, vessel: Vessel, taken: list[str]
) -> None:
    headers = auth(keys.routing) | {"Accept": "application/vnd.api+json; charset=utf-8"}
    response = client.get(url(vessel.id), params=HERE | PORTS, headers=headers)
    assert response.status_code == 406
    assert taken == []


def test_shortcut__counted_under_the_route_template(
    client: TestClient, keys: Keys, vessel: Vessel, taken: list[str]
) -> None:
    client.get(url(vessel.id), params=HERE | PORTS, headers=auth(keys.routing))
    client.get(url(vessel.id), params=HERE | {"latitude": "91"}, headers=auth(keys.routing))
    assert taken == [url(vessel.id)]  # the second one was the router's
    samples = scrape(client)
    route = "/v2/vessels/{vessel_id}/future_positions_with_coordinates"
    for status in ("200", "400"):
        labels = {"route": route, "method": "GET", "status": status}
        assert value(samples, "sealane_http_requests_total", **labels) == 1, status


def test_shortcut__refuses_an_operation_it_cannot_answer_alike() -> None:
    """Only ``async`` functions with path and query parameters are called here."""

    def plain(vessel_id: str) -> None:
        """Not async: FastAPI would run it on a thread."""

    route = APIRoute("/vessels/{vessel_id}/plain", plain)
    with pytest.raises(ValueError, match="not async"):
        Shortcut(lambda *_: None, routes=[route], prefix="/v2", handlers={})  # type: ignore[arg-type]


def test_shortcut__refuses_parameters_and_arguments_only_fastapi_reads() -> None:
    async def listed(vessel_id: str, port_id: Annotated[list[str], Query()]) -> None:
        """A list: FastAPI reads every value given."""

    async def answered(vessel_id: str, response: Response) -> None:
        """The response FastAPI merges into the answer."""

    async def renamed(vessel_id: str, port: Annotated[str, Query(validation_alias="to")]) -> None:
        """FastAPI reads ``to``, which no check of declared names knows."""

    refused = {listed: "not one plain value", answered: "only FastAPI", renamed: "another name"}
    for endpoint, why in refused.items():
        route = APIRoute("/vessels/{vessel_id}/odd", endpoint)
        with pytest.raises(ValueError, match=why):
            Shortcut(lambda *_: None, routes=[route], prefix="/v2", handlers={})  # type: ignore[arg-type]


#: The dependencies called, in order (by the operation below).
CALLS: list[str] = []


async def counted() -> int:
    CALLS.append("counted")
    return len(CALLS)


async def uncached() -> None:
    CALLS.append("uncached")


async def first(number: Annotated[int, Depends(counted)]) -> int:
    return number


async def second(
    number: Annotated[int, Depends(counted)],
    _again: Annotated[None, Depends(uncached, use_cache=False)],
) -> int:
    return number


async def both(
    a: Annotated[int, Depends(first)],
    b: Annotated[int, Depends(second)],
    _again: Annotated[None, Depends(uncached, use_cache=False)],
) -> Response:
    return Response(f"{a} {b}")


def test_shortcut__a_dependency_met_twice_runs_once_as_in_fastapi() -> None:
    """The rate limit counts a request once though two dependencies depend on it (and a
    dependency that asks not to be cached runs each time), as FastAPI's dependency cache does."""
    seen = []
    for shortcut in (True, False):
        CALLS.clear()
        app = FastAPI()
        app.get("/v2/things")(both)
        route = next(r for r in app.routes if isinstance(r, APIRoute))
        asgi: Any = Shortcut(app, routes=[route], prefix="", handlers={}) if shortcut else app
        with TestClient(asgi) as plain:
            seen.append((plain.get("/v2/things").text, sorted(CALLS)))
    assert seen[0] == seen[1] == ("1 1", ["counted", "uncached", "uncached"])


def test_shortcut__dependency_overrides_left_to_the_router() -> None:
    """While the app replaces a dependency (as a test does), its requests go to the router,
    which applies the replacement; without one, the shortcut answers."""
    app = FastAPI()
    app.get("/v2/things")(both)
    route = next(r for r in app.routes if isinstance(r, APIRoute))
    seen: list[str] = []

    async def passed_on(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            seen.append("router")
        await app(scope, receive, send)

    asgi = Shortcut(passed_on, routes=[route], prefix="", handlers={})
    with TestClient(asgi) as plain:
        CALLS.clear()
        assert plain.get("/v2/things").text == "1 1" and seen == []

        async def replaced() -> int:
            return 7

        app.dependency_overrides[counted] = replaced
        assert plain.get("/v2/things").text == "7 7" and seen == ["router"]


def test_shortcut__dependency_overrides_of_the_app_left_to_the_router(
    app: FastAPI, client: TestClient, keys: Keys, vessel: Vessel, taken: list[str]
) -> None:
    """The app is given the router's own routes, which name no provider of overrides: the
    app's ``dependency_overrides`` still send its requests to the router."""

    async def refused() -> None:
        raise Forbidden("replaced")

    app.dependency_overrides[authenticated_routing] = refused
    response = client.get(url(vessel.id), params=HERE | PORTS, headers=auth(keys.routing))
    assert response.status_code == 403 and taken == []
    app.dependency_overrides.clear()
    response = client.get(url(vessel.id), params=HERE | PORTS, headers=auth(keys.routing))
    assert response.status_code == 200 and taken == [url(vessel.id)]


def test_shortcut__takes_the_two_operations() -> None:
    paths = sorted(route.path for route in vessels_router.shortcut_routes())
    assert paths == [f"/vessels/{{vessel_id}}/{FROM_LAST}", f"/vessels/{{vessel_id}}/{WITH}"]


def test_shortcut__an_unexpected_error_answered_as_the_routers(
    client: TestClient,
    routed: TestClient,
    keys: Keys,
    vessel: Vessel,
    taken: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A failure no handler but the last-resort one answers escapes every layer, as it escapes
    the router: its 500 document gets no caching headers on the way out."""

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(service_vessels, "vessel_future_positions", broken)
    kwargs = {"params": HERE | PORTS, "headers": auth(keys.routing) | {"Accept-Encoding": "gzip"}}
    ours = answer(client, "GET", url(vessel.id), **kwargs)
    assert ours == answer(routed, "GET", url(vessel.id), **kwargs)
    assert ours[0] == 500
    assert taken == [url(vessel.id)]
