"""The deploy tier: the deployment files (offline) and, marked `integration`, service
processes against a real Tansu broker."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "integration: real Tansu broker and service processes (slow, ~minutes)")
