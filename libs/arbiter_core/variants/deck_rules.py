"""Deck construction rules as small check functions, one rule each (CR 100.2, 100.4,
108.2a, 103.2b, 702.139a, 901.3, 901.15a, 902.3, 904.3).

Each function (or each function a factory returns) is a `DeckRule`: it reads a resolved
list (`DeckCheck`) and yields `Violation`s naming the card (or `deck`), the rule and why.
A variant declares its deck rules as a tuple of these (`constructed()` for two-player and
the multiplayer variants; a supplementary variant adds its own, e.g. `planar_deck()`).
This module is pure: it imports only the standard library and `deck_model`; it lives in
the rules core beside the variant classes, and `arbiter_decks.rules` re-exports it.
"""

from __future__ import annotations

from collections.abc import Iterator

from arbiter_core.variants.deck_model import (
    DeckCheck,
    DeckRule,
    Kind,
    Resolved,
    Section,
    Violation,
)

MIN_CONSTRUCTED = 60  # 100.2a
MAX_COPIES = 4  # 100.2a
MAX_SIDEBOARD = 15  # 100.4a
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen")
#: the sections a constructed game reads (Companion: 103.2b, a card from outside the game)
CONSTRUCTED_SECTIONS = frozenset({Section.DECK, Section.SIDEBOARD, Section.COMPANION})
#: where a section's cards belong, cited when a variant doesn't use the section
SECTION_RULES = {Section.COMMANDER: ("100.2c", "a commander (Commander, 903.3)"),
                 Section.PLANAR: ("100.2d", "a planar deck (Planechase, 901.3)"),
                 Section.SCHEME: ("100.2d", "a scheme deck (Archenemy, 904.3)"),
                 Section.VANGUARD: ("902.3", "a vanguard card (Vanguard, 902.3)"),
                 Section.SIDEBOARD: ("903.5e", "a sideboard"),
                 Section.COMPANION: ("103.2b", "a companion"),
                 Section.DECK: ("100.2", "a deck")}
_TRADITIONAL_SECTIONS = (Section.COMMANDER, Section.COMPANION, Section.DECK,
                         Section.SIDEBOARD)
_NONTRADITIONAL = {Kind.PLANE: ("a plane", Section.PLANAR),
                   Kind.PHENOMENON: ("a phenomenon", Section.PLANAR),
                   Kind.SCHEME: ("a scheme", Section.SCHEME),
                   Kind.VANGUARD: ("a vanguard card", Section.VANGUARD),
                   Kind.CONSPIRACY: ("a conspiracy", None),
                   Kind.OTHER: ("a nontraditional card", None)}


def number(n: int) -> str:
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def _where(r: Resolved) -> str:
    return f"line {r.entry.line}"


def cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _in(section: Section) -> str:
    return "the deck" if section is Section.DECK else f"the {section.value} section"


# ------------------------------------------------------------------ every variant


def known_cards(d: DeckCheck) -> Iterator[Violation]:
    """CR 100.2 (a deck of Magic cards; 108.1: a card is its Oracle entry): every name
    is an Oracle card's name."""
    for r in d.entries:
        if r.card is None:
            hint = f"; did you mean {r.suggestion}?" if r.suggestion else ""
            yield Violation(r.entry.name, "100.2",
                            f"no Magic card has this name ({_where(r)}){hint}")


def implemented(d: DeckCheck) -> Iterator[Violation]:
    """Not a CR rule: the engine can play only the cards its pool defines. The rule
    field says `engine`."""
    seen: set[str] = set()
    for r in d.entries:
        if r.card is not None and not r.card.implemented and r.card.name not in seen:
            seen.add(r.card.name)
            yield Violation(r.card.name, "engine",
                            f"not implemented by the engine, so it cannot be played "
                            f"({_where(r)})")


def traditional_cards(d: DeckCheck) -> Iterator[Violation]:
    """CR 108.2a: nontraditional cards (planes, phenomena, schemes, vanguards,
    conspiracies) are not included in decks; 100.2d: they go in supplementary decks."""
    for r in d.section(*_TRADITIONAL_SECTIONS):
        if r.card is None or r.card.kind is Kind.TRADITIONAL:
            continue
        what, home = _NONTRADITIONAL[r.card.kind]
        hint = f"; list it under {home.value}" if home is not None else ""
        yield Violation(r.card.name, "108.2a",
                        f"{what} is not a traditional Magic card and cannot be in "
                        f"{_in(r.entry.section)} ({_where(r)}){hint}")


def only_sections(*used: Section) -> DeckRule:
    """The variant reads only these sections; cards in another are a violation citing
    the rule that section belongs to (100.2c commanders, 100.2d supplementary decks,
    902.3 vanguards, 903.5e no sideboard in Commander)."""
    allowed = frozenset(used)

    def check(d: DeckCheck) -> Iterator[Violation]:
        for section in Section:
            if section in allowed or not d.section(section):
                continue
            rule, what = SECTION_RULES[section]
            yield Violation("deck", rule, f"this variant uses no {what.removeprefix('a ')}"
                                          f": {_in(section)} has "
                                          f"{cards(d.count(section))}")
    check.__doc__ = f"Only the sections {sorted(s.value for s in allowed)} are used."
    return check


# ------------------------------------------------------------------ constructed


def constructed_size(d: DeckCheck) -> Iterator[Violation]:
    """CR 100.2a: a constructed deck has at least 60 cards (100.5: no maximum)."""
    n = d.count(Section.DECK)
    if n < MIN_CONSTRUCTED:
        yield Violation("deck", "100.2a", f"{cards(n)} in the deck; a constructed deck "
                                          f"has at least {MIN_CONSTRUCTED}")


def copy_limit(d: DeckCheck) -> Iterator[Violation]:
    """CR 100.2a: no more than four of a card with a particular English name, basic lands
    excepted; 100.4a: the limit applies to the deck and sideboard combined (a companion,
    103.2b, is counted with them). A card's own text can change its limit (e.g. Relentless
    Rats: any number; Seven Dwarves: up to seven)."""
    deck = d.by_name(Section.DECK)
    combined = d.by_name(Section.DECK, Section.SIDEBOARD, Section.COMPANION)
    for name, n in combined.items():
        card = d.card(name)
        if card is None or card.basic or card.copy_limit == 0:
            continue
        limit = card.copy_limit or MAX_COPIES
        if n <= limit:
            continue
        own = "" if card.copy_limit is None else f" (its own text allows {number(limit)})"
        if deck.get(name, 0) > limit:
            yield Violation(name, "100.2a", f"{n} copies; a constructed deck has at most "
                                            f"{number(limit)} of a card that is not a "
                                            f"basic land{own}")
        else:
            yield Violation(name, "100.4a", f"{n} copies in the deck and sideboard "
                                            f"together; the limit of {number(limit)} "
                                            f"applies to both combined{own}")


def sideboard_size(d: DeckCheck) -> Iterator[Violation]:
    """CR 100.4a: in constructed play a sideboard has at most fifteen cards."""
    n = d.count(Section.SIDEBOARD)
    if n > MAX_SIDEBOARD:
        yield Violation("deck", "100.4a", f"{cards(n)} in the sideboard; a constructed "
                                          f"sideboard has at most {number(MAX_SIDEBOARD)}")


def companion(d: DeckCheck) -> Iterator[Violation]:
    """CR 103.2b: a player reveals at most one companion from outside the game;
    702.139a: it is a card with a companion ability."""
    n = d.count(Section.COMPANION)
    if n > 1:
        yield Violation("deck", "103.2b", f"{cards(n)} in the Companion section; a player "
                                          "reveals at most one companion")
    for r in d.section(Section.COMPANION):
        if r.card is not None and not r.card.companion:
            yield Violation(r.card.name, "702.139a",
                            f"has no companion ability ({_where(r)})")


def constructed(*sections: Section) -> tuple[DeckRule, ...]:
    """The rules of a constructed game (two-player and the multiplayer variants, CR
    100.2a, 100.4a), reading the constructed sections and any `sections` a supplementary
    variant adds (whose own rules it lists beside these)."""
    return (known_cards, implemented, traditional_cards,
            only_sections(*CONSTRUCTED_SECTIONS, *sections), constructed_size,
            copy_limit, sideboard_size, companion)


# ------------------------------------------------------------------ supplementary decks


def _kind_check(d: DeckCheck, section: Section, kinds: tuple[Kind, ...], what: str,
                rule: str) -> Iterator[Violation]:
    for r in d.section(section):
        if r.card is not None and r.card.kind not in kinds:
            yield Violation(r.card.name, rule, f"not {what}, so it cannot be in "
                                               f"{_in(section)} ({_where(r)})")


def _distinct(d: DeckCheck, section: Section, most: int, rule: str,
              deck: str) -> Iterator[Violation]:
    for name, n in d.by_name(section).items():
        if n > most:
            limit = (f"each card in a {deck} has a different English name"
                     if most == 1 else f"a {deck} has at most {number(most)} of a name")
            yield Violation(name, rule, f"{n} copies; {limit}")


def _planar(d: DeckCheck, minimum: int, phenomena: int, rule: str,
            deck: str) -> Iterator[Violation]:
    n = d.count(Section.PLANAR)
    if n < minimum:
        yield Violation("deck", rule, f"{cards(n)} in the {deck}; it has at least "
                                      f"{number(minimum)} plane and phenomenon cards")
    yield from _kind_check(d, Section.PLANAR, (Kind.PLANE, Kind.PHENOMENON),
                           "a plane or phenomenon", rule)
    found = sum(r.entry.count for r in d.section(Section.PLANAR)
                if r.card is not None and r.card.kind is Kind.PHENOMENON)
    if found > phenomena:
        yield Violation("deck", rule, f"{found} phenomenon cards in the {deck}; at most "
                                      f"{number(phenomena)}")
    yield from _distinct(d, Section.PLANAR, 1, rule, deck)


def planar_deck(d: DeckCheck) -> Iterator[Violation]:
    """CR 901.3: a planar deck of at least ten plane and/or phenomenon cards, at most two
    of them phenomena, each with a different English name."""
    yield from _planar(d, 10, 2, "901.3", "planar deck")


def single_planar_deck(d: DeckCheck) -> Iterator[Violation]:
    """CR 901.15a: the communal planar deck has at least forty cards or ten times the
    number of players, whichever is smaller; at most twice as many phenomena as players;
    each card with a different English name."""
    players = max(1, d.players)
    yield from _planar(d, min(40, 10 * players), 2 * players, "901.15a",
                       "single planar deck")


def scheme_deck(d: DeckCheck) -> Iterator[Violation]:
    """CR 904.3: the archenemy's scheme deck has at least twenty scheme cards and no more
    than two of any card with a particular English name (a hero's list has none)."""
    n = d.count(Section.SCHEME)
    if 0 < n < 20:  # none: a hero's list (904.2b; the archenemy's has one, 904.3)
        yield Violation("deck", "904.3", f"{cards(n)} in the scheme deck; it has at least "
                                         "twenty scheme cards")
    yield from _kind_check(d, Section.SCHEME, (Kind.SCHEME,), "a scheme", "904.3")
    yield from _distinct(d, Section.SCHEME, 2, "904.3", "scheme deck")


def vanguard_card(d: DeckCheck) -> Iterator[Violation]:
    """CR 902.3 (902.1: one face-up vanguard card each): exactly one vanguard card."""
    n = d.count(Section.VANGUARD)
    if n != 1:
        yield Violation("deck", "902.3", f"{cards(n)} in the Vanguard section; each player "
                                         "has exactly one vanguard card")
    yield from _kind_check(d, Section.VANGUARD, (Kind.VANGUARD,), "a vanguard card",
                           "902.3")


def commander_scheme_deck(d: DeckCheck) -> Iterator[Violation]:
    """CR 904.13d: in Archenemy Commander the archenemy's scheme deck has at least ten
    scheme cards, each with a different English name (a hero's list has none)."""
    n = d.count(Section.SCHEME)
    if n == 0:
        return
    if n < 10:
        yield Violation("deck", "904.13d", f"{cards(n)} in the scheme deck; it has at least "
                                           "ten scheme cards")
    yield from _kind_check(d, Section.SCHEME, (Kind.SCHEME,), "a scheme", "904.13d")
    yield from _distinct(d, Section.SCHEME, 1, "904.13d", "scheme deck")
