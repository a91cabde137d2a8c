"""Zones and objects (CR 109-111, 122, 400-406, 701.3, 701.26): objects moving between
zones (400.7: a new object), ceasing to exist (704.5d, 111.7), tokens (111), tapping
(701.26), counters (122), attaching (701.3) and shuffling (701.24)."""
