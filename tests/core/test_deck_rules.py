"""Deck construction rules (`arbiter_decks.rules`): for each check function a legal
list and lists that break it, with the rule each violation cites (CR 100.2, 100.2a,
100.4a, 108.2a, 103.2b, 702.139a, 901.3, 901.15a, 902.3, 904.3)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from arbiter_core.cards import POOL
from arbiter_decks import DeckRule, parse_deck_list
from arbiter_decks import rules as R
from arbiter_decks.catalog import catalog
from arbiter_decks.check import UnknownVariant, check_deck, deck_rules_of, variant_deck_rules
from arbiter_decks.model import Section

PLANES = ["Academy at Tolaria West", "Agyrem", "Akoum", "Aretopolis", "Astral Arena",
          "Bant", "Bloodhill Bastion", "Celestine Reef", "Cliffside Market",
          "Edge of Malacol", "Eloren Wilds", "Feeding Grounds"]
PHENOMENA = ["Chaotic Aether", "Interplanar Tunnel", "Morphic Tide"]
SCHEMES = ["A Display of My Dark Power", "A Reckoning Approaches",
           "All Shall Smolder in My Wake", "All in Good Time", "Approach My Molten Realm",
           "Because I Have Willed It", "Behold My Grandeur", "Behold the Power of Destruction",
           "Bow to My Command", "Choose Your Champion", "Choose Your Demise"]
LEGAL = "Deck\n20 Mountain\n4 Shock\n4 Lightning Bolt\n4 Hill Giant\n28 Island\n"


def found(text: str, *rules: DeckRule, players: int = 2) -> list[tuple[str, str]]:
    result = check_deck(parse_deck_list(text), rules, players)
    return [(v.card, v.rule) for v in result.violations]


def reasons(text: str, *rules: DeckRule) -> list[str]:
    return [v.line() for v in check_deck(parse_deck_list(text), rules).violations]


def lines(section: str, names: list[str], n: int = 1) -> str:
    return section + "\n" + "".join(f"{n} {name}\n" for name in names)


# ------------------------------------------------------------------ 100.2: cards


def test_100_2_every_name_is_a_magic_card() -> None:
    assert found(LEGAL, R.known_cards) == []
    assert found("4 Shock\n2 Tarmogoyff\n", R.known_cards) == [("Tarmogoyff", "100.2")]
    (line,) = reasons("4 Shock\n2 Tarmogoyff\n", R.known_cards)
    assert "line 2" in line and "did you mean Tarmogoyf?" in line


def test_a_card_the_engine_does_not_implement_is_a_violation_that_says_so() -> None:
    assert found(LEGAL, R.implemented) == []
    assert found("4 Tarmogoyf\n4 Shock\n", R.implemented) == [("Tarmogoyf", "engine")]
    (line,) = reasons("4 Tarmogoyf\n4 Shock\n", R.implemented)
    assert "not implemented by the engine" in line
    # once per card, not per line; a no-such-card name is the other violation
    assert found("1 Tarmogoyf\n1 Tarmogoyf\n1 Tarmogoyff", R.known_cards, R.implemented) \
        == [("Tarmogoyff", "100.2"), ("Tarmogoyf", "engine")]


def test_108_2a_nontraditional_cards_are_not_in_the_deck() -> None:
    assert found(LEGAL + "Planar deck\n1 Akoum\n", R.traditional_cards) == []
    assert found("1 Akoum\n1 Feed the Machine\nSideboard\n1 Eladamri\n1 Worldknit\n",
                 R.traditional_cards) == [("Akoum", "108.2a"), ("Feed the Machine", "108.2a"),
                                          ("Eladamri", "108.2a"), ("Worldknit", "108.2a")]
    assert "list it under Planar deck" in reasons("1 Akoum", R.traditional_cards)[0]


def test_sections_a_variant_does_not_use_are_violations() -> None:
    rule = R.only_sections(Section.DECK, Section.SIDEBOARD, Section.COMPANION)
    assert found(LEGAL + "Sideboard\n1 Fog\n", rule) == []
    text = LEGAL + ("Commander\n1 Krenko, Mob Boss\nPlanar deck\n1 Akoum\n"
                    "Scheme deck\n1 Feed the Machine\nVanguard\n1 Eladamri\n")
    assert found(text, rule) == [("deck", "100.2c"), ("deck", "100.2d"), ("deck", "100.2d"),
                                 ("deck", "902.3")]


# ------------------------------------------------------------------ 100.2a, 100.4a


def test_100_2a_at_least_sixty_cards() -> None:
    assert found(LEGAL, R.constructed_size) == []
    assert found(LEGAL + "Sideboard\n4 Fog\n", R.constructed_size) == []
    assert found("59 Island\nSideboard\n15 Island", R.constructed_size) == [("deck", "100.2a")]
    assert reasons("59 Island", R.constructed_size) == [
        "deck: 100.2a: 59 cards in the deck; a constructed deck has at least 60"]
    assert found("100 Island", R.constructed_size) == []  # 100.5: no maximum


def test_100_2a_at_most_four_of_a_name_but_basic_lands() -> None:
    assert found("4 Shock\n4 Shock (M19) 156\n", R.copy_limit) == [("Shock", "100.2a")]
    assert reasons("5 shock", R.copy_limit) == [
        "Shock: 100.2a: 5 copies; a constructed deck has at most four of a card that is "
        "not a basic land"]
    assert found("4 Shock\n200 Island\n30 Wastes\n30 Snow-Covered Forest\n",
                 R.copy_limit) == []


def test_100_2a_a_card_s_own_text_changes_its_limit() -> None:
    assert found("30 Relentless Rats\n7 Seven Dwarves\n", R.copy_limit) == []
    assert found("8 Seven Dwarves", R.copy_limit) == [("Seven Dwarves", "100.2a")]
    assert "its own text allows seven" in reasons("8 Seven Dwarves", R.copy_limit)[0]
    assert found("2 Once More with Feeling", R.copy_limit) == [
        ("Once More with Feeling", "100.2a")]


def test_100_4a_the_four_card_limit_counts_deck_and_sideboard_together() -> None:
    assert found("3 Shock\nSideboard\n1 Shock\n", R.copy_limit) == []
    assert found("3 Shock\nSideboard\n2 Shock\n", R.copy_limit) == [("Shock", "100.4a")]
    assert found("3 Fog\nCompanion\n1 Fog\nSideboard\n1 Fog", R.copy_limit) == [
        ("Fog", "100.4a")]


def test_100_4a_a_sideboard_has_at_most_fifteen_cards() -> None:
    assert found(LEGAL + "Sideboard\n15 Island\n", R.sideboard_size) == []
    assert found(LEGAL + "Sideboard\n4 Fog\n12 Island\n", R.sideboard_size) == [
        ("deck", "100.4a")]


def test_103_2b_and_702_139a_one_companion_with_a_companion_ability() -> None:
    assert found(LEGAL + "Companion\n1 Lurrus of the Dream-Den\n", R.companion) == []
    assert found(LEGAL + "Companion\n1 Lurrus of the Dream-Den\n1 Jegantha, the Wellspring\n",
                 R.companion) == [("deck", "103.2b")]
    assert found(LEGAL + "Companion\n1 Shock\n", R.companion) == [("Shock", "702.139a")]


def test_the_constructed_rules_together() -> None:
    assert found(LEGAL, *R.constructed()) == []
    bad = "58 Island\n5 Shock\n1 Tarmogoyf\n1 Akoum\nSideboard\n16 Island\nVanguard\n1 Maro\n"
    assert found(bad, *R.constructed()) == [
        ("Tarmogoyf", "engine"), ("Akoum", "engine"), ("Maro", "engine"),
        ("Akoum", "108.2a"), ("deck", "902.3"), ("Shock", "100.2a"), ("deck", "100.4a")]


# ------------------------------------------------------------------ supplementary decks


def test_901_3_planar_deck() -> None:
    assert found(lines("Planar deck", PLANES[:8] + PHENOMENA[:2]), R.planar_deck) == []
    assert found(lines("Planar deck", PLANES[:9]), R.planar_deck) == [("deck", "901.3")]
    assert found(lines("Planar deck", PLANES[:7] + PHENOMENA[:3]), R.planar_deck) == [
        ("deck", "901.3")]
    assert "3 phenomenon cards" in reasons(lines("Planar deck", PLANES[:7] + PHENOMENA),
                                           R.planar_deck)[0]
    assert found(lines("Planar deck", [*PLANES[:9], "Akoum"]), R.planar_deck) == [
        ("Akoum", "901.3")]
    assert found(lines("Planar deck", [*PLANES[:10], "Shock"]), R.planar_deck) == [
        ("Shock", "901.3")]


def test_901_15a_single_planar_deck_depends_on_the_players() -> None:
    four = lines("Planar deck", PLANES) + "".join(f"1 {p}\n" for p in PHENOMENA)
    # 4 players: at least min(40, 40) cards, at most 8 phenomena
    assert found(four, R.single_planar_deck, players=4) == [("deck", "901.15a")]
    # 1 player: at least 10 cards and at most 2 phenomena: 15 cards with 3 phenomena
    assert found(four, R.single_planar_deck, players=1) == [("deck", "901.15a")]
    assert found(lines("Planar deck", PLANES[:10] + PHENOMENA[:2]), R.single_planar_deck,
                 players=1) == []


def test_904_3_scheme_deck() -> None:
    legal = lines("Scheme deck", SCHEMES[:10], 2)
    assert found(legal, R.scheme_deck) == []
    assert found(lines("Scheme deck", SCHEMES[:9], 2) + "1 Feed the Machine\n",
                 R.scheme_deck) == [("deck", "904.3")]
    assert found(legal + "3 Bow to My Command\n", R.scheme_deck) == [
        ("Bow to My Command", "904.3")]
    assert found(legal + "1 Akoum\n", R.scheme_deck) == [("Akoum", "904.3")]


def test_902_3_one_vanguard_card() -> None:
    assert found("Vanguard\n1 Eladamri\n", R.vanguard_card) == []
    assert found("Vanguard\n1 Eladamri\n1 Karn\n", R.vanguard_card) == [("deck", "902.3")]
    assert found("Vanguard\n1 Akoum\n", R.vanguard_card) == [("Akoum", "902.3")]
    assert found("4 Shock", R.vanguard_card) == [("deck", "902.3")]


# ------------------------------------------------------------------ the variant hook


def test_the_current_variants_are_constructed() -> None:
    for name in ("two_player", "free_for_all", "two_headed_giant", "team_vs_team",
                 "emperor", "alternating_teams", "grand_melee"):
        assert found(LEGAL, *variant_deck_rules(name)) == []
        assert found("59 Island", *variant_deck_rules(name)) == [("deck", "100.2a")]


def test_a_variant_declares_its_deck_rules_as_a_hook() -> None:
    """The shape a variant module uses (a method, or a class attribute); a supplement
    adds its sections and rules to its base's."""

    class Planechase:
        def deck_rules(self) -> tuple[DeckRule, ...]:
            return (*R.constructed(Section.PLANAR), R.planar_deck)

    class Fixed:
        deck_rules = (R.vanguard_card,)

    text = LEGAL + lines("Planar deck", PLANES[:9])
    assert found(text, *deck_rules_of(Planechase())) == [
        (p, "engine") for p in PLANES[:9] if p not in POOL] + [("deck", "901.3")]
    assert ("deck", "100.2d") in found(text, *deck_rules_of(object()))  # constructed
    assert found("Vanguard\n1 Eladamri", *deck_rules_of(Fixed())) == []

    class Broken:
        deck_rules = ("not a function",)

    with pytest.raises(TypeError):
        deck_rules_of(Broken())


def test_unknown_variants_have_no_deck_rules() -> None:
    for name in ("nope", "planechase+", ""):
        with pytest.raises(UnknownVariant):
            variant_deck_rules(name)


def test_every_check_function_cites_its_rule() -> None:
    for rule in (R.known_cards, R.traditional_cards, R.constructed_size, R.copy_limit,
                 R.sideboard_size, R.companion, R.planar_deck, R.single_planar_deck,
                 R.scheme_deck, R.vanguard_card):
        assert rule.__doc__ and "CR " in rule.__doc__, rule.__name__


def test_model_and_rules_import_only_the_standard_library() -> None:
    """The deck records and check functions live in the pure rules core (docs/decks.md):
    they import only the standard library and each other; the deck package's parser
    only the standard library and those."""
    core = Path(R.__file__).parents[1] / "arbiter_core" / "variants"
    modules = {core / "deck_model.py": "arbiter_core.variants.deck_",
               core / "deck_rules.py": "arbiter_core.variants.deck_",
               core / "deck_commander.py": "arbiter_core.variants.deck_",
               Path(R.__file__).parent / "parser.py": "arbiter_decks.model"}
    allowed = {"__future__", "collections", "dataclasses", "enum", "re", "unicodedata"}
    for path, own in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed or name.startswith(own), (path, name)


def test_the_index_holds_every_card_of_the_engine_pool() -> None:
    from arbiter_core.cards import POOL
    cards = catalog().cards
    assert len(cards) > 20_000
    assert all(cards[name].implemented for name in POOL)
    assert sum(c.implemented for c in cards.values()) == len(POOL)
