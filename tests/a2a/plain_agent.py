"""An A2A 1.0 agent built on the official a2a-sdk alone (no askback code): it asks in free text only.

What `askback call` meets in an agent that does not speak askback's input-schema extension:

- `greet`: two different questions in two input-required rounds ("What is your name?", then "Shall I greet
  NAME formally? (yes/no)"), then completes with a greeting;
- `pin`: asks "What is the PIN?" until it gets 1234: the same question asked again;
- `vault`: auth-required, with nothing but a text that names a sign-in URL; the next message completes it.

`build(port)` is the Starlette app for an agent served at `http://127.0.0.1:PORT` (its card names that URL).
"""

from __future__ import annotations

from typing import Any

from a2a.helpers.proto_helpers import new_task
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import a2a_pb2 as pb
from google.protobuf import json_format
from starlette.applications import Starlette

SIGN_IN = "Sign in at http://127.0.0.1:{port}/login?next=vault, then continue this task."


def _said(context: RequestContext) -> tuple[str, list[Any]]:
    """The user's message: its text, and its data parts (the first message names the skill in one)."""
    texts, datas = [], []
    for part in context.message.parts if context.message else ():
        as_dict = json_format.MessageToDict(part)
        if "text" in as_dict:
            texts.append(as_dict["text"])
        if "data" in as_dict:
            datas.append(as_dict["data"])
    return " ".join(texts).strip(), datas


class PlainAgent(AgentExecutor):
    def __init__(self, port: int) -> None:
        self.port = port
        self.tasks: dict[str, dict[str, str]] = {}  # what each task gathered so far

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.task_id is not None and context.context_id is not None
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        text, datas = _said(context)
        gathered = self.tasks.setdefault(context.task_id, {})

        async def ask(question: str) -> None:
            await updater.requires_input(updater.new_agent_message([pb.Part(text=question)]))

        async def finish(answer: str) -> None:
            await updater.add_artifact([pb.Part(text=answer)], name="answer")
            await updater.complete()

        if context.current_task is None:  # the first message: the a2a-sdk wants the task itself as the first event
            assert context.message is not None
            await event_queue.enqueue_event(new_task(context.task_id, context.context_id,
                                                     pb.TaskState.TASK_STATE_SUBMITTED, history=[context.message]))
            skill = next((d.get("tool") for d in datas if isinstance(d, dict) and d.get("tool")), "greet")
            gathered["skill"] = skill
            if skill == "vault":
                sign_in = SIGN_IN.format(port=self.port)
                await updater.requires_auth(updater.new_agent_message([pb.Part(text=sign_in)]))
            elif skill == "pin":
                await ask("What is the PIN?")
            else:
                await ask("What is your name?")
            return
        skill = gathered["skill"]
        if skill == "vault":
            await finish(f"vault opened ({text})")
        elif skill == "pin":
            await (finish("PIN accepted") if text == "1234" else ask("What is the PIN?"))
        elif "name" not in gathered:
            gathered["name"] = text
            await ask(f"Shall I greet {text} formally? (yes/no)")
        else:
            await finish(("Good day, " if text.lower() in ("yes", "y") else "Hi, ") + gathered["name"] + ".")

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.task_id is not None and context.context_id is not None
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def build(port: int) -> Starlette:
    card = pb.AgentCard(
        name="plain-agent", description="An a2a-sdk agent that asks in free text", version="1.0.0",
        supported_interfaces=[pb.AgentInterface(url=f"http://127.0.0.1:{port}/a2a", protocol_binding="JSONRPC",
                                                protocol_version="1.0")],
        capabilities=pb.AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"], default_output_modes=["text/plain"],
        skills=[pb.AgentSkill(id=name, name=name, description=f"the {name} skill", tags=["test"])
                for name in ("greet", "pin", "vault")],
    )
    handler = DefaultRequestHandler(agent_executor=PlainAgent(port), task_store=InMemoryTaskStore(), agent_card=card)
    return Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, rpc_url="/a2a"))
