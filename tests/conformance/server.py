"""The MCP conformance harness's MRTR fixtures, written only with askback's public API.

Serve with `askback serve tests/conformance/server.py --port 3101`, then run
`STRICT_WARNINGS=1 ../shared/conformance/run-mrtr.sh http://127.0.0.1:3101/mcp`.
"""


from typing import Annotated

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
