"""Variants as behaviour (issue 11): each variant is a `Variant` subclass with hooks, and
a supplementary variant composes with a base (Planechase over Grand Melee, 901.14;
Archenemy with Commander, 904.13) by overriding what it changes and reaching the base
with `super()`."""

from __future__ import annotations

import pytest

from arbiter_core.kernel.errors import InvalidCommand
from arbiter_core.kernel.rng import Rng
from arbiter_core.variants.base import Supplement, Variant, compose, get_variant
from arbiter_core.variants.grand_melee import GrandMelee
from arbiter_core.variants.teams import TwoHeadedGiant


class _Tabletop(Supplement):
    """A supplement that changes the starting life and the first player only."""

    name = "tabletop"

    def team_life(self, heads: int) -> int:
        return super().team_life(heads) + 5

    def first_player(self, seats: list[str], teams: dict[str, str]) -> str:
        return seats[-1]


def test_a_supplement_over_grand_melee_keeps_the_markers_and_changes_its_hooks() -> None:
    v = compose(_Tabletop, GrandMelee)
    assert v.name == "tabletop" and v.base_name == "grand_melee"
    assert v.grand_melee and v.default_range == 1 and v.default_attack == "left"
    seats = [f"P{i}" for i in range(1, 13)]
    assert v.first_player(seats, {p: p for p in seats}) == "P12"
    assert v.team_life(1) == 25
    assert type(v).place_markers is GrandMelee.place_markers


def test_a_supplement_reaches_its_base_with_super() -> None:
    v = compose(_Tabletop, TwoHeadedGiant)
    assert v.shared_life and v.team_life(2) == 35 and v.poison_limit(2) == 15
    assert v.team_life(3) == 50  # 810.11's 45, plus the supplement's 5


def test_only_a_supplement_composes_over_a_base() -> None:
    with pytest.raises(InvalidCommand):
        compose(GrandMelee, TwoHeadedGiant)  # type: ignore[arg-type]
    with pytest.raises(InvalidCommand):
        compose(_Tabletop, _Tabletop)


def test_each_variant_is_a_subclass_with_its_own_hooks() -> None:
    base = get_variant("two_player")
    assert type(base) is Variant
    for name in ("free_for_all", "two_headed_giant", "team_vs_team", "emperor",
                 "alternating_teams", "grand_melee"):
        v = get_variant(name)
        assert isinstance(v, Variant) and type(v) is not Variant and v.name == name
    seats = ["A1", "B1", "A2", "B2"]
    given: dict[str, str | None] = {"A1": "A", "A2": "A", "B1": "B", "B2": "B"}
    shuffled = get_variant("alternating_teams").random_seating(Rng(1, 0), seats, given)
    teams = [given[p] for p in shuffled]
    assert all(teams[i] != teams[(i + 1) % 4] for i in range(4))  # 811.3
