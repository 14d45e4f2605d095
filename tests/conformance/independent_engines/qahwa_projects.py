"""qahwa's projects: what a hand offers (PROJ.3-PROJ.6, PROJ.8), and baloot (PROJ.7)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from qahwa_tables import RUN_KIND, SEQUENCE_ORDER, SUITS, rank_of, suit_of

Project = tuple[str, tuple[str, ...]]  # (kind, cards in the protocol's order)


def runs_of(cards: Iterable[str]) -> list[tuple[str, ...]]:
    """Every maximal run of three or more cards of a suit, from its top card down."""
    held = set(cards)
    found: list[tuple[str, ...]] = []
    for suit in SUITS:
        run: list[str] = []
        for rank in (*SEQUENCE_ORDER, None):
            card = f"{rank}{suit}" if rank else ""
            if card in held:
                run.append(card)
                continue
            if len(run) >= 3:
                found.append(tuple(run))
            run = []
    return found


def run_projects(run: tuple[str, ...], long_sequence: str) -> list[Project]:
    if len(run) <= 5:
        return [(RUN_KIND[len(run)], run)]
    if long_sequence == "hundred_only":
        return [("hundred", run)]
    rest = run[5:]
    top: list[Project] = [("hundred", run[:5])]
    return top + ([(RUN_KIND[len(rest)], rest)] if len(rest) >= 3 else [])


def four_kind(rank: str, mode: str, readings: Mapping[str, str]) -> str | None:
    if rank in ("10", "J", "Q", "K"):
        return "hundred"
    if rank == "A":
        return "four_hundred" if mode == "sun" else "hundred"
    if rank == "9" and readings["low_four_of_a_kind"] == "nines_hundred":
        return "hundred"
    return None


def offers(free: Iterable[str], mode: str, readings: Mapping[str, str]) -> list[Project]:
    """The projects a player's free cards make, overlapping ones side by side."""
    cards = list(free)
    found: list[Project] = []
    for run in runs_of(cards):
        found += run_projects(run, readings["long_sequence"])
    for rank in {rank_of(card) for card in cards}:
        quad = tuple(rank + suit for suit in SUITS)
        kind = four_kind(rank, mode, readings)
        if kind and all(card in cards for card in quad):
            found.append((kind, quad))
    return found


def action_text(project: Project) -> str:
    return " ".join(("declare", project[0], *project[1]))


def blocks_baloot(project: Project, pair: tuple[str, str], overlap: str) -> bool:
    """A18: does this declared project keep its holder from scoring baloot?"""
    kind, cards = project
    if overlap == "overlap_allowed":
        return False
    if overlap == "exclusive":
        return any(card in cards for card in pair)
    # hundred_cancels: a hundred holding both, or four kings, or four queens
    if kind != "hundred":
        return False
    ranks = {rank_of(card) for card in cards}
    if len(ranks) == 1:
        return ranks <= {"K", "Q"}
    return all(card in cards for card in pair)


def baloot_pair(trump: str) -> tuple[str, str]:
    return ("K" + trump, "Q" + trump)


def is_pair_card(card: str, trump: str | None) -> bool:
    return trump is not None and suit_of(card) == trump and rank_of(card) in ("K", "Q")
