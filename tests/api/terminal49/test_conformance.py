"""Every operation sealane shares with Terminal49's published OpenAPI document, called on real
data made through the API, answers what that document describes for the path, method and status
(with the document's README errata, and the interface document's overrides of ``document.py``).

A success must be a documented status; an error status the document gives a body for is checked
against it, any other error against the document's error model.
"""

from __future__ import annotations

import httpx
import pytest

from . import document as t49
from .recipes import EXPECTED, RECIPES
from .world import World


def conformance_problems(method: str, path: str, response: httpx.Response) -> list[str]:
    """Where ``response`` departs from the document (empty: it conforms)."""
    status = response.status_code
    try:
        schema = t49.response_schema(method, path, status)
    except KeyError:
        if 200 <= status < 300:
            return [f"status {status} is not documented: {response.text[:300]}"]
        schema = t49.error_schema()
    if schema is None:
        return []
    try:
        body = response.json()
    except ValueError:
        return [f"status {status}: the body is not JSON: {response.text[:200]!r}"]
    return [f"{status} {problem}" for problem in t49.problems(schema, body)]


def shared_operations() -> list[tuple[str, str]]:
    """The shared operations."""
    return t49.operations()


def test_every_shared_operation_has_a_recipe() -> None:
    t49.require_document()
    assert sorted(RECIPES) == sorted(t49.operations())


@pytest.mark.parametrize(
    ("method", "path"), shared_operations(), ids=[f"{m} {p}" for m, p in shared_operations()]
)
def test_operation__conforms(world: World, method: str, path: str) -> None:
    responses = RECIPES[method, path](world)
    statuses = [r.status_code for r in responses]
    wanted = EXPECTED.get((method, path))
    if wanted is None:
        assert all(200 <= s < 300 for s in statuses), [r.text[:300] for r in responses]
    else:
        assert tuple(statuses) == wanted, [r.text[:300] for r in responses]
    found = {
        f"{r.request.method} {r.request.url.path}?{r.request.url.query.decode()}": problems
        for r in responses
        if (problems := conformance_problems(method, path, r))
    }
    assert found == {}
