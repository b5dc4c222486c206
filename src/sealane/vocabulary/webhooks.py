"""What a webhook's attributes may hold: the signing secret's prefix, the custom header name
pattern, the headers a webhook may not set and how many it may set. The rules that check every
write (:mod:`sealane.webhooks.subscription_rules`, :mod:`sealane.webhooks.signing`) and the API's
body schemas that describe them up front read the same values here."""

from __future__ import annotations

import re

#: The prefix of a webhook's signing secret (Standard Webhooks).
SECRET_PREFIX = "whsec_"

#: Headers a subscription may not set: hop-by-hop, framing, and those that carry identity or
#: the signature (a custom header must never override authentication or signing).
FORBIDDEN_HEADERS = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
        "content-type",
        "content-encoding",
        "authorization",
        "cookie",
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
    }
)
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$")
MAX_HEADERS = 20
