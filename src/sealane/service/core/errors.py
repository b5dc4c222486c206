"""Domain errors of the application layer; each shell turns them into its own form in one place.

The API makes them JSON:API error documents, the MCP server tool errors and the web app error
pages. ``field`` names the offending input by the application layer's own name for it (a body
attribute such as ``request_number``, a query input such as ``port_id``), so a shell can point at
it however its protocol does.
"""

from __future__ import annotations

from ...store.unavailable import DatabaseUnavailable

#: Ids and numbers echoed back in messages are cut to this many characters.
ECHO_CHARS = 80


def echo(value: str) -> str:
    """``value`` quoted for a message, cut so a huge input is never echoed whole."""
    if len(value) <= ECHO_CHARS:
        return repr(value)
    return repr(value[:ECHO_CHARS]) + f" (cut, {len(value)} characters)"


class ServiceError(Exception):
    """A query or command that cannot be done: ``detail`` for people, ``code`` for programs."""

    code = "error"

    def __init__(self, detail: str, *, code: str | None = None, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        self.field = field


class InvalidInput(ServiceError):
    """A value the caller gave is malformed or not allowed (``field`` says which)."""

    code = "invalid"


class Unprocessable(ServiceError):
    """The input is well formed but the request cannot be done (an unknown port, no sea route)."""

    code = "unprocessable"


class ObjectNotFound(ServiceError):
    """No such object in the caller's account (another account's objects are not found either)."""

    code = "not_found"

    def __init__(self, kind: str, key: str, *, by: str = "id") -> None:
        super().__init__(f"no {kind} with {by} {echo(key)}")
        self.kind = kind
        self.key = key


class CannotRoute(Unprocessable):
    """The routing engine cannot answer: an unknown port or passage, a point it cannot place, no
    sea route between two places. ``code`` and ``detail`` are the engine's own
    (``unknown_port``, ``no_route``, ``on_land``, ...); see :mod:`.engine`."""

    code = "routing_error"


class Malformed(ServiceError):
    """The input cannot be read at all (a body that is not JSON, or not the shape asked for)."""

    code = "invalid_body"


class InvalidFields(ServiceError):
    """A document with several bad values; ``problems`` names each by its JSON pointer."""

    code = "invalid"

    def __init__(self, detail: str, problems: list[tuple[str, str, str]]) -> None:
        super().__init__(detail)
        #: (JSON pointer, what is wrong, code) of each bad value.
        self.problems = problems


class FeatureDisabled(ServiceError):
    """The account lacks a paid feature the request needs."""

    code = "routing_disabled"


class Unauthenticated(ServiceError):
    """No credential, or one that is not valid."""

    code = "unauthorized"


class BadSignature(Unauthenticated):
    """A callback whose signature does not sign its body (no API key could help)."""

    code = "invalid_signature"


class RateLimited(ServiceError):
    """Too many requests in the window; ``retry_after_s`` says when the next is admitted."""

    code = "rate_limited"

    def __init__(self, detail: str, *, retry_after_s: float) -> None:
        super().__init__(detail)
        self.retry_after_s = retry_after_s


class Unavailable(ServiceError):
    """The service cannot answer now (its database is out of reach); ``retry_after_s`` is when
    to try again."""

    code = "unavailable"

    def __init__(self, detail: str, *, retry_after_s: float) -> None:
        super().__init__(detail)
        self.retry_after_s = retry_after_s


#: Seconds a client is asked to wait when the database is out of reach.
UNAVAILABLE_RETRY_S = 5.0
#: Errors of the layers below that :func:`translated` turns into application-layer errors (a
#: shell registers its handler for them without knowing those layers).
TRANSLATED: tuple[type[Exception], ...] = (DatabaseUnavailable,)


def translated(error: BaseException) -> ServiceError | None:
    """The application-layer error for a failure of a lower layer that a shell should show as
    such (the database out of reach: :class:`Unavailable`), or None for a fault of sealane."""
    if isinstance(error, ServiceError):
        return error
    if isinstance(error, DatabaseUnavailable):
        return Unavailable(
            "the service's database cannot be reached; try again shortly",
            retry_after_s=UNAVAILABLE_RETRY_S,
        )
    return None


ROUTING_DISABLED = "Routing data feature is not enabled for this account"
INGEST_DISABLED = "Vessel position ingest is not enabled for this account"
