"""Cards from outside the game (CR 400.11) and, in Commander, what may be brought in
(903.11, 903.11a).

- A player's sideboard is outside the game (400.11a, 100.4): `StartGame`'s `sideboard`,
  set aside as the game starts (`OutsideCardsSet`) - not in Commander, which uses no
  sideboard (903.5e) - or a position's cards `outside` (a scenario's key: the cards a
  player owns outside the game, in any variant). `Player.outside` holds their names.
- "You may reveal a [type] card you own from outside the game and put it into your
  hand." (`BringFromOutside`, Burning Wish): its controller chooses one of those cards,
  or none (a decision, `outside_card`, answered by the card's name or `none`); the card
  comes into the game in its owner's hand (400.11b, `CardBroughtIn`).
- 903.11: in a Commander game no card from outside the game is brought in, except by a
  rule, special action or effect that specifically brings cards into Commander games -
  which no card of the engine's pool is; a Wish finds nothing there
  (`OutsideCardsBarred` records which cards it would have offered).
- 903.11a: where a card may be brought into a Commander game, not one with the name of
  a card the player owns in the game (the starting deck's cards are all still in the
  game's zones) nor one with a color outside the commander's color identity
  (`commander_may_bring`, for such an effect).
- "Exile [this card]." (`ExileSelf`): the resolving instant or sorcery goes to exile,
  not to its owner's graveyard (608.2n).
"""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards import get_card
from arbiter_core.cards.build import card, spell
from arbiter_core.cards.model import BringFromOutside, ExileSelf
from arbiter_core.cards.pool import add_card
from arbiter_core.cards.render_effects import wording
from arbiter_core.cards.render_words import Context, indefinite_article
from arbiter_core.game.start import AT_SETUP
from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import ChooseOption, PlayerCommand, SetUpPosition, StartGame
from arbiter_core.kernel.decisions import decision
from arbiter_core.kernel.edits import set_player
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Decision, GameState, Marker, Obj, StackItem
from arbiter_core.kernel.txn import Txn
from arbiter_core.stack.items import Legal, ceases_if_copy, effect
from arbiter_core.stack.resolve import resume
from arbiter_core.variants.deck_commander import color_identity

KIND = "outside_card"
NONE = "none"


class OutsideCardsSet(ev.EventBase):
    """The cards `player` owns outside the game: a sideboard (400.11a)."""

    type: Literal["OutsideCardsSet"] = "OutsideCardsSet"
    player: str
    cards: list[str]


class CardBroughtIn(ev.EventBase):
    """`player` brought the card `name` from outside the game into their hand as `obj`
    (400.11b)."""

    type: Literal["CardBroughtIn"] = "CardBroughtIn"
    player: str
    name: str
    obj: int


class OutsideCardsBarred(ev.EventBase):
    """In a Commander game these cards from outside the game can't be brought in
    (903.11, 903.11a)."""

    type: Literal["OutsideCardsBarred"] = "OutsideCardsBarred"
    player: str
    cards: list[str]


def _set_aside(t: Txn, cmd: StartGame | SetUpPosition) -> None:
    """Each player's cards outside the game, as the game starts or is set up."""
    if isinstance(cmd, StartGame) and t.s.commander is not None:
        return  # 903.5e: Commander games use no sideboard
    given = ([(p.name, p.outside) for p in cmd.players] if isinstance(cmd, SetUpPosition)
             else [(p.name, p.sideboard) for p in cmd.players])
    for player, names in given:
        if not names:
            continue
        for name in names:
            try:
                get_card(name)
            except KeyError:
                raise InvalidCommand(f"players.{player}.outside",
                                     f"unknown card {name!r}") from None
        t.emit(OutsideCardsSet(player=player, cards=list(names), rule="400.11a"))


AT_SETUP.add("all", _set_aside)


def commander_identity(s: GameState, player: str) -> str:
    """The color identity of the player's commander(s) (903.4)."""
    c = s.commander
    if c is None:
        return ""
    numbers = {n for n, owner in c.commanders if owner == player}
    names = {o.name for o in s.objects.values() if o.card in numbers}
    return "".join(sorted({x for n in names for x in _identity(n)}))


def _identity(name: str) -> str:
    d = get_card(name)
    return color_identity([d.mana_cost], [d.oracle], d.colors)


def commander_may_bring(s: GameState, player: str, name: str) -> bool:
    """903.11a: not the name of a card the player owns in the game (their starting deck's
    included), and no color outside their commander's color identity."""
    if any(o.owner == player and o.name == name for o in s.objects.values()):
        return False
    return set(_identity(name)) <= set(commander_identity(s, player))


def _matching(s: GameState, player: str, types: tuple[str, ...]) -> list[str]:
    return list(dict.fromkeys(n for n in s.players[player].outside
                              if set(get_card(n).types) & set(types)))


@effect(BringFromOutside)
def _bring(t: Txn, m: Marker, item: StackItem, eff: BringFromOutside, legal: Legal,
           index: int) -> bool:
    """Offer the controller's matching cards outside the game, or none; in a Commander
    game none may be brought in by this effect (903.11)."""
    player = item.controller
    found = _matching(t.s, player, eff.card_types)
    if found and t.s.commander is not None:
        t.emit(OutsideCardsBarred(player=player, cards=found, rule="903.11"))
        return False
    if not found:
        return False
    t.emit(ev.ResolutionPaused(item=item.id, resume_at=index + 1, rule="608.2d"))
    t.emit(ev.DecisionRequested(marker=m.number, kind=KIND, player=player,
                                choices=[*found, NONE], stack_item=item.id,
                                rule="400.11b"))
    return True


def _answers(s: GameState, m: Marker, d: Decision) -> list[PlayerCommand]:
    return [ChooseOption(player=d.player, option=c, marker=m.number) for c in d.choices]


@decision(KIND, ChooseOption, _answers)
def _chosen(t: Txn, m: Marker, d: Decision, cmd: ChooseOption) -> None:
    """The card chosen is revealed and put into its owner's hand (400.11b)."""
    if cmd.option not in d.choices:
        raise RuleViolation("400.11b", f"{cmd.option!r} is not one of {list(d.choices)}")
    if cmd.option != NONE:
        t.emit(CardBroughtIn(player=d.player, name=cmd.option, obj=t.new_id(),
                             rule="400.11b"))
    assert d.stack_item is not None
    resume(t, t.s.markers[m.number], t.s.stack_items[d.stack_item])


@effect(ExileSelf)
def _exile_self(t: Txn, m: Marker, item: StackItem, eff: ExileSelf, legal: Legal,
                index: int) -> bool:
    """The spell's card is exiled, so it doesn't go to the graveyard (608.2n)."""
    if item.obj is not None and item.obj in t.s.objects and not ceases_if_copy(t, item.obj):
        o = t.s.objects[item.obj]
        t.emit(ev.ObjectMoved(obj=o.id, new_id=t.new_id(), to_zone="exile",
                              to_player=o.owner, rule="608.2n"))
    return False


@applies(OutsideCardsSet)
def _outside_set(s: GameState, e: OutsideCardsSet) -> None:
    set_player(s, e.player, outside=tuple(e.cards))


@applies(CardBroughtIn)
def _brought_in(s: GameState, e: CardBroughtIn) -> None:
    rest = list(s.players[e.player].outside)
    if e.name in rest:
        rest.remove(e.name)
    set_player(s, e.player, outside=tuple(rest))
    s.timestamp += 1
    s.objects[e.obj] = Obj(id=e.obj, card=s.next_card, name=e.name, owner=e.player,
                           controller=e.player, default_controller=e.player, zone="hand",
                           timestamp=s.timestamp)
    s.zone_for_update(e.player, "hand").append(e.obj)
    s.next_card += 1
    s.next_id = max(s.next_id, e.obj + 1)


@applies(OutsideCardsBarred)
def _barred(s: GameState, e: OutsideCardsBarred) -> None:
    """Nothing changes: the cards stay outside the game."""


@explains(OutsideCardsSet)
def _explain_set(before: GameState, e: OutsideCardsSet, name: Namer) -> str:
    return f"{e.player} has {len(e.cards)} card(s) outside the game (a sideboard)"


@explains(CardBroughtIn)
def _explain_brought(before: GameState, e: CardBroughtIn, name: Namer) -> str:
    return f"{e.player} reveals {e.name} from outside the game and puts it into their hand"


@explains(OutsideCardsBarred)
def _explain_barred(before: GameState, e: OutsideCardsBarred, name: Namer) -> str:
    return (f"{e.player} can't bring {', '.join(e.cards)} into a Commander game from "
            "outside it")


@wording(BringFromOutside)
def _bring_wording(eff: BringFromOutside, ctx: Context) -> str:
    kinds = " or ".join(t.lower() for t in eff.card_types)
    return (f"you may reveal {indefinite_article(kinds)} {kinds} card you own from outside the "
            "game and put it into your hand.")


@wording(ExileSelf)
def _exile_wording(eff: ExileSelf, ctx: Context) -> str:
    return f"Exile {ctx.name}."


BURNING_WISH = add_card(card(
    "Burning Wish", spell(BringFromOutside(card_types=("Sorcery",)), ExileSelf())))
