"""The MCP server: the tracking service as tools, prompts and resources for AI assistants.

A shell like the API: each tool parses its arguments, asks a :class:`~.backend.Backend` (the
application layer in process, or a sealane API over HTTP) and renders a structured output with a
short text summary. Served over streamable HTTP (``/mcp``, ``/api/mcp``) and stdio.
"""
