"""The runner of the pack in JavaScript (`js_runner/run_pack.mjs`, written from CASES.md
and PROTOCOL.md alone) gives every case the verdict `baloot conform` gives it.

Each engine is played by both runners at once (the JS runner in a subprocess, `baloot
conform` in this process): the reference engine under both profiles, mutant engines that
fail legal sets and refusals, round results and game cases, fake engines that use the
protocol's freedoms, lack capabilities or declare few readings, and broken engines on a
small pack. A disagreement is a place where the docs and the Python runner part: the
docs are what a runner in another language is written from.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baloot.cli.main import main as cli_main
from baloot.conformance.harness.engine_process import REFERENCE_ARGV
from baloot.conformance.harness.pack import default_pack_folder
from baloot.conformance.mutants.build import build_mutant
from baloot.conformance.mutants.catalogue import MUTANTS

from .conftest import FAKE_ENGINES, legal_case, write_pack

NODE = shutil.which("node")
RUNNER = Path(__file__).parent / "js_runner" / "run_pack.mjs"

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not on PATH: the JS runner of the pack needs Node 18+"
)

PACK = Path(str(default_pack_folder()))
# The hand-worked core of the pack (a third of it), for the engines played beside the
# reference: the whole pack each time would take the suite's time.
CORE = ("bidding.json", "play.json", "scoring.json", "projects.json", "depth")
REFERENCE = shlex.join(REFERENCE_ARGV)
VERDICT_LINE = re.compile(r"^(passed|failed|errored|skipped|unsupported) +(\S+)(.*)$")
ALTERNATIVE = re.compile(r"played as alternatives\[(\d+)\]")

Verdicts = dict[str, tuple[str, int | None]]  # case id -> (verdict, alternative played)


def both_runners(tmp_path: Path, engine: str, pack: Path, *extra: str) -> tuple[Verdicts, Verdicts]:
    """Each case's verdict and the alternative it was played as, by `baloot conform` and
    by the JS runner, on the same engine and pack."""
    js_json = tmp_path / "js.json"
    assert NODE is not None
    js = subprocess.Popen(
        [NODE, str(RUNNER), "--pack", str(pack), "--engine", engine, "--json", str(js_json),
         *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        py_json = tmp_path / "py.json"
        cli_main(["conform", "-q", "--engine", engine, "--cases", str(pack),
                  "--json", str(py_json), *extra])
        out, err = js.communicate(timeout=120)
    finally:
        if js.poll() is None:
            js.kill()
    assert js.returncode in (0, 1), f"the JS runner exited {js.returncode}:\n{err[-3000:]}"
    alternatives: dict[str, int | None] = {}
    for line in out.splitlines():
        found = VERDICT_LINE.match(line)
        if found:
            index = ALTERNATIVE.search(found.group(3))
            alternatives[found.group(2)] = int(index.group(1)) if index else None
    js_verdicts = {
        case_id: (verdict, alternatives.get(case_id))
        for case_id, verdict in json.loads(js_json.read_text()).items()
    }
    py_verdicts = {}
    for case in json.loads(py_json.read_text())["cases"]:
        played = case.get("alternative")
        py_verdicts[case["id"]] = (case["status"], played["index"] if played else None)
    return py_verdicts, js_verdicts


def assert_same(py: Verdicts, js: Verdicts) -> dict[str, int]:
    """The two runners agree on every case; returns the count of each verdict."""
    assert set(js) == set(py), "the runners played other cases"
    differ = [f"{case_id}: baloot conform {py[case_id]}, JS {js[case_id]}"
              for case_id in py if py[case_id] != js[case_id]]
    assert not differ, f"{len(differ)} of {len(py)} cases differ:\n" + "\n".join(differ[:30])
    counts: dict[str, int] = {}
    for verdict, _ in py.values():
        counts[verdict] = counts.get(verdict, 0) + 1
    return counts


def fake(name: str, *args: str, env: dict[str, str] | None = None) -> str:
    """The engine command of fake engine `name`, with environment variables set."""
    argv = [sys.executable, str(FAKE_ENGINES / f"{name}.py"), *args]
    if env:
        argv = ["env", *(f"{k}={v}" for k, v in env.items()), *argv]
    return shlex.join(argv)


def part_of_pack(folder: Path, *parts: str) -> Path:
    """A pack of these files and folders of the built-in pack (with its pack.json and
    register)."""
    for name in ("pack.json", "spec-register.json", *parts):
        source = PACK / name
        if source.is_dir():
            shutil.copytree(source, folder / name)
        else:
            shutil.copy(source, folder / name)
    return folder


@pytest.fixture(scope="module")
def core_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return part_of_pack(tmp_path_factory.mktemp("core"), *CORE)


@pytest.fixture(scope="module")
def variants_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cases of each variant's readings: most of the pack's alternatives."""
    return part_of_pack(tmp_path_factory.mktemp("variants"), "variants")


# ---- the built-in pack -----------------------------------------------------------------


@pytest.mark.parametrize("profile", ["literal", "federation"])
def test_the_reference_engine(tmp_path: Path, profile: str) -> None:
    counts = assert_same(*both_runners(tmp_path, REFERENCE, PACK, "--profile", profile))
    assert set(counts) == {"passed"}


# Each fails another kind of case: legal sets and refusals (follow suit), round results
# (a failed hokum bid), game cases (the game's end).
MUTANT_KILLS = {
    "follow_suit_not_enforced": ("legal", "illegal"),
    "hokum_failure_26": ("round",),
    "game_ends_at_151": ("game",),
}


@pytest.mark.parametrize("name", sorted(MUTANT_KILLS))
def test_mutant_engines(tmp_path: Path, core_pack: Path, name: str) -> None:
    built = build_mutant(next(m for m in MUTANTS if m.name == name))
    engine = shlex.join([sys.executable, "-m", "baloot.conformance.mutants.adapter",
                         "--package-dir", str(built.package_dir), "--name", name])
    py, js = both_runners(tmp_path, engine, core_pack)
    assert_same(py, js)
    kinds = {case["kind"] for case in _cases(core_pack) if py[case["id"]][0] == "failed"}
    assert set(MUTANT_KILLS[name]) <= kinds


def test_an_engine_using_every_freedom_of_the_protocol(tmp_path: Path, core_pack: Path) -> None:
    """Hands and free lists in other orders, extra fields at every depth, the optional
    fields left out (a project's cards among them): a correct engine."""
    counts = assert_same(*both_runners(tmp_path, fake("freedom_proxy", "all"), core_pack))
    assert set(counts) == {"passed"}


def test_an_engine_lacking_capabilities(tmp_path: Path, core_pack: Path) -> None:
    """No gahwa, ashkal, game score or pass-only turns: the runners leave out the same
    parts of the expectations (the pass after a four among them), and agree on which
    cases are unsupported."""
    hello = {"capabilities": ["raises", "raise_triple", "raise_four", "projects",
                              "declarations", "second_session", "redeal"]}
    engine = fake("reference_with",
                  env={"FAKE_HELLO": json.dumps(hello), "FAKE_SKIP_PASS_ONLY": "1"})
    counts = assert_same(*both_runners(tmp_path, engine, core_pack))
    assert {"passed", "unsupported"} <= set(counts)


@pytest.mark.parametrize("profile", [None, "literal"])
def test_an_engine_declaring_few_readings(
    tmp_path: Path, variants_pack: Path, profile: str | None
) -> None:
    """Federation with one override and no other reading: cases are played as the same
    alternatives, or skipped alike; under --profile literal, the engine's override is set
    aside and nearly every case is skipped."""
    hello = {"profile": "federation" if profile is None else "literal", "readings": None,
             "overrides": {"kaboot": "sun_44_hokum_25"}}
    engine = fake("reference_with", env={"FAKE_HELLO": json.dumps(hello)})
    extra = () if profile is None else ("--profile", profile)
    py, js = both_runners(tmp_path, engine, variants_pack, *extra)
    counts = assert_same(py, js)
    assert counts.get("skipped", 0) > 0
    if profile is None:
        assert any(alternative is not None for _, alternative in py.values())


def test_list_items_naming_fewer_fields(tmp_path: Path) -> None:
    """A list item is cut to the fields any expected item of its list names (CASES.md,
    "Subset comparison"), so one that names fewer fields than another expects the rest
    absent; and --skip takes clause globs too."""
    bids = [{"seat": 0, "action": "pass"}, {"seat": 1, "action": "pass"}]
    expectations = {"all": bids, "fewer": [{"seat": 0}, bids[1]],
                    "seats": [{"seat": 0}, {"seat": 1}]}
    legal = ["pass", "hokum", "sun", "ashkal"]
    pack = write_pack(tmp_path / "pack", [
        legal_case(f"items.{name}", clauses=["BID.2", f"BID.{n + 3}"],
                   actions=["0: pass", "1: pass"],
                   expect={"actions": legal, "state": {"bids": expected}})
        for n, (name, expected) in enumerate(expectations.items())
    ])
    shutil.copy(PACK / "spec-register.json", pack / "spec-register.json")
    py, js = both_runners(tmp_path, REFERENCE, pack, "--skip", "BID.5")
    assert_same(py, js)
    assert [py[f"items.{name}"][0] for name in expectations] == ["passed", "failed", "skipped"]


# ---- an engine neither runner has seen ---------------------------------------------------

DIWANIYA = Path(__file__).parent / "independent_engines" / "diwaniya.mjs"
# `baloot conform`'s verdicts on diwaniya, clean and with planted bugs: a snapshot that
# test_independent_diwaniya.py checks exactly against the Python runner.
DIWANIYA_SNAPSHOT = Path(__file__).parent / "independent_engines" / "diwaniya_verdicts.json"


def test_the_independent_engine_diwaniya(tmp_path: Path) -> None:
    """An engine in JavaScript with readings matching no profile and few capabilities,
    clean and with a planted bug: the JS runner gives the counts and the failed
    cases `baloot conform` gave (its snapshot), without running it again."""
    snapshot = json.loads(DIWANIYA_SNAPSHOT.read_text())
    assert NODE is not None
    runs = {}
    for bug in (None, "sub_runs"):
        engine = shlex.join([NODE, str(DIWANIYA), *(["--bug", bug] if bug else [])])
        out = tmp_path / f"{bug}.json"
        runs[bug] = (out, subprocess.Popen(
            [NODE, str(RUNNER), "--pack", str(PACK), "--engine", engine, "--json", str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
    for bug, (out, process) in runs.items():
        _, err = process.communicate(timeout=120)
        assert process.returncode in (0, 1), err[-3000:]
        verdicts: dict[str, str] = json.loads(out.read_text())
        counts = {v: sum(1 for x in verdicts.values() if x == v) for v in set(verdicts.values())}
        if bug is None:
            expected = {k: n for k, n in snapshot["clean"].items() if n}
            assert counts == expected
        else:
            failed = sorted(case_id for case_id, v in verdicts.items() if v == "failed")
            assert failed == sorted(snapshot["failed_by_bug"][bug]), bug


# ---- broken engines on a small pack ----------------------------------------------------

# An engine misbehaving in its second case (after the fake engines' own way), for the
# replies the docs now say how to judge.
SHAPES_ENGINE = '''
import json, sys
sys.path.insert(0, sys.argv[1])
from fake_base import serve
MODE = sys.argv[2]

def misbehave(request, starts):
    seq, kind = request["seq"], request["type"]
    reply = None
    if starts != 2:
        return False
    if MODE == "start_error" and kind == "start":
        reply = {"seq": seq, "ok": False, "error": "no such setup"}
    elif MODE == "start_refused" and kind == "start":
        reply = {"seq": seq, "ok": False, "refused": {"reason": "no"}}
    elif MODE == "no_actions" and kind == "legal":
        reply = {"seq": seq, "ok": True, "player": 0}
    elif MODE == "player_text" and kind == "legal":
        reply = {"seq": seq, "ok": True, "player": "0", "actions": ["pass", "hokum", "sun"]}
    elif MODE == "no_phase" and kind == "state":
        reply = {"seq": seq, "ok": True, "state": {"dealer": 3}}
    elif MODE == "refused_text" and kind == "apply" and request["action"] == "ashkal":
        reply = {"seq": seq, "ok": False, "refused": "no"}
    elif MODE == "wrong_seat" and kind == "legal":
        reply = {"seq": seq, "ok": True, "player": 2, "actions": ["pass"]}
    elif MODE == "wrong_seat" and kind == "apply":
        reply = {"seq": seq, "ok": False, "error": "not your turn"}
    elif MODE in ("surrogate", "deep") and kind == "legal":
        extra = '"\\\\ud800"' if MODE == "surrogate" else "[" * 40 + "]" * 40
        print('{"seq": %d, "ok": true, "player": 0, "actions": ["pass", "hokum", "sun"], '
              '"x": %s}' % (seq, extra), flush=True)
        return True
    if reply is None:
        return False
    print(json.dumps(reply), flush=True)
    return True

serve(misbehave)
'''


@pytest.fixture(scope="module")
def small_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four cases the fake engines answer: the second asks every kind of request, so an
    engine misbehaving in its second case does so in that one, and again in the fourth
    after a restart (the round case, which no fake engine can finish)."""
    folder = tmp_path_factory.mktemp("small")
    write_pack(folder, [
        legal_case("small.first"),
        legal_case("small.mixed", kind="illegal",
                   actions=["0: pass", {"expect_state": {"current_player": 1}},
                            {"expect_legal": {"player": 1, "actions": ["pass", "hokum", "sun"]}}],
                   expect={"action": "ashkal", "state": {"current_player": 1}}),
        legal_case("small.second", actions=["0: pass"],
                   expect={"player": 1, "actions": ["pass", "hokum", "sun"]}),
        legal_case("small.round", kind="round", actions=["0: pass"],
                   expect={"result": {"added": [0, 0]}}),
    ])
    shutil.copy(PACK / "spec-register.json", folder / "spec-register.json")
    return folder


BROKEN = {
    "crashes_mid_case": fake("crashes_mid_case"),
    "prints_garbage": fake("prints_garbage"),
    "unsolicited": fake("unsolicited"),
    "float_seq": fake("hostile", env={"HOSTILE": "float_seq"}),
}
SHAPES = ["start_error", "start_refused", "no_actions", "no_phase", "refused_text",
          "wrong_seat", "surrogate", "deep"]


@pytest.mark.parametrize("name", [*BROKEN, *SHAPES])
def test_broken_engines(tmp_path: Path, small_pack: Path, name: str) -> None:
    if name in BROKEN:
        engine = BROKEN[name]
    else:
        script = tmp_path / "shapes_engine.py"
        script.write_text(SHAPES_ENGINE)
        engine = shlex.join([sys.executable, str(script), str(FAKE_ENGINES), name])
    py, js = both_runners(tmp_path, engine, small_pack)
    counts = assert_same(py, js)
    assert counts.get("passed", 0) > 0
    assert counts.get("failed", 0) + counts.get("errored", 0) > 0


def _cases(pack: Path) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted(pack.rglob("*.json")):
        if path.name not in ("pack.json", "spec-register.json"):
            cases += json.loads(path.read_text())["cases"]
    return cases
