"""How a pinned 32-card deck becomes hands: the protocol's dealing convention.

deck[0] is the top card. Dealing goes counterclockwise from the dealer's
right, i.e. in the order (dealer+1)%4, (dealer+2)%4, (dealer+3)%4, dealer:

1. the first 20 cards: five each, in blocks of five, in that order
   (the k-th player in the order gets deck[5k : 5k+5]);
2. deck[20] is the face-up card;
3. after bidding, deck[21:] in that order again: the player who takes the
   face-up card (the bid winner; under ashkal the caller's partner) gets it
   plus the next two cards, every other player the next three.

`deck_for_hands` is the inverse, for writing cases.
"""

from __future__ import annotations

from .protocol_notation import ALL_CARDS


def deal_order(dealer: int) -> list[int]:
    return [(dealer + 1 + k) % 4 for k in range(4)]


def first_hands(deck: list[str], dealer: int) -> list[list[str]]:
    """The five-card hands before bidding, by seat."""
    hands: list[list[str]] = [[] for _ in range(4)]
    for k, seat in enumerate(deal_order(dealer)):
        hands[seat] = list(deck[5 * k : 5 * k + 5])
    return hands


def face_up_card(deck: list[str]) -> str:
    return deck[20]


def full_hands(deck: list[str], dealer: int, taker: int) -> list[list[str]]:
    """The eight-card hands after bidding, by seat, when `taker` takes the face-up card."""
    hands = first_hands(deck, dealer)
    position = 21
    for seat in deal_order(dealer):
        if seat == taker:
            hands[seat] += [deck[20], *deck[position : position + 2]]
            position += 2
        else:
            hands[seat] += deck[position : position + 3]
            position += 3
    return hands


def deck_for_hands(hands: list[list[str]], dealer: int, taker: int) -> list[str]:
    """The deck that deals `hands` (eight cards per seat, in dealing order).

    Each hand's first five cards are its first deal; the taker's sixth card is
    the face-up card.
    """
    if sorted(c for h in hands for c in h) != sorted(ALL_CARDS) or any(len(h) != 8 for h in hands):
        raise ValueError("expected four hands of eight cards, the 32 cards once each")
    order = deal_order(dealer)
    deck = [card for seat in order for card in hands[seat][:5]]
    deck.append(hands[taker][5])
    for seat in order:
        deck += hands[seat][6:8] if seat == taker else hands[seat][5:8]
    return deck
