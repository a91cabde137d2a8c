"""Read a deck list in the players' text form (`../shared/spec/decks.md`).

One entry a line: `N Card Name` or `Nx Card Name`, optionally followed by a set code in
parentheses and a collector number (accepted and ignored). Section headings stand alone
on a line; lines before any heading belong to `Deck`. Blank lines separate nothing;
`//` and `#` start a comment line. A line that cannot be read is a `DeckListError`
naming its line number.

Hostile input is bounded before any work that grows with it: the size in bytes, the
number of lines, the length of a line, the digits of a count and the cards in the list;
the text must be UTF-8 without control characters. Every refusal is a `DeckListError`.
"""

from __future__ import annotations

import re
import unicodedata

from arbiter_decks.model import DeckEntry, DeckList, Section

MAX_BYTES = 64 * 1024  # a 100-card list with set codes is ~4 KiB
MAX_LINES = 2_000
MAX_LINE_CHARS = 300  # the longest Oracle name has 141 characters
MAX_CARDS = 1_000  # copies in the whole list (Battle of Wits wants 200 or more)
MAX_COUNT_DIGITS = 6

HEADINGS: dict[str, Section] = {s.value.casefold(): s for s in Section}

_ENTRY = re.compile(r"(?P<count>[0-9]+)(?:[xX])?[ \t]+(?P<rest>\S.*)")
_PRINTING = re.compile(
    r"(?P<name>.*?\S)[ \t]+\((?P<set>[A-Za-z0-9]{2,8})\)(?:[ \t]+(?P<num>[^\s()]{1,16}))?")
_MARKERS = re.compile(r"(?:[ \t]+\*[A-Za-z]{1,3}\*)+$")  # export markers such as *F* (foil)
_REPEAT = re.compile(r".*\S[ \t]+[xX][ \t]*[0-9]+")  # "Island x 20" (a scenario's form)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
         (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


class DeckListError(ValueError):
    """The list cannot be read. `line` is the 1-based line number, when there is one."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line
        self.message = message


def decode(data: bytes) -> str:
    """UTF-8 text (a leading byte-order mark is dropped), or a `DeckListError`."""
    if len(data) > MAX_BYTES:
        raise DeckListError(f"the list is {len(data)} bytes; at most {MAX_BYTES} are read")
    for bom, name in _BOMS:
        if data.startswith(bom):
            raise DeckListError(f"the list is {name} text; deck lists are UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise DeckListError(f"not UTF-8 text (byte 0x{data[e.start]:02x})", line) from None


def read_deck_list(data: bytes) -> DeckList:
    """Parse a deck list file's bytes."""
    return parse_deck_list(decode(data))


def parse_deck_list(text: str) -> DeckList:
    """Parse a deck list's text (entries in file order, each with its section)."""
    if len(text) > MAX_BYTES:
        raise DeckListError(f"the list has {len(text)} characters; at most {MAX_BYTES} "
                            "are read")
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if text.count("\n") >= MAX_LINES:
        raise DeckListError(f"the list has more than {MAX_LINES} lines")
    section = Section.DECK
    entries: list[DeckEntry] = []
    total = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = _clean(raw, number)
        if not line or line.startswith(("//", "#")):
            continue
        heading = HEADINGS.get(line.rstrip(":").rstrip().casefold())
        if heading is not None:
            section = heading
            continue
        entry = _entry(line, number, section)
        total += entry.count
        if total > MAX_CARDS:
            raise DeckListError(f"the list names more than {MAX_CARDS} cards", number)
        entries.append(entry)
    return DeckList(tuple(entries))


def _clean(raw: str, number: int) -> str:
    if len(raw) > MAX_LINE_CHARS:
        raise DeckListError(f"the line has {len(raw)} characters; at most "
                            f"{MAX_LINE_CHARS} are read", number)
    bad = _CONTROL.search(raw)
    if bad:
        raise DeckListError(f"control character U+{ord(bad.group()):04X} in the line",
                            number)
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise DeckListError("the line is not valid Unicode text", number) from None
    return " ".join(unicodedata.normalize("NFC", raw).split())


def _entry(line: str, number: int, section: Section) -> DeckEntry:
    m = _ENTRY.fullmatch(line)
    if m is None:
        if _REPEAT.fullmatch(line):
            raise DeckListError(f"{line!r}: the count goes before the name "
                                "(`N Card Name` or `Nx Card Name`)", number)
        raise DeckListError(f"{line!r} is not `N Card Name`, a section heading or a "
                            "comment", number)
    digits = m.group("count")
    if len(digits.lstrip("0")) > MAX_COUNT_DIGITS:
        raise DeckListError(f"{digits} copies: a list names at most {MAX_CARDS} cards",
                            number)
    count = int(digits)
    if count < 1:
        raise DeckListError("the number of copies is a positive integer", number)
    rest = _MARKERS.sub("", m.group("rest"))
    if _REPEAT.fullmatch(rest):
        raise DeckListError(f"{line!r}: write the count once, before the name "
                            "(`N Card Name`)", number)
    printing = _PRINTING.fullmatch(rest)
    if printing is None:
        return DeckEntry(number, count, rest, section)
    return DeckEntry(number, count, printing.group("name"), section, printing.group("set"),
                     printing.group("num"))
