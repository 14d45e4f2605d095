"""A legal card, proven: the spec's `playable_cards` never leaves the player to act
without a card, and offers only cards of the hand (PLAY.2, RAISE.2).

The state is a lazy `Game` (only the fields the rules read become variables;
a list inside it that no part below fixes has at most `LIST_BOUND` items):

- `hands`: one symbolic hand per seat, each of up to eight distinct cards
  (the spec's `first_deal_size + second_deal_size`); the hand of the player
  to act holds at least one card;
- `trick`: the trick in progress, 0 to `player_count - 1` plays of distinct
  cards, none of them in the hand of the player to act; each play's seat is
  the spec's `to_play` of the game as it stood before that card;
- `leader`: any seat; the player to act is the spec's `to_play(game)`;
- `locked`: free (locked and unlocked rounds in one query);
- `contract`: sun (no trump), or hokum with a symbolic trump suit (the four
  suits in one query).

For each contract and each reading of the variants `playable_cards` reaches
(every profile, and every reading of each), z3 looks for a state where the
result is empty or holds a card outside the hand: proven when there is none.
"""

from __future__ import annotations

from collections.abc import Iterator

import z3

from ..backends.symbolic import (
    FALSE,
    LIST_BOUND,
    TRUE,
    LazyRecord,
    SList,
    SOpt,
    SRecord,
    Translator,
    Universe,
    Value,
    and_,
    count,
    equal,
    ite,
    or_,
)
from ..grammar import model as m
from .invariants import (
    Contract,
    ReadingChoice,
    _field,
    _outcome,
    contracts,
    reading_choices,
    suit_enum,
)
from .projects import HAND_SIZE, _contract_record
from .proof_outcome import (
    Missing,
    ProofOutcome,
    find,
    guarded,
    need_const,
    need_rule,
    prove,
)

CID = "legal-card"
TITLE = ("in the play the player to act always has a legal card: playable_cards returns a "
         "non-empty list of cards of the hand, for any hand of 1 to 8 distinct cards and any "
         "trick in progress of 0 to 3 plays of other cards, locked round or not (PLAY.2, "
         "RAISE.2; any other list of the game state a rule reads: at most "
         f"{LIST_BOUND} items)")


def _hand_size(spec: m.Spec) -> int:
    """The most cards a hand holds: the two deals' sizes, from the spec."""
    try:
        return int(need_const(spec, "first_deal_size").value) + \
            int(need_const(spec, "second_deal_size").value)
    except Missing:
        return HAND_SIZE


def _type(spec: m.Spec, record: str, field: str) -> m.Type:
    f = next((f for f in spec.record(record).fields if f.name == field), None)
    if f is None:
        raise Missing(f"the record {record} has no field {field!r}")
    return f.type


def _contract(spec: m.Spec, u: Universe, hokum: bool) -> SRecord:
    """A sun contract, or a hokum contract whose trump suit is any suit."""
    suits = suit_enum(spec)
    if not hokum:
        return _contract_record(spec, u, Contract("sun", None))
    base = _contract_record(spec, u, Contract("hokum", suits.members[0].name))
    trump = SOpt(FALSE, u.fresh(suits.name, "trump"))
    return SRecord(base.record, tuple((n, trump if n == "trump" else v) for n, v in base.fields))


class PlayState:
    """A game in the play, as the docstring of this module describes it."""

    def __init__(self, spec: m.Spec, t: Translator, hokum: bool) -> None:
        u = t.u
        self.constraints: list[z3.BoolRef] = []
        cons = self.constraints
        seats = int(need_const(spec, "player_count").value)
        game_type = spec.rule(need_rule(spec, "playable_cards")).params[0].type
        if not isinstance(game_type, m.PlainType):
            raise Missing("playable_cards does not take a state record first")
        hands_type = _type(spec, game_type.name, "hands")
        if not isinstance(hands_type, m.ListType):
            raise Missing(f"{game_type.name}.hands is not a list of hands")
        self.hands = [u.fresh(hands_type.item, f"hands[{k}]", list_len=_hand_size(spec),
                              constraints=cons) for k in range(seats)]
        trick = u.fresh(_type(spec, game_type.name, "trick"), "trick", list_len=seats - 1,
                        constraints=cons)
        assert isinstance(trick, SList)
        self.trick = trick
        self.contract = _contract(spec, u, hokum)
        self.trump = self.contract.get("trump")
        game = u.fresh(game_type.name, "game", list_len=LIST_BOUND, constraints=cons, lazy=True)
        assert isinstance(game, LazyRecord)
        game = game.updated({"hands": SList(tuple((TRUE, h) for h in self.hands)),
                             "trick": trick, "contract": SOpt(FALSE, self.contract)})
        self.game = game
        leader = game.get("leader")
        self.locked = game.get("locked")
        assert isinstance(leader, z3.ArithRef), "Game.leader is not a number"
        cons += [leader >= 0, leader < seats]
        to_play = need_rule(spec, "to_play")
        seat = t.call(to_play, [game]).value
        assert isinstance(seat, z3.ArithRef)
        self.seat = seat
        # Each play was made by the player to act then: to_play of the game with the
        # plays before it.
        for i, (g, play) in enumerate(trick.items):
            before = game.updated({"trick": SList(trick.items[:i])})
            then = t.call(to_play, [before]).value
            assert isinstance(play, SRecord) and isinstance(then, z3.ArithRef)
            cons.append(z3.Implies(g, equal(_field(play, "seat"), then)))
        # The hand of the player to act: at least one card, none of them in the trick.
        hand: Value = self.hands[-1]
        for k in reversed(range(seats - 1)):
            hand = ite(seat == k, self.hands[k], hand)
        assert isinstance(hand, SList)
        self.hand = hand
        cons.append(count(hand.items) >= 1)
        cards = [(g, _field(p, "card")) for g, p in trick.items]
        for i, (gi, ci) in enumerate(cards):
            cons += [z3.Implies(and_(gi, gj), z3.Not(equal(ci, cj))) for gj, cj in cards[i + 1:]]
            cons += [z3.Implies(and_(gi, gh), z3.Not(equal(ci, ch))) for gh, ch in hand.items]


def check_legal_card(spec: m.Spec) -> Iterator[ProofOutcome]:
    """playable_cards is non-empty and within the hand, per contract and reading."""
    try:
        rule = need_rule(spec, "playable_cards")
    except Missing as err:
        yield ProofOutcome(CID, TITLE, "any", "any", "not-checked", "-", 0.0, str(err))
        return
    choices = reading_choices(spec, [rule], sweep=True)
    sun = contracts(spec)[0]
    for hokum in (False, True):
        label = "hokum (any trump)" if hokum else sun.label
        for choice in choices:
            def body(hokum: bool = hokum, label: str = label,
                     choice: ReadingChoice = choice) -> ProofOutcome:
                u = Universe(spec)
                t = Translator(spec, choice.readings, universe=u)
                s = PlayState(spec, t, hokum)
                result = t.call(rule, [s.game, s.seat])
                cards = result.value
                assert isinstance(cards, SList), "playable_cards does not return a list"
                nonempty = or_(*[g for g, _ in cards.items])
                within = and_(*[z3.Implies(g, or_(*[and_(h, equal(x, c))
                                                   for h, c in s.hand.items]))
                                for g, x in cards.items])
                assert s.locked is not None
                show: dict[str, Value] = {"player to act": s.seat, "hand": s.hand,
                                          "trick": s.trick, "locked": s.locked}
                if hokum and s.trump is not None:
                    show["trump"] = s.trump
                show["playable"] = cards
                # Not vacuous: the assumptions admit a full hand facing three plays.
                full = and_(count(s.hand.items) == len(s.hand.items),
                            count(s.trick.items) == len(s.trick.items))
                if find(u, full, s.constraints, {}) is None:
                    return ProofOutcome(CID, TITLE, label, choice.label, "error", "z3", 0.0,
                                   "the assumptions admit no full hand facing a trick of "
                                   f"{len(s.trick.items)} plays: the proof would be vacuous")
                proof = prove(u, and_(result.legal(), nonempty, within), s.constraints, show)
                return _outcome(CID, TITLE, label, choice.label, proof,
                                f"every hand of 1 to {len(s.hand.items)} cards, every trick "
                                f"of 0 to {len(s.trick.items)} plays"
                                + (", every trump suit" if hokum else "") + ", locked or not",
                                method="z3")

            yield guarded(CID, TITLE, label, choice.label, body)

