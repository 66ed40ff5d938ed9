"""In-process costs, no HTTP: seal+open of a `requestState` (askback and the official SDK), the sizes of the
same content sealed by each, and what askback's own layers cost per two-round flow.

Run from the project root: python -m bench.micro (prints JSON; bench/run.py folds it into the report).

"Seal+open" is the whole path from the progress a round hands over to the progress the next round reads
back, binding included, for the same content on both sides:

- askback: `Binding` (with the arguments digest) -> `StateCodec.seal(new_envelope(progress))`, then the next
  round's `Binding` -> `StateCodec.open`.
- SDK: `_encode_state` (the resolver progress) -> `RequestStateBoundary._seal` (claims envelope, request
  identity, AES-GCM), then `RequestStateBoundary._unseal` (AES-GCM, claims checks, request identity) ->
  `_decode_state`. These are the functions `MCPServer` runs on every round; private names, pinned to mcp 2.3.0.

The content: one answered question (`user_name` = "alice") and one question asked (`nickname`), each with its
question digest, as in the second round of `signup` (bench/servers.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable
from typing import Any

from bench.servers import KEY, KEY_TEXT, NAME

QUICK = bool(os.environ.get("ASKBACK_BENCH_QUICK"))


def per_call_us(fn: Callable[[], object], *, n: int = 3000, repeats: int = 7) -> float:
    """The fastest of `repeats` batches (as `timeit` advises: the others measured interference), per call, in µs."""
    if QUICK:
        n, repeats = max(200, n // 4), 5
    for _ in range(max(1, n // 10)):
        fn()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n * 1e6)
    return min(samples)


class _Ctx:
    """What `RequestStateBoundary` reads from a request context: the method and the raw params."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.method = "tools/call"
        self.params = params


def sdk_path() -> dict[str, Any]:
    from mcp.server.mcpserver.resolve import _decode_state, _encode_state, _StateEntry
    from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity

    boundary = RequestStateBoundary(RequestStateSecurity(keys=[KEY]), default_audience=NAME)
    digest = "q" * 22  # the SDK's question digest: 16 bytes, base64url
    # The shortest wire keys the SDK could have (its real keys are `module:qualname` of each resolver).
    outcomes = {"user_name": _StateEntry(action="accept", data={"user_name": "alice"}, q=digest)}
    asked = {"nickname": digest}
    ctx = _Ctx({"name": "signup", "arguments": {}})

    def cycle() -> object:
        token = boundary._seal(ctx, _encode_state(outcomes, asked))  # type: ignore[arg-type]
        plaintext, _ = boundary._unseal(_Ctx({**ctx.params, "requestState": token}))  # type: ignore[arg-type]
        return _decode_state(plaintext)

    state = _encode_state(outcomes, asked)
    token = boundary._seal(ctx, state)  # type: ignore[arg-type]
    opened = _Ctx({**ctx.params, "requestState": token})
    codec = boundary._security.codec
    first_round = boundary._seal(ctx, _encode_state({}, {"user_name": digest}))  # type: ignore[arg-type]
    assert _decode_state(boundary._unseal(_Ctx({**ctx.params, "requestState": token}))[0]).outcomes  # type: ignore[arg-type]
    return {
        "seal_open_us": per_call_us(cycle),
        "boundary_us": per_call_us(lambda: (boundary._seal(ctx, state), boundary._unseal(opened))),  # type: ignore[arg-type]
        "codec_only_us": per_call_us(lambda: codec.unseal(codec.seal(state.encode()))),
        "state_chars": len(token),
        "first_round_chars": len(first_round),
    }


def askback_path() -> dict[str, Any]:
    from askback.core.progress import Progress
    from askback.core.state import Binding, Keyring, StateCodec, arguments_digest

    codec = StateCodec(Keyring.from_text(KEY_TEXT))
    fp = "f" * 16  # askback's question fingerprint: 12 bytes, base64url
    progress = Progress(values={"user_name": "alice"}, answered={"user_name": fp}, asked={"nickname": fp}, rounds=1)
    first = Progress(asked={"user_name": fp}, rounds=1)

    def binding() -> Binding:
        return Binding(NAME, "tools/call", "signup", arguments_digest({}), None)

    def cycle() -> object:
        token = codec.seal(codec.new_envelope(progress, None), binding())
        return codec.open(token, binding())

    b = binding()
    env = codec.new_envelope(progress, None)
    token = codec.seal(env, b)
    assert codec.open(token, b).progress == progress
    return {
        "seal_open_us": per_call_us(cycle),
        "codec_only_us": per_call_us(lambda: codec.open(codec.seal(env, b), b)),
        "state_chars": len(token),
        "first_round_chars": len(codec.seal(codec.new_envelope(first, None), b)),
    }


def askback_layers() -> dict[str, float]:
    """What askback's own layers cost for the benchmark's two-round `greet` flow, in microseconds per flow."""
    from typing import Annotated

    from pydantic import Field

    import askback
    from askback.core.decide import CallInput, decide
    from askback.core.guarding import guard_form
    from askback.flow import Flow, Round
    from askback.mcp import wire
    from askback.mcp.guard import check_retry_fields
    from askback.types import Capabilities

    app = askback.App(NAME, keys=KEY_TEXT, store="memory://")

    @app.tool(namespace=locals())
    async def greet(name: str, city: Annotated[str, Field(description="City to greet from")]) -> str:
        return f"Hello {name} from {city}"

    spec = app.tools["greet"]
    flow = Flow(app.runtime)
    caps = Capabilities(form=True)
    args = {"name": "Ada"}
    answer = {"city": {"action": "accept", "content": {"city": "Paris"}}}
    loop = asyncio.new_event_loop()

    def two_steps() -> object:
        first = loop.run_until_complete(flow.step(spec, Round("tools/call", "greet", args, None, None, caps)))
        state = first.state  # type: ignore[union-attr]
        return loop.run_until_complete(flow.step(spec, Round("tools/call", "greet", args, answer, state, caps)))

    first = loop.run_until_complete(flow.step(spec, Round("tools/call", "greet", args, None, None, caps)))
    state = first.state  # type: ignore[union-attr]
    guard = app.runtime.guard
    r1 = decide(spec, CallInput(arguments=args, caps=caps, guard=guard))
    progress = r1.progress  # type: ignore[union-attr]
    envelope = app.runtime.codec.open(state, app.runtime.binding(Round("tools/call", "greet", args)))
    params2 = {"name": "greet", "arguments": args, "inputResponses": answer, "requestState": state}
    binding = app.runtime.binding(Round("tools/call", "greet", args))
    costs = {
        "flow_step_both_rounds": per_call_us(two_steps, n=1000),
        "decide_both_rounds": per_call_us(
            lambda: (decide(spec, CallInput(arguments=args, caps=caps, guard=guard)),
                     decide(spec, CallInput(arguments=args, responses=answer, progress=progress, caps=caps,
                                            guard=guard)))),
        "seal_and_open": per_call_us(
            lambda: app.runtime.codec.open(app.runtime.codec.seal(app.runtime.codec.new_envelope(progress, None),
                                                                  binding), binding)),
        "binding_both_rounds": per_call_us(
            lambda: (app.runtime.binding(Round("tools/call", "greet", args)),
                     app.runtime.binding(Round("tools/call", "greet", args)))),
        # Flow memoises the guard per question, so a server pays this once per distinct question, not per round.
        "secret_guard_uncached": per_call_us(
            lambda: guard_form(guard, r1.questions[0].schema, message=r1.questions[0].message)),  # type: ignore[union-attr]
        "retry_fields_guard_round_2": per_call_us(lambda: check_retry_fields(params2)),
        "wire_results_both_rounds": per_call_us(
            lambda: (wire.input_required(r1.questions, state),  # type: ignore[union-attr]
                     wire.tool_result("Hello Ada from Paris", has_output_schema=False))),
    }
    loop.close()
    assert envelope.progress == progress
    return costs


def main() -> None:
    result = {"askback": askback_path(), "sdk": sdk_path(), "askback_layers_us": askback_layers()}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
