"""memo.py: a query's last result is reused only while what it reads is unchanged, and
facts about a state are kept only while it is trusted not to change but by events.

The SBA check (sba.py) and the layer-2 refresh (control.py) keep their last result; a
change anywhere in the state except the declared fields (a marker's priority, step and
combat for the SBA check) must make them compute again, whether the state is a new
clone or the same object changed in place.
"""

from __future__ import annotations

from dataclasses import replace

from arbiter_core.kernel.commands import PlayerSetup, StartGame
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.memo import KeyedMemo, Pinned, StateMemo, fact, trust_scratch
from arbiter_core.kernel.state import GameState, Marker, Priority, Step
from arbiter_core.layers.characteristics import is_creature, power_toughness
from arbiter_core.sba.conditions import needs_check
from arbiter_runtime.decks import deck_for_seat


def started(players: int = 4, seed: int = 4) -> GameState:
    s = empty_state()
    names = [f"P{i + 1}" for i in range(players)]
    for e in decide(s, StartGame(game_id="memo", variant="free_for_all", seed=seed,
                                 players=[PlayerSetup(name=n, deck=deck_for_seat(i))
                                          for i, n in enumerate(names)])):
        apply(s, e)
    return s


def counting() -> tuple[list[int], StateMemo[GameState, int]]:
    calls: list[int] = []

    def query(s: GameState) -> int:
        calls.append(s.version)
        return len(calls)

    return calls, StateMemo(query, GameState, Marker,
                            ignore_marker_fields=frozenset({"pending", "step"}))


def test_state_memo_reuses_only_while_the_state_is_equal() -> None:
    s = started()
    calls, memo = counting()
    assert memo(s) == 1
    assert memo(s) == 1 and memo(s.clone()) == 1  # equal states: no new computation
    m = s.markers[1]
    s.markers[1] = replace(m, pending=Priority(s.seats[1]), step=Step.END)
    s.version += 5  # the event count is never read
    assert memo(s) == 1  # only ignored fields changed
    s.markers[1] = replace(m, passed=(s.seats[0],))
    assert memo(s) == 2  # a marker field that isn't ignored
    player = s.seats[0]
    s.players[player] = replace(s.players[player], life=3)  # changed in place
    assert memo(s) == 3
    s.zone_for_update(player, "hand").pop()
    assert memo(s) == 4
    s.objects[next(iter(s.objects))] = replace(next(iter(s.objects.values())), tapped=True)
    assert memo(s) == 5
    assert len(calls) == 5


def test_the_stored_copy_is_not_changed_with_the_state() -> None:
    """The memo compares against its own copy: changing the state's containers in place
    afterwards (evolve does) must still be seen as a change."""
    s = started()
    calls, memo = counting()
    memo(s)
    s.zones[(s.seats[0], "hand")].append(10**6)  # in place, under the memo's feet
    memo(s)
    s.battlefield.append(10**6)
    memo(s)
    assert len(calls) == 3


def test_keyed_memo() -> None:
    s = started()
    calls: list[int] = []

    def query(st: GameState) -> int:
        calls.append(st.version)
        return len(calls)

    memo = KeyedMemo(lambda st: st.players[st.seats[0]], query)
    assert memo(s) == memo(s) == 1
    p = s.seats[0]
    s.players[p] = replace(s.players[p], life=1)
    assert memo(s) == 2


def test_sba_check_sees_a_change_made_in_place() -> None:
    """704.5g: lethal damage marked on a creature; the memoized check must notice on the
    same state object it answered for before, and again when the damage is removed."""
    s = started()
    names = ("Grizzly Bears", "Savannah Lions", "Llanowar Elves")
    card = next(o for o in s.objects.values() if o.name in names)
    s.objects[card.id] = replace(card, zone="battlefield", controller=card.owner,
                                 default_controller=card.owner)
    s.zone_for_update(card.owner, card.zone).remove(card.id)
    s.battlefield.append(card.id)
    creature = s.objects[card.id]
    assert is_creature(creature)
    assert not needs_check(s)
    toughness = power_toughness(s, creature)[1]
    s.objects[card.id] = replace(creature, damage=toughness)
    assert needs_check(s)
    s.objects[card.id] = creature
    assert not needs_check(s)


def test_facts_are_kept_only_for_a_trusted_state_at_one_version() -> None:
    s = started()
    calls: list[int] = []

    def compute(st: GameState) -> int:
        calls.append(st.version)
        return len(calls)

    assert fact(s, "n", compute) == 1 and fact(s, "n", compute) == 2  # not trusted
    with Pinned(s):  # a query reads it: kept
        assert fact(s, "n", compute) == 3 == fact(s, "n", compute)
        assert fact(s.clone(), "n", compute) == 4  # another state
        s.version += 1  # an event applied
        assert fact(s, "n", compute) == 5 == fact(s, "n", compute)
    assert fact(s, "n", compute) == 6  # no longer pinned
    scratch = s.clone()
    trust_scratch(scratch)  # a decision's scratch state: kept per version
    assert fact(scratch, "n", compute) == 7 == fact(scratch, "n", compute)
    trust_scratch(s.clone())  # the next decision: the old scratch is no longer trusted
    assert fact(scratch, "n", compute) == 8
