"""Events a carrier pushes to sealane (DCSA Track & Trace callbacks), by the carrier's name.

A carrier configured with a ``push_secret`` calls ``POST /v2/dcsa/{carrier}/events`` with the
events of the subscription, signed with that secret; there is no API key, the signature is the
credential. Kept events are read by the carrier's adapter on its next sync like polled ones, so
an event both pushed and polled is recorded once.
"""

from __future__ import annotations

from ...feeds.dcsa.carrier import DcsaCarrier
from ...feeds.dcsa.push import PushRejected, PushResult, handle_push
from ..core.context import ServiceContext
from ..core.errors import BadSignature, Malformed, ObjectNotFound

#: What a carrier's callback is called in errors.
KIND = "DCSA carrier with a push subscription"


def receive_push(
    ctx: ServiceContext, carrier: str, body: bytes, signature: str | None
) -> PushResult:
    """Verify and keep one callback of the carrier named ``carrier`` (its configured name).

    Raises :class:`~..core.errors.ObjectNotFound` for a carrier that is not configured or has no
    push secret, :class:`~..core.errors.BadSignature` when ``signature`` (the
    ``Notification-Signature`` header) does not sign ``body``, :class:`~..core.errors.Malformed`
    when the body is not a JSON array of events.
    """
    adapter = next(
        (
            a
            for a in ctx.carriers.values()
            if isinstance(a, DcsaCarrier) and a.config.name == carrier
        ),
        None,
    )
    if adapter is None:
        raise ObjectNotFound(KIND, carrier, by="name")
    try:
        return handle_push(ctx.sessions, adapter.config, body, signature, ctx.clock)
    except PushRejected as rejected:
        if rejected.status == 404:
            raise ObjectNotFound(KIND, carrier, by="name") from None
        if rejected.status == 401:
            raise BadSignature(rejected.detail) from None
        raise Malformed(rejected.detail) from None
