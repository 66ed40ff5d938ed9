"""Every error that can reach a caller, each carrying how each wire shows it.

Adapters map an `AskbackError` to their wire through its `wire` mapping and nothing else; any other exception
is logged and becomes a generic internal error. Rejection reasons are fixed codes: logged (and counted), never
sent, so a client learns nothing about why a state failed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from askback.core.capabilities import CAPABILITIES, required_capabilities

PARSE_ERROR = -32700
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021

INVALID_STATE_MESSAGE = "Invalid or expired requestState; start the request again without it."


@dataclass(frozen=True)
class WireMapping:
    """How one error shows on each wire.

    `jsonrpc_code` None means MCP shows it as a tool error (`isError: true`) on `tools/call` and as a JSON-RPC
    `fallback_code` error on methods that have no tool-error result (prompts, resources). There is no HTTP
    status here: on MCP the SDK's table (`ERROR_CODE_HTTP_STATUS`) gives the status of a JSON-RPC code on both
    paths, so a status of askback's own could only disagree with it. `retryable` is sent where a wire has room
    for it: `"retryable": true` in the MCP error's `data` and in the A2A status message's askback metadata.
    """

    jsonrpc_code: int | None
    fallback_code: int = INVALID_PARAMS
    a2a_state: str = "TASK_STATE_FAILED"
    retryable: bool = False


class AskbackError(Exception):
    """Base of every deliberate error. `public_message` is all the caller ever sees of it."""

    wire: ClassVar[WireMapping] = WireMapping(jsonrpc_code=None)

    @property
    def public_message(self) -> str:
        return str(self)

    def data(self) -> dict[str, Any] | None:
        """Structured detail for a JSON-RPC error's `data`, if this error has any."""
        return None


class ToolError(AskbackError):
    """Raise from a tool to end the call with this message as a tool error the model can read."""


class Declined(AskbackError):
    """A person declined (or cancelled) a question a running function asked (`askback.Work`).

    Uncaught, it ends the call as a refusal: nothing more was done, and the result says so.
    """

    def __init__(self, message: str, action: str = "decline") -> None:
        super().__init__(message)
        self.action = action


class NeedsTask(AskbackError):
    """A function asked a question during its work on a call that is not a task: it cannot be asked here."""


class Rejection(StrEnum):
    """Why a `requestState` (or a single-use final round) was refused: for the server log only."""

    NOT_A_STRING = "not_a_string"
    OVER_SIZE_CAP = "over_size_cap"
    NOT_BASE64URL = "not_base64url"
    NOT_CANONICAL = "not_canonical"
    TRUNCATED = "truncated"
    UNKNOWN_VERSION = "unknown_version"
    UNKNOWN_KEY = "unknown_key"
    NOT_AUTHENTIC = "not_authentic"
    MALFORMED_BODY = "malformed_body"
    ISSUED_IN_FUTURE = "issued_in_future"
    FLOW_EXPIRED = "flow_expired"
    ROUND_EXPIRED = "round_expired"
    REPLAYED = "replayed"
    STORE_CHANGED = "store_changed"


_REJECTION_TEXT = {
    Rejection.NOT_A_STRING: "not a string",
    Rejection.OVER_SIZE_CAP: "over the size cap",
    Rejection.NOT_BASE64URL: "not base64url",
    Rejection.NOT_CANONICAL: "non-canonical base64url",
    Rejection.TRUNCATED: "truncated",
    Rejection.UNKNOWN_VERSION: "unknown version",
    Rejection.UNKNOWN_KEY: "sealed with a key that is not in the ring (retired or foreign)",
    Rejection.NOT_AUTHENTIC: "did not authenticate: altered, or bound to another server, request or principal",
    Rejection.MALFORMED_BODY: "malformed body",
    Rejection.ISSUED_IN_FUTURE: "issued in the future",
    Rejection.FLOW_EXPIRED: "the flow deadline has passed",
    Rejection.ROUND_EXPIRED: "the round has expired",
    Rejection.REPLAYED: "single-use flow already completed (replay)",
    Rejection.STORE_CHANGED: (
        "single-use flow started against another store (the store was lost or replaced), so whether it already "
        "ran cannot be known"
    ),
}


class InvalidRequestState(AskbackError):
    """The echoed `requestState` failed a check. The caller only ever sees `INVALID_STATE_MESSAGE`."""

    wire = WireMapping(jsonrpc_code=INVALID_PARAMS, a2a_state="TASK_STATE_REJECTED")

    def __init__(self, reason: Rejection) -> None:
        super().__init__(_REJECTION_TEXT[reason])
        self.reason = reason

    @property
    def public_message(self) -> str:
        return INVALID_STATE_MESSAGE


class SecretInForm(AskbackError, ValueError):
    """A form would ask for a credential; it must be entered out of band instead.

    Raised at registration (the author's to fix, and the message says both ways), and by a question built while
    a function runs, where it reaches the caller as a tool error naming the field, never a value.
    """

    def __init__(self, where: str, field: str, term: str, *, declared: bool = False) -> None:
        article = "an" if term[:1].lower() in "aeiou" else "a"
        if declared:
            fix = (
                "Its schema declares a secret (writeOnly or format: password), and a declared secret never goes in "
                "a form, whatever the question says: type the parameter as askback.Secret, and askback asks for "
                "it out of band, on a page it serves (MCP URL-mode elicitation)."
            )
        else:
            fix = (
                "If it is one, type the parameter as askback.Secret: askback then asks for it out of band, on a "
                "page it serves (MCP URL-mode elicitation). If it is not a credential, say so for this question "
                "only with not_secret=True (on Ask, OneOf or Confirm, or work.ask/choose/confirm)."
            )
        super().__init__(
            f"{where}: form field {field!r} would ask for {article} {term}. Credentials (passwords, PINs, API keys, "
            "tokens, private keys, recovery phrases, payment card data) are never asked for in a form, where they "
            f"would pass through the client and the model's context. {fix}"
        )
        self.field = field
        self.term = term
        self.declared = declared


class StateTooLarge(AskbackError):
    """The state to seal would exceed the configured size cap."""


class MissingCapability(AskbackError):
    """The call can only complete with something the client did not declare it can do (MCP `-32021`).

    The one constructor of every `-32021`: the text names each step with the capability it needs, and the
    capabilities to declare, both from the same `needs` the `requiredCapabilities` data is built from, so the
    two cannot disagree. `arguments` are the other missing values, which a retry can send as arguments.
    """

    wire = WireMapping(jsonrpc_code=MISSING_REQUIRED_CLIENT_CAPABILITY, a2a_state="TASK_STATE_REJECTED")

    def __init__(
        self,
        target: str,
        needs: Sequence[tuple[str | None, str]],
        *,
        arguments: Sequence[str] = (),
        missing: Sequence[Mapping[str, Any]] = (),
        started: bool = False,
    ) -> None:
        """`needs`: (the step, or None for the call itself; the key of the capability it needs) pairs.

        `started`: the function was already running when it needed the capability (a question it asked during
        its work), so the text says that nothing MORE was done, never that nothing was."""
        self.needs = tuple(needs)
        self.required = required_capabilities(key for _, key in self.needs)
        self.missing = [dict(m) for m in missing]
        by_step: dict[str | None, list[str]] = {}
        for step, key in self.needs:
            by_step.setdefault(step, []).append(CAPABILITIES[key].text)
        named = {step: " and ".join(texts) for step, texts in by_step.items()}
        steps = ", ".join(texts if step is None else f"{step} ({texts})" for step, texts in named.items())
        self.target, self.steps = target, steps
        declare = json.dumps(self.required, separators=(",", ":"))
        done = "The function had already started; nothing more was done." if started else "Nothing was done."
        message = (
            f"{target} needs what this client did not declare: {steps}. {done} "
            f"To complete this call, the client must declare {declare} in its capabilities."
        )
        if arguments:
            message += f" It may also send these missing values as arguments: {', '.join(arguments)}."
        super().__init__(message)

    def beyond(self, wire: str) -> str:
        """The same refusal for a wire whose clients have no such capability to declare (A2A has no sampling)."""
        return f"{self.target} needs what {wire} cannot carry: {self.steps}. Nothing was done."

    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"requiredCapabilities": self.required}
        if self.missing:
            data["missing"] = self.missing
        return data


class StoreUnavailable(AskbackError):
    """The store could not be reached; nothing single-use ran. The caller may retry the same request."""

    wire = WireMapping(jsonrpc_code=INTERNAL_ERROR, retryable=True)

    @property
    def public_message(self) -> str:
        return "The server's store is unavailable right now; nothing was done. Retry the same request shortly."


class StoreInDoubt(StoreUnavailable):
    """The store held this request's claim on a single-use run but did not confirm that the run started.

    The function did not run. Whether the store recorded the start is unknown: if it did, the flow can never
    run again (a run that started is never repeated) and a retry is refused; if it did not, a retry runs it.
    """

    @property
    def public_message(self) -> str:
        return (
            "The server's store did not confirm in time; nothing was done. Retry the same request shortly; if the "
            "retry is refused as invalid or expired, start the request again without requestState."
        )


class KeyConfigError(ValueError):
    """A configured key is malformed, too short or too weak (a start-up error, never a caller's)."""
