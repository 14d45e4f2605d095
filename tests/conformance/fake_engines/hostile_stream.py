"""The reference engine whose replies are, now and then, hostile bytes on its stdout:
garbage, NaN, a deep nesting, bytes that are no UTF-8, a torn line, a line too long (a
flood), an extra line, a wrong seq, control bytes on stderr, silence, or an exit.

HOSTILE_STREAM_SEED fixes the choices, HOSTILE_STREAM_RATE is the share of hostile
replies, and each hostile reply adds a line to the file HOSTILE_STREAM_LOG names."""

import json
import os
import random
import sys
from typing import Any

import baloot.reference_impl
from baloot.conformance.adapters.reference_adapter import Adapter
from baloot.reference_impl.readings import VARIANTS

RNG = random.Random(os.environ.get("HOSTILE_STREAM_SEED", "0"))
RATE = float(os.environ.get("HOSTILE_STREAM_RATE", "0.2"))
LOG = os.environ.get("HOSTILE_STREAM_LOG")
OUT = sys.stdout.buffer


def hostile(seq: int, reply: dict[str, Any]) -> None:
    kind = RNG.choice(["garbage", "nan", "deep", "latin1", "torn", "long", "extra", "seq",
                       "stderr", "surrogate", "control", "silence", "exit", "big"])
    if LOG:
        with open(LOG, "a") as log:
            log.write("1\n")
    good = json.dumps(reply).encode()
    if kind == "garbage":
        OUT.write(b"\x00\x1b[2Jnot json\n")
    elif kind == "nan":
        OUT.write(good.replace(b'"seq": %d' % seq, b'"seq": NaN') + b"\n")
    elif kind == "deep":
        OUT.write(b'{"seq": %d, "ok": true, "x": ' % seq + b"[" * 3000 + b"]" * 3000 + b"}\n")
    elif kind == "latin1":
        OUT.write(b'{"seq": %d, "ok": true, "name": "caf\xe9"}\n' % seq)
    elif kind == "torn":
        OUT.write(good[: len(good) // 2])
        OUT.flush()
        OUT.write(good[len(good) // 2:] + b"\n")
    elif kind == "long":
        OUT.write(b'{"seq": %d, "ok": true, "x": "' % seq + b"x" * 70000 + b'"}\n')
    elif kind == "extra":
        OUT.write(good + b"\n" + good + b"\n")
    elif kind == "seq":
        OUT.write(good.replace(b'"seq": %d' % seq, b'"seq": %d.0' % seq) + b"\n")
    elif kind == "stderr":
        sys.stderr.buffer.write(b"\x1b[31mboom\x00\xff\n")
        sys.stderr.flush()
        OUT.write(b'{"seq": %d, "ok": false, "error": "bad\\u0007\\u001b[0m"}\n' % seq)
    elif kind == "surrogate":
        OUT.write(b'{"seq": %d, "ok": true, "name": "\\udc00"}\n' % seq)
    elif kind == "control":
        OUT.write(good.replace(b'"ok": true', b'"ok": true, "name": "\\u0000\\u001b"') + b"\n")
    elif kind == "big":
        OUT.write(good.replace(b'"ok": true', b'"ok": true, "player": 1e400') + b"\n")
    elif kind == "exit":
        OUT.flush()
        os._exit(3)
    # silence: no reply at all
    OUT.flush()


def main() -> None:
    adapter = Adapter(baloot.reference_impl, {n: list(r) for n, r in VARIANTS.items()})
    for line in sys.stdin:
        request = json.loads(line)
        reply = adapter.handle(line)
        if request.get("type") != "bye" and RNG.random() < RATE:
            hostile(request.get("seq", 0), reply)
            continue
        OUT.write(json.dumps(reply).encode() + b"\n")
        OUT.flush()
        if request.get("type") == "bye":
            return


main()
