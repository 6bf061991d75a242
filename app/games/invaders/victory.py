"""Victory conditions W1–W6 and the optional zone-collapse rule (G-3).

The engine checks at every atomic step (R-WIN-0): each function here is called
exactly where the step happens (a card drawn or drained, a marker move, a hero
leaving play), and the driver stops as soon as ``outcome`` is set.
"""

from __future__ import annotations

from enum import StrEnum

from app.games.base import Event, Outcome
from app.games.invaders.cards import ZONE_IDS
from app.games.invaders.power import zone_power
from app.games.invaders.state import INVADER, MANKIND, SIDES, Board, Draft


class Reason(StrEnum):
    """Why a game ended (Outcome.reason)."""

    PLOT_SKULL = "plot_skull"  # W1
    MANKIND_DECKED_DRAW = "mankind_decked_draw"  # W2
    INVADER_DECKED_DRAW = "invader_decked_draw"  # W2
    MANKIND_DECKED_DRAIN = "mankind_decked_drain"  # W3
    LAST_HERO = "last_hero"  # W4
    BOTH_DECKS = "both_decks"  # W5 / G-16
    INVADER_DECKED_DRAIN = "invader_decked_drain"  # W6
    ZONE_COLLAPSE = "zone_collapse"  # G-3 (option)


def win(d: Draft, winner: int, reason: Reason, ev: list[Event], detail: str = "") -> None:
    """End the game at once; the first condition reached stands."""
    if d.outcome is not None:
        return
    d.outcome = Outcome(SIDES[winner], reason.value, detail)
    d.stack = ()
    ev.append(Event("game_over", {"winner": SIDES[winner], "reason": reason.value}))


def deck_out(d: Draft, side: int, kind: str, invader_caused: bool, ev: list[Event]) -> None:
    """``side`` must take a card (``kind`` 'draw' or 'drain') from an empty deck.

    W5 / G-16: if the Invader caused Mankind's deck-out while his own deck is
    empty too, both decks ran out together and Mankind wins.
    """
    if side == MANKIND:
        if invader_caused and not d.deck[INVADER]:
            win(d, MANKIND, Reason.BOTH_DECKS, ev)
        elif kind == "draw":
            win(d, INVADER, Reason.MANKIND_DECKED_DRAW, ev)
        else:
            win(d, INVADER, Reason.MANKIND_DECKED_DRAIN, ev)
    elif kind == "draw":
        win(d, MANKIND, Reason.INVADER_DECKED_DRAW, ev)
    else:
        win(d, MANKIND, Reason.INVADER_DECKED_DRAIN, ev)


def zone_collapsed(s: Board) -> bool:
    """G-3: Eurasia at 0, or Pacific rim and Africa both at 0."""
    powers = {zid: zone_power(s, i) for i, zid in enumerate(ZONE_IDS)}
    return powers["eurasia"] == 0 or (powers["pacific_rim"] == 0 and powers["africa"] == 0)


def check_zone_collapse(d: Draft, ev: list[Event]) -> None:
    active = d.options.zone_collapse_win and d.outcome is None and d.phase != "setup"
    if active and zone_collapsed(d):
        win(d, INVADER, Reason.ZONE_COLLAPSE, ev)
