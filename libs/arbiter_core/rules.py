"""Every rule package, imported once so that each registers what it adds to the
kernel's tables (event appliers, command handlers, engine work, decisions, effects,
watchers, variants).

This is the one list of the core's rule modules; `tests/structure/test_registries.py`
fails on a module under a rule package that is missing here. Importing `arbiter_core`
imports this module, so no caller can forget it.
"""

from __future__ import annotations

from arbiter_core.card_types import planeswalkers as card_types_planeswalkers
from arbiter_core.combat import banding as combat_banding
from arbiter_core.combat import damage as combat_damage
from arbiter_core.combat import declarations as combat_declarations
from arbiter_core.combat import declare as combat_declare
from arbiter_core.combat import requirements as combat_requirements
from arbiter_core.effects import cards as effects_cards
from arbiter_core.effects import counters as effects_counters
from arbiter_core.effects import damage as effects_damage
from arbiter_core.effects import life as effects_life
from arbiter_core.effects import life_effects as effects_life_effects
from arbiter_core.effects import payments as effects_payments
from arbiter_core.effects import zones as effects_zones
from arbiter_core.game import concede as game_concede
from arbiter_core.game import ending as game_ending
from arbiter_core.game import loops as game_loops
from arbiter_core.game import outcome as game_outcome
from arbiter_core.game import start as game_start
from arbiter_core.kernel import actions as kernel_actions
from arbiter_core.kernel import decisions as kernel_decisions
from arbiter_core.keywords import cycling as keywords_cycling
from arbiter_core.keywords import persist as keywords_persist
from arbiter_core.layers import characteristics as layers_characteristics
from arbiter_core.layers import continuous as layers_continuous
from arbiter_core.layers import control as layers_control
from arbiter_core.layers import copies as layers_copies
from arbiter_core.layers import redirect as layers_redirect
from arbiter_core.multiplayer import grand_melee as multiplayer_grand_melee
from arbiter_core.multiplayer import influence as multiplayer_influence
from arbiter_core.multiplayer import information as multiplayer_information
from arbiter_core.multiplayer import leaving as multiplayer_leaving
from arbiter_core.multiplayer import seating as multiplayer_seating
from arbiter_core.sba import check as sba_check
from arbiter_core.sba import conditions as sba_conditions
from arbiter_core.stack import casting as stack_casting
from arbiter_core.stack import choices as stack_choices
from arbiter_core.stack import delayed as stack_delayed
from arbiter_core.stack import items as stack_items
from arbiter_core.stack import mana as stack_mana
from arbiter_core.stack import optional as stack_optional
from arbiter_core.stack import playable as stack_playable
from arbiter_core.stack import priority as stack_priority
from arbiter_core.stack import resolve as stack_resolve
from arbiter_core.stack import targets as stack_targets
from arbiter_core.stack import trigger_events as stack_trigger_events
from arbiter_core.stack import triggers as stack_triggers
from arbiter_core.turns import draw as turns_draw
from arbiter_core.turns import steps as turns_steps
from arbiter_core.variants import base as variants_base
from arbiter_core.variants import emperor as variants_emperor
from arbiter_core.variants import grand_melee as variants_grand_melee
from arbiter_core.variants import individual as variants_individual
from arbiter_core.variants import teams as variants_teams
from arbiter_core.views import legal as views_legal
from arbiter_core.views import seat as views_seat
from arbiter_core.zones import objects as zones_objects

MODULES = (
    kernel_actions,
    kernel_decisions,
    card_types_planeswalkers,
    combat_banding,
    combat_damage,
    combat_declarations,
    combat_declare,
    combat_requirements,
    effects_cards,
    effects_counters,
    effects_damage,
    effects_life,
    effects_life_effects,
    effects_payments,
    effects_zones,
    game_concede,
    game_ending,
    game_loops,
    game_outcome,
    game_start,
    keywords_cycling,
    keywords_persist,
    layers_characteristics,
    layers_continuous,
    layers_control,
    layers_copies,
    layers_redirect,
    multiplayer_grand_melee,
    multiplayer_influence,
    multiplayer_information,
    multiplayer_leaving,
    multiplayer_seating,
    sba_check,
    sba_conditions,
    stack_casting,
    stack_choices,
    stack_delayed,
    stack_items,
    stack_mana,
    stack_optional,
    stack_playable,
    stack_priority,
    stack_resolve,
    stack_targets,
    stack_trigger_events,
    stack_triggers,
    turns_draw,
    turns_steps,
    variants_base,
    variants_emperor,
    variants_grand_melee,
    variants_individual,
    variants_teams,
    views_legal,
    views_seat,
    zones_objects,
)
