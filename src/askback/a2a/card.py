"""The agent card: one skill per tool and prompt, askback's extension declared, the JSON-RPC interface."""

from __future__ import annotations

from a2a.types import a2a_pb2 as pb
from google.protobuf import json_format, struct_pb2

from askback.a2a.wire import EXTENSION_URI, JSON_MEDIA_TYPE, SCHEMA_MEDIA_TYPE
from askback.app import App
from askback.core.spec import Spec

EXTENSION_DESCRIPTION = (
    "askback input schema: a task in TASK_STATE_INPUT_REQUIRED carries a text part and a data part of media type "
    "application/schema+json holding the flat JSON Schema of exactly the values still missing; answer on the same "
    "taskId and contextId with a data part mapping field names to values, or {\"action\": \"decline\"}. "
    "TASK_STATE_AUTH_REQUIRED names the page (URL) where a person enters a secret or gives an approval."
)


def _skill(spec: Spec, kind: str) -> pb.AgentSkill:
    example = f'{{"{kind}": "{spec.name}", "arguments": {{...}}}}'
    return pb.AgentSkill(
        id=spec.name,
        name=spec.title or spec.name,
        description=(spec.description or spec.name).strip(),
        tags=[kind, "askback"],
        examples=[example],
        input_modes=["text/plain", JSON_MEDIA_TYPE],
        output_modes=["text/plain", JSON_MEDIA_TYPE],
    )


def agent_card(app: App, url: str) -> pb.AgentCard:
    """The card for `app`, its JSON-RPC interface at `url` (absolute)."""
    params = struct_pb2.Struct()
    json_format.ParseDict(
        {"schemaMediaType": SCHEMA_MEDIA_TYPE, "declineWith": {"action": "decline"}, "invokeWith": {"tool": "NAME",
         "arguments": {}}},
        params,
    )
    skills = [_skill(s, "tool") for s in app.tools.values()]
    skills += [_skill(s, "prompt") for s in app.prompts.values() if s.name not in app.tools]
    return pb.AgentCard(
        name=app.name,
        description=(app.instructions or f"{app.name}: typed tools that ask for what is missing.").strip(),
        version=app.version,
        supported_interfaces=[pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0")],
        capabilities=pb.AgentCapabilities(
            streaming=True,
            push_notifications=False,
            extensions=[
                pb.AgentExtension(uri=EXTENSION_URI, description=EXTENSION_DESCRIPTION, required=False, params=params)
            ],
        ),
        default_input_modes=["text/plain", JSON_MEDIA_TYPE],
        default_output_modes=["text/plain", JSON_MEDIA_TYPE],
        skills=skills,
    )
