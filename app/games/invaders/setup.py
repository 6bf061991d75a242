"""Setup (§3, G-1, G-2, G-6): shuffled decks, hero pile, plot on 10, opening hands.

Card instance ids are assigned from a shuffled order, so the number in an id
such as ``c17`` says nothing about the card (the leak test relies on this).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import IllegalAction
from app.games.invaders import rng
from app.games.invaders.cards import N_ZONES
from app.games.invaders.catalog import CATALOG
from app.games.invaders.drain import Draw
from app.games.invaders.flow import BeginTurn
from app.games.invaders.heroes import HeroEnter
from app.games.invaders.state import INVADER, MANKIND, SIDES, Options, State

PLOT_START = 10  # R-TRACK-2
DEFAULT_OPTIONS: dict[str, Any] = {
    "zone_collapse_win": False,
    "first_player": "mankind",
    "opening_hand": 5,
}


def validate_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The full option set, or IllegalAction('bad_options')."""
    if not isinstance(options, Mapping):
        raise IllegalAction("bad_options", "options must be an object")
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise IllegalAction("bad_options", f"unknown options: {sorted(unknown)}")
    out = {**DEFAULT_OPTIONS, **options}
    if not isinstance(out["zone_collapse_win"], bool):
        raise IllegalAction("bad_options", "zone_collapse_win must be a boolean")
    if out["first_player"] not in SIDES:
        raise IllegalAction("bad_options", "first_player must be 'mankind' or 'invader'")
    hand = out["opening_hand"]
    if not isinstance(hand, int) or isinstance(hand, bool) or not 0 <= hand <= 20:
        raise IllegalAction("bad_options", "opening_hand must be an integer from 0 to 20")
    return out


def new_state(seed: int, options: Mapping[str, Any]) -> State:
    """A fresh match before anything ran: the stack holds the setup steps."""
    opts = Options(**validate_options(options))
    r = rng.seed_state(seed)
    kinds = [*CATALOG.mankind_deck, *CATALOG.invader_deck, *CATALOG.heroes]
    r, ids = rng.shuffled(r, range(len(kinds)))
    types = [""] * len(kinds)
    for instance, kind in zip(ids, kinds, strict=True):
        types[instance] = kind
    n_m, n_i = len(CATALOG.mankind_deck), len(CATALOG.invader_deck)
    r, m_deck = rng.shuffled(r, ids[:n_m])
    r, i_deck = rng.shuffled(r, ids[n_m : n_m + n_i])
    r, heroes = rng.shuffled(r, ids[n_m + n_i :])
    first = SIDES.index(opts.first_player)
    stack = (
        BeginTurn(first),
        Draw(INVADER, opts.opening_hand, opening=True),
        Draw(MANKIND, opts.opening_hand, opening=True),
        HeroEnter(False),
    )
    return State(
        seed=seed,
        options=opts,
        rng=r,
        types=tuple(types),
        deck=(m_deck, i_deck),
        hand=((), ()),
        discard=((), ()),
        board=((),) * (N_ZONES * 2),
        hero_pile=heroes,
        hero=-1,
        hero_turned=False,
        limbo=(),
        revealed=frozenset(),
        plus_tokens={},
        wards={},
        boosts=(),
        used=frozenset(),
        zone_tokens=(0,) * N_ZONES,
        zone_mods=(),
        plot=PLOT_START,
        enabled=frozenset(),
        turn=0,
        active=first,
        phase="setup",
        plot_action_used=False,
        reduction="",
        drain_inflicted=False,
        shield=0,
        stack=stack,
        outcome=None,
        decisions=0,
    )
