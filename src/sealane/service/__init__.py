"""The application layer: every query and command the shells (API, MCP, web, CLI) offer.

One module per concept (``tracking_requests``, ``shipments``, ``containers``, ``webhooks``,
``notifications``, ``reference``, ``vessels``, ``routes``, ``accounts``): plain functions taking a
:class:`~sealane.service.context.ServiceContext`, the :class:`~sealane.service.access.Caller`
and typed inputs, returning frozen records (``records``) and raising the errors of ``errors``.
They own the transactions and the queries; shells only parse, call and render.
"""
