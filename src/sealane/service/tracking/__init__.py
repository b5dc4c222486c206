"""What an account tracks: tracking requests, the shipments and containers they find, their
events, milestones and timelines, parties, number inference, and the read models of all of them.
"""
