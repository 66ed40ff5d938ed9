"""The token file and the sign-in settings on their own: private from the first byte, damage said plainly."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import anyio
import pytest
from mcp.shared.auth import OAuthToken

from askback.client import SignIn, SignInFailed


def test_the_token_file_is_private_whatever_the_umask(tmp_path: Path) -> None:
    kept = SignIn(data_dir=tmp_path / "data").token_file("https://mcp.example.com/mcp")
    previous = os.umask(0)  # the widest: a file created with the process's default mode would be 0666
    try:
        anyio.run(kept.set_tokens, OAuthToken(access_token="at-private", expires_in=60))
    finally:
        os.umask(previous)
    assert stat.S_IMODE(kept.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.path.parent.stat().st_mode) == 0o700
    assert [p.name for p in kept.path.parent.iterdir()] == [kept.path.name]  # no candidate file left behind
    token = anyio.run(kept.get_tokens)
    assert token is not None and token.access_token == "at-private" and 0 < (token.expires_in or 0) <= 60


def test_a_damaged_token_file_says_to_delete_it(tmp_path: Path) -> None:
    kept = SignIn(data_dir=tmp_path).token_file("https://mcp.example.com/mcp")
    kept.path.parent.mkdir(parents=True)
    kept.path.write_text("{not json")
    kept.path.chmod(0o600)
    with pytest.raises(SignInFailed, match="is damaged; delete it to sign in again"):
        anyio.run(kept.get_tokens)


def test_each_server_has_its_own_file_and_sign_out_removes_it(tmp_path: Path) -> None:
    one = SignIn(data_dir=tmp_path).token_file("https://a.example.com/mcp")
    other = SignIn(data_dir=tmp_path).token_file("https://b.example.com/mcp")
    assert one.path != other.path
    anyio.run(one.set_tokens, OAuthToken(access_token="at-a"))
    assert anyio.run(other.get_tokens) is None
    assert one.forget() and not one.forget()


def test_settings_that_cannot_work_are_refused() -> None:
    with pytest.raises(ValueError, match="authorize must be one of browser, print, http, never"):
        SignIn(authorize="email")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a client_secret needs the client_id"):
        SignIn(client_secret="s3cret")
    assert "s3cret" not in repr(SignIn(client_id="c", client_secret="s3cret"))
