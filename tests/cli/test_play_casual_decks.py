"""`arbiter play --deck SEAT=FILE` in the casual variants: the list's `Planar deck`
(901.3), `Vanguard` (902.3) and, for the archenemy, `Scheme deck` (904.3) sections are
the seat's, not the bots' (decks.md)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from arbiter_cli.main import app
from arbiter_store import open_store

runner = CliRunner()
DECK = "Deck\n60 Plains\n"
PLANES = ["Krosa", "Sokenzan", "Academy at Tolaria West", "Panopticon", "Lethe Lake",
          "The Eon Fog", "The Hippodrome", "Tazeem", "Chaotic Aether",
          "Planewide Disaster"]  # the bots' planar deck has Mutual Epiphany instead
SCHEMES = ["Roots of All Evil", "There Is No Refuge", "The Iron Guardian Stirs",
           "I Delight in Your Convulsions", "Know Naught but Fire", "Mortal Flesh Is Weak",
           "Embrace My Diabolical Vision", "Behold the Power of Destruction",
           "Make Yourself Useful", "The Very Soil Shall Shake"]


def _list(tmp_path: Path, name: str, **sections: list[str]) -> Path:
    text = DECK + "".join(f"{heading}\n" + "".join(f"{n} {card}\n" for card, n in
                                                     _counted(cards))
                          for heading, cards in sections.items())
    path = tmp_path / name
    path.write_text(text.replace("Planar_deck", "Planar deck")
                    .replace("Scheme_deck", "Scheme deck"), encoding="utf-8")
    return path


def _counted(cards: list[str]) -> list[tuple[str, int]]:
    return [(c, cards.count(c)) for c in dict.fromkeys(cards)]


def _put(db: Path, player: str, zone: str) -> list[str]:
    with open_store(db) as store:
        return [c["name"] for e in store.read_all() if e.type == "CardsPut"
                and e.payload["player"] == player and e.payload["zone"] == zone
                for c in e.payload["cards"]]


def _play(tmp_path: Path, variant: str, players: int, *decks: str) -> tuple[int, str, Path]:
    db = tmp_path / "g.sqlite"
    args = ["play", "--variant", variant, "--players", str(players), "--seed", "3",
            "--db", str(db)]
    for spec in decks:
        args += ["--deck", spec]
    result = runner.invoke(app, args)
    return result.exit_code, result.output, db


def test_planechase_uses_the_lists_planar_deck(tmp_path: Path) -> None:
    mine = _list(tmp_path, "p.txt", Planar_deck=PLANES)
    code, out, db = _play(tmp_path, "planechase", 2, f"P2={mine}")
    assert code == 0, out
    assert sorted(_put(db, "P2", "planar_deck")) == sorted(PLANES)
    assert "Planewide Disaster" not in _put(db, "P1", "planar_deck")  # a bot's
    assert "Mutual Epiphany" in _put(db, "P1", "planar_deck")


def test_vanguard_uses_the_lists_vanguard(tmp_path: Path) -> None:
    mine = _list(tmp_path, "v.txt", Vanguard=["Ertai"])
    code, out, db = _play(tmp_path, "vanguard", 2, f"P2={mine}")
    assert code == 0, out
    assert _put(db, "P2", "command") == ["Ertai"]  # the bot at seat 2 would have Squee
    assert _put(db, "P1", "command") == ["Gerrard"]


def test_archenemy_uses_the_archenemys_scheme_deck(tmp_path: Path) -> None:
    mine = [*SCHEMES[:8], "All in Good Time", "Nothing Can Stop Me Now"] * 2  # 904.3
    listed = _list(tmp_path, "s.txt", Scheme_deck=mine)
    code, out, db = _play(tmp_path, "archenemy", 3, f"P1={listed}")
    assert code == 0, out
    schemes = _put(db, "P1", "scheme_deck")
    assert sorted(schemes) == sorted(mine)  # not the bots' (two Make Yourself Useful)


def test_a_heros_scheme_deck_and_an_archenemy_without_one_are_refused(
        tmp_path: Path) -> None:
    schemes = _list(tmp_path, "s.txt", Scheme_deck=SCHEMES * 2)
    code, out, _ = _play(tmp_path, "archenemy", 3, f"P2={schemes}")
    assert code == 2 and "only the archenemy has a scheme deck" in out
    plain = _list(tmp_path, "d.txt")
    code, out, _ = _play(tmp_path, "archenemy", 3, f"P1={plain}")
    assert code == 2 and "needs a Scheme deck" in out


def test_archenemy_commander_bots_play_ten_different_schemes(tmp_path: Path) -> None:
    """904.13d: the archenemy's scheme deck has at least ten cards, each a different name;
    904.13b: 60 life for the archenemy and 60 shared by the heroes."""
    code, out, db = _play(tmp_path, "archenemy_commander", 3)
    assert code == 0, out
    schemes = _put(db, "P1", "scheme_deck")
    assert len(schemes) == 10 and len(set(schemes)) == 10
    with open_store(db) as store:
        started = next(e for e in store.read_all() if e.type == "GameStarted")
    assert started.payload["life"] == {"P1": 60, "P2": 60, "P3": 60}


def _single(tmp_path: Path, players: int) -> tuple[int, str, Path]:
    db = tmp_path / "single.sqlite"
    result = runner.invoke(app, ["play", "--variant", "planechase", "--players",
                                 str(players), "--seed", "3", "--db", str(db),
                                 "--single-planar-deck"])
    return result.exit_code, result.output, db


def test_play_with_the_single_planar_deck(tmp_path: Path) -> None:
    """901.15: one communal planar deck of at least twenty different names (901.15a for
    two players), put into one player's planar deck zone (901.15b) - no player gets a
    planar deck of their own (901.15c)."""
    code, out, db = _single(tmp_path, 2)
    assert code == 0, out
    with open_store(db) as store:
        events = list(store.read_all())
    options = [e.payload for e in events if e.type == "PlanechaseOptions"]
    assert options and options[0]["single"] is True
    decks = [[c["name"] for c in e.payload["cards"]] for e in events
             if e.type == "CardsPut" and e.payload["zone"] == "planar_deck"]
    assert len(decks) == 1, decks  # one communal deck, not one a player
    assert len(decks[0]) >= 20 and len(set(decks[0])) == len(decks[0])
    assert {"Naar Isle", "Astral Arena", "Interplanar Tunnel"} <= set(decks[0])


def test_the_bots_single_planar_deck_is_too_small_for_three(tmp_path: Path) -> None:
    """901.15a: three players need thirty cards; the bots have twenty-one."""
    code, out, _ = _single(tmp_path, 3)
    assert code == 2
    assert "901.15a" in out
