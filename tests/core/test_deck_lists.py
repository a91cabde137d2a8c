"""Reading deck lists (`../shared/spec/decks.md`, "The file"): one test per bullet of
the spec, then hostile input (bounded size, lines, counts; UTF-8 only; no traceback)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter_decks import DeckListError, Section, parse_deck_list, read_deck_list
from arbiter_decks.catalog import catalog
from arbiter_decks.parser import MAX_BYTES, MAX_CARDS, MAX_LINES


def entries(text: str) -> list[tuple[int, str, Section]]:
    return [(e.count, e.name, e.section) for e in parse_deck_list(text).entries]


def error(text: str | bytes) -> DeckListError:
    with pytest.raises(DeckListError) as info:
        read_deck_list(text) if isinstance(text, bytes) else parse_deck_list(text)
    return info.value


# ------------------------------------------------------------------ decks.md bullets


def test_n_card_name_adds_n_copies() -> None:
    assert entries("4 Lightning Bolt\n20 Mountain") == [
        (4, "Lightning Bolt", Section.DECK), (20, "Mountain", Section.DECK)]


def test_nx_card_name_is_accepted_too() -> None:
    assert entries("4x Lightning Bolt\n2X Shock") == [
        (4, "Lightning Bolt", Section.DECK), (2, "Shock", Section.DECK)]


def test_n_is_a_positive_integer() -> None:
    assert error("0 Island").line == 1
    assert "positive" in str(error("0 Island"))
    assert error("Island\n-1 Island").line == 1  # a bare name is no entry
    assert error("1 Island\n-1 Island").line == 2
    assert error("1.5 Island").line == 1
    assert error("٤ Island").line == 1  # digits are ASCII digits


def test_set_code_and_collector_number_are_accepted_and_ignored() -> None:
    deck = parse_deck_list("1 Lightning Bolt (M10) 146\n1 Sol Ring (C21)\n"
                           "1 Shock (M19) 156 *F*")
    assert [(e.name, e.set_code, e.collector_number) for e in deck.entries] == [
        ("Lightning Bolt", "M10", "146"), ("Sol Ring", "C21", None),
        ("Shock", "M19", "156")]
    assert catalog().lookup(deck.entries[0].name) is not None


def test_names_match_the_oracle_name_ignoring_case() -> None:
    found = catalog().lookup("lIGHTNING bOLT")
    assert found is not None and found.name == "Lightning Bolt"
    assert catalog().lookup("Lightning  Bolt") is not None  # spacing
    assert catalog().lookup("Lightning Bolts") is None


def test_a_double_faced_card_by_its_front_face_or_front_back() -> None:
    full = "Civilized Scholar // Homicidal Brute"
    for name in ("Civilized Scholar", full, "civilized scholar // homicidal brute",
                 "Civilized Scholar//Homicidal Brute"):
        found = catalog().lookup(name)
        assert found is not None and found.name == full, name
    assert catalog().lookup("Homicidal Brute") is None  # not by its back face


def test_accents_and_curly_apostrophes_match_too() -> None:
    for name in ("Lim-Dul's Vault", "Lim-D\u00fbl\u2019s Vault"):
        found = catalog().lookup(name)
        assert found is not None and found.name == "Lim-Dûl's Vault"


def test_section_headings_alone_on_a_line_ignoring_case() -> None:
    text = ("COMMANDER\n1 Bosh, Iron Golem\ncompanion\n1 Lurrus of the Dream-Den\n"
            "Deck\n1 Sol Ring\nsideboard\n2 Shock\nPlanar Deck\n1 Akoum\n"
            "scheme deck\n2 Feed the Machine\nVanguard\n1 Eladamri\n")
    assert [(n, s) for _, n, s in entries(text)] == [
        ("Bosh, Iron Golem", Section.COMMANDER), ("Lurrus of the Dream-Den",
                                                  Section.COMPANION),
        ("Sol Ring", Section.DECK), ("Shock", Section.SIDEBOARD),
        ("Akoum", Section.PLANAR), ("Feed the Machine", Section.SCHEME),
        ("Eladamri", Section.VANGUARD)]


def test_lines_before_any_heading_belong_to_deck() -> None:
    assert entries("4 Shock\nSideboard\n1 Fog\nDeck\n1 Fog") == [
        (4, "Shock", Section.DECK), (1, "Fog", Section.SIDEBOARD), (1, "Fog", Section.DECK)]


def test_blank_lines_separate_nothing() -> None:
    assert entries("Sideboard\n\n   \n2 Shock\n\n1 Fog") == [
        (2, "Shock", Section.SIDEBOARD), (1, "Fog", Section.SIDEBOARD)]


def test_slashes_and_hash_start_a_comment_line() -> None:
    assert entries("// my deck\n# by me\n  // indented\n4 Shock\n#4 Fog") == [
        (4, "Shock", Section.DECK)]


def test_a_line_that_cannot_be_read_names_its_line_number() -> None:
    e = error("4 Shock\n\n// fine\nfour Lightning Bolt\n")
    assert e.line == 4 and str(e).startswith("line 4: ")
    assert error("Deck\nIsland").line == 2


def test_windows_line_endings_and_a_byte_order_mark() -> None:
    deck = read_deck_list(b"\xef\xbb\xbfDeck\r\n4 Shock\r\n\r\n2 Fog\r\n")
    assert [(e.line, e.name) for e in deck.entries] == [(2, "Shock"), (4, "Fog")]


# ------------------------------------------------------------------ hostile input


def test_huge_counts_are_refused_before_anything_grows() -> None:
    for text in ("4000000000 Island", "1" + "0" * 5000 + " Island", f"{MAX_CARDS + 1} Forest"):
        assert error(text).line == 1
    e = error(f"{MAX_CARDS} Island\n1 Forest")
    assert e.line == 2 and str(MAX_CARDS) in str(e)


def test_the_scenario_repeat_form_is_refused_with_a_hint() -> None:
    for text in ("Island x 1000000000", "1 Island x 20"):
        e = error(text)
        assert e.line == 1 and "before the name" in str(e)


def test_size_lines_and_line_length_are_bounded() -> None:
    assert "bytes" in str(error(b"1 Island\n" * (MAX_BYTES // 9 + 1)))
    assert f"{MAX_LINES}" in str(error("\n" * MAX_LINES))
    assert error("1 " + "A" * 400).line == 1


def test_encodings_other_than_utf8_are_a_clear_error() -> None:
    assert "UTF-16" in str(error("4 Shock\n".encode("utf-16")))
    assert "UTF-32" in str(error("4 Shock\n".encode("utf-32")))
    e = error("4 Shock\n2 Isl\xe9nd\n".encode("latin-1"))
    assert e.line == 2 and "UTF-8" in str(e)


def test_control_characters_and_lone_surrogates_are_refused() -> None:
    assert error("4 Shock\n1 Isl\x00and").line == 2
    assert error("1 Isl\x1band").line == 1
    assert error("1 Isl\ud800and").line == 1


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_parse_or_fail_with_a_deck_list_error(data: bytes) -> None:
    try:
        deck = read_deck_list(data)
    except DeckListError as e:
        assert str(e)
    else:
        assert all(e.count >= 1 and e.name.strip() for e in deck.entries)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(["Deck", "sideboard", "// c", "# c", "", "4 Shock", "1x Fog",
                     "1 Sol Ring (C21) 263", "Planar deck", "2 Akoum"]),
    st.text(max_size=40)), max_size=30))
def test_any_text_parses_or_fails_with_a_deck_list_error(lines: list[str]) -> None:
    text = "\n".join(lines)
    try:
        deck = parse_deck_list(text)
    except DeckListError as e:
        lines_read = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
        assert e.line is None or 1 <= e.line <= lines_read
    else:
        assert sum(e.count for e in deck.entries) <= MAX_CARDS
