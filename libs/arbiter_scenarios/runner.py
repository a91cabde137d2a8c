"""Run a scenario through the same rules core and event store code as a real game (the
embedded configuration), then evaluate its checks."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter_core.kernel.commands import (
    Attachment,
    Command,
    PassPriority,
    PlayerSetup,
    PositionPlayer,
    SetUpPosition,
    StartGame,
)
from arbiter_core.kernel.errors import ArbiterError
from arbiter_core.kernel.events import Event
from arbiter_core.kernel.state import Decision, GameState, Priority, Step
from arbiter_core.variants.base import get_variant, known_variants
from arbiter_runtime.session import GameSession
from arbiter_scenarios import actions as act
from arbiter_scenarios.checks import CheckFailed, run_check
from arbiter_scenarios.model import ScenarioFormatError, load
from arbiter_scenarios.names import NameError_, Names
from arbiter_store import open_store

SUPPORTED_OPTIONS = {"attack", "range_of_influence", "starting_life", "deploy_creatures",
                     "shared_team_turns", "mulligans", "base", "brawl",
                     "planar_die_rolls_free", "supervillain_rumble", "single_planar_deck",
                     "commander"}
#: the supplementary deck each casual variant uses
CASUAL_DECKS = {"planar_deck": "planechase", "scheme_deck": "archenemy"}


class ScenarioFailed(Exception):
    pass


@dataclass
class Result:
    file: str
    name: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    events: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "name": self.name, "passed": self.passed,
                "failures": self.failures}


@dataclass
class Run:
    session: GameSession
    names: Names
    last_rejected: bool = False
    last_reason: str = ""
    action_turn: int | None = None  # turns_taken when the last player action was made
    log: list[Event] = field(default_factory=list)  # every event, for last-known values

    @property
    def state(self) -> GameState:
        return self.session.state

    def execute(self, command: Command) -> None:
        self.session.execute(command)

    def settle(self) -> None:
        """Run engine work until the game waits for a player."""
        self.session.run_engine()


def _variant(sc: Any) -> tuple[str, str | None]:
    """The variant to start and its base: `commander` with `{brawl: true}` is Brawl
    (903.12); `base` names the base of a supplementary variant (903.2)."""
    opts = sc.options
    name = sc.variant
    try:
        options = get_variant(name).option_variants
    except ArbiterError as e:
        raise ScenarioFailed(str(e)) from None
    for option in ("brawl", "commander"):
        if option in opts and option not in options:
            raise ScenarioFailed(f"options.{option} is not an option of {name}")
        if opts.get(option):
            name = options[option]
    base = _base(sc)
    try:
        get_variant(name, base, len(sc.players))
    except ArbiterError as e:
        raise ScenarioFailed(str(e)) from None
    return name, base


def _setup(sc: Any) -> Run:
    unknown = set(sc.options) - SUPPORTED_OPTIONS
    if unknown:
        raise ScenarioFailed(f"options {sorted(unknown)} are not supported yet")
    variant, base = _variant(sc)
    _check_casual(sc)
    if sc.turn_markers and not get_variant(variant, base, len(sc.players)).grand_melee:
        raise ScenarioFailed(f"turn_markers are for grand_melee, not {sc.variant}")
    mulligans = sc.options.get("mulligans", "keep")
    if mulligans not in ("keep", "ask"):
        raise ScenarioFailed(f"options.mulligans: keep or ask, not {mulligans!r}")
    if mulligans == "ask" and sc.start is not None:
        raise ScenarioFailed("options.mulligans: ask begins the game (103.5): no `start`")
    if (sc.team_life or sc.team_poison) and sc.start is None:
        raise ScenarioFailed("team_life/team_poison set up a position: give `start`")
    session = GameSession(open_store(":memory:"), f"scenario:{sc.name}")
    opts = dict(sc.options)
    single = bool(opts.get("single_planar_deck", False))
    setup_cards: list[str] = []
    if sc.start is not None:
        players, attachments = [], []
        where: list[tuple[str, int] | None] = []  # per setup card: battlefield spot
        for p in sc.players:
            zones: dict[str, list[Any]] = {}
            for zone in p.zone_order:
                cards = getattr(p, zone)
                if zone != "battlefield" and any(c.face_down for c in cards):
                    raise ScenarioFailed(
                        f"players.{p.name}.{zone}: face_down is for permanents on the "
                        "battlefield (708.2a); a spell is cast face down (702.37c)")
                zones[zone] = [c.setup(zone == "battlefield") for c in cards]
                setup_cards.extend(c.card for c in cards)
                where.extend((p.name, i) if zone == "battlefield" else None
                             for i in range(len(cards)))
            if single and p.name == (sc.start.active or sc.players[0].name):
                zones["planar_deck"] = [c.setup(False) for c in sc.planar_deck]
                setup_cards.extend(c.card for c in sc.planar_deck)
                where.extend(None for _ in sc.planar_deck)
            players.append(PositionPlayer(
                name=p.name, team=_team(sc, p), life=p.life, poison=p.poison, zones=zones,
                commander=p.commander, commander_damage_taken=dict(p.commander_damage_taken),
                vanguard=p.vanguard, archenemy=p.archenemy, outside=list(p.outside)))
        # 903.3: a commander listed nowhere is made in the command zone after the rest
        setup_cards += [p.commander for p in sc.players
                        if p.commander and p.commander not in _listed(p)]
        names = Names(setup_cards)
        face_down = [(p.name, i) for p in sc.players
                     for i, c in enumerate(p.battlefield) if c.face_down]
        for p in sc.players:
            for i, c in enumerate(p.battlefield):
                if c.attached_to is not None:
                    host = _battlefield_entry(names, where, setup_cards, c.attached_to)
                    attachments.append(Attachment(player=p.name, index=i, to_player=host[0],
                                                  to_index=host[1]))
        cmd: Command = SetUpPosition(
            game_id=session.game_id, variant=variant, base_variant=base, seed=sc.seed,
            players=players,
            attachments=attachments, turn=sc.start.turn,
            active=sc.start.active or sc.players[0].name, step=sc.start.step,
            starting_life=opts.get("starting_life"), attack=opts.get("attack"),
            range_of_influence=opts.get("range_of_influence"),
            deploy_creatures=opts.get("deploy_creatures"),
            shared_team_turns=opts.get("shared_team_turns"),
            team_life=dict(sc.team_life), team_poison=dict(sc.team_poison),
            markers=dict(sc.turn_markers), face_down=face_down, order_triggers=True,
            supervillain_rumble=bool(opts.get("supervillain_rumble", False)),
            planar_die_rolls_free=bool(opts.get("planar_die_rolls_free", False)),
            single_planar_deck=single,
            planar_die=list(sc.planar_die))
    else:
        for p in sc.players:
            for zone in ("battlefield", "hand", "graveyard", "exile", "command"):
                if getattr(p, zone):
                    raise ScenarioFailed(f"players.{p.name}.{zone}: without `start` only "
                                         "libraries are set up (CR 103)")
            if p.commander_damage_taken:
                raise ScenarioFailed(f"players.{p.name}.commander_damage_taken: give "
                                     "`start` (a position)")
            setup_cards.extend(c.card for c in p.library)
            setup_cards.extend(c.card for c in p.planar_deck)
            setup_cards.extend(c.card for c in p.scheme_deck)
        setup_cards.extend(c.card for c in sc.planar_deck)
        # 903.6: the commanders are put into the command zone first, in seat order
        setup_cards[:0] = [p.commander for p in sc.players if p.commander]
        names = Names(setup_cards)
        cmd = StartGame(
            game_id=session.game_id, variant=variant, base_variant=base, seed=sc.seed,
            players=[PlayerSetup(name=p.name, team=_team(sc, p),
                                 deck=[c.card for c in p.library], commander=p.commander,
                                 planar_deck=[c.card for c in p.planar_deck],
                                 scheme_deck=[c.card for c in p.scheme_deck],
                                 vanguard=p.vanguard, archenemy=p.archenemy,
                                 sideboard=list(p.outside))
                     for p in sc.players],
            supervillain_rumble=bool(opts.get("supervillain_rumble", False)),
            planar_die_rolls_free=bool(opts.get("planar_die_rolls_free", False)),
            single_planar_deck=single, planar_deck=[c.card for c in sc.planar_deck],
            starting_life=opts.get("starting_life"), attack=opts.get("attack"),
            range_of_influence=opts.get("range_of_influence"),
            deploy_creatures=opts.get("deploy_creatures"),
            shared_team_turns=opts.get("shared_team_turns"), mulligans=mulligans == "ask",
            order_triggers=True)
    run = Run(session, names)
    session.on_events.append(run.log.extend)
    try:
        run.execute(cmd)
    except ArbiterError as e:
        raise ScenarioFailed(f"setup rejected: {e}") from None
    if sc.start is None:
        _to_first_main(run)
    else:
        run.settle()
    return run


def _listed(p: Any) -> set[str]:
    return {c.card for zone in p.zone_order for c in getattr(p, zone)}


def _check_casual(sc: Any) -> None:
    """A supplementary deck belongs to its variant (a planar deck to Planechase, 901.3);
    `planar_die` supposes results only for a Planechase position (`start`)."""
    v = get_variant(sc.variant, _base(sc), len(sc.players))
    for p in sc.players:
        for zone, feature in CASUAL_DECKS.items():
            if getattr(p, zone) and not getattr(v, feature, False):
                raise ScenarioFailed(f"players.{p.name}.{zone}: only {feature} uses it")
    single = bool(sc.options.get("single_planar_deck", False))
    if single and not getattr(v, "planechase", False):
        raise ScenarioFailed("options.single_planar_deck is an option of planechase")
    if bool(sc.planar_deck) != single:
        raise ScenarioFailed("planar_deck (top level): the communal deck of "
                             "{single_planar_deck: true} (901.15), and only it")
    if sc.planar_die and (not getattr(v, "planechase", False) or sc.start is None):
        raise ScenarioFailed("planar_die: supposes planar die results in a planechase "
                             "position (give `start`)")


def _base(sc: Any) -> str | None:
    """The base variant: `options.base`, or Free-for-All for a Supervillain Rumble
    (904.12a)."""
    base = sc.options.get("base")
    if base is None and sc.options.get("supervillain_rumble"):
        return "free_for_all"
    return str(base) if base is not None else None


def _team(sc: Any, p: Any) -> str | None:
    """The player's team; in Archenemy without teams given, the archenemy's team of one
    and the heroes' (904.2a-b)."""
    team: str | None = p.team
    if team is not None or sc.options.get("supervillain_rumble"):
        return team
    v = get_variant(sc.variant, _base(sc), len(sc.players))
    if getattr(v, "archenemy", False):
        return "archenemy" if p.archenemy else "heroes"
    return team


def _battlefield_entry(names: Names, where: list[tuple[str, int] | None],
                       setup_cards: list[str], ref: str) -> tuple[str, int]:
    """The (player, battlefield index) an `attached_to` names: `Name#k` is the k-th card
    of that name in setup order over every zone; a bare name the first such permanent."""
    number = names.card_number(ref)
    if number is not None:
        spot = where[number - 1]
        if spot is None:
            raise ScenarioFailed(f"attached_to: {ref} is not on the battlefield")
        return spot
    for card, spot in zip(setup_cards, where, strict=True):
        if card == ref and spot is not None:
            return spot
    raise ScenarioFailed(f"attached_to: no {ref} on the battlefield")


def _to_first_main(run: Run) -> None:
    """CR 103: play on until the starting player first gets priority in the first
    precombat main phase (each player passes before that)."""
    for _ in range(100_000):
        run.settle()
        s = run.state
        if s.game_over:
            return
        moved = False
        for m in s.markers.values():
            p = m.pending
            if isinstance(p, Priority) and not (m.step == Step.PRECOMBAT_MAIN
                                                and p.player == m.holder):
                run.execute(PassPriority(player=p.player, marker=m.number))
                moved = True
                break
            if isinstance(p, Decision):
                return
        if not moved:
            return
    raise ScenarioFailed("the game did not reach its first main phase")


def run_scenario(path: Path) -> Result:
    try:
        sc = load(path)
    except ScenarioFormatError as e:
        return Result(str(path), path.stem, False, [f"invalid scenario: {e}"])
    result = Result(str(path), sc.name, True)
    try:
        if sc.variant not in known_variants():
            raise ScenarioFailed(f"variant: unknown variant {sc.variant!r}")
        run = _setup(sc)
        for i, action in enumerate(sc.actions):
            if "check" in action:
                _checks(run, action["check"], f"actions[{i}].check")
                continue
            act.perform(run, action, f"actions[{i}]")
        _checks(run, sc.expect, "expect")
        result.events = run.state.version
    except (ScenarioFailed, CheckFailed, NameError_, act.ActionFailed) as e:
        result.passed = False
        result.failures.append(str(e))
    except ArbiterError as e:
        result.passed = False
        result.failures.append(f"engine error: {e}")
    except Exception as e:  # a defect: reported as a failure, never as a traceback
        result.passed = False
        result.failures.append(f"internal error: {type(e).__name__}: {e}")
    return result


def _checks(run: Run, checks: Any, where: str) -> None:
    if not isinstance(checks, list):
        raise ScenarioFailed(f"{where}: must be a list of checks")
    for j, check in enumerate(checks):
        if not isinstance(check, dict) or len(check) != 1:
            raise ScenarioFailed(f"{where}[{j}]: a check is a mapping with one key")
        run_check(run, check, f"{where}[{j}]")
