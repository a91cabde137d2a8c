"""`records.replacer`: the fast `dataclasses.replace` that `evolve` uses for the state's
records gives what `dataclasses.replace` gives (class, fields, equality, hash, still
frozen), and falls back to `dataclasses.replace` where it can't stand in exactly."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields, replace
from typing import Any

import pytest

from arbiter_core.cards.model import TokenSpec
from arbiter_core.kernel import state as st
from arbiter_core.kernel.records import replacer
from arbiter_core.kernel.refs import parse_ref

TOKEN = TokenSpec(name="Goblin", colors=("R",), types=("Creature",), subtypes=("Goblin",),
                  power=1, toughness=1)
SAMPLES: list[Any] = [
    st.Marker(number=2, holder="P1", turn=3, step=st.Step.UPKEEP,
              pending=st.Work("check_sba", "P1"), stack=(5, 6), passed=("P2",),
              combat=st.Combat(attacks=((7, "P2"),))),
    st.Obj(id=9, card=4, name="Goblin", owner="P1", controller="P2", zone="battlefield",
           token=TOKEN, counters=(("+1/+1", 2),), attached_to=3),
    st.Player(name="P1", team="A", life=17, mana="RR"),
    st.StackItem(id=5, kind="spell", controller="P1", marker=1, obj=9,
                 targets=((parse_ref("p:P2"),),)),
]
CHANGES: dict[type, list[dict[str, Any]]] = {
    st.Marker: [{"pending": st.Priority("P2")}, {"passed": ("P1", "P2"), "stack": ()},
                {"combat": None, "step": st.Step.CLEANUP, "turn": 4}],
    st.Obj: [{"tapped": True}, {"damage": 3, "deathtouch_hit": True}, {"token": None}],
    st.Player: [{"life": 3}, {"mana": "", "lands_played": 1}],
    st.StackItem: [{"resume_at": 2}, {"chosen": ("P3",)}],
}


@pytest.mark.parametrize("old", SAMPLES, ids=lambda o: type(o).__name__)
def test_the_same_record_as_dataclasses_replace(old: Any) -> None:
    fast = replacer(type(old))
    assert fast.__name__ == f"replace_{type(old).__name__}"  # the fast one, not the fallback
    for changes in [{}, *CHANGES[type(old)]]:
        new = fast(old, **changes)
        want = replace(old, **changes)
        assert type(new) is type(want)
        assert new == want and hash(new) == hash(want) and repr(new) == repr(want)
        assert [getattr(new, f.name) for f in fields(want)] == \
            [getattr(want, f.name) for f in fields(want)]
        assert new is not old and old == replace(old)  # the old record is unchanged
        with pytest.raises(FrozenInstanceError):
            new.__setattr__(fields(want)[0].name, None)
    with pytest.raises(AttributeError):
        fast(old, no_such_field=1)


def test_records_it_cannot_stand_in_for_get_dataclasses_replace() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(frozen=True, slots=True)
    class PostInit:
        a: int

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("negative")

    for cls in (NoSlots, PostInit):
        fast = replacer(cls)
        assert fast.__name__ == "_plain_replace"
        assert fast(cls(1), a=2) == cls(2)
    with pytest.raises(ValueError, match="negative"):
        replacer(PostInit)(PostInit(1), a=-1)
    with pytest.raises(TypeError):
        replacer(int)
