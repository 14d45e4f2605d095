"""Answers its second case's first `legal` or `state` request with hostile bytes,
chosen by the HOSTILE environment variable:

- deep: an `actions` list nested 5,000 deep;
- nan_seq: a `seq` of NaN (not JSON);
- float_seq: the `seq` written as a float (6.0 for 6);
- no_phase: a state without its `phase`;
- control: control bytes on stderr and in an error reply;
- torn: the reply written in two parts, 0.2 s apart (one line all the same);
- half: half the reply, then nothing;
- lies: an action the rules refuse (`ashkal` of the first bidder) accepted.
"""

import json
import os
import sys
import time
from typing import Any

from fake_base import serve

MODE = os.environ.get("HOSTILE", "")


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if MODE == "lies" and request["type"] == "apply" and request["action"] == "ashkal":
        print(json.dumps({"seq": request["seq"], "ok": True}), flush=True)
        return True
    if starts != 2 or request["type"] not in ("legal", "state"):
        return False
    seq = request["seq"]
    if MODE == "deep":
        nested = "[" * 5000 + "]" * 5000
        print(f'{{"seq": {seq}, "ok": true, "player": 0, "actions": {nested}}}', flush=True)
    elif MODE == "nan_seq":
        print('{"seq": NaN, "ok": true, "player": 0, "actions": []}', flush=True)
    elif MODE == "float_seq":
        print(f'{{"seq": {seq}.0, "ok": true, "player": 0, "actions": []}}', flush=True)
    elif MODE == "no_phase" and request["type"] == "state":
        print(json.dumps({"seq": seq, "ok": True, "state": {"dealer": 0}}), flush=True)
    elif MODE == "control":
        sys.stderr.write("\x01\x1b[31mboom\x00\n")
        sys.stderr.flush()
        print(json.dumps({"seq": seq, "ok": False, "error": "bad\x07thing\x0b"}), flush=True)
    elif MODE in ("torn", "half"):
        line = json.dumps({"seq": seq, "ok": True, "player": 0,
                           "actions": ["pass", "hokum", "sun"]}) + "\n"
        sys.stdout.write(line[:20])
        sys.stdout.flush()
        time.sleep(0.2)
        if MODE == "torn":
            sys.stdout.write(line[20:])
            sys.stdout.flush()
    else:
        return False
    return True


serve(misbehave)
