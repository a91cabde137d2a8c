"""Limited range of influence (CR 801), an option for most multiplayer games, always
used in Emperor (801.1, 809.3a) and by default in Grand Melee (807.2a) and Alternating
Teams (811.2a).

Each player's range (801.2a) is fixed when the game starts; which players are within it
is determined as each turn begins (801.2c), counting seats among players still in the
game (the seats close up when a player leaves). A player is always within their own
range (801.2b); objects are within range when their controller is (801.2d).
"""

from __future__ import annotations

from arbiter_core.state import GameState, Obj


def compute(s: GameState) -> dict[str, frozenset[str]]:
    """The 801.2c snapshot: for each player with a limited range, who is within it."""
    seats = s.in_game()
    n = len(seats)
    out: dict[str, frozenset[str]] = {}
    for p, r in s.ranges.items():
        if p not in seats:
            continue
        i = seats.index(p)
        near = {p}
        for k in range(1, min(r, n) + 1):
            near.add(seats[(i + k) % n])
            near.add(seats[(i - k) % n])
        out[p] = frozenset(near)
    return out


def player_in_range(s: GameState, viewer: str, player: str) -> bool:
    """CR 801.2: `player` is within `viewer`'s range of influence."""
    near = s.influence.get(viewer)
    return near is None or player in near


def object_in_range(s: GameState, viewer: str, o: Obj) -> bool:
    """CR 801.2d: an object is within range when its controller is."""
    return player_in_range(s, viewer, o.controller)
