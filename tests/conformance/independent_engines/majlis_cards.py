"""Cards, seats and teams for the majlis engine: the table everything else sits at.

Seats run 0-3 counterclockwise (the next player after seat s is (s+1)%4);
partners sit opposite, so seats 0 and 2 are team 0, seats 1 and 3 team 1.
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = ("S", "H", "D", "C")
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")

# Low to high. SETUP.7: every non-trump suit (all suits in sun); SETUP.6: the trump suit.
PLAIN_LOW_TO_HIGH = ("7", "8", "9", "J", "Q", "K", "10", "A")
TRUMP_LOW_TO_HIGH = ("7", "8", "Q", "K", "10", "A", "9", "J")
# The order in which cards make a sequence for projects (A1 natural).
NATURAL_LOW_TO_HIGH = ("7", "8", "9", "10", "J", "Q", "K", "A")

# SCORE.3 and SCORE.4, in bunts.
PLAIN_BUNTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP_BUNTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}


class BadCard(ValueError):
    """A card name that is not one of the 32 cards."""


@dataclass(frozen=True, order=True)
class Card:
    rank: str
    suit: str

    @classmethod
    def parse(cls, text: str) -> Card:
        if len(text) < 2 or text[-1] not in SUITS or text[:-1] not in RANKS:
            raise BadCard(
                f"{text!r} is not a card; expected a rank of {' '.join(RANKS)} "
                f"followed by a suit of {' '.join(SUITS)}, as in 10S or JD"
            )
        return cls(text[:-1], text[-1])

    def __str__(self) -> str:
        return self.rank + self.suit

    def bunts(self, trump: str | None) -> int:
        if self.suit == trump:
            return TRUMP_BUNTS[self.rank]
        return PLAIN_BUNTS[self.rank]

    def natural_height(self) -> int:
        return NATURAL_LOW_TO_HIGH.index(self.rank)


def full_deck() -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]


def team_of(seat: int) -> int:
    return seat % 2


def next_seat(seat: int) -> int:
    return (seat + 1) % 4


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def turn_order(dealer: int) -> list[int]:
    """The seats from the dealer's right round to the dealer (SETUP.3, BID.2)."""
    return [(dealer + step) % 4 for step in range(1, 5)]
