"""Typed rejections. A rejected command changes nothing; the error names the rule or field."""

from __future__ import annotations


class ArbiterError(Exception):
    """Base of every error the rules core raises on purpose."""


class RuleViolation(ArbiterError):
    """The command is well-formed but the rules forbid it now. `rule` is a CR number."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} (CR {rule})")
        self.rule = rule
        self.message = message


class InvalidCommand(ArbiterError):
    """The command names something that does not exist or is malformed. `field` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class GameOver(RuleViolation):
    """The game has ended (CR 104.1); no further commands are accepted."""

    def __init__(self) -> None:
        super().__init__("104.1", "the game is over")
