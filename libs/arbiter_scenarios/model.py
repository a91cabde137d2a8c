"""The scenario file format (the judges' public interface; see docs/scenarios.md).

Parsing turns YAML into validated models; any problem becomes a `ScenarioFormatError`
naming the file, the key and the problem, never a traceback. The file is read as
hostile input (`loading.py`: size, depth, integers, aliases, encoding, duplicate keys),
and a card list's "NAME x N" repeats at most MAX_COPIES copies (MAX_CARDS in a
scenario); counters are never negative.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from arbiter_core.cards import POOL
from arbiter_core.kernel.events import CardSetup
from arbiter_scenarios.loading import MAX_BYTES, LoadError, read_yaml

_REPEAT = re.compile(r"^(?P<name>.+?) x (?P<n>\d+)$")
MAX_COPIES = 1000  # "NAME x N": N at most this
MAX_COUNTER = 1_000_000  # counters, damage: 0 ... this
MAX_CARDS = 20_000  # cards set up in one scenario, every zone of every player


class ScenarioFormatError(Exception):
    def __init__(self, file: str, key: str, problem: str) -> None:
        super().__init__(f"{file}: {key}: {problem}")
        self.file, self.key, self.problem = file, key, problem


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CardEntry(_Model):
    card: str
    tapped: bool = False
    counters: dict[str, Annotated[int, Field(ge=0, le=MAX_COUNTER)]] = Field(
        default_factory=dict)
    damage: int = Field(default=0, ge=0, le=MAX_COUNTER)
    attached_to: str | None = None
    face_down: bool = False
    controller: str | None = None
    summoning_sick: bool = False

    def setup(self, on_battlefield: bool = False) -> CardSetup:
        """A planeswalker set up on the battlefield without a loyalty count has its
        printed loyalty, as if it had entered (CR 306.5b)."""
        counters = dict(self.counters)
        printed = POOL[self.card].loyalty if self.card in POOL else None
        if on_battlefield and printed and "loyalty" not in counters:
            counters["loyalty"] = printed
        return CardSetup(name=self.card, tapped=self.tapped, counters=counters,
                         damage=self.damage, controller=self.controller,
                         sick=self.summoning_sick)


def _expand(raw: Any) -> list[CardEntry]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ValueError("must be a list of cards")
    out: list[CardEntry] = []
    for item in raw:
        if isinstance(item, str):
            m = _REPEAT.match(item)
            if m:
                if len(m["n"]) > 6 or int(m["n"]) > MAX_COPIES:
                    raise ValueError(f"{item[:60]!r}: at most {MAX_COPIES} copies of a card")
                out.extend(CardEntry(card=m["name"]) for _ in range(int(m["n"])))
            else:
                out.append(CardEntry(card=item))
        elif isinstance(item, dict):
            out.append(CardEntry.model_validate(item))
        else:
            raise ValueError(f"a card must be a name or a mapping, not {item!r}")
    return out


ZONE_KEYS = ("battlefield", "hand", "graveyard", "exile", "library", "command",
             "planar_deck", "scheme_deck")


class PlayerSpec(_Model):
    name: str = Field(min_length=1)
    team: str | None = None
    life: int | None = None
    poison: int = Field(default=0, ge=0)
    battlefield: list[CardEntry] = Field(default_factory=list)
    hand: list[CardEntry] = Field(default_factory=list)
    graveyard: list[CardEntry] = Field(default_factory=list)
    exile: list[CardEntry] = Field(default_factory=list)
    library: list[CardEntry] = Field(default_factory=list)
    command: list[CardEntry] = Field(default_factory=list)
    planar_deck: list[CardEntry] = Field(default_factory=list)
    scheme_deck: list[CardEntry] = Field(default_factory=list)
    commander: str | None = None
    commander_damage_taken: dict[str, Annotated[int, Field(ge=0, le=MAX_COUNTER)]] = Field(
        default_factory=dict)
    vanguard: str | None = None
    archenemy: bool = False
    # the cards this player owns outside the game (400.11a: a sideboard; a project key)
    outside: list[str] = Field(default_factory=list)
    zone_order: tuple[str, ...] = ()  # zones in the order written (for Name#N)

    @field_validator(*ZONE_KEYS, mode="before")
    @classmethod
    def _cards(cls, v: Any) -> list[CardEntry]:
        return _expand(v)


class Start(_Model):
    turn: int = Field(default=1, ge=1)
    active: str | None = None
    step: Literal[
        "untap", "upkeep", "draw", "precombat_main", "beginning_of_combat",
        "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
        "end_of_combat", "postcombat_main", "end", "cleanup",
    ] = "precombat_main"


class Scenario(_Model):
    name: str = Field(min_length=1, max_length=500)
    rules: list[str] = Field(default_factory=list)
    variant: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    start: Start | None = None
    players: list[PlayerSpec] = Field(min_length=1)
    actions: list[dict[str, Any]] = Field(default_factory=list)
    expect: list[dict[str, Any]]
    team_life: dict[str, int] = Field(default_factory=dict)
    team_poison: dict[str, int] = Field(default_factory=dict)
    turn_markers: dict[int, str] = Field(default_factory=dict)
    planar_die: list[Literal["blank", "chaos", "planeswalker"]] = Field(
        default_factory=list, max_length=100)
    #: 901.15: the communal planar deck of `{single_planar_deck: true}`, top first
    planar_deck: list[CardEntry] = Field(default_factory=list)
    file: str = ""

    @field_validator("planar_deck", mode="before")
    @classmethod
    def _communal(cls, v: Any) -> list[CardEntry]:
        return _expand(v)

    @field_validator("rules", mode="before")
    @classmethod
    def _rules(cls, v: Any) -> list[str]:
        return [str(x) for x in v] if isinstance(v, list) else v


def _key(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def parse(text: str | bytes, file: str) -> Scenario:
    try:
        data = read_yaml(text if isinstance(text, bytes) else text.encode())
    except LoadError as e:
        raise ScenarioFormatError(file, e.key, e.problem) from None
    try:
        return _validate(data, file)
    except ScenarioFormatError:
        raise
    except Exception as e:  # a defect: still a format error naming the file
        raise ScenarioFormatError(file, "(top level)",
                                  f"cannot read it: {type(e).__name__}: {e}") from None


def _cards_listed(players: list[Any]) -> int:
    """Cards the players' zone lists set up ("NAME x N" counts N), before any is made."""
    total = 0
    for p in players:
        for key in ZONE_KEYS:
            cards = p.get(key) if isinstance(p, dict) else None
            for item in cards if isinstance(cards, list) else ():
                m = _REPEAT.match(item) if isinstance(item, str) else None
                total += min(int(m["n"]), MAX_COPIES + 1) if m and len(m["n"]) <= 6 else 1
    return total


def _validate(data: Any, file: str) -> Scenario:
    if not isinstance(data, dict):
        raise ScenarioFormatError(file, "(top level)", "a scenario must be a YAML mapping")
    players = data.get("players")
    if isinstance(players, list) and _cards_listed(players) > MAX_CARDS:
        raise ScenarioFormatError(file, "players", f"the zones list more than {MAX_CARDS} "
                                                   "cards in all")
    if isinstance(players, list):
        fixed = []
        for p in players:
            if isinstance(p, dict):
                order = tuple(k for k in p if k in ZONE_KEYS)
                p = {**p, "zone_order": order}
            fixed.append(p)
        data = {**data, "players": fixed}
    for key in ("actions", "expect"):
        value = data.get(key)
        if value is not None and not (isinstance(value, list)
                                      and all(isinstance(x, dict) for x in value)):
            raise ScenarioFormatError(file, key, "must be a list of mappings")
    try:
        return Scenario.model_validate({**data, "file": file})
    except ValidationError as e:
        err = e.errors()[0]
        raise ScenarioFormatError(file, _key(tuple(err["loc"])), err["msg"]) from None


def load(path: Path) -> Scenario:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)  # no more than the bound is ever read
    except OSError as e:
        raise ScenarioFormatError(str(path), "(file)", e.strerror or str(e)) from None
    return parse(data, str(path))
