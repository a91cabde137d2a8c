"""Banding (CR 702.22): attacking bands and who assigns combat damage around them.

Each piece of 702.22 the engine uses is one function here:

- 702.22c: a band is declared as attackers are declared: one or more attacking creatures
  with banding and at most one without; each creature in at most one band
  (`check_bands`).
- 702.22d: all creatures of a band attack the same player - in a game with the attack
  multiple players option, 802.3b: they can't attack different players (`check_bands`).
- 702.22e, 702.22f: a band lasts for the rest of combat even if banding is lost (it is
  kept in `Combat.bands` and never judged again); a creature removed from combat - here,
  one that left the battlefield, since a zone change makes a new object (400.7) - is no
  longer in it (`band_mates`).
- 702.22h: a creature blocking one member of a band blocks every member (`band_blocks`).
- 702.22j: an attacking creature blocked by a creature with banding has its combat
  damage assigned by the defending player (`defender_assigns`).
- 702.22k: a blocking creature that blocks a creature with banding has its combat
  damage assigned by the active player (`attacker_assigns`).

702.22b "bands with other" is not implemented: no card in the pool has it (a band with
only "bands with other" creatures can't be declared). 702.22i (an effect that makes a
band member blocked) needs a card that blocks by effect; the pool has none. 702.22m:
keywords are a set, so a second instance of banding changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from arbiter_core.kernel import events as ev
from arbiter_core.kernel.edits import set_marker
from arbiter_core.kernel.errors import InvalidCommand, RuleViolation
from arbiter_core.kernel.evolve import applies
from arbiter_core.kernel.explain import Namer, explains
from arbiter_core.kernel.state import Combat, GameState, Obj
from arbiter_core.layers.characteristics import keywords


def has_banding(s: GameState, o: Obj) -> bool:
    return "banding" in keywords(s, o)


def check_bands(s: GameState, attacks: Sequence[tuple[int, str]],
                bands: Sequence[Sequence[int]]) -> None:
    """CR 702.22c: each band is attacking creatures, at least one with banding and at
    most one without, and no creature is in two bands. CR 702.22d (802.3b with the attack
    multiple players option): a band's creatures all attack the same player."""
    attacking = dict(attacks)
    seen: set[int] = set()
    for band in bands:
        if len(band) < 2:
            raise InvalidCommand("bands", "a band has two or more creatures")
        for oid in band:
            if oid not in attacking:
                raise RuleViolation("702.22c", f"object {oid} is in a band but not "
                                               "declared as an attacker")
            if oid in seen:
                raise RuleViolation("702.22c", f"{s.objects[oid].name} can be a member of "
                                               "only one band")
            seen.add(oid)
        without = [oid for oid in band if not has_banding(s, s.objects[oid])]
        if len(without) == len(band):
            raise RuleViolation("702.22c", "a band needs a creature with banding")
        if len(without) > 1:
            names = ", ".join(s.objects[oid].name for oid in without)
            raise RuleViolation("702.22c", "a band may have only one creature without "
                                           f"banding: {names}")
        if len({attacking[oid] for oid in band}) > 1:
            multiple = s.attack_option in ("multiple", "any") and len(s.in_game()) > 2
            raise RuleViolation("802.3b" if multiple else "702.22d",
                                "creatures in a band can't attack different players")


def band_of(combat: Combat, attacker: int) -> tuple[int, ...]:
    """The band `attacker` was declared in (702.22c), or () if none."""
    return next((band for band in combat.bands if attacker in band), ())


def band_mates(s: GameState, combat: Combat, attacker: int) -> list[int]:
    """The other members of `attacker`'s band still in combat (702.22e-f): a member that
    left the battlefield is no longer in the band."""
    live = set(combat.attacker_ids())
    return [a for a in band_of(combat, attacker) if a != attacker and a in live
            and a in s.objects and s.objects[a].zone == "battlefield"]


def band_blocks(s: GameState, combat: Combat,
                blocks: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """CR 702.22h: for each declared block, the blocker also blocks each other creature
    in the blocked creature's band. Returns the added blocker -> attacker pairs."""
    have = set(combat.blocks) | set(blocks)
    added: list[tuple[int, int]] = []
    for b, a in blocks:
        for mate in band_mates(s, combat, a):
            if (b, mate) not in have:
                have.add((b, mate))
                added.append((b, mate))
    return added


def defender_assigns(s: GameState, blockers: Sequence[int]) -> bool:
    """CR 702.22j: an attacking creature blocked by a creature with banding has its
    damage assigned by the defending player, among any of its blockers."""
    return any(has_banding(s, s.objects[b]) for b in blockers if b in s.objects)


def attacker_assigns(s: GameState, blocked: Sequence[int]) -> bool:
    """CR 702.22k: a blocking creature that blocks a creature with banding has its
    damage assigned by the active player, among any of the creatures it blocks."""
    return any(has_banding(s, s.objects[a]) for a in blocked if a in s.objects)


@applies(ev.BandBlocked)
def _band_blocked(s: GameState, e: ev.BandBlocked) -> None:
    cbb = s.markers[e.marker].combat or Combat()
    set_marker(s, e.marker, combat=replace(cbb, blocks=(*cbb.blocks, *e.blocks)))


@explains(ev.BandBlocked)
def _explain_band_blocked(before: GameState, e: ev.BandBlocked, name: Namer) -> str:
    return "the band is blocked: " + ", ".join(f"{name(b)} blocks {name(a)}"
                                               for b, a in e.blocks)
