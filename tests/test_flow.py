"""The flow on its own: a runtime and a holder, no App, no MCP, real stores."""

import base64
from pathlib import Path
from typing import Annotated, Any

import anyio
import pytest

import askback
from askback.core.errors import InvalidRequestState, Rejection
from askback.core.spec import build_spec
from askback.core.state import Keyring, StateCodec, StatePolicy
from askback.flow import Asking, Finished, Flow, LiveSession, Refused, Round, Runtime
from askback.stores import MemoryStore, SQLiteStore
from askback.types import Capabilities

KEY = base64.urlsafe_b64encode(bytes(range(50, 82))).decode().rstrip("=")
EVERYTHING = Capabilities.everything()


def runtime(store: Any = None) -> Runtime:
    clock = StatePolicy().now
    return Runtime(audience="flow-test", codec=StateCodec(Keyring.from_text(KEY)), store=store or MemoryStore(),
                   clock=clock)


def accounts(caller: askback.Caller) -> list[str]:
    return ["A1", "A2"] if caller.principal == "ada" else ["B1"]


runs: list[dict[str, Any]] = []


def pay(amount: int, account: Annotated[str, askback.OneOf(accounts)],
        ok: Annotated[bool, askback.Confirm("Pay {amount} from {account}?")], caller: askback.Caller) -> str:
    runs.append({"amount": amount, "account": account, "who": caller.principal})
    return "paid"


PAY = build_spec(pay, kind="tool", once=True)


def test_a_sealed_flow_runs_once_and_a_replay_is_refused() -> None:
    async def main() -> None:
        runs.clear()
        flow = Flow(runtime())
        first = await flow.step(PAY, Round("tools/call", "pay", {"amount": 3}, caps=EVERYTHING, principal="ada"))
        assert isinstance(first, Asking) and [q.key for q in first.questions] == ["account"]
        second = await flow.step(PAY, Round("tools/call", "pay", {"amount": 3},
                                            {"account": {"action": "accept", "content": {"account": "A2"}}},
                                            first.state, EVERYTHING, "ada"))
        assert isinstance(second, Asking) and [q.key for q in second.questions] == ["ok"]
        final = Round("tools/call", "pay", {"amount": 3}, {"ok": {"action": "accept", "content": {"ok": True}}},
                      second.state, EVERYTHING, "ada")
        done = await flow.step(PAY, final)
        assert isinstance(done, Finished) and done.value == "paid"
        with pytest.raises(InvalidRequestState) as replay:
            await flow.step(PAY, final)
        assert replay.value.reason is Rejection.REPLAYED
        assert runs == [{"amount": 3, "account": "A2", "who": "ada"}]

    anyio.run(main)


def test_a_state_opens_only_for_its_principal() -> None:
    async def main() -> None:
        flow = Flow(runtime())
        first = await flow.step(PAY, Round("tools/call", "pay", {"amount": 3}, caps=EVERYTHING, principal="ada"))
        assert isinstance(first, Asking)
        with pytest.raises(InvalidRequestState) as other:
            await flow.step(PAY, Round("tools/call", "pay", {"amount": 3}, {}, first.state, EVERYTHING, "bob"))
        assert other.value.reason is Rejection.NOT_AUTHENTIC

    anyio.run(main)


def test_a_live_session_converses_until_the_function_runs(tmp_path: Path) -> None:
    async def main() -> None:
        runs.clear()
        store = SQLiteStore(tmp_path / "s.db")
        await store.open()
        flow = Flow(runtime(store))
        asked: list[str] = []

        async def ask(question: Any) -> dict[str, Any]:
            asked.append(question.key)
            content = {"account": "A1"} if question.key == "account" else {"ok": True}
            return {"action": "accept", "content": content}

        done = await flow.converse(PAY, Round("tools/call", "pay", {"amount": 9}, caps=EVERYTHING,
                                               principal="ada"), ask)
        assert isinstance(done, Finished) and asked == ["account", "ok"]
        assert runs == [{"amount": 9, "account": "A1", "who": "ada"}]
        await store.close()

    anyio.run(main)


def test_a_holder_keeps_progress_without_any_token() -> None:
    async def main() -> None:
        flow = Flow(runtime())
        holder = LiveSession()
        first = await flow.step(PAY, Round("tools/call", "pay", {"amount": 1}, caps=EVERYTHING, principal="ada"),
                                holder)
        assert isinstance(first, Asking) and first.state is None
        declined = await flow.step(PAY, Round("tools/call", "pay", {"amount": 1},
                                              {"account": {"action": "decline"}}, None, EVERYTHING, "ada"), holder)
        assert isinstance(declined, Refused) and declined.refusal.reason == "declined"
        assert not declined.refusal.is_error

    anyio.run(main)
