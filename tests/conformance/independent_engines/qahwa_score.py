"""qahwa's scorer: the eighth trick's snapshot -> the round's result (SCORE.*, END.*)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from qahwa_state import Declared, Table
from qahwa_tables import (
    BUNTS_PER_POINT,
    FAILURE_PROJECTS,
    KABOOT,
    KIND_STRENGTH,
    LAST_TRICK_BUNTS,
    MULTIPLIERS,
    PLAIN_BUNTS,
    PROJECT_POINTS,
    ROUND_POINTS,
    ROUNDING,
    SEQUENCE_ORDER,
    SUCCESS,
    TARGET,
    TRUMP_BUNTS,
    Tally,
    position,
    rank_of,
    suit_of,
)

Pair = tuple[int, int]


def bunts(card: str, trump: str | None) -> int:
    table = TRUMP_BUNTS if suit_of(card) == trump else PLAIN_BUNTS
    return table[rank_of(card)]


def scoring_projects(t: Table) -> list[Declared]:
    """A7: the declared projects that count, and every baloot."""
    baloots = [d for d in t.declarations if d[1] == "baloot"]
    others = [d for d in t.declarations if d[1] != "baloot"]
    if t.readings["scoring_projects"] == "all_declared" or not others:
        return others + baloots

    def strength(d: Declared) -> tuple[int, int, int]:
        seat, kind, cards = d
        top = min(SEQUENCE_ORDER.index(rank_of(card)) for card in cards)
        return (KIND_STRENGTH[kind], -top, -position(t.dealer, seat))

    best_team = max(others, key=strength)[0] % 2
    return [d for d in others if d[0] % 2 == best_team] + baloots


def pair(values: list[int]) -> Pair:
    return values[0], values[1]


def finish_round(t: Table) -> Table:
    mode, trump, bidder = t.contract or ("sun", None, 0)
    ours, theirs = bidder % 2, 1 - bidder % 2
    card = [0, 0]
    for won, plays in t.tricks:
        card[won % 2] += sum(bunts(c, trump) for _, c in plays)
    last = [0, 0]
    last[t.tricks[-1][0] % 2] = LAST_TRICK_BUNTS
    counted = scoring_projects(t)
    values = PROJECT_POINTS[mode]
    proj = [0, 0]
    balo = [0, 0]
    for seat, kind, _ in counted:
        if kind == "baloot":
            balo[seat % 2] += values[kind]
        else:
            proj[seat % 2] += values[kind]
    total_bunts = pair([card[k] + last[k] for k in (0, 1)])
    converted = ROUNDING[t.readings["rounding"]](mode, total_bunts, ours)
    points = [converted[k] + proj[k] + balo[k] for k in (0, 1)]
    per_point = BUNTS_PER_POINT[mode]
    with_projects = [total_bunts[k] + (proj[k] + balo[k]) * per_point for k in (0, 1)]
    tally = Tally(points[ours], points[theirs], with_projects[ours], with_projects[theirs])

    sweeps = {won % 2 for won, _ in t.tricks}
    kaboot = sweeps.pop() if len(sweeps) == 1 else None
    m = t.multiplier
    mul = MULTIPLIERS[t.readings["multipliers"]]

    def scaled(base: int, projects: int, baloot: int, raised: bool = True) -> int:
        k = m if raised else 1
        return (base * k + projects * (k if mul.projects else 1)
                + baloot * (k if mul.baloot else 1))

    added = [0, 0]
    if kaboot is not None:  # SCORE.11, A9
        success = kaboot == ours
        rule = KABOOT[t.readings["kaboot"]]
        amount = rule.sun if mode == "sun" else rule.hokum
        if rule.ace_doubles and rank_of(t.deck[20]) == "A":
            amount *= 2
        if rule.with_projects:
            added[kaboot] = scaled(amount, proj[kaboot], balo[kaboot], rule.raised)
        else:
            added[kaboot] = amount * (m if rule.raised else 1)
    else:
        success = SUCCESS[t.readings["bidder_success"]](mode, tally)
        if success:  # SCORE.9, RAISE.1 (A12, A24)
            added = [scaled(converted[k], proj[k], balo[k]) for k in (0, 1)]
            if m > 1 and t.readings["raised_share"] == "winner_takes_all":
                added = [0, 0]
                added[ours] = sum(scaled(converted[k], proj[k], balo[k]) for k in (0, 1))
        else:  # SCORE.10, A8
            side = {"ours": ours, "theirs": theirs}
            given = [side[w] for w in FAILURE_PROJECTS[t.readings["projects_on_failure"]]]
            added[theirs] = scaled(ROUND_POINTS[mode], sum(proj[k] for k in given),
                                   sum(balo[k] for k in given))
    totals = pair([t.totals[k] + added[k] for k in (0, 1)])
    winner = game_winner(t, totals, ours)
    result: dict[str, Any] = {
        "contract": {"kind": mode, "trump": trump, "bidder": bidder, "ashkal": False},
        "multiplier": m,
        "card_bunts": card,
        "last_trick_bunts": last,
        "projects": [[{"seat": s, "kind": kind, "cards": list(cards)}
                      for s, kind, cards in counted if s % 2 == team] for team in (0, 1)],
        "points": points,
        "success": success,
        "kaboot": kaboot,
        "added": added,
        "totals": list(totals),
        "game_over": winner is not None,
        "winner": winner,
    }
    phase = "round_over" if winner is None else "game_over"
    return replace(t, phase=phase, to_act=None, totals=totals, result=result, winner=winner)


def game_winner(t: Table, totals: Pair, bidder_team: int) -> int | None:
    """END.1, A19."""
    over = [k for k in (0, 1) if totals[k] >= TARGET]
    if len(over) == 1:
        return over[0]
    if not over:
        return None
    if t.readings["both_reach_target"] == "bidder_team_wins":
        return bidder_team
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1
