"""Reference data every account shares: ports, terminals, metropolitan areas, shipping lines and
vessels (with the paid routing feature's future positions), and their read models.
"""
