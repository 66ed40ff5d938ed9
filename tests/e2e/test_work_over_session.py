"""A tool that asks during its work (`askback.Work`), called by a 2025-11-25 client that is not running a task.

Such a client has no tasks extension to declare, but its session has a back-channel: askback asks each of the
work's questions there, as it asks a missing value (`Flow.converse`). The official SDK's `Client` on a real
loopback server is the only answerer, so what it was asked is what reached a client; the function's own record
says what ran. A client that cannot be asked is told so truthfully: the function ran up to the question, and
nothing after it.
"""

from typing import Annotated, Any

import mcp_types as types
import pytest
from mcp.client.client import Client
from mcp.client.session import ClientRequestContext
from pydantic import Field

import askback
from askback.demo import app as demo_app
from tests.e2e.test_sdk_client import Elicitor, Serve, accept, by_field, text_of
from tests.support import tsclient

pytestmark = pytest.mark.anyio
LEGACY = "legacy"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def housekeeping() -> tuple[askback.App, list[str]]:
    """A tool whose three questions come from what its work found: a choice, a typed value, a confirmation."""
    app = askback.App("housekeeping", store="memory://")
    done: list[str] = []

    @app.tool(task="optional")
    async def tidy(folder: Annotated[str, Field(description="Folder to tidy")], *, work: askback.Work) -> str:
        """Scan a folder, ask which copy to keep and how many days back, confirm, then delete."""
        await work.status("Scanning {folder}", folder=folder)
        done.append(f"scanned {folder}")
        keep = await work.choose("Two copies of {name} were found. Which one do we keep?",
                                 [askback.Option("a", "The newer copy"), askback.Option("b", "The older copy")],
                                 name="report.txt")
        done.append(f"keep {keep}")
        days = await work.ask("Delete logs older than how many days?", Annotated[int, Field(ge=1, le=365)])
        done.append(f"days {days}")
        if not await work.confirm("Delete {n} files older than {days} days in {folder}?", n=3, days=days,
                                  folder=folder):
            done.append("kept everything")
            return "Kept everything."
        await work.status("Deleting {n} files", n=3)
        done.append("deleted")
        return f"Deleted 3 files; kept copy {keep}."

    return app, done


def answering(**answers: Any) -> Elicitor:
    """Answer each work question by its field (`choice`, `value`, `confirm`) with a value or a callable."""

    def reply(name: str) -> Any:
        def answer(params: types.ElicitRequestFormParams) -> types.ElicitResult:
            given = answers[name]
            if callable(given):
                result: types.ElicitResult = given(params)
                return result
            return accept(**{name: given})

        return answer

    return Elicitor(by_field(**{name: reply(name) for name in answers}))


async def test_the_work_asks_its_questions_over_the_session_and_the_function_completes(serve: Serve) -> None:
    app, done = housekeeping()
    elicitor = answering(choice="b", value=14, confirm=True)
    async with Client(serve(app), mode=LEGACY, elicitation_callback=elicitor) as client:
        assert client.protocol_version == "2025-11-25"
        result = await client.call_tool("tidy", {"folder": "/srv/logs"})

    assert not result.is_error, text_of(result)
    assert text_of(result) == "Deleted 3 files; kept copy b."
    assert done == ["scanned /srv/logs", "keep b", "days 14", "deleted"]
    assert elicitor.fields() == ["choice", "value", "confirm"]
    elicitor.assert_era(LEGACY, [])  # each question is a request of the server's own on the back-channel
    choice, days, confirm = elicitor.asked
    assert choice.message == "Two copies of report.txt were found. Which one do we keep?"
    assert choice.requested_schema["properties"]["choice"]["oneOf"] == [
        {"const": "a", "title": "The newer copy"}, {"const": "b", "title": "The older copy"}]
    assert days.requested_schema["properties"]["value"] == {"type": "integer", "minimum": 1, "maximum": 365}
    assert confirm.message == "Delete 3 files older than 14 days in /srv/logs?"
    assert confirm.requested_schema["properties"]["confirm"]["type"] == "boolean"


async def test_an_invalid_work_answer_is_asked_again_with_the_reason(serve: Serve) -> None:
    app, done = housekeeping()
    days = iter([0, 400, 7])
    choices = iter(["c", "a"])
    elicitor = answering(choice=lambda params: accept(choice=next(choices)),
                         value=lambda params: accept(value=next(days)), confirm=True)
    async with Client(serve(app), mode=LEGACY, elicitation_callback=elicitor) as client:
        result = await client.call_tool("tidy", {"folder": "/srv/logs"})

    assert text_of(result) == "Deleted 3 files; kept copy a."
    assert done == ["scanned /srv/logs", "keep a", "days 7", "deleted"]
    assert elicitor.fields() == ["choice", "choice", "value", "value", "value", "confirm"]
    first_choice, choice_again, first_days, days_again, days_third, _ = elicitor.asked
    assert "not accepted" not in first_choice.message and "not accepted" not in first_days.message
    assert choice_again.message.startswith(first_choice.message)
    assert "The previous answer was not accepted: it is not one of the options." in choice_again.message
    assert "greater than or equal to 1" in days_again.message
    assert "less than or equal to 365" in days_third.message
    assert "400" not in days_third.message  # the rejected value is not echoed back
    assert days_again.requested_schema == first_days.requested_schema


@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_a_declined_confirmation_is_the_functions_to_handle(serve: Serve, action: str) -> None:
    """`work.confirm` returns False on a decline or a cancel: the function goes on and says what it did."""
    app, done = housekeeping()
    elicitor = answering(choice="a", value=30, confirm=lambda params: types.ElicitResult(action=action))
    async with Client(serve(app), mode=LEGACY, elicitation_callback=elicitor) as client:
        result = await client.call_tool("tidy", {"folder": "/srv/logs"})

    assert not result.is_error
    assert text_of(result) == "Kept everything."
    assert done == ["scanned /srv/logs", "keep a", "days 30", "kept everything"]


@pytest.mark.parametrize(("action", "outcome"), [("decline", "declined"), ("cancel", "cancelled")])
async def test_a_declined_question_ends_the_call_as_that_refusal(serve: Serve, action: str, outcome: str) -> None:
    """A decline of `choose` or `ask` raises `askback.Declined`: the call ends as the person's refusal, saying
    that nothing more was done (the scan before the question did run)."""
    app, done = housekeeping()
    elicitor = answering(choice="a", value=lambda params: types.ElicitResult(action=action))
    async with Client(serve(app), mode=LEGACY, elicitation_callback=elicitor) as client:
        result = await client.call_tool("tidy", {"folder": "/srv/logs"})

    assert done == ["scanned /srv/logs", "keep a"]
    assert elicitor.fields() == ["choice", "value"]
    assert result.is_error is False  # a person's answer, not a failure (the tool has no outputSchema)
    assert text_of(result) == f"tidy was {outcome} when asked a question. Nothing more was done."
    assert result.structured_content == {"outcome": outcome, "message": text_of(result)}


async def test_a_client_without_elicitation_is_told_the_truth(serve: Serve) -> None:
    """Without form elicitation nothing can be asked: the function ran up to its first question and stops
    there, and the tool error says so (never "declare the tasks extension", which 2025-11-25 has not)."""
    app, done = housekeeping()
    async with Client(serve(app), mode=LEGACY) as client:
        result = await client.call_tool("tidy", {"folder": "/srv/logs"})

    assert result.is_error is True
    text = text_of(result)
    assert "did not declare form elicitation" in text and "Nothing more was done." in text
    assert "tasks extension" not in text
    assert done == ["scanned /srv/logs"]


async def test_a_client_whose_callback_fails_gets_its_error_and_nothing_more_runs(serve: Serve) -> None:
    app, done = housekeeping()

    async def cannot(context: ClientRequestContext,
                     params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        return types.ErrorData(code=types.INVALID_REQUEST, message="no user at this terminal")

    async with Client(serve(app), mode=LEGACY, elicitation_callback=cannot) as client:
        from mcp.shared.exceptions import MCPError

        with pytest.raises(MCPError, match="no user at this terminal"):
            await client.call_tool("tidy", {"folder": "/srv/logs"})
    assert done == ["scanned /srv/logs"]


@pytest.mark.parametrize(("answer", "said"), [(True, "Deleted 3 files from /var/log/shop."),
                                              (False, "Kept all 3 files.")])
async def test_the_demo_clean_logs_runs_on_a_2025_11_25_client(serve: Serve, answer: bool, said: str) -> None:
    elicitor = answering(confirm=answer)
    async with Client(serve(demo_app), mode=LEGACY, elicitation_callback=elicitor) as client:
        result = await client.call_tool("clean_logs", {"folder": "/var/log/shop"})

    assert not result.is_error, text_of(result)
    assert text_of(result) == said
    (asked,) = elicitor.asked
    assert asked.message.startswith("Delete these 3 files? ")
    assert "/var/log/shop/app-1.log" in asked.message


async def test_a_2026_07_28_call_that_is_not_a_task_still_says_a_task_is_needed(serve: Serve) -> None:
    """The stateless era has no back-channel: its answer is unchanged (a tool error naming the extension)."""
    app, done = housekeeping()
    elicitor = answering(choice="a")
    async with Client(serve(app), mode="2026-07-28", elicitation_callback=elicitor) as client:
        result = await client.call_tool("tidy", {"folder": "/srv/logs"})

    assert result.is_error is True
    assert "only a task can do" in text_of(result) and "io.modelcontextprotocol/tasks" in text_of(result)
    assert elicitor.asked == [] and done == ["scanned /srv/logs"]


async def test_a_question_for_a_credential_is_never_put_to_the_client(serve: Serve) -> None:
    """The secret guard refuses a work question asking for a password, as it does in a task: the client is never
    shown it, and the tool error names the tool's mistake."""
    app = askback.App("careless", store="memory://")
    done: list[str] = []

    @app.tool(task="optional")
    async def rotate(*, work: askback.Work) -> str:
        done.append("started")
        password = await work.ask("What is the database password?")
        done.append("asked")
        return f"rotated with {password}"

    elicitor = answering(value="hunter2")
    async with Client(serve(app), mode=LEGACY, elicitation_callback=elicitor) as client:
        result = await client.call_tool("rotate", {})

    assert result.is_error is True
    assert text_of(result).startswith("rotate failed: the work asked for a password in a form")
    assert text_of(result).endswith("Nothing more was done.")
    assert elicitor.asked == [] and done == ["started"]


async def test_answers_that_never_fit_stop_after_the_round_limit(serve: Serve) -> None:
    app = askback.App("stubborn", store="memory://", max_rounds=3)
    done: list[str] = []

    @app.tool(task="optional")
    async def pick(*, work: askback.Work) -> str:
        days = await work.ask("How many days?", int)
        done.append(f"days {days}")
        return f"{days} days"

    elicitor = answering(value="many")
    async with Client(serve(app), mode=LEGACY, elicitation_callback=elicitor) as client:
        result = await client.call_tool("pick", {})

    assert result.is_error is True
    assert text_of(result) == "pick asked 3 times without a usable answer. Nothing more was done."
    assert elicitor.fields() == ["value", "value", "value"] and done == []


async def test_work_status_reaches_a_client_that_asked_for_progress(serve: Serve) -> None:
    """`work.status` is a task's status message; on a session call it is a progress notification with the text,
    sent only to a request that carried a progress token (the SDK's `progress_callback` sends one)."""
    app, done = housekeeping()
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total, message))

    elicitor = answering(choice="a", value=3, confirm=True)
    async with Client(serve(app), mode=LEGACY, elicitation_callback=elicitor) as client:
        result = await client.call_tool("tidy", {"folder": "/srv/logs"}, progress_callback=progress)
        silent = await client.call_tool("tidy", {"folder": "/srv/logs"})

    assert text_of(result) == text_of(silent) == "Deleted 3 files; kept copy a."
    assert seen == [(1, None, "Scanning /srv/logs"), (2, None, "Deleting 3 files")]
    assert done == ["scanned /srv/logs", "keep a", "days 3", "deleted"] * 2


@pytest.mark.parametrize(("answer", "said"), [("yes", "Deleted 3 files from /var/log/shop."),
                                              ("no", "Kept all 3 files.")])
def test_the_typescript_sdk_client_runs_clean_logs_on_2025_11_25(serve: Serve, answer: str, said: str) -> None:
    """The foreign client of the outside test (TS SDK v2, legacy mode, no tasks extension) that never could."""
    output = tsclient.run("clean_logs.mjs", serve(demo_app), answer)
    assert output["ok"] is True and output["version"] == "2025-11-25", output
    assert output["result"]["content"] == [{"type": "text", "text": said}]
    assert output["result"].get("isError", False) is False
    (asked,) = output["asked"]
    assert asked.startswith("Delete these 3 files? ")


def test_the_typescript_sdk_client_without_elicitation_is_told_the_truth(serve: Serve) -> None:
    output = tsclient.run("clean_logs.mjs", serve(demo_app), "none")
    assert output["ok"] is True, output
    assert output["result"]["isError"] is True
    (block,) = output["result"]["content"]
    assert "did not declare form elicitation" in block["text"] and "Nothing more was done." in block["text"]
