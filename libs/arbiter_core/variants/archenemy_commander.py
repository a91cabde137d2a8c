"""The Archenemy Commander option (CR 904.13): a Commander game played with the
Archenemy rules (904.13a) - Archenemy's option `commander` makes the game this variant,
`archenemy_commander` (like Commander's `brawl`, 903.12), over Team vs. Team (904.2).

- 904.13a: the Commander rules apply to every player (a commander each, in the command
  zone, cast with the tax, commander damage), modified by the Archenemy rules (scheme
  deck, the archenemy's first turn, setting schemes in motion).
- 904.13b: the archenemy starts at 60 life, and the heroes share one life total of 60
  (the Two-Headed Giant rules of 810.8-810.9: `shared_life`; the archenemy's team is of
  one, so its "shared" total is simply the archenemy's).
- 904.13c: poison counters are not shared (`GameState.shared_poison`): each player with
  ten or more loses (704.5c; a hero's team loses with them, 810.8a).
- 904.13d: the archenemy's scheme deck is at least ten cards, each a different name
  (`deck_rules.commander_scheme_deck`; the 904.3 twenty-card rule doesn't apply).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from arbiter_core.kernel.commands import SetUpPosition, StartGame
from arbiter_core.kernel.events.base import EventBase
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import INDIVIDUAL_POISON, GameState
from arbiter_core.kernel.txn import Txn
from arbiter_core.variants.archenemy import Archenemy
from arbiter_core.variants.base import Supplement, variant
from arbiter_core.variants.commander import Commander
from arbiter_core.variants.deck_commander import (
    commander_card,
    commander_color_identity,
    commander_size,
    singleton,
)
from arbiter_core.variants.deck_model import DeckRule, Section
from arbiter_core.variants.deck_rules import (
    commander_scheme_deck,
    implemented,
    known_cards,
    only_sections,
    traditional_cards,
)

ARCHENEMY_COMMANDER_LIFE = 60  # 904.13b


class PoisonNotShared(EventBase):
    """Poison counters are each player's own, though life is shared (904.13c)."""

    type: Literal["PoisonNotShared"] = "PoisonNotShared"


@variant
class ArchenemyCommander(Archenemy, Commander):
    name = "archenemy_commander"
    shared_life = True  # 904.13b: the heroes' shared life total (810.8, 810.9)
    option_variants: ClassVar[dict[str, str]] = {}
    deck_sections = ("Scheme deck",)
    distinct_schemes = True  # 904.13d: the bots' scheme deck has one of each name

    def team_life(self, heads: int) -> int:
        """CR 904.13b: 60 for the archenemy, and 60 shared by the heroes."""
        return ARCHENEMY_COMMANDER_LIFE

    def starting_lives(self, life: dict[str, int], cmd: Any) -> dict[str, int]:
        """CR 904.13b (not 904.5's 40 and 20): the team's life as `team_life` says."""
        return Supplement.starting_lives(self, life, cmd)

    def deck_rules(self) -> tuple[DeckRule, ...]:
        """A Commander deck (903.5) with, for the archenemy, a scheme deck of at least
        ten different schemes (904.13d)."""
        return (known_cards, implemented, traditional_cards,
                only_sections(Section.COMMANDER, Section.DECK, Section.SCHEME),
                commander_card(False), commander_size(False), singleton,
                commander_color_identity(False), commander_scheme_deck)

    def setting_up(self, t: Txn, cmd: StartGame | SetUpPosition) -> None:
        """904.13a: the Commander rules' start (903.6); 904.13c: poison not shared."""
        super().setting_up(t, cmd)
        t.emit(PoisonNotShared(rule="904.13c"))


Archenemy.option_variants = {"commander": ArchenemyCommander.name}  # 904.13


@applies(PoisonNotShared)
def _poison_not_shared(s: GameState, e: PoisonNotShared) -> None:
    s.casual_options = tuple(sorted({*s.casual_options, INDIVIDUAL_POISON}))


@explains(PoisonNotShared)
def _explain(before: GameState, e: PoisonNotShared, name: Namer) -> str:
    return "each player's poison counters are their own"
