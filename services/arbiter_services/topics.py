"""Every Kafka topic in one place: name, key, partitions, payload and consumers.

AsyncAPI (`make asyncapi`), topic creation (`up`, compose) and the Strimzi KafkaTopics in
k8s/ are generated from `TOPICS`. Game topics are keyed so that one game's order is kept
where order matters: by game, or by `game:marker` for what belongs to one turn marker
(so one Grand Melee game's stacks spread over partitions and stack resolvers).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from arbiter_core.kernel.decide import WORK_OWNERS
from arbiter_services.messages import AuditMessage, CommandEnvelope, EventMessage, WorkItem

TURN = "turn-orchestrator"
STACK = "stack-resolver"
SBA = "sba-checker"
VARIANTS = "variants"
SERVICES: tuple[str, ...] = (TURN, STACK, SBA, VARIANTS)
RELAY = "relay"
GATEWAY = "gateway"

#: The one service that consumes each command kind.
COMMAND_CONSUMERS: dict[str, str] = {
    "StartGame": VARIANTS,
    "SetUpPosition": VARIANTS,
    "Concede": VARIANTS,  # leaving the game is game-wide (CR 104.3a, 800.4a)
    "PassPriority": TURN,
    "DeclareAttackers": TURN,
    "DeclareBlockers": TURN,
    "AssignCombatDamage": TURN,
    "ChooseObjects": TURN,
    "ChooseOption": TURN,  # a decision among named options (a color, CR 614.12)
    "PlayLand": TURN,  # a special action (CR 116.2a), no stack
    "RollPlanarDie": TURN,  # a special action (CR 901.9, 116.2i), no stack
    "CastSpell": STACK,
    "CastFaceDown": STACK,  # a spell cast face down by its morph ability (CR 702.37c)
    "TurnFaceUp": TURN,  # a special action (CR 116.2b, 702.37e), no stack
    "ActivateAbility": STACK,
}

#: Work kinds whose messages are keyed `game:marker` (independent per turn marker);
#: every other kind is game-wide and keyed by game.
PER_MARKER_WORK = frozenset({"put_triggers", "resolve_top"})
#: Services whose command topic is keyed `game:marker`.
PER_MARKER_COMMANDS = frozenset({STACK})


@dataclass(frozen=True)
class TopicSpec:
    name: str
    key: str
    partitions: int
    payload: type[BaseModel]
    producers: tuple[str, ...]
    consumers: tuple[str, ...]
    description: str

    @property
    def doc(self) -> str:
        return (f"{self.description}. Key: {self.key}. Partitions: {self.partitions}. "
                f"Producers: {', '.join(self.producers)}; consumers: "
                f"{', '.join(self.consumers)}.")


def command_topic(service: str) -> str:
    return f"arbiter.commands.{service}"


def work_topic(service: str) -> str:
    return f"arbiter.work.{service}"


EVENTS = "arbiter.events"
AUDIT = "arbiter.audit"


def _owners() -> tuple[str, ...]:
    return tuple(s for s in SERVICES if s in set(WORK_OWNERS.values()) | {VARIANTS})


TOPICS: tuple[TopicSpec, ...] = (
    *(TopicSpec(command_topic(s), "game:marker" if s in PER_MARKER_COMMANDS else "game",
                8, CommandEnvelope, (GATEWAY,), (s,),
                f"player commands consumed by {s}: "
                + ", ".join(k for k, v in COMMAND_CONSUMERS.items() if v == s))
      for s in SERVICES if s in COMMAND_CONSUMERS.values()),
    *(TopicSpec(work_topic(s), "game:marker" if s == STACK else "game", 8, WorkItem,
                (RELAY,), (s,),
                f"engine work owned by {s}: "
                + (", ".join(sorted(k for k, v in WORK_OWNERS.items() if v == s)) or "none yet"))
      for s in _owners()),
    TopicSpec(EVENTS, "game", 8, EventMessage, (RELAY,), (GATEWAY,),
              "every stored game event, after commit, in stream order per game"),
    TopicSpec(AUDIT, "game", 4, AuditMessage, (RELAY,), (GATEWAY,),
              "rejected commands from the per-game audit streams (judges)"),
)

TOPIC_BY_NAME = {t.name: t for t in TOPICS}


def command_key(game_id: str, service: str, marker: int | None) -> bytes:
    if service in PER_MARKER_COMMANDS:
        return f"{game_id}:{marker or 1}".encode()
    return game_id.encode()


def work_key(item: WorkItem) -> bytes:
    if item.kind in PER_MARKER_WORK:
        return f"{item.game_id}:{item.marker}".encode()
    return item.game_id.encode()


def partition_of(key: bytes, partitions: int) -> int:
    """The partition aiokafka's default partitioner picks for `key` (murmur2): a batch
    sent to an explicit partition lands where the same key's single messages do."""
    from aiokafka.partitioner import murmur2  # type: ignore[import-untyped]
    return int((murmur2(key) & 0x7FFFFFFF) % partitions)


def command_consumer(command_type: str) -> str:
    return COMMAND_CONSUMERS[command_type]
