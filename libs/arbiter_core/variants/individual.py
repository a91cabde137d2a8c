"""Free-for-All (CR 806): individuals, each against all the others.

806.1: no teams; 806.2: options chosen before play; 806.2a: a range of influence, if
used, is the same for each player; 806.2b: one attack option, by default attack multiple
players (the spec); 806.2c: no deploy creatures (refused as the game starts). 806.3:
seating is random, turns go to the left (`seating`).
"""

from __future__ import annotations

from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.variants.base import Variant, variant


@variant
class FreeForAll(Variant):
    name = "free_for_all"
    max_players = 100

    def check_options(self, deploy_creatures: bool | None) -> None:
        if deploy_creatures:
            raise InvalidCommand("options.deploy_creatures", "Free-for-All doesn't use the "
                                                             "deploy creatures option (806.2c)")
