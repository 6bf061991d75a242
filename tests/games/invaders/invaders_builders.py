"""Builders for explicit Invaders positions, so each test states its Given precisely.

Imported by the test modules (pytest puts this directory on sys.path)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from app.games import invaders as game
from app.games.base import Event, IllegalAction
from app.games.invaders.cards import ZONE_IDS
from app.games.invaders.catalog import CATALOG
from app.games.invaders.engine import advance
from app.games.invaders.setup import new_state
from app.games.invaders.state import INVADER, MANKIND, SIDES, Draft, State, Task

Spec = Mapping[str, Sequence[str]]

SPEC_ZONE_POWERS = (2, 3, 2)
"""The spec's placeholder zone powers (invaders.md R-ZPOW-5), which its worked examples and
our rulings' arithmetic assume; the shipped catalog prints others (BAL-9, docs/rulings.md)."""
ZONE_POWER_READERS = ("app.games.invaders.power", "app.games.invaders.view")
"""The modules that read ``PRINTED_ZONE_POWER``: the ``spec_zone_powers`` fixture patches each."""


class Builder:
    """Take card instances of given types out of the decks and put them where asked."""

    def __init__(self, seed: int = 7) -> None:
        self.s = new_state(seed, {})
        self.pool: list[list[int]] = [list(self.s.deck[MANKIND]), list(self.s.deck[INVADER])]
        self.heroes = list(self.s.hero_pile)

    def take(self, type_id: str) -> int:
        if type_id.startswith("hero_"):
            for c in self.heroes:
                if self.s.types[c] == type_id:
                    self.heroes.remove(c)
                    return c
        side = INVADER if CATALOG.cards[type_id].side == "invader" else MANKIND
        for c in self.pool[side]:
            if self.s.types[c] == type_id:
                self.pool[side].remove(c)
                return c
        raise LookupError(f"no more {type_id}")


def build(
    *,
    active: str = "invader",
    board: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
    hero: tuple[str, str] | None = ("hero_vale", "africa"),
    hero_turned: bool = False,
    hands: Spec | None = None,
    discards: Spec | None = None,
    deck_tops: Spec | None = None,
    deck_sizes: Mapping[str, int] | None = None,
    hero_pile: Sequence[str] | None = None,
    plot: int = 10,
    zone_tokens: Sequence[int] = (0, 0, 0),
    turn: int = 2,
    stack: tuple[Task, ...] = (),
    seed: int = 7,
    **extra: Any,
) -> State:
    """A main-phase position of ``active`` (no pending decision unless ``stack``)."""
    b = Builder(seed)
    cols: list[tuple[int, ...]] = [() for _ in range(6)]
    hero_id = -1
    if hero is not None:
        hero_id = b.take(hero[0])
        cols[ZONE_IDS.index(hero[1]) * 2 + MANKIND] += (hero_id,)
    for zone, sides in (board or {}).items():
        for seat, types in sides.items():
            i = ZONE_IDS.index(zone) * 2 + SIDES.index(seat)
            cols[i] += tuple(b.take(t) for t in types)
    hand = [tuple(b.take(t) for t in (hands or {}).get(seat, ())) for seat in SIDES]
    disc = [tuple(b.take(t) for t in (discards or {}).get(seat, ())) for seat in SIDES]
    tops = [tuple(b.take(t) for t in (deck_tops or {}).get(seat, ())) for seat in SIDES]
    pile = tuple(b.take(h) for h in (hero_pile or ())) if hero_pile is not None else ()
    spare_heroes = tuple(b.heroes) if hero_pile is None else ()
    decks = []
    for i, seat in enumerate(SIDES):
        rest = b.pool[i]
        size = (deck_sizes or {}).get(seat)
        keep = rest if size is None else rest[: max(0, size - len(tops[i]))]
        dump = rest[len(keep) :]
        disc[i] = tuple(dump) + disc[i]  # surplus cards wait in the discard pile
        decks.append(tuple(keep) + tuple(reversed(tops[i])))
    return replace(
        b.s,
        board=tuple(cols),
        hero=hero_id,
        hero_turned=hero_turned,
        hand=(hand[0], hand[1]),
        discard=(disc[0], disc[1]),
        deck=(decks[0], decks[1]),
        hero_pile=pile if hero_pile is not None else spare_heroes,
        plot=plot,
        zone_tokens=tuple(zone_tokens),
        turn=turn,
        active=SIDES.index(active),
        phase="main",
        stack=stack,
        **extra,
    )


def ready(s: State) -> State:
    """Run pending automatic work (e.g. a stack given to ``build``)."""
    d = Draft(s)
    advance(d, [])
    return d.freeze()


def ids(s: State, type_id: str) -> list[str]:
    """Card ids of every instance of ``type_id`` in play, in hand, in limbo or discarded."""
    places = [c for col in s.board for c in col] + [*s.hand[0], *s.hand[1], *s.limbo]
    places += [*s.discard[0], *s.discard[1]]
    return [f"c{c}" for c in places if s.types[c] == type_id]


def one(s: State, type_id: str) -> str:
    found = ids(s, type_id)
    assert found, f"{type_id} not in play/hand"
    return found[0]


def where(s: State, card: str) -> str:
    """A readable location of a card id: 'hand:mankind', 'eurasia:invader', 'discard:…', …"""
    c = int(card[1:])
    for i, col in enumerate(s.board):
        if c in col:
            return f"{ZONE_IDS[i // 2]}:{SIDES[i % 2]}"
    for name in ("hand", "discard", "deck"):
        for i, seat in enumerate(SIDES):
            if c in getattr(s, name)[i]:
                return f"{name}:{seat}"
    if c in s.hero_pile:
        return "hero_pile"
    return "limbo" if c in s.limbo else "nowhere"


class Play:
    """Apply actions and keep every event, asserting each action was listed as legal."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.events: list[Event] = []

    def __call__(self, seat: str, action: Mapping[str, Any], check_listed: bool = True) -> Play:
        if check_listed:
            legal = game.legal_actions(self.s, seat)
            assert any(
                all(action.get(k) == v for k, v in o.items()) and len(o) == len(action)
                for o in legal
            ), f"{action} not in {legal}"
        t = game.apply(self.s, seat, action)
        self.s = t.state
        self.events.extend(t.events)
        return self

    def end_main(self, chainmail: bool = False) -> Play:
        """The active player ends his main phase; Mankind declines Chainmail unless told."""
        self("mankind" if self.s.active == MANKIND else "invader", {"type": "end_main"})
        if self.prompt() == "chainmail_window":
            answer = (
                {"type": "enable", "strategy": "project_chainmail"}
                if chainmail
                else {"type": "decline"}
            )
            self("mankind", answer)
        return self

    def types(self) -> list[str]:
        return [e.type for e in self.events]

    def event(self, kind: str) -> list[dict[str, Any]]:
        return [dict(e.data) for e in self.events if e.type == kind]

    def legal(self, seat: str) -> list[dict[str, Any]]:
        return game.legal_actions(self.s, seat)

    def prompt(self) -> str:
        return game.view(self.s, None)["prompt"]["kind"]

    def refuse(self, seat: str, action: Mapping[str, Any]) -> str:
        with pytest.raises(IllegalAction) as err:
            game.apply(self.s, seat, action)
        return err.value.code


def zone(name: str) -> dict[str, str]:
    return {"type": "choose_zone", "zone": name}


def target(card: str) -> dict[str, str]:
    return {"type": "choose_target", "card": card}
