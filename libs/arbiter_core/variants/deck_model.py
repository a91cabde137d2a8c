"""The data of a deck list and of its check, as plain frozen records.

A parsed list (`DeckList`) is what the player wrote: entries by section, each with its
line number. A resolved list (`DeckCheck`) adds what each entry names (`CardInfo`: the
Oracle name and the facts the construction rules need, and whether the engine
implements it). The check functions of `deck_rules` and `deck_commander` read a
`DeckCheck` and return `Violation`s. These modules import nothing but the standard
library and each other: they are in the pure rules core, where the variant classes name
the check functions as their deck rules (docs/decks.md, "The variant hook"), and
`arbiter_decks` re-exports them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum


class Section(Enum):
    """The sections of a deck list (decks.md), by their heading."""

    COMMANDER = "Commander"
    COMPANION = "Companion"
    DECK = "Deck"
    SIDEBOARD = "Sideboard"
    PLANAR = "Planar deck"
    SCHEME = "Scheme deck"
    VANGUARD = "Vanguard"


class Kind(Enum):
    """What sort of card a name is (CR 108.2a: nontraditional cards are not in decks)."""

    TRADITIONAL = "card"
    PLANE = "plane"  # CR 311
    PHENOMENON = "phenomenon"  # CR 312
    SCHEME = "scheme"  # CR 314
    VANGUARD = "vanguard"  # CR 902
    CONSPIRACY = "conspiracy"  # CR 905
    OTHER = "nontraditional"  # e.g. Hero cards


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One line `N Card Name [(SET) NUMBER]` as written."""

    line: int
    count: int
    name: str
    section: Section
    set_code: str | None = None
    collector_number: str | None = None


@dataclass(frozen=True, slots=True)
class DeckList:
    entries: tuple[DeckEntry, ...]

    def section(self, section: Section) -> tuple[DeckEntry, ...]:
        return tuple(e for e in self.entries if e.section is section)


@dataclass(frozen=True, slots=True)
class CardInfo:
    """The facts of one Oracle card that deck construction reads.

    `copy_limit` is None for the rules' own limit, 0 when the card's text lets a deck
    have any number of it (e.g. Relentless Rats), else the card's own number.
    """

    name: str
    kind: Kind = Kind.TRADITIONAL
    basic: bool = False  # CR 205.4c: supertype basic
    copy_limit: int | None = None
    companion: bool = False  # CR 702.139a
    color_identity: str = ""  # CR 903.4, letters in WUBRG order
    implemented: bool = False  # the engine's card pool defines it
    # CR 903.3: "commander" a legendary creature, Vehicle or Spacecraft card (or one that
    # says it can be your commander, 903.3a); "planeswalker" a legendary planeswalker
    # card, a commander in Brawl only (903.12c); "" neither
    commander: str = ""
    land_colors: str = ""  # CR 903.5d: colors of mana its basic land types make, WUBRG
    back_colors: str = ""  # CR 903.4d: colors of its identity only its back face gives


@dataclass(frozen=True, slots=True)
class Resolved:
    """An entry and the card it names (None: no Magic card has that name)."""

    entry: DeckEntry
    card: CardInfo | None
    suggestion: str | None = None  # for an unknown name: the closest Oracle name

    @property
    def label(self) -> str:
        return self.card.name if self.card is not None else self.entry.name


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """A resolved deck list, the input of every check function."""

    entries: tuple[Resolved, ...]
    players: int = 2  # the game's number of players, for rules that depend on it

    def section(self, *sections: Section) -> tuple[Resolved, ...]:
        return tuple(r for r in self.entries if r.entry.section in sections)

    def count(self, *sections: Section) -> int:
        return sum(r.entry.count for r in self.section(*sections))

    def by_name(self, *sections: Section) -> dict[str, int]:
        """Copies of each card (by Oracle name, or as written when unknown), in the
        order first listed."""
        out: dict[str, int] = {}
        for r in self.section(*sections):
            out[r.label] = out.get(r.label, 0) + r.entry.count
        return out

    def card(self, label: str) -> CardInfo | None:
        return next((r.card for r in self.entries if r.label == label), None)


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken construction rule: the card (or "deck"), the CR rule, and why."""

    card: str
    rule: str
    reason: str
    # the rules that put the offending fact there, when another than the broken rule's
    # own reading (903.4d: a color the back face gives)
    because: tuple[str, ...] = ()

    def line(self) -> str:
        return f"{self.card}: {self.rule}: {self.reason}"

    def as_json(self) -> dict[str, str | list[str]]:
        out: dict[str, str | list[str]] = {"card": self.card, "rule": self.rule,
                                           "reason": self.reason}
        if self.because:
            out["because"] = list(self.because)
        return out


#: A construction rule: reads a resolved list, returns its violations (none: it holds).
DeckRule = Callable[[DeckCheck], Iterable[Violation]]


@dataclass(frozen=True, slots=True)
class CheckResult:
    violations: tuple[Violation, ...]
    cards: int  # cards in the deck: the Commander and Deck sections (903.5a counts both)
    deck: tuple[str, ...] = field(default=())  # the Deck section by Oracle name, one a copy
    commander: tuple[str, ...] = field(default=())  # the Commander section (903.3)
    # the supplementary sections: planar deck (901.3), scheme deck (904.3), vanguard (902.3)
    planar_deck: tuple[str, ...] = field(default=())
    scheme_deck: tuple[str, ...] = field(default=())
    vanguard: tuple[str, ...] = field(default=())
    # the Sideboard section, one a copy: cards outside the game (100.4, 400.11a)
    sideboard: tuple[str, ...] = field(default=())

    @property
    def legal(self) -> bool:
        return not self.violations
