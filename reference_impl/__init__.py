"""The reference Baloot engine, generated from the spec (see README.md)."""

from .runtime import (
    Game,
    SetupError,
    choose_readings,
    interpreted_only,
    is_compiled,
    new_game,
    shuffled_deck,
)
from .runtime_support import IllegalAction

__all__ = [
    "Game",
    "IllegalAction",
    "SetupError",
    "choose_readings",
    "interpreted_only",
    "is_compiled",
    "new_game",
    "shuffled_deck",
]
