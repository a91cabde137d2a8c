"""Multiplayer rules (CR 800-811): range of influence (801), leaving the game (800.4),
information about players who left (800.4i) and Grand Melee's turn markers (807)."""
