"""Why an action is refused: the reasons of the spec, and the pack's `illegal` cases by reason.

A **refusal point** is a `require` statement of the spec (`spec/*.baloot`), found by walking
the model: the rule holding it, its message, the clauses the rule cites, and the variants
its condition consults, itself or through the rules and the `let`s it reads
(`analysis.variants_reached`). A require whose condition is "the action is in the legal
set" refuses an action for several reasons, one for each way the action can be absent from
that set (an ashkal by the first bidder, a trump lower than the one to beat, a double in the
wrong form ...): those are the **ways** of `WAYS`, each with the require it belongs to, the
clauses it breaks, a test that tells it from the other ways of its require (written with the
spec's own generated rules), the variants that change it besides those the condition
consults (`extra`: the locked round is set by the raises, not by the lead rule), and the
readings under which it cannot arise, with why. A require of the spec that no way names and
that is not listed in `UNREACHABLE` (with why no action a protocol client sends can reach
it) is an error of this table, reported as such.

For each way and each reading of each of its variants, the cases that hit it: a case hits
a way under a reading when, played on the reference engine in this process with that
reading (on top of its pins, from every profile), its `expect.action` is refused by the
way's require (the `IllegalAction`'s rule and message) and the way's test holds. A reading
a case pins is the only one it is played under (each reading of a pin that lists several).
Target: `MIN_CASES` cases for every (way, reading) that can arise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ...grammar import model as m
from ...grammar.analysis import analyse
from ...grammar.walk import walk, walk_body
from ...reference_impl import IllegalAction, deal_rules, new_game, play_rules, raises_rules
from ...reference_impl import bidding_rules as bid_rules
from ...reference_impl.definitions import (
    Action,
    ActionKind,
    Game,
    Mode,
    Phase,
    RaiseLevel,
)
from ...reference_impl.notation import NotationError, parse_action
from ...reference_impl.readings import Readings
from ...reference_impl.runtime import Game as Engine
from ..harness.pack import Case
from ..harness.variants import Register
from .boundary_probe import CaseStopped, play_steps
from .coverage import counts
from .spec_model import spec_model

MIN_CASES = 2

BIDDING_CALLS = (ActionKind.PASS_TURN, ActionKind.BID_HOKUM, ActionKind.BID_SUN,
                 ActionKind.BID_ASHKAL, ActionKind.CALL_KAWESH)
RAISES = (ActionKind.DOUBLE_RAISE, ActionKind.TRIPLE_RAISE, ActionKind.FOUR_RAISE,
          ActionKind.GAHWA_RAISE)
# The raise each level leads to, and the side that makes it (RAISE.1: the bid winner's
# opponents double, the bid winner triples, the doubler makes it four, the bid winner gahwa).
RAISE_LEVEL = {ActionKind.DOUBLE_RAISE: RaiseLevel.DOUBLED, ActionKind.TRIPLE_RAISE:
               RaiseLevel.TRIPLED, ActionKind.FOUR_RAISE: RaiseLevel.QUADRUPLED,
               ActionKind.GAHWA_RAISE: RaiseLevel.GAHWA_DECLARED}
BIDDER_SIDE_RAISES = (ActionKind.TRIPLE_RAISE, ActionKind.GAHWA_RAISE)


# ---- the refusal points of the spec ------------------------------------------------------


@dataclass(frozen=True)
class RefusalPoint:
    """One `require` statement of the spec."""

    rule: str
    message: str
    clauses: tuple[str, ...]
    variants: tuple[str, ...]  # consulted by its condition, itself or through what it reads
    where: str  # file:line

    @property
    def key(self) -> tuple[str, str]:
        return (self.rule, self.message)


def _lets(rule: m.Rule) -> dict[str, m.Expr]:
    return {n.name: n.value for n in walk_body(rule.body) if isinstance(n, m.Let)}


def _called(expr: m.Expr, lets: dict[str, m.Expr], seen: set[str]) -> set[str]:
    """The rules an expression calls, following the `let`s of its rule it reads."""
    found: set[str] = set()
    for node in walk(expr):
        if isinstance(node, m.Call) and isinstance(node.func, m.Name):
            found.add(node.func.name)
        elif isinstance(node, m.Name) and node.name in lets and node.name not in seen:
            seen.add(node.name)
            found |= _called(lets[node.name], lets, seen)
    return found


def refusal_points(spec: m.Spec) -> list[RefusalPoint]:
    """Every `require` of the spec, in spec order."""
    analysis = analyse(spec)
    points = []
    for rule in spec.rules:
        lets = _lets(rule)
        for node in walk_body(rule.body):
            if isinstance(node, m.Require):
                calls = _called(node.condition, lets, set())
                variants = analysis.variants_reached(sorted(c for c in calls if c in
                                                            {r.name for r in spec.rules}))
                points.append(RefusalPoint(rule.name, node.message,
                                           tuple(c.clause for c in rule.cites), variants,
                                           f"{node.pos.file}:{node.pos.line}"))
    return points


# Requires no `apply` reaches: the protocol's client sends them no action.
UNREACHABLE: dict[str, str] = {
    "deal": "checks the deck of a `start` or `deal` request, not an action: the protocol "
            "answers a bad deck with an error reply, never a refusal",
    "start_game": "checks the dealer of a `start` request, not an action (an error reply)",
    "start_game_at": "checks the dealer and the totals of a `start` request, not an action "
                     "(an error reply)",
    "deal_next": "checks that a `deal` request comes when the game waits for one; a `deal` "
                 "is a request of its own, answered with an error reply, not an action",
}


# ---- the ways an action is refused -------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """What a way's test reads: the state before the action, the action, the readings."""

    game: Game
    action: Action
    readings: Readings

    @property
    def seat(self) -> int:
        if self.game.phase in (Phase.BIDDING, Phase.RAISING):
            return self.game.asking[0]
        return play_rules.to_play(self.game)

    @property
    def kind(self) -> ActionKind:
        return self.action.kind

    def position(self) -> int:
        """The seat's place in the bidding order, 1 (the dealer's right) to 4 (the dealer)."""
        return int(deal_rules.bidding_position(self.game.dealer, self.seat)) + 1

    @property
    def trump(self) -> Any:
        contract = self.game.contract
        return contract.trump if contract is not None else None

    @property
    def card(self) -> Any:
        return self.action.cards[0] if self.action.cards else None

    def hand(self) -> list[Any]:
        return list(self.game.hands[self.seat])


@dataclass(frozen=True)
class Way:
    key: str
    rule: str  # the rule of the require
    message: str  # the start of the require's message
    what: str
    clauses: tuple[str, ...]
    test: Callable[[Position], bool]
    extra: tuple[str, ...] = ()  # variants that change the way besides the condition's
    never: dict[str, str] = field(default_factory=dict)  # "variant=reading" -> why
    unsendable: str | None = None  # why no protocol client can send such an action


def _not_a_call(p: Position) -> bool:
    return p.kind not in BIDDING_CALLS


def _ashkal_position(p: Position) -> bool:
    return p.kind == ActionKind.BID_ASHKAL and p.position() < 3


_ANY_SESSION = ("third_fourth_any_session", "partner_is_bidder_any_session")


def _ashkal_session(p: Position) -> bool:
    return (p.kind == ActionKind.BID_ASHKAL and p.position() >= 3 and p.game.session == 2
            and p.readings.ashkal not in _ANY_SESSION)


def _ashkal_limited(p: Position) -> bool:
    """An ashkal that A14 allows (seat and session) and A25 forbids."""
    return (p.kind == ActionKind.BID_ASHKAL and p.position() >= 3
            and (p.game.session == 1 or p.readings.ashkal in _ANY_SESSION)
            and not bid_rules.ashkal_within_limits(p.readings, p.game, p.seat))


_UNLIMITED = "A25 adds no limit to those of A14 under this reading"
_NOT_PASSED_YET = ("in the open bidding no player asked has passed yet in the session, and "
                   "this reading has no other limit")
_ASHKAL_LIMIT_NEVER = {"ashkal_limits=unlimited": _UNLIMITED}


_SECOND_SESSION_ONLY = (
    "ashkal is open in both sessions under this reading")
_ASHKAL_SESSION_NEVER = {"ashkal=third_fourth_any_session": _SECOND_SESSION_ONLY,
                         "ashkal=partner_is_bidder_any_session": _SECOND_SESSION_ONLY}
_NO_OVERCALLS = ("a first-session sun bid ends the bidding at once: no player is asked "
                 "after it (A2)")
_SUN_STAGE_NEVER = {"sun_overcall=sun_ends_bidding": _NO_OVERCALLS}


def _raise_side(p: Position) -> str:
    """`bidder` or `others`: the side of the player asked (RAISE.1)."""
    contract = p.game.contract
    assert contract is not None
    same = p.seat % 2 == contract.bidder % 2
    return "bidder" if same else "others"


def _raise_belongs(kind: ActionKind) -> str:
    return "bidder" if kind in BIDDER_SIDE_RAISES else "others"


def _next_raise(p: Position) -> ActionKind | None:
    order = list(RaiseLevel)
    at = order.index(p.game.level)
    if at + 1 >= len(order):
        return None
    wanted = order[at + 1]
    return next(k for k, level in RAISE_LEVEL.items() if level == wanted)


def _sun(p: Position) -> bool:
    return p.game.contract is not None and p.game.contract.kind == Mode.SUN


def _past_sun_limit(p: Position) -> bool:
    """A sun round whose raising stopped because A11 allows no further raise."""
    game = p.game
    assert game.contract is not None
    return (game.level not in (RaiseLevel.NO_RAISE, RaiseLevel.GAHWA_DECLARED)
            and not raises_rules.next_raise_allowed(p.readings, game.contract, game.level))


def _follows_trump(p: Position) -> bool:
    led = play_rules.led_suit(p.game.trick)
    return led is not None and led == p.trump


def _void_trumps(p: Position) -> list[Any]:
    return [c for c in p.hand() if c.suit == p.trump]


def _holds(p: Position) -> bool:
    return p.card is not None and p.card in p.hand()


WAYS: tuple[Way, ...] = (
    # -- the bidding (BID.*) -----------------------------------------------------------
    Way("bid.kawesh.not-weak", "kawesh", "only a player whose five cards",
        "kawesh by a player whose five cards are not all 7s, 8s and 9s, or under a reading "
        "without the call (A28)", ("BID.9",), lambda p: p.kind == ActionKind.CALL_KAWESH),
    Way("bid.open.not-a-call", "call_in_open_bidding", "the player may pass",
        "a raise, a declaration or a card while the bidding is open", ("BID.2",), _not_a_call),
    Way("bid.open.ashkal-early", "call_in_open_bidding", "the player may pass",
        "ashkal by the first or second bidder", ("BID.6",), _ashkal_position),
    Way("bid.open.ashkal-second-session", "call_in_open_bidding", "the player may pass",
        "ashkal by the third or fourth bidder in the second session", ("BID.6",),
        _ashkal_session, never=_ASHKAL_SESSION_NEVER),
    Way("bid.open.ashkal-limit", "call_in_open_bidding", "the player may pass",
        "ashkal by a third or fourth bidder A14 allows, on a face-up ace (A25)", ("BID.6",),
        _ashkal_limited,
        never={**_ASHKAL_LIMIT_NEVER, "ashkal_limits=not_after_pass": _NOT_PASSED_YET}),
    Way("bid.open.hokum-names-trump", "call_in_open_bidding", "the player may pass",
        "a hokum bid naming a trump (only the second-session choice names one)", ("BID.8",),
        lambda p: p.kind == ActionKind.BID_HOKUM and p.action.suit is not None),
    Way("bid.answer.not-a-call", "answer_to_hokum", "after a hokum bid",
        "a raise, a declaration or a card after a hokum bid", ("BID.4",), _not_a_call),
    Way("bid.answer.hokum", "answer_to_hokum", "after a hokum bid",
        "hokum over a standing hokum bid", ("BID.4",),
        lambda p: p.kind == ActionKind.BID_HOKUM),
    Way("bid.answer.ashkal-early", "answer_to_hokum", "after a hokum bid",
        "ashkal by the first or second bidder, answering a hokum bid", ("BID.6",),
        _ashkal_position),
    Way("bid.answer.ashkal-second-session", "answer_to_hokum", "after a hokum bid",
        "ashkal by the third or fourth bidder answering a second-session hokum bid",
        ("BID.6",), _ashkal_session, never=_ASHKAL_SESSION_NEVER),
    Way("bid.answer.ashkal-limit", "answer_to_hokum", "after a hokum bid",
        "ashkal answering a hokum bid by a third or fourth bidder A14 allows, on a face-up ace "
        "or after the player's own pass in the session (A25)", ("BID.6",), _ashkal_limited,
        never=_ASHKAL_LIMIT_NEVER),
    Way("bid.choice.not-a-call", "hokum_bidder_choice", "the hokum bidder may stay",
        "a raise, a declaration or a card at the hokum bidder's choice", ("BID.4",),
        _not_a_call),
    Way("bid.choice.pass-or-ashkal", "hokum_bidder_choice", "the hokum bidder may stay",
        "a pass or an ashkal at the hokum bidder's choice (stay with hokum or switch to sun)",
        ("BID.4",), lambda p: p.kind in (ActionKind.PASS_TURN, ActionKind.BID_ASHKAL)),
    Way("bid.choice.face-up-suit", "hokum_bidder_choice", "the hokum bidder may stay",
        "a second-session hokum naming the face-up card's suit", ("BID.8",),
        lambda p: p.kind == ActionKind.BID_HOKUM and p.game.session == 2
        and p.action.suit == p.game.face_up.suit),
    Way("bid.choice.trump-form", "hokum_bidder_choice", "the hokum bidder may stay",
        "a first-session hokum naming a trump, or a second-session one naming none",
        ("BID.3", "BID.8"),
        lambda p: p.kind == ActionKind.BID_HOKUM
        and (p.action.suit is None) == (p.game.session == 2)),
    Way("bid.sun.not-a-call", "answer_to_sun", "after a sun bid",
        "a raise, a declaration or a card after a sun bid", ("BID.5",), _not_a_call,
        never=_SUN_STAGE_NEVER),
    Way("bid.sun.hokum", "answer_to_sun", "after a sun bid",
        "hokum after a sun bid", ("BID.5",), lambda p: p.kind == ActionKind.BID_HOKUM,
        never=_SUN_STAGE_NEVER),
    Way("bid.sun.overcall", "answer_to_sun", "after a sun bid",
        "sun or ashkal over a sun bid by a player A2 does not let take it over", ("BID.5",),
        lambda p: p.kind in (ActionKind.BID_SUN, ActionKind.BID_ASHKAL)
        and not bid_rules.may_overcall_sun(p.readings, p.game, p.seat),
        never={**_SUN_STAGE_NEVER, "sun_overcall=last_caller_wins":
               "every player asked after a sun bid may take it over"}),
    Way("bid.sun.ashkal-early", "answer_to_sun", "after a sun bid",
        "ashkal by the first or second bidder taking over a sun bid", ("BID.5", "BID.6"),
        lambda p: _ashkal_position(p)
        and bool(bid_rules.may_overcall_sun(p.readings, p.game, p.seat)),
        never=_SUN_STAGE_NEVER),
    Way("bid.sun.ashkal-limit", "answer_to_sun", "after a sun bid",
        "ashkal taking over a sun bid by a third or fourth bidder A2 and A14 allow, on a "
        "face-up ace or after the player's own pass in the session (A25)", ("BID.5", "BID.6"),
        lambda p: _ashkal_limited(p)
        and bool(bid_rules.may_overcall_sun(p.readings, p.game, p.seat)),
        never={**_SUN_STAGE_NEVER, **_ASHKAL_LIMIT_NEVER}),
    # -- the raising (RAISE.*) ---------------------------------------------------------
    Way("raise.not-a-raise", "apply_raise", "the player may pass or make the next raise",
        "a bid, a declaration or a card in the raising", ("RAISE.1",),
        lambda p: p.kind not in (ActionKind.PASS_TURN, *RAISES)),
    Way("raise.other-side", "apply_raise", "the player may pass or make the next raise",
        "a raise that is the other side's to make (out of turn)", ("RAISE.1",),
        lambda p: p.kind in RAISES and _raise_belongs(p.kind) != _raise_side(p)),
    Way("raise.not-next", "apply_raise", "the player may pass or make the next raise",
        "a raise of the side asked that is not the next one (a step skipped or gone back)",
        ("RAISE.1",),
        lambda p: p.kind in RAISES and _raise_belongs(p.kind) == _raise_side(p)
        and p.kind != _next_raise(p)),
    Way("raise.form", "apply_raise", "the player may pass or make the next raise",
        "the next raise in a form it does not take: a closed or open raise where A10 has "
        "a plain one (and always in sun, and gahwa always), a plain one where the raiser "
        "must choose",
        ("RAISE.1", "RAISE.2"),
        lambda p: p.kind == _next_raise(p)),
    # -- a call in the play ---------------------------------------------------------------
    Way("play.bid-call", "apply_play_action", "in the play, a player may only",
        "a bidding call once the play has begun", ("PLAY.2", "BID.1"),
        lambda p: p.kind in BIDDING_CALLS),
    Way("play.raise-gate-shut", "apply_play_action", "in the play, a player may only",
        "a raise in a sun round the gate of RAISE.3 kept from raising", ("RAISE.3",),
        lambda p: p.kind in RAISES and _sun(p) and p.game.level == RaiseLevel.NO_RAISE
        and not p.game.raises,
        extra=("sun_raises",)),
    Way("play.raise-past-sun-limit", "apply_play_action", "in the play, a player may only",
        "a raise in a sun round past the last raise A11 allows in sun", ("RAISE.3",),
        lambda p: p.kind in RAISES and _sun(p) and _past_sun_limit(p),
        extra=("sun_raises",),
        never={"sun_raises=gate_strict_all": "every raise up to gahwa is open in sun",
               "sun_raises=gate_inclusive_all": "every raise up to gahwa is open in sun"}),
    Way("play.raise-after-raising", "apply_play_action", "in the play, a player may only",
        "a raise after the raising ended (a pass, or gahwa), or a hokum round's raise in "
        "the play", ("RAISE.1",),
        lambda p: p.kind in RAISES and not (_sun(p) and p.game.level == RaiseLevel.NO_RAISE
                                            and not p.game.raises)
        and not (_sun(p) and _past_sun_limit(p))),
    Way("play.several-cards", "apply_play_action", "in the play, a player may only",
        "a play of more than one card", ("PLAY.2",),
        lambda p: p.kind == ActionKind.PLAY_CARD,
        unsendable="the protocol writes a play as 'play CARD', one card (PROTOCOL.md); "
        "`baloot conform lint` refuses any other play text in a case"),
    # -- no action expected ---------------------------------------------------------------
    Way("over.round-over", "apply_action", "no action is expected",
        "an action after the eighth trick, before the next deal", ("GAME.1", "PLAY.4"),
        lambda p: p.game.phase == Phase.ROUND_OVER),
    Way("over.redeal", "apply_action", "no action is expected",
        "an action after everyone passed twice, before the new deal", ("BID.9",),
        lambda p: p.game.phase == Phase.WAITING_DEAL),
    Way("over.game-over", "apply_action", "no action is expected",
        "an action once the game is over", ("END.1",),
        lambda p: p.game.phase == Phase.GAME_OVER),
    # -- the cards (PLAY.*) ----------------------------------------------------------------
    Way("play.not-held", "play_a_card", "the card is not in the player's hand",
        "a card the player to act does not hold (another player's, or one played)",
        ("PLAY.2", "PLAY.4"), lambda p: True),
    Way("play.locked-lead", "play_a_card", "locked round",
        "a hokum card led in a locked round by a player holding another suit", ("RAISE.2",),
        lambda p: True, extra=("locked_round",)),
    Way("play.revoke", "play_a_card", "the player must follow the led suit",
        "a card of another suit by a player holding the led suit", ("PLAY.2",),
        lambda p: p.card is not None and p.card.suit != play_rules.led_suit(p.game.trick)),
    Way("play.under-trump", "play_a_card", "the player must follow the led suit",
        "a trump that does not beat the trumps of a hokum lead, by a player holding one "
        "that does (A23)", ("PLAY.2",),
        lambda p: p.card is not None and _follows_trump(p) and p.card.suit == p.trump,
        never={"trump_lead=any_trump": "a follower of a hokum lead may play any of its "
                                       "trumps"}),
    Way("play.void-must-trump", "play_a_card", "void in the led suit",
        "a card other than a trump by a player void in the led suit who holds a trump (A15)",
        ("PLAY.2",), lambda p: p.card is not None and p.card.suit != p.trump,
        never={"void_in_hokum=any_card": "a player void in the led suit may play any card"}),
    Way("play.void-must-overtrump", "play_a_card", "void in the led suit",
        "a trump that does not beat an opponent's trump, by a player void in the led suit "
        "holding one that does (A15)", ("PLAY.2",),
        lambda p: p.card is not None and p.card.suit == p.trump,
        never={"void_in_hokum=any_card": "a player void in the led suit may play any card"}),
    # -- the declarations (PROJ.*) ------------------------------------------------------
    Way("proj.after-first-trick", "declare", "projects are declared in the first trick",
        "a declaration after the first trick", ("PROJ.1",),
        lambda p: len(p.game.tricks) > 0),
    Way("proj.third", "declare", "projects are declared in the first trick",
        "a third declaration by one player", ("PROJ.2",),
        lambda p: len(p.game.tricks) == 0),
    Way("proj.card-in-another", "declare", "not a project of the player's cards",
        "a declaration holding a card already in another project of the player's",
        ("PROJ.8",),
        lambda p: any(c in q.cards for q in p.game.declarations if q.seat == p.seat
                      for c in p.action.cards)),
    Way("proj.not-a-project", "declare", "not a project of the player's cards",
        "cards that do not make the project named (of the player's own free cards)",
        ("PROJ.3", "PROJ.5"),
        lambda p: not any(c in q.cards for q in p.game.declarations if q.seat == p.seat
                          for c in p.action.cards)),
)


# ---- finding the way of a refusal -----------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """What refused an action: the require (rule, message) and the way, if one matched."""

    rule: str
    message: str
    way: str | None  # None: a require no way matched (an error of WAYS), or the notation


def way_of(game: Engine, action_text: str, exc: IllegalAction) -> Refusal:
    if exc.rule == "notation":
        return Refusal(exc.rule, exc.message, None)
    try:
        action = parse_action(action_text)
    except NotationError:
        return Refusal(exc.rule, exc.message, None)
    where = Position(game.state, action, game.readings)
    for way in WAYS:
        if way.rule == exc.rule and exc.message.startswith(way.message) and way.test(where):
            return Refusal(exc.rule, exc.message, way.key)
    return Refusal(exc.rule, exc.message, None)


def refusal_of(case: Case, profile: str, readings: dict[str, str]) -> Refusal | None:
    """The refusal of the case's action, played from `profile` with `readings` on top; None
    when the script does not play through or the action is accepted."""
    try:
        game = new_game(profile=profile, overrides=readings or None, dealer=case.dealer,
                        deck=case.deck, totals=case.totals)
        play_steps(game, case.actions)
        for script in case.then:
            game.deal(script.deck)
            play_steps(game, script.actions)
    except (IllegalAction, ValueError, CaseStopped):
        return None
    try:
        game.apply(case.expect["action"])
    except IllegalAction as exc:
        return way_of(game, case.expect["action"], exc)
    return None


# ---- the table ------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    way: Way
    variant: str | None  # None: a way no variant changes
    reading: str | None
    cases: tuple[str, ...]
    never: str | None  # why the way cannot arise under this reading

    @property
    def label(self) -> str:
        return f"{self.variant}={self.reading}" if self.variant else "(every reading)"

    @property
    def gap(self) -> bool:
        return self.never is None and len(self.cases) < MIN_CASES


@dataclass
class RefusalReport:
    points: list[RefusalPoint]
    rows: list[Row]
    unreachable: list[tuple[RefusalPoint, str]]
    unmapped: list[RefusalPoint]  # requires no way names and UNREACHABLE does not list
    unknown_ways: list[str]  # ways whose require the spec does not hold
    unclassified: list[tuple[str, str]]  # (case id, what refused it) no way matched
    accepted: list[str]  # illegal cases the reference accepts (or cannot play through)
    illegal_cases: int = 0
    hits: dict[str, set[tuple[str, str | None, str | None]]] = field(default_factory=dict)

    @property
    def gaps(self) -> list[Row]:
        return [r for r in self.rows if r.gap]

    @property
    def ok(self) -> bool:
        return not (self.gaps or self.unmapped or self.unknown_ways or self.unclassified)


def way_variants(way: Way, points: dict[tuple[str, str], RefusalPoint]) -> tuple[str, ...]:
    found = [p for key, p in points.items() if key[0] == way.rule
             and key[1].startswith(way.message)]
    consulted = found[0].variants if found else ()
    return tuple(dict.fromkeys([*consulted, *way.extra]))


def case_hits(case: Case, register: Register, variants_of: dict[str, tuple[str, ...]]
              ) -> tuple[set[tuple[str, str | None, str | None]], list[str], bool]:
    """(way, variant, reading) the case hits; what refused it where no way matched; whether
    any run refused it at all."""
    profiles = list(register.profiles)
    own = {p: refusal_of(case, p, dict(case.requires)) for p in profiles}
    refused = any(r is not None for r in own.values())
    odd = sorted({f"{r.rule}: {r.message}" for r in own.values()
                  if r is not None and r.way is None})
    hits: set[tuple[str, str | None, str | None]] = set()
    ways = {r.way for r in own.values() if r is not None and r.way}
    if len(ways) == 1 and all(r is not None for r in own.values()):
        hits.add((next(iter(ways)), None, None))
    variants = sorted({v for w in ways for v in variants_of.get(w, ())})
    for variant in variants:
        readings = case.pins.get(variant) or tuple(register.variants[variant].readings)
        for reading in readings:
            found = [refusal_of(case, p, {**case.requires, variant: reading})
                     for p in profiles]
            keys = {f.way for f in found if f is not None}
            if all(f is not None for f in found) and len(keys) == 1 and None not in keys:
                key = next(iter(keys))
                assert key is not None
                hits.add((key, variant, reading))
    return hits, odd, refused


def refusal_report(cases: list[Case], register: Register) -> RefusalReport:
    spec = spec_model()
    points = refusal_points(spec)
    by_key = {p.key: p for p in points}
    variants_of = {w.key: way_variants(w, by_key) for w in WAYS}
    unreachable = [(p, UNREACHABLE[p.rule]) for p in points if p.rule in UNREACHABLE]
    named = {p.key for p in points for w in WAYS
             if w.rule == p.rule and p.message.startswith(w.message)}
    unmapped = [p for p in points if p.key not in named and p.rule not in UNREACHABLE]
    unknown = [w.key for w in WAYS if not any(w.rule == p.rule and p.message.startswith(
        w.message) for p in points)]
    report = RefusalReport(points, [], unreachable, unmapped, unknown, [], [])
    hits_by_row: dict[tuple[str, str | None, str | None], list[str]] = {}
    for case in cases:
        if case.kind != "illegal" or not counts(case):
            continue
        report.illegal_cases += 1
        hits, odd, refused = case_hits(case, register, variants_of)
        report.hits[case.id] = hits
        report.unclassified += [(case.id, o) for o in odd]
        if not refused:
            report.accepted.append(case.id)
        for hit in hits:
            hits_by_row.setdefault(hit, []).append(case.id)
    for way in WAYS:
        variants = variants_of[way.key]
        if not variants:
            report.rows.append(Row(way, None, None, tuple(hits_by_row.get((way.key, None, None),
                                                                           ())), way.unsendable))
            continue
        for variant in variants:
            for reading in register.variants[variant].readings:
                report.rows.append(Row(
                    way, variant, reading,
                    tuple(hits_by_row.get((way.key, variant, reading), ())),
                    way.unsendable or way.never.get(f"{variant}={reading}")))
    return report


def readings_rows(report: RefusalReport) -> Iterator[tuple[str, str]]:
    """(way, variant=reading) of every row that can arise."""
    for row in report.rows:
        if row.never is None:
            yield row.way.key, row.label


def with_requires(case: Case, requires: dict[str, str]) -> Case:
    return dataclasses.replace(case, requires=requires, also_holds={})
