"""The rules under passkey approvals, without a browser: what the challenge is bound to, the approval record,
the declarations that are refused, the store's passkeys and enrollment links (real SQLite), and the names a
passkey page is linked at."""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

import askback
from askback.app import approve_with_from
from askback.core.marks import Approval, shown_digest
from askback.core.spec import SpecError
from askback.core.state import Keyring
from askback.loopback import by_name
from askback.outofband import Ticket
from askback.passkeys import Passkey, Passkeys, approval_challenge
from askback.stores import open_store
from tests.support.redis import machine_or_private

KEYS = "n3Vq8LzX1cR0pYtW6eKjHb2sMuFgA9dT5oIvE7yNlQw"
TICKET = Ticket(ticket="T" * 32, flow="F" * 16, name="confirm", purpose="approval", principal="alice",
                audience="bank", tool="transfer", title="Confirm", message="Send 5000 EUR to Bob?",
                summary=(("amount", "5000"), ("to", "Bob")), expires_at=2e9, approve_with="passkey")
text = st.text(max_size=40)


@given(message=text, name=text, value=text)
def test_the_challenge_changes_with_every_word_and_value_shown(message: str, name: str, value: str) -> None:
    changed = [
        dataclasses.replace(TICKET, message=message),
        dataclasses.replace(TICKET, summary=(("amount", "5000"), ("to", value))),
        dataclasses.replace(TICKET, summary=(("amount", "5000"), (name, "Bob"))),
    ]
    for other in changed:
        same_shown = (other.message, other.summary) == (TICKET.message, TICKET.summary)
        assert (approval_challenge(other) == approval_challenge(TICKET)) == same_shown


def test_the_challenge_is_the_pages_own() -> None:
    assert approval_challenge(dataclasses.replace(TICKET, ticket="U" * 32)) != approval_challenge(TICKET)
    assert approval_challenge(dataclasses.replace(TICKET, flow="G" * 16)) != approval_challenge(TICKET)
    # values cannot be moved between the text and the table, nor between rows, to the same digest
    assert shown_digest("a", (("b", "c"),)) != shown_digest("ab", (("", "c"),))
    assert shown_digest("a", (("b", "c"), ("d", "e"))) != shown_digest("a", (("b", "c,d"), ("", "e")))
    assert len(approval_challenge(TICKET)) == 32


def test_an_approval_reads_back_as_written_and_a_foreign_record_as_none() -> None:
    given_ = Approval(by="bob", method="passkey", second_person=True, credential="abc")
    assert Approval.from_json(given_.to_json()) == given_
    assert Approval.from_json({"by": "bob", "method": "sms"}) is None
    assert Approval.from_json(None) is None
    assert Approval.from_json({"method": "page", "second_person": "yes"}) == Approval(None, "page", False)


def test_declarations_that_cannot_work_are_refused_at_registration() -> None:
    app = askback.App("bank", store="memory://", keys=KEYS)
    with pytest.raises(SpecError, match=re.escape("approve_with=...) takes 'page' or 'passkey'")):
        @app.tool()
        def a(ok: Annotated[bool, askback.Confirm("Go?", out_of_band=True, approve_with="sms")]) -> None:  # type: ignore[arg-type]
            ...
    with pytest.raises(SpecError, match="are for an approval on the page"):
        @app.tool()
        def b(ok: Annotated[bool, askback.Confirm("Go?", approve_with="passkey")]) -> None: ...
    with pytest.raises(SpecError, match=re.escape("approvers=...) takes a function")):
        @app.tool()
        def c(ok: Annotated[bool, askback.Confirm("Go?", out_of_band=True, approvers="bob")]) -> None:  # type: ignore[arg-type]
            ...


def test_the_app_wide_setting_reads_its_value_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASKBACK_APPROVE_WITH", raising=False)
    assert approve_with_from(None) == "page"
    monkeypatch.setenv("ASKBACK_APPROVE_WITH", "passkey")
    assert approve_with_from(None) == "passkey"
    assert approve_with_from("page") == "page"
    monkeypatch.setenv("ASKBACK_APPROVE_WITH", "fingerprint")
    with pytest.raises(ValueError, match="ASKBACK_APPROVE_WITH='fingerprint': approvals take 'page' or 'passkey'"):
        askback.App("bank")


def test_a_passkey_page_is_linked_by_name_never_by_address() -> None:
    assert by_name("http://127.0.0.1:8000") == "http://localhost:8000"
    assert by_name("http://[::1]:8000/x") == "http://localhost:8000/x"
    assert by_name("http://127.0.0.1") == "http://localhost"
    assert by_name("https://bank.example") == "https://bank.example"
    assert by_name("http://10.0.0.1:80") == "http://10.0.0.1:80"  # not this machine: left as the operator wrote it


def files(folder: Path) -> list[Path]:
    return list(folder.glob("p.db*"))


def test_passkeys_live_sealed_in_the_store_and_links_work_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        now = [1_900_000_000.0]
        store = open_store(f"sqlite:///{tmp_path}/p.db", data_dir=tmp_path, clock=lambda: now[0], app="bank")
        await store.open()
        try:
            keys = Passkeys(store, Keyring.from_text(KEYS), lambda: now[0])
            key = Passkey("alice", "cred-1", "AAAA", 0, now[0])
            assert await keys.add(key) and not await keys.add(key)
            await keys.add(dataclasses.replace(key, credential_id="cred-2"))
            assert [k.credential_id for k in await keys.of("alice")] == ["cred-1", "cred-2"]
            assert await keys.principals() == ("alice",) and await keys.of("bob") == ()
            # sealed at rest: the principal's name and the credential appear nowhere in the file
            raw = b"".join(await anyio.to_thread.run_sync(lambda: [p.read_bytes() for p in files(tmp_path)]))
            assert b"alice" not in raw and b"cred-1" not in raw
            # another key ring opens nothing
            assert await Passkeys(store, Keyring.from_text("Q" + KEYS[1:]), lambda: now[0]).of("alice") == ()
            assert not await keys.revoke("alice", "cred")  # two match: ambiguous, nothing removed
            assert await keys.revoke("alice", "cred-2") and not await keys.revoke("alice", "cred-2")
            await keys.used(key, 7)
            assert [k.sign_count for k in await keys.of("alice")] == [7]

            link = await keys.enrollment_link("alice", seconds=60)
            found = await keys.enrollment(link.token)
            assert found == link
            assert await keys.use(link) and not await keys.use(link)
            assert await keys.enrollment(link.token) is None
            late = await keys.enrollment_link("bob", seconds=60)
            now[0] += 61
            assert await keys.enrollment(late.token) is None
            assert await keys.enrollment("not a token") is None
        finally:
            await store.close()

    anyio.run(scenario)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    url, private = machine_or_private()
    yield url
    if private is not None:
        private.stop()


def test_replicas_sharing_a_redis_store_share_the_passkeys_and_the_links(redis_url: str) -> None:
    name = "passkeys-" + os.urandom(5).hex()  # the store's namespace: this test's own

    async def scenario() -> None:
        one, two = (askback.App(name, store=redis_url, keys=KEYS) for _ in range(2))
        await one.start()
        await two.start()
        try:
            await one.passkeys.add(Passkey("alice", "cred-1", "AAAA", 0, 1.0))
            assert [k.credential_id for k in await two.passkeys.of("alice")] == ["cred-1"]
            link = await two.passkeys.enrollment_link("bob")
            seen = await one.passkeys.enrollment(link.token)
            assert seen == link and await one.passkeys.use(seen) and not await two.passkeys.use(link)
            assert await two.passkeys.revoke("alice", "cred-1") and await one.passkeys.of("alice") == ()
        finally:
            await one.stop()
            await two.stop()

    anyio.run(scenario)
