"""The gateway's security settings, from the environment (pydantic-settings).

ARBITER_GATEWAY_SECRET   signs tokens; every gateway instance shares it (>= 16 bytes;
                         unset: a random one, for a single instance)
ARBITER_JUDGES           judges' credentials: `name=scrypt:...` entries, comma separated
                         (`python -m arbiter_gateway hash-password`); unset: no judge can
                         log in
ARBITER_ORGANISERS       organisers' credentials, the same format; unset: nobody can
                         create a game
ARBITER_SEED_SECRET      key of HMAC(secret, game id, client seed), the seed of a game
                         created through the gateway (>= 16 bytes; unset: a random one per
                         process, which is as safe: the seed used is stored in the game)
ARBITER_STAFF_TOKEN_TTL_S  lifetime of judge and organiser tokens (default 43200: 12 h)
ARBITER_GAME_TOKEN_TTL_S   lifetime of seat and spectator tokens (default 172800: 48 h)
ARBITER_CREATE_PER_MINUTE  games one organiser may create a minute (default 30)
ARBITER_COMMANDS_PER_SECOND commands one seat may send a second (default 20, bursts of
                         twice that)
ARBITER_LOGINS_PER_MINUTE  login attempts per name and per client address (default 10)
ARBITER_CR_BASE          where the judge console links CR rule numbers: a URL prefix (the
                         rule is appended after a `/`) or a URL with `{rule}` in it; unset
                         (the default): rules are shown, not linked

Rate limits are kept per gateway instance: with n instances a client may get n times
the rate (sticky sessions or a limit at the ingress make it one).
"""

from __future__ import annotations

import secrets

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from arbiter_gateway.passwords import parse_credentials


class GatewaySettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ARBITER_", extra="ignore",
                                      frozen=True, populate_by_name=True)

    gateway_secret: str = Field(default_factory=lambda: secrets.token_hex(32),
                                min_length=16, repr=False,
                                validation_alias="ARBITER_GATEWAY_SECRET")
    seed_secret: str = Field(default_factory=lambda: secrets.token_hex(32),
                             min_length=16, repr=False, validation_alias="ARBITER_SEED_SECRET")
    judges: str = Field(default="", repr=False, validation_alias="ARBITER_JUDGES")
    organisers: str = Field(default="", repr=False, validation_alias="ARBITER_ORGANISERS")
    staff_token_ttl_s: int = Field(default=43_200, ge=60, le=7 * 86_400)
    game_token_ttl_s: int = Field(default=172_800, ge=60, le=30 * 86_400)
    create_per_minute: float = Field(default=30, gt=0, le=100_000)
    commands_per_second: float = Field(default=20, gt=0, le=100_000)
    logins_per_minute: float = Field(default=10, gt=0, le=100_000)
    cr_base: str | None = Field(default=None, max_length=500,
                                pattern=r"^(https?://|/)[^\s\"'<>]*$",
                                validation_alias="ARBITER_CR_BASE")

    @field_validator("judges", "organisers")
    @classmethod
    def _credentials(cls, raw: str) -> str:
        parse_credentials(raw)
        return raw

    def judge_entries(self) -> dict[str, str]:
        return parse_credentials(self.judges)

    def organiser_entries(self) -> dict[str, str]:
        return parse_credentials(self.organisers)
