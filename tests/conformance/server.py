"""The fixtures the official MCP conformance harness calls, written only with askback's public API.

The MRTR fixtures (`test_input_required_result_*`) come first, then the everything-server fixtures the other
2026-07-28 server scenarios call (content types, errors, prompts, resources, the `server-stateless` probes),
then the tasks extension's fixtures (`tasks-*` scenarios: `greet`, `slow_compute`, `failing_job`,
`protocol_error_job`, `confirm_delete`, `multi_input`, `test_tool_with_task`).
Names, texts and URIs are fixed by the harness. `python tests/conformance/run.py` serves this file and runs the
scenarios; `askback serve tests/conformance/server.py --port 3101` serves it by hand.
"""


import asyncio
import base64
import io
import json
import wave
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

import askback

app = askback.App("askback-conformance")

Name = Annotated[str, askback.Ask("What is your name?", field="name")]


@app.tool()
def test_input_required_result_elicitation(user_name: Name) -> str:
    """Asks for a name, then greets."""
    return f"Hello, {user_name}!"


@app.tool()
def test_input_required_result_sampling(
    capital_question: Annotated[str, askback.Sample("What is the capital of France?", max_tokens=100)],
) -> str:
    """Asks the client's model a question."""
    return f"The model answered: {capital_question}"


@app.tool()
def test_input_required_result_list_roots(client_roots: Annotated[list[askback.Root], askback.Roots()]) -> str:
    """Asks for the client's roots."""
    return "Roots: " + ", ".join(r.uri for r in client_roots)


@app.tool()
def test_input_required_result_request_state(
    confirm: Annotated[bool, askback.Confirm("Please confirm", field="ok")],
) -> str:
    """Asks for a confirmation carried across rounds in the sealed state."""
    return "Confirmed."


@app.tool()
def test_input_required_result_multiple_inputs(
    user_name: Name,
    greeting: Annotated[str, askback.Sample("Generate a greeting", max_tokens=50)],
    client_roots: Annotated[list[askback.Root], askback.Roots()],
) -> str:
    """Asks a person, a model and the client's roots in one round."""
    return f"{greeting} {user_name} ({len(client_roots)} roots)"


@app.tool()
def test_input_required_result_multi_round(
    step1: Annotated[str, askback.Ask("Step 1: What is your name?", field="name")],
    step2: Annotated[str, askback.Ask("Step 2: {step1}, what is your favorite color?", field="color")],
) -> str:
    """The second question names the first answer, so it waits for the next round."""
    return f"{step1} likes {step2}."


@app.prompt()
def test_input_required_result_prompt(
    user_context: Annotated[str, askback.Ask("What context should the prompt use?", field="context")],
) -> str:
    """A prompt that asks before it renders."""
    return f"Use this context: {user_context}"


@app.tool()
def test_input_required_result_tampered_state(
    confirm: Annotated[bool, askback.Confirm("Please confirm", field="ok")],
) -> str:
    """Its requestState is sealed: an altered one is refused."""
    return "Confirmed."


@app.tool()
def test_input_required_result_capabilities(
    summary: Annotated[str, askback.Sample("Summarise the request in one sentence", max_tokens=60)],
) -> str:
    """Needs a model's answer; a client that declares only sampling is asked only that."""
    return summary


# -- everything-server fixtures ---------------------------------------------------------------------------
# Content a plain return value cannot carry (images, audio, embedded resources) is returned as a full
# `CallToolResult` / `GetPromptResult` dict, which askback passes through.

# A 1x1 red PNG and 10 ms of 8 kHz silence: the smallest valid payloads of each kind.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"


def _wav() -> str:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(8000)
        out.writeframes(b"\x80" * 80)
    return base64.b64encode(buffer.getvalue()).decode()


WAV = _wav()


@app.tool()
def test_simple_text() -> str:
    """Returns one text item."""
    return "This is a simple text response for testing."


@app.tool()
def test_image_content() -> dict[str, Any]:
    """Returns one image item."""
    return {"content": [{"type": "image", "data": PNG, "mimeType": "image/png"}]}


@app.tool()
def test_audio_content() -> dict[str, Any]:
    """Returns one audio item."""
    return {"content": [{"type": "audio", "data": WAV, "mimeType": "audio/wav"}]}


@app.tool()
def test_embedded_resource() -> dict[str, Any]:
    """Returns one embedded resource."""
    resource = {"uri": "test://embedded-resource", "mimeType": "text/plain",
                "text": "This is an embedded resource content."}
    return {"content": [{"type": "resource", "resource": resource}]}


@app.tool()
def test_multiple_content_types() -> dict[str, Any]:
    """Returns text, an image and an embedded resource in one result."""
    resource = {"uri": "test://mixed-content-resource", "mimeType": "application/json",
                "text": json.dumps({"test": "data", "value": 123})}
    return {"content": [
        {"type": "text", "text": "Multiple content types test:"},
        {"type": "image", "data": PNG, "mimeType": "image/png"},
        {"type": "resource", "resource": resource},
    ]}


@app.tool()
def test_error_handling() -> str:
    """Always fails with a tool error."""
    raise askback.ToolError("This tool intentionally returns an error for testing")


@app.tool()
async def test_tool_with_progress(ctx: askback.Context) -> str:
    """Reports 0, 50 and 100 of 100 (sent only when the request carried a progress token)."""
    for done in (0, 50, 100):
        await ctx.progress(done, 100)
        if done < 100:
            await asyncio.sleep(0.05)
    return "Progress tool finished."


@app.tool()
async def test_tool_with_logging(ctx: askback.Context) -> str:
    """Logs three info messages while it works (2025-11-25: to a session whose level lets them through)."""
    await ctx.log("info", "Tool execution started")
    await asyncio.sleep(0.05)
    await ctx.log("info", "Tool processing data")
    await asyncio.sleep(0.05)
    await ctx.log("info", "Tool execution completed")
    return "Logging tool finished."


@app.tool()
def test_missing_capability(
    answer: Annotated[str, askback.Sample("Reply with one word", max_tokens=10)],
) -> str:
    """Needs the client's model: a client that did not declare sampling cannot be served."""
    return f"The model answered: {answer}"


@app.tool()
def test_streaming_elicitation(
    user_name: Annotated[str, askback.Ask("What is your name?", field="name")],
) -> str:
    """Asks through the response (an input_required result), never through an independent request."""
    return f"Hello, {user_name}!"


@app.tool()
async def test_logging_tool(ctx: askback.Context) -> str:
    """Logs one message, which leaves only when the request opted in to logs (2026-07-28)."""
    await ctx.log("info", "Logging tool ran")
    return "Logging tool finished."


@app.tool()
def test_custom_headers(
    region: Annotated[str, Field(description="Mirrored into the Mcp-Param-Region header",
                                 json_schema_extra={"x-mcp-header": "Region"})],
) -> str:
    """Its argument is mirrored into a custom header the server checks against the body."""
    return f"Region: {region}"


@app.prompt()
def test_simple_prompt() -> str:
    """A prompt without arguments."""
    return "This is a simple prompt for testing."


@app.prompt()
def test_prompt_with_arguments(
    arg1: Annotated[str, Field(description="First test argument")],
    arg2: Annotated[str, Field(description="Second test argument")],
) -> str:
    """A prompt that fills in two arguments."""
    return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"


@app.prompt()
def test_prompt_with_embedded_resource(
    resourceUri: Annotated[str, Field(description="URI of the resource to embed")],  # the harness names it
) -> list[dict[str, Any]]:
    """A prompt that embeds a resource."""
    resource = {"uri": resourceUri, "mimeType": "text/plain", "text": "Embedded resource content for testing."}
    return [
        {"role": "user", "content": {"type": "resource", "resource": resource}},
        {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}},
    ]


@app.prompt()
def test_prompt_with_image() -> list[dict[str, Any]]:
    """A prompt that carries an image."""
    return [
        {"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}},
        {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}},
    ]


@app.resource("test://static-text", description="A static text resource")
def static_text() -> str:
    return "This is the content of the static text resource."


@app.resource("test://static-binary", description="A static binary resource", mime_type="image/png")
def static_binary() -> bytes:
    return base64.b64decode(PNG)


WATCHED = {"text": "The watched resource, as first written."}


@app.resource("test://watched-resource", description="A resource clients may subscribe to")
def watched_resource() -> str:
    return WATCHED["text"]


@app.tool()
async def update_watched_resource(text: str) -> str:
    """Rewrites the watched resource and tells every client subscribed to it."""
    WATCHED["text"] = text
    await app.resource_updated("test://watched-resource")
    return "Updated."


@app.resource("test://template/{id}/data", description="A resource template", mime_type="application/json")
def template_data(id: str) -> dict[str, Any]:  # the template names it
    return {"id": id, "templateTest": True, "data": f"Data for ID: {id}"}


# -- the tasks extension (SEP-2663) ------------------------------------------------------------------------
@app.tool()
def greet(name: str) -> str:
    """Greets; never a task."""
    return f"Hello, {name}!"


@app.tool(task="optional")
async def slow_compute(seconds: float, label: str = "") -> str:
    """Sleeps `seconds`, then answers; a task when the client declared the extension."""
    await asyncio.sleep(seconds)
    return f"Computed {label or 'result'} after {seconds:g} s."


@app.tool(task="required")
async def failing_job() -> str:
    """Runs about a second, then reports a tool error."""
    await asyncio.sleep(1)
    raise askback.ToolError("The job failed: this tool always reports an error.")


class _Crash(Exception):
    """Stands for a bug: the server fails the task with an internal error, never showing this."""


@app.tool(task="optional")
async def protocol_error_job() -> str:
    """Fails with a protocol-level error (an exception the tool did not handle)."""
    await asyncio.sleep(0.1)
    raise _Crash("an internal detail the caller must not see")


@app.tool(task="optional")
async def confirm_delete(filename: str, work: askback.Work) -> str:
    """Asks during its work whether to delete the file, then says what it did."""
    if await work.confirm("Delete {filename}?", filename=filename):
        return f"Deleted {filename}."
    return f"Kept {filename}."


@app.tool(task="optional")
async def multi_input(work: askback.Work) -> str:
    """Asks two questions at once during its work."""
    name, go = await asyncio.gather(work.ask("What is your name?", str, field="name"), work.confirm("Proceed?"))
    return f"Hello, {name}! {'Proceeding' if go else 'Stopping'}."


@app.tool(task="required")
async def test_tool_with_task(user_name: Name) -> str:
    """Asks for a name by MRTR before the task starts; the task's result carries it."""
    return f"Hello, {user_name}, from a task!"


# -- a declared JSON Schema 2020-12 input schema (`json-schema-2020-12`: listed exactly as written) -------------
SCHEMA_2020_12: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        },
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}


@app.tool(input_schema=SCHEMA_2020_12, description="Tool with JSON Schema 2020-12 features")
def json_schema_2020_12_tool(
    name: str | None = None,
    address: dict[str, Any] | None = None,
    contactMethod: str | None = None,  # the harness names the property
    phone: str | None = None,
    email: str | None = None,
) -> str:
    return f"Contact {name or 'someone'} by {contactMethod or 'email'}."


# -- 2025-11-25 only: a call whose SSE stream may be lost and resumed (`server-sse-polling`, SEP-1699) ---------------
@app.tool()
async def test_reconnection() -> str:
    """Takes a moment: a client that loses the stream meanwhile resumes it (Last-Event-ID) and gets the result."""
    await asyncio.sleep(0.2)
    return "Reconnection test completed."


# -- 2025-11-25 only: a tool that asks over the session's back-channel, its text from the call's argument ------
@app.tool()
def test_sampling(
    prompt: str,
    reply: Annotated[str, askback.Sample("{prompt}", max_tokens=100)],
) -> str:
    """Asks the client's model the prompt it was given."""
    return f"LLM response: {reply}"


@app.tool()
def test_elicitation(
    message: str,
    answer: Annotated[str, askback.Ask("{message}", field="username")],
) -> str:
    """Asks the person the message it was given."""
    return f"User response: {answer}"


# -- 2025-11-25: questions whose forms show defaults (SEP-1034) and every enum shape (SEP-1330) --------------------
# A model parameter is asked as one form, a field per model field; each field's default is pre-filled.
class Profile(BaseModel):
    name: Annotated[str, Field(description="User name")] = "John Doe"
    age: Annotated[int, Field(description="User age")] = 30
    score: Annotated[float, Field(description="User score")] = 95.5
    status: Annotated[Literal["active", "inactive", "pending"], Field(description="User status")] = "active"
    verified: Annotated[bool, Field(description="Verification status")] = True


@app.tool()
def test_elicitation_sep1034_defaults(
    profile: Annotated[Profile, askback.Ask("Please review your profile: each field is filled in already")],
) -> str:
    """Asks for a profile whose every field has a default the form shows."""
    return f"Elicitation completed: action=accept, content={profile.model_dump_json()}"


Option = Literal["option1", "option2", "option3"]
Value = Literal["value1", "value2", "value3"]


class Choices(BaseModel):
    untitledSingle: Option
    titledSingle: Annotated[Value, askback.Titles(
        {"value1": "First Option", "value2": "Second Option", "value3": "Third Option"})]
    # The older spelling of titles, for clients that know only it (deprecated by SEP-1330, still in the schema).
    legacyEnum: Annotated[Literal["opt1", "opt2", "opt3"], Field(
        json_schema_extra={"enumNames": ["Option One", "Option Two", "Option Three"]})]
    untitledMulti: list[Option]
    titledMulti: Annotated[list[Value], askback.Titles(
        {"value1": "First Choice", "value2": "Second Choice", "value3": "Third Choice"})]


@app.tool()
def test_elicitation_sep1330_enums(
    choices: Annotated[Choices, askback.Ask("Please make your choices")],
) -> str:
    """Asks single and multiple choices, with and without titles, in one form."""
    return f"Elicitation completed: action=accept, content={choices.model_dump_json()}"
