"""The appliers of the events that change objects and zones: a move makes a new object
(CR 400.7), a token is created on the battlefield (111.2), permanents become tapped and
untapped (701.26), counters are put and removed (122.1, 122.6), Auras and Equipment
become attached (701.3), and a library is shuffled into the order recorded in the event
(701.24: the random outcome is in the event, so a replay never re-rolls).
"""

from __future__ import annotations

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import create_token, move, remove_from_zone, set_obj, shuffled
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains, objs
from arbiter_core.kernel.state import GameState
from arbiter_core.layers.characteristics import entering_as, is_creature


@applies(ev.ObjectMoved)
def _moved(s: GameState, e: ev.ObjectMoved) -> None:
    move(s, e.obj, e.new_id, e.to_zone, e.controller)
    if e.to_zone == "battlefield":
        entering_as(s, e.new_id)  # 614.12


@applies(ev.ObjectCeasedToExist)
def _ceased(s: GameState, e: ev.ObjectCeasedToExist) -> None:
    o = s.objects.pop(e.obj)
    remove_from_zone(s, o)


@applies(ev.LibraryShuffled)
def _shuffled(s: GameState, e: ev.LibraryShuffled) -> None:
    shuffled(s, e.player, "library", e.order)


@applies(ev.TokenCreated)
def _token_created(s: GameState, e: ev.TokenCreated) -> None:
    create_token(s, e.obj, e.owner, e.token)
    entering_as(s, e.obj)  # 614.12


@applies(ev.CardRevealed)
def _card_revealed(s: GameState, e: ev.CardRevealed) -> None:
    """701.20a: revealing shows the card to all players for a brief time and changes
    nothing in the game; the event (its `name`) is the record every player saw."""


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


@explains(ev.LibraryShuffled)
def _explain_library_shuffled(before: GameState, e: ev.LibraryShuffled, name: Namer) -> str:
    return f"{e.player} shuffles their library"


@explains(ev.PermanentsUntapped)
def _explain_permanents_untapped(before: GameState, e: ev.PermanentsUntapped, name: Namer) -> str:
    return f"untap {objs(name, e.objs)}"


@explains(ev.PermanentTapped)
def _explain_permanent_tapped(before: GameState, e: ev.PermanentTapped, name: Namer) -> str:
    return f"{name(e.obj)} becomes tapped"


@explains(ev.ObjectMoved)
def _explain_object_moved(before: GameState, e: ev.ObjectMoved, name: Namer) -> str:
    return _moved_text(before, e, name)


@explains(ev.ObjectCeasedToExist)
def _explain_object_ceased_to_exist(before: GameState, e: ev.ObjectCeasedToExist,
                                    name: Namer) -> str:
    return f"{name(e.obj)} ceases to exist"


@explains(ev.CardRevealed)
def _explain_card_revealed(before: GameState, e: ev.CardRevealed, name: Namer) -> str:
    return f"{e.player} reveals {e.name}"


@explains(ev.TokenCreated)
def _explain_token_created(before: GameState, e: ev.TokenCreated, name: Namer) -> str:
    return f"{e.owner} creates {name(e.obj)}"


@explains(ev.Attached)
def _explain_attached(before: GameState, e: ev.Attached, name: Namer) -> str:
    return f"{name(e.obj)} attached to {name(e.to)}"


@explains(ev.Unattached)
def _explain_unattached(before: GameState, e: ev.Unattached, name: Namer) -> str:
    return f"{name(e.obj)} becomes unattached"


@explains(ev.CountersRemoved)
def _explain_counters_removed(before: GameState, e: ev.CountersRemoved, name: Namer) -> str:
    what = ", ".join(f"{n} {k}" for k, n in e.counters.items())
    return f"{what} counters removed from {name(e.obj)}"


@explains(ev.CountersPut)
def _explain_counters_put(before: GameState, e: ev.CountersPut, name: Namer) -> str:
    what = ", ".join(f"{n} {k}" for k, n in e.counters.items())
    return f"{what} counters put on {name(e.obj)}"


def _moved_text(before: GameState, e: ev.ObjectMoved, name: Namer) -> str:
    o = before.objects.get(e.obj)
    src = o.zone if o is not None else "?"
    if src == "battlefield" and e.to_zone == "graveyard":
        verb = "dies" if o is not None and is_creature(o) else "is put into a graveyard"
        return f"{name(e.obj)} {verb} (now #{e.new_id})"
    owner = f" of {e.to_player}" if e.to_zone != "battlefield" else ""
    return f"{name(e.obj)} moves from {src} to the {e.to_zone}{owner} (now #{e.new_id})"
