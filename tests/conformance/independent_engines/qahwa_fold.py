"""qahwa's game as an event log folded into immutable snapshots.

A game is never changed in place. `opening(setup)` is the snapshot a `start`
makes, and `evolve(table, action)` the snapshot one more action makes; the
engine keeps the log of events and the snapshot it folds to. `choices(table)`
are the actions the rules allow at a snapshot: an action outside them is never
folded in, so a refusal leaves the log, and so the game, as it was.

A player whose only call would be `pass` is not asked: the fold passes for it
(the engine leaves out the capability `pass_only_turns`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from qahwa_bugs import active
from qahwa_projects import (
    Project,
    action_text,
    baloot_pair,
    blocks_baloot,
    is_pair_card,
    offers,
)
from qahwa_score import finish_round
from qahwa_state import Seated, Table
from qahwa_tables import (
    LADDER,
    LOCKS,
    RAISE_RANK,
    SUITS,
    SUN_GATE,
    TRICK_ORDER,
    bidding_order,
    position,
    rank_of,
    suit_of,
)


class Illegal(ValueError):
    """An action the rules refuse here; `clauses` names the rule."""

    def __init__(self, reason: str, clauses: tuple[str, ...]) -> None:
        super().__init__(reason)
        self.clauses = clauses


# ---------------------------------------------------------------- dealing --

def first_hands(deck: tuple[str, ...], dealer: int) -> tuple[tuple[str, ...], ...]:
    """SETUP.4: five cards a player, in blocks, from the dealer's right."""
    hands: list[tuple[str, ...]] = [(), (), (), ()]
    for k, seat in enumerate(bidding_order(dealer)):
        hands[seat] = deck[5 * k: 5 * k + 5]
    return tuple(hands)


def opening(readings: Mapping[str, str], dealer: int, deck: tuple[str, ...],
            totals: tuple[int, int], result: Mapping[str, Any] | None = None) -> Table:
    order = bidding_order(dealer)
    return Table(readings=readings, dealer=dealer, deck=deck, totals=totals,
                 hands=first_hands(deck, dealer), to_act=order[0], queue=order[1:],
                 result=result)


def rest_dealt(table: Table, taker: int) -> tuple[tuple[str, ...], ...]:
    """SETUP.5, BID.1: the face-up card and two more to the taker, three to the others."""
    hands = list(table.hands)
    cursor = 21
    for seat in bidding_order(table.dealer):
        count = 2 if seat == taker else 3
        extra = (table.deck[20],) if seat == taker else ()
        hands[seat] = hands[seat] + extra + table.deck[cursor: cursor + count]
        cursor += count
    return tuple(hands)


# ---------------------------------------------------------------- bidding --

def bidding_choices(t: Table) -> tuple[str, ...]:
    seat = t.to_act
    assert seat is not None
    if t.stage == "open":
        return ("pass", "hokum", "sun")
    if t.stage == "hokum_answer":
        return ("pass", "sun")
    if t.stage == "final":
        if t.session == 1:
            return ("hokum", "sun")
        face = "" if active("second_session_face_suit") else suit_of(t.deck[20])
        return (*(f"hokum {suit}" for suit in SUITS if suit != face), "sun")
    # sun_answer (BID.5, A2)
    assert t.holder is not None
    if t.readings["sun_overcall"] == "earlier_seat_priority" and (
        position(t.dealer, seat) > position(t.dealer, t.holder)
    ):
        return ("pass",)
    return ("pass", "sun")


def ask_next(t: Table) -> Table:
    """The next seat of the queue is asked; an empty queue closes the stage."""
    if t.queue:
        return replace(t, to_act=t.queue[0], queue=t.queue[1:])
    if t.stage == "open":
        if t.session == 1:  # BID.7: a second session at once
            order = bidding_order(t.dealer)
            return replace(t, session=2, to_act=order[0], queue=order[1:])
        return replace(t, phase="deal", to_act=None)  # BID.9
    if t.stage == "hokum_answer":  # BID.4: back to the hokum bidder
        return replace(t, stage="final", to_act=t.holder)
    assert t.holder is not None  # sun_answer: the holder wins (BID.5)
    return settle(t, ("sun", None, t.holder))


def sun_called(t: Table, seat: int) -> Table:
    if t.session == 2 or t.readings["sun_overcall"] == "sun_ends_bidding":
        return settle(t, ("sun", None, seat))  # BID.7, A2
    others = tuple((seat + k) % 4 for k in (1, 2, 3))
    return ask_next(replace(t, stage="sun_answer", holder=seat, queue=others))


def hokum_called(t: Table, seat: int) -> Table:
    order = bidding_order(t.dealer)
    later = order[order.index(seat) + 1:]
    if t.session == 1 and t.readings["hokum_answer"] == "all_others":
        answering: tuple[int, ...] = tuple((seat + k) % 4 for k in (1, 2, 3))
    else:  # BID.8, and A3 not_yet_passed
        answering = later
    return ask_next(replace(t, stage="hokum_answer", holder=seat, queue=answering))


def bid(t: Table, seat: int, action: str) -> Table:
    t = replace(t, bids=(*t.bids, (seat, action)))
    if action == "pass":
        return ask_next(t)
    if t.stage == "final":
        if action == "sun":
            return settle(t, ("sun", None, seat))
        trump = suit_of(t.deck[20]) if t.session == 1 else action.split()[1]
        return settle(t, ("hokum", trump, seat))
    if action == "hokum":
        return hokum_called(t, seat)
    if t.stage == "sun_answer":  # an overcall takes the bid; the queue goes on
        return ask_next(replace(t, holder=seat))
    return sun_called(t, seat)


def settle(t: Table, contract: tuple[str, str | None, int]) -> Table:
    """The bidding is over: the rest is dealt, then raising or play."""
    kind, _, bidder = contract
    t = replace(t, contract=contract, hands=rest_dealt(t, bidder), queue=(), stage="done")
    if kind == "hokum" or sun_gate_open(t):
        return to_rung(t, "first")
    return start_play(t)


def sun_gate_open(t: Table) -> bool:
    """RAISE.3, A11: the running totals as the round starts."""
    own = t.totals[t.bidder % 2]
    theirs = t.totals[1 - t.bidder % 2]
    gate, _ = SUN_GATE[t.readings["sun_raises"]]
    return gate(own, theirs)


# ---------------------------------------------------------------- raising --

def highest_raise(t: Table) -> str:
    """The highest raise the round and the engine allow (no gahwa: no capability)."""
    top = "four"
    if t.mode == "sun":
        _, sun_top = SUN_GATE[t.readings["sun_raises"]]
        top = min(top, sun_top, key=RAISE_RANK.__getitem__)
    return top


def to_rung(t: Table, rung: str | None) -> Table:
    if rung is None or RAISE_RANK[LADDER[rung].call] > RAISE_RANK[highest_raise(t)]:
        return start_play(t)
    asks = LADDER[rung].asks
    # A26 bidder_right, the profiles' reading: the bid winner's right is asked first
    seat = {"first_opponent": (t.bidder + 1) % 4, "second_opponent": (t.bidder + 3) % 4,
            "bidder": t.bidder, "doubler": t.doubler}[asks]
    return replace(t, phase="raising", rung=rung, to_act=seat)


def double_forms(t: Table) -> tuple[str, ...]:
    has_form, _ = LOCKS[t.readings["locked_round"]]
    return ("double closed", "double open") if has_form and t.mode == "hokum" else ("double",)


def raising_choices(t: Table) -> tuple[str, ...]:
    assert t.rung is not None
    call = LADDER[t.rung].call
    return ("pass", *(double_forms(t) if call == "double" else (call,)))


def raise_call(t: Table, seat: int, action: str) -> Table:
    assert t.rung is not None
    rung = LADDER[t.rung]
    t = replace(t, raises=(*t.raises, (seat, action)))
    if action == "pass":
        return to_rung(t, rung.after_pass)
    doubler = seat if rung.call == "double" else t.doubler
    return to_rung(replace(t, multiplier=rung.multiplier, doubler=doubler), rung.after_call)


def locked(t: Table) -> bool:
    """RAISE.2, A10: a hokum round is locked after these raises; sun never."""
    if t.mode != "hokum":
        return False
    _, rule = LOCKS[t.readings["locked_round"]]
    return rule(tuple(action for _, action in t.raises if action != "pass"))


# ---------------------------------------------------------------- playing --

def start_play(t: Table) -> Table:
    """PLAY.1, A16: the first leader."""
    lead = t.bidder if t.readings["first_leader"] == "bid_winner" else (t.dealer + 1) % 4
    return replace(t, phase="playing", rung=None, to_act=lead)


def strength(card: str, trump: str | None, led: str) -> int:
    """PLAY.3: a trump beats every other card; the led suit beats the rest."""
    if suit_of(card) == trump:
        return 200 - TRICK_ORDER["trump"].index(rank_of(card))
    if suit_of(card) == led:
        return 100 - TRICK_ORDER["plain"].index(rank_of(card))
    return 0


def winning(trick: tuple[Seated, ...], trump: str | None) -> int:
    led = suit_of(trick[0][1])
    return max(trick, key=lambda play: strength(play[1], trump, led))[0]


def beating(cards: list[str], trick: tuple[Seated, ...], trump: str) -> list[str]:
    """Trumps higher than every trump in the trick, or all of them when none can."""
    top = max((strength(c, trump, trump) for _, c in trick if suit_of(c) == trump), default=0)
    higher = [card for card in cards if strength(card, trump, trump) > top]
    return higher or cards


def playable(t: Table, seat: int) -> list[str]:
    hand = list(t.hands[seat])
    trump = t.trump
    if not t.trick:
        if locked(t) and any(suit_of(c) != trump for c in hand):  # RAISE.2
            return [c for c in hand if suit_of(c) != trump]
        return hand
    led = suit_of(t.trick[0][1])
    partner_wins = winning(t.trick, trump) == (seat + 2) % 4
    following = [c for c in hand if suit_of(c) == led]
    if following:  # PLAY.2
        if trump is None or led != trump:
            return following
        rule = t.readings["trump_lead"]  # A23
        if rule == "any_trump" or (rule == "must_overtrump_opponent" and partner_wins):
            return following
        return beating(following, t.trick, trump)
    rule = t.readings["void_in_hokum"]  # A15
    trumps = [c for c in hand if suit_of(c) == trump]
    if trump is None or rule == "any_card" or not trumps:
        return hand
    if rule == "must_trump_unless_partner_wins" and partner_wins:
        return hand
    opponent_trumped = any(suit_of(c) == trump and s % 2 != seat % 2 for s, c in t.trick)
    if opponent_trumped and not active("void_may_undertrump"):
        return beating(trumps, t.trick, trump)
    return trumps


def first_turn(t: Table, seat: int) -> bool:
    return not t.tricks and all(s != seat for s, _ in t.trick)


def declared_by(t: Table, seat: int) -> list[Project]:
    return [(kind, cards) for s, kind, cards in t.declarations if s == seat and kind != "baloot"]


def project_offers(t: Table, seat: int) -> list[Project]:
    """PROJ.1, PROJ.2, PROJ.8: at the first turn, two at most, from the free cards."""
    mine = declared_by(t, seat)
    if not first_turn(t, seat) or len(mine) >= 2:
        return []
    taken = {card for _, cards in mine for card in cards}
    free = [card for card in t.hands[seat] if card not in taken]
    return offers(free, t.mode, t.readings)


def playing_choices(t: Table, seat: int) -> tuple[str, ...]:
    declares = tuple(action_text(p) for p in project_offers(t, seat))
    return (*declares, *(f"play {card}" for card in playable(t, seat)))


def declare(t: Table, seat: int, action: str) -> Table:
    _, kind, *cards = action.split()
    return replace(t, declarations=(*t.declarations, (seat, kind, tuple(cards))))


def play(t: Table, seat: int, card: str) -> Table:
    hands = tuple(tuple(c for c in h if c != card) if s == seat else h
                  for s, h in enumerate(t.hands))
    t = replace(t, hands=hands, trick=(*t.trick, (seat, card)),
                played=(*t.played, (seat, card)))
    t = note_baloot(t, seat, card)
    if len(t.trick) < 4:
        return replace(t, to_act=(seat + 1) % 4)
    won = winning(t.trick, t.trump)  # PLAY.3, PLAY.4
    t = replace(t, tricks=(*t.tricks, (won, t.trick)), trick=(), to_act=won)
    if len(t.tricks) < 8:
        return t
    return finish_round(t)


def note_baloot(t: Table, seat: int, card: str) -> Table:
    """PROJ.7, A18: the second of the trump K and Q played by one player."""
    trump = t.trump
    if t.mode != "hokum" or trump is None or not is_pair_card(card, trump):
        return t
    pair = baloot_pair(trump)
    if not all((seat, c) in t.played for c in pair):
        return t
    overlap = t.readings["baloot_overlap"]
    if any(blocks_baloot(p, pair, overlap) for p in declared_by(t, seat)):
        return t
    return replace(t, declarations=(*t.declarations, (seat, "baloot", pair)))


# ---------------------------------------------------------------- the fold --

def choices(t: Table) -> tuple[str, ...]:
    if t.to_act is None:
        return ()
    if t.phase == "bidding":
        return bidding_choices(t)
    if t.phase == "raising":
        return raising_choices(t)
    if t.phase == "playing":
        return playing_choices(t, t.to_act)
    return ()


REFUSAL_CLAUSES = {"bidding": ("BID.2",), "raising": ("RAISE.1",), "playing": ("PLAY.2",)}


def evolve(t: Table, action: str) -> Table:
    """The snapshot after `action` by the player to act (Illegal when the rules refuse it)."""
    seat = t.to_act
    if seat is None or action not in choices(t):
        raise Illegal(f"{action!r} is not among the actions of seat {seat} in phase {t.phase}",
                      REFUSAL_CLAUSES.get(t.phase, ("GAME.1",)))
    if t.phase == "bidding":
        t = bid(t, seat, action)
    elif t.phase == "raising":
        t = raise_call(t, seat, action)
    elif action.startswith("declare "):
        t = declare(t, seat, action)
    else:
        t = play(t, seat, action.split()[1])
    return pass_for_the_silent(t)


def pass_for_the_silent(t: Table) -> Table:
    """Without pass_only_turns: a player who could only pass passes unasked."""
    while t.phase == "bidding" and choices(t) == ("pass",):
        assert t.to_act is not None
        t = bid(t, t.to_act, "pass")
    return t
