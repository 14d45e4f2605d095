"""Projects found in a hand (PROJ.3-PROJ.8), and which of them score (A7).

The engine has no declaration step: at the start of the play it looks at each
player's eight cards and takes the best set of at most two projects that share
no card (PROJ.2, PROJ.8), as a player declaring everything they hold would.
Sequences run in the natural order A K Q J 10 9 8 7 (A1 natural); a run longer
than five is one hundred (A17 hundred_only); four 10s, jacks, queens or kings
are a hundred, four aces a hundred in hokum and four hundred in sun (A22
hundred); four 9s, 8s or 7s are nothing (A21 no_project).
"""

from __future__ import annotations

from dataclasses import dataclass

from majlis_cards import NATURAL_LOW_TO_HIGH, SUITS, Card, team_of, turn_order

KIND_STANDING = {"sira": 1, "fifty": 2, "hundred": 3, "four_hundred": 4}
SUN_VALUES = {"sira": 4, "fifty": 10, "hundred": 20, "four_hundred": 40, "baloot": 0}
HOKUM_VALUES = {"sira": 2, "fifty": 5, "hundred": 10, "four_hundred": 20, "baloot": 2}
MOST_PER_PLAYER = 2


@dataclass(frozen=True)
class Project:
    seat: int
    kind: str
    cards: tuple[Card, ...]  # a run from its highest card down; four of a kind in S H D C

    def value(self, mode: str) -> int:
        return (SUN_VALUES if mode == "sun" else HOKUM_VALUES)[self.kind]

    def top_height(self) -> int:
        return max(card.natural_height() for card in self.cards)

    def as_json(self) -> dict[str, object]:
        return {"seat": self.seat, "kind": self.kind, "cards": [str(c) for c in self.cards]}


class HandSearch:
    """The projects one player's cards make, and the best set a player would declare."""

    def __init__(self, seat: int, hand: list[Card], mode: str) -> None:
        self.seat = seat
        self.hand = list(hand)
        self.mode = mode

    def candidates(self, cards: list[Card]) -> list[Project]:
        return self._runs(cards) + self._fours(cards)

    def _runs(self, cards: list[Card]) -> list[Project]:
        found: list[Project] = []
        for suit in SUITS:
            heights = sorted({c.natural_height() for c in cards if c.suit == suit}, reverse=True)
            run: list[int] = []
            for height in [*heights, -10]:
                if run and height == run[-1] - 1:
                    run.append(height)
                    continue
                if len(run) >= 3:
                    found.append(self._run_project(suit, run))
                run = [height]
        return found

    def _run_project(self, suit: str, heights: list[int]) -> Project:
        kind = {3: "sira", 4: "fifty"}.get(len(heights), "hundred")
        cards = tuple(Card(NATURAL_LOW_TO_HIGH[h], suit) for h in heights)
        return Project(self.seat, kind, cards)

    def _fours(self, cards: list[Card]) -> list[Project]:
        found: list[Project] = []
        for rank in ("10", "J", "Q", "K", "A"):
            four = tuple(Card(rank, suit) for suit in SUITS)
            if all(card in cards for card in four):
                found.append(Project(self.seat, self._four_kind(rank), four))
        return found

    def _four_kind(self, rank: str) -> str:
        if rank == "A" and self.mode == "sun":
            return "four_hundred"
        return "hundred"

    def best_declaration(self) -> list[Project]:
        """The most valuable set of at most two projects sharing no card."""
        options: list[list[Project]] = [[]]
        for first in self.candidates(self.hand):
            options.append([first])
            rest = [c for c in self.hand if c not in first.cards]
            options.extend([first, second] for second in self.candidates(rest))
        return max(options, key=self._worth)

    def _worth(self, projects: list[Project]) -> tuple[int, int, int]:
        total = sum(p.value(self.mode) for p in projects)
        standing = max((KIND_STANDING[p.kind] * 10 + p.top_height() for p in projects), default=0)
        return (total, standing, -len(projects))


def declared_projects(hands: list[list[Card]], mode: str) -> list[Project]:
    found: list[Project] = []
    for seat, hand in enumerate(hands):
        found.extend(HandSearch(seat, hand, mode).best_declaration())
    return found


def project_standing(project: Project, dealer: int) -> tuple[int, int, int]:
    """A7 best_team_only: by kind, then by top card, then by seat from the dealer's right."""
    seat_priority = 3 - turn_order(dealer).index(project.seat)
    return (KIND_STANDING[project.kind], project.top_height(), seat_priority)


def scoring_projects(declared: list[Project], baloots: list[Project], dealer: int) -> list[Project]:
    """Only the team holding the single best project scores, all of its projects;
    baloot always scores for its holder (A7 best_team_only)."""
    if not declared:
        return list(baloots)
    best = max(declared, key=lambda p: project_standing(p, dealer))
    winners = team_of(best.seat)
    return [p for p in declared if team_of(p.seat) == winners] + list(baloots)

