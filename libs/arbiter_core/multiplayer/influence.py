"""Limited range of influence (CR 801), an option for most multiplayer games, always
used in Emperor (801.1, 809.3a) and by default in Grand Melee (807.2a) and Alternating
Teams (811.2a).

Each player's range (801.2a) is fixed when the game starts; which players are within it
is determined as each turn begins (801.2c), counting seats among players still in the
game (the seats close up when a player leaves). A player is always within their own
range (801.2b); objects are within range when their controller is (801.2d).
"""

from __future__ import annotations

from arbiter_core.kernel.state import GameState, Obj


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


def near(s: GameState, viewer: str) -> frozenset[str] | None:
    """The players within `viewer`'s range of influence (801.2c), or None when the range
    is not limited: everyone is within it."""
    return s.influence.get(viewer)


def player_in_range(s: GameState, viewer: str, player: str) -> bool:
    """CR 801.2: `player` is within `viewer`'s range of influence."""
    within = near(s, viewer)
    return within is None or player in within


def with_any_in_range(s: GameState, viewers: list[str], players: set[str]) -> list[str]:
    """The viewers (in their order) within whose range of influence any of `players` is
    (801.2)."""
    ranges = s.influence
    return [v for v in viewers if (within := ranges.get(v)) is None
            or not within.isdisjoint(players)]


def object_in_range(s: GameState, viewer: str, o: Obj) -> bool:
    """CR 801.2d: an object is within range when its controller is."""
    return player_in_range(s, viewer, o.controller)
