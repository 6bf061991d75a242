"""Every refusal code the server can send is listed in docs/protocol.md."""

from __future__ import annotations

from pathlib import Path

from app.matches import errors
from app.realtime.protocol import ERROR_CODES

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def all_error_classes() -> list[type[errors.MatchError]]:
    found, todo = [], [errors.MatchError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def test_every_error_code_is_documented() -> None:
    text = PROTOCOL.read_text()
    codes = {cls.code for cls in all_error_classes()} - {"match_error"}
    codes |= set(ERROR_CODES) | {"bad_clock", "bad_request"}
    missing = sorted(code for code in codes if f"`{code}`" not in text)
    assert missing == []
