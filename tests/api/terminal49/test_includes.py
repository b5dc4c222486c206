"""Every include name Terminal49's document lists for an operation (a relationship of its
resource whose type its ``included`` holds) is accepted, and includes what it names."""

from __future__ import annotations

from typing import Any

import pytest

from . import document as t49
from .test_parameters import BASE, URLS, documented_includes, ok
from .world import World


def with_include() -> list[tuple[str, str, str]]:
    """(method, path, include name) of every documented include."""
    return [
        (method, path, name)
        for method, path in t49.operations()
        if any(p["name"] == "include" for p in t49.query_parameters(method, path))
        for name in documented_includes(method, path)
    ]


def test_documented_includes__the_names_issue_15_lists() -> None:
    t49.require_document()
    found = {(path, name) for _, path, name in with_include()}
    for path, name in (
        ("/shipments/{id}", "destination"),
        ("/shipments/{id}", "destination_terminal"),
        ("/containers/{id}", "pickup_facility"),
        *(
            ("/containers/{id}/transport_events", name)
            for name in ("location", "terminal", "vessel", "shipment", "container")
        ),
    ):
        assert (path, name) in found


@pytest.mark.parametrize(
    ("method", "path", "name"), with_include(), ids=[" ".join(w) for w in with_include()]
)
def test_include__accepted_and_included(world: World, method: str, path: str, name: str) -> None:
    base = BASE.get((method, path), lambda w: {})(world)
    body = ok(world.get(URLS[method, path](world), **base, include=name))
    resources = body["data"] if isinstance(body["data"], list) else [body["data"]]
    wanted = {
        (linked["type"], linked["id"])
        for resource in resources
        for linked in _linkage(resource["relationships"][name])
    }
    included = {(item["type"], item["id"]) for item in body.get("included", [])}
    assert wanted <= included


def _linkage(relationship: dict[str, Any]) -> list[dict[str, Any]]:
    data = relationship["data"]
    return [] if data is None else data if isinstance(data, list) else [data]
