"""Receipts over real loopback HTTP: every approval given on a page and every single-use run leaves one, in the
store the server uses, readable by the app and by `askback receipts`, its id in the result's `_meta`."""

import json
import os
import subprocess
from pathlib import Path
from typing import Annotated, Any

import anyio
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext
from mcp_types import ElicitRequestParams, ElicitResult

import askback
from askback.receipts import RECEIPT_META, Receipt, digest_shown, value_digest
from tests.e2e.test_out_of_band import KEY, URL_OK, submit, url_of
from tests.support.rawclient import RawClient

CANARY = "sk_live_CANARY_9f8e7d6c5b4a39281706"  # a secret entered on the page: in no receipt, in no stored byte
EVERYDAY = "DE89370400440532013000"


def accounts() -> list[askback.Option]:
    return [askback.Option(EVERYDAY, "Everyday account (DE89 …3000)"),
            askback.Option("DE02120300000000202051", "Savings account (DE02 …2051)")]


def bank(runs: list[Any], store: str | None = "memory://", **kw: Any) -> askback.App:
    kw.setdefault("page_wait", 0)
    app = askback.App("receipt-bank", keys=KEY, store=store, **kw)

    @app.tool(once=True)
    def pay(amount: int, from_account: Annotated[str, askback.OneOf(accounts)],
            ok: Annotated[bool, askback.Confirm("Pay {amount} EUR from {from_account}?",
                                                out_of_band=lambda amount: amount > 1000)]) -> dict[str, Any]:
        runs.append(amount)
        return {"paid": amount, "from": from_account}

    @app.tool()
    def approve_key(bank: str, api_key: Annotated[askback.Secret, askback.Ask("the API key of {bank}")],
                    ok: Annotated[bool, askback.Confirm("Connect {bank}?", out_of_band=True)]) -> str:
        runs.append(api_key.reveal())
        return f"connected {bank}"

    @app.tool()
    def echo(text: str) -> str:
        return text

    return app


def receipt_of(app: askback.App, rid: str) -> Receipt:
    found = anyio.run(app.receipt, rid)
    assert found is not None, rid
    return found


def test_an_approval_given_on_the_page_leaves_a_receipt_of_what_was_shown_who_approved_that_it_ran_and_what_came_back(
        serve: Any) -> None:
    runs: list[Any] = []
    app = bank(runs)
    with RawClient(serve(app)) as c:
        first = c.call("pay", {"amount": 5000, "from_account": EVERYDAY})["result"]
        url = url_of(first, "ok")
        assert submit(url, decision="approve").status_code == 200
        done = c.call("pay", {"amount": 5000, "from_account": EVERYDAY}, responses={"ok": URL_OK},
                      state=first["requestState"])["result"]
        replay = c.call("pay", {"amount": 5000, "from_account": EVERYDAY}, responses={"ok": URL_OK},
                        state=first["requestState"])
    assert runs == [5000] and replay["error"]["code"] == -32602
    rid = done["_meta"][RECEIPT_META]
    receipt = receipt_of(app, rid)
    assert receipt.tool == "pay" and [e.kind for e in receipt.entries] == ["proposed", "approved", "executed",
                                                                             "returned"]
    proposed, approved, executed, returned = receipt.entries
    everyday = f"Everyday account (DE89 …3000) [{EVERYDAY}]"  # the title beside the value, as the page showed it
    assert proposed.where == "page" and proposed.name == "ok"
    assert proposed.text == f"Pay 5000 EUR from {everyday}?"
    assert dict(proposed.values) == {"amount": "5000", "from_account": everyday}
    assert proposed.digest == digest_shown(proposed.text, proposed.values)  # what a passkey would approve
    assert approved.by is not None and (approved.by.method, approved.by.second_person) == ("page", False)
    assert approved.by.by is None  # a development server: nobody signed in at the page
    assert returned.outcome == "complete" and returned.digest == value_digest({"paid": 5000, "from": EVERYDAY})
    assert proposed.at <= approved.at <= executed.at <= returned.at
    assert anyio.run(app.receipt, "x" * 24) is None and anyio.run(app.receipt, "../../etc") is None


def test_an_approval_rejected_on_the_page_is_a_receipt_of_the_rejection_and_no_run(serve: Any) -> None:
    runs: list[Any] = []
    app = bank(runs)
    with RawClient(serve(app)) as c:
        first = c.call("pay", {"amount": 5000, "from_account": EVERYDAY})["result"]
        assert submit(url_of(first, "ok"), decision="reject").status_code == 200
        done = c.call("pay", {"amount": 5000, "from_account": EVERYDAY}, responses={"ok": URL_OK},
                      state=first["requestState"])["result"]
    assert runs == [] and "rejected" in done["content"][0]["text"]
    receipt = receipt_of(app, done["_meta"][RECEIPT_META])
    assert [e.kind for e in receipt.entries] == ["proposed", "rejected", "returned"]
    assert receipt.entries[-1].outcome == "declined" and receipt.entries[-1].digest is None


def test_a_single_use_run_no_page_showed_records_its_values_and_a_plain_tool_leaves_none(serve: Any) -> None:
    runs: list[Any] = []
    app = bank(runs)
    with RawClient(serve(app)) as c:
        first = c.call("pay", {"amount": 10, "from_account": EVERYDAY})["result"]
        assert first["inputRequests"]["ok"]["params"]["mode"] == "form"  # in band: no page, no approval entry
        done = c.call("pay", {"amount": 10, "from_account": EVERYDAY},
                      responses={"ok": {"action": "accept", "content": {"ok": True}}},
                      state=first["requestState"])["result"]
        plain = c.call("echo", {"text": "hi"})["result"]
    assert runs == [10] and RECEIPT_META not in plain["_meta"]
    receipt = receipt_of(app, done["_meta"][RECEIPT_META])
    assert [e.kind for e in receipt.entries] == ["proposed", "executed", "returned"]
    assert receipt.entries[0].where == "run"
    assert dict(receipt.entries[0].values) == {"amount": "10", "from_account": f'"{EVERYDAY}"', "ok": "true"}
    assert [r.id for r in anyio.run(app.receipts)] == [receipt.id]


def test_no_secret_entered_on_a_page_is_in_a_receipt_or_in_any_stored_byte(serve: Any, tmp_path: Path) -> None:
    runs: list[Any] = []
    store = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    app = bank(runs, store=store)
    with RawClient(serve(app)) as c:
        first = c.call("approve_key", {"bank": "Acme"})["result"]
        assert submit(url_of(first, "api_key"), value=CANARY, decision="submit").status_code == 200
        second = c.call("approve_key", {"bank": "Acme"}, responses={"api_key": URL_OK},
                        state=first["requestState"])["result"]
        assert submit(url_of(second, "ok"), decision="approve").status_code == 200
        done = c.call("approve_key", {"bank": "Acme"}, responses={"ok": URL_OK},
                      state=second["requestState"])["result"]
    assert runs == [CANARY] and done["content"][0]["text"] == "connected Acme"
    receipt = receipt_of(app, done["_meta"][RECEIPT_META])
    assert [e.kind for e in receipt.entries] == ["proposed", "approved", "executed", "returned"]
    assert dict(receipt.entries[0].values) == {"bank": "Acme"}  # the secret's place is not even named
    assert CANARY not in json.dumps(receipt.to_json())
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert CANARY.encode() not in stored and b"Connect Acme" not in stored  # sealed at rest, secret read and gone


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_a_2025_11_25_session_gets_the_receipt_id_in_the_results_meta(serve: Any, anyio_backend: str) -> None:
    runs: list[Any] = []
    app = bank(runs)
    url = serve(app)

    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        assert params.mode == "url"
        await anyio.to_thread.run_sync(lambda: submit(params.url, decision="approve"))
        return ElicitResult(action="accept")

    async with Client(url, mode="legacy", elicitation_callback=answer) as client:
        result = await client.call_tool("pay", {"amount": 5000, "from_account": EVERYDAY})
    assert result.is_error is not True and runs == [5000]
    assert result.meta is not None
    receipt = await app.receipt(result.meta[RECEIPT_META])
    assert receipt is not None and [e.kind for e in receipt.entries] == ["proposed", "approved", "executed",
                                                                          "returned"]


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_askback_receipts_reads_them_from_the_store_askback_serve_uses(serve: Any, tmp_path: Path, kind: str) -> None:
    from tests.e2e.test_cli import askback_command

    if kind == "redis":
        from tests.support.redis import machine_or_private

        base, private = machine_or_private()
        name = "receipts-" + os.urandom(4).hex()
        store = f"{base}?app={name}"
    else:
        private, store = None, f"sqlite:///{tmp_path / 'store.sqlite3'}"
    try:
        runs: list[Any] = []
        app = bank(runs, store=store)
        with RawClient(serve(app)) as c:
            first = c.call("pay", {"amount": 5000, "from_account": EVERYDAY})["result"]
            assert submit(url_of(first, "ok"), decision="approve").status_code == 200
            done = c.call("pay", {"amount": 5000, "from_account": EVERYDAY}, responses={"ok": URL_OK},
                          state=first["requestState"])["result"]
        rid = done["_meta"][RECEIPT_META]
        target = tmp_path / "bankapp.py"
        target.write_text("from tests.e2e.test_receipts import bank\napp = bank([], store=None)  # ASKBACK_STORE\n")
        env = {**os.environ, "ASKBACK_KEYS": KEY, "ASKBACK_STORE": store, "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).parents[2]), os.environ.get("PYTHONPATH", "")])}
        env.pop("ASKBACK_DATA_DIR", None)
        listed = subprocess.run([*askback_command(), "receipts", str(target)], env=env, capture_output=True,
                                text=True, timeout=60)
        shown = subprocess.run([*askback_command(), "receipts", str(target), rid, "--json"], env=env,
                               capture_output=True, text=True, timeout=60)
        unknown = subprocess.run([*askback_command(), "receipts", str(target), "A" * 24], env=env,
                                 capture_output=True, text=True, timeout=60)
    finally:
        if private is not None:
            private.stop()
    assert listed.returncode == 0, listed.stderr
    assert rid in listed.stdout and "pay" in listed.stdout and "approved" in listed.stdout
    assert shown.returncode == 0, shown.stderr
    body = json.loads(shown.stdout)
    assert body["id"] == rid and [e["kind"] for e in body["entries"]] == ["proposed", "approved", "executed",
                                                                           "returned"]
    assert unknown.returncode == 1 and "no receipt" in unknown.stderr and "Traceback" not in unknown.stderr


def task_bank(runs: list[Any]) -> askback.App:
    app = askback.App("receipt-tasks", keys=KEY, store="memory://", page_wait=0)

    @app.tool(once=True, task="optional")
    def pay_later(amount: int, ok: Annotated[bool, askback.Confirm("Pay {amount} EUR?", out_of_band=True)]) -> str:
        runs.append(amount)
        return f"paid {amount}"

    return app


def test_an_mcp_task_carries_the_receipt_id_in_its_result_and_records_what_it_returned(serve: Any) -> None:
    from tests.tasks.wire import WITH_TASKS, TaskClient

    runs: list[Any] = []
    app = task_bank(runs)
    client = TaskClient(serve(app), capabilities={**WITH_TASKS, "elicitation": {"form": {}, "url": {}}})
    first = client.call("pay_later", {"amount": 5000})["result"]
    assert submit(url_of(first, "ok"), decision="approve").status_code == 200
    created = client.call("pay_later", {"amount": 5000}, inputResponses={"ok": URL_OK},
                          requestState=first["requestState"])["result"]
    assert created["resultType"] == "task"
    done = client.wait(created["taskId"])
    assert done["status"] == "completed" and runs == [5000]
    rid = done["result"]["_meta"][RECEIPT_META]
    receipt = receipt_of(app, rid)
    assert [e.kind for e in receipt.entries] == ["proposed", "approved", "executed", "returned"]
    assert receipt.entries[-1].outcome == "complete" and receipt.entries[-1].digest == value_digest("paid 5000")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("decision", ["approve", "reject"])
async def test_an_a2a_task_approved_or_rejected_on_the_page_names_its_receipt(serve: Any, anyio_backend: str,
                                                                             decision: str) -> None:
    from google.protobuf import json_format

    from tests.a2a.support import Agent, extension_meta, message, state

    runs: list[Any] = []
    app = bank(runs)
    async with Agent(serve(app).removesuffix("/mcp")) as agent:
        task = await agent.call("pay", amount=5000, from_account=EVERYDAY)
        assert state(task) == "TASK_STATE_AUTH_REQUIRED"
        (page,) = extension_meta(task)["pages"]
        assert (await anyio.to_thread.run_sync(lambda: submit(page["url"], decision=decision))).status_code == 200
        done = await agent.send(message(text="done", task=task))
    if decision == "approve":
        assert state(done) == "TASK_STATE_COMPLETED" and runs == [5000]
        rid = json_format.MessageToDict(done.artifacts[0].metadata)[RECEIPT_META]
        kinds = ["proposed", "approved", "executed", "returned"]
    else:
        assert state(done) == "TASK_STATE_CANCELED" and runs == []
        rid = json_format.MessageToDict(done.status.message.metadata)[RECEIPT_META]
        kinds = ["proposed", "rejected", "returned"]
    receipt = await app.receipt(rid)
    assert receipt is not None and [e.kind for e in receipt.entries] == kinds


def test_the_approval_names_the_person_signed_in_at_the_page_and_a_refused_person_adds_nothing(serve: Any) -> None:
    import httpx

    runs: list[Any] = []
    app = bank(runs, principal=lambda request: request.headers.get("x-user"),
               page_auth=lambda request: request.headers.get("x-user"))
    url = serve(app)
    with RawClient(url) as c:
        c.http.headers["x-user"] = "alice"  # the caller, as the principal hook reads it
        first = c.call("pay", {"amount": 5000, "from_account": EVERYDAY})["result"]
        link = url_of(first, "ok")
        assert httpx.get(link, headers={"x-user": "mallory"}).status_code == 403  # not hers: nothing recorded
        with httpx.Client(headers={"x-user": "alice"}) as browser:
            page = browser.get(link).text
            token = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
            assert browser.post(link, data={"csrf": token, "decision": "approve"}).status_code == 200
        done = c.call("pay", {"amount": 5000, "from_account": EVERYDAY}, responses={"ok": URL_OK},
                      state=first["requestState"])["result"]
    receipt = receipt_of(app, done["_meta"][RECEIPT_META])
    assert receipt.principal == "alice" and [e.kind for e in receipt.entries] == ["proposed", "approved", "executed",
                                                                                 "returned"]
    assert receipt.entries[1].by is not None and receipt.entries[1].by.to_json() == {
        "by": "alice", "method": "page", "second_person": False, "credential": None}


def test_a_store_that_cannot_append_still_runs_a_started_single_use_run_once_and_says_so(
        serve: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A Redis user denied RPUSH (an ACL): the claim starts the run, the receipt cannot record it, and the run
    goes on; refusing it then would lose it, since a retry is a replay of a started run."""
    import logging

    import redis as redis_sync

    from tests.support.redis import PrivateRedis

    private = PrivateRedis().start()
    try:
        admin = redis_sync.Redis(port=private.port)
        admin.execute_command("ACL", "SETUSER", "norpush", "on", ">pw", "~*", "&*", "+@all", "-rpush")
        runs: list[Any] = []
        app = bank(runs, store=f"redis://norpush:pw@127.0.0.1:{private.port}/0")
        with caplog.at_level(logging.ERROR, logger="askback"), RawClient(serve(app)) as c:
            first = c.call("pay", {"amount": 10, "from_account": EVERYDAY})["result"]
            answer = {"ok": {"action": "accept", "content": {"ok": True}}}
            done = c.call("pay", {"amount": 10, "from_account": EVERYDAY}, responses=answer,
                          state=first["requestState"])["result"]
            replay = c.call("pay", {"amount": 10, "from_account": EVERYDAY}, responses=answer,
                            state=first["requestState"])
    finally:
        private.stop()
    assert runs == [10] and done["structuredContent"] == {"paid": 10, "from": EVERYDAY}
    assert replay["error"]["code"] == -32602  # the started run is not run again
    assert any("could not record the start of its run" in r.getMessage() for r in caplog.records)


def test_a_decision_on_the_page_stands_when_its_receipt_cannot_be_written(serve: Any) -> None:
    """The proposal is written before the page exists (a store that cannot write it makes no page); once the
    person used the link, the decision is kept even if its receipt entry cannot be."""
    import redis as redis_sync

    from tests.support.redis import PrivateRedis

    private = PrivateRedis().start()
    try:
        admin = redis_sync.Redis(port=private.port)
        admin.execute_command("ACL", "SETUSER", "app", "on", ">pw", "~*", "&*", "+@all")
        runs: list[Any] = []
        app = bank(runs, store=f"redis://app:pw@127.0.0.1:{private.port}/0")
        with RawClient(serve(app)) as c:
            first = c.call("pay", {"amount": 5000, "from_account": EVERYDAY})["result"]
            admin.execute_command("ACL", "SETUSER", "app", "-rpush")  # from now on no receipt entry is written
            posted = submit(url_of(first, "ok"), decision="approve")
            done = c.call("pay", {"amount": 5000, "from_account": EVERYDAY}, responses={"ok": URL_OK},
                          state=first["requestState"])["result"]
            refused = c.call("pay", {"amount": 6000, "from_account": EVERYDAY})
    finally:
        private.stop()
    assert posted.status_code == 200 and "Approved" in posted.text
    assert runs == [5000] and done["structuredContent"] == {"paid": 5000, "from": EVERYDAY}
    assert refused["error"]["data"]["retryable"] is True  # no page is made whose proposal cannot be recorded


def test_a_prompt_and_a_resource_approved_on_a_page_name_their_receipt_too(serve: Any) -> None:
    # Approvals of a prompt or a resource read are out-of-band approvals like a tool's: their results carry the
    # receipt's id as well (only tools' did), and a rejection's error data names it.
    runs: list[Any] = []
    app = askback.App("receipt-reads", keys=KEY, store="memory://", page_wait=0)

    @app.prompt()
    def wire_note(amount: int, ok: Annotated[bool, askback.Confirm("Draft a note for {amount}?",
                                                                     out_of_band=True)]) -> str:
        runs.append(("prompt", amount))
        return f"note for {amount}"

    @app.resource("vault://{name}")
    def vault(name: str, ok: Annotated[bool, askback.Confirm("Open {name}?", out_of_band=True)]) -> str:
        runs.append(("resource", name))
        return f"contents of {name}"

    with RawClient(serve(app)) as c:
        first = c.send("prompts/get", {"name": "wire_note", "arguments": {"amount": "7"}})["result"]
        assert submit(url_of(first, "ok"), decision="approve").status_code == 200
        done = c.send("prompts/get", {"name": "wire_note", "arguments": {"amount": "7"},
                                      "inputResponses": {"ok": URL_OK}, "requestState": first["requestState"]})
        rid = done["result"]["_meta"][RECEIPT_META]
        assert [e.kind for e in receipt_of(app, rid).entries] == ["proposed", "approved", "executed", "returned"]

        first = c.send("resources/read", {"uri": "vault://alpha"})["result"]
        assert submit(url_of(first, "ok"), decision="approve").status_code == 200
        done = c.send("resources/read", {"uri": "vault://alpha", "inputResponses": {"ok": URL_OK},
                                         "requestState": first["requestState"]})
        rid = done["result"]["_meta"][RECEIPT_META]
        assert [e.kind for e in receipt_of(app, rid).entries] == ["proposed", "approved", "executed", "returned"]

        first = c.send("resources/read", {"uri": "vault://beta"})["result"]
        assert submit(url_of(first, "ok"), decision="reject").status_code == 200
        refused = c.send("resources/read", {"uri": "vault://beta", "inputResponses": {"ok": URL_OK},
                                            "requestState": first["requestState"]})
        rid = refused["error"]["data"][RECEIPT_META]
        assert [e.kind for e in receipt_of(app, rid).entries][:2] == ["proposed", "rejected"]
    assert runs == [("prompt", 7), ("resource", "alpha")]
