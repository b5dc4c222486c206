"""A container's route: its port calls and the map drawn from them (the track sailed, the sea
lane ahead). "Route" alone means a sea route between two places (:mod:`..sea_routes`).
"""
