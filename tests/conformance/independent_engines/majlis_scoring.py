"""Scoring a finished round (SCORE.1-SCORE.11, END.1).

Readings played: only the non-bidding team's bunts are converted, the bidding
team takes the rest of the round (A5 bidder_takes_rest); projects are points
added after conversion (A6 points_after_rounding); only the team with the best
project scores its projects, baloot always (A7 best_team_only); the bidder
succeeds when its bunts, projects weighed back in, beat the other team's
(A4 more_than_half_bunts); on failure the other team takes the maximum plus
its own projects (A8 maximum_and_own_projects); a kaboot is 44 in sun and 25
in hokum, the sweeping team's projects on top (A9 sun_44_hokum_25); when both
teams pass 152 the higher total wins and a tie plays on (A19).
"""

from __future__ import annotations

from majlis_bidding import Contract
from majlis_cards import team_of
from majlis_play import PlayRound
from majlis_projects import Project, scoring_projects

LAST_TRICK_BONUS = 10
GAME_TARGET = 152


def sun_points(bunts: int, bugs: frozenset[str] = frozenset()) -> int:
    """SCORE.7: to the nearest ten, times two, over ten; a figure ending in 5 is not rounded."""
    if bunts % 10 == 5 and "sun_fives_rounded_up" not in bugs:
        return bunts * 2 // 10
    return (bunts + 5) // 10 * 2


def hokum_points(bunts: int) -> int:
    """SCORE.8: over ten, to the nearest whole, an exact .5 dropped."""
    return bunts // 10 + (1 if bunts % 10 > 5 else 0)


class RoundScore:
    """The figures of one round, worked out once the eighth trick is closed."""

    def __init__(self, play: PlayRound, declared: list[Project], dealer: int,
                 totals: list[int], bugs: frozenset[str]) -> None:
        self.contract: Contract = play.contract
        self.mode = self.contract.kind
        self.bidder_team = team_of(self.contract.bidder)
        self.other_team = 1 - self.bidder_team
        self.bugs = bugs
        self.card_bunts = [0, 0]
        for trick in play.finished_tricks:
            self.card_bunts[team_of(trick.winner())] += trick.points()
        last_team = team_of(play.finished_tricks[-1].winner())
        if "last_trick_to_losers" in bugs:
            last_team = 1 - last_team
        self.last_trick_bunts = [LAST_TRICK_BONUS if t == last_team else 0 for t in (0, 1)]
        self.bunts = [self.card_bunts[t] + self.last_trick_bunts[t] for t in (0, 1)]
        self.projects = scoring_projects(declared, play.baloots, dealer)
        self.project_points = [sum(p.value(self.mode) for p in self.projects
                                   if team_of(p.seat) == t) for t in (0, 1)]
        winners = {team_of(s) for s in play.winners()}
        self.kaboot = winners.pop() if len(winners) == 1 else None
        self.points = self._converted()
        self.success = self._succeeded()
        self.added = self._added()
        self.totals = [totals[t] + self.added[t] for t in (0, 1)]
        self.winner = self._game_winner()

    def _convert(self, bunts: int) -> int:
        return sun_points(bunts, self.bugs) if self.mode == "sun" else hokum_points(bunts)

    def _converted(self) -> list[int]:
        whole = self._convert(sum(self.bunts))
        converted = [0, 0]
        converted[self.other_team] = self._convert(self.bunts[self.other_team])
        converted[self.bidder_team] = whole - converted[self.other_team]
        return [converted[t] + self.project_points[t] for t in (0, 1)]

    def _succeeded(self) -> bool:
        if self.kaboot is not None:
            return self.kaboot == self.bidder_team
        per_point = 5 if self.mode == "sun" else 10
        weighed = [self.bunts[t] + self.project_points[t] * per_point for t in (0, 1)]
        return weighed[self.bidder_team] > weighed[self.other_team]

    def _added(self) -> list[int]:
        if self.kaboot is not None:
            sweep = 44 if self.mode == "sun" else 25
            return [sweep + self.project_points[t] if t == self.kaboot else 0 for t in (0, 1)]
        if self.success:
            return list(self.points)
        maximum = 26 if self.mode == "sun" else 16
        return [maximum + self.project_points[t] if t == self.other_team else 0 for t in (0, 1)]

    def _game_winner(self) -> int | None:
        reached = [t for t in (0, 1) if self.totals[t] >= GAME_TARGET]
        if len(reached) == 1:
            return reached[0]
        if len(reached) == 2 and self.totals[0] != self.totals[1]:
            return 0 if self.totals[0] > self.totals[1] else 1
        return None

    def as_json(self) -> dict[str, object]:
        return {
            "contract": self.contract.as_json(),
            "multiplier": 1,
            "card_bunts": self.card_bunts,
            "last_trick_bunts": self.last_trick_bunts,
            "projects": [[p.as_json() for p in self.projects if team_of(p.seat) == t]
                         for t in (0, 1)],
            "points": self.points,
            "success": self.success,
            "kaboot": self.kaboot,
            "added": self.added,
            "totals": self.totals,
            "game_over": self.winner is not None,
            "winner": self.winner,
        }
