"""Defect 10, keys: weak keys are refused, the key file is private (as ssh insists), and its errors name it.

The subprocess cases run `askback serve` as a person would; the in-process ones check the same rules where a
library user meets them (`askback.Keyring`, the key file in a data directory).
"""

from __future__ import annotations

import base64
import os
import stat
from pathlib import Path

import pytest

import askback
from askback.config import load_or_create_key_file
from askback.core.state import Binding, KeyConfigError, Keyring, StateCodec
from tests.e2e.serving import refused, started
from tests.e2e.test_cli import serve_env


def text_of(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


WEAK = {
    "all zero": bytes(32),
    "one byte repeated": b"k" * 40,
    "a short pattern repeated": b"0123456789abcdef" * 2,
    "a random half repeated": os.urandom(24) * 2,
    "15 distinct values": bytes(range(15)) * 2 + b"\x00\x01",
}


@pytest.mark.parametrize("raw", WEAK.values(), ids=WEAK.keys())
def test_a_weak_key_in_askback_keys_stops_the_server(tmp_path: Path, raw: bytes) -> None:
    good = text_of(os.urandom(32))
    env = serve_env(tmp_path / "data", ASKBACK_KEYS=f"{good},{text_of(raw)}")
    line = refused(["askback.demo:app", "--port", "0"], env)
    assert "ASKBACK_KEYS: key 2 is too weak" in line, line
    assert text_of(raw) not in line, "an error must never show the key"
    assert not (tmp_path / "data" / "keys").exists()


@pytest.mark.parametrize("raw", WEAK.values(), ids=WEAK.keys())
def test_a_weak_key_is_refused_by_the_library_too(raw: bytes) -> None:
    with pytest.raises(KeyConfigError, match="too weak"):
        Keyring([raw])
    with pytest.raises(KeyConfigError, match="too weak"):
        askback.App("weak", keys=text_of(raw), store="memory://").runtime


def test_random_keys_pass_the_weakness_rule() -> None:
    for _ in range(2000):
        Keyring([os.urandom(32)])


# -- the key file -----------------------------------------------------------------------------------------
def key_file(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    path = data / "keys"
    path.write_text(text)
    path.chmod(mode)
    return path


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o602], ids=lambda mode: f"{mode:04o}")
def test_a_key_file_others_can_read_or_write_is_refused(tmp_path: Path, mode: int) -> None:
    path = key_file(tmp_path, text_of(os.urandom(32)) + "\n", mode)
    line = refused(["askback.demo:app", "--port", "0"], serve_env(tmp_path / "data"))
    assert f"{path}" in line and f"{mode:04o}" in line and f"chmod 600 {path}" in line, line
    assert "ASKBACK_KEYS" not in line, line
    path.chmod(0o600)  # the fix the message gives works
    with started(["askback.demo:app", "--port", "0"], serve_env(tmp_path / "data")) as server:
        assert server.url


@pytest.mark.parametrize(("text", "says"), [
    ("not*base64*at*all\n", "not base64url"),
    ("", "no key"),
    (text_of(b"short") + "\n", "at least 32 bytes"),
    (text_of(bytes(32)) + "\n", "too weak"),
], ids=["garbage", "empty", "short", "weak"])
def test_a_broken_key_file_is_reported_as_the_key_file(tmp_path: Path, text: str, says: str) -> None:
    path = key_file(tmp_path, text)
    line = refused(["askback.demo:app", "--port", "0"], serve_env(tmp_path / "data"))
    assert f"key file {path}" in line and says in line, line
    assert "ASKBACK_KEYS" not in line, line


def test_a_key_file_that_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / "data" / "keys").mkdir(parents=True)
    line = refused(["askback.demo:app", "--port", "0"], serve_env(tmp_path / "data"))
    assert f"key file {tmp_path / 'data' / 'keys'}" in line and "not a regular file" in line, line


def test_generated_key_is_kept_private_and_reused(tmp_path: Path) -> None:
    first = load_or_create_key_file(tmp_path / "data")
    path = tmp_path / "data" / "keys"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "data").stat().st_mode) & 0o077 == 0, "the data directory is private too"
    second = load_or_create_key_file(tmp_path / "data")
    binding = Binding("a", "tools/call", "t", "d", None)
    c1, c2 = StateCodec(first), StateCodec(second)
    from askback.core.decide import Progress

    progress = Progress({"x": 1}, {}, {}, 1)
    token = c1.seal(c1.new_envelope(progress, None), binding)
    assert c2.open(token, binding).progress == progress
