"""Check a deck list against a variant's construction rules (`arbiter deck check`,
`arbiter play --deck`, the gateway's game creation).

A variant's deck rules are its hook: the variant object's `deck_rules()` (a method
returning a tuple of `DeckRule`s, or an attribute holding one); a variant without the
hook is a constructed game (`rules.constructed()`, CR 100.2a and 100.4a), plus the rules
of the supplementary sections it names in `deck_sections` (a casual variant's planar
deck, scheme deck or vanguard: 901.3, 904.3, 902.3). The variant is found through the
rules core's variant registry, never by comparing its name here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from arbiter_core.kernel.commands import StartGame
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.variants.archenemy import archenemies
from arbiter_core.variants.base import get_variant
from arbiter_decks.catalog import Catalog, catalog
from arbiter_decks.model import (
    CheckResult,
    DeckCheck,
    DeckList,
    DeckRule,
    Section,
    Violation,
)
from arbiter_decks.parser import DeckListError, parse_deck_list, read_deck_list
from arbiter_decks.rules import constructed, planar_deck, scheme_deck, vanguard_card
from arbiter_decks.rules import single_planar_deck as single_planar_deck_rule


def archenemy_scheme_deck(d: DeckCheck) -> Iterator[Violation]:
    """CR 904.3 for the archenemy's list: only the archenemy has a scheme deck (904.2a),
    so a list without a Scheme deck section is a hero's, with the constructed rules
    alone; a list with one is the archenemy's, and its scheme deck is checked."""
    if d.section(Section.SCHEME):
        yield from scheme_deck(d)


#: the rules of each supplementary section a variant names in `deck_sections` (Planechase
#: 901.3, Archenemy 904.3, Vanguard 902.3)
SECTION_RULES: dict[Section, DeckRule] = {Section.PLANAR: planar_deck,
                                          Section.SCHEME: archenemy_scheme_deck,
                                          Section.VANGUARD: vanguard_card}


class UnknownVariant(ValueError):
    """The variant does not exist, or its rules are not implemented yet."""


class DeckRejected(ValueError):
    """A list with violations where a playable deck is needed (play, game creation)."""

    def __init__(self, who: str, violations: Sequence[Violation]) -> None:
        shown = "; ".join(v.line() for v in violations[:10])
        more = f" (and {len(violations) - 10} more)" if len(violations) > 10 else ""
        super().__init__(f"{who}: the deck list breaks the construction rules: {shown}{more}")
        self.who = who
        self.violations = tuple(violations)


def variant_deck_rules(variant: str) -> tuple[DeckRule, ...]:
    """The construction rules of the named variant (its `deck_rules` hook)."""
    try:
        v = get_variant(variant)
    except InvalidCommand as e:
        raise UnknownVariant(e.message) from None
    return deck_rules_of(v)


def deck_rules_of(variant: object) -> tuple[DeckRule, ...]:
    """A variant object's deck rules: its `deck_rules()` method or `deck_rules` tuple;
    without the hook, a constructed game's (CR 100.2a, 100.4a)."""
    hook: object = getattr(variant, "deck_rules", None)
    if hook is None:  # a constructed game, with the supplementary sections it names
        sections = tuple(Section(name) for name in getattr(variant, "deck_sections", ()))
        return (*constructed(*sections), *(SECTION_RULES[section] for section in sections))
    found = hook() if callable(hook) else hook
    if not isinstance(found, tuple | list) or not all(callable(r) for r in found):
        raise TypeError("a variant's deck_rules is a tuple of check functions")
    rules: list[DeckRule] = list(found)
    return tuple(rules)


def check_deck(deck: DeckList, rules: Sequence[DeckRule], players: int = 2,
               cards: Catalog | None = None) -> CheckResult:
    """Resolve the list's names and run every rule, in order."""
    resolved = (cards or catalog()).resolve(deck, players)
    violations = tuple(v for rule in rules for v in rule(resolved))

    def cards_of(section: Section) -> tuple[str, ...]:
        return tuple(r.label for r in resolved.section(section) for _ in range(r.entry.count))

    # the sideboard cards the engine can play (an unimplemented one can't come in)
    sideboard = tuple(r.label for r in resolved.section(Section.SIDEBOARD)
                      if r.card is not None and r.card.implemented
                      for _ in range(r.entry.count))
    return CheckResult(violations=violations,
                       cards=resolved.count(Section.COMMANDER, Section.DECK),
                       deck=cards_of(Section.DECK), commander=cards_of(Section.COMMANDER),
                       planar_deck=cards_of(Section.PLANAR),
                       scheme_deck=cards_of(Section.SCHEME),
                       vanguard=cards_of(Section.VANGUARD), sideboard=sideboard)


def check_text(text: str | bytes, variant: str, players: int = 2,
               cards: Catalog | None = None, single_planar_deck: bool = False
               ) -> CheckResult:
    """Parse and check a list (`DeckListError`, `UnknownVariant` when it can't be);
    `single_planar_deck`: its Planar deck is the communal one (901.15a)."""
    rules = variant_deck_rules(variant)
    if single_planar_deck:
        if planar_deck not in rules:
            raise UnknownVariant(f"{variant} has no planar deck (901.15)")
        rules = tuple(single_planar_deck_rule if r is planar_deck else r for r in rules)
    deck = read_deck_list(text) if isinstance(text, bytes) else parse_deck_list(text)
    return check_deck(deck, rules, players, cards)


def playable_setup(text: str | bytes, variant: str, players: int,
                   who: str, single_planar_deck: bool = False) -> dict[str, Any]:
    """A legal list as the fields of its player's `PlayerSetup`: `deck` (the Deck
    section), `commander` in a variant whose decks have one (903.3, 903.6), and the
    supplementary sections the variant reads: `planar_deck` (901.3), `scheme_deck`
    (904.3: the archenemy's, `for_seat`) and `vanguard` (902.3). A list with violations
    is `DeckRejected` (CR 100.2: each player needs a legal deck). With
    `single_planar_deck` its planar deck is checked as the communal one (901.15a)."""
    result = check_text(text, variant, players, single_planar_deck=single_planar_deck)
    if not result.legal:
        raise DeckRejected(who, result.violations)
    out: dict[str, Any] = {"deck": list(result.deck)}
    if get_variant(variant).commander_deck:
        out["commander"] = result.commander[0]
    for key in ("planar_deck", "scheme_deck", "sideboard"):  # sideboard: 400.11a
        if getattr(result, key):
            out[key] = list(getattr(result, key))
    if result.vanguard:
        out["vanguard"] = result.vanguard[0]
    return out


def for_seat(setup: dict[str, Any], archenemy: bool) -> dict[str, Any]:
    """A list's fields for a seat: a scheme deck only for an archenemy (904.2a: the
    heroes have none; 904.12b: in a Supervillain Rumble everyone is one)."""
    return setup if archenemy else {k: v for k, v in setup.items() if k != "scheme_deck"}


def with_deck_lists(start: StartGame, lists: Mapping[str, str]) -> StartGame:
    """The StartGame with each listed seat's deck read from its deck list (the gateway's
    game creation): its commander, and the supplementary decks the variant reads
    (`playable_setup`), replace those the body gave. Raises ValueError (DeckListError,
    DeckRejected, UnknownVariant) with a message naming the seat."""
    names = [p.name for p in start.players]
    villains = archenemies(start)  # 904.2a, 904.12b: whose scheme deck is played
    unknown = sorted(set(lists) - set(names))
    if unknown:
        raise ValueError(f"no player named {', '.join(map(repr, unknown))}")
    players = []
    communal: list[list[str]] = []  # 901.15: the lists' communal planar deck
    for p in start.players:
        if p.name not in lists:
            players.append(p)
            continue
        if p.deck:
            raise ValueError(f"{p.name}: give a deck or a deck list, not both")
        try:
            setup = playable_setup(lists[p.name], start.variant, len(names), p.name,
                                   start.single_planar_deck)
        except DeckListError as e:
            raise ValueError(f"{p.name}: {e}") from None
        if start.single_planar_deck and "planar_deck" in setup:
            communal.append(setup.pop("planar_deck"))
        players.append(p.model_copy(update=for_seat(setup, p.name in villains)))
    return start.model_copy(update={"players": players, **communal_deck(start, communal)})


def communal_deck(start: StartGame, listed: list[list[str]]) -> dict[str, Any]:
    """901.15: with the single planar deck option, the one Planar deck section of the
    lists is the communal deck (none: the body's `planar_deck`)."""
    if not listed:
        return {}
    if len(listed) > 1 or start.planar_deck:
        raise ValueError("single_planar_deck: one communal planar deck (901.15), so only "
                         "one list (or the body's planar_deck) may give it")
    return {"planar_deck": listed[0]}
