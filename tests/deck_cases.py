"""The deck-check cases of tests/decks/ (see its README): each a deck list whose opening
comments name the variant, the CR rules it checks and the violations expected."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CASES = Path(__file__).resolve().parent / "decks"


@dataclass(frozen=True)
class DeckCase:
    path: Path
    variant: str
    players: int
    rules: tuple[str, ...]
    expect: tuple[tuple[str, str], ...] | None  # None: legal
    # per expected violation, the rules the checker must name as the reason ("RULE by
    # RULE2": 903.5c because of 903.4d), else ()
    because: tuple[tuple[str, ...], ...] = ()
    options: tuple[str, ...] = ()  # `// options: single_planar_deck`: its CLI flags

    def expects_violation_of(self, rule: str) -> bool:
        """The case expects a violation of `rule`, or one the checker attributes to it."""
        return self.expect is not None and (
            any(r == rule for _, r in self.expect) or any(rule in b for b in self.because))


def read_case(path: Path) -> DeckCase:
    keys: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("//"):
            break
        key, sep, value = line.removeprefix("//").strip().partition(":")
        if sep and key in ("variant", "players", "rules", "expect", "options"):
            keys.setdefault(key, []).append(value.strip())
    assert "variant" in keys and "expect" in keys, f"{path.name}: variant and expect"
    expect = keys["expect"]
    triples = [] if expect == ["legal"] else [
        (card.strip(), *rule.partition(" by ")[::2])
        for card, _, rule in (e.rpartition(":") for e in expect)]
    pairs = None if expect == ["legal"] else tuple((c, r.strip()) for c, r, _ in triples)
    because = tuple(tuple(b.split()) for _, _, b in triples)
    return DeckCase(path, keys["variant"][0], int(keys.get("players", ["2"])[0]),
                    tuple(" ".join(keys.get("rules", [])).split()), pairs, because,
                    tuple(" ".join(keys.get("options", [])).split()))


def deck_cases() -> list[DeckCase]:
    return [read_case(p) for p in sorted(CASES.glob("*.txt"))]
