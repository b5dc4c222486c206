"""The one port lookup: by UN/LOCODE or port id (case-insensitive), or by exact name.

Every shell and use case outside the engine finds a port through these functions, so a port
named by a caller means the same everywhere, and an unknown one is the application layer's
error (:class:`~..core.errors.CannotRoute`, code ``unknown_port``, 422), never the engine's.
"""

from __future__ import annotations

from ...routing import Port, UnknownPortError, registry
from ..core.engine import engine_errors
from ..core.errors import CannotRoute

#: Most ports a name is compared with (the engine ranks exact names first).
NAME_CANDIDATES = 50


def port_by_key(key: str, *, field: str | None = None) -> Port:
    """The port with UN/LOCODE or id ``key``; :class:`CannotRoute` (the engine's message, code
    ``unknown_port``) naming the input ``field`` when no port has it.

    >>> port_by_key("nlrtm").name
    'Rotterdam'
    """
    with engine_errors(field):
        return registry().get(key)


def known_port(key: str | None) -> Port | None:
    """The port with UN/LOCODE or id ``key``; None for a blank key or a place the engine does
    not know (an inland place, a code a carrier made up).

    >>> known_port("NLRTM").locode, known_port("XXXXX"), known_port(None)
    ('NLRTM', None, None)
    """
    if not key:
        return None
    try:
        return registry().get(key)
    except UnknownPortError:
        return None


def find_port(text: str, *, field: str | None = None) -> Port:
    """The port ``text`` names: a UN/LOCODE, a port id, or the exact name (case-insensitive) of
    exactly one port, or of exactly one that ships reach when several share it (Rotterdam, not
    the inland Rotterdam of New York). :class:`CannotRoute` (code ``unknown_port``) says why
    when it names none or several.

    >>> find_port("Rotterdam").locode, find_port("nlrtm").locode
    ('NLRTM', 'NLRTM')
    """
    found = known_port(text)
    if found is not None:
        return found
    wanted = text.strip().lower()
    named = [p for p in registry().find(text, limit=NAME_CANDIDATES) if p.name.lower() == wanted]
    reached = [p for p in named if not p.inland]
    if len(named) == 1 or len(reached) == 1:
        return named[0] if len(named) == 1 else reached[0]
    reason = "no port has that name" if not named else f"{len(named)} ports have that name"
    raise CannotRoute(reason, code=UnknownPortError.code, field=field)
