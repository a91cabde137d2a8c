"""`arbiter replay --explain`: one row per event 1..N, for a judge reading a game's log.

Each row has the version, the event type, a short summary in words ("P2 casts Shock
targeting P3", "Grizzly Bears (#41) dealt 2 damage by Shock (#147)"), what caused it --
the player's command (the store's metadata "command"/"actor") or the engine's work
("engine: resolve_top", found by re-deciding the log, see `arbiter_core.kernel.divergence`) --,
the actor and the CR rule the event cites. `--json` prints the rows as a JSON list.
"""

from __future__ import annotations

import json
from typing import Any

from rich.markup import escape
from rich.table import Table

from arbiter_cli.audit import Log, Namer, apply_checked, guarded, load_log, wide_console
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.divergence import walk
from arbiter_core.kernel.evolve import empty_state
from arbiter_core.kernel.shell_loop import owed_work
from arbiter_core.kernel.state import GameState
from arbiter_core.layers.characteristics import is_creature

MAX_LISTED = 4


def _objs(name: Namer, ids: list[int]) -> str:
    shown = ", ".join(name(i) for i in ids[:MAX_LISTED])
    more = f" and {len(ids) - MAX_LISTED} more" if len(ids) > MAX_LISTED else ""
    return (shown + more) or "nothing"


def _targets(name: Namer, targets: list[list[str]]) -> str:
    flat = [name.target(t) for spec in targets for t in spec]
    return f" targeting {', '.join(flat)}" if flat else ""


def summarize(before: GameState, e: ev.Event, name: Namer) -> str:
    """The event in words; `before` is the state it applies to (for stack items and
    zones), `name` knows every object id seen so far, including the ones `e` makes."""
    match e:
        case ev.GameStarted():
            return (f"{e.variant} game starts: seats {', '.join(e.seats)}, life "
                    f"{', '.join(f'{p} {n}' for p, n in e.life.items())}")
        case ev.CardsPut():
            return f"{len(e.cards)} cards put into {e.player}'s {e.zone}"
        case ev.MarkerPlaced():
            return f"turn marker {e.marker} to {e.holder}: turn {e.turn}, {e.step}"
        case ev.LibraryShuffled():
            return f"{e.player} shuffles their library"
        case ev.CardDrawn():
            return f"{e.player} draws {name(e.new_id)}"
        case ev.DrawFromEmptyLibraryAttempted():
            return f"{e.player} draws from an empty library"
        case ev.TurnBegan():
            return f"{'extra ' if e.extra else ''}turn {e.turn} of {e.player} begins"
        case ev.StepBegan():
            return f"{e.step.replace('_', ' ')} step begins"
        case ev.PermanentsUntapped():
            return f"untap {_objs(name, e.objs)}"
        case ev.PermanentTapped():
            return f"{name(e.obj)} becomes tapped"
        case ev.WorkQueued():
            then = f", then priority to {e.then_priority}" if e.then_priority else ""
            return f"engine owes {e.kind}{then}"
        case ev.PriorityGiven():
            return f"{e.player} receives priority"
        case ev.PriorityPassed():
            return f"{e.player} passes priority"
        case ev.DecisionRequested():
            opts = f" among {_objs(name, e.options)}" if e.options else ""
            return f"{e.player} must decide: {e.kind.replace('_', ' ')}{opts}"
        case ev.LandPlayed():
            return f"{e.player} plays {name(e.new_id)}"
        case ev.ManaAdded():
            src = f" from {name(e.source)}" if e.source is not None else ""
            return f"{e.player} adds {e.mana}{src}"
        case ev.ManaSpent():
            return f"{e.player} spends {e.mana}"
        case ev.ManaEmptied():
            return f"mana empties from the pools of {', '.join(e.players)}"
        case ev.SpellCast():
            x = f" with X={e.x}" if e.x else ""
            return f"{e.player} casts {name(e.new_id)}{x}{_targets(name, e.targets)}"
        case ev.AbilityActivated():
            return (f"{e.player} activates {name(e.source)} ability {e.ability}"
                    f"{_targets(name, e.targets)}")
        case ev.AbilityTriggered():
            return f"{name(e.source)} ability {e.ability} triggers for {e.controller}"
        case ev.TriggerPutOnStack():
            t = before.triggers[e.index] if e.index < len(before.triggers) else None
            what = f"{t.source_name} (#{t.source}) trigger" if t else "a trigger"
            return f"{what} put on the stack"
        case ev.StackItemResolved():
            return f"{_item(before, e.item)} resolves"
        case ev.StackItemCountered():
            return f"{_item(before, e.item)} is countered"
        case ev.ResolutionPaused():
            return f"{_item(before, e.item)} waits for a decision"
        case ev.ObjectMoved():
            return _moved(before, e, name)
        case ev.ObjectCeasedToExist():
            return f"{name(e.obj)} ceases to exist"
        case ev.DamageDealt():
            who = e.player if e.player is not None else name(e.obj)
            how = " combat" if e.combat else ""
            return f"{who} dealt {e.amount}{how} damage by {name(e.source)}"
        case ev.LifeGained():
            return f"{e.player} gains {e.amount} life"
        case ev.EffectCreated():
            if e.kind == "pt":
                return (f"{_objs(name, e.affected)} get{'s' if len(e.affected) == 1 else ''} "
                        f"{e.power:+d}/{e.toughness:+d} until end of turn")
            return "combat damage is prevented this turn"
        case ev.DamageWoreOff():
            return "damage wears off; until-end-of-turn effects end"
        case ev.AttackersDeclared():
            if not e.attacks:
                return f"{e.player} declares no attackers"
            bands = "".join(f"; band: {_objs(name, b)}" for b in e.bands)
            return (f"{e.player} attacks: " + ", ".join(f"{name(a)} -> {d}" for a, d in e.attacks)
                    + bands)
        case ev.BandBlocked():
            return "the band is blocked: " + ", ".join(f"{name(b)} blocks {name(a)}"
                                                       for b, a in e.blocks)
        case ev.CombatDamageAssigned():
            return f"{e.player} assigns combat damage: " + "; ".join(
                f"{name(c)} -> " + ", ".join(
                    f"{n} to {k[2:] if k.startswith('p:') else name(int(k[2:]))}"
                    for k, n in split.items())
                for c, split in e.assignments)
        case ev.BlockersDeclared():
            if not e.blocks:
                return f"{e.player} declares no blockers"
            return f"{e.player} blocks: " + ", ".join(f"{name(b)} blocks {name(a)}"
                                                       for b, a in e.blocks)
        case ev.FirstStrikeDamageDealt():
            return f"first-strike damage dealt by {_objs(name, e.creatures)}"
        case ev.CombatEnded():
            return "combat ends"
        case ev.TokenCreated():
            return f"{e.owner} creates {name(e.obj)}"
        case ev.Attached():
            return f"{name(e.obj)} attached to {name(e.to)}"
        case ev.Unattached():
            return f"{name(e.obj)} becomes unattached"
        case ev.CountersRemoved():
            what = ", ".join(f"{n} {k}" for k, n in e.counters.items())
            return f"{what} counters removed from {name(e.obj)}"
        case ev.StateBasedActionsChecked():
            return "state-based actions checked"
        case ev.ExtraTurnAdded():
            return f"{e.player} will take an extra turn"
        case ev.PlayerLost():
            return f"{e.player} loses the game"
        case ev.PlayerConceded():
            return f"{e.player} concedes"
        case ev.PlayerLeftGame():
            return f"{e.player} leaves the game"
        case ev.GameEnded():
            if e.draw:
                return "the game ends in a draw"
            return f"the game ends: {', '.join(e.winners) or 'nobody'} wins"
    return e.type  # pragma: no cover - every event type is matched above


def _item(state: GameState, item: int) -> str:
    it = state.stack_items.get(item)
    if it is None:
        return f"stack item {item}"
    src = it.obj if it.obj is not None else it.source
    what = "" if it.kind == "spell" else " ability"
    return f"{it.source_name}{what} (#{src})"


def _moved(before: GameState, e: ev.ObjectMoved, name: Namer) -> str:
    o = before.objects.get(e.obj)
    src = o.zone if o is not None else "?"
    if src == "battlefield" and e.to_zone == "graveyard":
        verb = "dies" if o is not None and is_creature(o) else "is put into a graveyard"
        return f"{name(e.obj)} {verb} (now #{e.new_id})"
    owner = f" of {e.to_player}" if e.to_zone != "battlefield" else ""
    return f"{name(e.obj)} moves from {src} to the {e.to_zone}{owner} (now #{e.new_id})"


def explain_rows(log: Log) -> list[dict[str, Any]]:
    """One row per event of the log (see the module docstring)."""
    engine_made = log.engine_made
    try:
        batches, _ = walk(log.events, engine_made)
    except Exception:  # an engine that cannot re-decide this log: label from the state
        batches = []
    work: dict[int, str] = {}
    for b in batches:
        if b.work is not None:
            work.update(dict.fromkeys(range(b.start, b.end), b.work))
    name = Namer()
    state = empty_state()
    rows: list[dict[str, Any]] = []
    for i, (stored, e) in enumerate(zip(log.stored, log.events, strict=True)):
        before = state.clone()
        apply_checked(state, e)
        name.learn(state)
        command = str(stored.metadata.get("command", ""))
        actor = stored.metadata.get("actor")
        if engine_made[i]:
            kind = work.get(i) or _pending_work(before)
            cause = f"engine: {kind}" if kind else f"engine (CR {e.rule})"
            actor = "engine"
        else:
            cause = command or "-"
        rows.append({"version": stored.version, "type": e.type,
                     "summary": summarize(before, e, name), "cause": cause,
                     "command": command or None, "actor": actor, "rule": e.rule})
    return rows


def _pending_work(state: GameState) -> str | None:
    """The engine work the state owes (used past a divergence, where batches are not
    known)."""
    return next((kind for _, kind in owed_work(state)), None)


def render_rows(rows: list[dict[str, Any]], title: str) -> Table:
    table = Table(title=title, title_justify="left")
    for col, style in (("#", "dim"), ("event", "bold"), ("what happened", ""),
                       ("cause", "cyan"), ("actor", ""), ("CR", "green")):
        table.add_column(col, style=style or None, justify="right" if col == "#" else "left")
    for r in rows:
        table.add_row(str(r["version"]), r["type"], escape(r["summary"]), escape(r["cause"]),
                      escape(str(r["actor"] or "-")), r["rule"])
    return table


def run(db: str, game: str | None, to: int | None, as_json: bool) -> int:
    def body() -> int:
        log = load_log(db, game, to)
        rows = explain_rows(log)
        if as_json:
            print(json.dumps(rows))
            return 0
        n = len(log.stored)
        wide_console().print(render_rows(rows, f"game {log.game}: events 1-{n} of {log.total}"),
                        soft_wrap=False)
        return 0

    return guarded(body)
