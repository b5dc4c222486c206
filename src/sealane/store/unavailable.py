"""The one storage failure the shells show as such: the database out of reach. Kept apart from
:mod:`.database` so the application layer's error tree can name it without importing SQLAlchemy
(the engine's command line loads that tree, and runs without the service's packages)."""

from __future__ import annotations


class DatabaseUnavailable(Exception):
    """The database cannot be reached (refused, gone, or dropped the connection): a failure of
    the service's surroundings, not of the request, raised in place of the driver's error."""
