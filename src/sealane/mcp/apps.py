"""Where the MCP server runs: inside the API app (``sealane serve``), as an HTTP app of its own
(``sealane mcp --host --port``), or on stdio (``sealane mcp --stdio``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from starlette.applications import Starlette

from ..config import Settings
from ..runtime import Runtime, build_runtime
from .backend import Backend
from .calls import McpState
from .http import HostPolicy, McpEndpoint, routes
from .local import LocalBackend
from .server import backend_for, build_server


def local_backend(runtime: Runtime) -> LocalBackend:
    """The in-process backend of a running service."""
    return LocalBackend(runtime.context, runtime.gate)


def endpoint_for(settings: Settings, runtime: Runtime | None) -> McpEndpoint:
    """The HTTP endpoint for ``settings``: the remote API when ``SERVICE_API_BASE_URL`` is set,
    else ``runtime``'s application layer."""
    backend = backend_for(settings, lambda: local_backend(_needed(runtime)))
    return McpEndpoint(McpState(backend, settings.mcp_api_token), HostPolicy.of(settings))


def standalone_app(settings: Settings) -> Starlette:
    """An app serving only the MCP endpoint (the database is opened unless the backend is
    remote)."""
    runtime = None if settings.mcp_api_base_url else build_runtime(settings)
    endpoint = endpoint_for(settings, runtime)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            stack.push_async_callback(endpoint.state.backend.aclose)
            if runtime is not None:
                runtime.start()
                stack.callback(runtime.stop)
            await stack.enter_async_context(endpoint.running())
            yield

    return Starlette(routes=routes(endpoint), lifespan=lifespan)


async def serve_stdio(settings: Settings) -> None:
    """Answer MCP messages on standard input and output until it closes; every call acts for the
    account of ``SERVICE_API_TOKEN``."""
    runtime = None if settings.mcp_api_base_url else build_runtime(settings)
    backend: Backend = backend_for(settings, lambda: local_backend(_needed(runtime)))
    server = build_server(McpState(backend, settings.mcp_api_token))
    try:
        await server.run_stdio_async()
    finally:
        await backend.aclose()
        if runtime is not None:
            runtime.stop()


def _needed(runtime: Runtime | None) -> Runtime:
    if runtime is None:
        raise RuntimeError("the local backend needs a runtime")
    return runtime
