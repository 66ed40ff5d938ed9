"""The gateway's own seal over the progress of a call: askback's `requestState` codec, as an askback App seals.

The adopter (`askback.adoption.middleware`) writes its progress, and the upstream's own `requestState` inside
it, in plaintext; this middleware, outside it, seals that plaintext for the client and opens it on the retry.
The seal is bound as every askback state is (the gateway's name as audience, the method, the tool, the digest
of the arguments as sent, the principal) and expires by round and by flow, so a state never serves another
call, caller or gateway; a state that does not open is refused before anything is forwarded.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp_types.methods import is_input_required

from askback.adoption.middleware import tool_call
from askback.app import App
from askback.core.errors import InvalidRequestState, Rejection
from askback.core.outcomes import Refusal
from askback.core.progress import Progress
from askback.core.state import Binding, Envelope, arguments_digest
from askback.core.text import one_line
from askback.incoming import principal_of
from askback.mcp import wire
from askback.mcp.calls import rpc_error, sdk_error
from askback.mcp.incoming import incoming_of

logger = logging.getLogger("askback.gateway")

_CARRIED = "s"  # the key, in the sealed progress, of the adopter's plaintext state


class SealedState:
    """Server middleware: open the client's `requestState` before the adopter reads it, seal what it returns."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        call = tool_call(ctx)
        if call is None:
            return await call_next(ctx)
        params, name, arguments = call
        runtime = self.app.runtime
        # Built only for a call that carries a state or gets one: a complete call pays nothing for the seal.
        binding: Binding | None = None
        envelope: Envelope | None = None
        state = params.get("requestState")
        if state is not None:
            binding = self._binding(ctx, name, arguments)
            envelope = self._open(state, binding, name)
            ctx = replace(ctx, params={**params, "requestState": envelope.progress.values[_CARRIED]})
        result = await call_next(ctx)
        if not is_input_required(result):
            return result
        inner = result.get("requestState") if isinstance(result, Mapping) else getattr(result, "request_state", None)
        if not isinstance(inner, str):
            return result
        rounds = envelope.progress.rounds + 1 if envelope is not None else 1
        if rounds > runtime.max_rounds:
            refusal = Refusal("too_many_rounds", f"{name} was not run: {runtime.max_rounds} rounds went by "
                                                 "without the values it needs.")
            return wire.tool_refusal(refusal, has_output_schema=False)
        sealed = runtime.codec.seal(
            runtime.codec.new_envelope(Progress({_CARRIED: inner}, rounds=rounds), envelope),
            binding or self._binding(ctx, name, arguments),
        )
        if isinstance(result, Mapping):
            return {**result, "requestState": sealed}
        return result.model_copy(update={"request_state": sealed})

    def _binding(self, ctx: ServerRequestContext[Any, Any], name: str, arguments: Mapping[str, Any]) -> Binding:
        principal = principal_of(incoming_of(ctx), self.app.principal_hook)
        return Binding(self.app.runtime.audience, "tools/call", name, arguments_digest(arguments), principal)

    def _open(self, state: Any, binding: Binding, name: str) -> Envelope:
        runtime = self.app.runtime
        try:
            if not isinstance(state, str):
                raise InvalidRequestState(Rejection.NOT_A_STRING)
            envelope = runtime.codec.open(state, binding)
            if not isinstance(envelope.progress.values.get(_CARRIED), str):
                raise InvalidRequestState(Rejection.MALFORMED_BODY)
        except InvalidRequestState as exc:
            logger.warning("rejected requestState for tools/call %s: %s", one_line(name), exc.reason.value)
            raise sdk_error(rpc_error(exc)) from None
        return envelope
