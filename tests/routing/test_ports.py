"""The port registry: size, unique codes, lookups, aliases, stable ids, time zones, search, the
busiest container ports by their official codes, and the ports no sea-going ship reaches."""

from __future__ import annotations

import csv
import re
import uuid
import zoneinfo
from pathlib import Path

import pytest

import sealane
from sealane.routing import registry
from sealane.routing.data import data_dir
from sealane.routing.geodesy import distance_m
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


#: The busiest container ports the issue found unknown by their official UN/LOCODEs.
MISSING_BEFORE = ("MAPTM", "CNTXG", "AEKHL", "LKHBA", "SADMM", "USBOS", "USPDX")
TOP100 = Path(__file__).parent / "data" / "top100_container_ports.csv"


def busiest() -> list[str]:
    """The 100 busiest container ports' official codes, then the issue's missing ones."""
    with TOP100.open(encoding="utf-8") as handle:
        return [row["locode"] for row in csv.DictReader(handle)] + list(MISSING_BEFORE)


@pytest.mark.parametrize("locode", busiest())
def test_busiest_container_ports__official_code_resolves_and_routes_at_7_m(locode: str) -> None:
    port = sealane.get_port(locode)
    assert port.locode == locode  # the official port itself, not an alias of another
    assert not port.inland, port
    other = "NLRTM" if locode != "NLRTM" else "SGSIN"
    assert sealane.route(other, locode, draft_m=7.0).distance_m > 0


#: Alias -> official port (golden): searoute's codes for ports the official list codes otherwise.
ALIASES = [("MATNG", "MAPTM"), ("SADMN", "SADMM"), ("ESSEV", "ESSVQ"), ("CNXIP", "CNTXG")]


@pytest.mark.parametrize(("alias", "official"), ALIASES)
def test_get_port__alias_and_its_old_id_resolve_to_the_official_port(
    ports: PortRegistry, alias: str, official: str
) -> None:
    assert alias not in {p.locode for p in ports.ports}
    for key in (alias, alias.lower(), sealane.port_id(alias)):
        found = ports.get(key)
        assert found.locode == official
        assert found.id == sealane.port_id(official)


def test_aliases__the_shipped_table_is_the_golden_one() -> None:
    with (data_dir() / "port_aliases.csv").open(encoding="utf-8") as handle:
        rows = {(row["alias"], row["locode"]): row["source"] for row in csv.DictReader(handle)}
    assert sorted(rows) == sorted(ALIASES)
    assert all(rows.values())


def test_port_registry__alias_of_an_unlisted_port_or_of_a_listed_code_is_ignored() -> None:
    lines = [f"NLRTM,{sealane.port_id('NLRTM')},Rotterdam,NL,Netherlands,4.0,51.9,Europe/Amsterdam"]
    made = PortRegistry(lines, {"NLXXX": "NLRTM", "NLRTM": "NLAMS", "NLYYY": "NLAMS"})
    assert made.get("nlxxx").locode == "NLRTM"
    assert made.get(sealane.port_id("NLXXX")).locode == "NLRTM"
    assert made.get("NLRTM").name == "Rotterdam"  # a listed code is never an alias
    for key in ("NLYYY", sealane.port_id("NLYYY")):
        with pytest.raises(sealane.UnknownPortError):
            made.get(key)


@pytest.mark.parametrize(
    ("locode", "lon", "lat"),
    [
        ("USPWM", -70.26, 43.65),  # Portland, Maine, not Portland, Oregon
        ("USPDX", -122.77, 45.63),  # Portland, Oregon, on the Columbia
        ("SEGOT", 11.84, 57.69),  # Skandiahamnen, not the city centre
        ("MAAGA", -9.64, 30.42),  # Agadir's harbour, not the town
        ("MAPTM", -5.50, 35.89),  # Tanger Med, 35 km east of Tangier
    ],
)
def test_positions__the_issue_s_wrong_ports_placed_on_their_water(
    locode: str, lon: float, lat: float
) -> None:
    port = sealane.get_port(locode)
    assert distance_m(port.lon, port.lat, lon, lat) < 5_000.0, port  # placed on water within 5 km
    assert not port.inland


def test_positions__tianjin_and_xingang_apart() -> None:
    tianjin, xingang = sealane.get_port("CNTSN"), sealane.get_port("CNTXG")
    assert distance_m(tianjin.lon, tianjin.lat, xingang.lon, xingang.lat) > 1_000.0


@pytest.mark.parametrize("locode", ["DEDUI", "CZPRA", "USCHI"])
def test_inland_ports__no_sea_going_ship_reaches_them_refused_with_the_reason(
    locode: str,
) -> None:
    assert sealane.get_port(locode).inland
    with pytest.raises(sealane.NoRouteError, match="inland"):
        sealane.route("NLRTM", locode)


#: Busy container ports' other codes (golden): the code list's own seaport code of a port that
#: carriers and searoute name by another official code, and carriers' SMDG codes.
OTHER_CODES = [
    ("CNSGH", "CNSHA"),  # the list's Shanghai seaport; CNSHA is Hongqiao airport there
    ("CNQIN", "CNTAO"),  # the list's Qingdao seaport; searoute's CNQIN was Qingxi, inland
    ("CNNBG", "CNNGB"),
    ("CNYTG", "CNYNT"),
    ("DEHTJ", "DEHAM"),
    ("USBOY", "USNYC"),
    ("CNNJG", "CNNKG"),  # SMDG's Nanjing
    ("CNDAG", "CNDLC"),  # SMDG's Dalian Dayaowan
]


@pytest.mark.parametrize(("code", "port"), OTHER_CODES)
def test_busiest_container_ports__their_other_codes_resolve_and_route_at_7_m(
    ports: PortRegistry, code: str, port: str
) -> None:
    for key in (code, code.lower(), sealane.port_id(code)):
        assert ports.get(key).locode == port
    assert sealane.route("NLRTM", code, draft_m=7.0).distance_m > 0


#: searoute's codes the code list lacks, renamed to the official code of the same port.
RENAMED = [("AUPTH", "AUPER"), ("ILTAV", "ILTLV"), ("LCPCS", "LCCAS"), ("TNRAD", "TNRDS")]


@pytest.mark.parametrize(("old", "official"), RENAMED)
def test_renamed_ports__old_code_and_old_id_resolve_to_the_official_port_at_the_same_berth(
    ports: PortRegistry, old: str, official: str
) -> None:
    port = ports.get(official)
    assert port.id == sealane.port_id(official)
    assert old not in {p.locode for p in ports.ports}
    assert ports.get(old) == port == ports.get(sealane.port_id(old))
    assert not port.inland


def test_registry__the_official_seaports_the_network_lacks_are_ports_too(
    ports: PortRegistry,
) -> None:
    with (data_dir() / "official_ports.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) >= 10_000
    assert {row["source"] for row in rows} == {"wpi", "smdg", "unlocode"}
    assert {row["approach"] for row in rows} == {"water", "moved", "inland", "unjoined"}
    assert len(ports) >= 13_800
    for row in rows[::97]:
        port = ports.get(row["locode"])
        assert (port.name, port.approach) == (row["name"], row["approach"])


def test_registry__an_official_seaport_on_water_is_routed_from_its_own_berth() -> None:
    port = sealane.get_port("AEHTL")  # Hulaylah Terminal, placed by the World Port Index
    assert not port.inland
    route = sealane.route(port, "NLRTM", draft_m=7.0)
    assert tuple(route.coordinates[0]) == port.coordinates


def test_registry__a_container_port_only_smdg_places_is_a_port_at_its_terminals() -> None:
    lekki = sealane.get_port("NGLKK")  # Lekki Deep Sea Port: in the code list, not as a seaport
    assert distance_m(lekki.lon, lekki.lat, 4.006, 6.427) < 5_000.0  # its terminal, not the town
    assert sealane.route("NLRTM", "NGLKK", draft_m=7.0).distance_m > 0
    # SMDG's Staten Island code: its terminal's straight join would cross land, so the code
    # names the port ships reach beside it.
    assert sealane.get_port("USUYU").locode == "USGUP"


@pytest.mark.parametrize(
    ("locode", "lon", "lat"),
    [
        ("SEVBY", 18.28, 57.63),  # Visby on Gotland, not the Swedish west coast
        ("CASJF", -52.70, 47.57),  # St John's, Newfoundland, not Saint John, New Brunswick
        ("GBKLK", -5.98, 54.05),  # Kilkeel, County Down
        ("RULED", 30.21, 59.96),  # kept: the index's RU LED lies in Florida, the list agrees here
    ],
)
def test_positions__the_index_and_the_list_agreeing_place_a_misplaced_port(
    locode: str, lon: float, lat: float
) -> None:
    port = sealane.get_port(locode)
    assert distance_m(port.lon, port.lat, lon, lat) < 5_000.0, port
