"""Annotations a tool author puts on parameters to say how a missing value is asked for.

Each marker is plain data; `askback.core.spec` reads them when a function is registered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import SecretStr

from askback.core.marks import ApproveWith


@dataclass(frozen=True, slots=True)
class Ask:
    """Customise the question asked when this value is missing or invalid.

    `message` may name other parameters as `{name}`; the question then waits until they are known.
    `field` is the property name inside the form (defaults to the parameter's name).
    `not_secret=True` is the author's word that this question does not ask for a credential, though its words
    may read so ("Which token do you want to buy?"): the word check then passes it (the registration log says
    so). It never lets a declared secret (`Secret`, `SecretStr`, `writeOnly`, `format: password`) into a form,
    a caller's value shown in its text is still read, and the answer is still checked by the answer guard.
    """

    message: str | None = None
    field: str | None = None
    title: str | None = None
    not_secret: bool = False


@dataclass(frozen=True, slots=True)
class Option:
    """One choice offered to the caller: the value the function receives and the title a person sees."""

    value: str | int | float | bool
    title: str | None = None


OptionsProvider = Callable[
    ..., "Sequence[Option | str | int | float | bool] | Awaitable[Sequence[Option | str | int | float | bool]]"
]


@dataclass(frozen=True, slots=True)
class OneOf:
    """The value must be one of the options `provider` returns for this caller, at call time.

    The provider's parameters are matched by name: `caller` receives the `Caller`, any other name must be a
    parameter of the tool, and the choice is asked only once those values are known. No option is a clear
    result; exactly one is used without asking; several are a single-select question. `not_secret=True`: as
    on `Ask`.
    """

    provider: OptionsProvider
    message: str | None = None
    field: str | None = None
    not_secret: bool = False


@dataclass(frozen=True, slots=True)
class Confirm:
    """Ask the person to confirm before the function runs.

    `text` names values as `{name}`; it is asked only once every one of them is known, and the answer is
    bound to the rendered text and all values, so it cannot be reused for different ones. Annotate the
    parameter as `bool` to get `True` (a decline or cancel then ends the call with nothing done), or as
    `askback.Answer` to receive the full answer and branch on a decline yourself.

    `out_of_band=True` asks for the approval on a page askback serves (URL mode), where no agent answering
    forms can reach: the person sees the action and its values there and approves or rejects it. A callable
    decides per call: it receives the values it names as parameters (`lambda amount: amount > 1000`).

    `approve_with="passkey"` makes the page ask for a WebAuthn assertion, with user verification, from a passkey
    enrolled for the person approving, over a challenge bound to the page's text and values (docs/passkeys.md);
    `"page"` is the Approve button alone; None (the default) is the App's `approve_with`.

    `approvers` asks a second person: the approval must come from someone other than the caller, signed in at
    the page (the App's `page_auth`), for whom `approvers(person)` is true (a role check; it may be async).
    The caller's own sign-in is refused.

    `not_secret` is accepted as on `Ask`, for one spelling; a confirmation needs it less: its own text is never
    refused for its words (a yes/no carries no credential), and a caller's value in it is always read.
    """

    text: str
    field: str | None = None
    out_of_band: bool | Callable[..., bool] = False
    not_secret: bool = False
    approve_with: ApproveWith | None = None
    approvers: Callable[[str], bool | Awaitable[bool]] | None = None


@dataclass(frozen=True, slots=True)
class Sample:
    """Fill this value with a model's answer: an MCP `sampling/createMessage` question.

    `prompt` may name other parameters as `{name}`. The parameter receives the text of the answer (`str`)
    or the whole result (`dict`).
    """

    prompt: str
    max_tokens: int = 256
    system_prompt: str | None = None
    temperature: float | None = None


@dataclass(frozen=True, slots=True)
class Roots:
    """Fill this value with the client's roots: an MCP `roots/list` question (`list[askback.Root]`)."""


@dataclass(frozen=True, slots=True)
class Root:
    """One root the client exposes."""

    uri: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """The full answer to a confirmation, for a tool that wants to branch on a decline."""

    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] = field(default_factory=dict)

    @property
    def accepted(self) -> bool:
        return self.action == "accept"


class Secret(SecretStr):
    """A credential (a password, an API key, a token) entered on a page askback serves, never in a form.

    Annotate a parameter with it and askback asks for the value out of band (MCP URL mode): the value never
    passes through the client or any `requestState`. Its `repr` and `str` never show it; `reveal()` does.
    """

    def reveal(self) -> str:
        return self.get_secret_value()


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling and what is known so far; given to option providers and to `Caller`-typed parameters."""

    principal: str | None
    values: dict[str, Any] = field(default_factory=dict)


class Work:
    """What a function that runs as a task is given to talk to the person while it works.

    Type a parameter as `askback.Work` on a tool registered with `task="optional"` or `task="required"`. The
    function can then ask, in the middle of its work, questions whose text depends on what it found:

    - `await work.confirm("Delete these {n} files?", n=3)` -> bool (False when declined);
    - `await work.choose("Which copy do we keep?", options)` -> the chosen option's value;
    - `await work.ask("How many days back?", int)` -> a validated value of that type;
    - `await work.ask("Your new API key", secret=True)` -> an `askback.Secret`, asked on askback's page only
      (where a runner offers that page step; elsewhere the call ends with a tool error saying so);
    - `await work.status("Scanned 400 of 1000 files")` -> the task's status message.

    `{name}` parts of a text are filled with the keyword values, shown inert. Each question is built, checked
    by the secret guard (a question for a password or an API key is refused: a secret is asked on a page) and
    validated like a parameter's question; `not_secret=True` (on `ask`, `choose`, `confirm`) is the author's
    word that a question reading like one is not (as on `Ask`: the values shown in it are still read); an
    invalid answer is asked again with the reason. A decline of
    `choose` or `ask` raises `askback.Declined` (uncaught, the task completes with that refusal). While a
    question waits, the task is `input_required`; a cancelled task raises `asyncio.CancelledError` at the
    function's next await.

    Called without a task (a client that did not declare the tasks extension, for `task="optional"`), the
    function runs within the call: a 2025-11-25 session is asked each question over its back-channel; on a
    2026-07-28 request (which has none) a question ends the call with a tool error saying it needs a task.
    """

    async def confirm(self, text: str, *, not_secret: bool = False, **values: Any) -> bool:
        raise NotImplementedError

    async def choose(
        self,
        text: str,
        options: Sequence[Option | str | int | float | bool],
        *,
        not_secret: bool = False,
        **values: Any,
    ) -> Any:
        raise NotImplementedError

    async def ask(
        self,
        text: str,
        kind: Any = str,
        *,
        field: str = "value",
        not_secret: bool = False,
        secret: bool = False,
        **values: Any,
    ) -> Any:
        raise NotImplementedError

    async def status(self, text: str, **values: Any) -> None:
        raise NotImplementedError


LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class Context:
    """What a running function is given to report on its work while the call is open.

    Type a parameter as `askback.Context` (it is never in the input schema, like `askback.Caller`):

    - `await ctx.progress(done, total=None, message=None)` -> a `notifications/progress` for the request's
      progress token (nothing is sent when the request carried none); inside a task, the task's status message;
    - `await ctx.log(level, message, data=None)` -> a `notifications/message` (MCP's syslog levels, `"debug"`
      to `"emergency"`), sent only where the client asked for logs at that level (`logging/setLevel` on a
      2025-11-25 session, the request's log-level `_meta` on 2026-07-28); a credential-looking value in the
      message or the data is replaced before it is sent;
    - `ctx.principal`: who is calling (the flow's principal), or None.

    Progress and logs never fail the call: a client that went away, or one that asked for neither, simply
    receives nothing.
    """

    principal: str | None = None

    async def progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        raise NotImplementedError

    async def log(self, level: str, message: str, data: Any = None) -> None:
        raise NotImplementedError


class Titles:
    """The titles a person sees for a fixed set of choices: a `Literal`, an `Enum`, or a list of either.

    `Annotated[Literal["eu", "us"], askback.Titles({"eu": "Europe", "us": "United States"})]` is asked as a
    titled single choice (`oneOf` of `{"const", "title"}`), and a `list[...]` of it as a titled multiple choice
    (`items.anyOf`), as SEP-1330 has them; a value without a title shows as itself. The type still decides what
    is valid; the titles change only what is shown (in the form and in the tool's input schema). Choices that
    depend on the caller are `OneOf`'s.
    """

    __slots__ = ("titles",)

    def __init__(self, titles: Mapping[Any, str]) -> None:
        self.titles: tuple[tuple[Any, str], ...] = tuple(titles.items())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Titles) and other.titles == self.titles

    def __hash__(self) -> int:
        return hash(self.titles)

    def __repr__(self) -> str:
        return f"Titles({dict(self.titles)!r})"

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        schema: dict[str, Any] = handler(core_schema)
        if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
            items = self._titled(handler, schema["items"])
            if items is None:
                return schema
            return {**schema, "items": {"anyOf": items["oneOf"]}}  # a multiple choice's titled items (SEP-1330)
        return self._titled(handler, schema) or schema

    def _titled(self, handler: Any, schema: dict[str, Any]) -> dict[str, Any] | None:
        """`schema` (a `Literal`'s or an `Enum`'s) with its `enum` as `oneOf` of const + title."""
        target = handler.resolve_ref_schema(schema) if "$ref" in schema else schema
        values = target.get("enum")
        if not isinstance(values, list):
            return None
        titles = dict(self.titles)
        kept = {k: v for k, v in {**target, **schema}.items() if k not in ("$ref", "enum")}
        return {**kept, "oneOf": [{"const": v, "title": titles.get(v, str(v))} for v in values]}
