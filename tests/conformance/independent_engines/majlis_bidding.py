"""The bidding of one deal, as a small stateful table (BID.1-BID.9).

Readings played: a first-session sun bid may be taken over by a player who
bids earlier in the turn order (A2 earlier_seat_priority); every other player
answers a first-session hokum bid (A3 all_others); the third and fourth
bidders may call ashkal in either session, and the caller is the bidder
(A14 third_fourth_any_session).
"""

from __future__ import annotations

from dataclasses import dataclass

from majlis_cards import SUITS, partner_of, turn_order


class IllegalAction(Exception):
    """An action the rules do not allow now; carries the clauses it breaks."""

    def __init__(self, reason: str, rule: str, clauses: list[str]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.clauses = clauses


@dataclass
class Contract:
    kind: str  # "hokum" or "sun"
    trump: str | None
    caller: int
    ashkal: bool

    @property
    def bidder(self) -> int:
        return self.caller

    @property
    def taker(self) -> int:
        """Who takes the face-up card: the caller, or the caller's partner after ashkal."""
        return partner_of(self.caller) if self.ashkal else self.caller

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "trump": self.trump, "bidder": self.bidder,
                "ashkal": self.ashkal}


OPEN, ANSWERING_HOKUM, HOKUM_CHOICE, SUN_OVERCALLS = (
    "open", "answering_hokum", "hokum_choice", "sun_overcalls")


class Bidding:
    """Who may say what, session by session, until a contract stands or all pass twice."""

    def __init__(self, dealer: int, face_up_suit: str, bugs: frozenset[str]) -> None:
        self.dealer = dealer
        self.face_up_suit = face_up_suit
        self.bugs = bugs
        self.order = turn_order(dealer)
        self.session = 1
        self.stage = OPEN
        self.waiting: list[int] = list(self.order)  # the first is to act
        self.hokum_bidder: int | None = None
        self.sun_holder: int | None = None
        self.sun_by_ashkal = False
        self.contract: Contract | None = None
        self.all_passed_twice = False

    # -- who and what ---------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.contract is not None or self.all_passed_twice

    @property
    def to_act(self) -> int | None:
        return None if self.finished else self.waiting[0]

    def position(self, seat: int) -> int:
        return self.order.index(seat)

    def may_call_ashkal(self, seat: int) -> bool:
        lowest = 1 if "ashkal_second_bidder" in self.bugs else 2
        return self.position(seat) >= lowest

    def sun_calls(self, seat: int) -> list[str]:
        return ["sun", "ashkal"] if self.may_call_ashkal(seat) else ["sun"]

    def legal(self) -> list[str]:
        seat = self.to_act
        if seat is None:
            return []
        if self.stage == OPEN:
            return ["pass", "hokum", *self.sun_calls(seat)]
        if self.stage == ANSWERING_HOKUM:
            return ["pass", *self.sun_calls(seat)]
        if self.stage == HOKUM_CHOICE:
            if self.session == 1:
                return ["hokum", "sun"]
            return [f"hokum {s}" for s in SUITS if s != self.face_up_suit] + ["sun"]
        assert self.sun_holder is not None
        if self.position(seat) < self.position(self.sun_holder):
            return ["pass", *self.sun_calls(seat)]
        return ["pass"]

    # -- calls ------------------------------------------------------------------

    def call(self, action: str) -> None:
        if self.finished:
            raise IllegalAction("the bidding is over", "bidding", ["BID.2"])
        if action not in self.legal():
            raise IllegalAction(self._why_not(action), "bidding", self._clauses_for(action))
        seat = self.waiting[0]
        if self.stage == OPEN:
            self._open_call(seat, action)
        elif self.stage == ANSWERING_HOKUM:
            self._answer_hokum(seat, action)
        elif self.stage == HOKUM_CHOICE:
            self._hokum_choice(seat, action)
        else:
            self._answer_sun(seat, action)

    def _open_call(self, seat: int, action: str) -> None:
        if action == "pass":
            self.waiting.pop(0)
            if self.waiting:
                return
            if self.session == 1:
                self.session = 2
                self.waiting = list(self.order)
            else:
                self.all_passed_twice = True
            return
        if action == "hokum":
            if self.session == 1:
                answerers = [(seat + step) % 4 for step in (1, 2, 3)]
            else:
                answerers = self.waiting[1:]
            self.hokum_bidder = seat
            if answerers:
                self.stage, self.waiting = ANSWERING_HOKUM, answerers
            else:
                self.stage, self.waiting = HOKUM_CHOICE, [seat]
            return
        self._sun_bid(seat, action == "ashkal")

    def _answer_hokum(self, seat: int, action: str) -> None:
        if action != "pass":
            self._sun_bid(seat, action == "ashkal")
            return
        self.waiting.pop(0)
        if not self.waiting:
            assert self.hokum_bidder is not None
            self.stage, self.waiting = HOKUM_CHOICE, [self.hokum_bidder]

    def _hokum_choice(self, seat: int, action: str) -> None:
        if action == "sun":
            self.contract = Contract("sun", None, seat, False)
            return
        trump = self.face_up_suit if self.session == 1 else action.split()[1]
        self.contract = Contract("hokum", trump, seat, False)

    def _sun_bid(self, seat: int, by_ashkal: bool) -> None:
        self.sun_holder, self.sun_by_ashkal = seat, by_ashkal
        if self.session == 2:
            self.contract = Contract("sun", None, seat, by_ashkal)
            return
        self.stage = SUN_OVERCALLS
        self.waiting = [(seat + step) % 4 for step in (1, 2, 3)]

    def _answer_sun(self, seat: int, action: str) -> None:
        self.waiting.pop(0)
        if action != "pass":
            self.sun_holder, self.sun_by_ashkal = seat, action == "ashkal"
        if not self.waiting:
            assert self.sun_holder is not None
            self.contract = Contract("sun", None, self.sun_holder, self.sun_by_ashkal)

    # -- refusals -----------------------------------------------------------------

    def _why_not(self, action: str) -> str:
        allowed = ", ".join(self.legal())
        return f"{action!r} is not a call open to seat {self.waiting[0]} now; allowed: {allowed}"

    def _clauses_for(self, action: str) -> list[str]:
        if action == "ashkal":
            return ["BID.6"]
        if action.startswith("hokum ") or self.stage == HOKUM_CHOICE:
            return ["BID.4", "BID.8"]
        if self.stage == SUN_OVERCALLS:
            return ["BID.5"]
        return ["BID.2", "BID.3"]
