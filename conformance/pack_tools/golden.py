"""The golden playthroughs: regression snapshots recorded from the reference
engine (`baloot conform golden`; `--check` to see whether they are current).

Like OpenSpiel's playthrough files, each golden case is a whole round (or a
whole game) from a fixed deck, with the legal set before every action and the
result after every round. The actions are chosen by a seeded random policy,
so the rounds wander into raises, projects and kaboots that hand-worked cases
might not think of. Nothing in them is worked out from the rules: they record
what the reference engine does today, so they catch an engine (or a spec
change) that starts doing something else. They are marked `origin:
regression_snapshot` and never count towards coverage.

Each case pins every reading of the profile it was recorded under
(`requires`), so it means the same under any run profile.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from ...reference_impl import new_game
from ..harness.pack import REGRESSION_SNAPSHOT, case_from_json, seated
from ..harness.protocol_notation import ALL_CARDS
from ..harness.variants import load_register
from ..protocol.reference_view import result_fields
from .case_needs import annotated, case_needs
from .pins_fix import with_minimal_requires

GOLDEN_FOLDER = "golden"
MAX_ROUNDS = 40  # a game the policy cannot finish in this many rounds is cut short


@dataclass(frozen=True)
class Recipe:
    """One golden case: a profile, a seed (deck and policy), a dealer, rounds or a game."""

    profile: str
    seed: int
    dealer: int
    game: bool = False  # a whole game to its end, else one round


RECIPES: tuple[Recipe, ...] = tuple(
    Recipe(profile, seed, seed % 4, game)
    for profile in ("literal", "federation")
    for seed, game in ((1, False), (2, False), (3, False), (4, False), (5, False), (6, True))
)


# The policy's weights by the action's first word: mostly hokum bids, some
# raises, every project declared that can be.
_WEIGHTS = {"pass": 4, "hokum": 4, "sun": 1, "ashkal": 1, "declare": 50, "play": 1}


def seeded_deck(rng: random.Random) -> list[str]:
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck


def _play_round(game: Any, rng: random.Random) -> list[Any]:
    """Steps of one round: the legal set before each action, then the action."""
    steps: list[Any] = []
    while game.current_player is not None:
        legal = game.legal_actions()
        steps.append({"expect_legal": {"player": game.current_player, "actions": legal}})
        action = rng.choices(legal, [_WEIGHTS.get(a.split(" ")[0], 1) for a in legal])[0]
        steps.append(seated(game.current_player, action))
        game.apply(action)
    steps.append({"expect_legal": {"player": None, "actions": []}})
    return steps


def record(recipe: Recipe, requires: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play the recipe on the reference engine; the golden case it gives. Its pins are
    made minimal, or are `requires` when given (a check of a file keeps the file's pins:
    `baloot conform pins` checks that those are minimal)."""
    rng = random.Random(recipe.seed)
    deck = seeded_deck(rng)
    readings = load_register().readings_of(recipe.profile)
    game = new_game(profile=recipe.profile, dealer=recipe.dealer, deck=deck)
    actions = _play_round(game, rng)
    kind = "round"
    name = f"{recipe.profile}-round-{recipe.seed}"
    title = f"Golden round, {recipe.profile} profile, seed {recipe.seed}"
    then: list[dict[str, Any]] = []
    if recipe.game:
        kind = "game"
        name = f"{recipe.profile}-game-{recipe.seed}"
        title = f"Golden game to its end, {recipe.profile} profile, seed {recipe.seed}"
        if game.round_result() is not None:
            actions.append({"expect_result": result_fields(game.round_result())})
        while game.phase != "game_over" and len(then) < MAX_ROUNDS:
            next_deck = seeded_deck(rng)
            game.deal(next_deck)
            script: dict[str, Any] = {"deck": next_deck, "actions": _play_round(game, rng)}
            if game.phase != "deal":
                script["result"] = result_fields(game.round_result())
            then.append(script)
        if not then or "result" not in then[-1]:
            raise RuntimeError(f"{name}: the game did not end in a scored round")
        expected = then[-1].pop("result")
    else:
        expected = result_fields(game.round_result())
        if expected is None:
            raise RuntimeError(f"{name}: everyone passed; pick another seed")
    case: dict[str, Any] = {
        "id": f"golden.{name}",
        "kind": kind,
        "title": title,
        "origin": REGRESSION_SNAPSHOT,
        "clauses": ["GAME.1", "GAME.2", "END.1"] if recipe.game else ["GAME.1"],
        "requires": readings,
        "setup": {"dealer": recipe.dealer, "deck": deck},
        "actions": actions,
    }
    if then:
        case["then"] = then
    case["expect"] = {
        "result": expected,
        "state": {"phase": game.phase, "totals": game.observation()["totals"]},
    }
    # the readings it depends on (minimal pins: pins_fix.py), the capabilities it needs and
    # pass-only turns as such (case_needs.py)
    register = load_register()
    if requires is None:
        case = with_minimal_requires(case, f"golden/{name}.json", register)
    else:
        case["requires"] = requires
    return annotated(case, case_needs(case_from_json(case, f"{name}.json"), register))


def golden_files(pins_from: Path | None = None) -> dict[str, dict[str, Any]]:
    """File name -> file contents, one file per recipe; with `pins_from` (a golden folder),
    each case keeps the pins of the file there."""
    files: dict[str, dict[str, Any]] = {}
    for recipe in RECIPES:
        case = record(recipe, _pins_in(pins_from, recipe) if pins_from else None)
        files[f"{case['id'].removeprefix('golden.')}.json"] = {
            "description": f"{case['title']}: every legal set and every result along the way.",
            "meta": {
                "origin": REGRESSION_SNAPSHOT,
                "note": "A regression snapshot recorded from the reference engine, not worked "
                "out from the rules. Regenerate with `baloot conform golden`.",
                "profile": recipe.profile,
                "seed": recipe.seed,
            },
            "cases": [case],
        }
    return files


def _pins_in(folder: Path, recipe: Recipe) -> dict[str, Any] | None:
    """The `requires` of the recipe's file in `folder`, if it can be read."""
    kind = "game" if recipe.game else "round"
    path = folder / f"{recipe.profile}-{kind}-{recipe.seed}.json"
    try:
        pins = json.loads(path.read_text(encoding="utf-8"))["cases"][0].get("requires", {})
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None
    return pins if isinstance(pins, dict) else None


def dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1) + "\n"


def write_golden(pack_folder: Path, *, check: bool, console: Console) -> int:
    folder = pack_folder / GOLDEN_FOLDER
    files = golden_files(pins_from=folder if check else None)
    if check:
        stale = [
            name
            for name, data in files.items()
            if not (folder / name).exists() or (folder / name).read_text() != dump(data)
        ]
        extra = sorted(
            p.name for p in folder.glob("*.json") if p.name not in files
        ) if folder.is_dir() else []
        for name in stale:
            console.print(f"stale: {GOLDEN_FOLDER}/{name}")
        for name in extra:
            console.print(f"not made by the recipes: {GOLDEN_FOLDER}/{name}")
        if stale or extra:
            console.print("run `baloot conform golden` to regenerate")
            return 1
        console.print(f"{len(files)} golden file(s) up to date")
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_text(dump(data))
    console.print(f"wrote {len(files)} golden file(s) to {folder}")
    return 0
