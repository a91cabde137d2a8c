"""Preconstructed 40-card decks from the implemented pool, for bot games."""

from __future__ import annotations


def _deck(*entries: tuple[int, str]) -> list[str]:
    out: list[str] = []
    for n, name in entries:
        out.extend([name] * n)
    return out


DECKS: dict[str, list[str]] = {
    "red": _deck(
        (17, "Mountain"), (2, "Raging Goblin"), (3, "Hill Giant"), (1, "Shivan Dragon"),
        (3, "Shock"), (3, "Lightning Bolt"), (2, "Lava Axe"), (2, "Fireball"),
        (1, "Flame Rift"), (1, "Krenko, Mob Boss"), (2, "Wall of Stone"), (2, "Bonesplitter"),
        (1, "Sol Ring"),
    ),
    "green": _deck(
        (17, "Forest"), (3, "Llanowar Elves"), (4, "Grizzly Bears"), (3, "Giant Spider"),
        (2, "Craw Wurm"), (2, "Colossal Dreadmaw"), (3, "Giant Growth"), (2, "Fog"),
        (2, "Naturalize"), (1, "Howling Mine"), (1, "Ornithopter"),
    ),
    "white": _deck(
        (17, "Plains"), (3, "Savannah Lions"), (3, "Youthful Knight"), (2, "Fencing Ace"),
        (2, "Serra Angel"), (1, "Isamaru, Hound of Konda"), (2, "Pacifism"),
        (2, "Holy Strength"), (1, "Glorious Anthem"), (2, "Disenchant"), (1, "Wrath of God"),
        (2, "Ornithopter"), (2, "Bonesplitter"),
    ),
    "dimir": _deck(
        (8, "Island"), (9, "Swamp"), (2, "Typhoid Rats"), (2, "Vampire Nighthawk"),
        (2, "Hypnotic Specter"), (2, "Air Elemental"), (2, "Counterspell"), (1, "Cancel"),
        (2, "Unsummon"), (2, "Divination"), (2, "Doom Blade"), (2, "Dark Ritual"),
        (1, "Raise Dead"), (2, "Mind Rot"), (1, "Time Walk"),
    ),
}


def deck_for_seat(i: int) -> list[str]:
    names = sorted(DECKS)
    return list(DECKS[names[i % len(names)]])


#: the planar deck each bot plays in Planechase: ten different names, two of them
#: phenomena (901.3)
BOT_PLANAR_DECK: tuple[str, ...] = (
    "Krosa", "Sokenzan", "Academy at Tolaria West", "Panopticon", "Lethe Lake",
    "The Eon Fog", "The Hippodrome", "Tazeem", "Chaotic Aether", "Mutual Epiphany")

#: the archenemy bot's scheme deck: twenty schemes, two of each (904.3)
BOT_SCHEME_DECK: tuple[str, ...] = tuple(name for name in (
    "Roots of All Evil", "There Is No Refuge", "The Iron Guardian Stirs",
    "I Delight in Your Convulsions", "Know Naught but Fire", "Mortal Flesh Is Weak",
    "Embrace My Diabolical Vision", "Behold the Power of Destruction",
    "Make Yourself Useful", "The Very Soil Shall Shake") for _ in range(2))

#: the vanguards bots play, in seat order (902.3)
BOT_VANGUARDS: tuple[str, ...] = ("Gerrard", "Squee", "Ertai")
