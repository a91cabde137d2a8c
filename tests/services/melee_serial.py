"""A Grand Melee game whose stacks don't interact (CR 807.5: one stack per turn marker),
for the check that two stack-resolver processes end it as its serial run does.

Eight players, two markers four seats apart, range of influence 1 (807.2a): what a
marker's holder and the players within their range do never reaches the other marker's
players, and 807.4d keeps the markers four seats apart. The decks are basic lands and
vanilla creatures: creature spells use the stacks, combat happens, and no effect reads
anything shared between the markers (no targets among both markers' objects, no shuffle
after the start, so the shared random-number counter moves identically). What depends on
the interleaving is only the order of events between the markers, hence object ids and
timestamps: `outcome` compares everything else.
"""

from __future__ import annotations

from typing import Any

from arbiter_core.kernel.commands import PlayerSetup, RunEngineWork, StartGame
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.state import Decision, GameState, Priority
from arbiter_gateway.markers import done_within
from arbiter_ops.melee import VARIANT
from arbiter_runtime.botgame import make_bots
from arbiter_runtime.session import GameSession
from arbiter_store import open_store

PLAYERS = 8  # two turn markers (807.4a)
MARKER_TURNS = 10  # each marker's turns played (each player takes two or three)
DECK = (["Forest"] * 8 + ["Mountain"] * 8 + ["Grizzly Bears"] * 12 + ["Hill Giant"] * 8
        + ["Craw Wurm"] * 4)


def quiet_start(game_id: str, seed: int = 5) -> StartGame:
    return StartGame(game_id=game_id, variant=VARIANT, seed=seed, random_seating=True,
                     players=[PlayerSetup(name=f"P{i + 1}", deck=list(DECK))
                              for i in range(PLAYERS)])


def serial_run(start: StartGame, max_marker_turn: int = MARKER_TURNS) -> GameState:
    """The embedded loop (engine work first, lowest marker first; then the first marker
    whose player may act), bounded as `play_markers_through_gateway(max_marker_turn=)`."""
    with open_store(":memory:") as store:
        session = GameSession(store, start.game_id)
        session.execute(start)
        bots = make_bots(start)
        while not session.state.game_over and not done_within(session.state,
                                                               max_marker_turn):
            marker = owed_marker(session.state)
            if marker is not None:
                session.execute(RunEngineWork(marker=marker))
                continue
            for m in list(session.state.markers.values()):
                pending = m.pending
                if isinstance(pending, Priority | Decision) and m.turn <= max_marker_turn:
                    action = bots[pending.player].choose(session.state, pending.player)
                    if action is not None:
                        session.execute(action)
                        break
            else:  # pragma: no cover - a bot with nothing to do: a bug in the bot
                raise RuntimeError("no player can act")
        return session.state


def outcome(s: GameState) -> dict[str, Any]:
    """The game as a judge would describe it, without object ids and timestamps."""
    def names(ids: list[int]) -> list[str]:
        return [s.objects[i].name for i in ids]
    players = {}
    for p in s.seats:
        pl = s.players[p]
        perms = sorted((o.name, o.controller, o.tapped, o.damage, o.counters)
                       for o in map(s.objects.__getitem__, s.battlefield) if o.owner == p)
        players[p] = {"life": pl.life, "poison": pl.poison, "left": pl.left,
                      "hand": sorted(names(s.zone(p, "hand"))),
                      "library": names(s.zone(p, "library")),
                      "graveyard": names(s.zone(p, "graveyard")), "battlefield": perms}
    markers = {n: (m.holder, m.turn, m.step.value, type(m.pending).__name__)
               for n, m in sorted(s.markers.items())}
    return {"seats": list(s.seats), "players": players, "markers": markers,
            "turns_taken": s.turns_taken, "game_over": s.game_over}
