"""The Commander variant (CR 903) and its Brawl option (903.12), as supplements played
over a base variant (903.2: a two-player game, or Free-for-All by default; any other
base, such as Two-Headed Giant, with the `base_variant` option).

- 903.3: each deck has a commander; the designation belongs to the card, recorded as
  the game begins (`CommanderDesignated`), so it follows the card through zones and
  face-down or copy effects (a copy of a commander is another card: not a commander).
- 903.6: the commander starts face up in the command zone, and the rest of the deck is
  the library (`StartGame`'s `commander`, set apart from its `deck`).
- 903.7: each player starts at 40 life; 903.12f: Brawl at 25 in a two-player game, 30
  in a multiplayer one. With a shared life total (a Two-Headed Giant base, 810.4) the
  CR says nothing: a team starts at 30 a head (60 for two), a common house rule.
- 903.12h: Brawl doesn't use 704.6c (`CommanderState.combat_damage_rule`).
- 903.5, 903.12c-e: the deck construction rules (`deck_commander`), the variant's
  `deck_rules` hook.

The rules of play are in their own modules: casting from the command zone with the tax
(`commander_cast`, 903.8), returning to the command zone (`commander_zone`, 903.9a-b,
704.6d) and commander damage (`commander_damage`, 903.10a, 704.6c).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import SetUpPosition, StartGame
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import CommanderState, GameState
from arbiter_core.kernel.txn import Txn
from arbiter_core.variants import deck_commander as deck
from arbiter_core.variants.base import VARIANTS, Supplement, variant
from arbiter_core.variants.deck_model import DeckRule


class CommanderGameBegan(ev.EventBase):
    """A Commander game's own record begins (903); `combat_damage_rule` is 704.6c."""

    type: Literal["CommanderGameBegan"] = "CommanderGameBegan"
    combat_damage_rule: bool = True


class CommanderDesignated(ev.EventBase):
    """The card `obj` is `player`'s commander (903.3)."""

    type: Literal["CommanderDesignated"] = "CommanderDesignated"
    player: str
    obj: int


class CommanderDamageTaken(ev.EventBase):
    """`player` has been dealt `amount` more combat damage by the commander card `card`
    (903.10a); a judge's position records the damage dealt before it (`total` then)."""

    type: Literal["CommanderDamageTaken"] = "CommanderDamageTaken"
    player: str
    card: int
    amount: int


@variant
class Commander(Supplement):
    name = "commander"
    option_variants = {"brawl": "brawl"}  # 903.12
    commander_deck = 100  # 903.5a
    commander_life: int = 40  # 903.7
    combat_damage_rule: bool = True  # 704.6c
    brawl: bool = False

    def team_life(self, heads: int) -> int:
        """903.7: 40 (Brawl: 903.12f); a shared life total 30 a head (no CR rule)."""
        if self.shared_life:
            return 30 * heads
        return self.commander_life

    def deck_rules(self) -> tuple[DeckRule, ...]:
        """903.5 (Brawl: 903.12c-e)."""
        return deck.commander_rules(brawl=self.brawl)

    def setting_up(self, t: Txn, cmd: StartGame | SetUpPosition) -> None:
        """903.6: each commander face up in the command zone before libraries are
        shuffled; in a judge's position, the named card wherever it was put."""
        super().setting_up(t, cmd)
        t.emit(CommanderGameBegan(combat_damage_rule=self.combat_damage_rule, rule="903.1"))
        if isinstance(cmd, StartGame):
            for p in cmd.players:
                if not p.commander:
                    raise InvalidCommand(f"players.{p.name}.commander",
                                         "each Commander deck has a commander (903.3)")
            by_name = {p.name: p.commander for p in cmd.players}
            for name in t.s.seats:
                _to_command_zone(t, name, str(by_name[name]))
            return
        for pp in cmd.players:
            if pp.commander:
                _designate_listed(t, pp.name, pp.commander)
        for pp in cmd.players:
            for commander, amount in pp.commander_damage_taken.items():
                _damage_taken_before(t, pp.name, commander, amount)


@variant
class Brawl(Commander):
    """903.12: 60-card decks, a planeswalker may lead one, 25 or 30 life, and no 704.6c."""

    name = "brawl"
    commander_deck = 60  # 903.12d
    combat_damage_rule = False  # 903.12h
    brawl = True

    def free_first_mulligan(self, s: GameState) -> bool:
        """903.12g, 103.5c: the first mulligan is free in any Brawl game, two-player too."""
        return True

    def team_life(self, heads: int) -> int:
        """903.12f: 25 in a two-player game, 30 in a multiplayer one."""
        if self.shared_life:
            return 30 * heads
        return 25 if self.players == 2 else 30


def _to_command_zone(t: Txn, player: str, name: str) -> None:
    first = t.s.next_id
    t.emit(ev.CardsPut(player=player, zone="command", first_id=first,
                       cards=[ev.CardSetup(name=name)], rule="903.6"))
    t.emit(CommanderDesignated(player=player, obj=first, rule="903.3"))


def _designate_listed(t: Txn, player: str, name: str) -> None:
    """The first card of that name the player owns in the position, else a new one in
    the command zone."""
    found = sorted(o.id for o in t.s.objects.values() if o.owner == player and o.name == name)
    if not found:
        _to_command_zone(t, player, name)
        return
    t.emit(CommanderDesignated(player=player, obj=found[0], rule="903.3"))


def _damage_taken_before(t: Txn, player: str, commander: str, amount: int) -> None:
    s = t.s
    assert s.commander is not None
    cards = [c for c, _ in s.commander.commanders
             if any(o.card == c and o.name == commander for o in s.objects.values())]
    if not cards:
        raise InvalidCommand(f"players.{player}.commander_damage_taken",
                             f"{commander!r} is no player's commander")
    if amount < 0:
        raise InvalidCommand(f"players.{player}.commander_damage_taken",
                             "damage is never negative")
    t.emit(CommanderDamageTaken(player=player, card=cards[0], amount=amount, rule="903.10a"))


@applies(CommanderGameBegan)
def _began(s: GameState, e: CommanderGameBegan) -> None:
    s.commander = CommanderState(combat_damage_rule=e.combat_damage_rule)


@applies(CommanderDesignated)
def _designated(s: GameState, e: CommanderDesignated) -> None:
    assert s.commander is not None
    card = s.objects[e.obj].card
    s.commander = replace(s.commander, commanders=(*s.commander.commanders, (card, e.player)))


@applies(CommanderDamageTaken)
def _damage_taken(s: GameState, e: CommanderDamageTaken) -> None:
    c = s.commander
    assert c is not None
    total = c.damage_to(e.player, e.card) + e.amount
    damage = tuple(d for d in c.damage if (d[0], d[1]) != (e.player, e.card))
    s.commander = replace(c, damage=(*damage, (e.player, e.card, total)))


def commander_owner(s: GameState, card: int) -> str | None:
    """The owner of the commander card `card` (None: not a commander, 903.3)."""
    return s.commander.owner_of(card) if s.commander is not None else None


@explains(CommanderGameBegan)
def _explain_began(before: GameState, e: CommanderGameBegan, name: Namer) -> str:
    return "the Commander rules begin" + ("" if e.combat_damage_rule else
                                          " (Brawl: no commander damage rule)")


@explains(CommanderDesignated)
def _explain_designated(before: GameState, e: CommanderDesignated, name: Namer) -> str:
    return f"{e.player}'s commander is {name(e.obj)}"


@explains(CommanderDamageTaken)
def _explain_damage(before: GameState, e: CommanderDamageTaken, name: Namer) -> str:
    return f"{e.player} has been dealt {e.amount} more combat damage by a commander"


def scenario_keys(s: GameState) -> tuple[str, dict[str, object], dict[str, dict[str, object]],
                                         list[str]]:
    """What a scenario file says about a Commander game (`replay --as-scenario`): the
    variant and its options, each player's `commander` and `commander_damage_taken`, and
    what it cannot say (warnings)."""
    c = s.commander
    if c is None or s.composed is None:
        return s.variant, {}, {}, []
    supplement, base = s.composed
    options: dict[str, object] = {"base": base}
    name = Commander.name
    for v in VARIANTS.table.values():  # an option's variant (903.12 brawl, 904.13)
        for option, target in v.option_variants.items():
            if target == supplement:
                name, options[option] = v.name, True
    names = {o.card: o.printed or o.name for o in s.objects.values()}
    players: dict[str, dict[str, object]] = {}
    for card, owner in c.commanders:
        if card in names:
            players.setdefault(owner, {})["commander"] = names[card]
    for player, card, total in c.damage:
        if card in names:
            taken = players.setdefault(player, {}).setdefault("commander_damage_taken", {})
            assert isinstance(taken, dict)
            taken[names[card]] = total
    warnings = [f"{names.get(card, card)} was cast {n} time(s) from the command zone: the "
                "commander tax is left out (a position starts with none)"
                for card, n in c.casts if n]
    return name, options, players, warnings
