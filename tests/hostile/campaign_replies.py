"""Hostile engine replies through the runner, its reports and the fuzzer: our error or
success, never another exception, never a hang.

    python tests/hostile/campaign_replies.py --count 10000 [--seed S] [--pipe N]

The engine is the reference engine in-process, whose replies are now and then replaced,
as bytes, by hostile ones: a field dropped or of another type, a value NaN, 1e400, 1.0,
nested thousands deep, holding control characters or a lone surrogate; a wrong `seq`;
bytes that are no JSON or no UTF-8; a lie about what is legal; a refusal of a scripted
action; an error reply; or no reply (a timeout, an exit, a flood). Every reply line goes
through the engine process's own reader. Each input is one run of a few cases of the
built-in pack (a hostile hello included), which must end with a report: the JSON report
read back strictly and valid under its schema, the JUnit report parsed, the console
report printed; or one fuzz game replayed against the same engine, which must end with
a verdict. `--pipe N` also sends N hostile replies through a real engine process (a fake
engine printing them on its stdout, torn lines and floods included) to the runner.
"""

from __future__ import annotations

import functools
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from campaign_common import (
    OURS,
    SUCCESS,
    Tally,
    attempt,
    check_reports,
    finish,
    json_paths,
    make_parser,
)

from baloot.conformance.adapters.inprocess import InProcessEngine
from baloot.conformance.fuzz.driver import random_trial, replay
from baloot.conformance.harness.engine_process import (
    EXITED,
    FLOOD,
    TIMEOUT,
    EngineError,
    EngineProcess,
)
from baloot.conformance.harness.lint import lint_pack
from baloot.conformance.harness.pack import Case, Pack, default_pack_folder
from baloot.conformance.harness.runner import PASSED, Runner
from baloot.conformance.harness.variants import load_register

REGISTER = load_register()
PACK, _ = lint_pack(default_pack_folder(), REGISTER)
HOSTILE_STREAM = Path(__file__).parents[1] / "conformance" / "fake_engines" / "hostile_stream.py"

# Placeholders written into a reply and then replaced in its text by what JSON cannot say.
RAW = {
    '"@nan@"': "NaN", '"@inf@"': "-Infinity", '"@big@"': "1e400", '"@half@"': '"\\ud800"',
    '"@deep@"': "[" * 2000 + "]" * 2000, '"@digits@"': "9" * 5000,
}
VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 1.0, 3.5, 4, 7, 10**30, "", "x", "pass", "play 7S",
    "\x1b[31m\x00\x07", "[/bold]", "\u2028", [], {}, [None], ["pass", "pass"], {"a": 1},
    [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
    *RAW,
]
VALUES = [v if not (isinstance(v, str) and v in RAW) else v.strip('"') for v in VALUES]
LINES = [b"", b"null", b"[]", b"{", b"\xff\xfe", b'{"seq": 1', b"not json", b"\x1b[2J",
         b'{"seq": "1", "ok": true}', b'{"ok": true}']


class HostileEngine(InProcessEngine):
    """The in-process reference engine with hostile replies, every line through the
    engine process's reader (`_check_reply`)."""

    def __init__(self, rng: random.Random, rate: float) -> None:
        super().__init__()
        self.rng = rng
        self.rate = rate
        self.hostile = 0
        self.replies = 0
        self.interrupt_at: int | None = None  # the request during which Ctrl-C comes

    def request(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        if self._adapter is None:
            raise EngineError(EXITED, "the engine is not running")
        self._seq += 1
        sent = {"seq": self._seq, **message}
        self.replies += 1
        if self.replies == self.interrupt_at:
            raise KeyboardInterrupt
        reply = self._adapter.handle(json.dumps(sent))
        if self.rng.random() < self.rate:
            self.hostile += 1
            line = self._hostile(sent, reply)
        else:
            line = json.dumps(reply).encode("utf-8")
        self.transcript.append(f"< {line[:200]!r}")
        return self._check_reply(sent, line)

    def _hostile(self, sent: dict[str, Any], reply: dict[str, Any]) -> bytes:
        rng = self.rng
        how = rng.choice(["replace", "replace", "replace", "drop", "seq", "line", "error",
                          "refuse", "lie", "timeout", "exit", "flood", "add"])
        if how == "timeout":
            raise EngineError(TIMEOUT, "no reply within 5 s")
        if how == "exit":
            self.kill()
            raise EngineError(EXITED, "engine exited instead of replying with status 1")
        if how == "flood":
            raise EngineError(FLOOD, "engine printed a line longer than 1048576 bytes")
        if how == "line":
            return rng.choice(LINES)
        if how == "error":
            reply = {"seq": sent["seq"], "ok": False, "error": rng.choice(VALUES)}
        elif how == "refuse":
            reply = {"seq": sent["seq"], "ok": False, "refused": rng.choice(VALUES)}
        elif how == "lie" and sent["type"] in ("apply", "legal"):
            reply = {"seq": sent["seq"], "ok": True, "player": rng.choice([0, 1, 2, 3, None]),
                     "actions": rng.sample(["pass", "hokum", "sun", "ashkal", "double",
                                            "play 7S", "play AH", "declare sira 7S 8S 9S"],
                                           rng.randint(0, 4))}
        elif how == "seq":
            reply["seq"] = rng.choice([sent["seq"] + 1, sent["seq"] - 1, None, True, "s",
                                       float(sent["seq"]), "@nan@", "@big@"])
        else:
            paths = json_paths(reply)[1:]
            if paths:
                path = rng.choice(paths)
                parent: Any = reply
                for key in path[:-1]:
                    parent = parent[key]
                if how == "drop":
                    del parent[path[-1]]
                elif how == "add" and isinstance(parent, dict):
                    parent[rng.choice(["extra", "phase", "player", "state", "ok"])] = (
                        rng.choice(VALUES))
                else:
                    parent[path[-1]] = rng.choice(VALUES)
        text = json.dumps(reply, ensure_ascii=rng.random() < 0.5)
        for mark, raw in RAW.items():
            text = text.replace(mark, raw)
        return text.encode("utf-8", "surrogatepass")


def run_once(rng: random.Random, folder: Path, counts: dict[str, int]) -> str:
    """One run of a few cases, or one fuzz game, against a hostile engine."""
    engine = HostileEngine(rng, rate=rng.choice([0.02, 0.05, 0.1, 0.3]))
    engine.validate = rng.random() < 0.5
    try:
        if rng.random() < 0.15:
            trial = random_trial(rng.randrange(1000), rng.randrange(100),
                                 profile=rng.choice(["literal", "federation"]))
            found = replay(trial, engine, plan=False)
            outcome = SUCCESS if found.disagreement is None else OURS
        else:
            cases = rng.sample(PACK.cases, 6)
            runner = Runner(engine, REGISTER, profile=rng.choice([None, "literal"]))
            if rng.random() < 0.05:  # Ctrl-C at some request: the report of what ran
                engine.interrupt_at = rng.randint(1, 60)
            report = runner.run(Pack(PACK.name, PACK.version, PACK.protocol, PACK.folder,
                                     cases), cases)
            check_reports(report, folder)
            outcome = SUCCESS if all(o.status == PASSED for o in report.outcomes) else OURS
    finally:
        counts["replies"] += engine.replies
        counts["hostile"] += engine.hostile
        engine.close()
    return outcome


def run_pipe(count: int, seed: int, seconds: float, tally: Tally) -> int:
    """`count` hostile replies printed by a real engine process, read by the runner."""
    cases = [c for c in PACK.cases if not c.then][:40]
    sent = 0
    with tempfile.TemporaryDirectory() as tmp:
        index = 0
        while sent < count:
            os.environ["HOSTILE_STREAM_SEED"] = f"{seed}:{index}"
            os.environ["HOSTILE_STREAM_RATE"] = "0.2"
            engine = EngineProcess([sys.executable, str(HOSTILE_STREAM)], timeout=0.5,
                                   max_line_bytes=1 << 16, max_pending_lines=100)
            chosen = random.Random(f"{seed}:{index}").sample(cases, 8)

            def one(engine: EngineProcess = engine, chosen: list[Case] = chosen) -> str:
                report = Runner(engine, REGISTER).run(
                    Pack(PACK.name, PACK.version, PACK.protocol, PACK.folder, chosen), chosen)
                check_reports(report, Path(tmp))
                return SUCCESS if all(o.status == PASSED for o in report.outcomes) else OURS

            attempt(tally, f"pipe seed {seed} run {index}", one, seconds)
            engine.close()
            sent += _count_hostile(Path(tmp))
            index += 1
    return sent


def _count_hostile(folder: Path) -> int:
    """The hostile replies the fake engine says it printed (one line per engine start)."""
    log = Path(os.environ.get("HOSTILE_STREAM_LOG", folder / "stream.log"))
    if not log.exists():
        return 1
    count = sum(int(n) for n in log.read_text().split() if n.isdigit())
    log.unlink()
    return max(count, 1)


def run_campaign(count: int, seed: int = 0, seconds: float = 60.0, pipe: int = 0) -> Tally:
    """Runs until `count` hostile replies have been read by the runner or the fuzzer."""
    tally = Tally("engine replies")
    counts = {"replies": 0, "hostile": 0}
    with tempfile.TemporaryDirectory() as tmp:
        index = 0
        while counts["hostile"] < count:
            rng = random.Random(f"{seed}:{index}")
            attempt(tally, f"seed {seed} run {index}",
                    functools.partial(run_once, rng, Path(tmp), counts), seconds)
            index += 1
        piped = 0
        if pipe:
            os.environ["HOSTILE_STREAM_LOG"] = str(Path(tmp) / "stream.log")
            piped = run_pipe(pipe, seed, seconds, tally)
    tally.name = (f"engine replies ({counts['hostile']} hostile of {counts['replies']} "
                  f"in-process replies, {piped} hostile through a pipe)")
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = make_parser("Hostile engine replies through the runner, reports and fuzzer.",
                         10_000)
    parser.add_argument("--pipe", type=int, default=0,
                        help="hostile replies through a real engine process besides")
    args = parser.parse_args(argv)
    return finish(run_campaign(args.count, args.seed, args.seconds, args.pipe))


if __name__ == "__main__":
    sys.exit(main())
