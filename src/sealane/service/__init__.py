"""The application layer: every query and command the shells (API, MCP, web, CLI) offer.

One subpackage per concept, each a set of plain functions taking a
:class:`~sealane.service.core.context.ServiceContext`, the calling
:class:`~sealane.service.access.gatekeeper.Caller` and typed inputs, returning frozen records
and raising the errors of :mod:`~sealane.service.core.errors`. They own the transactions and
the queries; shells only parse, call and render.

From the bottom up (a subpackage imports only those above it in this list):

- ``core``: errors, the context, paging, query helpers, input typing, rate limits;
- ``access``: API keys and callers, accounts, browser sessions, features;
- ``reference``: ports, terminals, metro areas, shipping lines, vessels;
- ``fields``: custom fields;
- ``tracking``: tracking requests, shipments, containers, events, milestones, numbers;
- ``container_routes``: a container's port calls and its map;
- ``webhooks``: subscriptions, notifications, examples, test deliveries;
- ``ingest``: vessel positions and carrier pushes sent to sealane;
- the modules ``search`` (finding by number), ``sea_routes`` (port-to-port routes) and
  ``records`` (every read model, gathered for the shells).
"""
