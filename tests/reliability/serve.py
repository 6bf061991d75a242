"""``python -m tests.reliability.serve serve ...``: the real CLI plus the test games."""

from __future__ import annotations

import contextlib

from app.cli import main
from app.games import registry
from tests.reliability import ballast
from tests.support import countdown

if __name__ == "__main__":
    with contextlib.suppress(Exception):  # a shipped engine still being written
        registry.all_games()
    registry.register(countdown)
    registry.register(ballast)
    main()
