"""Random complete games of the reference engine, checked after every step.

`play_game` deals and plays one game to its end with random legal actions
(chosen by a `random.Random` the test hands in, so Hypothesis draws only a
seed), and checks as it goes:

- while someone is to act the legal set is never empty, and nobody is to act
  (and nothing is legal) while the game waits for a deal or is over;
- the player to act is the one the state says (the head of `asking` in the
  bidding and the raising, leader plus cards in the trick in the play), and
  every call or card the engine records is in that player's name;
- every change of a machine's state (the bidding stage) is a transition the
  spec's machine declares (`definitions.*_TRANSITIONS`);
- every legal action's text reads back as the same action;
- after each round: all 32 cards were played once each, 8 tricks of 4 cards,
  each seat playing exactly the 8 cards it was dealt; the bunts the two teams
  won plus the last-trick bonus are the total of the spec's card-value tables
  (`definitions.SUN_CARD_VALUE`, `TRUMP_CARD_VALUE`, `LAST_TRICK_BONUS`), and
  each team's bunts are those of the tricks it won; the running totals grow
  by what the round added;
- at random points, illegal actions (cards not in hand, calls out of phase,
  other raises, made-up projects, calls while nobody is to act, an early
  deal, garbled text) raise `IllegalAction` naming a generated rule and the
  clauses its docstring cites, and leave the JSON state byte-identical;
- at random points, the JSON state round-trips exactly, and play goes on from
  the restored copy.
"""

from __future__ import annotations

import inspect
import json
import random
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from hypothesis import strategies as st

from baloot.reference_impl import (
    Game,
    IllegalAction,
    bidding_rules,
    cards_rules,
    deal_rules,
    definitions,
    game_rules,
    new_game,
    play_rules,
    projects_rules,
    raises_rules,
    scoring_rules,
)
from baloot.reference_impl.definitions import Action, ActionKind, Card, Phase, Rank, Suit
from baloot.reference_impl.notation import action_text, card_text, parse_action
from baloot.reference_impl.readings import PROFILES, VARIANTS

RULE_MODULES: tuple[ModuleType, ...] = (
    bidding_rules, cards_rules, deal_rules, game_rules, play_rules, projects_rules,
    raises_rules, scoring_rules,
)
ACTING_PHASES = {Phase.BIDDING.value, Phase.RAISING.value, Phase.PLAYING.value}
WAITING_PHASES = {Phase.WAITING_DEAL.value, Phase.ROUND_OVER.value}
# A game that has not ended after this many rounds is a failure, not a long game.
MAX_ROUNDS = 300

DECK: list[Card] = [Card(rank=r, suit=s) for s in Suit for r in Rank]
DECK_TEXT: list[str] = [card_text(c) for c in DECK]


# -- the spec's machines, read from the generated definitions ----------------------------


def machines() -> dict[str, dict[tuple[Any, Any], tuple[str, ...]]]:
    """Every Game field whose type is a machine's state enum, with that machine's transitions."""
    hints = typing.get_type_hints(definitions.Game, globalns=vars(definitions))
    found: dict[str, dict[tuple[Any, Any], tuple[str, ...]]] = {}
    for name, value in vars(definitions).items():
        if not name.endswith("_TRANSITIONS") or not isinstance(value, dict) or not value:
            continue
        state_enum = type(next(iter(value))[0])
        for field_name, hint in hints.items():
            if hint is state_enum:
                found[field_name] = value
    return found


MACHINES = machines()


# -- the rules that may refuse an action, and the clauses each cites ---------------------


def _rule_clauses() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for module in RULE_MODULES:
        for name, func in inspect.getmembers(module, inspect.isfunction):
            if func.__module__ == module.__name__:
                doc = inspect.getdoc(func) or ""
                cited[name] = set(re.findall(r"^\s*([A-Z]+\.\d+):", doc, re.MULTILINE))
    return cited


RULE_CLAUSES = _rule_clauses()


def assert_names_a_rule(err: IllegalAction) -> None:
    """The refusal names a generated rule and (some of) the clauses that rule cites."""
    assert err.rule in RULE_CLAUSES, f"{err.rule!r} is not a generated rule"
    assert err.clauses, f"refusal by {err.rule} names no clause"
    assert set(err.clauses) <= RULE_CLAUSES[err.rule], (
        f"{err.rule} refused citing {err.clauses}, but it cites {sorted(RULE_CLAUSES[err.rule])}"
    )
    assert err.message


# -- the values the spec's tables give -----------------------------------------------------


def card_bunts(card: Card, trump: Suit | None) -> int:
    table: dict[Rank, int] = (definitions.TRUMP_CARD_VALUE
                              if trump is not None and card.suit == trump
                              else definitions.SUN_CARD_VALUE)
    return table[card.rank]


def deck_bunts(trump: Suit | None) -> int:
    return sum(card_bunts(c, trump) for c in DECK)


# -- profiles and overrides -------------------------------------------------------------


def setups() -> list[tuple[str, dict[str, str] | None]]:
    """Every profile alone, and every profile with every single-variant override."""
    found: list[tuple[str, dict[str, str] | None]] = []
    for profile in PROFILES:
        found.append((profile, None))
        for variant, readings in VARIANTS.items():
            for reading in readings:
                if getattr(PROFILES[profile], variant) != reading:
                    found.append((profile, {variant: reading}))
    return found


@st.composite
def setup(draw: st.DrawFn) -> tuple[str, dict[str, str] | None]:
    """A profile, and half the time one variant read otherwise than the profile reads it."""
    profile = draw(st.sampled_from(sorted(PROFILES)))
    if draw(st.booleans()):
        return profile, None
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    reading = draw(st.sampled_from(VARIANTS[variant]))
    return profile, {variant: reading}


# -- one game ----------------------------------------------------------------------------


@dataclass
class Stats:
    games: int = 0
    rounds: int = 0
    actions: int = 0
    refusals: int = 0
    round_trips: int = 0
    redeals: int = 0
    stage_changes: set[tuple[str, str]] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)


@dataclass
class Rates:
    """How often the expensive checks run, per action."""

    illegal: float = 0.05
    round_trip: float = 0.03
    text_check: float = 0.1
    checked_path: float = 0.2
    # how often a bidder passes on purpose (when passing is legal) before choosing at random:
    # more passes reach the second session, the last bidder's hokum and the redeal
    pass_bias: float = 0.0
    # how often a deal gives one player five cards all 7s, 8s and 9s (a kawesh hand, A28), so
    # that kawesh is reached at every stage of the bidding, not only by chance (1.6% of deals)
    weak_hand: float = 0.0


WEAK_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.NINE)


def random_deck(rng: random.Random, weak_hand: float = 0.0) -> list[str]:
    """A shuffled deck; with chance `weak_hand`, one block of five of the first deal (SETUP.3:
    each player in turn takes five consecutive cards) holds only 7s, 8s and 9s."""
    deck = list(DECK_TEXT)
    rng.shuffle(deck)
    if rng.random() < weak_hand:
        weak = {card_text(c) for c in DECK if c.rank in WEAK_RANKS}
        block = rng.sample(sorted(weak), definitions.FIRST_DEAL_SIZE)
        rest = [c for c in deck if c not in block]
        start = definitions.FIRST_DEAL_SIZE * rng.randrange(definitions.PLAYER_COUNT)
        deck = rest[:start] + block + rest[start:]
    return deck


def play_game(rng: random.Random, profile: str, overrides: dict[str, str] | None,
              stats: Stats, rates: Rates | None = None) -> Game:
    """Deal and play one game to its end, checking every step; returns the finished game."""
    rates = rates or Rates()
    game = new_game(profile, overrides, dealer=rng.randrange(4),
                    deck=random_deck(rng, rates.weak_hand))
    rounds = 0
    dealt_hands: list[list[Card]] | None = None
    while True:
        phase = game.phase
        if phase == Phase.GAME_OVER.value:
            check_nobody_acts(game)
            assert game.state.winner is not None
            if rng.random() < rates.illegal:
                check_refused(game, rng, stats)
            break
        if phase in WAITING_PHASES:
            check_nobody_acts(game)
            if rng.random() < rates.illegal:
                check_refused(game, rng, stats)
            if phase == Phase.WAITING_DEAL.value:
                stats.redeals += 1
            rounds += 1
            assert rounds <= MAX_ROUNDS, "the game does not end"
            game.deal(random_deck(rng, rates.weak_hand))
            dealt_hands = None
            continue
        assert phase in ACTING_PHASES, phase
        game, dealt_hands = step(game, rng, stats, rates, dealt_hands)
    stats.games += 1
    return game


def check_nobody_acts(game: Game) -> None:
    assert game.current_player is None
    assert game.legal_actions() == []
    assert game.legal_action_records() == []


def expected_player(game: Game) -> int:
    state = game.state
    seat: int = (state.asking[0] if game.phase in (Phase.BIDDING.value, Phase.RAISING.value)
                 else (state.leader + len(state.trick)) % definitions.PLAYER_COUNT)
    return seat


def step(game: Game, rng: random.Random, stats: Stats, rates: Rates,
         dealt_hands: list[list[Card]] | None) -> tuple[Game, list[list[Card]] | None]:
    """One random legal action, with the checks around it."""
    seat = game.current_player
    assert seat is not None, f"nobody to act in phase {game.phase}"
    assert seat == expected_player(game)
    records = game.legal_action_records()
    assert records, f"no legal action for seat {seat} in phase {game.phase}"
    if game.phase == Phase.PLAYING.value and dealt_hands is None:
        dealt_hands = [list(h) for h in game.state.hands]
        check_full_hands(dealt_hands)
    if rng.random() < rates.text_check:
        check_texts(game, records)
    if rng.random() < rates.illegal:
        check_refused(game, rng, stats)
    if rng.random() < rates.round_trip:
        game = round_trip(game)
        stats.round_trips += 1

    before = game.state
    action = rng.choice(records)
    if game.phase == Phase.BIDDING.value and rng.random() < rates.pass_bias:
        action = next((a for a in records if a.kind == ActionKind.PASS_TURN), action)
    stats.kinds.add(action.kind.value)
    if rng.random() < 0.5:
        game.apply(action_text(action))
    else:
        game.apply(action)
    stats.actions += 1
    after = game.state
    if rng.random() < rates.checked_path:
        check_checked_path(game, before, action)
    check_recorded_by(before, after, action, seat)
    check_machines(before, after, stats)
    if after.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and before.phase == Phase.PLAYING:
        assert dealt_hands is not None
        check_round(before, after, dealt_hands)
        stats.rounds += 1
    return game, dealt_hands


def check_checked_path(game: Game, before: Any, action: Action) -> None:
    """A listed legal action goes to `apply_legal_action`, which skips the checks: the
    rules' full `apply_action` must reach the very same state from the same one."""
    assert game_rules.apply_action(game.readings, before, action) == game.state


def check_full_hands(hands: list[list[Card]]) -> None:
    """When the play starts every seat holds 8 cards, and the four hands are the deck."""
    per_seat = definitions.FIRST_DEAL_SIZE + definitions.SECOND_DEAL_SIZE
    assert [len(h) for h in hands] == [per_seat] * definitions.PLAYER_COUNT
    assert sorted(map(card_text, (c for h in hands for c in h))) == sorted(DECK_TEXT)


def check_texts(game: Game, records: list[Action]) -> None:
    texts = game.legal_actions()
    assert texts == [action_text(a) for a in records]
    assert len(set(texts)) == len(texts), f"duplicate legal actions: {texts}"
    for text, record in zip(texts, records, strict=True):
        assert parse_action(text) == record, text


def check_recorded_by(before: Any, after: Any, action: Action, seat: int) -> None:
    """The engine records the call or the card in the name of the player who was to act."""
    if before.phase == Phase.BIDDING:
        assert len(after.bids) == len(before.bids) + 1
        assert after.bids[-1].seat == seat and after.bids[-1].action == action
    elif before.phase == Phase.RAISING:
        assert after.raises[-1].seat == seat and after.raises[-1].action == action
    elif action.kind == ActionKind.PLAY_CARD:
        plays = after.trick if after.trick else after.tricks[-1].plays
        assert plays[-1].seat == seat and plays[-1].card == action.cards[0]
        assert action.cards[0] in before.hands[seat]
        assert action.cards[0] not in after.hands[seat]
    else:
        assert action.kind == ActionKind.DECLARE_PROJECT
        mine = [p for p in after.declarations if p.seat == seat]
        assert len(mine) == len([p for p in before.declarations if p.seat == seat]) + 1
        assert set(map(card_text, mine[-1].cards)) == set(map(card_text, action.cards))


def check_machines(before: Any, after: Any, stats: Stats) -> None:
    for field_name, transitions in MACHINES.items():
        old, new = getattr(before, field_name), getattr(after, field_name)
        if old != new:
            assert (old, new) in transitions, (
                f"{field_name}: {old.value} -> {new.value} is not a transition of the spec's "
                f"machine ({', '.join(f'{a.value}->{b.value}' for a, b in transitions)})"
            )
            stats.stage_changes.add((old.value, new.value))


def check_round(before: Any, after: Any, dealt: list[list[Card]]) -> None:
    """Every card played once; the bunts add up to the spec's tables; the totals grow."""
    tricks = after.tricks
    per_seat = definitions.FIRST_DEAL_SIZE + definitions.SECOND_DEAL_SIZE
    assert len(tricks) == per_seat
    assert all(len(t.plays) == definitions.PLAYER_COUNT for t in tricks)
    assert after.trick == [] and all(h == [] for h in after.hands)
    played = [p.card for t in tricks for p in t.plays]
    assert len(played) == len(DECK) and sorted(map(card_text, played)) == sorted(DECK_TEXT)
    for seat in range(definitions.PLAYER_COUNT):
        mine = [card_text(p.card) for t in tricks for p in t.plays if p.seat == seat]
        assert sorted(mine) == sorted(map(card_text, dealt[seat]))
    leader = tricks[0].plays[0].seat
    for trick in tricks:
        seats = [p.seat for p in trick.plays]
        assert seats == [(leader + k) % definitions.PLAYER_COUNT for k in range(len(seats))]
        leader = trick.winner
    assert after.trick_winners == [t.winner for t in tricks]

    result = after.last_result
    assert result is not None
    trump = result.contract.trump
    won = [sum(card_bunts(p.card, trump) for t in tricks if t.winner % 2 == team
               for p in t.plays) for team in (0, 1)]
    assert result.card_bunts == won
    last_team = tricks[-1].winner % 2
    bonus = definitions.LAST_TRICK_BONUS
    assert result.last_trick_bunts == [bonus if t == last_team else 0 for t in (0, 1)]
    assert sum(result.card_bunts) + sum(result.last_trick_bunts) == deck_bunts(trump) + bonus
    assert result.bunts == [won[t] + result.last_trick_bunts[t] for t in (0, 1)]
    assert result.totals == [before.totals[t] + result.added[t] for t in (0, 1)]
    assert after.totals == result.totals
    assert (after.phase == Phase.GAME_OVER) == (after.winner is not None) == result.game_over


# -- refused actions ----------------------------------------------------------------------


def candidate_texts(game: Game, rng: random.Random) -> list[str]:
    """Actions of every kind, most of them illegal now."""
    suits = [s.value for s in Suit]
    simple = [k.value for k in ActionKind if k not in (ActionKind.PLAY_CARD,
                                                       ActionKind.DECLARE_PROJECT)]
    called = [f"{r} {f}" for r in ("double", "triple", "four") for f in ("closed", "open")]
    texts = simple + [f"hokum {s}" for s in suits] + called
    texts += [f"play {c}" for c in DECK_TEXT] + NEVER_LEGAL
    seat = game.current_player
    pool = [card_text(c) for c in game.state.hands[seat]] if seat is not None else DECK_TEXT
    for kind in definitions.ProjectKind:
        size = rng.randint(2, 5)
        cards = rng.sample(pool, min(size, len(pool))) if rng.random() < 0.7 else \
            rng.sample(DECK_TEXT, size)
        texts.append(" ".join(["declare", kind.value, *cards]))
    return texts


def is_legal(text: str, legal: list[Action]) -> bool:
    action = parse_action(text)
    if action.kind == ActionKind.DECLARE_PROJECT:  # a project's cards may come in any order
        cards = set(map(card_text, action.cards))
        return any(a.kind == action.kind and a.project == action.project
                   and set(map(card_text, a.cards)) == cards and len(a.cards) == len(action.cards)
                   for a in legal)
    return action in legal


# Text that is no action at all: refused by the notation, before any rule.
GARBLED = ["", "play 11S", "play 10X", "bid sun", "hokum X", "double shut", "pass pass",
           "declare 50 9H 8H 7H", "gahwa yes", "7S"]
# Text that reads as an action no rule ever allows.
NEVER_LEGAL = ["play", "declare", "sun S", "pass H", "play 10S 9S", "triple open"]


def check_refused(game: Game, rng: random.Random, stats: Stats, tries: int = 3) -> None:
    """A few actions outside the legal set are refused, naming a rule, and change nothing: the
    state stays the very same object after each refusal, and its JSON is byte-identical after
    them all (which would also catch a list changed in place)."""
    snapshot, state = game.to_json(), game.state
    legal = game.legal_action_records()
    illegal = [t for t in candidate_texts(game, rng) if not is_legal(t, legal)]
    assert illegal, "every action of every kind is legal"
    for text in rng.sample(illegal, min(tries, len(illegal))):
        as_record = rng.random() < 0.5

        def act(text: str = text, as_record: bool = as_record) -> None:
            game.apply(parse_action(text) if as_record else text)

        err = refusal(act)
        assert_names_a_rule(err)
        assert game.state is state, f"refused {text!r} changed the state"
        stats.refusals += 1
    garbled = rng.choice(GARBLED)
    err = refusal(lambda: game.apply(garbled))
    assert err.rule == "notation" and err.clauses == (), (garbled, err)
    assert game.state is state
    if game.phase not in WAITING_PHASES:  # dealing is for a finished round or a redeal
        err = refusal(lambda: game.deal(random_deck(rng)))
        assert_names_a_rule(err)
        assert game.state is state
    assert game.to_json() == snapshot, "a refused action changed the JSON state"
    stats.refusals += 1


def refusal(act: Callable[[], None]) -> IllegalAction:
    try:
        act()
    except IllegalAction as err:
        return err
    raise AssertionError("an illegal action was accepted")


# -- JSON --------------------------------------------------------------------------------


def round_trip(game: Game) -> Game:
    """The JSON state reads back to the same JSON; play goes on from the copy."""
    text = game.to_json()
    copy = Game.from_json(text)
    assert copy.to_json() == text
    assert copy.phase == game.phase and copy.current_player == game.current_player
    assert copy.legal_actions() == game.legal_actions()
    assert copy.observation() == game.observation()
    assert json.loads(json.dumps(game.observation())) == game.observation()
    return copy


def advance(rng: random.Random, profile: str, overrides: dict[str, str] | None,
            steps: int) -> Game:
    """A game after `steps` random legal actions or deals (fewer if it ends first), unchecked."""
    game = new_game(profile, overrides, dealer=rng.randrange(4), deck=random_deck(rng))
    for _ in range(steps):
        if game.phase == Phase.GAME_OVER.value:
            break
        if game.phase in WAITING_PHASES:
            game.deal(random_deck(rng))
        else:
            game.apply(rng.choice(game.legal_action_records()))
    return game
