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


#: Commander decks for bot games (903.5): a commander, one each of the pool's cards in
#: its color identity, basic lands to 100 cards in all. Brawl's are 60 (903.12d).
COMMANDERS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "white": ("Isamaru, Hound of Konda", (
        "Savannah Lions", "Youthful Knight", "Fencing Ace", "Serra Angel", "Pacifism",
        "Holy Strength", "Glorious Anthem", "Disenchant", "Ornithopter", "Bonesplitter",
        "Sol Ring"), ("Plains",)),
    "red": ("Krenko, Mob Boss", (
        "Raging Goblin", "Hill Giant", "Shivan Dragon", "Shock", "Lightning Bolt",
        "Lava Axe", "Fireball", "Flame Rift", "Wall of Stone", "Bonesplitter", "Sol Ring",
        "Ornithopter"), ("Mountain",)),
    "atraxa": ("Atraxa, Praetors' Voice", (
        "Llanowar Elves", "Savannah Lions", "Grizzly Bears", "Typhoid Rats",
        "Vampire Nighthawk", "Serra Angel", "Giant Spider", "Unsummon", "Doom Blade",
        "Holy Strength", "Bonesplitter", "Sol Ring", "Giant Growth", "Counterspell",
        "Air Elemental", "Craw Wurm"), ("Plains", "Island", "Swamp", "Forest")),
}


def commander_deck_for_seat(i: int, size: int = 100) -> tuple[str, list[str]]:
    """The seat's commander and the rest of its deck (`size` cards with the commander):
    the singles, then basic lands of its colors in turn."""
    names = sorted(COMMANDERS)
    commander, singles, basics = COMMANDERS[names[i % len(names)]]
    deck = list(singles[:size // 3])
    lands = size - 1 - len(deck)
    return commander, deck + [basics[k % len(basics)] for k in range(lands)]

#: the planar deck each bot plays in Planechase: eleven different names, two of them
#: phenomena (901.3)
BOT_PLANAR_DECK: tuple[str, ...] = (
    "Krosa", "Sokenzan", "Academy at Tolaria West", "Panopticon", "Lethe Lake",
    "The Eon Fog", "The Hippodrome", "Tazeem", "Chaotic Aether", "Mutual Epiphany",
    "Glimmervoid Basin")

#: the communal planar deck of the single planar deck option (901.15a): twenty-one
#: different names, four of them phenomena - legal for two players (the smaller of forty and ten
#: times the number of players)
BOT_SINGLE_PLANAR_DECK: tuple[str, ...] = (
    *BOT_PLANAR_DECK, "Naya", "Astral Arena", "The Fourth Sphere", "Naar Isle",
    "Goldmeadow", "Takenuma", "Lair of the Ashen Idol", "Sanctum of Serra",
    "Planewide Disaster", "Interplanar Tunnel")

#: the archenemy bot's scheme deck: twenty schemes, two of each (904.3)
BOT_SCHEME_DECK: tuple[str, ...] = tuple(name for name in (
    "Roots of All Evil", "There Is No Refuge", "The Iron Guardian Stirs",
    "I Delight in Your Convulsions", "Know Naught but Fire", "Mortal Flesh Is Weak",
    "Embrace My Diabolical Vision", "Behold the Power of Destruction",
    "Make Yourself Useful", "The Very Soil Shall Shake") for _ in range(2))

#: the vanguards bots play, in seat order (902.3)
BOT_VANGUARDS: tuple[str, ...] = ("Gerrard", "Squee", "Ertai", "Karn", "Sisay",
                                  "Bosh, Iron Golem Avatar", "Platinum Angel Avatar")
