"""Reading a scenario file as hostile input: bounded size, depth, integers and alias
expansion; UTF-8 only; no duplicate keys. Each problem is a `LoadError` naming where it
is (the file's line and column, or the key) and what is wrong, never a traceback, and
the cost of a file is bounded by MAX_BYTES whatever it holds.

The format (../shared/spec/scenarios.md, docs/scenarios.md) is YAML; legal files use
none of what is refused here: a scenario is a few kilobytes, a handful of levels deep,
with small integers. YAML anchors and aliases stay legal, but the document they expand
to is bounded (MAX_NODES), so an alias bomb is refused before anything walks it.
"""

from __future__ import annotations

import codecs
from typing import Any, Final

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "MAX_NODES", "LoadError", "read_yaml"]

MAX_BYTES: Final = 256 * 1024
MAX_DEPTH: Final = 32
MAX_NODES: Final = 100_000
MAX_INT_DIGITS: Final = 18


class LoadError(ValueError):
    """Where (``key``: "(file)", "(yaml) line L column C" or a key) and what is wrong."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key, self.problem = key, problem


def decode_text(data: bytes) -> str:
    """The file's text: UTF-8 (a UTF-8 byte-order mark is allowed), nothing else."""
    if len(data) > MAX_BYTES:
        raise LoadError("(file)", f"{len(data)} bytes; a scenario file is at most "
                                  f"{MAX_BYTES} bytes")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE,
                        codecs.BOM_UTF32_BE)):
        raise LoadError("(file)", "the file is UTF-16 or UTF-32 text; scenarios are UTF-8")
    if b"\x00" in data:
        raise LoadError("(file)", "the file holds NUL bytes: binary data, or UTF-16 text "
                                  "without a byte-order mark; scenarios are UTF-8 text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LoadError("(file)", f"not UTF-8 text (byte {e.start}: {e.reason})") from None


def _where(node: Node | None) -> str:
    if node is None or node.start_mark is None:
        return "(yaml)"
    return f"(yaml) line {node.start_mark.line + 1} column {node.start_mark.column + 1}"


class _Loader(yaml.SafeLoader):
    """SafeLoader with the bounds: depth while composing (the composer recurses), the
    expanded size before constructing, integer length and duplicate keys while
    constructing."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise LoadError(_where(parent), f"nested more than {MAX_DEPTH} levels deep")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
                seen.add(key)
            except TypeError:
                raise LoadError(_where(key_node), "a mapping key must be a plain value, "
                                                  "not a list or mapping") from None
            if duplicate:
                raise LoadError(_where(key_node), f"duplicate key {key!r}")
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: ScalarNode) -> int:
        digits = str(node.value).replace("_", "").lstrip("+-")
        if len(digits) > MAX_INT_DIGITS:
            raise LoadError(_where(node), f"an integer of {len(digits)} digits; at most "
                                          f"{MAX_INT_DIGITS}")
        return super().construct_yaml_int(node)


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


def _expanded_size(root: Node) -> int:
    """Nodes in the document with every alias expanded (memoised: aliases share nodes),
    stopping as soon as MAX_NODES is passed."""
    sizes: dict[int, int] = {}
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        children: list[Node] = []
        if isinstance(node, SequenceNode):
            children = list(node.value)
        elif isinstance(node, MappingNode):
            children = [part for pair in node.value for part in pair]
        if not children_done and any(id(child) not in sizes for child in children):
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        size = 1 + sum(sizes.get(id(child), 0) for child in children)
        if size > MAX_NODES:
            raise LoadError(_where(node), f"the document expands to more than {MAX_NODES} "
                                          "values (YAML aliases repeating large parts)")
        sizes[id(node)] = size
    return sizes[id(root)]


def read_yaml(data: bytes) -> Any:
    """The one YAML document in ``data``, within the bounds (else LoadError)."""
    loader = _Loader(decode_text(data))
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        _expanded_size(root)
        return loader.construct_document(root)
    except LoadError:
        raise
    except yaml.YAMLError as e:
        raise LoadError("(yaml)", " ".join(str(e).split())) from None
    except RecursionError:  # pragma: no cover - bounded by MAX_DEPTH
        raise LoadError("(yaml)", "nested too deeply") from None
    finally:
        loader.dispose()
