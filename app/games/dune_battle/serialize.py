"""Snapshot format: the frozen dataclasses as plain JSON, versioned.

A generic walk over the dataclass type hints: dataclasses become objects,
tuples become lists, ``X | None`` stays null. ``from_json(to_json(s)) == s``
holds for every state because every field type is one of those shapes.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from app.games.base import IllegalAction
from app.games.dune_battle.state import GameState

SNAPSHOT_VERSION = 1


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _decode(tp: Any, data: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        return None if data is None else _decode(options[0], data)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in data)
        return tuple(_decode(a, v) for a, v in zip(args, data, strict=True))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        kwargs = {
            f.name: _decode(hints[f.name], data[f.name])
            for f in dataclasses.fields(tp)
            if f.name in data
        }
        return tp(**kwargs)  # type: ignore[operator]
    return data


def to_json(state: GameState) -> dict[str, Any]:
    return {"version": SNAPSHOT_VERSION, "state": _encode(state)}


def from_json(data: Mapping[str, Any]) -> GameState:
    if data.get("version") != SNAPSHOT_VERSION:
        raise IllegalAction("bad_snapshot", f"unsupported snapshot version {data.get('version')!r}")
    state = _decode(GameState, data["state"])
    assert isinstance(state, GameState)
    return state
