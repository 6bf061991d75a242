"""What one seat may know, and determinization: a full State sampled from that knowledge.

Why: a bot must decide only on the seat's information set (DESIGN §3, the issue's
"never reads the opponent's hand or deck order"), yet search needs a complete
State to run the engine forward. ``observe`` is the ONLY function of the bots
that touches a real State; it builds a new value by allow-list (STYLE §4): every
public field, the seat's own hand, and the opponent's hand cards whose identity
is public (``revealed``). Everything hidden is reduced to counts and to the
multisets of card types the seat has not seen. ``determinize`` then deals
those unseen types uniformly at random into the hidden places.

The pending-task stack is copied: it is the public flow of the turn (which
decision comes next, which public card waits in limbo, how many cards are
still to be drawn); no task names a hidden card's identity.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from app.games.invaders.catalog import CATALOG
from app.games.invaders.state import INVADER, MANKIND, SIDES, State

HIDDEN_TYPE = ""
"""Type id written for a card instance whose identity the seat does not know."""


@dataclass(frozen=True)
class Knowledge:
    """A seat's information set.

    ``public`` is a State with every hidden field emptied: no deck contents, the
    opponent's hand reduced to its publicly known cards, no hero pile, no seed,
    no RNG, and ``HIDDEN_TYPE`` for every instance the seat cannot identify.
    """

    side: int
    public: State
    deck_sizes: tuple[int, int]
    opponent_hidden_hand: int
    hero_pile_size: int
    own_deck_types: tuple[str, ...]  # sorted multiset: the seat's deck, order unknown
    opponent_unseen_types: tuple[str, ...]  # sorted: the opponent's hidden hand + deck
    unseen_heroes: tuple[str, ...]  # sorted
    unseen_ids: tuple[int, ...]  # sorted instance ids of every hidden card

    @property
    def seat(self) -> str:
        return SIDES[self.side]


def visible_instances(s: State, side: int) -> frozenset[int]:
    """Instances whose identity ``side`` may know: in play, limbo, discards, own hand,
    and the opponent's publicly known hand cards (R-GEN-5, view's ``known_hand``)."""
    other = 1 - side
    seen = {c for column in s.board for c in column}
    seen.update(s.limbo, s.discard[MANKIND], s.discard[INVADER], s.hand[side])
    seen.update(c for c in s.hand[other] if c in s.revealed)
    if s.hero >= 0:
        seen.add(s.hero)
    return frozenset(seen)


def observe(s: State, seat: str) -> Knowledge:
    """The seat's information set, built field by field from public data only."""
    side = SIDES.index(seat)
    other = 1 - side
    seen = visible_instances(s, side)
    types = tuple(t if i in seen else HIDDEN_TYPE for i, t in enumerate(s.types))
    seen_types = Counter(s.types[c] for c in seen)
    own_full = Counter(CATALOG.mankind_deck if side == MANKIND else CATALOG.invader_deck)
    opp_full = Counter(CATALOG.invader_deck if side == MANKIND else CATALOG.mankind_deck)
    heroes = Counter(CATALOG.heroes)
    own_deck = own_full - seen_types
    opp_unseen = opp_full - seen_types
    unseen_heroes = heroes - seen_types
    known_opp_hand = tuple(c for c in s.hand[other] if c in s.revealed)
    hand: list[tuple[int, ...]] = [(), ()]
    hand[side] = s.hand[side]
    hand[other] = known_opp_hand
    public = State(
        seed=0,
        options=s.options,
        rng=0,
        types=types,
        deck=((), ()),
        hand=(hand[0], hand[1]),
        discard=s.discard,
        board=s.board,
        hero_pile=(),
        hero=s.hero,
        hero_turned=s.hero_turned,
        limbo=s.limbo,
        revealed=frozenset(c for c in s.revealed if c in seen),
        plus_tokens=s.plus_tokens,
        wards=s.wards,
        boosts=s.boosts,
        used=s.used,
        zone_tokens=s.zone_tokens,
        zone_mods=s.zone_mods,
        plot=s.plot,
        enabled=s.enabled,
        turn=s.turn,
        active=s.active,
        phase=s.phase,
        plot_action_used=s.plot_action_used,
        reduction=s.reduction,
        drain_inflicted=s.drain_inflicted,
        shield=s.shield,
        stack=s.stack,
        outcome=s.outcome,
        decisions=s.decisions,
    )
    return Knowledge(
        side=side,
        public=public,
        deck_sizes=(len(s.deck[MANKIND]), len(s.deck[INVADER])),
        opponent_hidden_hand=len(s.hand[other]) - len(known_opp_hand),
        hero_pile_size=len(s.hero_pile),
        own_deck_types=tuple(sorted(own_deck.elements())),
        opponent_unseen_types=tuple(sorted(opp_unseen.elements())),
        unseen_heroes=tuple(sorted(unseen_heroes.elements())),
        unseen_ids=tuple(i for i in range(len(s.types)) if i not in seen),
    )


def determinize(k: Knowledge, rng: random.Random) -> State:
    """A complete State consistent with ``k``: unseen types dealt uniformly at random.

    Only hidden places are filled (own deck order, the opponent's unknown hand
    cards and deck, the hero pile); each place keeps its public size, and each
    side keeps its catalog counts. The engine RNG (future random discards) is
    sampled too, since the seat cannot know it.
    """
    side, other = k.side, 1 - k.side
    ids = list(k.unseen_ids)
    rng.shuffle(ids)
    own = list(k.own_deck_types)
    opp = list(k.opponent_unseen_types)
    heroes = list(k.unseen_heroes)
    rng.shuffle(own)
    rng.shuffle(opp)
    rng.shuffle(heroes)
    types = list(k.public.types)
    it = iter(ids)

    def deal(kinds: list[str]) -> tuple[int, ...]:
        out = []
        for kind in kinds:
            c = next(it)
            types[c] = kind
            out.append(c)
        return tuple(out)

    own_deck = deal(own)
    opp_hand_extra = deal(opp[: k.opponent_hidden_hand])
    opp_deck = deal(opp[k.opponent_hidden_hand :])
    hero_pile = deal(heroes)
    deck: list[tuple[int, ...]] = [(), ()]
    deck[side], deck[other] = own_deck, opp_deck
    hand: list[tuple[int, ...]] = [(), ()]
    hand[side] = k.public.hand[side]
    hand[other] = k.public.hand[other] + opp_hand_extra
    p = k.public
    return State(
        seed=0,
        options=p.options,
        rng=rng.getrandbits(64),
        types=tuple(types),
        deck=(deck[0], deck[1]),
        hand=(hand[0], hand[1]),
        discard=p.discard,
        board=p.board,
        hero_pile=hero_pile,
        hero=p.hero,
        hero_turned=p.hero_turned,
        limbo=p.limbo,
        revealed=p.revealed,
        plus_tokens=p.plus_tokens,
        wards=p.wards,
        boosts=p.boosts,
        used=p.used,
        zone_tokens=p.zone_tokens,
        zone_mods=p.zone_mods,
        plot=p.plot,
        enabled=p.enabled,
        turn=p.turn,
        active=p.active,
        phase=p.phase,
        plot_action_used=p.plot_action_used,
        reduction=p.reduction,
        drain_inflicted=p.drain_inflicted,
        shield=p.shield,
        stack=p.stack,
        outcome=p.outcome,
        decisions=p.decisions,
    )
