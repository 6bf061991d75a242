"""Every Given/When/Then of dune-battle.md §10.1–§10.4 has its own test (issue #9).

Worked example T-nn is tested by a function named ``test_tnn_<behaviour>``; this
index fails when one goes missing. (§10.5 belongs to the full game.)
"""

from __future__ import annotations

import re
from pathlib import Path

EXAMPLES = (
    [f"{n:02d}" for n in range(1, 26)]  # §10.1 core resolution
    + [f"{n:02d}" for n in range(30, 43)]  # §10.2 sequence and hidden information
    + [f"{n:02d}" for n in range(50, 58)]  # §10.3 Harkonnen capture
    + [f"{n:02d}" for n in range(60, 65)]  # §10.4 battle determination and order
)


def test_every_worked_example_has_a_test() -> None:
    here = Path(__file__).parent
    found = {
        m.group(1)
        for path in here.glob("test_*.py")
        for m in re.finditer(r"^def test_t(\d\d)_\w+\(", path.read_text(), re.M)
    }
    assert [t for t in EXAMPLES if t not in found] == []
