"""Configuration: the service's :class:`Settings`, and the DCSA carriers' settings it carries.

Both are plain values read once at the entry point from flags and ``SEALANE_*`` variables; the
packages that use them (feeds, tracking, the application layer) read them and import nothing of
their own into here, so configuration sits below every package that is configured.
"""

from .settings import DEFAULT_RETRY_SCHEDULE, Settings

__all__ = ["DEFAULT_RETRY_SCHEDULE", "Settings"]
