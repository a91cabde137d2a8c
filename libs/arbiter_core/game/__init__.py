"""The game as a whole (CR 103-104): starting a game and setting up a position (103),
winning, losing and drawing (104), conceding (104.3a) and loops of mandatory actions
(104.4b)."""
