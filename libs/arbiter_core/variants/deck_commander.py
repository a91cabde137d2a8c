"""Commander's deck construction rules (CR 903.3-903.5, Brawl 903.12c-e) and color
identity (903.4), as `DeckRule` check functions over a resolved list (`deck_model`).

- 903.3 (903.12c): the Commander section holds exactly one card, and it can be a
  commander: legendary creature, Vehicle or Spacecraft card, or one that says so
  (903.3a: a planeswalker that doesn't say so is cited by that rule); in Brawl also a
  legendary planeswalker card.
- 903.5a (903.12d): exactly 100 cards with the commander (Brawl 60).
- 903.5b: one copy of each card but basic lands (a card whose own text allows more,
  such as Relentless Rats, keeps its own limit, 100.2a).
- 903.5c: each card's color identity is within the commander's; 903.5d: so are the
  colors of mana a card with basic land types could make; 903.12e: in Brawl, with a
  colorless commander, basic lands of one basic land type.
- 903.5e: no sideboard (`only_sections`).

`color_identity` computes 903.4 from a card's faces; `tools/gen_oracle_index.py` uses it
to write the index the deck package reads. Pure: the standard library and the other
deck modules only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from arbiter_core.variants.deck_model import (
    CardInfo,
    DeckCheck,
    DeckRule,
    Section,
    Violation,
)
from arbiter_core.variants.deck_rules import (
    cards,
    implemented,
    known_cards,
    only_sections,
    traditional_cards,
)

COLORS = "WUBRG"
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
LAND_TYPE_COLORS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R",
                    "Forest": "G"}  # 305.6: the basic land types' mana abilities
COMMANDER_DECK = 100  # 903.5a
BRAWL_DECK = 60  # 903.12d
_SYMBOL = re.compile(r"\{([^}]*)\}")
_REMINDER = re.compile(r"\([^()]*\)")


def color_identity(costs: Iterable[str], texts: Iterable[str],
                   colors: Iterable[str] = ()) -> str:
    """CR 903.4: the colors of the mana symbols in the mana costs and rules texts of all
    of a card's faces (903.4d: back faces too), hybrid and Phyrexian symbols with each
    of their colors, reminder text left out (903.4c), plus the colors its color
    indicators and characteristic-defining abilities give (`colors`: each face's colors,
    which hold those). Letters in WUBRG order."""
    found: set[str] = set(colors)
    for text in (*costs, *(_REMINDER.sub("", t) for t in texts)):
        for symbol in _SYMBOL.findall(text):
            found.update(c for c in symbol.upper().split("/") if c in COLORS)
    return "".join(c for c in COLORS if c in found)


def colors_text(identity: str) -> str:
    names = [COLOR_NAMES[c] for c in identity]
    if not names:
        return "colorless"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _commander(d: DeckCheck) -> tuple[str, str] | None:
    """The commander's name and color identity, when the section holds one known card."""
    found = d.section(Section.COMMANDER)
    if len(found) != 1 or found[0].card is None or found[0].entry.count != 1:
        return None
    return found[0].card.name, found[0].card.color_identity


def commander_card(brawl: bool = False) -> DeckRule:
    """CR 903.3 (Brawl 903.12c): exactly one commander, a card that can be one."""
    rule = "903.12c" if brawl else "903.3"

    def check(d: DeckCheck) -> Iterator[Violation]:
        n = d.count(Section.COMMANDER)
        if n != 1:
            yield Violation("deck", rule, f"the Commander section has {cards(n)}; a "
                                          "Commander deck has exactly one commander")
            return
        r = d.section(Section.COMMANDER)[0]
        allowed = ("commander", "planeswalker") if brawl else ("commander",)
        if r.card is not None and r.card.commander == "planeswalker" and not brawl:
            yield Violation(r.card.name, "903.3a", "is a planeswalker that doesn't say it "
                                                   "can be your commander")
        elif r.card is not None and r.card.commander not in allowed:
            what = "creature or planeswalker" if brawl else "creature"
            yield Violation(r.card.name, rule, f"is not a legendary {what}, Vehicle or "
                                               "Spacecraft card and can't be a commander")
    check.__doc__ = commander_card.__doc__
    return check


def commander_size(brawl: bool = False) -> DeckRule:
    """CR 903.5a: exactly 100 cards with the commander; Brawl 903.12d: exactly 60."""
    size, rule = (BRAWL_DECK, "903.12d") if brawl else (COMMANDER_DECK, "903.5a")

    def check(d: DeckCheck) -> Iterator[Violation]:
        n = d.count(Section.COMMANDER, Section.DECK)
        if n != size:
            yield Violation("deck", rule, f"{cards(n)} with the commander; the deck has "
                                          f"exactly {size}")
    check.__doc__ = commander_size.__doc__
    return check


def singleton(d: DeckCheck) -> Iterator[Violation]:
    """CR 903.5b: other than basic lands, each card has a different name (a card's own
    deck limit, such as "any number", still applies: 100.2a)."""
    for name, n in d.by_name(Section.COMMANDER, Section.DECK).items():
        card = d.card(name)
        if card is None or card.basic or card.copy_limit == 0:
            continue
        limit = card.copy_limit or 1
        if n > limit:
            yield Violation(name, "903.5b", f"more than one copy ({n}) of a card that is "
                                            "not a basic land")


def commander_color_identity(brawl: bool = False) -> DeckRule:
    """CR 903.5c: each card's color identity within the commander's; 903.5d: the mana
    a card with basic land types could make too; 903.12e: a colorless Brawl commander's
    deck may have basic lands of one basic land type."""

    def check(d: DeckCheck) -> Iterator[Violation]:
        found = _commander(d)
        if found is None:
            return
        commander, identity = found
        free_type = _brawl_basic_type(d) if brawl and not identity else None
        for name in d.by_name(Section.DECK):
            card = d.card(name)
            if card is None:
                continue
            outside = set(card.color_identity) - set(identity)
            if card.basic and free_type is not None and card.land_colors:
                if card.land_colors != free_type:  # 903.12e: basics of one type only
                    yield Violation(name, "903.12e", "a colorless commander's deck may "
                                    "hold basic lands of one basic land type (the first "
                                    f"listed makes {colors_text(free_type)} mana); "
                                    "this is another")
                continue
            if outside:
                yield _outside_identity(name, card, identity, outside)
            elif set(card.land_colors) - set(identity):
                yield Violation(name, "903.5d", f"its basic land types make "
                                f"{colors_text(card.land_colors)} mana, outside "
                                f"{commander}'s color identity ({colors_text(identity)})")
    check.__doc__ = commander_color_identity.__doc__
    return check


def _outside_identity(name: str, card: CardInfo, identity: str,
                      outside: set[str]) -> Violation:
    """903.5c; when every color outside comes from the back face alone, 903.4d says why."""
    reason = (f"color identity {colors_text(card.color_identity)} is outside the "
              f"commander's ({colors_text(identity)})")
    if outside <= set(card.back_colors):
        back = "".join(c for c in COLORS if c in outside)
        return Violation(name, "903.5c", f"{reason}: its back face is {colors_text(back)} "
                         "(903.4d)", because=("903.4d",))
    return Violation(name, "903.5c", reason)


def _brawl_basic_type(d: DeckCheck) -> str | None:
    """903.12e: the one basic land type a colorless Brawl commander's basics share (the
    first listed; basics of any other type are then outside the rule)."""
    for r in d.section(Section.DECK):
        if r.card is not None and r.card.basic and r.card.land_colors:
            return r.card.land_colors
    return None


def commander_rules(brawl: bool = False) -> tuple[DeckRule, ...]:
    """The construction rules of a Commander (or Brawl) deck, in the order reported."""
    return (known_cards, implemented, traditional_cards,
            only_sections(Section.COMMANDER, Section.DECK), commander_card(brawl),
            commander_size(brawl), singleton, commander_color_identity(brawl))
