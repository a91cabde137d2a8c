"""One-shot effects as a spell or ability resolves (CR 608.2c): damage (120), life (119,
810.9), counters and poison (122), and the effects that stop for a player's decision
(608.2d)."""
