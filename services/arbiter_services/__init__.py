"""Arbiter's Kafka services: thin shells over the pure core (see docs/services.md)."""
