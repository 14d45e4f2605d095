"""qahwa's snapshot of a game: one immutable record, made anew by every event."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Seated = tuple[int, str]  # (seat, action or card)
Declared = tuple[int, str, tuple[str, ...]]  # (seat, kind, cards)


@dataclass(frozen=True)
class Table:
    readings: Mapping[str, str]
    dealer: int
    deck: tuple[str, ...]
    totals: tuple[int, int]
    hands: tuple[tuple[str, ...], ...]
    phase: str = "bidding"
    to_act: int | None = None
    bids: tuple[Seated, ...] = ()
    session: int = 1
    stage: str = "open"  # open, hokum_answer, sun_answer, final
    queue: tuple[int, ...] = ()
    holder: int | None = None
    contract: tuple[str, str | None, int] | None = None  # kind, trump, bidder
    rung: str | None = None
    doubler: int | None = None
    raises: tuple[Seated, ...] = ()
    multiplier: int = 1
    declarations: tuple[Declared, ...] = ()
    trick: tuple[Seated, ...] = ()
    tricks: tuple[tuple[int, tuple[Seated, ...]], ...] = ()  # (winner, plays)
    played: tuple[Seated, ...] = ()
    result: Mapping[str, Any] | None = None
    winner: int | None = None

    @property
    def mode(self) -> str:
        return self.contract[0] if self.contract else "sun"

    @property
    def trump(self) -> str | None:
        return self.contract[1] if self.contract else None

    @property
    def bidder(self) -> int:
        assert self.contract is not None
        return self.contract[2]
