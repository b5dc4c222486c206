"""The port registry: size, unique codes, lookups, stable ids, time zones, search."""

from __future__ import annotations

import re
import uuid
import zoneinfo

import pytest

import sealane
from sealane.routing import registry
from sealane.routing.ports import PORT_NAMESPACE, PortRegistry

#: port_id("NLRTM") as first shipped; ids are public, so this must never change.
NLRTM_ID = "1128ee9c-c8ef-5afb-805c-5ca442df7ad1"


@pytest.fixture(scope="module")
def ports() -> PortRegistry:
    return registry()


def test_registry__size(ports: PortRegistry) -> None:
    assert len(ports) >= 3_900
    assert len(ports) == len(ports.ports)


def test_registry__locodes_unique(ports: PortRegistry) -> None:
    locodes = [p.locode for p in ports.ports]
    assert len(set(locodes)) == len(locodes)


def test_registry__country_is_locode_prefix(ports: PortRegistry) -> None:
    for port in ports.ports:
        assert port.country == port.locode[:2], port


def test_registry__locodes_well_formed(ports: PortRegistry) -> None:
    malformed = [p for p in ports.ports if not re.fullmatch(r"[A-Z]{2}[A-Z0-9]{3}", p.locode)]
    assert malformed == []


def test_registry__ids_are_port_ids(ports: PortRegistry) -> None:
    for port in ports.ports:
        assert port.id == sealane.port_id(port.locode), port


def test_registry__positions_in_range(ports: PortRegistry) -> None:
    for port in ports.ports:
        assert -180.0 <= port.lon < 180.0, port
        assert -90.0 <= port.lat <= 90.0, port
        assert port.coordinates == (port.lon, port.lat)


def test_get_port__every_listed_port_found_by_locode_and_id(ports: PortRegistry) -> None:
    for port in ports.ports:
        assert ports.get(port.locode) == port
        assert ports.get(port.id) == port


def test_port_id__is_uuid5_of_locode() -> None:
    value = uuid.UUID(sealane.port_id("NLRTM"))
    assert value.version == 5
    assert value == uuid.uuid5(PORT_NAMESPACE, "NLRTM")


def test_port_id__stable_regression_pin() -> None:
    assert sealane.port_id("NLRTM") == NLRTM_ID


def test_port_id__case_and_space_insensitive() -> None:
    assert sealane.port_id(" nlrtm ") == NLRTM_ID


@pytest.mark.parametrize("key", ["NLRTM", "nlrtm", "NlRtM", " NLRTM ", NLRTM_ID, NLRTM_ID.upper()])
def test_get_port__lookup_forms(key: str) -> None:
    port = sealane.get_port(key)
    assert port.locode == "NLRTM"
    assert port.name == "Rotterdam"
    assert port.id == NLRTM_ID


def test_time_zones__all_valid_iana(ports: PortRegistry) -> None:
    for zone in {p.time_zone for p in ports.ports}:
        zoneinfo.ZoneInfo(zone)  # raises if not a known IANA name


def test_time_zones__mostly_geographic(ports: PortRegistry) -> None:
    generic = [p for p in ports.ports if p.time_zone.startswith("Etc/")]
    assert len(generic) <= 0.01 * len(ports)


@pytest.mark.parametrize(
    ("locode", "zone"),
    [
        ("NLRTM", "Europe/Amsterdam"),
        ("CNSHA", "Asia/Shanghai"),
        ("USLGB", "America/Los_Angeles"),
        ("SGSIN", "Asia/Singapore"),
    ],
)
def test_time_zones__known_ports(locode: str, zone: str) -> None:
    assert sealane.get_port(locode).time_zone == zone


def test_find__prefix_returns_rotterdam_first(ports: PortRegistry) -> None:
    assert ports.find("rotter")[0].locode == "NLRTM"


def test_find__locode_is_exact_match(ports: PortRegistry) -> None:
    assert ports.find("sgsin")[0].locode == "SGSIN"


def test_find__respects_limit(ports: PortRegistry) -> None:
    assert len(ports.find("a", limit=5)) == 5


def test_find__empty_query_finds_nothing(ports: PortRegistry) -> None:
    assert ports.find("   ") == []


def test_nearest__dutch_port(ports: PortRegistry) -> None:
    assert ports.nearest(4.4, 51.9).country == "NL"


def test_nearest__port_itself(ports: PortRegistry) -> None:
    singapore = sealane.get_port("SGSIN")
    assert ports.nearest(singapore.lon, singapore.lat) == singapore


def test_get_port__unknown_raises() -> None:
    with pytest.raises(sealane.UnknownPortError, match="ZZZZZ") as error:
        sealane.get_port("ZZZZZ")
    assert error.value.code == "unknown_port"


def test_get_port__unknown_uuid_raises() -> None:
    with pytest.raises(sealane.UnknownPortError):
        sealane.get_port(str(uuid.uuid4()))


def test_get_port__non_string_raises() -> None:
    with pytest.raises(sealane.UnknownPortError, match="42"):
        sealane.get_port(42)  # type: ignore[arg-type]
