"""Row claiming that is safe with several workers (kept here for the webhook modules' imports;
the function lives in :mod:`sealane.store.claims`, where the tracking poller reaches it too)."""

from __future__ import annotations

from ..store.claims import for_update_skip_locked

__all__ = ["for_update_skip_locked"]
