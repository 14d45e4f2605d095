"""A game of Baloot: rounds dealt from pinned decks, running totals, the end at 152.

There is no raising phase (the multiplier is always 1) and no declaration
step (projects are counted by the engine at the start of the play). A player
whose only call would be `pass` is not asked: the engine passes for them.
"""

from __future__ import annotations

from majlis_bidding import Bidding, Contract, IllegalAction
from majlis_cards import BadCard, Card, full_deck, next_seat, turn_order
from majlis_play import PlayRound
from majlis_projects import Project, declared_projects
from majlis_scoring import RoundScore

DEAL, BIDDING, PLAYING, ROUND_OVER, GAME_OVER = (
    "deal", "bidding", "playing", "round_over", "game_over")


class SetupError(ValueError):
    """A start or deal request whose setup cannot be played."""


def read_deck(names: object) -> list[Card]:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SetupError("deck: expected a list of 32 card names")
    try:
        deck = [Card.parse(name) for name in names]
    except BadCard as error:
        raise SetupError(f"deck: {error}") from error
    if sorted(deck) != sorted(full_deck()):
        raise SetupError("deck: expected each of the 32 cards exactly once")
    return deck


class Round:
    """One deal: the cards, the bidding, then the play."""

    def __init__(self, dealer: int, deck: list[Card], bugs: frozenset[str]) -> None:
        self.dealer = dealer
        self.bugs = bugs
        order = turn_order(dealer)
        self.hands: list[list[Card]] = [[] for _ in range(4)]
        for k, seat in enumerate(order):
            self.hands[seat] = deck[5 * k:5 * k + 5]
        self.face_up = deck[20]
        self.stock = deck[21:]
        self.bidding = Bidding(dealer, self.face_up.suit, bugs)
        self.play: PlayRound | None = None
        self.declared: list[Project] = []

    @property
    def contract(self) -> Contract | None:
        return self.bidding.contract

    def deal_the_rest(self, contract: Contract) -> None:
        """SETUP.5, BID.1: the taker gets the face-up card and two more, the others three."""
        rest = list(self.stock)
        for seat in turn_order(self.dealer):
            if seat == contract.taker:
                self.hands[seat] += [self.face_up, *rest[:2]]
                rest = rest[2:]
            else:
                self.hands[seat] += rest[:3]
                rest = rest[3:]
        self.stock = []
        self.declared = declared_projects(self.hands, contract.kind)
        self.play = PlayRound(contract, self.hands, self.bugs)


class Game:
    def __init__(self, dealer: int, deck: list[Card], totals: list[int],
                 bugs: frozenset[str]) -> None:
        self.bugs = bugs
        self.totals = list(totals)
        self.round = Round(dealer, deck, bugs)
        self.phase = BIDDING
        self.next_dealer = next_seat(dealer)
        self.last_result: RoundScore | None = None

    # -- the protocol's questions ---------------------------------------------------

    def to_act(self) -> int | None:
        if self.phase == BIDDING:
            return self.round.bidding.to_act
        if self.phase == PLAYING and self.round.play is not None:
            return self.round.play.to_act
        return None

    def legal(self) -> list[str]:
        if self.phase == BIDDING:
            return self.round.bidding.legal()
        if self.phase == PLAYING and self.round.play is not None:
            seat = self.round.play.to_act
            if seat is None:
                return []
            return [f"play {c}" for c in self.round.play.playable(seat)]
        return []

    def state(self) -> dict[str, object]:
        play = self.round.play
        contract = self.round.contract
        return {
            "phase": self.phase,
            "dealer": self.round.dealer,
            "current_player": self.to_act(),
            "face_up": str(self.round.face_up),
            "hands": [[str(c) for c in hand] for hand in self.round.hands],
            "contract": contract.as_json() if contract is not None else None,
            "raises": [],
            "multiplier": 1,
            "locked": False,
            "trick": [] if play is None else
            [{"seat": s, "card": str(c)} for s, c in play.trick.plays],
            "trick_winners": [] if play is None else play.winners(),
            "totals": list(self.totals),
        }

    # -- actions ----------------------------------------------------------------------

    def apply(self, action: str) -> None:
        if self.phase == BIDDING:
            self.round.bidding.call(action)
            self._after_call()
        elif self.phase == PLAYING and self.round.play is not None:
            self._play(action)
        else:
            raise IllegalAction(f"nobody is to act in phase {self.phase}", "phase", ["GAME.1"])

    def _after_call(self) -> None:
        bidding = self.round.bidding
        while bidding.legal() == ["pass"]:
            bidding.call("pass")  # not asked: a player who can only pass
        if bidding.all_passed_twice:
            self.phase = DEAL
            self.next_dealer = next_seat(self.round.dealer)  # A20 next_dealer
        elif bidding.contract is not None:
            self.round.deal_the_rest(bidding.contract)
            self.phase = PLAYING

    def _play(self, action: str) -> None:
        assert self.round.play is not None
        words = action.split()
        if words[:1] == ["declare"]:
            raise IllegalAction("this engine has no declaration step: it counts every "
                                "project itself", "declare", ["PROJ.1"])
        if len(words) != 2 or words[0] != "play":
            raise IllegalAction(f"{action!r}: in the play the only action is `play CARD`",
                                "play", ["PLAY.2"])
        try:
            card = Card.parse(words[1])
        except BadCard as error:
            raise IllegalAction(str(error), "play", ["PLAY.2"]) from error
        self.round.play.play(card)
        if self.round.play.over:
            self._finish_round(self.round.play)

    def _finish_round(self, play: PlayRound) -> None:
        score = RoundScore(play, self.round.declared, self.round.dealer, self.totals, self.bugs)
        self.last_result = score
        self.totals = list(score.totals)
        self.next_dealer = next_seat(self.round.dealer)
        self.phase = GAME_OVER if score.winner is not None else ROUND_OVER

    def deal(self, deck: list[Card]) -> None:
        if self.phase not in (DEAL, ROUND_OVER):
            raise SetupError(f"no deal is due in phase {self.phase}; a deal follows a "
                             "finished round or a bidding where everyone passed twice")
        self.round = Round(self.next_dealer, deck, self.bugs)
        self.phase = BIDDING
