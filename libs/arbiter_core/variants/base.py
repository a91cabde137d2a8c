"""Variants as behaviour, in the style of python-chess's board subclasses: the two-player
game (CR 103) is `Variant`, and each multiplayer variant (806-811) a subclass that
overrides the hooks where its rules differ - seating and teams, the first player,
starting life and poison, range of influence, attack restrictions, turn markers and what
happens when players leave. Options (range of influence, attack left/right/multiple,
deploy creatures, shared team turns) compose with any of them, fixed as the game starts
(`GameStarted`) and read from the state.

A variant registers itself by name (`@variant`); the rest of the core asks the game's
variant for its behaviour (`variant_of(state)`) and never compares variant names
(`tests/structure/test_registries.py` checks that).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any, ClassVar, Literal

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.commands import SetUpPosition, StartGame
from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.registry import Registry
from arbiter_core.kernel.rng import Rng
from arbiter_core.kernel.state import GameState, Marker
from arbiter_core.kernel.txn import Txn

AttackOption = Literal["left", "right", "multiple", "any"]


class UnsupportedVariant(InvalidCommand):
    def __init__(self, name: str) -> None:
        super().__init__("variant", f"variant {name!r} is not supported yet")


class Variant:
    """The two-player game: the base of every variant (CR 103, 104)."""

    name: ClassVar[str] = "two_player"
    base_name: ClassVar[str | None] = None  # the base variant of a composed one
    starting_life: ClassVar[int] = 20  # CR 103.4
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    team_play: ClassVar[bool] = False  # players belong to teams of more than one
    shared_team_turns: ClassVar[bool] = False  # 805 (always in 2HG, 810.2)
    shared_life: ClassVar[bool] = False  # 810.4
    default_attack: ClassVar[AttackOption] = "multiple"
    deploy_creatures: ClassVar[bool] = False  # 804 (always in Emperor, 809.3b)
    attack_adjacent_only: ClassVar[bool] = False  # 809.3c, 811.4
    equal_teams: ClassVar[bool] = False
    default_range: ClassVar[int | None] = None  # 807.2a, 811.2a
    grand_melee: ClassVar[bool] = False  # 807: several turn markers
    #: the rule that limits attacks to neighbours (809.3c, 811.4)
    adjacent_attack_rule: ClassVar[str] = "811.4"
    #: the rule that lets teammates review each other's hands, if any (808.5, 810.5)
    hand_review_rule: ClassVar[str | None] = None
    #: options that make the game another registered variant (903.12: Commander's
    #: `brawl` is Brawl), by option name
    option_variants: ClassVar[dict[str, str]] = {}
    #: each deck has a commander (903.3), and its size (903.5a, 903.12d); 0: none
    commander_deck: ClassVar[int] = 0

    # -------------------------------------------------------------- seating (103.1)

    def check_teams(self, seats: list[str], teams: dict[str, str]) -> None:
        """Raise unless the teams are seated as the variant says (808.2, 809.2, 810.3:
        each team together)."""
        n = len(seats)
        changes = sum(1 for i in range(n) if teams[seats[i]] != teams[seats[(i + 1) % n]])
        if changes != len(set(teams.values())):
            raise InvalidCommand("players", f"in {self.name} each team sits together "
                                            "(808.2, 809.2, 810.3)")

    def check_team_sizes(self, sizes: Counter[str]) -> None:
        """Raise unless the teams' sizes fit the variant (810.1, 809.1)."""

    def random_seating(self, rng: Rng, names: list[str], given: dict[str, str | None]
                       ) -> list[str]:
        """A random seating that keeps the variant's rules (103.1, 800.5)."""
        if not self.team_play:
            return rng.shuffled(names)
        return [p for g in self._shuffled_teams(rng, names, given) for p in g]

    @staticmethod
    def _shuffled_teams(rng: Rng, names: list[str], given: dict[str, str | None]
                        ) -> list[list[str]]:
        by_team: dict[str, list[str]] = {}
        for p in names:
            by_team.setdefault(str(given.get(p)), []).append(p)
        order = rng.shuffled(sorted(by_team))
        return [rng.shuffled(by_team[team]) for team in order]

    def bot_team_size(self, players: int) -> int | None:
        """The team size of a game among bots (`arbiter play`), or None without teams."""
        return max(1, players // 2) if self.team_play else None

    def check_options(self, deploy_creatures: bool | None) -> None:
        """Raise on an option the variant doesn't use."""

    # -------------------------------------------------------------- the start (103)

    def first_player(self, seats: list[str], teams: dict[str, str]) -> str:
        """Who starts (103.1): the first seat as given or randomly seated."""
        return seats[0]

    def first_player_skips_draw(self, n_players: int) -> bool:
        """CR 103.8a: in a two-player game the starting player skips the first draw;
        103.8c: in other multiplayer games nobody does."""
        return n_players == 2

    def starting_hand_size(self, s: GameState, player: str) -> int:
        """CR 103.5: seven cards; Vanguard overrides it with each vanguard's hand
        modifier (103.5a)."""
        return 7

    def free_first_mulligan(self, s: GameState) -> bool:
        """CR 103.5c: in a multiplayer game (and in any Brawl game: a variant or option
        overrides this) the first mulligan a player takes doesn't count."""
        return len(s.seats) > 2

    def team_life(self, heads: int) -> int:
        return self.starting_life

    def poison_limit(self, heads: int) -> int:
        """CR 704.5c: ten poison counters."""
        return 10

    def emperors(self, seats: list[str], teams: dict[str, str]) -> list[str]:
        return []

    def ranges(self, seats: list[str], teams: dict[str, str],
               option: int | None) -> dict[str, int]:
        """CR 801.2a: the chosen range, or the variant's default (807.2a, 811.2a)."""
        option = option if option is not None else self.default_range
        return {} if option is None else dict.fromkeys(seats, option)

    def place_markers(self, t: Txn, seats: list[str], first: str, turn: int, step: str,
                      markers: dict[int, str], skip_draw: bool, rule: str) -> None:
        """The turn marker as the game begins (103.8) or a position is set up (500.1):
        one, with the first player (`markers` is for variants with several, 807.4)."""
        t.emit(ev.MarkerPlaced(marker=1, holder=first, turn=turn, step=step,
                               skip_draw=skip_draw, rule=rule))

    # -------------------------------------------------------------- during the game

    def may_review_hand(self, s: GameState, seat: str, owner: str) -> bool:
        """Whether `seat` may look at teammate `owner`'s hand (808.5, 809.7, 810.5)."""
        return self.hand_review_rule is not None

    def turn_ended(self, t: Txn, m: Marker) -> bool:
        """The variant's own turn structure as a turn ends (807.4): True when it took over
        from the ordinary next turn (500.7, 101.4)."""
        return False

    def untapping(self, t: Txn, m: Marker) -> None:
        """As an untap step begins, before permanents untap (807.4)."""

    def players_left(self, t: Txn, players: list[str]) -> None:
        """What the variant does as players leave the game (807.4c, 807.4e-g)."""

    def setting_up(self, t: Txn, cmd: StartGame | SetUpPosition) -> None:
        """The variant's own part of the start (103.2, e.g. 903.6: commanders to the
        command zone) or of a judge's position, after `GameStarted` and, for a position,
        after its cards are put; before libraries are put for a new game."""


    # -------------------------------------------------------------- casual variants

    def starting_lives(self, life: dict[str, int], cmd: Any) -> dict[str, int]:
        """Each player's starting life from the command's setups (902.4 vanguard
        modifiers, 904.5 the archenemy's 40)."""
        return life

    def supplements(self, t: Txn, cmd: Any, first: str) -> str:
        """Supplementary decks and cards as the game begins (planar decks 901.5,
        vanguards 902.3, scheme decks 904.4); the first player, which a variant may
        choose instead (904.6)."""
        return first

    def position_supplements(self, t: Txn, cmd: Any, active: str) -> None:
        """The same for a judge's position (its cards are put as given). `cmd` is the
        `StartGame` or `SetUpPosition` command (its players and options)."""


class VariantComposed(ev.EventBase):
    """A supplementary variant is played over a base (CR 900.1, 901.12, 903.2, 904.13)."""

    type: Literal["VariantComposed"] = "VariantComposed"
    variant: str
    base: str


class Supplement(Variant):
    """A supplementary variant, played over a base variant (CR 901.12 and 901.14:
    Planechase over Two-Headed Giant or Grand Melee; 904.13: Archenemy with Commander):
    it overrides only the hooks its rules change and reaches the base's with `super()`.
    `compose` makes the combination, `over` the one a game is played with."""

    #: the number of players of the game being set up (903.12f), when known
    players: int = 0

    def default_base(self, players: int) -> str:
        """The base without one given (901.2, 903.2: a two-player game, or
        Free-for-All)."""
        return "two_player" if players <= 2 else "free_for_all"

    def over(self, base: str | None, players: int) -> Variant:
        """This supplement over `base` (its default when None), for a game of `players`."""
        found = get_variant(base or self.default_base(players))
        if isinstance(found, Supplement) or not self.may_be_over(found):
            raise InvalidCommand("base_variant", f"{self.name} can't be played over "
                                                 f"{found.name}")
        combined = type(composed(self.name, found.name))()
        if isinstance(combined, Supplement):
            combined.players = players
        return combined

    def may_be_over(self, base: Variant) -> bool:
        """Whether the supplement may be played over `base`."""
        return True


def compose(supplement: type[Supplement], base: type[Variant]) -> Variant:
    """The supplement played over the base: a class whose hooks are the supplement's
    where it has them and the base's otherwise (Python's method resolution order: the
    supplement, then the base, then `Variant`)."""
    if not issubclass(supplement, Supplement) or issubclass(base, Supplement):
        raise InvalidCommand("variant", f"{supplement.name} can't be played over "
                                        f"{base.name}")
    combined: type[Variant] = type(f"{supplement.__name__}Over{base.__name__}",
                                   (supplement, base),
                                   {"name": supplement.name, "base_name": base.name})
    return combined()


@cache
def composed(supplement: str, base: str) -> Variant:
    """The registered supplement over the registered base (one class per pair)."""
    return compose(type(VARIANTS[supplement]), type(VARIANTS[base]))  # type: ignore[arg-type]


VARIANTS: Registry[str, Variant] = Registry("variant")
#: the variants whose issues have not landed: named, refused as not supported yet
NOT_YET: tuple[str, ...] = ()


def variant(cls: type[Variant]) -> type[Variant]:
    """Register the decorated variant class by its name."""
    VARIANTS.add(cls.name, cls())
    return cls


variant(Variant)


def known_variants() -> tuple[str, ...]:
    return (*VARIANTS, *NOT_YET)


def get_variant(name: str, base: str | None = None, players: int | None = None) -> Variant:
    """The named variant; a supplement is played over `base` (its default without one)
    when the number of players is given (a game being set up)."""
    v = VARIANTS.get(name)
    if v is None:
        if name in NOT_YET:
            raise UnsupportedVariant(name)
        raise InvalidCommand("variant", f"unknown variant {name!r}")
    if isinstance(v, Supplement) and players is not None:
        return v.over(base, players)
    if base is not None:
        raise InvalidCommand("base_variant", f"{name} is not played over a base variant")
    return v


def variant_of(s: GameState) -> Variant:
    """The game's variant (the two-player game for a state not started); a supplement
    over its base as the game recorded it (`VariantComposed`)."""
    if s.composed is not None:
        return composed(*s.composed)
    return VARIANTS.table.get(s.variant) or _BASE


@applies(VariantComposed)
def _composed(s: GameState, e: VariantComposed) -> None:
    s.composed = (e.variant, e.base)


_BASE = Variant()


class CasualNoted(ev.EventBase):
    """What a casual card remembers about a player changes to `value` (0: forgotten;
    `add`: one more value, e.g. a card number, not a replacement)."""

    type: Literal["CasualNoted"] = "CasualNoted"
    note: Literal["schemes_held", "dealt", "horde", "extra_combat"]
    player: str
    value: int
    add: bool = False


def note(s: GameState, kind: str, player: str) -> int:
    """The value of a casual note (0 without one)."""
    return next((v for k, p, v in s.casual_notes if k == kind and p == player), 0)


@applies(CasualNoted)
def _noted(s: GameState, e: CasualNoted) -> None:
    kept = s.casual_notes if e.add else tuple(
        n for n in s.casual_notes if (n[0], n[1]) != (e.note, e.player))
    s.casual_notes = (*kept, (e.note, e.player, e.value)) if e.value else kept


@explains(CasualNoted)
def _explain_noted(before: GameState, e: CasualNoted, name: Namer) -> str:
    return f"note {e.note} of {e.player}: {e.value}"


@explains(VariantComposed)
def _explain_composed(before: GameState, e: VariantComposed, name: Namer) -> str:
    return f"{e.variant} is played over {e.base}"
