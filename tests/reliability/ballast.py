"""Ballast: countdown with long matches and heavy views, for slow-consumer and load tests.

The rules are countdown's (tests/support/countdown.py); options allow up to 10,000
tokens, and every view carries ``BALLAST_BYTES`` of padding so that a reader that stops
reading fills its buffers after a few dozen versions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import JSON, IllegalAction, Viewer
from tests.support import countdown
from tests.support.countdown import (
    SEATS,
    SNAPSHOT_VERSION,
    active_seats,
    apply,
    from_json,
    legal_actions,
    outcome,
    redact,
    setup,
    to_json,
)

NAME = "ballast"
TITLE = "Ballast (test game)"
RULES_VERSION = "1"

__all__ = [
    "NAME",
    "RULES_VERSION",
    "SEATS",
    "SNAPSHOT_VERSION",
    "TITLE",
    "active_seats",
    "apply",
    "default_options",
    "from_json",
    "legal_actions",
    "outcome",
    "redact",
    "setup",
    "to_json",
    "validate_options",
    "view",
]


def default_options() -> JSON:
    return {"start": 200}


def validate_options(options: Mapping[str, Any]) -> JSON:
    start = options.get("start", 200)
    if not isinstance(start, int) or not 1 <= start <= 10_000:
        raise IllegalAction("bad_options", "start must be an integer from 1 to 10000.")
    return {"start": start}


def view(state: countdown.State, viewer: Viewer) -> JSON:
    out = countdown.view(state, viewer)
    out["ballast"] = "x" * BALLAST_BYTES
    return out


BALLAST_BYTES = 0
"""Set by the slow-consumer test; views are pure functions of state, so it is global."""
