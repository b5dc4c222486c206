"""Assertions shared by the API tests: every failure is one JSON:API error document."""

from __future__ import annotations

from typing import Any

import httpx

JSONAPI = "application/vnd.api+json"
ERROR_MEMBERS = {"status", "title", "detail", "code", "source"}


def assert_error(
    response: httpx.Response,
    status: int,
    *,
    code: str | None = None,
    parameter: str | None = None,
) -> dict[str, Any]:
    """The single error object of ``response``, after checking status, media type and shape."""
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"] == JSONAPI
    body = response.json()
    assert set(body) == {"errors"}, body  # never FastAPI's {"detail": ...}
    assert len(body["errors"]) == 1
    error: dict[str, Any] = body["errors"][0]
    assert set(error) <= ERROR_MEMBERS
    assert error["status"] == str(status)
    assert isinstance(error["title"], str) and error["title"]
    assert isinstance(error["detail"], str) and error["detail"]
    assert "Traceback" not in response.text
    if code is not None:
        assert error.get("code") == code
    if parameter is not None:
        assert error.get("source") == {"parameter": parameter}
    return error
