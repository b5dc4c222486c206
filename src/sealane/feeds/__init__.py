"""Live data: AIS vessel positions (NMEA 0183 via pyais) and carriers' DCSA Track & Trace events."""
