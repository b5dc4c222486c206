"""DCSA Track & Trace 2.2: carriers' container events polled (cursor paging) or pushed (signed)."""
