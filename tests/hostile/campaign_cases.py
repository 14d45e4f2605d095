"""Mutated case files and pack manifests through the pack reader, the linter and the
runner: our error or success, never another exception, never a hang.

    python tests/hostile/campaign_cases.py --count 2000 [--seed S]

Each input is a pack of one case file holding a case of the built-in pack, mutated as
data (a value replaced by another type, NaN, 1e400, 1.0, a deep list, control
characters or a lone surrogate; a field deleted or added; a list element doubled) or as
bytes (NaN written out, the text cut short, bytes that are no UTF-8, a byte-order mark),
and sometimes its `pack.json` too. The pack is linted; a case that lints clean is run on
the in-process reference engine, and the JSON and JUnit reports are written and read
back. The outcome is a list of problems each naming its file, a case verdict, or a
report: never an exception.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from campaign_common import (
    OURS,
    SUCCESS,
    Misplaced,
    Tally,
    attempt,
    check_reports,
    finish,
    json_paths,
    make_parser,
)

from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import default_pack_folder
from baloot.conformance.harness.runner import PASSED, Runner
from baloot.conformance.harness.variants import load_register

REGISTER = load_register()
MANIFEST = {"name": "hostile", "version": "1.0.0", "protocol": 1}


def _pack_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    folder = default_pack_folder()
    for path in sorted(folder.rglob("*.json")):
        if path.parent == folder and path.name in ("pack.json", "spec-register.json"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        cases += [c for c in data.get("cases", []) if len(json.dumps(c)) < 6000]
    return cases


CASES = _pack_cases()
HOSTILE_VALUES: list[Any] = [
    None, True, False, 0, -1, 1.0, 2.5, 4, 9, 10**30, "", "x", "\x1b[31m\x00", "[/bold]",
    "\u2028", [], {}, [[[[[[]]]]]], "0: pass", "9: play 7S", "play 11S", "7S", ["7S"] * 40,
    {"repeat": "pass", "while_phase": "raising", "max": 10**9},
    {"if_asked": "x"}, {"expect_state": None}, {"expect_legal": {"player": "0"}},
]
# written into the text in place of a JSON value: not JSON, or numbers no double holds
TEXT_VALUES = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", '"\\ud800"', "9" * 5000,
               "[" * 3000 + "]" * 3000, "1.0", "true"]


def _mutate_data(rng: random.Random, data: Any) -> Any:
    for _ in range(rng.choice([1, 1, 2, 3])):
        paths = json_paths(data)
        path = rng.choice(paths)
        if not path:
            data = rng.choice([data, [data], None, "cases"])
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = rng.random()
        if how < 0.55:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE_VALUES))
        elif how < 0.75:
            del parent[key]
        elif how < 0.85 and isinstance(parent, dict):
            parent[rng.choice(["extra", "id", "kind", "requires", "then", "setup"])] = (
                copy.deepcopy(rng.choice(HOSTILE_VALUES)))
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[key] = [parent[key]]
    return data


def _mutate_text(rng: random.Random, text: str) -> bytes:
    how = rng.random()
    spots = [i for i, ch in enumerate(text) if ch in ":[," and i + 1 < len(text)]
    if how < 0.5 and spots:  # a value written as something JSON has not, or a hostile number
        at = rng.choice(spots) + 1
        end = at
        while end < len(text) and text[end] not in ",]}":
            end += 1
        if text[at:end].strip().startswith(("{", "[")):
            end = at
        return (text[:at] + " " + rng.choice(TEXT_VALUES) + text[end:]).encode("utf-8")
    data = text.encode("utf-8")
    at = rng.randint(0, len(data))
    if how < 0.65:
        return data[:at]
    if how < 0.8:
        return data[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x1b"]) + (
            data[at:])
    if how < 0.9:
        return b"\xef\xbb\xbf" + data
    return data.replace(b'"id":', b'"id": "dup", "id":', 1)


def make_input(rng: random.Random) -> tuple[bytes, bytes]:
    """The bytes of `pack.json` and of the case file."""
    case = copy.deepcopy(rng.choice(CASES))
    data: Any = {"description": "one case of the pack, mutated", "cases": [case]}
    manifest: Any = dict(MANIFEST)
    if rng.random() < 0.85:
        data = _mutate_data(rng, data)
    if rng.random() < 0.1:
        manifest = _mutate_data(rng, manifest)
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5)
    case_bytes = _mutate_text(rng, text) if rng.random() < 0.35 else text.encode("utf-8")
    manifest_bytes = json.dumps(manifest).encode("utf-8")
    if rng.random() < 0.05:
        manifest_bytes = _mutate_text(rng, manifest_bytes.decode("utf-8"))
    return manifest_bytes, case_bytes


def run_pack(folder: Path, manifest: bytes, case_file: bytes) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.json").write_bytes(manifest)
    (folder / "cases.json").write_bytes(case_file)
    pack, problems = lint_pack(folder, REGISTER)
    for problem in problems:
        text = str(problem)
        text.encode("utf-8")  # printable
        if not (problem.file.endswith(("pack.json", "cases.json")) or problem.file == str(folder)):
            raise Misplaced(f"a problem names no file of the pack: {text}")
    if problems:
        return OURS
    engine = InProcessEngine()
    runner = Runner(engine, REGISTER)
    report = runner.run(pack, pack.cases)
    check_reports(report, folder)
    return SUCCESS if all(o.status == PASSED for o in report.outcomes) else OURS


def run_campaign(count: int, seed: int = 0, seconds: float = 30.0) -> Tally:
    tally = Tally("case files")
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(count):
            manifest, case_file = make_input(random.Random(f"{seed}:{index}"))
            folder = Path(tmp) / f"pack{index}"
            attempt(tally, f"seed {seed} input {index}",
                    functools.partial(run_pack, folder, manifest, case_file), seconds)
    return tally


def main(argv: list[str] | None = None) -> int:
    args = make_parser("Mutated case files through the pack reader, linter and runner.",
                      2000).parse_args(argv)
    return finish(run_campaign(args.count, args.seed, args.seconds))


if __name__ == "__main__":
    sys.exit(main())
