"""Cases for the refusal table's gaps (`refusals.py`), found in seeded games on the reference.

For a gap (a way, under a reading), games are played on the reference engine in this process
with that reading on top of a profile: game `i` deals the deck `shuffled_deck(i)`, dealer
`i % 4`, from totals that open or shut the sun gate or stand near the target, and follows one
of a few bidding plans (a hokum bid by the first bidder that everyone lets stand, a sun bid,
everyone passing into the second session or twice over, a later sun bid with players asked
after it), raising plans (no raise, or raises up to gahwa) and a play that picks, from a
random generator seeded by `i`, a card legal under every reading of the play's variants (so
that the script needs no pin of theirs). At every decision, actions from a pool (every call,
every raise and its forms, each card of the player's and one of another's, the
declarations seen so far in the game and the same cards under every other kind) are
tried on a copy: the first one refused for the way wanted ends the search. The case is the
game's script up to there, with that action expected refused; its pins are made minimal
(`pins_fix.minimal_requires`), its seats, pass-only turns and capabilities are those a
replay finds (`case_needs`), and its `working` says, from the rules, why the action is
refused (`refusal_working`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...reference_impl import IllegalAction, new_game, play_rules
from ...reference_impl.definitions import Game, Mode, Phase, ProjectKind
from ...reference_impl.notation import action_text, card_text
from ...reference_impl.runtime import Game as Engine
from ...reference_impl.runtime import choose_readings, shuffled_deck
from ..harness.pack import case_from_json
from ..harness.variants import Register
from .boundary_probe import play_steps
from .case_needs import annotated, case_needs
from .pins_fix import minimal_requires
from .refusals import (
    WAYS,
    Way,
    refusal_of,
    way_of,
)

WAY_BY_KEY = {w.key: w for w in WAYS}
SUITS = ("S", "H", "D", "C")
CALLS = ("pass", "hokum", *(f"hokum {s}" for s in SUITS), "sun", "ashkal", "kawesh", "double",
         "double closed", "double open", "triple", "triple closed", "triple open", "four",
         "four closed", "four open", "gahwa")
PROJECT_KINDS = tuple(k.value for k in ProjectKind if k != ProjectKind.BALOOT)
# The play's variants: a card is chosen legal under every reading of these.
PLAY_VARIANTS = ("void_in_hokum", "trump_lead")
TOTALS = ([0, 0], [110, 90], [90, 110], [150, 150], [100, 99], [101, 99])
BIDDING_PLANS = ("hokum", "sun", "second_session", "all_pass", "late_sun", "second_hokum_late")
RAISING_PLANS = (0, 1, 1, 2, 3, 4)  # how many raises are made before a pass


@dataclass(frozen=True)
class Found:
    way: str
    profile: str
    readings: dict[str, str]
    dealer: int
    deck: list[str]
    totals: list[int]
    steps: list[Any]  # the script's steps (seated texts, repeat steps)
    action: str
    state: Game  # the state the action is refused in


class _Stop(Exception):
    pass


def _seated(seat: int | None, action: str) -> str:
    return f"{seat}: {action}"


def _play_choices(game: Engine, register: Register) -> list[str]:
    """The cards legal under every reading of the play's variants (order kept)."""
    legal = [a for a in game.legal_actions() if a.startswith("play ")]
    for variant in PLAY_VARIANTS:
        for reading in register.variants[variant].readings:
            other = Engine(choose_readings("literal", {**_plain(game), variant: reading}),
                           game.state)
            allowed = set(other.legal_actions())
            legal = [a for a in legal if a in allowed]
    return legal


def _plain(game: Engine) -> dict[str, str]:
    return {name: getattr(game.readings, name) for name in game.readings.__dataclass_fields__}


def _pool(game: Engine, seen_declarations: set[str]) -> Iterator[str]:
    yield from CALLS
    state = game.state
    seat = game.current_player
    if seat is None:
        yield "play 7S"
        return
    hand = [card_text(c) for c in state.hands[seat]]
    yield from (f"play {c}" for c in hand)
    others = [card_text(c) for s, h in enumerate(state.hands) if s != seat for c in h]
    if others:
        yield f"play {others[0]}"
    for text in sorted(seen_declarations):
        words = text.split()
        yield text
        for kind in PROJECT_KINDS:
            if kind != words[1]:
                yield " ".join(["declare", kind, *words[2:]])


class _Player:
    """One seeded game, played by plan, trying the pool at every decision."""

    def __init__(self, seed: int, profile: str, readings: dict[str, str], register: Register,
                 want: Way) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.profile = profile
        self.readings = readings
        self.register = register
        self.want = want
        self.dealer = seed % 4
        self.deck = shuffled_deck(seed)
        self.totals = list(TOTALS[(seed // 4) % len(TOTALS)])
        self.game = new_game(profile=profile, overrides=readings or None, dealer=self.dealer,
                             deck=self.deck, totals=self.totals)
        self.steps: list[Any] = []
        self.declared: set[str] = set()
        self.found: Found | None = None

    def probe(self) -> None:
        """Try the pool at this decision; stop the game when an action hits the way."""
        for action in _pool(self.game, self.declared):
            trial = Engine(self.game.readings, self.game.state)
            try:
                trial.apply(action)
            except IllegalAction as exc:
                refusal = way_of(trial, action, exc)
                if refusal.way == self.want.key:
                    self.found = Found(self.want.key, self.profile, self.readings, self.dealer,
                                       self.deck, self.totals, list(self.steps), action,
                                       self.game.state)
                    raise _Stop from None

    def act(self, action: str, step: Any = None) -> None:
        self.probe()
        seat = self.game.current_player
        self.game.apply(action)
        self.steps.append(step if step is not None else _seated(seat, action))

    def repeat_pass(self, phase: str) -> None:
        """Everyone passes while the phase lasts: one repeat step in the script."""
        start = len(self.steps)
        while self.game.phase == phase:
            self.act("pass")
        self.steps[start:] = [{"repeat": "pass", "while_phase": phase}]

    def bidding(self, plan: str) -> None:
        first = (self.dealer + 1) % 4
        if plan == "all_pass":
            for _ in range(8):
                self.act("pass")
            return
        if plan in ("second_session", "second_hokum_late"):
            for _ in range(4):
                self.act("pass")
            if plan == "second_hokum_late":
                self.act("pass")
            self.act("hokum")
            while self.game.phase == "bidding" and self.game.current_player != (
                    self.game.state.hokum_bidder):
                self.act("pass")
            suits = [s for s in SUITS if s != card_text(self.game.state.face_up)[-1]]
            self.act(f"hokum {self.rng.choice(suits)}")
            return
        if plan == "late_sun":
            self.act("pass")
            self.act("pass")
            self.act("sun")
            while self.game.phase == "bidding":
                self.act("pass")
            return
        assert self.game.current_player == first
        if plan == "sun":
            self.act("sun")
            self.repeat_pass("bidding")
            return
        self.act("hokum")
        for _ in range(3):
            self.act("pass")
        self.act("hokum")

    def raising(self, raises: int) -> None:
        if self.game.phase != "raising":
            return
        if raises == 0:
            self.repeat_pass("raising")
            return
        made = 0
        while self.game.phase == "raising" and made < raises:
            legal = [a for a in self.game.legal_actions() if a != "pass"]
            if not legal:
                break
            self.act(self.rng.choice(legal))
            made += 1
        while self.game.phase == "raising":
            self.act("pass")

    def play(self) -> None:
        while self.game.phase == "playing":
            declares = [a for a in self.game.legal_actions() if a.startswith("declare")]
            self.declared |= set(declares)
            if declares and self.rng.random() < 0.7:
                self.act(self.rng.choice(declares))
                continue
            self.act(self.rng.choice(_play_choices(self.game, self.register)))
        self.probe()

    def run(self) -> Found | None:
        try:
            self.bidding(self.rng.choice(BIDDING_PLANS))
            if self.game.phase == "raising":
                self.raising(self.rng.choice(RAISING_PLANS))
            self.play()
        except _Stop:
            return self.found
        except IllegalAction:  # a plan the readings do not allow
            return None
        return None


def search(want: Way, profile: str, readings: dict[str, str], register: Register,
           seeds: range) -> Iterator[Found]:
    """Every seed's first position where an action is refused for `want`."""
    for seed in seeds:
        found = _Player(seed, profile, readings, register, want).run()
        if found is not None:
            yield found


# ---- the case ----------------------------------------------------------------------------


def case_json(found: Found, case_id: str, register: Register, file: str) -> dict[str, Any]:
    way = WAY_BY_KEY[found.way]
    raw: dict[str, Any] = {
        "id": case_id,
        "kind": "illegal",
        "title": f"Refused: {way.what}",
        "clauses": list(way.clauses),
        "requires": dict(found.readings),
        "setup": {"dealer": found.dealer, "deck": found.deck,
                  **({"totals": found.totals} if found.totals != [0, 0] else {})},
        "actions": found.steps,
        "working": [],
        "expect": {"action": found.action},
    }
    for _ in range(2):  # the seats a replay finds may change what the pins must hold
        raw["requires"] = minimal_requires(raw, file, register)
        raw = annotated(raw, case_needs(case_from_json(raw, file), register))
    if not raw["requires"]:
        del raw["requires"]
    raw["working"] = case_working(raw, register, file)
    return raw


def case_working(raw: dict[str, Any], register: Register, file: str) -> list[str]:
    """The working of a refusal case, from a replay of its script on the reference: why
    the action is refused, and, for a pin listing several readings, why under each other
    reading that refuses it for another reason."""
    case = case_from_json(raw, file)
    profile = next(iter(register.profiles))
    game = new_game(profile=profile, overrides=dict(case.requires) or None,
                    dealer=case.dealer, deck=case.deck, totals=case.totals)
    play_steps(game, case.actions)
    action = case.expect["action"]
    try:
        Engine(game.readings, game.state).apply(action)
    except IllegalAction as exc:
        refused = way_of(game, action, exc)
    else:
        raise ValueError(f"{case.id}: the reference accepts {action!r}")
    if refused.way is None:
        raise ValueError(f"{case.id}: refused by {refused.rule}, which no way matches")
    found = Found(refused.way, profile, dict(case.requires), case.dealer, case.deck,
                  list(case.totals or [0, 0]), list(raw["actions"]), action, game.state)
    lines = refusal_working(found, raw.get("requires", {}))
    for variant, readings in case.pins.items():
        for reading in readings:
            other = refusal_of(case, profile, {**case.requires, variant: reading})
            if other is not None and other.way not in (None, refused.way):
                why = _reasons(WAY_BY_KEY[other.way], _seat(game.state), None)[other.way]
                lines.insert(-1, f"Under {variant} {reading} it is refused for another "
                             f"reason: {why}")
    return lines


# ---- the working -------------------------------------------------------------------------


def _cards(cards: Any) -> str:
    return " ".join(card_text(c) for c in cards) or "nothing"


def _pins_text(pins: dict[str, Any]) -> str:
    if not pins:
        return "under every reading of the spec's variants"
    parts = [f"{v} {'|'.join(r) if isinstance(r, list) else r}" for v, r in pins.items()]
    return "under " + ", ".join(parts)


def refusal_working(found: Found, pins: dict[str, Any]) -> list[str]:
    """Why the action is refused, from the rules, with the position's cards."""
    game = found.state
    way = WAY_BY_KEY[found.way]
    lines = [f"Dealer {found.dealer}; the deck deals as PROTOCOL.md says; the face-up card "
             f"is {card_text(game.face_up)}; totals {found.totals[0]}-{found.totals[1]}."]
    contract = game.contract
    if contract is not None:
        trump = f", trump {contract.trump.value}" if contract.trump is not None else ""
        calls = ", ".join(f"seat {c.seat} {action_text(c.action)}" for c in game.raises)
        raised = f" (raises: {calls}; multiplier {game.multiplier}, " \
            f"{'locked' if game.locked else 'not locked'})" if game.raises else ""
        lines.append(f"The script makes a {contract.kind.value} contract of seat "
                     f"{contract.bidder}{trump}{raised}.")
    seat = _seat(game)
    if game.phase == Phase.PLAYING and seat is not None:
        trick = ", ".join(f"seat {p.seat} {card_text(p.card)}" for p in game.trick)
        lines.append(f"Trick {len(game.tricks) + 1}: {trick or 'nobody has played yet'}; "
                     f"seat {seat} to play holds {_cards(game.hands[seat])}.")
    elif seat is not None:
        lines.append(f"Seat {seat} is to act in the {game.phase.value} phase "
                     f"(session {game.session}).")
    who = f"Seat {seat}'s" if seat is not None else "The"
    lines.append(f"{who} '{found.action}' is refused ({_pins_text(pins)}): "
                 + _why(way, found))
    lines.append("A refused action changes nothing: the state and the legal actions are "
                 "the same before and after (PROTOCOL.md, apply).")
    return lines


def _seat(game: Game) -> int | None:
    if game.phase in (Phase.BIDDING, Phase.RAISING):
        return game.asking[0]
    if game.phase == Phase.PLAYING:
        return int(play_rules.to_play(game))
    return None


def _why(way: Way, found: Found) -> str:
    game = found.state
    seat = _seat(game)
    trump = game.contract.trump if game.contract is not None else None
    hand = list(game.hands[seat]) if seat is not None else []
    led = play_rules.led_suit(game.trick) if game.phase == Phase.PLAYING else None
    if led is not None:
        held = [c for c in hand if c.suit == led]
        trumps = [c for c in hand if trump is not None and c.suit == trump]
        played = [p.card for p in game.trick if trump is not None and p.card.suit == trump]
        detail = (f" The led suit is {led.value}; seat {seat} holds "
                  f"{_cards(held) if held else 'none of it'}; its trumps: {_cards(trumps)}; "
                  f"trumps in the trick: {_cards(played)}.")
    else:
        detail = ""
    return _reasons(way, seat, trump)[way.key] + detail


def _reasons(way: Way, seat: int | None, trump: Any) -> dict[str, str]:
    return {
        "bid.kawesh.not-weak": "kawesh is open only under A28 weak_hand_redeal, to a player "
        "whose five cards before the bidding are all 7s, 8s and 9s (BID.9).",
        "bid.open.not-a-call": "while the bidding is open a player may only pass, bid "
        "hokum or sun, or (third or fourth bidder) call ashkal (BID.2).",
        "bid.open.ashkal-early": "only the third and fourth bidders from the dealer's right "
        "may call ashkal (BID.6, A14).",
        "bid.open.ashkal-second-session": "under this reading of A14 ashkal is a "
        "first-session call only, and this is the second session (BID.6).",
        "bid.open.ashkal-limit": "under this reading of A25 ashkal may not be called on a "
        "face-up ace, and the face-up card is an ace (BID.6).",
        "bid.open.hokum-names-trump": "a hokum bid names no trump: the trump is the face-up "
        "card's suit, or is named by the bidder at the end of a second-session bidding "
        "(BID.3, BID.8).",
        "bid.answer.not-a-call": "after a hokum bid a player asked may only pass or say sun "
        "(or ashkal) (BID.4).",
        "bid.answer.hokum": "a hokum bid stands: it can be answered only by sun (or ashkal) "
        "or a pass, never by another hokum (BID.4).",
        "bid.answer.ashkal-early": "ashkal is for the third and fourth bidders only "
        "(BID.6), also when answering a hokum bid.",
        "bid.answer.ashkal-second-session": "under this reading of A14 ashkal is a "
        "first-session call only, and this is the second session (BID.6).",
        "bid.answer.ashkal-limit": "under this reading of A25 ashkal is refused on a "
        "face-up ace or to a player who has already passed in the session, and one of "
        "the two holds here; sun stays open (BID.6).",
        "bid.choice.not-a-call": "everyone passed on the hokum bid: its bidder may only stay "
        "with hokum or switch to sun (BID.4).",
        "bid.choice.pass-or-ashkal": "everyone passed on the hokum bid: its bidder may only "
        "stay with hokum or switch to sun, not pass or call ashkal (BID.4).",
        "bid.choice.face-up-suit": "in the second session the hokum bidder names a trump "
        "other than the face-up card's suit (BID.8).",
        "bid.choice.trump-form": "in the first session the trump is the face-up card's suit "
        "and is not named; in the second the bidder must name it (BID.3, BID.8).",
        "bid.sun.not-a-call": "after a sun bid a player asked may only pass, or take the sun "
        "bid as A2 allows (BID.5).",
        "bid.sun.hokum": "a sun bid outranks hokum: after it no hokum bid is open (BID.5).",
        "bid.sun.overcall": "under A2 earlier_seat_priority only a player bidding before the "
        "sun caller may take the sun bid over; this player bids after it (BID.5).",
        "bid.sun.ashkal-early": "the player may take the sun bid over with sun, but ashkal "
        "is for the third and fourth bidders only (BID.6).",
        "bid.sun.ashkal-limit": "the player may take the sun bid over with sun, but under "
        "this reading of A25 not with ashkal: the face-up card is an ace, or the player "
        "has already passed in the session (BID.5, BID.6).",
        "raise.not-a-raise": "in the raising the player asked may only pass or make the "
        "next raise (RAISE.1).",
        "raise.other-side": "the raises alternate: the bid winner's opponents double, the "
        "bid winner triples, the doubler makes it four, the bid winner declares gahwa "
        "(RAISE.1); this raise is the other side's.",
        "raise.not-next": "only the next raise may be made (double, then triple, four, "
        "gahwa: RAISE.1); this one skips a step or goes back.",
        "raise.form": "the double is called closed or open only under the A10 readings "
        "doubler_chooses, doubler_chooses_bidder_opens and each_raiser_chooses, in hokum, "
        "and the triple and the four only under each_raiser_chooses; under the others, in "
        "sun, and gahwa always, the raise is plain (RAISE.1, RAISE.2).",
        "play.bid-call": "the bidding is over: in the play a player declares or plays a "
        "card only.",
        "play.raise-gate-shut": "in sun the raising happens only when the bid winner's team "
        "has more than 100 and the other team fewer than 100 (A11 says whether 100 "
        "counts) (RAISE.3); it did not, so the play has begun and no raise is open.",
        "play.raise-past-sun-limit": "under this reading of A11 a sun round takes no "
        "further raise than those made, so the play has begun (RAISE.3).",
        "play.raise-after-raising": "the raising is over (a pass, or gahwa, ended it): in "
        "the play a player declares or plays a card only (RAISE.1).",
        "play.several-cards": "a player plays one card at a time (PLAY.2).",
        "over.round-over": "the eighth trick is over: nothing is played until the next deal "
        "(PLAY.4).",
        "over.redeal": "everyone passed in both sessions: the cards are dealt again, and "
        "nothing is played until then (BID.9).",
        "over.game-over": "a team has won the game (END.1): no action follows.",
        "play.not-held": f"seat {seat} does not hold that card.",
        "play.locked-lead": f"the round is locked (RAISE.2, as A10 says for these raises): "
        f"seat {seat} may not lead a hokum card while holding a card of another suit.",
        "play.revoke": "a player holding a card of the led suit must play one (PLAY.2).",
        "play.under-trump": "under this reading of A23 a player following a hokum lead "
        "plays a trump higher than every trump in the trick when holding one (PLAY.2).",
        "play.void-must-trump": "under this reading of A15 a player void in the led suit "
        f"who holds a hokum card ({trump.value if trump else '-'}) must play one "
        "(PLAY.2); the partner is not winning the trick.",
        "play.void-must-overtrump": "under this reading of A15 a player void in the led suit "
        "must over-trump an opponent's trump when able (PLAY.2); this trump does not beat "
        "the highest trump of the trick, and the player holds one that does.",
        "proj.after-first-trick": "projects are declared in the first trick only (PROJ.1).",
        "proj.third": "a player declares two projects at most (PROJ.2).",
        "proj.card-in-another": "a card counts towards one project only (PROJ.8): the "
        "player has declared a project holding a card of this one.",
        "proj.not-a-project": "these cards do not make the project named from the player's "
        "free cards (PROJ.3-6).",
    }


def is_hokum(game: Game) -> bool:
    return game.contract is not None and game.contract.kind == Mode.HOKUM
