"""What a webhook's attributes may hold, for shells that describe it up front (the API's body
schemas): the signing secret's prefix, the custom header name pattern, the headers a webhook may
not set and how many it may set.

The rules themselves live in :mod:`sealane.webhooks.subscription_rules` and
:mod:`sealane.webhooks.signing`, which check every write; these are the same values.
"""

from __future__ import annotations

from ...webhooks.signing import SECRET_PREFIX
from ...webhooks.subscription_rules import FORBIDDEN_HEADERS, HEADER_NAME, MAX_HEADERS

__all__ = ["FORBIDDEN_HEADERS", "HEADER_NAME", "MAX_HEADERS", "SECRET_PREFIX"]
