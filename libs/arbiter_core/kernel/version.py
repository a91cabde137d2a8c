"""The engine version recorded in each game's first event (a replay with another engine
reports where it diverges)."""

ENGINE_VERSION = "0.1.0"
