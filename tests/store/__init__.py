"""Tests for :mod:`arbiter_store`.

The project is normally installed in editable mode (``make install``).  When it is
not, put ``libs/`` on the path so ``pytest tests/store`` also works in a bare checkout.
"""

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("arbiter_store") is None:  # pragma: no cover - env dependent
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "libs"))
