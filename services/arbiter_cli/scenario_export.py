"""`arbiter replay --as-scenario`'s export, which lives in `arbiter_scenarios.export`
(the judge console in the gateway uses it too, and the gateway is below the CLI)."""

from arbiter_scenarios.export import Exported, ExportError, export_scenario

__all__ = ["ExportError", "Exported", "export_scenario"]
