"""A stored game's position at event N as a scenario file (the judges' format,
/work/shared/spec/scenarios.md), so a ruling can start from it: `arbiter replay
--as-scenario` and the judge console's "Export as scenario" (here, below both).

The file sets up the position with `start` at the marker's turn, active player and step:
players in seat order with life and poison, and their zones -- battlefield (with tapped,
damage, counters, `attached_to`, `controller` when not the owner, `summoning_sick`,
`face_down`), hand, graveyard, exile, library (top first) and command, written in that order. An
`attached_to` is the host's bare name when no other permanent has it, otherwise
`Name#k`, counted in setup order (players in seat order, then zones in the order written,
then list order, all zones counted). `expect` is a placeholder: the current life totals,
so the file is valid and passes as written.

What a position file cannot say is left out and listed as warnings (comments at the top
of the file, and returned): a non-empty stack, mana in pools, lands already played this
turn, until-end-of-turn effects, waiting triggers, combat, tokens, players who have left,
and a pending state other than the active player's priority (the scenario starts with
the step's turn-based actions, then the active player's priority).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import yaml

from arbiter_core.kernel.state import Decision, GameState, Obj, Pending, Priority, Step, Work
from arbiter_core.variants.commander import scenario_keys

ZONE_ORDER = ("battlefield", "hand", "graveyard", "exile", "library", "command")
# steps whose turn-based actions would happen again when a scenario starts there
STEPS_WITH_ACTIONS = frozenset({Step.UNTAP, Step.DRAW, Step.DECLARE_ATTACKERS,
                                Step.DECLARE_BLOCKERS, Step.FIRST_STRIKE_DAMAGE,
                                Step.COMBAT_DAMAGE, Step.CLEANUP})


class ExportError(Exception):
    """The position cannot be written as a scenario at all."""


@dataclass
class Exported:
    data: dict[str, Any]
    warnings: list[str] = field(default_factory=list)

    def text(self) -> str:
        head = "".join(f"# warning: {w}\n" for w in self.warnings)
        return head + yaml.dump(self.data, Dumper=_Dumper, sort_keys=False,
                                default_flow_style=False, width=10_000, allow_unicode=True)


class _Flow(list[Any]):
    """A list written on one line (`[a, b]`)."""


class _FlowMap(dict[str, Any]):
    """A mapping written on one line (`{card: X, tapped: true}`)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Flow, lambda d, v: d.represent_sequence(
    "tag:yaml.org,2002:seq", v, flow_style=True))
_Dumper.add_representer(_FlowMap, lambda d, v: d.represent_mapping(
    "tag:yaml.org,2002:map", v, flow_style=True))

FLOW_MAX = 8  # zone lists up to this many entries are written on one line


def _zone_list(entries: list[Any]) -> list[Any]:
    entries = [_FlowMap(e) if isinstance(e, dict) else e for e in entries]
    return _Flow(entries) if len(entries) <= FLOW_MAX else entries


def _zone_objects(s: GameState, player: str, zone: str) -> list[Obj]:
    if zone == "battlefield":
        return [s.objects[i] for i in s.battlefield if s.objects[i].owner == player]
    return [s.objects[i] for i in s.zones.get((player, zone), [])]


def _compress(entries: list[Any]) -> list[Any]:
    """Runs of one plain card name as "NAME x N" (the format's repeat)."""
    out: list[Any] = []
    i = 0
    while i < len(entries):
        j = i
        while j < len(entries) and isinstance(entries[i], str) and entries[j] == entries[i]:
            j += 1
        if j - i > 1:
            out.append(f"{entries[i]} x {j - i}")
            i = j
        else:
            out.append(entries[i])
            i += 1
    return out


def _layout(s: GameState, players: list[str], warnings: list[str],
            ) -> dict[str, dict[str, list[Obj]]]:
    """The objects each player's zones will list, in the order written."""
    layout: dict[str, dict[str, list[Obj]]] = {}
    tokens = 0
    for p in players:
        zones: dict[str, list[Obj]] = {}
        for zone in ZONE_ORDER:
            objs = _zone_objects(s, p, zone)
            tokens += sum(1 for o in objs if o.token is not None)
            objs = [o for o in objs if o.token is None]
            if objs:
                zones[zone] = objs
        layout[p] = zones
    if tokens:
        warnings.append(f"{tokens} token(s) left out (a scenario cannot set up tokens)")
    return layout


def _references(layout: dict[str, dict[str, list[Obj]]]) -> dict[int, str]:
    """How an `attached_to` names each battlefield object (bare or `Name#k`)."""
    order = [o for zones in layout.values() for objs in zones.values() for o in objs]
    seen: Counter[str] = Counter()
    on_bf = Counter(o.name for o in order if o.zone == "battlefield")
    refs: dict[int, str] = {}
    for o in order:
        seen[o.name] += 1
        if o.zone == "battlefield":
            refs[o.id] = o.name if on_bf[o.name] == 1 else f"{o.name}#{seen[o.name]}"
    return refs


def _entry(o: Obj, refs: dict[int, str], warnings: list[str]) -> Any:
    attrs: dict[str, Any] = {}
    if o.zone == "battlefield":
        if o.tapped:
            attrs["tapped"] = True
        if o.damage:
            attrs["damage"] = o.damage
        if o.counters:
            attrs["counters"] = _FlowMap(o.counters)
        if o.attached_to is not None:
            if o.attached_to in refs:
                attrs["attached_to"] = refs[o.attached_to]
            else:
                warnings.append(f"{o.name} (#{o.id}) is attached to #{o.attached_to}, "
                                "which the file does not list; attachment left out")
        if o.controller != o.owner:
            attrs["controller"] = o.controller
        if o.sick:
            attrs["summoning_sick"] = True
        if o.face_down:  # 708.2a (the export is a judge's: it names the card)
            attrs["face_down"] = True
    return {"card": o.name, **attrs} if attrs else o.name


def _waits(p: Pending) -> str:
    if isinstance(p, Priority):
        return f"{p.player}'s priority"
    if isinstance(p, Decision):
        return f"{p.player}'s decision ({p.kind})"
    if isinstance(p, Work):
        return f"engine work ({p.kind})"
    return f"{type(p).__name__.lower()} ({getattr(p, 'player', '-')})"


def _warn_position(s: GameState, warnings: list[str]) -> None:
    m = s.markers[min(s.markers)]
    p = m.pending
    if s.game_over:
        warnings.append("the game is over at this point")
    if len(s.markers) > 1:
        warnings.append(f"{len(s.markers)} turn markers: only marker {m.number} is written")
    if not (isinstance(p, Priority) and p.player == m.holder):
        warnings.append(f"the position waits for {_waits(p)}; the scenario starts at the "
                        f"beginning of {m.step.value} with {m.holder}'s priority")
    if m.step in STEPS_WITH_ACTIONS:
        warnings.append(f"the turn-based actions of {m.step.value} happen again when the "
                        "scenario starts")
    if s.stack_items:
        names = ", ".join(i.source_name for i in s.stack_items.values())
        warnings.append(f"the stack is left out: {names}")
    if m.combat is not None and m.combat.attacks:
        warnings.append("combat (attackers and blockers) is left out")
    for name in s.seats:
        pl = s.players[name]
        if pl.mana:
            warnings.append(f"{name}'s mana pool ({pl.mana}) is left out")
        if pl.lands_played and name == m.holder:
            warnings.append(f"{name} has played {pl.lands_played} land(s) this turn; "
                            "the scenario does not know")
    if s.effects:
        warnings.append(f"{len(s.effects)} until-end-of-turn effect(s) left out")
    if s.triggers:
        warnings.append(f"{len(s.triggers)} waiting trigger(s) left out")
    if s.delayed:  # CR 603.7: created, not yet triggered (e.g. "at the next end step")
        warnings.append(f"{len(s.delayed)} delayed triggered abilit(ies) left out "
                        f"({', '.join(d.source_name for d in s.delayed)})")


#: options of the casual variants a position file does not write (replay --as-scenario)
CASUAL_OPTIONS = {
    "single_planar_deck": "the single planar deck option (901.15) is left out: write "
                          "options {single_planar_deck: true} and the communal deck as the "
                          "top-level planar_deck",
    "individual_poison": "Archenemy Commander (904.13): the archenemy (archenemy: true) "
                         "and the scheme decks are not written",
}


def export_scenario(s: GameState, name: str) -> Exported:
    """The position `s` as scenario data (see the module docstring)."""
    if not s.started or not s.markers:
        raise ExportError("the game has not started at this point (no turn marker yet)")
    warnings: list[str] = []
    _warn_position(s, warnings)
    m = s.markers[min(s.markers)]
    players = [p for p in s.seats if not s.players[p].left]
    gone = [p for p in s.seats if s.players[p].left]
    if gone:
        warnings.append(f"left the game, not listed: {', '.join(gone)}")
    layout = _layout(s, players, warnings)
    refs = _references(layout)
    variant, options, commander_players, commander_warnings = scenario_keys(s)
    warnings += commander_warnings
    warnings += [why for o, why in CASUAL_OPTIONS.items() if o in s.casual_options]
    if s.casual_notes:  # Sokenzan's additional phases, schemes' memories
        warnings.append("what casual cards remember is left out: " + ", ".join(
            f"{note} of {player}" for note, player, _ in s.casual_notes))
    specs = []
    for p in players:
        pl = s.players[p]
        spec: dict[str, Any] = {"name": p}
        if pl.team != p:
            spec["team"] = pl.team
        spec["life"] = pl.life
        if pl.poison:
            spec["poison"] = pl.poison
        for zone, objs in layout[p].items():
            spec[zone] = _zone_list(_compress([_entry(o, refs, warnings) for o in objs]))
        if pl.outside:  # 400.11a: the cards outside the game (the key `outside`)
            spec["outside"] = list(pl.outside)
        spec.update(commander_players.get(p, {}))
        specs.append(spec)
    if s.attack_option != "multiple":
        options["attack"] = s.attack_option
    if s.range_of_influence is not None:
        options["range_of_influence"] = s.range_of_influence
    data: dict[str, Any] = {"name": name, "variant": variant}
    if options:
        data["options"] = options
    data["seed"] = s.seed
    data["start"] = _FlowMap(turn=m.turn, active=m.holder, step=m.step.value)
    data["players"] = specs
    data["expect"] = [_FlowMap(life=_FlowMap({p: s.players[p].life for p in players}))]
    return Exported(data, warnings)
