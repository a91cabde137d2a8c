"""The environment variables the code reads, found in its syntax tree (not by searching
its text): for the deployment's drift tests.

A read is one of
- `os.environ.get(NAME[, default])`, `os.getenv(NAME[, default])`, `os.environ[NAME]`, and
  `.get(NAME, ...)` on any expression naming `environ` (`(os.environ if e is None else
  e).get(...)`);
- a call of a helper that reads the variable named by one of its parameters
  (`_int("ARBITER_MAX_BATCH", 200)` where `_int(name, default)` does
  `os.environ.get(name)`);
- a field of a pydantic-settings class (`BaseSettings`): its `validation_alias` or
  `alias`, else the class's `env_prefix` and the field's name in capitals.

NAME is a string literal or a module-level string constant (`ANCHOR_KEY_ENV: Final =
"ARBITER_ANCHOR_KEY"`, imported elsewhere by that name). Each read records whether the
code has a value of its own when the variable is unset: a non-empty default argument,
`get(NAME) or <value>`, a helper given its default, a settings field with a default.
`os.environ[NAME]`, a settings field without default and a `get` with no default have
none; nor has an empty default (`""`, `None`): unset and empty are the same to the code.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Read:
    name: str
    where: str  # path:line
    has_default: bool


def _is_environ(node: ast.AST) -> bool:
    return any((isinstance(n, ast.Name) and n.id == "environ")
               or (isinstance(n, ast.Attribute) and n.attr == "environ")
               for n in ast.walk(node))


def _string(node: ast.AST | None, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _empty(node: ast.AST | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and node.value in ("", None))


def _module_constants(tree: ast.Module) -> dict[str, str]:
    out = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        if (isinstance(target, ast.Name) and isinstance(value, ast.Constant)
                and isinstance(value.value, str)):
            out[target.id] = value.value
    return out


def _env_key(call: ast.Call) -> ast.AST | None:
    """The key argument of an environment read `call`, if it is one."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr == "getenv" and call.args:
        return call.args[0]
    if isinstance(f, ast.Attribute) and f.attr == "get" and _is_environ(f.value) and call.args:
        return call.args[0]
    return None


def _env_default(call: ast.Call, parent: ast.AST | None) -> bool:
    if len(call.args) > 1 and not _empty(call.args[1]):
        return True
    # `os.environ.get(NAME) or value` (not `or os.environ.get(OTHER)`: no value either)
    if not (isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.Or)
            and parent.values[0] is call):
        return False
    last = parent.values[-1]
    return not _empty(last) and not (isinstance(last, ast.Call) and _env_key(last) is not None)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _helpers(tree: ast.Module) -> dict[str, int]:
    """Functions that read the variable named by a parameter: name -> its position."""
    out = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        params = [a.arg for a in fn.args.args]
        for node in ast.walk(fn):
            key = _env_key(node) if isinstance(node, ast.Call) else None
            if isinstance(key, ast.Name) and key.id in params:
                out[fn.name] = params.index(key.id)
    return out


def _settings_reads(tree: ast.Module, rel: str, constants: dict[str, str]) -> list[Read]:
    out = []
    for cls in ast.walk(tree):
        if not (isinstance(cls, ast.ClassDef) and any(
                (isinstance(b, ast.Name) and b.id == "BaseSettings")
                or (isinstance(b, ast.Attribute) and b.attr == "BaseSettings")
                for b in cls.bases)):
            continue
        prefix = ""
        for stmt in cls.body:
            if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
                    and any(isinstance(t, ast.Name) and t.id == "model_config"
                            for t in stmt.targets)):
                for kw in stmt.value.keywords:
                    if kw.arg == "env_prefix":
                        prefix = _string(kw.value, constants) or ""
        for stmt in cls.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            field = stmt.target.id
            if field == "model_config":
                continue
            name, has_default = f"{prefix}{field}".upper(), stmt.value is not None
            value = stmt.value
            if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                    and value.func.id == "Field"):
                kws = {kw.arg: kw.value for kw in value.keywords}
                alias = _string(kws.get("validation_alias") or kws.get("alias"), constants)
                name = alias or name
                default = kws.get("default", value.args[0] if value.args else None)
                has_default = "default_factory" in kws or not (
                    _empty(default) or (isinstance(default, ast.Constant)
                                        and default.value is Ellipsis))
            elif value is not None:
                has_default = not _empty(value)
            out.append(Read(name, f"{rel}:{stmt.lineno}", has_default))
    return out


def reads(files: Iterable[Path], root: Path) -> list[Read]:
    trees = {p: ast.parse(p.read_text(), str(p)) for p in files}
    constants: dict[str, str] = {}
    helpers: dict[str, int] = {}
    for tree in trees.values():
        constants.update(_module_constants(tree))
        helpers.update(_helpers(tree))
    out: list[Read] = []
    for path, tree in trees.items():
        rel = str(path.relative_to(root))
        parents = _parents(tree)
        out += _settings_reads(tree, rel, constants)
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Subscript) and _is_environ(node.value):
                name = _string(node.slice, constants)
                if name and isinstance(node.ctx, ast.Load):
                    out.append(Read(name, where, False))
            if not isinstance(node, ast.Call):
                continue
            key = _env_key(node)
            if key is not None:
                name = _string(key, constants)
                if name:
                    out.append(Read(name, where, _env_default(node, parents.get(node))))
                continue
            fname = (node.func.id if isinstance(node.func, ast.Name)
                     else node.func.attr if isinstance(node.func, ast.Attribute) else None)
            if fname in helpers and len(node.args) > helpers[fname]:
                name = _string(node.args[helpers[fname]], constants)
                if name:
                    out.append(Read(name, where, len(node.args) > helpers[fname] + 1))
    return out
