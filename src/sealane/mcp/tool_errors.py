"""The one place where failures become MCP answers: domain errors become tool errors (``isError``
with the code, the detail and the offending argument), resource errors and HTTP error documents.
"""

from __future__ import annotations

import logging
from typing import Any

from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent
from starlette.responses import JSONResponse

from ..service.core.errors import (
    FeatureDisabled,
    ObjectNotFound,
    RateLimited,
    ServiceError,
    Unauthenticated,
    Unavailable,
)
from ..service.core.ratelimit import retry_after_header

log = logging.getLogger("sealane.mcp")

#: What a model can still use when the routing feature is off.
WITHOUT_ROUTING = (
    "Without it you can still use get_container (status, milestones and the carrier's ETA), "
    "get_container_transport_events (the timeline) and get_shipment_details (ports, vessel, ETA)."
)
#: What to do next, by error code.
HINTS = {
    "routing_disabled": WITHOUT_ROUTING,
    "not_found": "Check the id, or find the object with search_container or a list tool.",
    "rate_limited": "Wait before calling again.",
    "duplicate": "It is already tracked: find it with search_container.",
    "unavailable": "The service cannot reach its database just now: call again in a few seconds.",
}


def describe(error: ServiceError) -> dict[str, Any]:
    """``code``, ``detail``, the offending ``field`` (when known) and a ``hint``."""
    info: dict[str, Any] = {"code": error.code, "detail": error.detail, "field": error.field}
    if isinstance(error, ObjectNotFound) or error.code == "not_found":
        info["code"] = "not_found"
    if isinstance(error, RateLimited | Unavailable):
        info["retry_after_s"] = round(error.retry_after_s, 1)
    if (hint := HINTS.get(info["code"])) is not None:
        info["hint"] = hint
    return info


def tool_error(error: ServiceError) -> CallToolResult:
    """A tool result with ``isError``: the detail and hint as text, the same as ``error`` in
    ``structuredContent``."""
    info = describe(error)
    text = f"Error ({info['code']}): {info['detail']}"
    if info.get("field"):
        text += f" [argument: {info['field']}]"
    if info.get("hint"):
        text += f"\n{info['hint']}"
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content={"error": info},
        is_error=True,
    )


def resource_error(error: ServiceError) -> ResourceError:
    """The SDK's resource error for a failed read (not found: invalid params, as MCP says)."""
    info = describe(error)
    text = f"{info['code']}: {info['detail']}"
    return ResourceNotFoundError(text) if info["code"] == "not_found" else ResourceError(text)


def prompt_error(error: ServiceError) -> MCPError:
    """The protocol error for bad prompt arguments (invalid params, naming the argument)."""
    return MCPError(INVALID_PARAMS, error.detail, describe(error))


def http_error(error: ServiceError, *, realm: str = "sealane-mcp") -> JSONResponse:
    """An HTTP answer before the MCP endpoint: 401 with ``WWW-Authenticate``, 429 or 503 (the
    database out of reach) with ``Retry-After``, 403, else 400; the body is the interface
    document's error document."""
    headers: dict[str, str] = {}
    if isinstance(error, Unauthenticated):
        status, title = 401, "Unauthorized"
        headers["WWW-Authenticate"] = f'Bearer realm="{realm}", Token realm="{realm}"'
    elif isinstance(error, RateLimited):
        status, title = 429, "Too Many Requests"
        headers["Retry-After"] = retry_after_header(error.retry_after_s)
    elif isinstance(error, Unavailable):
        status, title = 503, "Service Unavailable"
        headers["Retry-After"] = retry_after_header(error.retry_after_s)
    elif isinstance(error, FeatureDisabled):
        status, title = 403, "Forbidden"
    else:
        status, title = 400, "Bad Request"
    return problem(status, title, error.detail, error.code, headers)


def problem(
    status: int, title: str, detail: str, code: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """An error document ``{"errors": [{status, title, detail, code}]}``."""
    body = {"errors": [{"status": str(status), "title": title, "detail": detail, "code": code}]}
    return JSONResponse(body, status_code=status, headers=headers)
