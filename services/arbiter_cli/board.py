"""A game state as a readable terminal board (rich), or as JSON-able data.

Both are built from `arbiter_core.views.seat`: the judge's view (everything, hands and
libraries included) by default, or one seat's view (CR 400.2) with `seat=`.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from arbiter_core.kernel.state import GameState
from arbiter_core.views.seat import (
    CardRef,
    MarkerView,
    PendingView,
    PermanentView,
    PlayerView,
    SeatView,
    StackItemView,
    TargetView,
    judge_view,
    view,
)


def board_json(state: GameState) -> dict[str, Any]:
    """The judge's view of `state` as plain JSON data."""
    return judge_view(state).model_dump(mode="json")


def render_board(state: GameState, seat: str | None = None) -> RenderableType:
    """The board as seen by a judge (`seat=None`) or by one seat."""
    return render_view(judge_view(state) if seat is None else view(state, seat))


def render_view(v: SeatView) -> RenderableType:
    names = {p.id: p.name for p in v.battlefield}
    parts: list[RenderableType] = [_title(v)]
    parts.extend(_player_panel(v, p, names) for p in v.players)
    parts.extend(_marker_panel(m, names) for m in v.markers)
    return Group(*parts)


def _title(v: SeatView) -> Text:
    who = "judge view" if v.seat is None else f"seen by {v.seat}"
    status = "game over" if v.game_over else "in progress" if v.started else "not started"
    return Text.from_markup(
        f"[bold]{escape(v.game_id or '-')}[/bold]  {escape(v.variant)}  {status}  "
        f"turns taken {v.turns_taken}  ({who})"
    )


def _cards(refs: tuple[CardRef, ...]) -> str:
    return ", ".join(f"{escape(c.name)} #{c.id}" for c in refs) or "-"


def _pt(p: PermanentView) -> str:
    if p.power is None or p.toughness is None:
        return ""
    return f"{p.power}/{p.toughness}"


def _status(p: PermanentView, names: dict[int, str]) -> str:
    bits: list[str] = []
    if p.tapped:
        bits.append("[yellow]tapped[/yellow]")
    if p.sick and p.power is not None:
        bits.append("[dim]sick[/dim]")
    if p.damage:
        bits.append(f"[red]{p.damage} damage[/red]")
    bits.extend(f"{n} {escape(k)}" for k, n in sorted(p.counters.items()))
    if p.attached_to is not None:
        bits.append(f"on {escape(names.get(p.attached_to, '?'))} #{p.attached_to}")
    if p.token:
        bits.append("token")
    if p.controller != p.owner:
        bits.append(f"owner {escape(p.owner)}")
    return ", ".join(bits)


def _player_panel(v: SeatView, p: PlayerView, names: dict[int, str]) -> Panel:
    perms = [x for x in v.battlefield if x.controller == p.name]
    table = Table(box=None, pad_edge=False, show_header=bool(perms), expand=False)
    table.add_column("id", justify="right", style="dim")
    table.add_column("permanent")
    table.add_column("P/T", justify="right")
    table.add_column("status")
    for x in perms:
        table.add_row(str(x.id), escape(x.name), _pt(x), _status(x, names))
    lines: list[RenderableType] = []
    if perms:
        lines.append(table)
    else:
        lines.append(Text("battlefield: -", style="dim"))
    if p.hand is not None:
        lines.append(Text.from_markup(f"[bold]hand[/bold]: {_cards(p.hand)}"))
    if p.library is not None:
        top = p.library[:5]
        more = f" (+{len(p.library) - len(top)} more)" if len(p.library) > len(top) else ""
        lines.append(Text.from_markup(f"[bold]library top[/bold]: {_cards(top)}{more}"))
    lines.append(Text.from_markup(f"[bold]graveyard[/bold]: {_cards(p.graveyard)}"))
    lines.append(Text.from_markup(f"[bold]exile[/bold]: {_cards(p.exile)}"))
    if p.command:
        lines.append(Text.from_markup(f"[bold]command[/bold]: {_cards(p.command)}"))
    state = ("[green]won[/green]" if p.won else "[red]lost[/red]" if p.lost
             else "drew" if p.drew else "" if p.in_game else "left")
    team = f" (team {escape(p.team)})" if p.team != p.name else ""
    mana = f"  mana {escape(p.mana)}" if p.mana else ""
    title = (f"[bold]{escape(p.name)}[/bold]{team}  life {p.life}  poison {p.poison}  "
             f"hand {p.hand_size}  library {p.library_size}{mana}  {state}").rstrip()
    return Panel(Group(*lines), title=title, title_align="left",
                 border_style="dim" if not p.in_game or p.lost else "blue")


def _pending_text(p: PendingView) -> str:
    if p.kind == "priority":
        return f"priority: [bold]{escape(p.player or '-')}[/bold]"
    if p.kind == "decision":
        opts = _cards(p.options) if p.options else ""
        hidden = f" +{p.hidden_options} hidden" if p.hidden_options else ""
        rule = f" (CR {escape(p.rule)})" if p.rule else ""
        choose = f" choose {p.count} of: {opts}{hidden}" if (opts or hidden) else ""
        return (f"decision [bold]{escape(p.decision or '')}[/bold] for "
                f"[bold]{escape(p.player or '-')}[/bold]{rule}{choose}")
    then = f", then priority to {escape(p.player)}" if p.player else ""
    return f"engine work: {escape(p.work or '')}{then}"


def _target_text(t: TargetView) -> str:
    if t.player is not None:
        return escape(t.player)
    if t.hidden:
        return "(hidden)"
    return f"{escape(t.name or '?')} #{t.id}"


def _stack_row(it: StackItemView) -> tuple[str, str, str, str, str]:
    targets = "; ".join(", ".join(_target_text(t) for t in spec) for spec in it.targets)
    name = escape(it.name) + (f" (X={it.x})" if it.x else "")
    return str(it.id), it.kind, name, escape(it.controller), targets or "-"


def _marker_panel(m: MarkerView, names: dict[int, str]) -> Panel:
    lines: list[RenderableType] = [Text.from_markup(
        f"turn {m.turn} of [bold]{escape(m.holder)}[/bold] (active player), "
        f"step [bold]{m.step}[/bold]")]
    lines.append(Text.from_markup(_pending_text(m.pending)))
    if m.passed:
        lines.append(Text(f"passed in succession: {', '.join(m.passed)}", style="dim"))
    if m.attacks:
        blocks: dict[int, list[int]] = {}
        for b, a in m.blocks:
            blocks.setdefault(a, []).append(b)
        for a, defender in m.attacks:
            by = ", ".join(f"{escape(names.get(b, '?'))} #{b}" for b in blocks.get(a, []))
            lines.append(Text.from_markup(
                f"attacking: {escape(names.get(a, '?'))} #{a} -> {escape(defender)}"
                + (f", blocked by {by}" if by else "")))
    if m.stack:
        table = Table(title="stack (top first)", title_justify="left", box=None,
                      pad_edge=False)
        for col in ("item", "kind", "name", "controller", "targets"):
            table.add_column(col)
        for it in m.stack:
            table.add_row(*_stack_row(it))
        lines.append(table)
    else:
        lines.append(Text("stack: empty", style="dim"))
    return Panel(Group(*lines), title=f"turn marker {m.number}", title_align="left",
                 border_style="magenta")
