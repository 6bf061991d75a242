"""Name -> game module. Adding a game is one line here."""

from __future__ import annotations

from types import ModuleType
from typing import cast

from app.games.base import Game

_GAMES: dict[str, Game] = {}


def register(game: Game | ModuleType) -> None:
    g = cast(Game, game)
    _GAMES[g.NAME] = g


def unregister(name: str) -> None:
    _GAMES.pop(name, None)


def get(name: str) -> Game:
    """The game called ``name``; ``KeyError`` if there is none."""
    _load_builtin()
    return _GAMES[name]


def all_games() -> list[Game]:
    _load_builtin()
    return list(_GAMES.values())


_loaded = False


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from app.games import dune_battle, invaders  # the shipped games, one line each

    register(invaders)
    register(dune_battle)
