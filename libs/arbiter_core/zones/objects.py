"""The appliers of the events that change objects and zones: a move makes a new object
(CR 400.7), a token is created on the battlefield (111.2), permanents become tapped and
untapped (701.26), counters are put and removed (122.1, 122.6), Auras and Equipment
become attached (701.3), and a library is shuffled into the order recorded in the event
(701.24: the random outcome is in the event, so a replay never re-rolls).
"""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import move, remove_from_zone, set_obj
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.state import GameState, Obj


@applies(ev.ObjectMoved)
def _moved(s: GameState, e: ev.ObjectMoved) -> None:
    move(s, e.obj, e.new_id, e.to_zone, e.controller)


@applies(ev.ObjectCeasedToExist)
def _ceased(s: GameState, e: ev.ObjectCeasedToExist) -> None:
    o = s.objects.pop(e.obj)
    remove_from_zone(s, o)


@applies(ev.LibraryShuffled)
def _shuffled(s: GameState, e: ev.LibraryShuffled) -> None:
    s.zones[(e.player, "library")] = list(e.order)
    s.rng_counter += 1


@applies(ev.TokenCreated)
def _token_created(s: GameState, e: ev.TokenCreated) -> None:
    s.timestamp += 1
    s.objects[e.obj] = Obj(id=e.obj, card=s.next_card, name=e.token.name, owner=e.owner,
                           controller=e.owner, zone="battlefield", token=e.token, sick=True,
                           timestamp=s.timestamp, default_controller=e.owner)
    s.next_card += 1
    s.battlefield.append(e.obj)
    s.next_id = max(s.next_id, e.obj + 1)


@applies(ev.PermanentTapped)
def _tapped(s: GameState, e: ev.PermanentTapped) -> None:
    set_obj(s, e.obj, tapped=True)


@applies(ev.PermanentsUntapped)
def _untapped(s: GameState, e: ev.PermanentsUntapped) -> None:
    for oid in e.objs:
        set_obj(s, oid, tapped=False)


@applies(ev.CountersPut)
def _counters_put(s: GameState, e: ev.CountersPut) -> None:
    o = s.objects[e.obj]
    now = dict(o.counters)
    for k, n in e.counters.items():
        now[k] = now.get(k, 0) + n
    set_obj(s, e.obj, counters=tuple(sorted(now.items())))


@applies(ev.CountersRemoved)
def _counters_removed(s: GameState, e: ev.CountersRemoved) -> None:
    o = s.objects[e.obj]
    left = {k: n - e.counters.get(k, 0) for k, n in o.counters}
    set_obj(s, e.obj, counters=tuple(sorted((k, n) for k, n in left.items() if n > 0)))


@applies(ev.Attached)
def _attached(s: GameState, e: ev.Attached) -> None:
    s.timestamp += 1
    set_obj(s, e.obj, attached_to=e.to, timestamp=s.timestamp)


@applies(ev.Unattached)
def _unattached(s: GameState, e: ev.Unattached) -> None:
    set_obj(s, e.obj, attached_to=None)
