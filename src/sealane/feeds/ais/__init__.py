"""AIS: decode NMEA 0183 sentences, validate and thin positions, store tracks, derive port calls."""
