"""`work.ask(text, secret=True)` on an MCP task: never a form; without the page step the task says it had started."""

from __future__ import annotations

from collections.abc import Callable

import askback
from tests.tasks.wire import TaskClient


def test_a_secret_asked_during_a_task_is_never_a_form_and_the_result_says_the_work_had_started(
    serve: Callable[[askback.App], str],
) -> None:
    app = askback.App("work-secret-tests", principal=lambda r: r.headers.get("x-user"))
    reached: list[str] = []

    @app.tool(task="optional")
    async def rotate(work: askback.Work) -> str:
        """Rotates a key, asking for the new one."""
        reached.append("started")
        key = await work.ask("Your new API key", secret=True)
        reached.append("asked")
        return f"rotated ({len(key.reveal())} characters)"

    client = TaskClient(serve(app), headers={"x-user": "alice"})
    task_id = client.call("rotate", {})["result"]["taskId"]
    done = client.wait(task_id)
    assert "inputRequests" not in done  # no form was put to the client
    assert done["status"] == "completed" and done["result"]["isError"] is True
    text = done["result"]["content"][0]["text"]
    assert "already started" in text and "askback.Secret" in text and "retry" not in text.lower()
    assert reached == ["started"]
