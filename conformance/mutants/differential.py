"""Seeded random play through the reference and a spec mutant: where do they differ?

Each game is dealt from a seeded deck by a seeded dealer, under a profile with
the mutant's readings pinned (and, in every other dozen games, 5 other
variants moved off the profile at random), from running totals of 0 (or, in half of the
games, from totals near the end of a game, so that its end is reached, and
both teams may reach it in one round), and
played by seeded random choices among the reference's legal actions (in one
game of three uniformly, in the others by players who bid hokum and raise, or
bid sun, and declare more often than they pass), for up to `ROUNDS` deals, so
that the next dealer, the running totals and the end of the game are reached.
Now and then, in the first round, an action the reference refuses is probed
before the action is taken: the mutant must refuse it too and keep its state.
The reference plays first and every step is noted as the protocol shows it:
the legal actions, the state and the result of the last round. The mutant then
plays the same actions; the first step where its legal set, state or result
differs in the protocol's normal form (an order the protocol leaves free is no
difference), where it refuses or fails on an action the reference took, or where
it takes (or is changed by) an action the reference refused, is a difference:
a `Witness`, from which a case is written (`synthesis.py`).

After the random games, more start where the pack's own cases start, and from
the designed deals (`designed_deals.py`) (`Setup`: a dealer, deck, running totals
and pinned readings, those citing the mutant's clauses first, then those pinning
readings, at most `SEEDED_GAMES` starts), and are played on at random the same
way: a deal a case was written for (four aces in one hand, a sweep, totals at the
gate) is rare in random deals, and the play from it reaches the rules its case
stops short of. A designed deal plays its opening actions first (the bidding and
the raise that lead where it is for), and as many games as it says. A mutant the pack
kills by one case only first plays that case turned a seat (`turned_setup`: the same
round, each hand and action at the next seat, the other team's), where a second case
is most likely found.

No difference in the games played makes a mutant "probably equivalent", which
excuses nothing (`equivalence.py` proves or does not). A game where the mutant
answers every call of its rules as the reference did (`call_traces.py`) cannot
differ, and is not replayed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...reference_impl import IllegalAction, new_game, shuffled_deck
from ..harness.pack import Case
from ..harness.protocol_notation import illegal_candidates
from ..harness.variants import load_register
from ..pack_tools.boundary_probe import CaseStopped, play_steps
from ..protocol.normal_form import normal_legal, normal_result, normal_state
from ..protocol.reference_view import result_fields, state_fields
from .call_traces import Screen
from .live import LiveSpec
from .operators import SpecMutant

MAX_STEPS = 600  # actions and deals of one game, at most
ROUNDS = 4  # deals of one game, at most (the first included)
PROBE_CHANCE = 0.25  # of a step of the first round probing an action the reference refuses
SEEDED_GAMES = 12  # games of a survivor started from the pack's cases, after the random ones
TURNED_GAMES = 3  # games played from a killing case turned a seat (`turned_setup`)


@dataclass(frozen=True)
class Setup:
    """Where a case of the pack starts: its dealer, deck, running totals, the reading it
    pins for each variant, and its clauses."""

    dealer: int
    deck: tuple[str, ...]
    totals: tuple[int, ...] | None
    pins: tuple[tuple[str, str], ...]
    clauses: frozenset[str]
    cases: frozenset[str] = frozenset()  # the ids of the cases that start here
    opening: tuple[str, ...] = ()  # actions played first, before the random ones
    games: int = 1  # seeded games played from here
    deal: str | None = None  # the designed deal's name (`designed_deals.py`), if one
    turned_from: str | None = None  # the case it turns a seat (`turned_setup`), if one


def setups_of(cases: Iterable[Case]) -> list[Setup]:
    """The distinct starts of the cases, in pack order."""
    found: dict[tuple[Any, ...], Setup] = {}
    for case in cases:
        setup = Setup(case.dealer, tuple(case.deck),
                      None if case.totals is None else tuple(case.totals),
                      tuple(sorted(case.requires.items())), frozenset(case.clauses),
                      frozenset({case.id}))
        key = (setup.dealer, setup.deck, setup.totals, setup.pins)
        if key in found:
            found[key] = Setup(setup.dealer, setup.deck, setup.totals, setup.pins,
                               found[key].clauses | setup.clauses,
                               found[key].cases | setup.cases)
        else:
            found[key] = setup
    return list(found.values())


class _Recording:
    """A reference game that notes every action applied to it."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.actions: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply(self, action: str) -> None:
        self.game.apply(action)
        self.actions.append(action)


def turned_setup(case: Case) -> Setup | None:
    """A case's start turned one seat counterclockwise: the next dealer and the same deck,
    so that every hand, call and card goes to the next seat (SETUP.4, BID.2: the deal and
    the bidding start from the dealer's right), the two teams' totals swapped, and the
    actions its script took on the reference (under its pins) as the opening. The same
    round, played by the other team: a rule that a case reaches only for one team or one
    seat is reached for the other. None for a case of more than one round, or whose script
    the reference does not play through."""
    if case.then:
        return None
    try:
        game = _Recording(new_game(profile="literal", overrides=dict(case.requires) or None,
                                   dealer=case.dealer, deck=case.deck, totals=case.totals))
        play_steps(game, case.actions)
    except (IllegalAction, ValueError, CaseStopped):
        return None
    totals = None if case.totals is None else (case.totals[1], case.totals[0])
    return Setup((case.dealer + 1) % 4, tuple(case.deck), totals,
                 tuple(sorted(case.requires.items())), frozenset(case.clauses),
                 opening=tuple(game.actions), games=TURNED_GAMES, turned_from=case.id)


def seeded_setups(setups: Sequence[Setup], mutant: SpecMutant,
                  avoid: frozenset[str] = frozenset()) -> list[Setup]:
    """The starts a survivor's seeded games play: those whose pins agree with the mutant's,
    citing its clauses first, then those pinning a reading, at most `SEEDED_GAMES`; none
    where a case of `avoid` starts (the cases that already kill it)."""
    wanted = mutant.pins()
    agreeing = [s for s in setups if not s.cases & avoid
                and all(wanted.get(variant, reading) == reading for variant, reading in s.pins)]
    cited = set(mutant.clauses)
    ranked = sorted(range(len(agreeing)), key=lambda i: (
        0 if agreeing[i].clauses & cited else 1, 0 if agreeing[i].pins else 1, i))
    return [agreeing[i] for i in ranked[:SEEDED_GAMES]]


@dataclass
class Step:
    """What the engine showed before an action, and the action taken."""

    seat: int | None
    legal: list[str]
    state: dict[str, Any]
    result: dict[str, Any] | None
    action: str | None  # None: a deal (the next round's deck is `deck`)
    deck: list[str] | None = None
    probe: str | None = None  # an action the reference refused here, before `action`


@dataclass
class Witness:
    """A game where the mutant and the reference part ways."""

    mutant: str
    profile: str
    overrides: dict[str, str]
    dealer: int
    deck: list[str]
    steps: list[Step]  # the steps played before the difference (actions and deals)
    at: Step  # the reference's step where the mutant differs
    after: Step | None  # the reference's next step, if any
    # legal, state, result, seat, apply (an action refused), crash, accepts (the probe
    # taken) or changed (the probe refused, the state changed)
    what: str
    expected: Any
    actual: Any
    totals: list[int] | None = None  # the running totals the game started from
    deal: str | None = None  # the designed deal the game started from, if one


@dataclass
class _Game:
    profile: str
    overrides: dict[str, str]
    dealer: int
    deck: list[str]
    later_decks: list[list[str]]  # the decks of the deals after the first
    totals: list[int] | None = None
    opening: tuple[str, ...] = ()  # the first actions, taken as they are
    deal: str | None = None  # the designed deal it starts from, if one


def _record(game: Any) -> tuple[int | None, list[str], dict[str, Any], dict[str, Any] | None]:
    """What the protocol shows of the game: the player to act, the legal actions, the state
    and the last result, written as the reference adapter writes them."""
    return (game.current_player, game.legal_actions(), state_fields(game.observation()),
            result_fields(game.round_result()))


def _pick(legal: list[str], rng: random.Random, style: int) -> str:
    """A random legal action. Style 0 picks uniformly; style 1 bids hokum, never sun or
    ashkal, and raises, declares and calls more than it passes (the raises of a sun round
    are gated); style 2 bids sun and declares; so the rarer paths of the rules are
    played."""
    if style == 0:
        return legal[int(rng.random() * len(legal))]

    def weight(action: str) -> int:
        if action == "pass" or action.startswith("play "):
            return 1
        if action.startswith(("sun", "ashkal")):
            return 0 if style == 1 else 4
        if action.startswith("hokum"):
            return 4 if style == 1 else 1
        return 4

    weights = [weight(a) for a in legal]
    return rng.choices(legal, weights)[0] if any(weights) else legal[0]


def _play_reference(g: _Game, rng: random.Random, style: int = 0) -> list[Step]:
    game = new_game(profile=g.profile, overrides=g.overrides, dealer=g.dealer, deck=g.deck,
                    totals=g.totals)
    steps: list[Step] = []
    decks = list(g.later_decks)
    for _ in range(MAX_STEPS):
        seat, legal, state, result = _record(game)
        if not legal:
            if game.phase in ("round_over", "deal") and decks:
                deck = decks.pop(0)
                steps.append(Step(seat, legal, state, result, None, deck))
                game.deal(deck)
                continue
            steps.append(Step(seat, legal, state, result, None))
            break
        probe = None
        if len(decks) == len(g.later_decks) and rng.random() < PROBE_CHANCE:
            probe = _probe(game, state, legal, rng)
        opening = len(steps) < len(g.opening)
        action = g.opening[len(steps)] if opening else _pick(legal, rng, style)
        steps.append(Step(seat, legal, state, result, action, probe=probe))
        game.apply(action)
    return steps


def _probe(game: Any, state: dict[str, Any], legal: list[str], rng: random.Random
           ) -> str | None:
    """An action the reference refuses here (it is tried, and leaves the game as it was),
    or None when the phase offers none."""
    candidates = illegal_candidates(str(state.get("phase")), state, legal)
    if not candidates:
        return None
    seat, hands = state.get("current_player"), state.get("hands") or []
    held = hands[seat] if isinstance(seat, int) and seat < len(hands) else []
    # a card the player holds but may not play says most (a duty to follow, to trump, a
    # locked lead); a card not held, a call out of place, now and then
    of_hand = [a for a in candidates if a.removeprefix("play ") in held]
    if of_hand and rng.random() < 0.75:
        candidates = of_hand
    action = candidates[int(rng.random() * len(candidates))]
    try:
        game.apply(action)
    except IllegalAction:
        return action
    raise RuntimeError(f"the reference took {action!r}, which its legal set leaves out")


def _replay(g: _Game, steps: list[Step]) -> tuple[int, str, Any, Any] | None:
    """(step index, what, expected, actual) of the first difference, or None."""
    game = new_game(profile=g.profile, overrides=g.overrides, dealer=g.dealer, deck=g.deck,
                    totals=g.totals)
    for index, step in enumerate(steps):
        try:
            found = _step_differs(game, step)
        except Exception as exc:  # the mutant fails where the reference went on
            return index, "crash", "no failure", f"{type(exc).__name__}: {exc}"
        if found is not None:
            return (index, *found)
        if step.action is None and step.deck is None:
            return None
    return None


def _step_differs(game: Any, step: Step) -> tuple[str, Any, Any] | None:
    seat, legal, state, result = _record(game)
    for what, want, got in (("legal", step.legal, legal), ("state", step.state, state),
                            ("result", step.result, result), ("seat", step.seat, seat)):
        if want != got and _normal(what, want) != _normal(what, got):
            return what, want, got
    if step.probe is not None:
        try:
            game.apply(step.probe)
        except IllegalAction:
            after = _record(game)
            if after != (seat, legal, state, result):
                return "changed", step.state, after[2]
        else:
            return "accepts", f"{step.probe} refused", f"{step.probe} taken"
    if step.action is None:
        if step.deck is not None:
            game.deal(step.deck)
        return None
    try:
        game.apply(step.action)
    except IllegalAction as refusal:
        return "apply", step.action, f"refused: {refusal}"
    return None


def _normal(what: str, value: Any) -> Any:
    """A reply in the protocol's normal form: an order it leaves free (a legal set's, a
    hand's, a declaration's cards) is no difference an engine could be failed for."""
    if value is None or what == "seat":
        return value
    if what == "legal":
        return normal_legal({"actions": value})["actions"]
    return normal_state(value) if what == "state" else normal_result(value)


MOVES = 5  # variants moved off the profile in a game of other readings


def _moved_readings(number: int, profile: str, rng: random.Random) -> dict[str, str]:
    """Readings that game `number` plays off its profile: none in the first 12 games of
    every 24; in the others, `MOVES` variants moved off it as `conform applicability`
    draws its reading sets, so that a change reached only under readings no profile plays
    is reached."""
    if (number // 12) % 2 == 0:
        return {}
    return load_register().moved_off(profile, MOVES, rng)


def _starting_totals(number: int, rng: random.Random) -> list[int] | None:
    """The running totals game `number` starts from: none (0 each) in every other group of
    three games (one of each style); else near the end of a game, and in every other such
    group so near that both teams may reach 152 in one round (A19)."""
    group = number // 3
    if group % 2 == 0:
        return None
    low = 80 if group % 4 == 1 else 132
    return [rng.randrange(low, 152), rng.randrange(low, 152)]


def _games(mutant: SpecMutant, profiles: tuple[str, ...], games: int, rng: random.Random,
           setups: Sequence[Setup], avoid: frozenset[str], off_profile: bool,
           readings: dict[str, str], first: Sequence[Setup] = ()
           ) -> Iterable[tuple[int, _Game]]:
    """(style, game) of the `games` random games (some off the profile, when
    `off_profile`), then of the games seeded from `first`, then from `setups`."""
    for number in range(games):
        profile = profiles[number % len(profiles)]
        dealer, deck = rng.randrange(4), shuffled_deck(rng.randrange(10**9))
        later = [shuffled_deck(rng.randrange(10**9)) for _ in range(ROUNDS - 1)]
        totals = _starting_totals(number, rng)
        moved = _moved_readings(number, profile, rng) if off_profile else {}
        yield number % 3, _Game(profile, {**moved, **readings, **mutant.pins()}, dealer, deck,
                                later, totals)
    if games <= 0:
        return
    number = 0
    for setup in [*first, *seeded_setups(setups, mutant, avoid)]:
        for _ in range(setup.games):
            later = [shuffled_deck(rng.randrange(10**9)) for _ in range(ROUNDS - 1)]
            yield number % 3, _Game(profiles[number % len(profiles)],
                                    {**dict(setup.pins), **mutant.pins()}, setup.dealer,
                                    list(setup.deck), later,
                                    None if setup.totals is None else list(setup.totals),
                                    setup.opening, setup.deal)
            number += 1


def find_witness(live: LiveSpec, mutant: SpecMutant, profiles: tuple[str, ...],
                 games: int = 24, seed: int = 0, setups: Sequence[Setup] = (),
                 avoid: frozenset[str] = frozenset(), off_profile: bool = True,
                 readings: dict[str, str] | None = None, screening: bool = True,
                 first: Sequence[Setup] = ()) -> Witness | None:
    """The first difference found in `games` seeded games (and those started from
    `setups`, except where a case of `avoid` starts), or None. With `off_profile` false,
    every game plays its profile's readings, with `readings` on top (and the mutant's
    own): a mutant the pack already kills under a profile, whose second killing case is
    sought there, under the readings its killing case pins, first from `first` (its
    killing cases turned a seat). With `screening`, a game where
    the mutant answers every call of its rules as the reference did is not replayed."""
    rng = random.Random(f"{seed}:{mutant.id}")
    screen = Screen(live)
    screened = screening and screen.screenable(mutant)
    for style, g in _games(mutant, profiles, games, rng, setups, avoid, off_profile,
                           readings or {}, first):
        choices = random.Random(rng.randrange(10**9))
        if screened:
            played = _screened_game(screen, mutant, g, choices, style)
            if played is None:
                continue
            steps, found = played
        else:
            try:
                steps = _play_reference(g, choices, style=style)
            except (IllegalAction, ValueError):
                continue  # a pinned reading the setup cannot start from: no game to compare
            with live.playing(mutant):
                found = _replay(g, steps)
        if found is not None:
            index, what, expected, actual = found
            after = steps[index + 1] if index + 1 < len(steps) else None
            return Witness(mutant.id, g.profile, dict(g.overrides), g.dealer, g.deck,
                           steps[:index], steps[index], after, what, expected, actual,
                           None if g.totals is None else list(g.totals), g.deal)
    return None


def _screened_game(screen: Screen, mutant: SpecMutant, g: _Game, choices: random.Random,
                   style: int) -> tuple[list[Step], tuple[int, str, Any, Any] | None] | None:
    """The reference's game and the mutant's first difference from it, or None when there
    is no game (a pinned reading the setup cannot start from) or the mutant answers every
    call of its rules in it as the reference did (`call_traces.py`: it plays the game
    call for call as the reference does, and is not replayed)."""
    with screen.switched(mutant) as switch:
        calls = switch.trace()
        try:
            steps = _play_reference(g, choices, style=style)
        except (IllegalAction, ValueError):
            return None
        with switch.mutant():
            if Screen.agrees(calls, switch):
                return None
            return steps, _replay(g, steps)
