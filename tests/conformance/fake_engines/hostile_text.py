"""A fake engine whose texts the test chooses, to be hostile to a report: the
hello's name and version come from FAKE_NAME and FAKE_VERSION, and it refuses
`sun` with the reason FAKE_REFUSAL."""

import json
import os
from typing import Any

from fake_base import reply_to, serve


def misbehave(request: dict[str, Any], starts: int) -> bool:
    if request["type"] == "hello":
        reply = reply_to(request, {})
        reply.update(name=os.environ["FAKE_NAME"], version=os.environ["FAKE_VERSION"])
        print(json.dumps(reply), flush=True)
        return True
    if request["type"] == "apply" and request["action"] == "sun":
        refused = {"reason": os.environ["FAKE_REFUSAL"], "clauses": ["BID.2"]}
        print(json.dumps({"seq": request["seq"], "ok": False, "refused": refused}), flush=True)
        return True
    return False


serve(misbehave)
