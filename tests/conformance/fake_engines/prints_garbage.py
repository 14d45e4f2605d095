"""Answers its second case's question with something that is not JSON."""

from fake_base import serve


def misbehave(request, starts):
    if starts == 2 and request["type"] == "legal":
        print("Traceback (most recent call last): not json at all", flush=True)
        return True
    return False


serve(misbehave)
