"""CR 704.5d on the pure core: a token in any zone other than the battlefield ceases to
exist at the next state-based action check - a library included (111.8).

Krenko, Mob Boss makes a Goblin token; then the token is moved to a zone by an
`ObjectMoved` event, as an effect would move it (no card in the pool puts a permanent
into a library; Unsummon to a hand is the scenario sba/token-ceases-to-exist). The next
check removes it from that zone; the other cards there stay.
"""

from __future__ import annotations

import pytest

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import (
    ActivateAbility,
    Command,
    PassPriority,
    PositionPlayer,
    RunEngineWork,
    SetUpPosition,
)
from arbiter_core.kernel.decide import decide
from arbiter_core.kernel.events import CardSetup
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.shell_loop import owed_marker
from arbiter_core.kernel.state import GameState


def _do(s: GameState, command: Command) -> list[ev.Event]:
    out = decide(s, command)
    for e in out:
        apply(s, e)
    while (m := owed_marker(s)) is not None:
        for e in decide(s, RunEngineWork(marker=m)):
            apply(s, e)
            out.append(e)
    return out


def _with_token() -> tuple[GameState, int]:
    s = empty_state()
    zones: dict[str, list[CardSetup]] = {
        "battlefield": [CardSetup(name="Krenko, Mob Boss"), CardSetup(name="Mountain")],
        "hand": [CardSetup(name="Shock")], "graveyard": [CardSetup(name="Shock")],
        "exile": [CardSetup(name="Shock")], "command": [CardSetup(name="Shock")],
        "library": [CardSetup(name="Mountain") for _ in range(5)]}
    _do(s, SetUpPosition(game_id="t", variant="two_player", seed=1, turn=3, active="Alice",
                         step="precombat_main",
                         players=[PositionPlayer(name="Alice", zones=zones),
                                  PositionPlayer(name="Bob", zones={"library": [
                                      CardSetup(name="Island") for _ in range(5)]})]))
    krenko = next(o.id for o in s.objects.values() if o.name == "Krenko, Mob Boss")
    _do(s, ActivateAbility(player="Alice", source=krenko, ability=0))
    _do(s, PassPriority(player="Alice"))
    _do(s, PassPriority(player="Bob"))
    tokens = [o.id for o in s.permanents() if o.token is not None]
    assert len(tokens) == 1
    return s, tokens[0]


@pytest.mark.parametrize("zone", ["library", "hand", "graveyard", "exile", "command"])
def test_a_token_in_any_other_zone_ceases_to_exist(zone: str) -> None:
    s, token = _with_token()
    before = list(s.zone("Alice", zone))
    new_id = s.next_id
    apply(s, ev.ObjectMoved(obj=token, new_id=new_id, to_zone=zone,
                            to_player="Alice", rule="608.2c"))
    assert new_id in s.zone("Alice", zone) and s.objects[new_id].token is not None
    events = _do(s, PassPriority(player="Alice"))  # Bob would receive priority: a check
    ceased = [e for e in events if isinstance(e, ev.ObjectCeasedToExist)]
    assert [(e.obj, e.rule) for e in ceased] == [(new_id, "704.5d")]
    assert new_id not in s.objects
    assert s.zone("Alice", zone) == before  # every other card is still there


def test_a_library_without_tokens_is_left_alone() -> None:
    s, _ = _with_token()
    events = _do(s, PassPriority(player="Alice"))
    assert not [e for e in events if isinstance(e, ev.ObjectCeasedToExist)]
    assert len(s.zone("Alice", "library")) == 5
