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
from askback.guard import GUARD
from askback.stores import MemoryStore, SQLiteStore
from askback.types import Capabilities

KEY = base64.urlsafe_b64encode(bytes(range(50, 82))).decode().rstrip("=")
EVERYTHING = Capabilities.everything()


def runtime(store: Any = None) -> Runtime:
    clock = StatePolicy().now
    return Runtime(audience="flow-test", codec=StateCodec(Keyring.from_text(KEY)), store=store or MemoryStore(),
                   clock=clock, guard=GUARD)


def accounts(caller: askback.Caller) -> list[str]:
    return ["A1", "A2"] if caller.principal == "ada" else ["B1"]


runs: list[dict[str, Any]] = []


def pay(amount: int, account: Annotated[str, askback.OneOf(accounts)],
        ok: Annotated[bool, askback.Confirm("Pay {amount} from {account}?")], caller: askback.Caller) -> str:
    runs.append({"amount": amount, "account": account, "who": caller.principal})
    return "paid"


PAY = build_spec(pay, kind="tool", once=True, guard=GUARD)


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


# -- a store whose answer is lost: the claim or the start landed, and the request never heard it -------------
def _stalling(base: type) -> type:
    """`base` (a real store) that records `fail` operations, then raises as a store that timed out would."""

    class Stalling(base):  # type: ignore[misc, valid-type]
        fail: frozenset[str] = frozenset()  # the operations to fail, once each
        before: bool = False  # True: fail before recording (the command never arrived)

        async def claim_run(self, *args: Any) -> Any:
            return await self._maybe("claim_run", super().claim_run, *args)

        async def start_run(self, *args: Any) -> Any:
            return await self._maybe("start_run", super().start_run, *args)

        async def _maybe(self, name: str, real: Any, *args: Any) -> Any:
            from askback.core.errors import StoreUnavailable

            if name not in self.fail:
                return await real(*args)
            self.fail = self.fail - {name}
            if not self.before:
                await real(*args)  # it landed; only the answer is lost
            raise StoreUnavailable("timed out")

    return Stalling


async def _final_round(flow: Flow) -> Round:
    """The two asking rounds of a new `pay` flow; its final round, not yet sent."""
    first = await flow.step(PAY, Round("tools/call", "pay", {"amount": 4}, caps=EVERYTHING, principal="ada"))
    assert isinstance(first, Asking)
    second = await flow.step(PAY, Round("tools/call", "pay", {"amount": 4},
                                        {"account": {"action": "accept", "content": {"account": "A1"}}},
                                        first.state, EVERYTHING, "ada"))
    assert isinstance(second, Asking)
    return Round("tools/call", "pay", {"amount": 4}, {"ok": {"action": "accept", "content": {"ok": True}}},
                 second.state, EVERYTHING, "ada")


@pytest.mark.parametrize("base", [MemoryStore, SQLiteStore], ids=["memory", "sqlite"])
@pytest.mark.parametrize(("fail", "before"), [("claim_run", False), ("claim_run", True), ("start_run", True)])
def test_a_retry_after_a_lost_answer_runs_the_function_exactly_once(base: type, fail: str, before: bool,
                                                                    tmp_path: Path) -> None:
    from askback.core.errors import StoreUnavailable

    store = _stalling(base)(tmp_path / "s.db") if base is SQLiteStore else _stalling(base)()
    store.fail, store.before = frozenset({fail}), before
    flow = Flow(runtime(store))
    runs.clear()

    async def main() -> None:
        final = await _final_round(flow)
        with pytest.raises(StoreUnavailable) as told:
            await flow.step(PAY, final)
        assert "Retry the same request" in told.value.public_message
        assert runs == []  # nothing ran
        done = await flow.step(PAY, final)  # the retry it was told to send
        assert isinstance(done, Finished) and len(runs) == 1
        with pytest.raises(InvalidRequestState) as replay:
            await flow.step(PAY, final)
        assert replay.value.reason is Rejection.REPLAYED and len(runs) == 1

    anyio.run(main)


@pytest.mark.parametrize("base", [MemoryStore, SQLiteStore], ids=["memory", "sqlite"])
def test_a_start_that_landed_unheard_never_runs_and_the_caller_is_told_a_retry_may_be_refused(
        base: type, tmp_path: Path) -> None:
    from askback.core.errors import StoreInDoubt

    store = _stalling(base)(tmp_path / "s.db") if base is SQLiteStore else _stalling(base)()
    store.fail, store.before = frozenset({"start_run"}), False
    flow = Flow(runtime(store))
    runs.clear()

    async def main() -> None:
        final = await _final_round(flow)
        with pytest.raises(StoreInDoubt) as told:
            await flow.step(PAY, final)
        assert "nothing was done" in told.value.public_message
        assert "if the retry is refused" in told.value.public_message and "start the request again" in (
            told.value.public_message)
        with pytest.raises(InvalidRequestState):  # the store recorded the start: it can never run again
            await flow.step(PAY, final)
        assert runs == []  # and it never ran: the caller, told so, starts again
        again = await _final_round(flow)
        assert isinstance(await flow.step(PAY, again), Finished) and len(runs) == 1

    anyio.run(main)
