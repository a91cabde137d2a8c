"""Effects a spell or ability performs as it resolves (CR 608.2c): damage, destruction,
counters, mana, cards, tokens, control, keywords and the seed cards' multiplayer effects."""

from __future__ import annotations

from typing import Literal

from arbiter_core.cards.model.base import (
    Amount,
    Color,
    DataModel,
    Keyword,
    TargetRef,
)


class DealDamage(DataModel):
    """The source deals damage (CR 120). `to` is a target index, or every player.

    `divided` splits the amount evenly among all chosen targets of that index, rounding
    down (Fireball).
    """

    kind: Literal["deal_damage"] = "deal_damage"
    amount: Amount
    # "that_player": the player a trigger or a mode names (Misfortune's chooser);
    # "that_creature": the object a trigger names ("deals 2 damage to it", Aether Flash)
    to: TargetRef | Literal["each_player", "that_player", "that_creature"]
    divided: bool = False


class Destroy(DataModel):
    """Destroy (CR 701.8): a target, or all creatures. `no_regenerate` is Wrath's rider."""

    kind: Literal["destroy"] = "destroy"
    what: TargetRef | Literal["all_creatures"]
    no_regenerate: bool = False


class CounterTarget(DataModel):
    """Counter target spell (CR 701.6). `to_library_top`: "If that spell is countered this
    way, put it on top of its owner's library instead of into that player's graveyard."
    (Memory Lapse, a replacement effect, 614.1a)."""

    kind: Literal["counter"] = "counter"
    what: TargetRef = 0
    to_library_top: bool = False


PTSubject = Literal["target", "self", "enchanted", "equipped", "creatures_you_control",
                    "all_creatures"]


class ModifyPowerToughness(DataModel):
    """+N/+M in layer 7c (CR 613.4c). `until_end_of_turn` for a resolving effect
    (CR 611.2); otherwise it is the effect of a static ability (CR 604, 611.3)."""

    kind: Literal["modify_pt"] = "modify_pt"
    subject: PTSubject
    target: TargetRef = 0
    power: int
    toughness: int
    until_end_of_turn: bool = False


class CantAttackOrBlock(DataModel):
    """A static restriction on the enchanted creature (CR 508.1c, 509.1b)."""

    kind: Literal["cant_attack_or_block"] = "cant_attack_or_block"
    subject: Literal["enchanted"] = "enchanted"


class AddMana(DataModel):
    """Add mana to the controller's pool (CR 106.3, 605). `mana` is a string of symbols
    such as "G", "CC" or "BBB"."""

    kind: Literal["add_mana"] = "add_mana"
    mana: str


class AddManaInCommanderIdentity(DataModel):
    """"Add one mana of any color in your commander's color identity." (Command Tower;
    903.4a, 903.4f: no mana when the player has no commander or it is colorless)."""

    kind: Literal["add_mana_commander_identity"] = "add_mana_commander_identity"


# "each_player": every player in the game, in turn order (Jace Beleren's +2).
PlayerRef = Literal["controller", "target_player", "that_player", "each_player"]


class DrawCards(DataModel):
    """A player draws cards (CR 121). `that_player` is the player a trigger names."""

    kind: Literal["draw"] = "draw"
    who: PlayerRef = "controller"
    count: int = 1
    # "unless that player pays {1}" (Rhystic Study): the player a trigger names may pay
    # this mana to stop the draw (CR 118.12a; 800.4f: not paid if they have left).
    unless_that_player_pays: str = ""


class Mill(DataModel):
    """A player mills cards (CR 701.17a): the top cards of their library go to their
    graveyard."""

    kind: Literal["mill"] = "mill"
    who: PlayerRef = "target_player"
    count: int = 1


class Manifest(DataModel):
    """Manifest the top card of your library (CR 701.40a): it is put onto the
    battlefield face down as a 2/2 creature. A keyword action; with `reminder` its
    reminder text is printed. The rules are in `effects/manifest.py`."""

    kind: Literal["manifest"] = "manifest"
    reminder: bool = True


class Discard(DataModel):
    """A player discards (CR 701.9); `at_random` for Hypnotic Specter."""

    kind: Literal["discard"] = "discard"
    who: PlayerRef
    count: int = 1
    at_random: bool = False


class ReturnToHand(DataModel):
    """Return the target, or all creatures (Evacuation), to its owner's hand (CR 400.7)."""

    kind: Literal["return_to_hand"] = "return_to_hand"
    what: TargetRef | Literal["all_creatures"] = 0


class PutOnTopOfLibrary(DataModel):
    """Put the target on top of its owner's library (Griptide; CR 401.4 for one card)."""

    kind: Literal["put_on_top_of_library"] = "put_on_top_of_library"
    what: TargetRef = 0


class PutOntoBattlefieldAttacking(DataModel):
    """Put a creature card with one of `subtypes` from your hand onto the battlefield
    tapped and attacking "that opponent" (Kaalia of the Vast; 508.4: it was never
    declared as an attacker)."""

    kind: Literal["put_onto_battlefield_attacking"] = "put_onto_battlefield_attacking"
    subtypes: tuple[str, ...]


class TokenSpec(DataModel):
    """A token's characteristics (CR 111.4)."""

    name: str
    colors: tuple[Color, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: int
    toughness: int


class CreateTokens(DataModel):
    """Create tokens (CR 111.2, 701.7)."""

    kind: Literal["create_tokens"] = "create_tokens"
    count: Amount
    token: TokenSpec


class PreventCombatDamage(DataModel):
    """Prevent all combat damage this turn (CR 615: a prevention shield, Fog)."""

    kind: Literal["prevent_combat_damage"] = "prevent_combat_damage"


class ExtraTurn(DataModel):
    """The controller takes an extra turn after this one (CR 500.7)."""

    kind: Literal["extra_turn"] = "extra_turn"


class Attach(DataModel):
    """Attach this Equipment to the target creature (CR 701.3, equip 702.6)."""

    kind: Literal["attach"] = "attach"
    target: TargetRef = 0


class GainControl(DataModel):
    """Control-changing effect, layer 2 (CR 613.1b). From a resolving spell it lasts
    until end of turn (Act of Treason, Ray of Command); from a static ability it lasts
    while the Aura enchants the creature (Mind Control, Persuasion). `tap_when_lost` is
    Ray of Command's delayed trigger "When you lose control of the creature, tap it"."""

    kind: Literal["gain_control"] = "gain_control"
    subject: Literal["target", "enchanted"] = "target"
    target: TargetRef = 0
    until_end_of_turn: bool = False
    tap_when_lost: bool = False


class Untap(DataModel):
    """Untap the target (CR 701.26b)."""

    kind: Literal["untap"] = "untap"
    target: TargetRef = 0


class GainKeyword(DataModel):
    """The target gains a keyword until end of turn, layer 6 (CR 613.1f)."""

    kind: Literal["gain_keyword"] = "gain_keyword"
    keyword: Keyword
    target: TargetRef = 0
    until_end_of_turn: bool = True
    reminder: bool = False  # the Oracle prints reminder text (CR 207.2a)


class SearchOntoBattlefield(DataModel):
    """Search the target player's library for a card of `card_type` and put it onto the
    battlefield under your control; then that player shuffles (CR 701.19, Bribery)."""

    kind: Literal["search_onto_battlefield"] = "search_onto_battlefield"
    target: TargetRef = 0
    card_type: str = "Creature"


class DoubleLife(DataModel):
    """Double the target player's life total: they gain life equal to it (CR 119.5;
    810.9a: in Two-Headed Giant the team's total is the player's)."""

    kind: Literal["double_life"] = "double_life"
    target: TargetRef = 0


class ShuffleIntoLibrary(DataModel):
    """Shuffle this card into its owner's library (CR 701.24, Beacon of Immortality)."""

    kind: Literal["shuffle_into_library"] = "shuffle_into_library"


class LifeBecomesLowest(DataModel):
    """Each player's life total becomes the lowest life total among all players
    (CR 119.5; 810.9d in Two-Headed Giant)."""

    kind: Literal["life_becomes_lowest"] = "life_becomes_lowest"


class WinGame(DataModel):
    """The controller wins the game (CR 104.2b; 801.14 with limited range)."""

    kind: Literal["win_game"] = "win_game"


class LoseGame(DataModel):
    """The controller loses the game (CR 104.3e)."""

    kind: Literal["lose_game"] = "lose_game"


class GainLifePerLifeLost(DataModel):
    """Gain N life for each 1 life lost (Transcendence's trigger)."""

    kind: Literal["gain_life_per_life_lost"] = "gain_life_per_life_lost"
    per_point: int = 2


class BecomeCreature(DataModel):
    """The permanent becomes a creature with these characteristics (layers 4, 6, 7b,
    CR 613.1d/f/g); permanent (Lurking Evil)."""

    kind: Literal["become_creature"] = "become_creature"
    power: int
    toughness: int
    subtypes: tuple[str, ...] = ()
    keywords: tuple[Keyword, ...] = ()


class CreateTokenForThatController(DataModel):
    """"that creature's controller creates" a token (Genesis Chamber)."""

    kind: Literal["create_token_for_that_controller"] = "create_token_for_that_controller"
    token: TokenSpec


class CantLose(DataModel):
    """Static: you can't lose the game (CR 104.3; 810.8a for a 2HG team)."""

    kind: Literal["cant_lose"] = "cant_lose"


class OpponentsCantWin(DataModel):
    """Static: your opponents can't win the game (CR 104.2; 810.8a)."""

    kind: Literal["opponents_cant_win"] = "opponents_cant_win"


class NoLossForZeroLife(DataModel):
    """Static: you don't lose the game for having 0 or less life (704.5a doesn't apply)."""

    kind: Literal["no_loss_for_zero_life"] = "no_loss_for_zero_life"


class CantAttackYouIfChosenColorWithoutFlying(DataModel):
    """Static: creatures of the chosen color without flying can't attack you
    (Teferi's Moat; CR 508.1c restriction)."""

    kind: Literal["moat"] = "moat"


class ExileUntilNextEndStep(DataModel):
    """Exile the target; return that card to the battlefield under its owner's control
    at the beginning of the next end step (a delayed trigger, CR 603.7; Astral Slide).
    800.4d: nothing returns for an owner who has left the game."""

    kind: Literal["exile_until_next_end_step"] = "exile_until_next_end_step"
    target: TargetRef = 0


class EnterAsCopy(DataModel):
    """"You may have ~ enter the battlefield as a copy of any creature on the
    battlefield" (Clone): a replacement effect (614.1c) that makes it a copy as it
    enters (707.5), a copy effect applied in layer 1 (613.2a, 707.2)."""

    kind: Literal["enter_as_copy"] = "enter_as_copy"
    #: what it may copy: a creature on the battlefield (Clone), or a creature card in a
    #: graveyard (Body Double)
    of: Literal["creature", "creature_card_in_a_graveyard"] = "creature"


class ChooseColorAsEnters(DataModel):
    """"As ~ enters, choose a color" (CR 614.12: a replacement effect; the choice is made
    as the permanent enters)."""

    kind: Literal["choose_color_as_enters"] = "choose_color_as_enters"


class TurnOthersFaceDownAsEnters(DataModel):
    """"As ~ enters the battlefield, turn all other nontoken creatures face down.
    (They're 2/2 creatures.)" (Ixidron): a replacement effect (614.1c) turning them face
    down as it enters (708.2a)."""

    kind: Literal["turn_others_face_down_as_enters"] = "turn_others_face_down_as_enters"


class PowerToughnessFaceDownCreatures(DataModel):
    """"~'s power and toughness are each equal to the number of face-down creatures on
    the battlefield." (Ixidron): a characteristic-defining ability (604.3, layer 7a)."""

    kind: Literal["pt_face_down_creatures"] = "pt_face_down_creatures"


class BecomeCopyUntilEndOfTurn(DataModel):
    """"Choose a nonlegendary creature on the battlefield. Target creature becomes a copy
    of that creature until end of turn." (Cytoshape; 707.2, layer 1, 514.2)."""

    kind: Literal["become_copy_until_end_of_turn"] = "become_copy_until_end_of_turn"
    target: TargetRef = 0


class BecomeArtifactCreatureUntilEndOfTurn(DataModel):
    """"Target noncreature artifact becomes an artifact creature with power and toughness
    each equal to its mana value until end of turn." (Karn, Silver Golem; layers 4 and
    7b, 613.1d, 613.4b)."""

    kind: Literal["become_artifact_creature"] = "become_artifact_creature"
    target: TargetRef = 0


class ReturnCommandersToCommandZone(DataModel):
    """"Target player returns each commander they control from the battlefield to the
    command zone." (Leadership Vacuum; 903.3d: the commanders they control are the
    permanents on the battlefield that are commanders)."""

    kind: Literal["return_commanders_to_command_zone"] = "return_commanders_to_command_zone"
    who: TargetRef = 0


class DrawAndLoseCommanderManaValue(DataModel):
    """"You draw X cards and you lose X life, where X is the mana value of a commander you
    own on the battlefield or in the command zone." (Stinging Study; 903.3d, 903.3e: that
    commander's mana value as it is now)."""

    kind: Literal["draw_and_lose_commander_mana_value"] = "draw_and_lose_commander_mana_value"


class CanBeYourCommander(DataModel):
    """"~ can be your commander." (CR 903.3a): it modifies the deck construction rules and
    functions before the game (the deck check reads it from the Oracle index); in the
    game it does nothing."""

    kind: Literal["can_be_your_commander"] = "can_be_your_commander"


class DrawPerCreatureOfColor(DataModel):
    """"Draw a card for each [color] creature you control." (Freyalise, Llanowar's Fury)."""

    kind: Literal["draw_per_creature_of_color"] = "draw_per_creature_of_color"
    color: Color


class PutOnBottomOfLibraries(DataModel):
    """"Put all creatures on the bottom of their owners' libraries." (Hallowed Burial;
    401.4: each owner orders their cards)."""

    kind: Literal["put_on_bottom_of_libraries"] = "put_on_bottom_of_libraries"
    what: Literal["all_creatures"] = "all_creatures"
