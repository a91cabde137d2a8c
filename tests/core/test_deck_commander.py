"""Commander and Brawl deck construction (CR 903.3-903.5, 903.12c-e) and color identity
(903.4): a legal list and lists breaking each rule, with the rule each violation cites;
the three color-identity examples (Bosh, Iron Golem; Wort, Boggart Auntie; Civilized
Scholar // Homicidal Brute)."""

from __future__ import annotations

from arbiter_decks import DeckRule, parse_deck_list
from arbiter_decks import rules as R
from arbiter_decks.catalog import catalog
from arbiter_decks.check import check_deck, variant_deck_rules

ISAMARU = "Commander\n1 Isamaru, Hound of Konda\nDeck\n"
LEGAL = ISAMARU + "1 Savannah Lions\n1 Sol Ring\n97 Plains\n"


def found(text: str, *rules: DeckRule) -> list[tuple[str, str]]:
    result = check_deck(parse_deck_list(text), rules)
    return [(v.card, v.rule) for v in result.violations]


def test_color_identity_by_903_4() -> None:
    # Bosh: {8} and {3}{R} in its rules text: red (903.4)
    assert R.color_identity(["{8}"], ["Trample\n{3}{R}, Sacrifice an artifact: ..."]) == "R"
    # Wort, the Raidmother's hybrid {R/G}: red and green (903.5c's example)
    assert R.color_identity(["{4}{R/G}{R/G}"], [""]) == "RG"
    # Civilized Scholar {2}{U}, Homicidal Brute's red color indicator (903.4d)
    assert R.color_identity(["{2}{U}", ""], ["", ""], ["U", "R"]) == "UR"
    # reminder text is ignored (903.4c)
    assert R.color_identity([""], ["({T}: Add {G}.)"]) == ""


def test_the_index_holds_the_seed_examples() -> None:
    cards = catalog().cards
    assert cards["Bosh, Iron Golem"].color_identity == "R"
    assert cards["Wort, Boggart Auntie"].color_identity == "BR"
    assert cards["Civilized Scholar // Homicidal Brute"].color_identity == "UR"
    assert cards["Bosh, Iron Golem"].commander == "commander"
    assert cards["Nicol Bolas, Planeswalker"].commander == "planeswalker"
    assert cards["Forest"].land_colors == "G"


def test_a_legal_commander_deck() -> None:
    assert found(LEGAL, *variant_deck_rules("commander")) == []


def test_903_5a_exactly_100() -> None:
    assert found(ISAMARU + "98 Plains\n", R.commander_size()) == [("deck", "903.5a")]
    assert found(ISAMARU + "100 Plains\n", R.commander_size()) == [("deck", "903.5a")]


def test_903_5b_singleton_but_basics() -> None:
    text = ISAMARU + "2 Savannah Lions\n97 Plains\n"
    assert found(text, R.singleton) == [("Savannah Lions", "903.5b")]
    assert found(LEGAL, R.singleton) == []


def test_903_5c_color_identity_examples() -> None:
    bosh = "Commander\n1 Bosh, Iron Golem\nDeck\n"
    rules = (R.commander_color_identity(),)
    assert found(bosh + "1 Wort, Boggart Auntie\n1 Shock\n", *rules) == [
        ("Wort, Boggart Auntie", "903.5c")]
    assert found(bosh + "1 Civilized Scholar // Homicidal Brute\n", *rules) == [
        ("Civilized Scholar // Homicidal Brute", "903.5c")]
    wort = "Commander\n1 Wort, Boggart Auntie\nDeck\n"
    assert found(wort + "1 Bosh, Iron Golem\n1 Shock\n1 Doom Blade\n", *rules) == []
    lines = [v.line() for v in check_deck(parse_deck_list(bosh + "1 Wort, Boggart Auntie\n"),
                                          rules).violations]
    assert lines == ["Wort, Boggart Auntie: 903.5c: color identity black and red is "
                     "outside the commander's (red)"]


def test_903_5d_basic_land_types() -> None:
    rules = (R.commander_color_identity(),)
    assert found(ISAMARU + "1 Island\n1 Plains\n", *rules) == [("Island", "903.5d")]


def test_903_5e_no_sideboard_and_903_3_a_commander() -> None:
    rules = variant_deck_rules("commander")
    assert ("deck", "903.5e") in found(LEGAL + "Sideboard\n1 Shock\n", *rules)
    assert found("Deck\n1 Savannah Lions\n99 Plains\n", R.commander_card()) == [
        ("deck", "903.3")]
    assert found("Commander\n1 Savannah Lions\nDeck\n99 Plains\n", R.commander_card()) == [
        ("Savannah Lions", "903.3")]


def test_brawl_903_12() -> None:
    brawl = variant_deck_rules("brawl")
    assert found(ISAMARU + "1 Savannah Lions\n58 Plains\n", *brawl) == []
    assert ("deck", "903.12d") in found(LEGAL, *brawl)
    bolas = "Commander\n1 Nicol Bolas, Planeswalker\nDeck\n"
    assert found(bolas, R.commander_card(brawl=True)) == []
    assert found(bolas, R.commander_card()) == [("Nicol Bolas, Planeswalker", "903.3a")]
    # 903.12e: a colorless commander's deck may hold basics of one basic land type
    colorless = "Commander\n1 Karn, Silver Golem\nDeck\n"
    rules = (R.commander_color_identity(brawl=True),)
    assert found(colorless + "20 Mountain\n", *rules) == []
    assert found(colorless + "20 Mountain\n", R.commander_color_identity()) == [
        ("Mountain", "903.5d")]
    assert found(colorless + "10 Mountain\n10 Forest\n", *rules) == [("Forest", "903.12e")]
