"""``page[number]``/``page[size]``, ``links`` and ``meta.total`` on the list endpoints."""

from __future__ import annotations

import math
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from tests.toolkit import Keys, auth

from .jsonapi_asserts import JSONAPI, assert_error

LISTS = ["/v2/ports", "/v2/terminals", "/v2/shipping_lines", "/v2/vessels"]


def page_of(link: str | None) -> tuple[int, int] | None:
    """(page number, page size) of a pagination link."""
    if link is None:
        return None
    query = parse_qs(urlsplit(link).query)
    return int(query["page[number]"][0]), int(query["page[size]"][0])


def test_list_ports__first_page_links_and_total(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = shared_client.get("/v2/ports", headers=auth(shared_keys.plain))
    assert response.status_code == 200
    assert response.headers["content-type"] == JSONAPI
    body = response.json()
    total = body["meta"]["total"]
    last = math.ceil(total / 30)
    assert total > 1_000
    assert len(body["data"]) == 30
    links = body["links"]
    assert set(links) == {"self", "first", "next", "last"}  # no page before the first
    assert links["self"].startswith("http://testserver/v2/ports?")
    assert page_of(links["self"]) == (1, 30)
    assert page_of(links["first"]) == (1, 30)
    assert "prev" not in links
    assert page_of(links["next"]) == (2, 30)
    assert page_of(links["last"]) == (last, 30)


def test_list_ports__middle_page_links(shared_client: TestClient, shared_keys: Keys) -> None:
    body = shared_client.get(
        "/v2/ports", params={"page[number]": 3, "page[size]": 10}, headers=auth(shared_keys.plain)
    ).json()
    links = body["links"]
    assert page_of(links["self"]) == (3, 10)
    assert page_of(links["prev"]) == (2, 10)
    assert page_of(links["next"]) == (4, 10)
    assert len(body["data"]) == 10


def test_list_ports__pages_do_not_overlap(shared_client: TestClient, shared_keys: Keys) -> None:
    def ids(number: int) -> list[str]:
        body = shared_client.get(
            "/v2/ports",
            params={"page[number]": number, "page[size]": 5},
            headers=auth(shared_keys.plain),
        ).json()
        return [item["id"] for item in body["data"]]

    first, second = ids(1), ids(2)
    assert len(set(first + second)) == 10


def test_list_ports__links_keep_filters(shared_client: TestClient, shared_keys: Keys) -> None:
    body = shared_client.get(
        "/v2/ports",
        params={"filter[country_code]": "NL", "page[size]": 2},
        headers=auth(shared_keys.plain),
    ).json()
    for name in ("self", "first", "next", "last"):
        assert parse_qs(urlsplit(body["links"][name]).query)["filter[country_code]"] == ["NL"]


def test_list_ports__page_beyond_last_is_empty(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    total = shared_client.get("/v2/ports", headers=auth(shared_keys.plain)).json()["meta"]["total"]
    last = math.ceil(total / 100)
    response = shared_client.get(
        "/v2/ports",
        params={"page[number]": last + 5, "page[size]": 100},
        headers=auth(shared_keys.plain),
    )
    assert response.status_code == 200
    body = response.json()
    assert body["data"] == []
    assert body["meta"]["total"] == total
    assert page_of(body["links"]["self"]) == (last + 5, 100)
    assert page_of(body["links"]["first"]) == (1, 100)
    assert "next" not in body["links"]
    assert page_of(body["links"]["last"]) == (last, 100)


def test_list_ports__last_page_is_the_remainder(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    total = shared_client.get("/v2/ports", headers=auth(shared_keys.plain)).json()["meta"]["total"]
    last = math.ceil(total / 100)
    body = shared_client.get(
        "/v2/ports",
        params={"page[number]": last, "page[size]": 100},
        headers=auth(shared_keys.plain),
    ).json()
    assert len(body["data"]) == total - (last - 1) * 100
    assert "next" not in body["links"]


def test_list_shipping_lines__links_and_total(shared_client: TestClient, shared_keys: Keys) -> None:
    body = shared_client.get(
        "/v2/shipping_lines", params={"page[size]": 10}, headers=auth(shared_keys.plain)
    ).json()
    total = body["meta"]["total"]
    assert total >= 30
    assert len(body["data"]) == 10
    assert "prev" not in body["links"]
    assert page_of(body["links"]["next"]) == (2, 10)
    assert page_of(body["links"]["last"]) == (math.ceil(total / 10), 10)
    assert body["links"]["self"].startswith("http://testserver/v2/shipping_lines?")


def test_list_shipping_lines__default_page_size_30(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    body = shared_client.get("/v2/shipping_lines", headers=auth(shared_keys.plain)).json()
    assert len(body["data"]) == 30
    assert page_of(body["links"]["self"]) == (1, 30)


def test_list_shipping_lines__page_beyond_last_is_empty(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    body = shared_client.get(
        "/v2/shipping_lines", params={"page[number]": 50}, headers=auth(shared_keys.plain)
    ).json()
    total = body["meta"]["total"]
    assert body["data"] == []
    assert "next" not in body["links"]
    assert page_of(body["links"]["last"]) == (math.ceil(total / 30), 30)


def test_list_empty__single_page_links(shared_client: TestClient, shared_keys: Keys) -> None:
    body = shared_client.get("/v2/vessels", headers=auth(shared_keys.plain)).json()
    assert body["data"] == []
    assert body["meta"] == {"total": 0}
    assert page_of(body["links"]["last"]) == (1, 30)
    assert "prev" not in body["links"] and "next" not in body["links"]


def test_page_size__max_100_200(shared_client: TestClient, shared_keys: Keys) -> None:
    body = shared_client.get(
        "/v2/ports", params={"page[size]": 100}, headers=auth(shared_keys.plain)
    ).json()
    assert len(body["data"]) == 100


def test_page_size__one_200(shared_client: TestClient, shared_keys: Keys) -> None:
    body = shared_client.get(
        "/v2/ports", params={"page[size]": 1}, headers=auth(shared_keys.plain)
    ).json()
    assert len(body["data"]) == 1


@pytest.mark.parametrize("url", LISTS)
def test_page_size__zero_400(shared_client: TestClient, shared_keys: Keys, url: str) -> None:
    response = shared_client.get(url, params={"page[size]": "0"}, headers=auth(shared_keys.plain))
    assert_error(response, 400, parameter="page[size]", code="invalid_parameter")


@pytest.mark.parametrize("url", LISTS)
def test_page_size__101_400(shared_client: TestClient, shared_keys: Keys, url: str) -> None:
    response = shared_client.get(url, params={"page[size]": "101"}, headers=auth(shared_keys.plain))
    assert_error(response, 400, parameter="page[size]", code="invalid_parameter")


def test_page_size__not_a_number_400(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[size]": "x"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[size]")


def test_page_size__negative_400(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[size]": "-1"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[size]")


def test_page_size__decimal_400(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[size]": "2.5"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[size]")


@pytest.mark.parametrize("url", LISTS)
def test_page_number__zero_400(shared_client: TestClient, shared_keys: Keys, url: str) -> None:
    response = shared_client.get(url, params={"page[number]": "0"}, headers=auth(shared_keys.plain))
    assert_error(response, 400, parameter="page[number]", code="invalid_parameter")


def test_page_number__not_a_number_400(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[number]": "two"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[number]")


def test_page_number__blank_400(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[number]": ""}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[number]")


def test_page_number__past_the_limit_400(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[number]": 10**20}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[number]", code="invalid_parameter")


def test_page_number__beyond_last_page_is_empty(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[number]": 1_000_000}, headers=auth(shared_keys.plain)
    )
    assert response.status_code == 200
    assert response.json()["data"] == []


@pytest.mark.parametrize("url", ["/v2/terminals", "/v2/shipping_lines", "/v2/vessels"])
def test_page_number__huge_on_database_list_400(
    shared_client: TestClient, shared_keys: Keys, url: str
) -> None:
    response = shared_client.get(
        url, params={"page[number]": 10**20}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[number]", code="invalid_parameter")


def test_page_size__underscore_digits_400(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[size]": "1_0"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[size]")


def test_page_size__not_a_number_has_code(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"page[size]": "x"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="page[size]", code="invalid_parameter")
