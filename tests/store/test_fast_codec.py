"""The trusted (fast) event decoder against pydantic's validating path.

Real bot games of three variants are stored in SQLite; every stored body is decoded both
ways and the results must be the same objects (class, fields in order, fields set, nested
models), replay through either path must give the same state hash as the live game, and
the fast path must not have fallen back to validation to get there. Generated events of
every kind (hypothesis) cover the kinds bots rarely make. No timing here: the speed is
`make bench`'s business (benchmarks/store.py).
"""

from __future__ import annotations

import copy
import pickle
import types
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined

from arbiter_core.kernel.events import EVENT_TYPES, Event, StateCheckpointed
from arbiter_core.kernel.evolve import apply, empty_state
from arbiter_core.kernel.hashing import state_hash
from arbiter_runtime import codec, fastcodec
from arbiter_runtime.codec import from_bodies, to_new_event, validate_bodies
from arbiter_runtime.play import GameSummary, play_bot_game
from arbiter_runtime.session import GameSession
from arbiter_store import NewEvent, Upcasters, open_store
from arbiter_store.codec import encode_object

GAMES = [("free_for_all", 4, 3), ("two_headed_giant", 4, 2), ("grand_melee", 6, 1)]
MODELS: list[type[BaseModel]] = list(EVENT_TYPES.table.values())


def same(fast: Any, slow: Any) -> None:
    """Equal as pydantic sees it, and built the same way underneath."""
    assert type(fast) is type(slow)
    if isinstance(slow, BaseModel):
        assert fast == slow
        assert list(fast.__dict__) == list(slow.__dict__)
        assert fast.model_fields_set == slow.model_fields_set
        assert fast.__pydantic_extra__ == slow.__pydantic_extra__
        assert fast.__pydantic_private__ == slow.__pydantic_private__
        for name in slow.__dict__:
            same(fast.__dict__[name], slow.__dict__[name])
    elif isinstance(slow, list | tuple):
        assert len(fast) == len(slow)
        for a, b in zip(fast, slow, strict=True):
            same(a, b)
    elif isinstance(slow, dict):
        assert list(fast) == list(slow)
        for k in slow:
            same(fast[k], slow[k])
    else:
        assert fast == slow


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, GameSummary]]:
    db = tmp_path_factory.mktemp("fast") / "games.sqlite"
    with open_store(str(db)) as store:
        summaries = {f"{variant}-{n}": play_bot_game(store, f"{variant}-{n}", n, seed,
                                                     variant=variant)
                     for variant, n, seed in GAMES}
    return db, summaries


@contextmanager
def fast_only() -> Iterator[None]:
    """The validating path may not be used inside this block."""
    def refuse(body: Any, where: str = "") -> Event:
        raise AssertionError(f"the fast path fell back to validation for {body[:2]}")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codec, "validate_body", refuse)
        yield


def test_every_event_kind_has_a_mirror() -> None:
    assert fastcodec.SKIPPED == {}
    assert set(fastcodec.MIRRORS) == {m.model_fields["type"].default for m in MODELS}


def test_real_games_decode_to_the_same_events(
        played: tuple[Path, dict[str, GameSummary]]) -> None:
    db, summaries = played
    kinds: set[str] = set()
    with open_store(str(db)) as store:
        bodies = {g: store.read_bodies(g) for g in summaries}
    slow = {g: list(validate_bodies(b)) for g, b in bodies.items()}
    with fast_only():
        fast = {g: list(from_bodies(b)) for g, b in bodies.items()}
    for g in summaries:
        assert len(fast[g]) == len(slow[g]) == summaries[g].events
        for a, b in zip(fast[g], slow[g], strict=True):
            same(a, b)
            kinds.add(b.type)
    # the games are not trivial: turns, priority, combat, spells, triggers, game end
    assert {"GameStarted", "CardsPut", "PriorityGiven", "WorkQueued", "AttackersDeclared",
            "BlockersDeclared", "DamageDealt", "SpellCast", "StackItemResolved",
            "ObjectMoved", "StateCheckpointed", "GameEnded"} <= kinds
    assert len(kinds) >= 30, sorted(kinds)


def test_replay_gives_the_live_state_hash(
        played: tuple[Path, dict[str, GameSummary]]) -> None:
    db, summaries = played
    with open_store(str(db)) as store:
        for g, summary in summaries.items():
            bodies = store.read_bodies(g)
            validated = empty_state()
            for event in validate_bodies(bodies):
                apply(validated, event)
            assert state_hash(validated) == summary.state_hash
            with fast_only():
                fast = empty_state()
                for event in from_bodies(bodies):
                    apply(fast, event)
                assert state_hash(fast) == summary.state_hash
                # the shell's load: from the latest snapshot (play saves them) + the tail
                assert store.load_snapshot(g) is not None
                for to in (summary.events // 2, summary.events):
                    loaded = GameSession.load(store, g, to).state
                    plain = GameSession.load(store, g, to, use_snapshot=False).state
                    assert loaded.version == plain.version == to
                    assert state_hash(loaded) == state_hash(plain)
                assert state_hash(GameSession.load(store, g).state) == summary.state_hash


def test_decoded_events_copy_pickle_and_dump_like_validated_ones() -> None:
    """The fast path shares one read-only `model_fields_set` per model (FieldsSet)."""
    body = ("PriorityGiven", 1, b'{"marker":1,"player":"P1"}', "117.3a")
    fast: Any
    (fast,), (slow,) = from_bodies([body]), validate_bodies([body])
    assert isinstance(fast.model_fields_set, fastcodec.FieldsSet)
    assert fast.model_dump(exclude_unset=True) == slow.model_dump(exclude_unset=True)
    moved = fast.model_copy(update={"player": "P2"})
    assert moved == slow.model_copy(update={"player": "P2"}) and moved.player == "P2"
    assert type(moved.model_fields_set) is set  # a copy is the copier's own
    for copied in (copy.copy(fast), copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        same(copied, slow)
        assert type(copied.model_fields_set) is set
    shared = fast.model_fields_set
    for change in (lambda: shared.add("x"), lambda: shared.discard("v"), shared.clear,
                   lambda: shared.update({"x"}), shared.pop):
        with pytest.raises(TypeError):
            change()
    with pytest.raises(TypeError):
        shared |= {"x"}
    assert shared == {"v", "rule", "type", "marker", "player"}


def test_a_stored_v1_checkpoint_is_upcast_to_v2(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "u.sqlite")) as store:
        store.append("old", 0, [
            NewEvent("StateCheckpointed", 1, {"marker": 1, "state_hash": "ab" * 32},
                     rule="500.1"),
            NewEvent("StateCheckpointed", 2, {"marker": 1, "state_hash": "cd" * 32,
                                              "algorithm": "text-sha256"}, rule="500.1"),
            NewEvent("StateCheckpointed", 1, {"marker": 2, "state_hash": "ef" * 32},
                     rule="500.1")])
        bodies = store.read_bodies("old")
    assert [b[1] for b in bodies] == [1, 2, 1]
    events: list[Any] = list(from_bodies(bodies))
    for a, b in zip(events, validate_bodies(bodies), strict=True):
        same(a, b)
    assert all(isinstance(e, StateCheckpointed) and e.v == 2 for e in events)
    assert [e.algorithm for e in events] == ["json-sha256", "text-sha256", "json-sha256"]


def test_upcasters_apply_even_where_the_mirror_could_decode_the_old_shape(
        monkeypatch: pytest.MonkeyPatch) -> None:
    upcasters = Upcasters()
    upcasters.register("PriorityGiven", 1, lambda p: {**p, "player": p["player"] + "-v2"})
    monkeypatch.setattr(codec, "UPCASTERS", upcasters)
    bodies = [("PriorityGiven", 1, b'{"marker":1,"player":"P1"}', "117.3a"),
              ("PriorityGiven", 2, b'{"marker":1,"player":"P2"}', "117.3a")]
    events: list[Any] = list(from_bodies(bodies))
    for a, b in zip(events, validate_bodies(bodies), strict=True):
        same(a, b)
    assert [(e.v, e.player) for e in events] == [(2, "P1-v2"), (2, "P2")]


def test_a_payload_the_mirror_refuses_gets_the_validating_path() -> None:
    ok = ("PriorityGiven", 1, b'{"marker":1,"player":"P1"}', "117.3a")
    lax = ("PriorityGiven", 1, b'{"marker":"1","player":"P1"}', "117.3a")  # pydantic: lax
    (a,) = from_bodies([lax])
    same(a, next(validate_bodies([ok])))
    for bad in [("PriorityGiven", 1, b'{"marker":"x","player":"P1"}', "117.3a"),
                ("PriorityGiven", 1, b'{"marker":1,"player":"P1","extra":0}', "117.3a"),
                ("PriorityGiven", 1, b'{"marker":1}', "117.3a"),
                ("PriorityGiven", 1, b'{"marker":1,"player":"P1"}', None),
                ("NoSuchEvent", 1, b'{}', "117.3a")]:
        with pytest.raises(ValidationError):
            list(validate_bodies([bad]))
        with pytest.raises(ValidationError):
            list(from_bodies([bad]))


def test_fields_a_payload_lacks_get_their_defaults() -> None:
    """Payloads written before a field existed: defaults filled in, and not counted as
    set (pydantic's `model_fields_set`)."""
    bodies = [("WorkQueued", 1, b'{"kind":"check_sba","marker":2}', "704.3"),
              ("WorkQueued", 1, b'{"kind":"check_sba","marker":2,"then_priority":"P2"}',
               "704.3"),
              ("DecisionRequested", 1, b'{"kind":"discard","marker":1,"player":"P1"}',
               "514.1"),
              ("GameEnded", 1, b'{"winners":["P1"]}', "104.2a")]
    fast: list[Any] = list(from_bodies(bodies))
    for a, b in zip(fast, validate_bodies(bodies), strict=True):
        same(a, b)
    assert "then_priority" not in fast[0].model_fields_set
    assert fast[2].options == [] and fast[2].options is not fast[2].choices


# ------------------------------------------------------------------ generated events

def values_of(tp: Any) -> st.SearchStrategy[Any]:
    """Values of a field's annotation, as the engine could make them."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return models(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is int:
        return st.integers(-5, 10**12)
    if tp is str:
        return st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=8)
    if tp is bool:
        return st.booleans()
    if tp is type(None):
        return st.none()
    if origin is Literal:
        return st.sampled_from(args)
    if origin is list:
        return st.lists(values_of(args[0]), max_size=3)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(values_of(args[0]), max_size=3).map(tuple)
        return st.tuples(*(values_of(a) for a in args))
    if origin is dict:
        return st.dictionaries(values_of(args[0]), values_of(args[1]), max_size=3)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(values_of(a) for a in args))
    raise AssertionError(f"no strategy for {tp!r}")


def models(model: type[BaseModel]) -> st.SearchStrategy[BaseModel]:
    """Instances of `model`; fields with defaults are sometimes left out."""
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for name, info in model.model_fields.items():
        if name in ("type", "v"):
            continue
        value = values_of(info.annotation)
        if info.default is not PydanticUndefined or info.default_factory is not None:
            value = st.one_of(st.just(PydanticUndefined), value)
        fields[name] = value

    def make(values: dict[str, Any]) -> BaseModel:
        return model(**{k: v for k, v in values.items() if v is not PydanticUndefined})
    return st.fixed_dictionaries(fields).map(make)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_events_of_every_kind(model: type[BaseModel], data: st.DataObject) -> None:
    event = data.draw(models(model))
    stored = to_new_event(typing.cast(Event, event))
    payload = stored.payload
    if data.draw(st.booleans()):  # an older payload: leave out fields with defaults
        payload = {k: v for k, v in payload.items()
                   if k in event.model_fields_set or model.model_fields[k].is_required()}
    body = (stored.type, stored.schema_version, encode_object(payload), stored.rule)
    (fast,) = from_bodies([body])
    same(fast, next(validate_bodies([body])))
    assert fast == event  # the event that was stored
