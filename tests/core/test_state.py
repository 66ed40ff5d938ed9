"""The sealed requestState: round trip, every binding, expiry, tampering, keys and rotation."""

from __future__ import annotations

import base64
import json
import os
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askback.core.errors import Rejection
from askback.core.progress import Progress
from askback.core.state import (
    _TIMES,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_STATE_BYTES,
    Binding,
    Envelope,
    KeyConfigError,
    Keyring,
    StateCodec,
    StatePolicy,
    StateRejected,
    StateTooLarge,
    arguments_digest,
    b64url,
)

KEY_A = os.urandom(32)
KEY_B = os.urandom(48)
BINDING = Binding("bank", "tools/call", "transfer", arguments_digest({"amount": 50}), "alice")
PROGRESS = Progress(values={"to": "DE44500105175407324931"}, answered={"to": "abcdefghijkl"},
                    asked={"confirm": "mnopqrstuvwx"}, rounds=2)


class Clock:
    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def codec(keys: list[bytes] | None = None, clock: Clock | None = None, **policy: int) -> StateCodec:
    return StateCodec(Keyring(keys or [KEY_A]), StatePolicy(now=clock or Clock(), **policy))


def sealed(c: StateCodec, binding: Binding = BINDING, previous: Envelope | None = None) -> tuple[str, Envelope]:
    env = c.new_envelope(PROGRESS, previous)
    return c.seal(env, binding), env


def test_round_trip_keeps_everything() -> None:
    c = codec()
    token, env = sealed(c)
    opened = c.open(token, BINDING)
    assert opened == env and opened.progress == PROGRESS


def test_a_state_is_opaque_and_holds_no_plaintext() -> None:
    token, _ = sealed(codec())
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    assert b"DE44500105175407324931" not in raw and b"confirm" not in raw and b"alice" not in raw


@pytest.mark.parametrize("other", [
    Binding("other-server", "tools/call", "transfer", BINDING.arguments_digest, "alice"),
    Binding("bank", "prompts/get", "transfer", BINDING.arguments_digest, "alice"),
    Binding("bank", "tools/call", "other_tool", BINDING.arguments_digest, "alice"),
    Binding("bank", "tools/call", "transfer", arguments_digest({"amount": 51}), "alice"),
    Binding("bank", "tools/call", "transfer", BINDING.arguments_digest, "mallory"),
    Binding("bank", "tools/call", "transfer", BINDING.arguments_digest, None),
])
def test_every_binding_is_checked(other: Binding) -> None:
    c = codec()
    token, _ = sealed(c)
    with pytest.raises(StateRejected):
        c.open(token, other)


def test_argument_digest_ignores_key_order_but_not_values() -> None:
    assert arguments_digest({"a": 1, "b": 2}) == arguments_digest({"b": 2, "a": 1})
    assert arguments_digest({"a": 1}) != arguments_digest({"a": "1"})


def test_round_expiry_and_flow_deadline() -> None:
    clock = Clock()
    c = codec(clock=clock, round_ttl=60, flow_ttl=300)
    token, env = sealed(c)
    clock.t += 61
    with pytest.raises(StateRejected, match="expired"):
        c.open(token, BINDING)
    # Each round gets a fresh expiry, but the flow deadline never moves.
    clock.t = env.issued_at
    for _ in range(4):
        clock.t += 59
        token, env = sealed(c, previous=c.open(token, BINDING))
    assert env.deadline == env.issued_at - 4 * 59 + 300
    clock.t = env.deadline + 1
    with pytest.raises(StateRejected, match="deadline"):
        c.open(token, BINDING)


def test_a_state_from_the_future_is_refused() -> None:
    clock = Clock()
    token, _ = sealed(codec(clock=clock))
    with pytest.raises(StateRejected, match="future"):
        codec(clock=Clock(clock.t - 3600)).open(token, BINDING)


def test_flow_id_is_unique_per_flow_and_kept_across_rounds() -> None:
    c = codec()
    _, first = sealed(c)
    _, other = sealed(c)
    _, next_round = sealed(c, previous=first)
    assert first.flow_id != other.flow_id and next_round.flow_id == first.flow_id


def test_rotation_first_key_seals_all_open() -> None:
    old = codec([KEY_A])
    token_old, _ = sealed(old)
    both = codec([KEY_B, KEY_A])
    assert both.open(token_old, BINDING).progress == PROGRESS
    token_new, _ = sealed(both)
    assert codec([KEY_B]).open(token_new, BINDING).progress == PROGRESS
    with pytest.raises(StateRejected, match="not in the ring"):
        codec([KEY_B]).open(token_old, BINDING)  # retired key


def test_non_canonical_encodings_are_refused() -> None:
    c = codec()
    token, _ = sealed(c)
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    variants = [token + "=" * (-len(token) % 4 or 4), base64.b64encode(raw).decode(), token + "\n", " " + token]
    if len(token) % 4 in (2, 3):
        # flip the unused low bits of the last character: same bytes, different spelling
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        idx = alphabet.index(token[-1])
        variants.append(token[:-1] + alphabet[idx ^ 1])
    for variant in variants:
        if variant == token:
            continue
        with pytest.raises(StateRejected):
            c.open(variant, BINDING)


def test_size_cap_on_seal_and_on_open() -> None:
    c = codec(max_bytes=200)
    big = Progress(values={"note": b64url(os.urandom(375))})  # random: compression cannot bring it under the cap
    with pytest.raises(StateTooLarge, match="cap"):
        c.seal(c.new_envelope(big, None), BINDING)
    with pytest.raises(StateRejected, match="size"):
        c.open("A" * 201, BINDING)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_any_mutation_is_refused(data: st.DataObject) -> None:
    c = codec()
    token, _ = sealed(c)
    raw = bytearray(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    kind = data.draw(st.sampled_from(["flip", "truncate", "extend", "splice"]))
    if kind == "flip":
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] ^= 1 << data.draw(st.integers(0, 7))
    elif kind == "truncate":
        raw = raw[: data.draw(st.integers(0, len(raw) - 1))]
    elif kind == "extend":
        raw += data.draw(st.binary(min_size=1, max_size=32))
    else:  # splice two valid states of the same binding together
        other, _ = sealed(c)
        other_raw = base64.urlsafe_b64decode(other + "=" * (-len(other) % 4))
        cut = data.draw(st.integers(1, len(raw) - 1))
        raw = bytearray(raw[:cut] + other_raw[cut:])
        if bytes(raw) == other_raw:
            return  # the cut fell inside the shared version byte: that is just the other, valid, state
    mutated = b64url(bytes(raw))
    if mutated == token:
        return
    with pytest.raises(StateRejected):
        c.open(mutated, BINDING)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_is_refused_without_crashing(text: str) -> None:
    with pytest.raises(StateRejected):
        codec().open(text, BINDING)


def test_short_or_malformed_keys_are_configuration_errors() -> None:
    with pytest.raises(KeyConfigError, match="at least 32"):
        Keyring([b"short"])
    with pytest.raises(KeyConfigError):
        Keyring([])
    with pytest.raises(KeyConfigError):
        Keyring.from_text("not*base64*at*all")
    ring = Keyring.from_text(f" {b64url(KEY_A)} , {b64url(KEY_B)} ")
    assert ring.sealing_key_id == Keyring([KEY_A]).sealing_key_id




def _legacy_token(c: StateCodec, progress: Progress, now: int) -> str:
    """A token as sealed before bodies were compressed: the times, then the compact JSON body as it is."""
    body = json.dumps([progress.values, progress.answered, progress.asked], separators=(",", ":")).encode()
    times = _TIMES.pack(now, now + 600, now + 1800, progress.rounds, b"f" * 12)
    return c.keyring.seal(times + body, BINDING)


def test_a_state_sealed_before_compression_still_opens() -> None:
    c = codec()
    now = int(c.policy.now())
    for note in ("short", "a long repetitive note " * 100):  # one under the compression threshold, one over
        progress = Progress(values={"note": note}, answered={"note": "abcdefghijkl"}, rounds=3)
        opened = c.open(_legacy_token(c, progress, now), BINDING)
        assert opened.progress == progress and opened.flow_id == b"f" * 12


def test_a_large_answer_is_carried_compressed() -> None:
    c = codec()
    log_lines = "".join(f"2026-12-01T10:{i // 60 % 60:02d}:{i % 60:02d}Z INFO order {1000 + i} shipped to "
                        f"warehouse {i % 7}\n" for i in range(900))
    assert len(log_lines) > 50_000
    progress = Progress(values={"log": log_lines}, answered={"log": "abcdefghijkl"}, rounds=1)
    token = c.seal(c.new_envelope(progress, None), BINDING)
    assert len(token) < DEFAULT_MAX_STATE_BYTES // 2, len(token)
    assert c.open(token, BINDING).progress == progress


def test_a_small_state_is_sealed_as_before() -> None:
    c = codec()
    token = c.seal(c.new_envelope(PROGRESS, None), BINDING)
    plaintext = c.keyring.open(token, BINDING)
    assert plaintext[_TIMES.size :].startswith(b"[")  # plain JSON: zlib's set-up would cost more than it saves


def _deflated_token(c: StateCodec, payload: bytes, now: int) -> str:
    times = _TIMES.pack(now, now + 600, now + 1800, 1, b"f" * 12)
    return c.keyring.seal(times + b"\x00" + payload, BINDING)


def test_a_damaged_or_oversized_compressed_body_is_the_usual_invalid_state() -> None:
    """Only the key's holder can seal these; still, the inflater trusts no length and no stream."""
    c = codec()
    now = int(c.policy.now())
    body = json.dumps([{"a": "x" * 5000}, {}, {}]).encode()
    whole = zlib.compress(body, 6, wbits=-15)
    bomb = zlib.compress(json.dumps([{"a": "x" * (2 * DEFAULT_MAX_BODY_BYTES)}, {}, {}]).encode(), 9, wbits=-15)
    for payload in (whole[: len(whole) // 2], whole + b"trailing", bomb, b"not deflate at all"):
        with pytest.raises(StateRejected) as refused:
            c.open(_deflated_token(c, payload, now), BINDING)
        assert refused.value.reason is Rejection.MALFORMED_BODY
    assert c.open(_deflated_token(c, whole, now), BINDING).progress.values == {"a": "x" * 5000}


def test_a_body_over_its_uncompressed_cap_is_not_sealed() -> None:
    c = codec()
    huge = Progress(values={"a": "x" * (DEFAULT_MAX_BODY_BYTES + 1)})
    with pytest.raises(StateTooLarge, match="bytes of answers"):
        c.seal(c.new_envelope(huge, None), BINDING)


LINK = bytes(range(1, 26))  # a trace id, a span id and trace flags, as askback.telemetry packs them


def test_the_span_context_of_the_round_that_sealed_it_travels_with_or_without_a_store_id() -> None:
    c = codec()
    for store_id in (None, "store-1"):
        env = c.new_envelope(PROGRESS, None, store_id=store_id, link=LINK)
        opened = c.open(c.seal(env, BINDING), BINDING)
        assert opened == env and opened.link == LINK and opened.store_id == store_id
        after = c.new_envelope(PROGRESS, opened, link=None)  # a round that was not traced carries none
        assert c.open(c.seal(after, BINDING), BINDING).link is None


def test_a_state_sealed_before_links_existed_still_opens() -> None:
    c = codec()
    now = int(c.policy.now())
    times = _TIMES.pack(now, now + 600, now + 1800, 1, b"f" * 12)
    for parts in ([{}, {}, {}], [{}, {}, {}, "store-1"]):
        token = c.keyring.seal(times + json.dumps(parts).encode(), BINDING)
        assert c.open(token, BINDING).link is None


def test_a_link_that_is_not_base64url_is_the_usual_invalid_state() -> None:
    c = codec()
    now = int(c.policy.now())
    times = _TIMES.pack(now, now + 600, now + 1800, 1, b"f" * 12)
    for link in (7, "not base64!", ["x"]):
        token = c.keyring.seal(times + json.dumps([{}, {}, {}, None, link]).encode(), BINDING)
        with pytest.raises(StateRejected) as refused:
            c.open(token, BINDING)
        assert refused.value.reason is Rejection.MALFORMED_BODY
