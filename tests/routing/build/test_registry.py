"""The registry step (issue 38, item 1): the code list read from its per-country files, the
official seaports the network lacks positioned by the World Port Index before the list's own
coordinates, the same port under two codes found by name and distance (an alias, a rename, a
duplicate), inland rows whose code is another place's seaport, carriers' SMDG codes, and the
join from a berth to the lanes checked over water on the shipped network."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from sealane.routing.build.berths import Alias, PortSite, renamed
from sealane.routing.build.codelist import (
    CodeEntry,
    read_code_list,
    read_terminal_codes,
    read_world_port_index,
)
from sealane.routing.build.registry import JoinCheck, candidates, misplaced, rename_rows, stale
from sealane.routing.build.sameports import carriers_codes, duplicates, replaced, same_ports
from sealane.routing.graph import default_graph
from sealane.routing.landmask import default_landmask

CN_YAML = """-
    ch: ''
    locode: 'CN SGH'
    name: Shanghai
    namewodiacritics: Shanghai
    subdiv: SH
    function: 12345---
    status: AS
    date: '1401'
    iata: ''
    coordinates: '3114N 12129E'
    remarks: ''
-
    ch: ''
    locode: 'CN SHA'
    name: 'Shanghai Hongqiao International Apt'
    function: '---4----'
    status: AS
    coordinates: ''
-
    ch: ''
    locode: 'CN XXX'
    name: 'Gone ''Pt'' \x9c'
    function: 1-------
    status: XX
    coordinates: ''
"""


def entry(code: str, name: str, position: tuple[float, float] | None, function: str = "1-------"):
    return CodeEntry(code, name, "RL", function, position)


def site(code: str, name: str, lon: float, lat: float, status: str = "water") -> PortSite:
    return PortSite(code, name, "Somewhere", lon, lat, status)


def test_read_code_list__entries_with_codes_names_functions_and_positions(tmp_path: Path) -> None:
    (tmp_path / "cn.yaml").write_text(CN_YAML, encoding="utf-8")
    entries = read_code_list(tmp_path)
    assert sorted(entries) == ["CNSGH", "CNSHA", "CNXXX"]
    shanghai = entries["CNSGH"]
    assert (shanghai.name, shanghai.function, shanghai.status) == ("Shanghai", "12345---", "AS")
    assert shanghai.position == pytest.approx((121.0 + 29 / 60, 31.0 + 14 / 60))
    assert entries["CNSHA"].position is None
    assert entries["CNXXX"].name.startswith("Gone 'Pt'")  # quotes undone, odd bytes kept


def test_candidates__index_position_first_then_smdg_s_terminals_then_the_list_s() -> None:
    code_list = {
        "AAONE": entry("AAONE", "One", (1.0, 1.0)),
        "AATWO": entry("AATWO", "Two", (2.0, 2.0)),
        "AATRE": entry("AATRE", "Three", None),
        "AAAPT": entry("AAAPT", "Airport", (3.0, 3.0), "---4----"),
        "AAKNO": entry("AAKNO", "Known", (4.0, 4.0)),
        "AAALI": entry("AAALI", "Aliased", (5.0, 5.0)),
    }
    index = {"AATWO": ("TWO HARBOUR", 2.1, 2.0), "AAKNO": ("KNOWN", 4.0, 4.2)}
    terminals = {"AATWO": (2.2, 2.0), "AAONE": (1.1, 1.0), "AAAPT": (3.1, 3.0)}
    known, aliases = {"AAKNO": (4.0, 4.0)}, {"AAALI"}
    sites, counts = candidates(code_list, index, terminals, known, aliases, {"AA": "Aland"})
    assert [(s.locode, s.lon, s.lat, s.source) for s in sites] == [
        ("AAAPT", 3.1, 3.0, "smdg"),  # not a seaport by the list, but container terminals
        ("AAONE", 1.1, 1.0, "smdg"),  # the terminals before the list's town
        ("AATWO", 2.1, 2.0, "wpi"),  # the index before the terminals
    ]
    assert sites[1].country_name == "Aland"
    assert (counts.seaports, counts.in_network, counts.without_position) == (6, 1, 1)
    assert (counts.from_index, counts.from_terminals, counts.from_code_list) == (1, 2, 0)
    assert (counts.checked, counts.index_moved) == (1, 1)  # AAKNO: 22 km from the index


def test_same_ports__official_code_of_a_network_port_is_an_alias_and_a_bare_code_is_renamed() -> (
    None
):
    network = {
        "CNSHA": site("CNSHA", "Shanghai", 121.7, 31.35),
        "AUPTH": site("AUPTH", "Perth", 115.75, -32.05),
        "CZPRA": site("CZPRA", "Prague", 14.42, 50.09, "inland"),
    }
    code_list = {"CNSHA": entry("CNSHA", "Shanghai Hongqiao International Apt", None, "---4")}
    sites = [
        site("CNSGH", "Shanghai", 121.5, 31.22),  # the official seaport code, 25 km off
        site("AUPER", "Perth", 115.78, -32.02),  # searoute's AUPTH is not in the list
        site("CZXUY", "Prague-Vinohrady", 14.6, 50.1),  # 13 km: holds the name, not the same
    ]
    found = same_ports(sites, network, code_list)
    assert [(a.alias, a.locode, a.kind) for a in found] == [
        ("CNSGH", "CNSHA", "same port"),
        ("AUPTH", "AUPER", "renamed"),
    ]
    assert found[1].name == "Perth"
    moved = renamed(list(network.values()), found)
    assert [s.locode for s in moved] == ["AUPER", "CNSHA", "CZPRA"]


def test_duplicates_and_replaced__searoute_codes_that_leave_the_list() -> None:
    network = {
        "MGTMM": site("MGTMM", "Toamasina", 49.42, -18.15),
        "MGXXX": site("MGXXX", "Toamasina Harbour", 49.41, -18.16),  # no such official code
        "CNQIN": site("CNQIN", "Qingxi", 114.09, 22.51, "inland"),  # the list's CNQIN: Qingdao
        "CNWUH": site("CNWUH", "Wuhan", 114.3, 30.59, "inland"),
    }
    code_list = {
        "MGTMM": entry("MGTMM", "Toamasina", (49.4, -18.15)),
        "CNQIN": entry("CNQIN", "Qingdao", (120.32, 36.07)),
        "CNWUH": entry("CNWUH", "Wuhan", (114.28, 30.58)),
    }
    assert [(a.alias, a.locode, a.kind) for a in duplicates(network, code_list)] == [
        ("MGXXX", "MGTMM", "duplicate")
    ]
    assert [(a.alias, a.kind) for a in replaced(network, code_list, {})] == [("CNQIN", "replaced")]


def test_carriers_codes__an_unknown_smdg_code_names_the_nearest_port_ships_reach(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tcl.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["UNLOCODE", "Alternative UNLOCODE", "Terminal Code", "Latitude", "Longitude"]
        )
        writer.writerow(["CNQDG", "", "QQCT", "36.0", "120.2"])
        writer.writerow(["CNQDG", "", "QQCT2", "36.02", "120.22"])
        writer.writerow(["CNTAO", "CNQDX", "T", "36.0", "120.3"])
        writer.writerow(["CNFAR", "", "F", "20.0", "110.0"])
    terminals = read_terminal_codes(path)
    assert terminals["CNQDG"] == pytest.approx((120.21, 36.01))
    ports = [
        site("CNTAO", "Qingdao", 120.38, 36.05),
        site("CNHUA", "Huangdao", 120.22, 36.0, "inland"),
    ]
    found = carriers_codes(terminals, ports, {"CNTAO"})
    assert [(a.alias, a.locode, a.kind) for a in found] == [
        ("CNQDG", "CNTAO", "smdg"),
        ("CNQDX", "CNTAO", "smdg"),
    ]


def test_read_world_port_index__codes_without_their_space(tmp_path: Path) -> None:
    path = tmp_path / "wpi.csv"
    path.write_text(
        "\ufeffWorld Port Index Number,Main Port Name,UN/LOCODE,Latitude,Longitude\n"
        "1,Rotterdam,NL RTM,51.9,4.1\n2,Nowhere, ,1.0,1.0\n",
        encoding="utf-8",
    )
    assert read_world_port_index(path) == {"NLRTM": ("Rotterdam", 4.1, 51.9)}


def test_rename_rows__renamed_code_id_and_name_duplicates_dropped_line_ends_kept(
    tmp_path: Path,
) -> None:
    source, target = tmp_path / "in.csv", tmp_path / "out.csv"
    source.write_bytes(
        b"locode,id,name,lon\r\nAUPTH,old,Perth,1\r\nMGXXX,x,Dup,2\r\nNLRTM,r,Rotterdam,3\r\n"
    )
    aliases = [
        Alias("AUPTH", "AUPER", "renamed", 0.0, "Perth City"),
        Alias("MGXXX", "MGTMM", "duplicate", 0.0),
    ]
    rename_rows(source, target, aliases)
    lines = target.read_bytes().split(b"\r\n")
    assert lines[1].startswith(b"AUPER,") and lines[1].endswith(b",Perth City,1")
    assert lines[2].startswith(b"NLRTM,") and b"MGXXX" not in target.read_bytes()


@pytest.fixture(scope="module")
def check() -> JoinCheck:
    return JoinCheck(default_graph(), default_landmask())


@pytest.mark.parametrize(
    ("where", "lon", "lat", "joined"),
    [
        ("the North Sea off Rotterdam", 3.9, 52.0, True),
        ("Chicago on Lake Michigan, a continent from the lanes", -87.6, 41.88, False),
        ("Geneva on its lake", 6.15, 46.21, False),
        ("up the Elbe at Hamburg, a corridor", 9.95, 53.54, True),
    ],
)
def test_join_check__a_berth_joins_the_lanes_only_over_water(
    check: JoinCheck, where: str, lon: float, lat: float, joined: bool
) -> None:
    assert check.joined(lon, lat) is joined, where


def test_misplaced__moved_where_the_index_and_the_list_agree_and_not_otherwise() -> None:
    network = {
        "SEVBY": site("SEVBY", "Visby", 11.59, 57.63),  # 400 km off
        "RULED": site("RULED", "Saint Petersburg", 30.21, 59.96),
        "GBKLK": site("GBKLK", "Kilkeel", -5.98, 54.05),  # in place
        "AAFIX": site("AAFIX", "Fixed", 0.0, 0.0),
    }
    code_list = {
        "SEVBY": entry("SEVBY", "Visby", (18.3, 57.65)),
        "RULED": entry("RULED", "Saint Petersburg", (30.2, 59.9)),
        "GBKLK": entry("GBKLK", "Kilkeel", (-5.98, 54.05)),
        "AAFIX": entry("AAFIX", "Fixed", (1.0, 1.0)),
    }
    index = {
        "SEVBY": ("Visby", 18.283333, 57.633333),
        "RULED": ("St Petersburg", -82.63, 27.77),  # the index's own mistake
        "GBKLK": ("Kilkeel", -5.983333, 54.05),
        "AAFIX": ("Fixed", 1.0, 1.0),
    }
    rows = misplaced(network, code_list, index, {"AAFIX"})
    assert [row[:4] for row in rows] == [["SEVBY", "", "18.283333", "57.633333"]]
    assert "World Port Index" in rows[0][4]
    fixes = {"SEVBY": (18.283333, 57.633333), "GBKLK": (-5.98, 54.05)}
    assert stale(network, fixes) == {"SEVBY"}
