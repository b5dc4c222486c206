"""Tool calls with valid and invalid arguments and what each must answer, shared by the tests of
both HTTP backends and of stdio: one table, so every transport is held to the same answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import uuid4

from mcp.types import CallToolResult

import sealane
from tests.mcp.conftest import World

UNKNOWN = "5d7c1a0e-0000-4000-8000-000000000000"
Check = Callable[[dict[str, Any], World], None]


@dataclass(frozen=True)
class Case:
    """A call of ``tool`` with ``arguments`` (built from the world) by account A (or B), and
    either a check of its structured output or the error code (and argument) it must give."""

    name: str
    tool: str
    arguments: Callable[[World], dict[str, Any]]
    check: Check | None = None
    error: str | None = None
    field: str | None = None
    as_b: bool = False

    def key(self, world: World) -> str:
        """The API key the call is made with."""
        return world.key_b if self.as_b else world.key_a

    def verify(self, result: CallToolResult, world: World) -> None:
        """Assert the result is what the case expects."""
        text = result.content[0].text if result.content else ""
        assert isinstance(text, str) and text, "every answer has a text summary"
        if self.error is None:
            assert not result.is_error, text
            assert result.structured_content is not None
            if self.check is not None:
                self.check(result.structured_content, world)
            return
        assert result.is_error, f"expected {self.error}, got: {text}"
        assert result.structured_content is not None
        error = result.structured_content["error"]
        assert error["code"] == self.error, error
        if self.field is not None:
            assert error["field"] == self.field, error


def _container_default(out: dict[str, Any], world: World) -> None:
    assert out["id"] == world.container_a
    assert out["shipment"]["id"] == world.shipment_a  # included by default
    assert out["transport_events"] is None
    assert out["number"].startswith("TSTU")


def _container_events(out: dict[str, Any], _: World) -> None:
    assert out["shipment"] is None
    events = out["transport_events"]
    assert events and [e["timestamp"] for e in events] == sorted(e["timestamp"] for e in events)
    assert all(e["label"] and e["event"].startswith("container.") for e in events)


def _shipment(out: dict[str, Any], world: World) -> None:
    assert out["id"] == world.shipment_a
    assert world.container_a in [c["id"] for c in out["containers"]]
    assert out["container_ids"] == [c["id"] for c in out["containers"]]
    assert out["port_of_lading"]["locode"] and out["port_of_discharge"]["name"]


def _no_containers(out: dict[str, Any]) -> None:
    assert out["containers"] is None and out["container_ids"]


def _timeline(out: dict[str, Any], world: World) -> None:
    assert out["container_id"] == world.container_a
    assert out["total"] == len(out["events"]) > 0


def _lines(out: dict[str, Any], _: World) -> None:
    assert "TEST" in [item["scac"] for item in out["items"]]
    assert out["filters_applied"] == {"search": "test"}


def _one_per_page(out: dict[str, Any], _: World) -> None:
    paging = out["paging"]
    assert len(out["items"]) == 1 and paging["page_size"] == 1
    assert paging["total"] > 1 and paging["next_page"] == 2 and paging["links"]["next"]
    assert paging["total_pages"] == paging["total"]


def _all_pod(locode: str) -> Check:
    def check(out: dict[str, Any], _: World) -> None:
        assert out["filters_applied"] == {"port": locode}
        assert out["items"] and all(
            s["port_of_discharge"]["locode"] == locode for s in out["items"]
        )

    return check


def _port_skipped(out: dict[str, Any], _: World) -> None:
    assert [f["name"] for f in out["filters_not_applied"]] == ["port"]
    assert out["paging"]["total"] > 0  # the other filters still hold


def _with_containers(out: dict[str, Any], _: World) -> None:
    assert all(s["containers"] is not None for s in out["items"])


def _only_b_not(out: dict[str, Any], world: World) -> None:
    assert world.container_b not in [c["id"] for c in out["items"]]
    assert all(c["shipment"] and c["transport_events"] is not None for c in out["items"])


def _carrier(out: dict[str, Any], _: World) -> None:
    assert out["filters_applied"] == {"carrier": "TEST"}


def _requests(out: dict[str, Any], _: World) -> None:
    assert out["filters_applied"] == {"scac": "TEST"}
    assert [f["name"] for f in out["filters_not_applied"]] == ["colour"]
    assert out["items"] and all(r["scac"] == "TEST" for r in out["items"])


def _created(out: dict[str, Any], _: World) -> None:
    assert out["items"] and all(r["status"] == "created" for r in out["items"])


def _positions(out: dict[str, Any], _: World) -> None:
    assert out["vessel"]["imo"] == "9811000"
    assert out["destination_port"]["locode"] == "NLRTM"
    assert 2 <= out["track_points"] <= 100 < out["positions_total"]
    assert out["track"][-1]["timestamp"] == out["eta"]
    assert out["distance_remaining_nm"] > 100
    # The ETA is the engine's on the speed profile, from the same start, time and speed (the
    # start's time and the ETA are each written to the second, so to within two seconds).
    first = out["track"][0]
    start = datetime.fromisoformat(first["timestamp"])
    engine = sealane.future_positions(
        (first["longitude"], first["latitude"]), "CNSHA", "NLRTM",
        speed_kn=out["speed"]["knots"], start_time=start,
    )  # fmt: skip
    eta = datetime.fromisoformat(out["eta"])
    assert abs((eta - engine.eta).total_seconds()) <= 2.0, (eta, engine.eta)
    assert engine.eta - start > timedelta(hours=engine.distance_remaining_nm / engine.speed_kn)
    assert out["eta_p10"] <= out["eta"] < out["eta_p90"]  # ISO 8601 UTC: ordered as instants
    assert out["speed"]["source"] in {"given", "observed", "reported", "default"}


def _given_speed(out: dict[str, Any], world: World) -> None:
    _positions(out, world)
    assert (out["speed"]["knots"], out["speed"]["source"]) == (11.5, "given")


def _route(out: dict[str, Any], _: World) -> None:
    assert "suez" in out["passages"] and 10_000 < out["distance_nm"] < 11_000
    assert out["geojson"]["type"] == "Feature"
    assert out["vessel_dimensions"]["source"] == "default"


def _through_kiel(out: dict[str, Any], _: World) -> None:
    assert out["passages"] == ["maas", "kiel"] and 600 < out["distance_nm"] < 700


def _options(out: dict[str, Any], _: World) -> None:
    """Fastest first; the shortest through Suez, an option avoiding it, and each option avoids
    what it says (timed on the speed profile, so longer than the distance at 16 kn)."""
    options = out["options"]
    hours = [option["duration_h"] for option in options]
    assert hours == sorted(hours) and [o["rank"] for o in options] == list(range(1, len(hours) + 1))
    assert options[0]["option"] == "shortest" and "suez" in options[0]["passages"]
    assert any(o["avoided"] == ["suez"] for o in options)
    for option in options:
        assert not set(option["avoided"]) & set(option["passages"])
        assert option["duration_h"] > option["distance_nm"] / 16
    assert out["speed_kn"] == 16


def _from_the_canal(out: dict[str, Any], _: World) -> None:
    """From El Ferdan in the Suez Canal (a land cell of the mask): north out of the canal."""
    assert out["passages"][0] == "suez" and 3_000 < out["distance_nm"] < 3_600


def _too_deep_for_suez(out: dict[str, Any], _: World) -> None:
    assert "suez" not in out["passages"] and out["distance_nm"] > 12_000
    dimensions = out["vessel_dimensions"]
    assert (dimensions["source"], dimensions["draft_m"], dimensions["beam_m"]) == (
        "given",
        21,
        None,
    )


def _deep_positions(out: dict[str, Any], _: World) -> None:
    assert out["ports_source"] == "given"
    assert out["previous_port"]["locode"] == "CNSHA"
    assert out["vessel_dimensions"] == {
        "source": "given",
        "draft_m": 21.0,
        "beam_m": 50.0,
        "length_m": None,
        "air_draft_m": None,
        "sources": {
            "draft_m": "given",
            "beam_m": "given",
            "length_m": "default",
            "air_draft_m": "default",
        },
        "reported_by": None,
        "reported_set_aside": None,
    }


def _round_africa(out: dict[str, Any], _: World) -> None:
    assert "suez" not in out["passages"] and out["distance_nm"] > 12_000
    assert out["avoided"] == ["suez"]


def _ids(world: World) -> dict[str, Any]:
    return {"id": world.container_a}


def _route_calls(out: dict[str, Any], world: World) -> None:
    assert out["container_id"] == world.container_a
    calls = out["calls"]
    assert len(calls) >= 2 and calls[0]["label"] == "POL" and calls[-1]["label"] == "POD"
    assert [c["sequence"] for c in calls] == list(range(1, len(calls) + 1))
    assert all(c["port"]["locode"] for c in calls)


def _found_own(out: dict[str, Any], world: World) -> None:
    cargo = [h for h in out["hits"] if h["kind"] == "container"]
    assert [h["id"] for h in cargo if h["exact"]] == [world.container_a]
    assert out["total"] == len(out["hits"])


def _nothing(out: dict[str, Any], _: World) -> None:
    assert out["total"] == 0 and out["hits"] == []


def _already(out: dict[str, Any], world: World) -> None:
    assert out["outcome"] == "already_tracked"
    assert out["container"]["id"] == world.container_a and out["container"]["shipment"]


def _inferred(out: dict[str, Any], _: World) -> None:
    assert out["outcome"] == "tracking_requested"
    assert (out["scac"], out["request_type"]) == ("TEST", "bill_of_lading")
    assert out["inference"]["decision"] == "auto_select"
    assert out["tracking_request"]["status"] == "pending"


def _given(out: dict[str, Any], _: World) -> None:
    assert out["outcome"] == "tracking_requested" and out["inference"] is None
    assert out["tracking_request"]["ref_numbers"] == ["PO-MCP"]


def _needs_carrier(out: dict[str, Any], _: World) -> None:
    assert out["outcome"] == "needs_carrier" and out["tracking_request"] is None


def _nested(name: str, value: str) -> dict[str, Any]:
    """``{name: value}``, or ``{"filters": {key: value}}`` for ``filters.<key>``."""
    head, _, key = name.partition(".")
    return {head: {key: value}} if key else {name: value}


def _new_number() -> str:
    return "TESTMCP" + uuid4().hex[:8].upper()


CASES = [
    Case(
        "own container by number", "search_container", lambda w: {"query": w.number_a}, _found_own
    ),
    Case("another account's number", "search_container", lambda w: {"query": w.number_b}, _nothing),
    Case("blank", "search_container", lambda w: {"query": "  "}, error="invalid", field="query"),
    Case("already tracked", "track_container", lambda w: {"number": w.number_a}, _already),
    Case("inferred", "track_container", lambda w: {"number": _new_number()}, _inferred),
    Case(
        "type and carrier given",
        "track_container",
        lambda w: {
            "number": _new_number(),
            "numberType": "bill_of_lading",
            "scac": "TEST",
            "refNumbers": ["PO-MCP"],
        },
        _given,
    ),
    Case(
        "no carrier to infer",
        "track_container",
        lambda w: {"number": f"ZZQ{uuid4().int % 100:02d}"},
        _needs_carrier,
    ),
    Case(
        "bad type",
        "track_container",
        lambda w: {"number": _new_number(), "numberType": "parcel"},
        error="invalid",
        field="numberType",
    ),
    Case(
        "bad scac",
        "track_container",
        lambda w: {"number": _new_number(), "scac": "TOOLONG"},
        error="invalid",
        field="scac",
    ),
    Case("default includes shipment", "get_container", _ids, _container_default),
    Case(
        "events only",
        "get_container",
        lambda w: {"id": w.container_a, "include": ["transport_events"]},
        _container_events,
    ),
    Case("bad uuid", "get_container", lambda w: {"id": "not-a-uuid"}, error="invalid", field="id"),
    Case("unknown", "get_container", lambda w: {"id": UNKNOWN}, error="not_found"),
    Case("another account's", "get_container", lambda w: {"id": w.container_b}, error="not_found"),
    Case(
        "bad include",
        "get_container",
        lambda w: {"id": w.container_a, "include": ["vessel"]},
        error="invalid",
        field="include",
    ),
    Case("with containers", "get_shipment_details", lambda w: {"id": w.shipment_a}, _shipment),
    Case(
        "without containers",
        "get_shipment_details",
        lambda w: {"id": w.shipment_a, "include_containers": False},
        lambda out, _: _no_containers(out),
    ),
    Case("bad uuid", "get_shipment_details", lambda w: {"id": "x"}, error="invalid", field="id"),
    Case("unknown", "get_shipment_details", lambda w: {"id": UNKNOWN}, error="not_found"),
    Case("timeline", "get_container_transport_events", _ids, _timeline),
    Case(
        "bad uuid",
        "get_container_transport_events",
        lambda w: {"id": "123"},
        error="invalid",
        field="id",
    ),
    Case(
        "another account's",
        "get_container_transport_events",
        lambda w: {"id": w.container_b},
        error="not_found",
    ),
    Case("search", "get_supported_shipping_lines", lambda w: {"search": "test"}, _lines),
    Case(
        "page_size 0",
        "get_supported_shipping_lines",
        lambda w: {"page_size": 0},
        error="invalid",
        field="page_size",
    ),
    Case("one per page", "list_shipments", lambda w: {"page_size": 1}, _one_per_page),
    Case("by port", "list_shipments", lambda w: {"port": "nlrtm"}, _all_pod("NLRTM")),
    Case("port named nowhere", "list_shipments", lambda w: {"port": "Atlantis"}, _port_skipped),
    Case("containers", "list_shipments", lambda w: {"include_containers": True}, _with_containers),
    Case(
        "page_size 0",
        "list_shipments",
        lambda w: {"page_size": 0},
        error="invalid",
        field="page_size",
    ),
    Case(
        "page_size 1000",
        "list_shipments",
        lambda w: {"page_size": 1000},
        error="invalid",
        field="page_size",
    ),
    Case(
        "bad status",
        "list_shipments",
        lambda w: {"status": "lost"},
        error="invalid",
        field="status",
    ),
    Case(
        "own only, with includes",
        "list_containers",
        lambda w: {"include": ["shipment", "transport_events"], "page_size": 100},
        _only_b_not,
    ),
    Case("by carrier", "list_containers", lambda w: {"carrier": "test"}, _carrier),
    Case("one per page", "list_containers", lambda w: {"page_size": 1}, _one_per_page),
    Case(
        "page_size 0",
        "list_containers",
        lambda w: {"page_size": 0},
        error="invalid",
        field="page_size",
    ),
    Case(
        "page_size 1000",
        "list_containers",
        lambda w: {"page_size": 1000},
        error="invalid",
        field="page_size",
    ),
    *(
        Case(
            f"{name} in year 0 in UTC",
            tool,
            lambda w, name=name: _nested(name, "0001-01-01T00:00:00+01:00"),
            error="invalid",
            field=name,
        )
        for tool, name in (
            ("list_shipments", "updated_after"),
            ("list_containers", "updated_after"),
            ("list_tracking_requests", "filters.created_after"),
            ("list_tracking_requests", "filters.created_before"),
        )
    ),
    Case(
        "updated_after past year 9999 in UTC",
        "list_containers",
        lambda w: {"updated_after": "9999-12-31T23:30:00-01:00"},
        error="invalid",
        field="updated_after",
    ),
    Case(
        "unknown filter named",
        "list_tracking_requests",
        lambda w: {"filters": {"scac": "TEST", "colour": "red"}},
        _requests,
    ),
    Case("created", "list_tracking_requests", lambda w: {"status": "created"}, _created),
    Case(
        "bad type",
        "list_tracking_requests",
        lambda w: {"request_type": "parcel"},
        error="invalid",
        field="request_type",
    ),
    Case(
        "page_size 0",
        "list_tracking_requests",
        lambda w: {"page_size": 0},
        error="invalid",
        field="page_size",
    ),
    Case(
        "page_size 1000",
        "list_tracking_requests",
        lambda w: {"page_size": 1000},
        error="invalid",
        field="page_size",
    ),
    Case(
        "from its position",
        "get_vessel_future_positions",
        lambda w: {"vessel": w.vessel_imo, "destination_port": "NLRTM", "previous_port": "CNSHA"},
        _positions,
    ),
    Case(
        "dimensions given",
        "get_vessel_future_positions",
        lambda w: {
            "vessel": w.vessel_imo,
            "destination_port": "NLRTM",
            "previous_port": "CNSHA",
            "draft_m": 21,
            "beam_m": 50,
        },
        _deep_positions,
    ),
    Case(
        "speed given",
        "get_vessel_future_positions",
        lambda w: {
            "vessel": w.vessel_imo,
            "destination_port": "NLRTM",
            "previous_port": "CNSHA",
            "speed_kn": 11.5,
        },
        _given_speed,
    ),
    Case(
        "bad speed",
        "get_vessel_future_positions",
        lambda w: {"vessel": w.vessel_imo, "destination_port": "NLRTM", "speed_kn": 0.2},
        error="invalid",
        field="speed_kn",
    ),
    Case(
        "bad draft",
        "get_vessel_future_positions",
        lambda w: {"vessel": w.vessel_imo, "destination_port": "NLRTM", "draft_m": -1},
        error="invalid",
        field="draft_m",
    ),
    Case(
        "no destination and no voyage known",
        "get_vessel_future_positions",
        lambda w: {"vessel": w.vessel_imo},
        error="unknown_voyage",
        field="destination_port",
    ),
    Case(
        "start far inland",
        "get_vessel_future_positions",
        lambda w: {
            "vessel": w.vessel_imo,
            "destination_port": "NLRTM",
            "previous_port": "DEHAM",
            "start_longitude": 6.76,
            "start_latitude": 51.43,
        },
        error="on_land",
    ),
    Case(
        "unknown port",
        "get_vessel_future_positions",
        lambda w: {"vessel": w.vessel_imo, "destination_port": "XXZZZ", "previous_port": "CNSHA"},
        error="unknown_port",
    ),
    Case(
        "unknown vessel",
        "get_vessel_future_positions",
        lambda w: {"vessel": UNKNOWN, "destination_port": "NLRTM", "previous_port": "CNSHA"},
        error="not_found",
    ),
    Case(
        "without the feature",
        "get_vessel_future_positions",
        lambda w: {"vessel": w.vessel_imo, "destination_port": "NLRTM", "previous_port": "CNSHA"},
        error="routing_disabled",
        as_b=True,
    ),
    Case("port calls", "get_container_route", _ids, _route_calls),
    Case("bad uuid", "get_container_route", lambda w: {"id": "x"}, error="invalid", field="id"),
    Case(
        "another account's",
        "get_container_route",
        lambda w: {"id": w.container_b},
        error="not_found",
    ),
    Case(
        "without the feature",
        "get_container_route",
        lambda w: {"id": w.container_a},
        error="routing_disabled",
        as_b=True,
    ),
    Case(
        "through suez",
        "plan_sea_route",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM"},
        _route,
    ),
    Case(
        "avoiding suez",
        "plan_sea_route",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "avoid": ["suez"]},
        _round_africa,
    ),
    Case(
        "too deep for suez",
        "plan_sea_route",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "draft_m": 21},
        _too_deep_for_suez,
    ),
    Case(
        "beam 0",
        "plan_sea_route",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "beam_m": 0},
        error="invalid",
        field="beam_m",
    ),
    Case(
        "length beyond any ship",
        "plan_sea_route",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "length_m": 900},
        error="invalid",
        field="length_m",
    ),
    Case(
        "bad speed",
        "plan_sea_route",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "speed_kn": 0},
        error="invalid",
        field="speed_kn",
    ),
    Case(
        "from the suez canal",
        "plan_sea_route",
        lambda w: {"origin": "32.3244,30.657", "destination": "NLRTM"},
        _from_the_canal,
    ),
    Case(
        "origin far inland",
        "plan_sea_route",
        lambda w: {"origin": "14.42,50.08", "destination": "NLRTM"},
        error="on_land",
    ),
    Case(
        "destination far inland",
        "plan_sea_route",
        lambda w: {"origin": "NLRTM", "destination": "-100,40"},
        error="on_land",
    ),
    Case(
        "unknown port",
        "plan_sea_route",
        lambda w: {"origin": "XXZZZ", "destination": "NLRTM"},
        error="unknown_port",
    ),
    Case(
        "without the feature",
        "plan_sea_route",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM"},
        error="routing_disabled",
        as_b=True,
    ),
    Case(
        "via kiel",
        "plan_sea_route",
        lambda w: {"origin": "NLRTM", "destination": "PLGDN", "via": ["kiel"], "draft_m": 8},
        _through_kiel,
    ),
    Case(
        "via an unknown passage",
        "plan_sea_route",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "via": ["suezz"]},
        error="unknown_passage",
    ),
    Case(
        "suez or the cape",
        "compare_sea_routes",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "speed_kn": 16},
        _options,
    ),
    Case(
        "options avoiding an unknown passage",
        "compare_sea_routes",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "avoid": ["atlantis"]},
        error="unknown_passage",
    ),
    Case(
        "options at a bad speed",
        "compare_sea_routes",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM", "speed_kn": -3},
        error="invalid",
        field="speed_kn",
    ),
    Case(
        "options without the feature",
        "compare_sea_routes",
        lambda w: {"origin": "CNSHA", "destination": "NLRTM"},
        error="routing_disabled",
        as_b=True,
    ),
]
