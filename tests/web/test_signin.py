"""Sign-in, sessions, CSRF and the way back to a deep link, over HTTP."""

from __future__ import annotations

import hashlib
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sealane.service.access.accounts import create_account, revoke_key
from sealane.web.guard import SESSION_COOKIE, safe_back
from tests.toolkit import make_app, make_settings

from .conftest import Demo, csrf_of, sign_in


def test_signed_out__page_redirects_to_sign_in_with_the_way_back(client: TestClient) -> None:
    response = client.get("/shipments/find?q=TSTU 123", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/sign-in?next=%2Fshipments%2Ffind%3Fq%3DTSTU%2520123"


def test_sign_in__returns_to_the_deep_link(client: TestClient, demo: Demo) -> None:
    form = client.get("/sign-in?next=/shipments?q=PO-0002")
    assert 'name="next" value="/shipments?q=PO-0002"' in form.text
    response = client.post(
        "/sign-in",
        data={
            "csrf_token": csrf_of(form.text),
            "api_key": demo.routing_key,
            "next": "/shipments?q=PO-0002",
        },
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/shipments?q=PO-0002"


def test_sign_in__cookie_is_httponly_lax_and_expiring(client: TestClient, demo: Demo) -> None:
    form = client.get("/sign-in")
    response = client.post(
        "/sign-in",
        data={"csrf_token": csrf_of(form.text), "api_key": demo.routing_key},
        follow_redirects=False,
    )
    header = next(
        value
        for value in response.headers.get_list("set-cookie")
        if value.startswith(SESSION_COOKIE)
    )
    morsel = SimpleCookie(header)[SESSION_COOKIE]
    assert morsel["httponly"] is True
    assert morsel["samesite"].lower() == "lax"
    assert int(morsel["max-age"]) == 8 * 3600 - 1 or int(morsel["max-age"]) == 8 * 3600
    assert not morsel["secure"]  # plain http here; https sets Secure
    assert demo.routing_key not in header


def test_sign_in__secure_cookie_over_https(demo: Demo) -> None:
    with TestClient(demo.app, base_url="https://testserver") as client:
        form = client.get("/sign-in")
        response = client.post(
            "/sign-in",
            data={"csrf_token": csrf_of(form.text), "api_key": demo.routing_key},
            follow_redirects=False,
        )
    header = next(
        v for v in response.headers.get_list("set-cookie") if v.startswith(SESSION_COOKIE)
    )
    assert SimpleCookie(header)[SESSION_COOKIE]["secure"] is True


def test_sign_in__wrong_key_401_with_the_form(client: TestClient) -> None:
    form = client.get("/sign-in")
    response = client.post(
        "/sign-in", data={"csrf_token": csrf_of(form.text), "api_key": "sl_nope"}
    )
    assert response.status_code == 401
    assert "That API key is not valid." in response.text
    assert SESSION_COOKIE not in response.headers.get("set-cookie", "")


def test_sign_in__empty_key_400(client: TestClient) -> None:
    form = client.get("/sign-in")
    response = client.post("/sign-in", data={"csrf_token": csrf_of(form.text), "api_key": " "})
    assert response.status_code == 400
    assert "Enter your API key." in response.text


def test_sign_in__without_its_form_token_403(client: TestClient, demo: Demo) -> None:
    client.get("/sign-in")
    response = client.post(
        "/sign-in", data={"csrf_token": "forged.token", "api_key": demo.routing_key}
    )
    assert response.status_code == 403
    assert "text/html" in response.headers["content-type"]


def test_sign_in__from_another_origin_403(client: TestClient, demo: Demo) -> None:
    form = client.get("/sign-in")
    response = client.post(
        "/sign-in",
        data={"csrf_token": csrf_of(form.text), "api_key": demo.routing_key},
        headers={"Origin": "https://evil.example"},
    )
    assert response.status_code == 403


@pytest.mark.parametrize(
    "back",
    [
        "https://evil.example/",
        "//evil.example/x",
        "/\\evil.example",
        "/shipments\r\nSet-Cookie: x=1",
        "javascript:alert(1)",
        "shipments",
        "/sign-out",
        "/" + "a" * 5000,
    ],
)
def test_sign_in__never_returns_to_another_site(client: TestClient, demo: Demo, back: str) -> None:
    form = client.get("/sign-in")
    response = client.post(
        "/sign-in",
        data={"csrf_token": csrf_of(form.text), "api_key": demo.routing_key, "next": back},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/shipments"


def test_safe_back__keeps_paths_and_queries() -> None:
    assert safe_back("/shipments/find?q=ABC%20123") == "/shipments/find?q=ABC%20123"
    assert safe_back("/shipments/1?container=2#map") == "/shipments/1?container=2#map"


def test_sign_out__ends_the_session(client: TestClient, demo: Demo) -> None:
    sign_in(client, demo.routing_key)
    page = client.get("/shipments")
    stolen = client.cookies.get(SESSION_COOKIE)
    response = client.post(
        "/sign-out", data={"csrf_token": csrf_of(page.text)}, follow_redirects=False
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/sign-in?signed_out=1"
    assert client.get("/shipments", follow_redirects=False).status_code == 303
    # The old cookie is worthless: the session is gone on the server.
    client.cookies.set(SESSION_COOKIE, stolen or "")
    assert client.get("/shipments", follow_redirects=False).status_code == 303


def test_sign_out__without_the_token_403_and_still_signed_in(
    client: TestClient, demo: Demo
) -> None:
    sign_in(client, demo.routing_key)
    assert client.post("/sign-out", data={"csrf_token": "x"}).status_code == 403
    assert client.get("/shipments").status_code == 200


def test_session__expires(client: TestClient, demo: Demo) -> None:
    sign_in(client, demo.routing_key)
    assert client.get("/shipments").status_code == 200
    demo.clock.advance(8 * 3600 + 1)
    try:
        response = client.get("/shipments/find?q=PO-0001", follow_redirects=False)
        sign_in_page = client.get(response.headers["location"]).text
    finally:
        demo.clock.advance(-(8 * 3600 + 1))
    assert response.status_code == 303
    assert response.headers["location"] == "/sign-in?next=%2Fshipments%2Ffind%3Fq%3DPO-0001&ended=1"
    assert "Your session has ended" in sign_in_page


def test_session__forged_cookie_is_not_a_session(client: TestClient) -> None:
    client.cookies.set(SESSION_COOKIE, "made-up-id.bad-signature")
    assert client.get("/shipments", follow_redirects=False).status_code == 303


def test_signed_in__sign_in_page_goes_on(client: TestClient, demo: Demo) -> None:
    sign_in(client, demo.routing_key)
    response = client.get("/sign-in?next=/track", follow_redirects=False)
    assert response.headers["location"] == "/track"


def test_pages__count_against_the_accounts_rate_limit(tmp_path: Path) -> None:
    app = make_app(tmp_path / "sealane.db", rate_limit_per_minute=3)
    key = create_account(app.state.sealane.context, "Busy Co", routing=False).secret
    with TestClient(app) as busy:
        sign_in(busy, key)  # the sign-in is the first request of the minute
        assert busy.get("/track").status_code == 200
        assert busy.get("/track").status_code == 200
        limited = busy.get("/track")
    assert limited.status_code == 429
    assert int(limited.headers["retry-after"]) >= 1
    assert "<h1>Too many requests</h1>" in limited.text


def test_sessions__shared_by_two_server_processes_and_revoked_with_their_key(
    tmp_path: Path,
) -> None:
    """Two apps on one database (as two ``sealane serve`` would be): a session started on one
    is valid on the other, revoking its key ends it on both at once, and the database holds
    only the hash of the id the cookie carries."""
    settings = make_settings(tmp_path / "sealane.db")
    first, second = (make_app(settings) for _ in range(2))
    key = create_account(first.state.sealane.context, "Shared Co", routing=False)
    with TestClient(first) as one, TestClient(second) as two:
        sign_in(one, key.secret)
        cookie = one.cookies[SESSION_COOKIE]
        two.cookies.set(SESSION_COOKIE, cookie)
        assert two.get("/shipments", follow_redirects=False).status_code == 200

        with first.state.sealane.engine.connect() as db:
            stored = [row[0] for row in db.exec_driver_sql("SELECT id_hash FROM web_sessions")]
        session_id = cookie.rpartition(".")[0]
        assert stored == [hashlib.sha256(session_id.encode()).hexdigest()]

        revoke_key(first.state.sealane.context, key.key_id)
        for client in (one, two):
            ended = client.get("/shipments", follow_redirects=False)
            assert ended.status_code == 303
            assert ended.headers["location"].endswith("&ended=1")
    for app in (first, second):
        app.state.sealane.engine.dispose()


def test_sessions__sign_out_on_one_process_ends_it_on_the_other(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "sealane.db")
    first, second = (make_app(settings) for _ in range(2))
    key = create_account(first.state.sealane.context, "Shared Co", routing=False).secret
    with TestClient(first) as one, TestClient(second) as two:
        sign_in(one, key)
        two.cookies.set(SESSION_COOKIE, one.cookies[SESSION_COOKIE])
        page = two.get("/shipments")
        assert page.status_code == 200
        assert two.post("/sign-out", data={"csrf_token": csrf_of(page.text)}).status_code == 200
        assert one.get("/shipments", follow_redirects=False).status_code == 303
    for app in (first, second):
        app.state.sealane.engine.dispose()
