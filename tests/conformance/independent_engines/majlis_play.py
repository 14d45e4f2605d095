"""The play of one round: tricks, who may play what, who wins (PLAY.1-PLAY.4).

Readings played: the bid winner leads the first trick (A16 bid_winner); a
player void in the led suit in hokum must trump when able and, once an
opponent has trumped, beat every trump in the trick when able (A15
must_trump). The round is never raised, so it is never locked (RAISE.2).
Baloot (PROJ.7) is noted when one player has played both the king and queen
of trumps, even when they sit in another project (A18 overlap_allowed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from majlis_bidding import Contract, IllegalAction
from majlis_cards import PLAIN_LOW_TO_HIGH, TRUMP_LOW_TO_HIGH, Card, team_of
from majlis_projects import Project

TRICKS_PER_ROUND = 8


@dataclass
class Trick:
    leader: int
    trump: str | None
    sun: bool
    bugs: frozenset[str]
    plays: list[tuple[int, Card]] = field(default_factory=list)

    @property
    def led_suit(self) -> str | None:
        return self.plays[0][1].suit if self.plays else None

    @property
    def complete(self) -> bool:
        return len(self.plays) == 4

    def strength(self, card: Card) -> int:
        """How a card stands in this trick: trumps above the led suit, off-suit cards last."""
        if card.suit == self.trump:
            return 100 + TRUMP_LOW_TO_HIGH.index(card.rank)
        if card.suit != self.led_suit:
            return -1
        order = PLAIN_LOW_TO_HIGH
        if self.sun and "sun_ten_below_king" in self.bugs:
            order = ("7", "8", "9", "J", "Q", "10", "K", "A")
        return order.index(card.rank)

    def winner(self) -> int:
        seat, _ = max(self.plays, key=lambda play: self.strength(play[1]))
        return seat

    def points(self) -> int:
        return sum(card.bunts(self.trump) for _, card in self.plays)


class PlayRound:
    """The eight tricks of a round, from the first lead to the last card."""

    def __init__(self, contract: Contract, hands: list[list[Card]], bugs: frozenset[str]) -> None:
        self.contract = contract
        self.trump = contract.trump
        self.hands = hands
        self.bugs = bugs
        self.finished_tricks: list[Trick] = []
        self.trick = self._new_trick(contract.bidder)
        self.baloots: list[Project] = []

    def _new_trick(self, leader: int) -> Trick:
        return Trick(leader, self.trump, self.contract.kind == "sun", self.bugs)

    @property
    def over(self) -> bool:
        return len(self.finished_tricks) == TRICKS_PER_ROUND

    @property
    def to_act(self) -> int | None:
        if self.over:
            return None
        return (self.trick.leader + len(self.trick.plays)) % 4

    def playable(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        led = self.trick.led_suit
        if led is None:
            return list(hand)
        following = [c for c in hand if c.suit == led]
        if following:
            return following
        if self.trump is None:
            return list(hand)
        trumps = [c for c in hand if c.suit == self.trump]
        if not trumps or "void_no_trump_duty" in self.bugs:
            return list(hand)
        rival_trumped = any(c.suit == self.trump and team_of(s) != team_of(seat)
                            for s, c in self.trick.plays)
        if not rival_trumped:
            return trumps
        top = max(self.trick.strength(c) for _, c in self.trick.plays)
        higher = [c for c in trumps if self.trick.strength(c) > top]
        return higher or trumps

    def play(self, card: Card) -> None:
        seat = self.to_act
        if seat is None:
            raise IllegalAction("the round is over; no card may be played", "play", ["PLAY.4"])
        if card not in self.hands[seat]:
            raise IllegalAction(f"{card} is not in seat {seat}'s hand", "play", ["PLAY.2"])
        if card not in self.playable(seat):
            raise IllegalAction(self._why_not(seat, card), "legal_play", ["PLAY.2"])
        self.hands[seat].remove(card)
        self.trick.plays.append((seat, card))
        self._note_baloot(seat, card)
        if self.trick.complete:
            self.finished_tricks.append(self.trick)
            self.trick = self._new_trick(self.trick.winner())

    def _why_not(self, seat: int, card: Card) -> str:
        led = self.trick.led_suit
        if any(c.suit == led for c in self.hands[seat]):
            return f"seat {seat} holds the led suit {led} and must follow it"
        return f"void in {led} in hokum: seat {seat} must trump, over-trumping a rival when able"

    def _note_baloot(self, seat: int, card: Card) -> None:
        if card.suit != self.trump or card.rank not in ("K", "Q"):
            return
        other = Card("Q" if card.rank == "K" else "K", card.suit)
        if other in self.cards_played_by(seat):
            pair = (Card("K", card.suit), Card("Q", card.suit))
            self.baloots.append(Project(seat, "baloot", pair))

    def cards_played_by(self, seat: int) -> list[Card]:
        tricks = [*self.finished_tricks, self.trick]
        return [c for t in tricks for s, c in t.plays if s == seat]

    def winners(self) -> list[int]:
        return [t.winner() for t in self.finished_tricks]
