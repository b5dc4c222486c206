"""The words and values every layer shares, written once: the event table, the status words of
tracking requests and containers, a webhook's limits, the vessel record. A leaf: it imports
nothing of sealane, and any layer may import it."""
