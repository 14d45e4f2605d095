"""qahwa's planted rule breaks, for checking that the conformance suite catches them.

Most rules are tables (qahwa_tables.py), so most breaks are a table row
changed at start-up; the others are read where the rule is, through `active`.
"""

from __future__ import annotations

import qahwa_tables

BUGS = {
    "trump_nine_under_ace": "SETUP.6: in the hokum suit the nine ranks below the ace",
    "hokum_half_rounded_up": "SCORE.8: an exact half in the hokum conversion is rounded up",
    "second_session_face_suit": "BID.8: the second session's hokum may name the face-up suit",
    "void_may_undertrump": "PLAY.2 (A15): a void player may trump under an opponent's trump",
    "sun_gate_at_100": "RAISE.3 (A11): a sun bidder's team at exactly 100 may already raise",
}
ACTIVE: set[str] = set()


def active(name: str) -> bool:
    return name in ACTIVE


def plant(bugs: frozenset[str]) -> None:
    ACTIVE.update(bugs)
    tables = qahwa_tables
    if "trump_nine_under_ace" in bugs:
        tables.TRICK_ORDER["trump"] = ("J", "A", "9", "10", "K", "Q", "8", "7")
    if "hokum_half_rounded_up" in bugs:
        tables.CONVERT["hokum"] = lambda bunts: (bunts + 5) // 10
    if "sun_gate_at_100" in bugs:
        for name, (_, top) in list(tables.SUN_GATE.items()):
            if name.startswith("gate_strict"):
                tables.SUN_GATE[name] = (lambda own, theirs: own >= 100 and theirs < 100, top)
