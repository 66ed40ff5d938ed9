"""`askback call` against an agent built on the a2a-sdk alone, which asks in free text (tests/a2a/plain_agent.py).

Each new free-text question of a call has its own key (`reply-1`, `reply-2`, …), so an answers file answers
each round and a second question is not taken for the first asked again; the same text asked again keeps its
key. A text-only auth-required task shows the agent's words, URL included, and the person's reply goes on.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from askback.client import FileAnswerer
from askback.client.a2a import AgentCall
from askback.client.errors import AnswerRejected
from tests.a2a import plain_agent
from tests.a2a.test_client import run
from tests.conftest import LoopbackServer
from tests.e2e.test_cli import askback_command
from tests.support import terminal


class _Late:
    """An ASGI app built once the port is known (the agent's card names its own URL)."""

    app: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


@pytest.fixture
def agent() -> Iterator[str]:
    """The plain a2a-sdk agent on loopback: its card URL."""
    late = _Late()
    server = LoopbackServer(late)
    late.app = plain_agent.build(server.port)
    with server:
        yield f"http://127.0.0.1:{server.port}/.well-known/agent-card.json"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def answers(tmp_path: Path, values: dict[str, Any]) -> str:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(values))
    return str(path)


def test_an_answers_file_answers_each_round_of_free_text_by_its_own_key(agent: str, tmp_path: Path) -> None:
    done = run("call", agent, "greet", "--answers", answers(tmp_path, {"reply-1": "Ada", "reply-2": "yes"}),
               "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"] == [{"type": "text", "text": "Good day, Ada."}]
    informal = run("call", agent, "greet", "--answers", answers(tmp_path, {"reply-1": "Grace", "reply-2": "no"}),
                   "--json", cwd=tmp_path)
    assert json.loads(informal.stdout)["content"][0]["text"] == "Hi, Grace.", informal.stderr


def test_an_answers_file_without_the_second_round_names_that_question(agent: str, tmp_path: Path) -> None:
    stopped = run("call", agent, "greet", "--answers", answers(tmp_path, {"reply-1": "Ada"}), cwd=tmp_path)
    assert stopped.returncode == 5, stopped.stderr
    assert "'reply-2'" in stopped.stderr and "Shall I greet Ada formally? (yes/no)" in stopped.stderr
    assert "did not accept" not in stopped.stderr  # a new question, not the first one asked again


@pytest.mark.anyio
async def test_the_same_question_asked_again_keeps_its_key_and_says_so(agent: str) -> None:
    # "What is the PIN?" asks for a credential: the file answers it only because it is told it may.
    base = agent.removesuffix("/.well-known/agent-card.json")
    call = AgentCall(base, answerer=FileAnswerer({"reply-1": "0000"}, allow_secret_forms=True))
    with pytest.raises(AnswerRejected) as rejected:
        await call.call("pin", {})
    assert rejected.value.key == "reply-1" and rejected.value.message == "What is the PIN?"
    right = AgentCall(base, answerer=FileAnswerer({"reply-1": "1234"}), allow_secret_forms=True)
    assert (await right.call("pin", {}))["content"] == [{"type": "text", "text": "PIN accepted"}]


def test_an_agent_asking_for_a_pin_in_free_text_is_refused_without_consent(agent: str, tmp_path: Path) -> None:
    stopped = run("call", agent, "pin", "--answers", answers(tmp_path, {"reply-1": "1234"}), cwd=tmp_path)
    assert stopped.returncode == 5, stopped.stderr
    assert "asks, in its message, for a PIN in a form (field 'reply-1')" in stopped.stderr
    assert "The form was declined." in stopped.stderr and "1234" not in stopped.stderr
    done = run("call", agent, "pin", "--answers", "answers.json", "--allow-secret-forms", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"] == [{"type": "text", "text": "PIN accepted"}]


def test_the_terminal_warns_before_a_pin_is_typed_for_an_agent(agent: str, tmp_path: Path) -> None:
    child = terminal.spawn([*askback_command(), "call", agent, "pin"], cwd=tmp_path,
                           env={**os.environ, "NO_COLOR": "1"}, dimensions=(50, 200))
    child.expect_exact("What is the PIN?")
    child.expect_exact("⚠ this server asks in its message for a PIN in a form: field 'reply-1'.")
    child.expect_exact("Type it anyway? [y/N]: ")
    child.sendline("y")
    child.expect_exact("Reply: ")
    child.sendline("1234")
    child.expect_exact("PIN accepted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_text_only_auth_required_shows_the_agents_words_and_goes_on(agent: str, tmp_path: Path) -> None:
    port = agent.split(":")[2].split("/")[0]
    sign_in = plain_agent.SIGN_IN.format(port=port)
    child = terminal.spawn([*askback_command(), "call", agent, "vault"], cwd=tmp_path,
                           env={**os.environ, "NO_COLOR": "1"}, dimensions=(50, 200))
    child.expect_exact(sign_in)  # the agent's message, its URL in it, shown as it is
    child.expect_exact("The agent needs a sign-in")
    child.expect_exact("Reply: ")
    child.sendline("signed in")
    child.expect_exact("vault opened (signed in)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_text_only_auth_required_without_an_answer_names_its_text(agent: str, tmp_path: Path) -> None:
    stopped = run("call", agent, "vault", "--answers", answers(tmp_path, {}), cwd=tmp_path)
    assert stopped.returncode == 5, stopped.stderr
    assert "'reply-1'" in stopped.stderr and "Sign in at http://127.0.0.1:" in stopped.stderr
    done = run("call", agent, "vault", "--answers", answers(tmp_path, {"reply-1": "done"}), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"][0]["text"] == "vault opened (done)"
