"""`arbiter deck check --variant V FILE [--json]` and `arbiter play --deck SEAT=FILE`,
as `../shared/spec/decks.md` says: one line per violation (card, rule, why), `--json`
lines, exit status 0 legal / 1 violations / 2 unreadable file or unknown variant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbiter_cli.main import app
from arbiter_store import open_store

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "decks"
LEGAL = ("// a legal constructed deck\nDeck\n20 Mountain\n4 Shock\n4 Lightning Bolt (M10) 146\n"
         "4x Hill Giant\n28 Island\n\nSideboard\n# answers\n3 Fog\n")
ILLEGAL = "Deck\n54 Mountain\n5 Shock\n1 Tarmogoyf\nSideboard\n16 Island\n"


def deck_file(tmp_path: Path, text: str | bytes, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def check(*args: str) -> tuple[int, list[str], str]:
    result = runner.invoke(app, ["deck", "check", *args])
    return result.exit_code, result.stdout.splitlines(), result.stderr


def test_a_legal_list_exits_0_and_prints_no_violation(tmp_path: Path) -> None:
    code, out, err = check("--variant", "two_player", str(deck_file(tmp_path, LEGAL)))
    assert (code, out) == (0, [])
    assert "legal, 60 cards" in err


def test_violations_one_line_each_card_rule_why_and_exit_1(tmp_path: Path) -> None:
    code, out, _ = check("--variant", "free_for_all", str(deck_file(tmp_path, ILLEGAL)))
    assert code == 1
    assert out == [
        "Tarmogoyf: engine: not implemented by the engine, so it cannot be played (line 4)",
        "Shock: 100.2a: 5 copies; a constructed deck has at most four of a card that is "
        "not a basic land",
        "deck: 100.4a: 16 cards in the sideboard; a constructed sideboard has at most "
        "fifteen"]


def test_json_one_object_per_violation_then_legal_and_cards(tmp_path: Path) -> None:
    code, out, _ = check("--variant", "two_player", "--json",
                         str(deck_file(tmp_path, ILLEGAL)))
    assert code == 1
    rows = [json.loads(line) for line in out]
    assert [set(r) for r in rows[:-1]] == [{"card", "rule", "reason"}] * 3
    assert [(r["card"], r["rule"]) for r in rows[:-1]] == [
        ("Tarmogoyf", "engine"), ("Shock", "100.2a"), ("deck", "100.4a")]
    assert rows[-1] == {"legal": False, "cards": 60}
    code, out, _ = check("--variant", "two_player", "--json", str(deck_file(tmp_path, LEGAL)))
    assert (code, [json.loads(line) for line in out]) == (0, [{"legal": True, "cards": 60}])


def test_100_2a_short_deck_on_the_cli(tmp_path: Path) -> None:
    code, out, _ = check("--variant", "two_headed_giant",
                         str(deck_file(tmp_path, "59 Island\n")))
    assert (code, out) == (1, ["deck: 100.2a: 59 cards in the deck; a constructed deck has "
                               "at least 60"])


def test_100_2a_basic_lands_are_not_limited_on_the_cli(tmp_path: Path) -> None:
    code, out, _ = check("--variant", "grand_melee",
                         str(deck_file(tmp_path, "56 Island\n4 Shock\n")))
    assert (code, out) == (0, [])


def test_100_4a_deck_and_sideboard_combined_on_the_cli(tmp_path: Path) -> None:
    text = "56 Island\n4 Shock\nSideboard\n1 Shock\n"
    code, out, _ = check("--variant", "team_vs_team", str(deck_file(tmp_path, text)))
    assert code == 1 and out == [
        "Shock: 100.4a: 5 copies in the deck and sideboard together; the limit of four "
        "applies to both combined"]


def test_unknown_card_and_nontraditional_card_on_the_cli(tmp_path: Path) -> None:
    text = "59 Island\n1 Akoum\n1 Lightnig Bolt\n"
    code, out, _ = check("--variant", "emperor", str(deck_file(tmp_path, text)))
    assert code == 1
    assert "Lightnig Bolt: 100.2: no Magic card has this name (line 3); did you mean " \
           "Lightning Bolt?" in out
    assert any(line.startswith("Akoum: 108.2a: a plane") for line in out)
    assert any(line.startswith("Akoum: engine: ") for line in out)


def test_an_unreadable_file_exits_2_naming_the_line(tmp_path: Path) -> None:
    code, out, err = check("--variant", "two_player",
                           str(deck_file(tmp_path, "4 Shock\nfour Fog\n")))
    assert (code, out) == (2, [])
    assert "line 2" in err
    code, out, _ = check("--variant", "two_player", "--json",
                         str(deck_file(tmp_path, "4 Shock\nfour Fog\n")))
    assert code == 2 and json.loads(out[-1])["line"] == 2


@pytest.mark.parametrize("data", [
    b"4000000000 Island\n", b"Island x 1000000000\n", "4 Shock\n".encode("utf-16"),
    b"4 Isl\xe9nd\n", b"1 Island\n" * 10_000, b"4 Sh\x00ck\n"])
def test_hostile_files_exit_2_with_a_clear_error(tmp_path: Path, data: bytes) -> None:
    result = runner.invoke(app, ["deck", "check", "--variant", "two_player",
                                 str(deck_file(tmp_path, data))])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and result.stderr.strip()


def test_missing_file_or_directory_exits_2(tmp_path: Path) -> None:
    assert check("--variant", "two_player", str(tmp_path / "none.txt"))[0] == 2
    assert check("--variant", "two_player", str(tmp_path))[0] == 2


def test_unknown_variant_exits_2(tmp_path: Path) -> None:
    path = str(deck_file(tmp_path, LEGAL))
    code, out, err = check("--variant", "no_such_variant", path)
    assert (code, out) == (2, []) and "unknown variant" in err


def test_the_example_decks_are_legal() -> None:
    for path in sorted(EXAMPLES.glob("*.txt")):
        assert check("--variant", "two_player", str(path))[:2] == (0, []), path


# ------------------------------------------------------------------ play --deck


def _library(db: Path, player: str) -> list[str]:
    with open_store(db) as store:
        for e in store.read_all():
            if e.type == "CardsPut" and e.payload["player"] == player:
                return [c["name"] for c in e.payload["cards"]]
    raise AssertionError(f"no library for {player}")


def test_play_with_deck_lists_uses_them_and_bot_decks_elsewhere(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    red = EXAMPLES / "boros-burn.txt"
    result = runner.invoke(app, ["play", "--players", "3", "--seed", "2", "--db", str(db),
                                 "--deck", f"P2={red}"])
    assert result.exit_code == 0, result.output
    library = _library(db, "P2")
    assert len(library) == 60 and library.count("Lightning Bolt") == 4
    assert "Act of Treason" not in library  # the sideboard stays out (103.2a)
    assert len(_library(db, "P1")) == 40  # a bot deck
    with open_store(db) as store:  # 400.11a: the sideboard is outside the game
        outside = {e.payload["player"]: e.payload["cards"] for e in store.read_all()
                   if e.type == "OutsideCardsSet"}
    assert outside == {"P2": ["Act of Treason"] * 3 + ["Flame Rift"] * 2}


def test_play_refuses_an_illegal_list_with_its_violations(tmp_path: Path) -> None:
    bad = deck_file(tmp_path, ILLEGAL)
    result = runner.invoke(app, ["play", "--players", "2", "--variant", "two_player",
                                 "--db", str(tmp_path / "g.sqlite"), "--deck", f"P1={bad}"])
    assert result.exit_code == 2
    assert "Shock: 100.2a: 5 copies" in result.output
    assert "Tarmogoyf: engine: not implemented" in result.output
    assert not (tmp_path / "g.sqlite").exists() or not _has_games(tmp_path / "g.sqlite")


def _has_games(db: Path) -> bool:
    with open_store(db) as store:
        return bool(store.read_all(limit=1))


@pytest.mark.parametrize("spec,says", [
    ("P3={legal}", "no seat 'P3'"), ("P1", "SEAT=FILE"), ("P1={missing}", "no such file"),
    ("P1={unreadable}", "line 1")])
def test_play_deck_option_errors_exit_2(tmp_path: Path, spec: str, says: str) -> None:
    files = {"legal": deck_file(tmp_path, LEGAL), "missing": tmp_path / "none.txt",
             "unreadable": deck_file(tmp_path, "many Shock\n", "bad.txt")}
    result = runner.invoke(app, ["play", "--players", "2", "--db", str(tmp_path / "g.sqlite"),
                                 "--deck", spec.format(**files)])
    assert result.exit_code == 2
    assert says in result.output



def _put(db: Path, player: str) -> dict[str, list[str]]:
    """The cards put into each of a player's zones as the game began, in order."""
    with open_store(db) as store:
        return {e.payload["zone"]: [c["name"] for c in e.payload["cards"]]
                for e in store.read_all()
                if e.type == "CardsPut" and e.payload["player"] == player}


PLANES = ["Mutual Epiphany", "Chaotic Aether", "Tazeem", "The Hippodrome", "The Eon Fog",
          "Lethe Lake", "Panopticon", "Academy at Tolaria West", "Sokenzan", "Krosa"]
SCHEMES = ["The Very Soil Shall Shake", "Make Yourself Useful",
           "Behold the Power of Destruction", "Embrace My Diabolical Vision",
           "Mortal Flesh Is Weak", "Know Naught but Fire", "I Delight in Your Convulsions",
           "The Iron Guardian Stirs", "There Is No Refuge", "Roots of All Evil"]


@pytest.mark.parametrize("variant,section,cards,zone,seat", [
    ("planechase", "Planar deck", PLANES, "planar_deck", "P2"),  # 901.3
    ("vanguard", "Vanguard", ["Ertai"], "command", "P2"),  # 902.3 (the bot's: Squee)
    ("archenemy", "Scheme deck", [c for c in SCHEMES for _ in (0, 1)], "scheme_deck",
     "P1"),  # 904.3: P1 is the archenemy (904.2a)
])
def test_play_uses_a_lists_supplementary_deck(tmp_path: Path, variant: str, section: str,
                                              cards: list[str], zone: str,
                                              seat: str) -> None:
    """A list's Planar deck, Vanguard and (the archenemy's) Scheme deck sections are the
    player's in the game, in the listed order before the game shuffles them, as its Deck
    section is the library; the other seats keep the bots' (here in another order, or
    another vanguard)."""
    db = tmp_path / "g.sqlite"
    text = "60 Island\n" + section + "\n" + "".join(f"1 {c}\n" for c in cards)
    path = deck_file(tmp_path, text)
    result = runner.invoke(app, ["play", "--players", "4" if variant == "archenemy" else "2",
                                 "--variant", variant, "--seed", "3", "--db", str(db),
                                 "--deck", f"{seat}={path}"])
    assert result.exit_code == 0, result.output
    put = _put(db, seat)
    assert put[zone] == cards and put["library"] == ["Island"] * 60
    bots = next(p for p in ("P1", "P2") if p != seat)
    assert _put(db, bots).get(zone, []) != cards


def test_play_chooses_the_starting_player_and_asks_mulligans(tmp_path: Path) -> None:
    """103.1: `arbiter play` chooses the starting player with the seed and records it;
    103.5: each player's mulligan declaration is an event, the starting player's first."""
    starters = set()
    for seed in range(1, 5):
        db = tmp_path / f"g{seed}.sqlite"
        result = runner.invoke(app, ["play", "--players", "3", "--seed", str(seed),
                                     "--db", str(db), "--deck",
                                     f"P1={EXAMPLES / 'boros-burn.txt'}"])
        assert result.exit_code == 0, result.output
        with open_store(db) as store:
            events = list(store.read_all())
        chosen = [e for e in events if e.type == "StartingPlayerChosen"]
        assert len(chosen) == 1 and chosen[0].rule == "103.1"
        declared = [e.payload["player"] for e in events if e.type == "MulliganDeclared"]
        assert declared[0] == chosen[0].payload["player"]
        assert set(declared) == {"P1", "P2", "P3"}
        starters.add(chosen[0].payload["player"])
    assert len(starters) >= 2


def test_play_a_commander_list(tmp_path: Path) -> None:
    """903.6: the list's Commander section is the commander, in the command zone; the
    Deck section (99 cards) the library."""
    db = tmp_path / "g.sqlite"
    path = EXAMPLES / "commander" / "isamaru.txt"
    result = runner.invoke(app, ["play", "--players", "2", "--variant", "commander",
                                 "--seed", "2", "--db", str(db), "--deck", f"P2={path}"])
    assert result.exit_code == 0, result.output
    put = _put(db, "P2")
    assert put["command"] == ["Isamaru, Hound of Konda"] and len(put["library"]) == 99
