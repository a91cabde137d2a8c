"""Generate libs/arbiter_decks/oracle_index.tsv.gz: every Oracle card name and the few
facts deck construction reads, so `arbiter deck check` tells a card the engine does not
implement from a name that is no Magic card at all.

Usage (from the repository root):

    python tools/gen_oracle_index.py [--atomic PATH] [--out PATH] [--check]

The input (default ../shared/reference/cards/oracle_atomic_20220425.json.gz) is a JSON
object whose "cards" map each Oracle name to its fields. One tab-separated row a card,
sorted by name, after a `#` header naming the source:

    name  kind  basic  limit  companion  identity  commander  land_colors  back_colors

- name: the Oracle name; a multi-face card's is its faces' names joined by ` // `
  (CR 709, 712), so its front face is the part before the first ` // `;
- kind: card, plane, phenomenon, scheme, vanguard, conspiracy or nontraditional
  (CR 108.2a: the last five are not put in decks);
- basic: 1 for the supertype basic (CR 205.4c; 100.2a's exception);
- limit: a card's own deck limit (CR 100.2a is modified by the card): `any` for "A deck
  can have any number of cards named ~", a number for "up to seven" / "only one";
- companion: 1 for the companion keyword (CR 702.139a);
- identity: color identity letters in WUBRG order (CR 903.4), computed by the rules
  core's `color_identity` from every face's mana cost, rules text and colors;
- commander: `commander` for a legendary creature, Vehicle or Spacecraft card or one
  that says it can be your commander (903.3, 903.3a), `planeswalker` for a legendary
  planeswalker card (a commander in Brawl, 903.12c), else empty;
- land_colors: the colors of mana its basic land types make (903.5d), WUBRG order;
- back_colors: the colors of its identity only a double-faced card's back face gives
  (903.4d, an exception to 712.8a), so a violation of 903.5c can say why.

Facts only, no rules text. `--check` writes nothing and exits 1 if the committed file is
out of date. The output is written with a fixed gzip mtime so it is reproducible.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

from arbiter_core.variants.deck_commander import LAND_TYPE_COLORS, color_identity

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ATOMIC = (REPO_ROOT.parent / "shared" / "reference" / "cards"
                  / "oracle_atomic_20220425.json.gz")
DEFAULT_OUTPUT = REPO_ROOT / "libs" / "arbiter_decks" / "oracle_index.tsv.gz"
COLUMNS = ("name", "kind", "basic", "limit", "companion", "identity", "commander",
           "land_colors", "back_colors")
#: layouts whose second face is a back face (712.1): transforming and modal DFCs
DOUBLE_FACED = ("transform", "modal_dfc")
KINDS = {"Plane": "plane", "Phenomenon": "phenomenon", "Scheme": "scheme",
         "Vanguard": "vanguard", "Conspiracy": "conspiracy", "Hero": "nontraditional"}
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10}
_LIMIT = re.compile(r"A deck can have (any number of|up to (\w+)|only (\w+)) cards? named")


def limit_of(text: str) -> str:
    m = _LIMIT.search(text)
    if m is None:
        return ""
    if m.group(1) == "any number of":
        return "any"
    word = (m.group(2) or m.group(3) or "").lower()
    if word not in NUMBERS:
        raise SystemExit(f"unknown deck limit {m.group(0)!r}")
    return str(NUMBERS[word])


def identity_of(card: dict[str, Any]) -> str:
    """CR 903.4 over the card and each of its faces (903.4d)."""
    faces = [card, *(card.get("faces") or [])]
    colors = [c for f in faces for c in f.get("colors") or []]
    if card.get("layout") == "meld":  # a melded permanent's half: the file's facts
        colors += card.get("color_identity") or []
    return color_identity([f.get("mana_cost") or "" for f in faces],
                          [f.get("oracle_text") or "" for f in faces], colors)


def back_colors_of(card: dict[str, Any], identity: str) -> str:
    """903.4d: the colors of `identity` that the front face alone doesn't give."""
    faces = card.get("faces") or []
    if card.get("layout") not in DOUBLE_FACED or len(faces) < 2:
        return ""
    front = faces[0]
    alone = color_identity([front.get("mana_cost") or ""], [front.get("oracle_text") or ""],
                           front.get("colors") or [])
    return "".join(c for c in identity if c not in alone)


def commander_of(card: dict[str, Any]) -> str:
    """CR 903.3, 903.3a, 903.12c."""
    text = card.get("oracle_text") or ""
    if "can be your commander" in text:
        return "commander"
    if "Legendary" not in (card.get("supertypes") or []):
        return ""
    types, subtypes = card.get("types") or [], card.get("subtypes") or []
    if "Creature" in types or "Vehicle" in subtypes or (
            "Spacecraft" in subtypes and card.get("power") is not None):
        return "commander"
    return "planeswalker" if "Planeswalker" in types else ""


def land_colors_of(card: dict[str, Any]) -> str:
    """CR 903.5d, 305.6: the colors the basic land types' mana abilities make."""
    subtypes = card.get("subtypes") or []
    return "".join(c for c in "WUBRG"
                   if any(LAND_TYPE_COLORS.get(s) == c for s in subtypes))


def row(name: str, card: dict[str, Any]) -> str:
    types = card.get("types") or []
    kind = next((KINDS[t] for t in types if t in KINDS), "card")
    fields = [name, kind,
              "1" if "Basic" in (card.get("supertypes") or []) else "0",
              limit_of(card.get("oracle_text") or ""),
              "1" if "Companion" in (card.get("keywords") or []) else "0",
              identity_of(card), commander_of(card),
              land_colors_of(card) if "Land" in types else "",
              back_colors_of(card, identity_of(card))]
    if any("\t" in f or "\n" in f for f in fields):
        raise SystemExit(f"a tab or newline in the facts of {name!r}")
    return "\t".join(fields)


def render(atomic: Path) -> bytes:
    with gzip.open(atomic, "rt", encoding="utf-8") as f:
        data = json.load(f)
    cards: dict[str, dict[str, Any]] = data["cards"]
    source = str(data.get("_meta", {}).get("source", atomic.name)).replace("\n", " ")
    lines = [f"# generated by tools/gen_oracle_index.py from {atomic.name}: {source}",
             "# " + "\t".join(COLUMNS)]
    lines += [row(name, cards[name]) for name in sorted(cards)]
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(("\n".join(lines) + "\n").encode("utf-8"))
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--atomic", type=Path, default=DEFAULT_ATOMIC)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    out = render(args.atomic)
    if args.check:
        current = args.out.read_bytes() if args.out.exists() else b""
        if gzip.decompress(current) != gzip.decompress(out):
            print(f"{args.out} is out of date; run tools/gen_oracle_index.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_bytes(out)
    print(f"wrote {args.out} ({len(out)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
