"""askback's neutral message shapes (`wire.MessageOut`, `wire.PartOut`) as a2a-sdk protobuf messages."""

from __future__ import annotations

import uuid

from a2a.server.agent_execution import RequestContext
from a2a.types import a2a_pb2 as pb
from google.protobuf import json_format, struct_pb2

from askback.a2a import wire


def part(p: wire.PartOut) -> pb.Part:
    if p.text is not None:
        return pb.Part(text=p.text)
    value = struct_pb2.Value()
    json_format.ParseDict(p.data, value)
    return pb.Part(data=value, media_type=p.media_type)


def message(out: wire.MessageOut, context: RequestContext) -> pb.Message:
    """An agent message on the request's task, declaring askback's extension."""
    metadata = struct_pb2.Struct()
    json_format.ParseDict(out.metadata, metadata)
    return pb.Message(
        message_id=str(uuid.uuid4()),
        role=pb.ROLE_AGENT,
        task_id=context.task_id or "",
        context_id=context.context_id or "",
        parts=[part(p) for p in out.parts],
        metadata=metadata,
        extensions=[wire.EXTENSION_URI],
    )
