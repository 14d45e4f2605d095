"""JSON from outside (engine replies, requests, case files) read as the protocol and the
pack carry it: no NaN, no infinity, no number too large for a double or longer than
Python converts, no nesting deeper than the decoder follows. Each is a ValueError with
words a user can act on, never a RecursionError or Python's own advice. And JSON written
as the runner sends it: one line, no spaces (`compact_json`).

Where msgspec is installed (a dependency on CPython), it reads and writes first (speed:
an engine's replies are most of what a fuzzer reads, and msgspec reads them in about
half the time, and writes a request in a tenth). It reads a subset of what the standard
library's decoder reads, to the same values; whatever it refuses is read again by the
standard library, whose value or error is the answer. Of a value read from JSON (no NaN,
no infinity), it writes text that reads back to the same value, and the standard
library's text where the value holds no float and no DEL character (a float it writes
shorter, `1e16` for `1e+16`); a value it cannot write, or whose text is not ASCII, is
written by the standard library (non-ASCII characters escaped). The tests check these
agreements on values and texts of every kind.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

try:
    import msgspec
except ImportError:  # a Python without msgspec's build (PyPy): the standard library alone
    _FAST_DECODE = None
    _FAST_ENCODE = None
    _FAST_REFUSAL: tuple[type[Exception], ...] = ()
else:
    _FAST_DECODE = msgspec.json.Decoder().decode
    _FAST_ENCODE = msgspec.json.Encoder().encode
    # ValidationError (a number out of range) is a DecodeError; RecursionError: too deep;
    # UnicodeEncodeError: a text (str) holding a lone surrogate, which UTF-8 cannot carry
    _FAST_REFUSAL = (msgspec.DecodeError, RecursionError, UnicodeEncodeError)


def strict_json(text: str | bytes) -> Any:
    """JSON as the protocol carries it: no NaN, no infinity, no number too large for a
    double. Raises ValueError (UnicodeDecodeError for bytes that are not UTF-8), also for
    text nested deeper than the decoder can follow."""
    if _FAST_DECODE is not None:
        try:
            return _FAST_DECODE(text)
        except _FAST_REFUSAL:
            pass  # read again below: the standard library's value, or its error
    try:
        if isinstance(text, bytes):  # json.loads finds the encoding of bytes
            return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
        return _DECODER.decode(text)
    except RecursionError:
        raise ValueError("nested deeper than JSON can be read") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's words name its own setting
            raise ValueError(f"a number of more than {sys.get_int_max_str_digits()} digits") \
                from None
        raise


def _no_constant(name: str) -> Any:
    """JSON has no NaN or Infinity: a reply holding one is not JSON."""
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent, refused when no double holds it (1e400)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is too large a number")
    return value


# One decoder for every text (speed: json.loads with options builds a new one a call).
_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)

# One encoder for every message (as above).
_COMPACT = json.JSONEncoder(separators=(",", ":")).encode


def compact_json(value: Any) -> str:
    """A value as one line of JSON without spaces, in ASCII (other characters escaped)."""
    if _FAST_ENCODE is not None:
        try:
            data = _FAST_ENCODE(value)
        except (TypeError, ValueError, OverflowError):
            pass  # a value of a type msgspec has no JSON for: as the standard library does
        else:
            if data.isascii():
                return data.decode("ascii")
    return _COMPACT(value)
