"""`arbiter diff --from N --to M`: what changed between the state after event N and the
state after event M of a stored game.

Players: life, poison, mana pool, lands played, lost/left/won/drew. Objects, followed by
their physical card number (`Obj.card`, stable across zone changes, CR 400.7): zone
changes (with the old and new object ids), objects that appeared or are gone, and for a
permanent that stayed: tapped, damage, counters, attachment, controller. Turn markers:
turn, active player, step, what is pending (priority, engine work, a decision), the
stack (items added or gone), combat. Game: over or not, turns taken, waiting triggers and
continuous effects. `--json` prints the same as one JSON object.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from arbiter_cli.audit import AuditError, guarded, load_log, states_at, wide_console
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj, Priority, Work

PLAYER_FIELDS = ("life", "poison", "mana", "lands_played", "lost", "left", "won", "drew")


def _change(a: Any, b: Any) -> dict[str, Any]:
    return {"from": a, "to": b}


def _place(o: Obj) -> dict[str, Any]:
    return {"zone": o.zone, "id": o.id, "owner": o.owner, "controller": o.controller}


def _host(s: GameState, oid: int | None) -> str | None:
    if oid is None:
        return None
    o = s.objects.get(oid)
    return f"{o.name} (#{oid})" if o is not None else f"#{oid}"


def _players(a: GameState, b: GameState) -> list[dict[str, Any]]:
    out = []
    for name in b.seats or a.seats:
        pa, pb = a.players.get(name), b.players.get(name)
        if pa is None or pb is None:
            out.append({"player": name, "changes": {"present": _change(pa is not None,
                                                                        pb is not None)}})
            continue
        changes = {f: _change(getattr(pa, f), getattr(pb, f))
                   for f in PLAYER_FIELDS if getattr(pa, f) != getattr(pb, f)}
        if changes:
            out.append({"player": name, "changes": changes})
    return out


def _objects(a: GameState, b: GameState) -> list[dict[str, Any]]:
    by_card_a = {o.card: o for o in a.objects.values()}
    by_card_b = {o.card: o for o in b.objects.values()}
    out = []
    for card in sorted(set(by_card_a) | set(by_card_b)):
        oa, ob = by_card_a.get(card), by_card_b.get(card)
        o = ob or oa
        assert o is not None
        row: dict[str, Any] = {"card": card, "name": o.name, "owner": o.owner}
        if oa is None or ob is None or oa.id != ob.id:
            row["moved"] = _change(_place(oa) if oa else None, _place(ob) if ob else None)
            out.append(row)
            continue
        changes: dict[str, Any] = {}
        for f in ("tapped", "damage", "controller", "sick"):
            if getattr(oa, f) != getattr(ob, f):
                changes[f] = _change(getattr(oa, f), getattr(ob, f))
        if oa.counters != ob.counters:
            changes["counters"] = _change(dict(oa.counters), dict(ob.counters))
        if oa.attached_to != ob.attached_to:
            changes["attached_to"] = _change(_host(a, oa.attached_to), _host(b, ob.attached_to))
        if changes:
            row.update({"zone": ob.zone, "id": ob.id, "changes": changes})
            out.append(row)
    return out


def pending_text(m: Marker) -> str:
    p = m.pending
    if isinstance(p, Priority):
        return f"priority: {p.player}"
    if isinstance(p, Decision):
        return f"decision {p.kind}: {p.player}"
    if isinstance(p, Work):
        return f"engine work {p.kind}" + (f", then priority to {p.then_priority}"
                                          if p.then_priority else "")
    return f"{type(p).__name__.lower()}: {getattr(p, 'player', '-')}"  # e.g. a waiting marker


def _stack(s: GameState, m: Marker) -> dict[int, str]:
    out = {}
    for i in m.stack:
        it = s.stack_items.get(i)
        if it is not None:
            out[i] = f"{it.source_name} ({it.kind}, {it.controller})"
    return out


def _marker_text(m: Marker | None) -> str | None:
    if m is None:
        return None
    return f"{m.holder}'s turn {m.turn}, {m.step.value}, {pending_text(m)}"


def _markers(a: GameState, b: GameState) -> list[dict[str, Any]]:
    out = []
    for number in sorted(set(a.markers) | set(b.markers)):
        ma, mb = a.markers.get(number), b.markers.get(number)
        row: dict[str, Any] = {"marker": number, "changes": {}}
        if ma is None or mb is None:
            row["changes"]["marker"] = _change(_marker_text(ma), _marker_text(mb))
            out.append(row)
            continue
        ch: dict[str, Any] = row["changes"]
        for f in ("turn", "holder"):
            if getattr(ma, f) != getattr(mb, f):
                ch[f] = _change(getattr(ma, f), getattr(mb, f))
        if ma.step != mb.step:
            ch["step"] = _change(ma.step.value, mb.step.value)
        if pending_text(ma) != pending_text(mb):
            ch["pending"] = _change(pending_text(ma), pending_text(mb))
        sa, sb = _stack(a, ma), _stack(b, mb)
        added = [{"item": i, "what": w} for i, w in sb.items() if i not in sa]
        gone = [{"item": i, "what": w} for i, w in sa.items() if i not in sb]
        if added or gone:
            ch["stack"] = {"added": added, "gone": gone, "size": _change(len(sa), len(sb))}
        attacks_a = ma.combat.attacks if ma.combat else ()
        attacks_b = mb.combat.attacks if mb.combat else ()
        if attacks_a != attacks_b:
            ch["attacks"] = _change([[_host(a, x), d] for x, d in attacks_a],
                                    [[_host(b, x), d] for x, d in attacks_b])
        if ch:
            out.append(row)
    return out


def _game(a: GameState, b: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in ("game_over", "turns_taken"):
        if getattr(a, f) != getattr(b, f):
            out[f] = _change(getattr(a, f), getattr(b, f))
    if len(a.triggers) != len(b.triggers):
        out["waiting_triggers"] = _change(len(a.triggers), len(b.triggers))
    if len(a.effects) != len(b.effects):
        out["effects"] = _change(len(a.effects), len(b.effects))
    return out


def diff_states(a: GameState, b: GameState) -> dict[str, Any]:
    """What changed from state `a` to state `b` (plain JSON data)."""
    return {"general": _game(a, b), "players": _players(a, b), "objects": _objects(a, b),
            "markers": _markers(a, b)}


def _fmt(value: Any) -> str:
    if isinstance(value, dict) and "zone" in value and "id" in value:
        return f"{value['zone']} #{value['id']}"
    if value is None:
        return "-"
    return str(value)


def _changes_text(changes: dict[str, Any]) -> str:
    parts = []
    for key, c in changes.items():
        if key == "stack":
            bits = [f"+ {x['what']} #{x['item']}" for x in c["added"]]
            bits += [f"- {x['what']} #{x['item']}" for x in c["gone"]]
            parts.append("stack: " + "; ".join(bits))
        else:
            parts.append(f"{key}: {_fmt(c['from'])} -> {_fmt(c['to'])}")
    return "\n".join(parts)


def render_diff(d: dict[str, Any], title: str) -> RenderableType:
    parts: list[RenderableType] = [Text(title, style="bold")]
    if d["general"]:
        parts.append(Text("game: " + _changes_text(d["general"]).replace("\n", ", ")))
    for section, key, head in (("players", "player", "player"), ("markers", "marker",
                                                                  "turn marker")):
        if d[section]:
            t = Table(title=section, title_justify="left")
            t.add_column(head)
            t.add_column("changes")
            for row in d[section]:
                t.add_row(escape(str(row[key])), escape(_changes_text(row["changes"])))
            parts.append(t)
    if d["objects"]:
        t = Table(title="objects (by card number)", title_justify="left")
        for col in ("card", "name", "owner", "change"):
            t.add_column(col)
        for row in d["objects"]:
            text = (f"{_fmt(row['moved']['from'])} -> {_fmt(row['moved']['to'])}"
                    if "moved" in row else _changes_text(row["changes"]))
            t.add_row(str(row["card"]), escape(row["name"]), escape(row["owner"]),
                      escape(text))
        parts.append(t)
    if len(parts) == 1:
        parts.append(Text("no changes"))
    return Group(*parts)


def run(db: str, game: str | None, start: int, end: int, as_json: bool) -> int:
    def body() -> int:
        log = load_log(db, game, None)
        for option, n in (("--from", start), ("--to", end)):
            if not 0 <= n <= log.total:
                raise AuditError(f"{option} {n} is outside the game: game {log.game!r} has "
                                 f"{log.total} events")
        states = states_at(log.events[:max(start, end)], (start, end))
        d = diff_states(states[start], states[end])
        if as_json:
            print(json.dumps({"game": log.game, "from": start, "to": end, **d}))
            return 0
        wide_console().print(render_diff(d, f"game {log.game}: after event {start} -> after "
                                       f"event {end}"))
        return 0

    return guarded(body)
