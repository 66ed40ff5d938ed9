"""Talking to an askback A2A agent with the official a2a-sdk client, over loopback."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

import httpx
from a2a.client import ClientConfig, create_client
from a2a.types import a2a_pb2 as pb
from google.protobuf import json_format, struct_pb2

EXT = "https://askback.dev/extensions/input-schema/v1"


def message(data: Any = None, *, text: str | None = None, task: pb.Task | None = None,
            context_id: str | None = None) -> pb.Message:
    parts = []
    if text is not None:
        parts.append(pb.Part(text=text))
    if data is not None:
        value = struct_pb2.Value()
        json_format.ParseDict(data, value)
        parts.append(pb.Part(data=value))
    return pb.Message(
        message_id=str(uuid.uuid4()),
        role=pb.ROLE_USER,
        parts=parts,
        task_id=task.id if task is not None else "",
        context_id=context_id if context_id is not None else (task.context_id if task is not None else ""),
    )


def state(task: pb.Task) -> str:
    return pb.TaskState.Name(task.status.state)


def as_dict(proto: Any) -> dict[str, Any]:
    return json_format.MessageToDict(proto)


def status_parts(task: pb.Task) -> tuple[str, list[tuple[str, Any]]]:
    """The status message's text, and its data parts as (media type, value)."""
    msg = task.status.message
    text = "\n".join(p.text for p in msg.parts if p.HasField("text"))
    data = [(p.media_type, json_format.MessageToDict(p.data)) for p in msg.parts if p.HasField("data")]
    return text, data


def schema_of(task: pb.Task) -> dict[str, Any]:
    _, data = status_parts(task)
    schemas = [d for media, d in data if media == "application/schema+json"]
    assert len(schemas) == 1, data
    return schemas[0]


def extension_meta(task: pb.Task) -> dict[str, Any]:
    return dict(json_format.MessageToDict(task.status.message.metadata).get(EXT, {}))


def result_data(task: pb.Task) -> Any:
    for artifact in task.artifacts:
        for part in artifact.parts:
            if part.HasField("data"):
                return json_format.MessageToDict(part.data)
    raise AssertionError(f"no data in the artifacts of {as_dict(task)}")


class Agent:
    """An a2a-sdk client for one agent (non-streaming unless asked), with a helper per round trip."""

    def __init__(self, base: str, *, headers: Mapping[str, str] | None = None, streaming: bool = False) -> None:
        self.base = base
        self.headers = dict(headers or {})
        self.streaming = streaming
        self._client: Any = None
        self._http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> Agent:
        self._http = httpx.AsyncClient(headers=self.headers, timeout=30)
        self._client = await create_client(self.base, ClientConfig(streaming=self.streaming, httpx_client=self._http))
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._client.close()
        assert self._http is not None
        await self._http.aclose()

    async def send(self, msg: pb.Message) -> pb.Task:
        """Send a message and return the task as the last event left it."""
        task = None
        async for event in self._client.send_message(pb.SendMessageRequest(message=msg)):
            if event.HasField("task"):
                task = event.task
        assert task is not None
        return task

    async def stream(self, msg: pb.Message) -> Any:
        """Send over a stream; yield each event (StreamResponse)."""
        async for event in self._client.send_message(pb.SendMessageRequest(message=msg)):
            yield event

    async def get(self, task_id: str) -> pb.Task:
        return await self._client.get_task(pb.GetTaskRequest(id=task_id))

    async def call(self, tool: str, **arguments: Any) -> pb.Task:
        return await self.send(message({"tool": tool, "arguments": arguments}))

    async def answer(self, task: pb.Task, data: Any) -> pb.Task:
        return await self.send(message(data, task=task))
