"""The trusted decoder: events read back from our own store, fast (msgspec).

Every stored event was a validated pydantic event when `decide` made it, and the hash
chain guards the stored bytes, so reading it back need not validate it again. For each
event model this module generates a msgspec Struct that mirrors it (from the model's own
fields, so it follows `events.py` with no second list to keep in step); msgspec decodes
a stored payload into that Struct, and the pydantic event is built from the Struct's
fields without validation, as `BaseModel.model_construct` does: the same `__dict__` in
field order, defaults for fields the payload lacks (older payloads), the same
`model_fields_set` (one read-only set per model, shared: `FieldsSet`). Nested models (a
token's characteristics, a card put at setup) are mirrored and built the same way.

What the mirror can't decode (a payload of another shape, a null rule), events that need
upcasting, and every model it can't mirror exactly (validators, aliases, constraints,
private attributes) go to the validating pydantic path, which decodes them or raises the
error it always raised.

Untrusted input (commands, anything from the network) keeps to the validating path:
`arbiter_core.kernel.events.event_from_json`, `arbiter_runtime.codec.validate_bodies`.
"""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Literal, Self, Union

import msgspec
from msgspec import UNSET, UnsetType
from msgspec.structs import asdict
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from arbiter_core.kernel.events import EVENT_TYPES, Event
from arbiter_runtime import corrections as _corrections  # noqa: F401 (registers GameCorrected)
from arbiter_store import Upcasters

#: The stored-event codec on the replay path, named in `make bench`.
CODEC_NAME = "msgspec Structs mirroring the pydantic events, not re-validated"

Body = tuple[str, int, bytes, str | None]
Convert = Callable[[Any], Any]

_ENVELOPE = ("v", "rule", "type")  # columns of the stored event, not in its payload
_SIMPLE = (int, str, bool, float, type(None))
_CONFIG_OK = {"frozen", "extra", "title"}
_new = object.__new__


def _slot_setter(name: str) -> Callable[[Any, Any], None]:
    """The setter of BaseModel's slot `name` (`__dict__` and pydantic's own three): its
    descriptor's `__set__`, a little faster than `object.__setattr__` by name."""
    descriptor = BaseModel.__dict__.get(name)
    if descriptor is not None and hasattr(descriptor, "__set__"):
        return descriptor.__set__  # type: ignore[no-any-return]
    return lambda obj, value: object.__setattr__(obj, name, value)


_set_dict = _slot_setter("__dict__")
_set_fields_set = _slot_setter("__pydantic_fields_set__")
_set_extra = _slot_setter("__pydantic_extra__")
_set_private = _slot_setter("__pydantic_private__")


class Unsupported(TypeError):
    """The model can't be mirrored exactly; its events take the validating path."""


class FieldsSet(set[str]):
    """`model_fields_set` of the events decoded with all their fields, one per model and
    shared by its events (a set each costs more than the rest of building the event,
    mostly in the garbage collector's time): read-only, so that no event can change
    another's. A copy is a plain set (pydantic's `model_copy(update=...)` copies, then
    adds), and so is a pickled one."""

    __slots__ = ()

    def _read_only(self) -> TypeError:
        return TypeError("a decoded event's fields set is shared: copy it to change it")

    def add(self, element: str) -> None:
        raise self._read_only()

    def discard(self, element: object) -> None:
        raise self._read_only()

    def remove(self, element: str) -> None:
        raise self._read_only()

    def pop(self) -> str:
        raise self._read_only()

    def clear(self) -> None:
        raise self._read_only()

    def update(self, *s: Iterable[str]) -> None:
        raise self._read_only()

    def difference_update(self, *s: Iterable[Any]) -> None:
        raise self._read_only()

    def intersection_update(self, *s: Iterable[Any]) -> None:
        raise self._read_only()

    def symmetric_difference_update(self, s: Iterable[str]) -> None:
        raise self._read_only()

    def __ior__(self, value: AbstractSet[str]) -> Self:  # type: ignore[override,misc]
        raise self._read_only()

    def __iand__(self, value: AbstractSet[object]) -> Self:
        raise self._read_only()

    def __isub__(self, value: AbstractSet[object]) -> Self:
        raise self._read_only()

    def __ixor__(self, value: AbstractSet[str]) -> Self:  # type: ignore[override,misc]
        raise self._read_only()

    def __copy__(self) -> set[str]:
        return set(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> set[str]:
        return set(self)

    def __reduce__(self) -> tuple[type[set[str]], tuple[list[str]]]:
        return set, (list(self),)


@dataclass(frozen=True, slots=True)
class Mirror:
    """How one model is decoded: its Struct, the Struct's JSON decoder, the model's
    field names, the fields holding nested models (with their conversion), and the
    fields with defaults (UNSET when the payload lacks them, then filled in)."""

    model: type[BaseModel]
    struct: type[msgspec.Struct]
    decode: Callable[[bytes], Any]
    fields: FieldsSet
    convert: tuple[tuple[str, Convert], ...]
    defaults: tuple[tuple[str, Callable[[], Any]], ...]


def build(model: type[BaseModel], values: dict[str, Any], fields_set: set[str]) -> Any:
    """The model instance holding `values` (its fields in order), unvalidated."""
    obj = _new(model)
    _set_dict(obj, values)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


def fill_defaults(values: dict[str, Any], m: Mirror) -> set[str]:
    """Give the fields the payload lacks their defaults, as pydantic does (a fresh copy of
    a mutable default); return the fields that were set."""
    fields_set = set(m.fields)
    for name, default in m.defaults:
        if values[name] is UNSET:
            values[name] = default()
            fields_set.discard(name)
    return fields_set


def _check_model(model: type[BaseModel]) -> None:
    deco = model.__pydantic_decorators__
    if deco.validators or deco.field_validators or deco.root_validators \
            or deco.model_validators:
        raise Unsupported(f"{model.__name__} has validators")
    if model.__pydantic_post_init__ is not None or model.__private_attributes__:
        raise Unsupported(f"{model.__name__} has a post-init or private attributes")
    if model.__pydantic_root_model__ or set(model.model_config) - _CONFIG_OK \
            or model.model_config.get("extra") == "allow":
        raise Unsupported(f"{model.__name__} has config {model.model_config}")


def _default(model: type[BaseModel], name: str, field: FieldInfo) -> Callable[[], Any]:
    """The field's default as pydantic gives it: the factory's result, or the default
    (a deep copy of a mutable one)."""
    if field.default_factory is not None:
        if field.default_factory_takes_validated_data:
            raise Unsupported(f"{model.__name__}.{name}: its default factory takes data")
        return field.default_factory  # type: ignore[return-value]
    value = field.default
    if isinstance(value, _SIMPLE):
        return lambda: value
    return lambda: copy.deepcopy(value)


_Cache = dict[type[BaseModel], tuple[type[msgspec.Struct], Convert]]


def mirror(model: type[BaseModel], cache: _Cache, envelope: bool) -> Mirror:
    """The Struct mirroring `model`. With `envelope`, the event's `v`, `rule` and `type`
    get placeholders: they are columns, filled in from the stored row."""
    _check_model(model)
    spec: list[tuple[str, Any, Any]] = []
    convert: list[tuple[str, Convert]] = []
    defaults: list[tuple[str, Callable[[], Any]]] = []
    for name, field in model.model_fields.items():
        if field.metadata or field.alias or field.validation_alias or field.discriminator:
            raise Unsupported(f"{model.__name__}.{name} has constraints or an alias")
        tp, conv = _translate(field.annotation, cache)
        if conv is not None:
            convert.append((name, conv))
        if envelope and name in _ENVELOPE:
            spec.append((name, tp, "" if name == "rule" else field.default))
        elif field.is_required():
            spec.append((name, tp, msgspec.NODEFAULT))
        else:
            spec.append((name, Union[tp, UnsetType], UNSET))  # noqa: UP007
            defaults.append((name, _default(model, name, field)))
    # gc=False: a Struct of JSON data can't be part of a reference cycle
    struct = msgspec.defstruct(f"{model.__name__}Mirror", spec, kw_only=True, gc=False,
                               forbid_unknown_fields=model.model_config.get("extra") == "forbid")
    return Mirror(model, struct, msgspec.json.Decoder(struct).decode,
                  FieldsSet(model.model_fields), tuple(convert), tuple(defaults))


def _nested(model: type[BaseModel], cache: _Cache) -> tuple[type[msgspec.Struct], Convert]:
    """A nested model's Struct, and how a decoded one becomes the model."""
    if model not in cache:
        m = mirror(model, cache, envelope=False)

        def to_model(s: Any) -> Any:
            values = asdict(s)
            fields_set = fill_defaults(values, m) if m.defaults and UNSET in values.values() \
                else m.fields
            for name, conv in m.convert:
                values[name] = conv(values[name])
            return build(model, values, fields_set)

        cache[model] = (m.struct, to_model)
    return cache[model]


def _translate(tp: Any, cache: _Cache) -> tuple[Any, Convert | None]:
    """The msgspec type for a pydantic field's annotation, and how to convert what msgspec
    decodes into what pydantic makes (None: nothing to convert)."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _nested(tp, cache)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if (origin is None and tp in _SIMPLE) or origin is Literal:
        return tp, None
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        item, c = _translate(args[0], cache)
        if origin is list:
            return list[item], None if c is None else (lambda xs: [c(x) for x in xs])  # type: ignore[valid-type]
        return tuple[item, ...], None if c is None else (  # type: ignore[valid-type]
            lambda xs: tuple(c(x) for x in xs))
    parts = [_translate(a, cache) for a in args]
    convs = [c for _, c in parts if c is not None]
    if origin in (Union, types.UnionType):
        union = Union[tuple(t for t, _ in parts)]  # type: ignore[valid-type]  # noqa: UP007
        if not convs:
            return union, None
        if len(parts) == 2 and len(convs) == 1 and type(None) in args:
            only = convs[0]
            return union, lambda x: None if x is None else only(x)
    elif convs:
        pass  # a nested model inside a fixed tuple or a dict: not mirrored
    elif origin is tuple:
        return tuple[tuple(t for t, _ in parts)], None  # type: ignore[misc]
    elif origin is dict:
        return dict[parts[0][0], parts[1][0]], None  # type: ignore[misc]
    raise Unsupported(f"type {tp!r}")


_MODELS: _Cache = {}  # nested models' mirrors, shared by the events and `from_builtins`


def _event_mirrors() -> tuple[dict[str, Mirror], dict[str, str]]:
    """A mirror per event type; the types that can't be mirrored, and why."""
    out: dict[str, Mirror] = {}
    skipped: dict[str, str] = {}
    for name, model in EVENT_TYPES.table.items():
        try:
            out[name] = mirror(model, _MODELS, envelope=True)
        except (Unsupported, TypeError) as e:  # TypeError: msgspec can't take the type
            skipped[name] = str(e)
    return out, skipped


MIRRORS, SKIPPED = _event_mirrors()

M = typing.TypeVar("M", bound=BaseModel)


def from_builtins(model: type[M], data: Any) -> M:
    """A model from trusted JSON data (a snapshot's token): msgspec converts the data
    into the model's mirror, unvalidated as above; a model that can't be mirrored is
    validated. Raises ValueError on data of another shape."""
    try:
        struct, to_model = _nested(model, _MODELS)
    except (Unsupported, TypeError):
        return model.model_validate(data)
    return to_model(msgspec.convert(data, struct))  # type: ignore[no-any-return]


_Plan = tuple[int, type[BaseModel], Callable[[bytes], Any], FieldsSet,
              tuple[tuple[str, Convert], ...], Mirror | None]


def decode_trusted(bodies: Iterable[Body], upcasters: Upcasters,
                   validated: Callable[[Body], Event]) -> Iterator[Event]:
    """Decode our own stored (type, schema_version, payload, rule) bodies. Bodies that
    need upcasting, or that the mirror can't decode, go to `validated`."""
    plans: dict[str, _Plan] = {}  # per type: the version known to need no upcasting
    for body in bodies:
        type_, version, payload, rule = body
        plan = plans.get(type_)
        if plan is None or plan[0] != version:
            m = MIRRORS.get(type_)
            if m is None or (type_, version) in upcasters:
                yield validated(body)
                continue
            plan = plans[type_] = (version, m.model, m.decode, m.fields, m.convert,
                                   m if m.defaults else None)
        _, model, decode, fields, convert, with_defaults = plan
        try:
            values = asdict(decode(payload))
        except msgspec.MsgspecError:
            yield validated(body)
            continue
        if rule is None:
            yield validated(body)
            continue
        values["v"] = version
        values["rule"] = rule
        if with_defaults is not None and UNSET in values.values():
            fields_set = fill_defaults(values, with_defaults)
        else:
            fields_set = fields
        for name, conv in convert:
            values[name] = conv(values[name])
        event: Any = _new(model)
        _set_dict(event, values)
        _set_fields_set(event, fields_set)
        _set_extra(event, None)
        _set_private(event, None)
        yield event
