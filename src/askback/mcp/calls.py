"""The three methods that can ask (`tools/call`, `prompts/get`, `resources/read`), for every MCP entry.

A round goes in, a wire result comes out, or an `RpcError` naming the JSON-RPC error the SDK must send. Both
the SDK's low-level server (`askback.mcp.server`) and the 2026-07-28 fast route (`askback.mcp.fast`) answer
through here, so the two cannot drift apart on which refusal is an error, which failure is a tool error and
what each says. It is also the one place an askback error becomes a JSON-RPC error (`rpc_error`, and the SDK's
`MCPError` of it, `sdk_error`), from the error's wire mapping alone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mcp.shared.exceptions import MCPError

from askback.app import App
from askback.core.errors import INTERNAL_ERROR, INVALID_PARAMS, AskbackError
from askback.core.kinds import ApprovalParam, SecretParam
from askback.core.spec import Spec
from askback.core.text import one_line
from askback.flow import Asking, Finished, Flow, Refused, Round, Step
from askback.mcp import wire
from askback.receipts import RECEIPT_META

logger = logging.getLogger("askback.mcp")

# One round of a flow, played by the entry: `Flow.step` on 2026-07-28, a back-channel conversation on a session.
Play = Callable[[Spec, Round], Awaitable[Step]]
# A resource URI -> the template's spec and its variables, or None (the SDK path's own template matching).
ResourceLookup = Callable[[str], tuple[Spec, dict[str, Any]] | None]


@dataclass
class RpcError(Exception):
    """A JSON-RPC error for the caller: the SDK's server raises it as its `MCPError`, the fast route writes it."""

    code: int
    message: str
    data: Any = None


class _Internal(Exception):
    """An unexpected failure, already logged; the client gets a generic message."""


class Calls:
    """What both entries do with a call once they know its target: play the round, spell the outcome."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.flow = Flow(app.runtime)
        # A function that takes an `askback.Work` may ask for a secret on a page while it runs.
        self._with_pages = {
            kind: frozenset(s.name for s in specs.values() if s.work_param is not None
                            or any(isinstance(p, SecretParam | ApprovalParam) for p in s.params))
            for kind, specs in (("tool", app.tools), ("prompt", app.prompts), ("resource", app.resources))
        }

    def has_pages(self, spec: Spec) -> bool:
        """Whether a round of `spec` can link to a page (the request's own address is only read for those)."""
        return spec.name in self._with_pages.get(spec.kind, ())

    async def tool(self, spec: Spec, rnd: Round, play: Play | None = None) -> dict[str, Any]:
        return (await self.tool_result(spec, rnd, play))[0]

    async def tool_result(self, spec: Spec, rnd: Round, play: Play | None = None) -> tuple[dict[str, Any], bool]:
        """The `tools/call` result, and whether askback built all of it from JSON values of its own.

        False when a tool's author shaped it (a mapping with `content`) or its structured value is not an
        object: such a result needs the SDK's result sieve to be what the SDK path sends.
        """
        has_output = spec.output_schema is not None
        try:
            step = await self._play(spec, rnd, play)
        except AskbackError as exc:
            shown = tool_error_of(exc)
            if shown is None:
                raise rpc_error(exc) from None
            return shown, True
        except _Internal:
            return wire.tool_error(
                f"{spec.name} failed with an internal error. Nothing more is known here; "
                "the server log has the details."
            ), True
        if isinstance(step, Finished):
            result = wire.with_receipt(wire.tool_result(step.value, has_output_schema=has_output), step.receipt)
            shaped = type(step.value) is not str and isinstance(step.value, Mapping) and "content" in step.value
            return result, not shaped and isinstance(result.get("structuredContent", {}), dict)
        if isinstance(step, Refused):
            if step.refusal.capability is not None:
                raise rpc_error(step.refusal.capability)
            return wire.with_receipt(wire.tool_refusal(step.refusal, has_output_schema=has_output), step.receipt), True
        return wire.input_required(step.questions, step.state), True

    async def prompt(self, spec: Spec, rnd: Round, play: Play | None = None) -> dict[str, Any]:
        step = await self._play_or_raise(spec, rnd, play)
        if isinstance(step, Finished):
            return wire.with_receipt(wire.prompt_result(step.value, spec.description), step.receipt)
        assert isinstance(step, Asking)
        return wire.input_required(step.questions, step.state)

    async def resource(self, spec: Spec, rnd: Round, play: Play | None = None) -> dict[str, Any]:
        return (await self.resource_result(spec, rnd, play))[0]

    async def resource_result(
        self, spec: Spec, rnd: Round, play: Play | None = None
    ) -> tuple[dict[str, Any], bool]:
        """The `resources/read` result, and whether askback built it (a question, a text or bytes read)."""
        step = await self._play_or_raise(spec, rnd, play)
        if isinstance(step, Finished):
            built = isinstance(step.value, str | bytes | bytearray)
            return wire.with_receipt(wire.resource_result(step.value, rnd.target, spec.mime_type), step.receipt), built
        assert isinstance(step, Asking)
        return wire.input_required(step.questions, step.state), True

    async def _play_or_raise(self, spec: Spec, rnd: Round, play: Play | None) -> Step:
        """Prompts and resources have no tool-error result: a refusal is a deliberate JSON-RPC error."""
        try:
            step = await self._play(spec, rnd, play)
        except AskbackError as exc:
            raise rpc_error(exc) from None
        except _Internal:
            raise RpcError(INTERNAL_ERROR, "Internal error") from None
        if isinstance(step, Refused):
            if step.refusal.capability is not None:
                raise rpc_error(step.refusal.capability)
            data: dict[str, Any] = {"outcome": step.refusal.reason}
            if step.receipt is not None:  # (an approval rejected on its page: the flow's receipt says so)
                data[RECEIPT_META] = step.receipt
            if step.refusal.missing:
                data["missing"] = [m.describe() for m in step.refusal.missing]
            raise RpcError(INVALID_PARAMS, step.refusal.message, data)
        return step

    async def _play(self, spec: Spec, rnd: Round, play: Play | None) -> Step:
        try:
            return await (play or self.flow.step)(spec, rnd)
        except (AskbackError, RpcError):  # SecretInForm is one: its wire mapping shows it
            raise
        except MCPError:
            raise  # the SDK's own error (a back-channel request refused): the SDK maps it
        except Exception as exc:
            logger.exception("%s %s raised", rnd.method, one_line(rnd.target))
            raise _Internal() from exc


def tool_error_of(exc: AskbackError) -> dict[str, Any] | None:
    """An askback error on `tools/call`: the tool error (`isError: true`) its wire mapping asks for, or None
    when its mapping names a JSON-RPC code (then it is `rpc_error`)."""
    return wire.tool_error(exc.public_message) if exc.wire.jsonrpc_code is None else None


def rpc_error(exc: AskbackError) -> RpcError:
    """The JSON-RPC error of an askback error, from its wire mapping: the code, the public message, its data,
    and `"retryable": true` in the data when the same request may simply be sent again."""
    data = exc.data()
    if exc.wire.retryable:
        data = {**(data or {}), "retryable": True}
    return RpcError(exc.wire.jsonrpc_code or exc.wire.fallback_code, exc.public_message, data)


def sdk_error(exc: RpcError) -> MCPError:
    """The same error as the SDK's `MCPError`, for the SDK path to write (with the SDK's HTTP status)."""
    return MCPError(code=exc.code, message=exc.message, data=exc.data)


def from_sdk(exc: MCPError) -> RpcError:
    """The SDK's `MCPError` (a tool's author may raise one) as the error the fast route writes: the same
    code, message and data the SDK path sends for it."""
    return RpcError(exc.error.code, exc.error.message, exc.error.data)
