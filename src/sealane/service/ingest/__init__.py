"""Data sent to sealane rather than asked for: vessel positions from AIS providers and events
carriers push over DCSA Track & Trace.
"""
