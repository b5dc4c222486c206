"""The one port lookup: by UN/LOCODE or id, or by name; unknown ports are the service's error."""

from __future__ import annotations

import pytest

from sealane import get_port
from sealane.service.core.errors import CannotRoute
from sealane.service.reference.ports import find_port, known_port, port_by_key

ROTTERDAM = get_port("NLRTM")


@pytest.mark.parametrize("key", ["NLRTM", "nlrtm", " NLRTM ", ROTTERDAM.id, ROTTERDAM.id.upper()])
def test_port_by_key__locode_or_id(key: str) -> None:
    assert port_by_key(key) == ROTTERDAM
    assert known_port(key) == ROTTERDAM


def test_port_by_key__unknown_is_the_services_error_with_the_engines_words() -> None:
    with pytest.raises(CannotRoute) as raised:
        port_by_key("XXXXX", field="port_id")
    error = raised.value
    assert (error.code, error.field) == ("unknown_port", "port_id")
    assert error.detail == "unknown port 'XXXXX': not a known UN/LOCODE or port id"


@pytest.mark.parametrize("key", [None, "", "XXXXX", "Rotterdam"])
def test_known_port__none_for_blank_or_unknown(key: str | None) -> None:
    assert known_port(key) is None


@pytest.mark.parametrize("text", ["NLRTM", ROTTERDAM.id, "Rotterdam", "rotterdam", " ROTTERDAM "])
def test_find_port__code_id_or_name(text: str) -> None:
    assert find_port(text) == ROTTERDAM


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Atlantis", "no port has that name"),
        ("Rotter", "no port has that name"),  # a prefix is not a name
        ("Kingston", "ports have that name"),
    ],
    ids=["no such name", "prefix only", "several ports"],
)
def test_find_port__names_nothing_or_several(text: str, reason: str) -> None:
    with pytest.raises(CannotRoute) as raised:
        find_port(text, field="port")
    assert reason in raised.value.detail
    assert (raised.value.code, raised.value.field) == ("unknown_port", "port")
