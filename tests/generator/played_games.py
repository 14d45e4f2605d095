"""Seeded random games on whichever reference engine is first on the path, written as
JSON lines: every listed action set, every action taken, every refusal of an illegal
action, every round's result and each game's final state, read back from its JSON.

    python tests/generator/played_games.py GAMES SEED

Two engines that print the same lines played the same games alike
(`test_compiled_engine.py` runs it on the interpreted engine and on a compiled build).
The first line says which engine ran.
"""

from __future__ import annotations

import json
import random
import sys

from baloot.reference_impl import Game, IllegalAction, is_compiled, new_game, shuffled_deck
from baloot.reference_impl.readings import PROFILES, VARIANTS

ACTING = ("bidding", "raising", "playing")
STRAY = ["play 7S", "double", "hokum", "declare sira 9H 8H 7H", "pass", "sun"]


def play(game_number: int, rng: random.Random) -> list[object]:
    """One game to its end (or 40 rounds): its lines."""
    profile = sorted(PROFILES)[game_number % len(PROFILES)]
    overrides = {}
    for name in rng.sample(sorted(VARIANTS), 3):  # a few readings off the profile
        overrides[name] = rng.choice(sorted(VARIANTS[name]))
    game = new_game(profile, overrides, dealer=rng.randrange(4),
                    deck=shuffled_deck(rng.randrange(10**6)))
    lines: list[object] = [["game", profile, overrides]]
    rounds = 0
    while game.phase != "game_over" and rounds < 40:
        if game.phase in ACTING:
            legal = game.legal_actions()
            lines.append(["legal", game.current_player, legal])
            stray = rng.choice(STRAY)
            if stray not in legal and rng.random() < 0.2:
                try:
                    game.apply(stray)
                    lines.append(["accepted", stray])
                except IllegalAction as refusal:
                    lines.append(["refused", stray, str(refusal), refusal.rule])
            action = rng.choice(legal)
            game.apply(action)
            lines.append(["took", action])
        else:
            if game.phase == "round_over":
                lines.append(["result", game.round_result()])
                rounds += 1
            game.deal(shuffled_deck(rng.randrange(10**6)))
    lines.append(["result", game.round_result()])
    text = game.to_json()
    lines.append(["final", json.loads(text), Game.from_json(text).to_json() == text])
    return lines


def main(argv: list[str]) -> int:
    games, seed = int(argv[0]), int(argv[1])
    rng = random.Random(seed)
    print(json.dumps(["engine", "compiled" if is_compiled() else "interpreted"]))
    for number in range(games):
        for line in play(number, rng):
            print(json.dumps(line, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
