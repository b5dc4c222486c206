"""The JSON:API over HTTP (FastAPI): each router parses a request, calls the application layer
and renders its records; failures become error documents in one place (:mod:`.errors`).

:mod:`.app` is the one HTTP server: it also mounts the MCP endpoint and the web pages at the
API's origin. A regular package (not a namespace one), so the import contract sees it.
"""
