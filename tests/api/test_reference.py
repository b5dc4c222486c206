"""Reference resources: ports, terminals and shipping lines (read-only, one shared app)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import sealane
from tests.toolkit import Keys, auth

from .jsonapi_asserts import JSONAPI, assert_error

Client = TestClient


def get(client: TestClient, keys: Keys, url: str, **params: Any) -> Any:
    response = client.get(url, params=params, headers=auth(keys.plain))
    assert response.status_code == 200, response.text[:500]
    assert response.headers["content-type"] == JSONAPI
    return response.json()


def all_pages(client: TestClient, keys: Keys, url: str, **params: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    number = 1
    while True:
        body = get(client, keys, url, **params, **{"page[number]": number, "page[size]": 100})
        found += body["data"]
        if "next" not in body["links"]:
            return found
        number += 1


# ports


def test_get_port__by_locode(shared_client: Client, shared_keys: Keys) -> None:
    body = get(shared_client, shared_keys, "/v2/ports/NLRTM")
    port = body["data"]
    assert port["type"] == "port"
    assert port["id"] == sealane.get_port("NLRTM").id
    assert port["attributes"]["code"] == "NLRTM"
    assert port["attributes"]["name"] == "Rotterdam"
    assert port["attributes"]["country_code"] == "NL"
    assert port["attributes"]["latitude"] == pytest.approx(51.904383)
    assert port["attributes"]["longitude"] == pytest.approx(4.442447)
    assert body["links"]["self"] == f"http://testserver/v2/ports/{port['id']}"


def test_get_port__by_id(shared_client: Client, shared_keys: Keys) -> None:
    port_id = sealane.get_port("NLRTM").id
    body = get(shared_client, shared_keys, f"/v2/ports/{port_id}")
    assert body["data"]["attributes"]["code"] == "NLRTM"


def test_get_port__lowercase_locode(shared_client: Client, shared_keys: Keys) -> None:
    body = get(shared_client, shared_keys, "/v2/ports/nlrtm")
    assert body["data"]["attributes"]["code"] == "NLRTM"


def test_get_port__unknown_locode_404(shared_client: Client, shared_keys: Keys) -> None:
    response = shared_client.get("/v2/ports/ZZZZZ", headers=auth(shared_keys.plain))
    assert_error(response, 404, code="not_found")


def test_get_port__unknown_uuid_404(shared_client: Client, shared_keys: Keys) -> None:
    url = "/v2/ports/00000000-0000-0000-0000-000000000000"
    assert_error(shared_client.get(url, headers=auth(shared_keys.plain)), 404, code="not_found")


def test_list_ports__country_code_nl(shared_client: Client, shared_keys: Keys) -> None:
    ports = all_pages(shared_client, shared_keys, "/v2/ports", **{"filter[country_code]": "NL"})
    codes = {port["attributes"]["code"] for port in ports}
    assert "NLRTM" in codes
    assert {port["attributes"]["country_code"] for port in ports} == {"NL"}


def test_list_ports__country_code_lowercase(shared_client: Client, shared_keys: Keys) -> None:
    upper = get(shared_client, shared_keys, "/v2/ports", **{"filter[country_code]": "NL"})
    lower = get(shared_client, shared_keys, "/v2/ports", **{"filter[country_code]": "nl"})
    assert lower["meta"]["total"] == upper["meta"]["total"] > 0


def test_list_ports__country_code_of_three_letters_400(
    shared_client: Client, shared_keys: Keys
) -> None:
    response = shared_client.get(
        "/v2/ports", params={"filter[country_code]": "NLD"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="filter[country_code]")


def test_list_ports__search_by_name(shared_client: Client, shared_keys: Keys) -> None:
    body = get(shared_client, shared_keys, "/v2/ports", **{"filter[search]": "rotterdam"})
    assert body["data"][0]["attributes"]["code"] == "NLRTM"
    assert body["meta"]["total"] == len(body["data"])


def test_list_ports__search_without_match_is_empty(
    shared_client: Client, shared_keys: Keys
) -> None:
    body = get(shared_client, shared_keys, "/v2/ports", **{"filter[search]": "qqqqzzzz"})
    assert body["data"] == []
    assert body["meta"]["total"] == 0


def test_list_ports__search_longer_than_200_400(shared_client: Client, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/ports", params={"filter[search]": "a" * 201}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="filter[search]")


# terminals


def test_list_terminals__filter_port_with_include(shared_client: Client, shared_keys: Keys) -> None:
    body = get(
        shared_client, shared_keys, "/v2/terminals", **{"filter[port]": "USLAX", "include": "port"}
    )
    uslax = sealane.get_port("USLAX").id
    assert body["data"]
    assert body["meta"]["total"] == len(body["data"])
    for terminal in body["data"]:
        assert terminal["type"] == "terminal"
        assert terminal["attributes"]["port_code"] == "USLAX"
        assert terminal["relationships"]["port"]["data"] == {"type": "port", "id": uslax}
    assert [(p["type"], p["id"]) for p in body["included"]] == [("port", uslax)]
    assert body["included"][0]["attributes"]["code"] == "USLAX"


def test_list_terminals__filter_port_by_id(shared_client: Client, shared_keys: Keys) -> None:
    by_code = get(shared_client, shared_keys, "/v2/terminals", **{"filter[port]": "USLAX"})
    by_id = get(
        shared_client,
        shared_keys,
        "/v2/terminals",
        **{"filter[port]": sealane.get_port("USLAX").id},
    )
    assert [t["id"] for t in by_id["data"]] == [t["id"] for t in by_code["data"]]


def test_list_terminals__without_include_has_no_included(
    shared_client: Client, shared_keys: Keys
) -> None:
    body = get(shared_client, shared_keys, "/v2/terminals", **{"filter[port]": "USLAX"})
    assert "included" not in body


def test_list_terminals__unknown_port_filter_is_empty(
    shared_client: Client, shared_keys: Keys
) -> None:
    body = get(shared_client, shared_keys, "/v2/terminals", **{"filter[port]": "ZZZZZ"})
    assert body["data"] == []
    assert body["meta"]["total"] == 0


def test_list_terminals__at_least_30_ports_all_resolvable(
    shared_client: Client, shared_keys: Keys
) -> None:
    terminals = all_pages(shared_client, shared_keys, "/v2/terminals", include="port")
    port_ids = {t["relationships"]["port"]["data"]["id"] for t in terminals}
    assert len(port_ids) >= 30
    for terminal in terminals:
        port = sealane.get_port(terminal["attributes"]["port_code"])
        assert terminal["relationships"]["port"]["data"]["id"] == port.id


def test_list_terminals__unknown_include_400(shared_client: Client, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/terminals", params={"include": "carrier"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="include", code="unknown_include")


def test_list_terminals__dotted_unknown_include_400(
    shared_client: Client, shared_keys: Keys
) -> None:
    response = shared_client.get(
        "/v2/terminals", params={"include": "port.terminals"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="include", code="unknown_include")


def test_list_terminals__one_unknown_among_known_includes_400(
    shared_client: Client, shared_keys: Keys
) -> None:
    response = shared_client.get(
        "/v2/terminals", params={"include": "port,operator"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="include", code="unknown_include")


@pytest.mark.parametrize("include", [",", "port,", ",port", "port,,port", " , "])
def test_list_terminals__empty_include_path_400(
    shared_client: Client, shared_keys: Keys, include: str
) -> None:
    response = shared_client.get(
        "/v2/terminals", params={"include": include}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="include", code="unknown_include")


@pytest.mark.parametrize("include", ["", " "])
def test_list_terminals__blank_include_includes_nothing(
    shared_client: Client, shared_keys: Keys, include: str
) -> None:
    response = shared_client.get(
        "/v2/terminals", params={"include": include}, headers=auth(shared_keys.plain)
    )
    assert response.status_code == 200, response.text
    assert "included" not in response.json()


def test_get_terminal__by_firms_code(shared_client: Client, shared_keys: Keys) -> None:
    body = get(shared_client, shared_keys, "/v2/terminals/W185")
    terminal = body["data"]
    assert terminal["attributes"]["firms_code"] == "W185"
    assert body["links"]["self"] == f"http://testserver/v2/terminals/{terminal['id']}"
    assert "included" not in body


def test_get_terminal__by_lowercase_firms_code(shared_client: Client, shared_keys: Keys) -> None:
    body = get(shared_client, shared_keys, "/v2/terminals/w185")
    assert body["data"]["attributes"]["firms_code"] == "W185"


def test_get_terminal__by_id_with_include(shared_client: Client, shared_keys: Keys) -> None:
    terminal_id = get(shared_client, shared_keys, "/v2/terminals/W185")["data"]["id"]
    body = get(shared_client, shared_keys, f"/v2/terminals/{terminal_id}", include="port")
    port = body["included"][0]
    assert body["data"]["id"] == terminal_id
    assert port["type"] == "port"
    assert port["id"] == body["data"]["relationships"]["port"]["data"]["id"]
    assert port["attributes"]["code"] == body["data"]["attributes"]["port_code"]


def test_get_terminal__unknown_include_400(shared_client: Client, shared_keys: Keys) -> None:
    response = shared_client.get(
        "/v2/terminals/W185", params={"include": "vessels"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="include", code="unknown_include")


def test_get_terminal__unknown_404(shared_client: Client, shared_keys: Keys) -> None:
    response = shared_client.get("/v2/terminals/ZZ99", headers=auth(shared_keys.plain))
    assert_error(response, 404, code="not_found")


# shipping lines


def test_list_shipping_lines__at_least_30(shared_client: Client, shared_keys: Keys) -> None:
    lines = all_pages(shared_client, shared_keys, "/v2/shipping_lines")
    scacs = {line["attributes"]["scac"] for line in lines}
    assert len(scacs) == len(lines) >= 30
    assert {line["type"] for line in lines} == {"shipping_line"}


def test_list_shipping_lines__search_maersk(shared_client: Client, shared_keys: Keys) -> None:
    body = get(shared_client, shared_keys, "/v2/shipping_lines", **{"filter[search]": "maersk"})
    assert "MAEU" in {line["attributes"]["scac"] for line in body["data"]}
    assert body["meta"]["total"] == len(body["data"])


def test_list_shipping_lines__search_by_scac_uppercase(
    shared_client: Client, shared_keys: Keys
) -> None:
    body = get(shared_client, shared_keys, "/v2/shipping_lines", **{"filter[search]": "MAEU"})
    assert "MAEU" in {line["attributes"]["scac"] for line in body["data"]}


def test_list_shipping_lines__search_without_match_is_empty(
    shared_client: Client, shared_keys: Keys
) -> None:
    body = get(shared_client, shared_keys, "/v2/shipping_lines", **{"filter[search]": "qqzzqq"})
    assert body["data"] == []
    assert body["meta"]["total"] == 0


def test_get_shipping_line__by_lowercase_scac(shared_client: Client, shared_keys: Keys) -> None:
    body = get(shared_client, shared_keys, "/v2/shipping_lines/maeu")
    line = body["data"]
    assert line["type"] == "shipping_line"
    assert line["attributes"]["scac"] == "MAEU"
    assert isinstance(line["attributes"]["bill_of_lading_prefixes"], list)
    assert body["links"]["self"] == f"http://testserver/v2/shipping_lines/{line['id']}"


def test_get_shipping_line__by_id(shared_client: Client, shared_keys: Keys) -> None:
    line_id = get(shared_client, shared_keys, "/v2/shipping_lines/MAEU")["data"]["id"]
    body = get(shared_client, shared_keys, f"/v2/shipping_lines/{line_id}")
    assert body["data"]["attributes"]["scac"] == "MAEU"


def test_get_shipping_line__unknown_404(shared_client: Client, shared_keys: Keys) -> None:
    response = shared_client.get("/v2/shipping_lines/ZZZZ", headers=auth(shared_keys.plain))
    assert_error(response, 404, code="not_found")


# known problems


def test_list_shipping_lines__search_percent_is_literal(
    shared_client: Client, shared_keys: Keys
) -> None:
    body = get(shared_client, shared_keys, "/v2/shipping_lines", **{"filter[search]": "%"})
    assert body["meta"]["total"] == 0


@pytest.mark.parametrize(
    "url",
    [
        "/v2/ports",
        "/v2/ports/NLRTM",
        "/v2/shipping_lines",
        "/v2/shipping_lines/MAEU",
        "/v2/vessels",
    ],
)
def test_include__on_endpoint_without_relationships_400(
    shared_client: Client, shared_keys: Keys, url: str
) -> None:
    response = shared_client.get(url, params={"include": "port"}, headers=auth(shared_keys.plain))
    assert_error(response, 400, parameter="include")
