"""Compact and canonical JSON for the hot path: the state body and question fingerprints.

`json.dumps` and `JSONEncoder.encode` build a new C encoder on every call, which costs more than encoding a
small state. The encoders here are built once. ASCII escapes keep every string JSON can carry encodable
(lone surrogates included). Where the interpreter has no C accelerator, the standard encoder is used.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json import encoder as _encoder
from typing import Any

_c_make_encoder = getattr(_encoder, "c_make_encoder", None)


def _build(sort_keys: bool, default: Callable[[Any], Any] = str) -> Callable[[Any], str]:
    if _c_make_encoder is not None:
        # Arguments: markers (None: no circular check), default, string encoder, indent, key separator,
        # item separator, sort_keys, skipkeys, allow_nan.
        make = _c_make_encoder(None, default, _encoder.encode_basestring_ascii, None, ":", ",", sort_keys, False,
                               True)
        return lambda value: "".join(make(value, 0))
    fallback = json.JSONEncoder(separators=(",", ":"), sort_keys=sort_keys, default=default, check_circular=False)
    return fallback.encode


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


compact: Callable[[Any], str] = _build(sort_keys=False)
canonical: Callable[[Any], str] = _build(sort_keys=True)
# A response body: compact, and a value JSON cannot carry is an error (as in `json.dumps`), never its `str`.
message: Callable[[Any], str] = _build(sort_keys=False, default=_not_json)
_decoder = json.JSONDecoder()


def decode(text: str) -> Any:
    """Parse one JSON document with nothing around it (the state body is never padded with whitespace)."""
    value, end = _decoder.raw_decode(text)
    if end != len(text):
        raise ValueError("extra data after the JSON document")
    return value
