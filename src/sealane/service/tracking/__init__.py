"""The application layer's side of tracking (the domain's rules are :mod:`sealane.tracking`):
what an account tracks: tracking requests, the shipments and containers they find, their
events, milestones and timelines, parties, number inference, and the read models of all of them.
"""
