"""The status and type words of tracking requests and containers, as the shells reach them: a
tracking request's ``request_type`` and ``status``, a container's ``current_status``.

Named once in the domain (:mod:`sealane.tracking.lifecycle`, :mod:`sealane.tracking.events`)
and re-exported here, so a shell that lists them in a filter, a body schema or a tool argument
imports the application layer only.
"""

from __future__ import annotations

from ...tracking.events import ContainerStatus
from ...tracking.lifecycle import REQUEST_TYPES, RequestStatus

__all__ = ["REQUEST_TYPES", "ContainerStatus", "RequestStatus"]
