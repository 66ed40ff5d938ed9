"""What can end a client call other than a result, each a named exception.

The ones that carry a pending call (`Unfinished` and its kinds) live with `Pending`, in `pending.py`.
"""

from __future__ import annotations


class ClientError(Exception):
    """Base of every error the askback client raises on purpose."""


class ProtocolError(ClientError):
    """The server sent something that is not valid MCP for this exchange."""


class ServerError(ClientError):
    """The server answered with a JSON-RPC error (or could not be reached)."""

    def __init__(self, message: str, *, code: int | None = None, data: object = None) -> None:
        super().__init__(message if code is None else f"{message} (JSON-RPC error {code})")
        self.message = message
        self.code = code
        self.data = data


class Unauthorized(ServerError):
    """The server answered HTTP 401 (it needs a sign-in) or 403 (the sign-in does not grant what it needs).

    Without a `SignIn` the client does not sign in; with one, a 401 that remains means the server refused the
    token it was just given, and a 403 that the scopes granted (after one step-up) are not enough.
    """

    def __init__(self, server: str, challenge: str | None = None, *, status: int = 401, signed_in: bool = False,
                 message: str | None = None) -> None:
        if message is None:
            if status == 403:
                message = (f"{server} refused the request (HTTP 403): the sign-in does not grant what it needs"
                           + (" (insufficient_scope)" if challenge and "insufficient_scope" in challenge else ""))
            elif signed_in:
                message = f"{server} refused the token it gave this client (HTTP 401)"
            else:
                message = (f"{server} needs authorization (HTTP 401); this client was not told to sign in: give "
                           "sign_in=askback.SignIn() (askback call signs in from a terminal, or with --sign-in)")
        super().__init__(message)
        self.challenge = challenge  # the WWW-Authenticate header, for a caller that can authorize
        self.status = status


class SignInFailed(Unauthorized):
    """Signing in to the server (OAuth 2.1) did not succeed; `reason` says why, and never carries a token."""

    def __init__(self, server: str, reason: str) -> None:
        super().__init__(server, message=f"signing in to {server} failed: {reason}")
        self.reason = reason


class NoEndpoint(ServerError):
    """The URL answered the handshake with a plain HTTP 404 or 405 (no JSON-RPC in it), or with JSON-RPC's
    "method not found" for `initialize` itself (another JSON-RPC service, an A2A agent's say): nothing speaks MCP
    there."""

    def __init__(self, url: str, status: int = 404, *, speaks: str | None = None) -> None:
        hint = "" if speaks or url.rstrip("/").endswith("/mcp") else f"; did you mean {url.rstrip('/')}/mcp?"
        said = f"it answers JSON-RPC, but {speaks}" if speaks else f"HTTP {status}"
        super().__init__(f"no MCP endpoint at {url} ({said}){hint}")
        self.url = url
        self.status = status


class InvalidTool(ProtocolError):
    """The server lists this tool with `x-mcp-header` annotations the spec forbids: it must not be called."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"the server's tool {name!r} is not valid MCP ({reason}), so it is not called")
        self.name = name
        self.reason = reason


class AnswerError(ClientError):
    """An answerer could not answer a question."""


class UnknownQuestion(AnswerError):
    """An answers file (or mapping) has no answer for this question."""

    def __init__(self, key: str, fields: tuple[str, ...] = (), *, hint: str = "", asks: str = "") -> None:
        where = f" (fields: {', '.join(fields)})" if fields and fields != (key,) else ""
        # What the question says, so that whoever writes the file can tell what it asks (a key such as
        # `reply-2`, of an agent that asks in free text, says nothing by itself).
        said = f', which asks: "{asks}"' if asks else ""
        super().__init__(f"no answer for the question {key!r}{where}{said}" + (f": {hint}" if hint else ""))
        self.key = key
        self.fields = fields


class InvalidAnswer(AnswerError):
    """A given answer does not fit its question."""

    def __init__(self, key: str, field: str | None, reason: str) -> None:
        where = f"{key!r}" if field is None or field == key else f"{key!r}, field {field!r}"
        super().__init__(f"the answer to {where} is not valid: {reason}")
        self.key = key
        self.field = field
        self.reason = reason


class AnswerRejected(AnswerError):
    """The server asked again a question already answered from a file: the answer it was given did not do."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"the server did not accept the answer to {key!r}; it asks again: {message}")
        self.key = key
        self.message = message


class NoMoreInput(AnswerError):
    """The person's input ended (end of file) before the question was answered."""


def only_exception(exc: BaseException) -> BaseException | None:
    """The one exception a task group's exception group holds (through nested groups), else None.

    A plain exception is its own only exception.
    """
    while isinstance(exc, BaseExceptionGroup):
        if len(exc.exceptions) != 1:
            return None
        exc = exc.exceptions[0]
    return exc


class SecretForm(AnswerError):
    """A foreign server's form asks for a credential, or an answer looks like one, and nobody consented to send it.

    `field` is the form field, `term` what it asks for ("a password") or what the value looks like, `by` says
    which: `"field"` (its name, title or description), `"message"` (the form's message) or `"value"` (the answer).
    `responses` are the answers the client sends instead (the form declined, the round's other questions
    cancelled); `declined` is set once the server was told, so that the message says so only when it is true.
    """

    def __init__(self, key: str, field: str, term: str, by: str, responses: dict[str, dict[str, object]]) -> None:
        where = f"field {field!r}" + ("" if field == key else f" of the question {key!r}")
        if by == "value":
            said = f"the answer to the form's {where} looks like {term}; it is not sent into a form"
        else:
            asks = "asks" if by == "field" else "asks, in its message,"
            said = f"the server {asks} for {term} in a form ({where}); it is not filled from answers"
        super().__init__(
            f"{said} without explicit consent (--allow-secret-forms, or allow_secret_forms=True): a credential typed "
            "into a form passes through this client and may reach the model, and a server should ask for it on a "
            "page of its own"
        )
        self.key = key
        self.field = field
        self.term = term
        self.by = by
        self.responses = responses
        self.declined = False

    def __str__(self) -> str:
        said = super().__str__()
        return f"{said}. The form was declined." if self.declined else said
