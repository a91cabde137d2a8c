"""Delayed triggered abilities go on the stack (CR 603.7), on the pure core.

"At the beginning of the next end step ..." is created as an ability resolves (603.7a),
triggers once as the next end step begins (603.7b), waits until a player would receive
priority and goes on the stack like any triggered ability (603.3) - players get priority
with it there - and acts only on the objects it refers to that are still where it
expects them (603.7c). Maddening Imp's is reached by playing; Astral Slide's trigger is
put on a stack by its events, with its target written into the stack item (a real cycle:
tests/test_cycling.py).
"""

from __future__ import annotations

from dataclasses import replace

from tests.harness import Game as CoreGame

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import (
    ActivateAbility,
    ChooseOption,
    DeclareAttackers,
    DeclareBlockers,
    PassPriority,
    PositionPlayer,
)
from arbiter_core.kernel.events import CardSetup
from arbiter_core.kernel.evolve import apply
from arbiter_core.kernel.hashing import state_hash
from arbiter_core.kernel.refs import object_ref
from arbiter_core.kernel.state import Decision, Delayed, Priority, StackItem, Step


class Game(CoreGame):
    """Alice's turn 3 (`alice`, `bob`: zone -> card names; a trailing `*` marks a
    creature that came under its controller's control this turn)."""

    def __init__(self, alice: dict[str, list[str]], bob: dict[str, list[str]]) -> None:
        def player(name: str, zones: dict[str, list[str]]) -> PositionPlayer:
            cards = {z: [CardSetup(name=c.removesuffix("*"), sick=c.endswith("*"))
                         for c in names] for z, names in zones.items()}
            return PositionPlayer(name=name, zones=cards)

        super().__init__([player("Alice", alice), player("Bob", bob)], "Alice", turn=3)

    def priority(self) -> str:
        p = self.s.markers[1].pending
        assert isinstance(p, Priority), p
        return p.player

    def pass_until_end_step(self) -> None:
        """Everyone passes (no attackers, no blockers) until the end step's priority."""
        m = self.s.markers[1]
        turn = m.turn
        while not (m.step == Step.END and isinstance(m.pending, Priority)):
            p = m.pending
            if isinstance(p, Priority):
                self.do(PassPriority(player=p.player))
            elif isinstance(p, Decision) and p.kind == "declare_attackers":
                self.do(DeclareAttackers(player=p.player))
            elif isinstance(p, Decision) and p.kind == "declare_blockers":
                self.do(DeclareBlockers(player=p.player))
            else:
                raise AssertionError(p)
            m = self.s.markers[1]
            assert m.turn == turn


def imp_activated() -> Game:
    """Bob's Maddening Imp resolved in Alice's main phase: her Grizzly Bears (under her
    control since this turn) must attack if able, and can't."""
    g = Game({"battlefield": ["Grizzly Bears*"], "library": ["Plains"] * 5},
             {"battlefield": ["Maddening Imp"], "library": ["Swamp"] * 5})
    g.do(PassPriority(player="Alice"))
    g.do(ActivateAbility(player="Bob", source=g.named("Maddening Imp"), ability=1))
    g.do(PassPriority(player="Bob"))
    g.do(PassPriority(player="Alice"))
    assert len(g.s.delayed) == 1 and not g.s.markers[1].stack
    return g


def test_the_delayed_trigger_waits_on_the_stack_at_the_end_step() -> None:
    g = imp_activated()
    bears = g.named("Grizzly Bears")
    g.pass_until_end_step()
    stack = g.s.markers[1].stack
    assert len(stack) == 1 and not g.s.delayed  # it triggered, once (603.7b)
    item = g.s.stack_items[stack[0]]
    assert (item.kind, item.controller, item.source_name) == ("triggered", "Bob",
                                                             "Maddening Imp")
    assert item.source == g.named("Maddening Imp")  # 603.7e: the Imp's ability's source
    assert item.delayed is not None and item.delayed.objs == (bears,)
    assert g.priority() == "Alice" and g.s.objects[bears].zone == "battlefield"
    triggered = [e for e in g.log if isinstance(e, ev.DelayedAbilityTriggered)]
    assert [(e.marker, e.rule) for e in triggered] == [(1, "603.7b")]

    g.do(PassPriority(player="Alice"))
    assert g.priority() == "Bob" and bears in g.s.objects  # still there: Bob may respond
    events = g.do(PassPriority(player="Bob"))
    assert [(e.obj, e.rule) for e in events if isinstance(e, ev.ObjectMoved)] == [
        (bears, "701.8a")]
    assert not g.s.markers[1].stack and g.s.markers[1].step == Step.END
    assert g.priority() == "Alice"  # 117.3b


def test_a_creature_that_left_and_came_back_is_not_destroyed() -> None:
    """603.7c, 400.7: the Bears bounced and replayed are a new object."""
    g = imp_activated()
    bears = g.named("Grizzly Bears")
    apply(g.s, ev.ObjectMoved(obj=bears, new_id=g.s.next_id, to_zone="battlefield",
                              to_player="Alice", rule="400.7"))
    g.pass_until_end_step()
    g.do(PassPriority(player="Alice"))
    events = g.do(PassPriority(player="Bob"))
    assert not [e for e in events if isinstance(e, ev.ObjectMoved)]
    assert g.named("Grizzly Bears") in g.s.battlefield


def slide_resolved() -> tuple[Game, int]:
    """Alice's Astral Slide trigger exiled Bob's Grizzly Bears (she said yes)."""
    g = Game({"battlefield": ["Astral Slide"], "library": ["Plains"] * 5},
             {"battlefield": ["Grizzly Bears"], "library": ["Forest"] * 5})
    slide, bears = g.named("Astral Slide"), g.named("Grizzly Bears")
    apply(g.s, ev.AbilityTriggered(source=slide, source_name="Astral Slide",
                                   controller="Alice", ability=0, marker=1, rule="603.2"))
    apply(g.s, ev.TriggerPutOnStack(index=0, item=g.s.next_id, marker=1, rule="603.3b"))
    g.s.next_id += 1
    item = g.s.stack_items[g.s.markers[1].stack[-1]]
    g.s.stack_items[item.id] = replace(item, targets=((object_ref(bears),),))
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    g.do(ChooseOption(player="Alice", option="yes"))
    exiled = g.named("Grizzly Bears", "exile")
    (d,) = g.s.delayed
    assert (d.kind, d.controller, d.objs, d.source) == ("return_from_exile", "Alice",
                                                        (exiled,), slide)
    return g, exiled


def test_astral_slide_returns_the_card_when_its_delayed_trigger_resolves() -> None:
    g, exiled = slide_resolved()
    g.pass_until_end_step()
    assert len(g.s.markers[1].stack) == 1 and g.s.objects[exiled].zone == "exile"
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))
    bears = g.s.objects[g.named("Grizzly Bears")]
    assert (bears.controller, bears.owner) == ("Bob", "Bob")  # under its owner's control
    assert not g.s.markers[1].stack


def test_astral_slide_returns_nothing_once_the_card_has_left_exile() -> None:
    g, exiled = slide_resolved()
    g.pass_until_end_step()
    apply(g.s, ev.ObjectMoved(obj=exiled, new_id=g.s.next_id, to_zone="exile",
                              to_player="Bob", rule="400.7"))  # a new object in exile
    g.do(PassPriority(player="Alice"))
    events = g.do(PassPriority(player="Bob"))
    assert not [e for e in events if isinstance(e, ev.ObjectMoved)]
    assert g.named("Grizzly Bears", "exile")


def test_one_created_during_the_end_step_waits_for_the_next_one() -> None:
    """603.7a-b: it triggers at the next end step to begin, not at the current one."""
    g = Game({"library": ["Plains"] * 5},
             {"battlefield": ["Grizzly Bears"], "library": ["Forest"] * 5})
    g.pass_until_end_step()
    bears = g.named("Grizzly Bears")
    apply(g.s, ev.DelayedTriggerCreated(card=0, owner="Bob", controller="Bob",
                                        source_name="Maddening Imp",
                                        kind="destroy_unless_attacked", objs=[bears],
                                        rule="603.7a"))
    g.do(PassPriority(player="Alice"))
    g.do(PassPriority(player="Bob"))  # to cleanup, then Bob's turn
    m = g.s.markers[1]
    assert m.holder == "Bob" and len(g.s.delayed) == 1 and not m.stack
    g.pass_until_end_step()
    assert not g.s.delayed and len(g.s.markers[1].stack) == 1


def test_records_without_a_delayed_trigger_keep_their_text() -> None:
    """The state hash and loop positions are made of reprs: `delayed` shows only when
    set, so a state without delayed triggers hashes as before the field existed."""
    plain = StackItem(id=7, kind="triggered", controller="A", marker=1)
    assert "delayed" not in repr(plain) and repr(plain).endswith("paying=())")
    d = Delayed(card=0, owner="A", controller="A", source_name="Maddening Imp",
                kind="destroy_unless_attacked", objs=(3,))
    assert repr(replace(plain, delayed=d)) == repr(plain)[:-1] + f", delayed={d!r})"
    g = imp_activated()
    before = state_hash(g.s)
    g.s.delayed = []
    assert state_hash(g.s) != before


def test_a_snapshot_keeps_the_delayed_trigger_on_the_stack() -> None:
    from arbiter_runtime import snapshots

    g = imp_activated()
    g.pass_until_end_step()
    assert g.s.stack_items[g.s.markers[1].stack[0]].delayed is not None
    back = snapshots.decode(snapshots.encode(g.s), state_hash(g.s))  # checks the hash
    assert back.stack_items == g.s.stack_items
