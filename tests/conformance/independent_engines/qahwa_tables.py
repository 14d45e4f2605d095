"""qahwa's rule data: every rank, value, ladder and reading as a table.

The fold (qahwa_fold.py) and the scorer (qahwa_score.py) hold no numbers of
their own: they look them up here, so a reading is one row to read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

SUITS = ("S", "H", "D", "C")
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
DECK = frozenset(rank + suit for suit in SUITS for rank in RANKS)

# SETUP.6 / SETUP.7: trick strength, high to low.
TRICK_ORDER: dict[str, tuple[str, ...]] = {
    "trump": ("J", "9", "A", "10", "K", "Q", "8", "7"),
    "plain": ("A", "10", "K", "Q", "J", "9", "8", "7"),
}
# A1 natural: the order that makes a sequence, high to low.
SEQUENCE_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7")

# SCORE.3 / SCORE.4: bunts of a card.
PLAIN_BUNTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP_BUNTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
LAST_TRICK_BUNTS = 10  # SCORE.2

# SCORE.5 / SCORE.6: a project's round points (A6 points_after_rounding).
PROJECT_POINTS = {
    "sun": {"sira": 4, "fifty": 10, "hundred": 20, "four_hundred": 40},
    "hokum": {"sira": 2, "fifty": 5, "hundred": 10, "baloot": 2},
}
# A7 best_team_only: kinds from the strongest.
KIND_STRENGTH = {"four_hundred": 4, "hundred": 3, "fifty": 2, "sira": 1}
# the length of a run -> the project it is (PROJ.3-PROJ.5)
RUN_KIND = {3: "sira", 4: "fifty", 5: "hundred"}
# SCORE.10: the round's whole, given to the other team on failure
ROUND_POINTS = {"sun": 26, "hokum": 16}
# bunts to a round point: sun doubles then divides by ten (SCORE.7), hokum divides by ten
BUNTS_PER_POINT = {"sun": 5, "hokum": 10}
# SCORE.9: the half of the round's points the success tests read
HALF = {"sun": 13, "hokum": 8}

TARGET = 152  # GAME.2, END.1


def position(dealer: int, seat: int) -> int:
    """A seat's place in the bidding order, 1 (the dealer's right) to 4 (the dealer)."""
    return (seat - dealer - 1) % 4 + 1


def bidding_order(dealer: int) -> tuple[int, ...]:
    return tuple((dealer + k) % 4 for k in range(1, 5))


def rank_of(card: str) -> str:
    return card[:-1]


def suit_of(card: str) -> str:
    return card[-1]


# ---------------------------------------------------------------- conversion --

def sun_conversion(bunts: int) -> int:
    """SCORE.7: to the nearest ten, doubled, over ten; a figure ending in 5 unrounded."""
    if bunts % 10 == 5:
        return bunts * 2 // 10
    tens = (bunts + 5) // 10 * 10
    return tens * 2 // 10


def hokum_conversion(bunts: int) -> int:
    """SCORE.8: over ten, to the nearest whole, an exact half dropped."""
    return bunts // 10 + (1 if bunts % 10 > 5 else 0)


CONVERT: dict[str, Callable[[int], int]] = {"sun": sun_conversion, "hokum": hokum_conversion}


def convert_each(mode: str, bunts: tuple[int, int], bidder_team: int) -> tuple[int, int]:
    return CONVERT[mode](bunts[0]), CONVERT[mode](bunts[1])


def convert_rest(mode: str, bunts: tuple[int, int], bidder_team: int) -> tuple[int, int]:
    other = 1 - bidder_team
    theirs = CONVERT[mode](bunts[other])
    ours = ROUND_POINTS[mode] - theirs
    return (ours, theirs) if bidder_team == 0 else (theirs, ours)


def convert_adjusted(mode: str, bunts: tuple[int, int], bidder_team: int) -> tuple[int, int]:
    ours = CONVERT[mode](bunts[bidder_team])
    theirs = CONVERT[mode](bunts[1 - bidder_team])
    if ours + theirs != ROUND_POINTS[mode]:
        theirs = ROUND_POINTS[mode] - ours
    return (ours, theirs) if bidder_team == 0 else (theirs, ours)


# A5: how the pair of bunts becomes round points
ROUNDING: dict[str, Callable[[str, tuple[int, int], int], tuple[int, int]]] = {
    "each_team": convert_each,
    "bidder_takes_rest": convert_rest,
    "adjusted_to_total": convert_adjusted,
}


class Tally(NamedTuple):
    """What a success test reads: the bidding team's and the other team's figures."""

    ours_points: int
    theirs_points: int
    ours_bunts: int
    theirs_bunts: int


# A4: did the bidding team succeed (mode -> tally -> verdict)
SUCCESS: dict[str, Callable[[str, Tally], bool]] = {
    "margin_points": lambda mode, t: t.ours_points - t.theirs_points > HALF[mode],
    "more_than_half_points": lambda mode, t: t.ours_points > HALF[mode],
    "half_points_or_more": lambda mode, t: t.ours_points >= HALF[mode],
    "more_than_half_bunts": lambda mode, t: t.ours_bunts > t.theirs_bunts,
    "half_bunts_or_more": lambda mode, t: t.ours_bunts >= t.theirs_bunts,
}


class KabootRule(NamedTuple):
    sun: int
    hokum: int
    ace_doubles: bool  # 88 when the face-up card was an ace
    with_projects: bool  # the sweeping team's projects on top
    raised: bool  # the multiplier applies


# A9
KABOOT: dict[str, KabootRule] = {
    "flat_44": KabootRule(44, 44, True, False, False),
    "sun_44_hokum_25": KabootRule(44, 25, False, True, True),
    "flat_44_with_projects_and_raises": KabootRule(44, 44, True, True, True),
    "sun_44_hokum_25_nothing_added": KabootRule(44, 25, False, False, False),
    "sun_44_hokum_25_projects_unraised": KabootRule(44, 25, False, True, False),
}


class Multiplying(NamedTuple):
    projects: bool  # the multiplier reaches the projects
    baloot: bool  # ... and baloot


# A12
MULTIPLIERS: dict[str, Multiplying] = {
    "points_only": Multiplying(False, False),
    "points_and_projects": Multiplying(True, True),
    "points_and_projects_but_baloot": Multiplying(True, False),
}

# A8: whose projects the other team takes on a failure
FAILURE_PROJECTS: dict[str, tuple[str, ...]] = {
    "maximum_only": (),
    "maximum_and_all_projects": ("ours", "theirs"),
    "maximum_and_own_projects": ("theirs",),
}


# ---------------------------------------------------------------- raising --

class Rung(NamedTuple):
    """One step of the raising ladder (RAISE.1)."""

    call: str  # the raise offered beside `pass`
    asks: str  # who is asked: first_opponent, second_opponent, bidder, doubler
    after_pass: str | None  # the next rung when the seat passes (None: play begins)
    after_call: str | None  # the next rung when it raises
    multiplier: int  # the multiplier the raise sets


LADDER: dict[str, Rung] = {
    "first": Rung("double", "first_opponent", "second", "triple", 2),
    "second": Rung("double", "second_opponent", None, "triple", 2),
    "triple": Rung("triple", "bidder", None, "four", 3),
    "four": Rung("four", "doubler", None, "gahwa", 4),
    "gahwa": Rung("gahwa", "bidder", None, None, 4),
}

# A11: (the gate, the highest raise sun allows)
SUN_GATE: dict[str, tuple[Callable[[int, int], bool], str]] = {
    "gate_strict_all": (lambda own, theirs: own > 100 and theirs < 100, "gahwa"),
    "gate_inclusive_all": (lambda own, theirs: own >= 100 and theirs <= 100, "gahwa"),
    "gate_strict_no_gahwa": (lambda own, theirs: own > 100 and theirs < 100, "four"),
    "gate_strict_double_only": (lambda own, theirs: own > 100 and theirs < 100, "double"),
}
RAISE_RANK = {"double": 1, "triple": 2, "four": 3, "gahwa": 4}

# A10: (does the double have a form, is the round locked after these raises)
LockRule = Callable[[tuple[str, ...]], bool]
LOCKS: dict[str, tuple[bool, LockRule]] = {
    "double_and_four": (False, lambda calls: bool(calls) and calls[-1].split()[0]
                        in ("double", "four", "gahwa")),
    "any_raise": (False, lambda calls: bool(calls)),
    "doubler_chooses": (True, lambda calls: "double closed" in calls),
}

# ---------------------------------------------------------------- readings --

FEDERATION: Mapping[str, str] = {
    "sequence_order": "natural", "sun_overcall": "earlier_seat_priority",
    "hokum_answer": "all_others", "bidder_success": "more_than_half_bunts",
    "rounding": "bidder_takes_rest", "project_units": "points_after_rounding",
    "scoring_projects": "best_team_only", "projects_on_failure": "maximum_and_all_projects",
    "kaboot": "sun_44_hokum_25_projects_unraised",
    "locked_round": "doubler_chooses_bidder_opens",
    "sun_raises": "gate_strict_double_only", "multipliers": "points_and_projects_but_baloot",
    "gahwa": "round_decides_game", "ashkal": "third_fourth_any_session",
    "void_in_hokum": "must_trump_unless_partner_wins", "first_leader": "dealer_right",
    "long_sequence": "hundred_only", "baloot_overlap": "hundred_cancels",
    "both_reach_target": "higher_total_wins", "redeal_dealer": "next_dealer",
    "low_four_of_a_kind": "no_project", "aces_in_hokum": "hundred",
    "trump_lead": "must_overtrump_opponent", "raised_share": "winner_takes_all",
}
LITERAL: Mapping[str, str] = {
    "sequence_order": "natural", "sun_overcall": "last_caller_wins",
    "hokum_answer": "all_others", "bidder_success": "margin_points",
    "rounding": "each_team", "project_units": "bunts_before_rounding",
    "scoring_projects": "all_declared", "projects_on_failure": "maximum_only",
    "kaboot": "flat_44", "locked_round": "double_and_four",
    "sun_raises": "gate_strict_all", "multipliers": "points_only",
    "gahwa": "round_decides_game", "ashkal": "third_fourth_any_session",
    "void_in_hokum": "any_card", "first_leader": "bid_winner",
    "long_sequence": "hundred_only", "baloot_overlap": "exclusive",
    "both_reach_target": "higher_total_wins", "redeal_dealer": "same_dealer",
    "low_four_of_a_kind": "no_project", "aces_in_hokum": "hundred",
    "trump_lead": "any_trump", "raised_share": "each_keeps_share",
}
PROFILES: Mapping[str, Mapping[str, str]] = {"federation": FEDERATION, "literal": LITERAL}
