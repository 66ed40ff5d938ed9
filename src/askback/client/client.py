"""`askback.Client`: call any MCP server's tools, prompts and resources, answering what it asks."""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import mcp_types as types
from pydantic import BaseModel, ValidationError

from askback.client.answerers.base import Answerer, Asked, Postpone, ScreensSecrets, Waits, WatchesTasks
from askback.client.answerers.callable import CallableAnswerer
from askback.client.connection import Connection, Mode
from askback.client.errors import AnswerError, ClientError, ProtocolError, SecretForm
from askback.client.loop import (
    DEFAULT_MAX_ROUNDS,
    DEFAULT_TIMEOUT,
    DEFAULT_URL_WAIT,
    AnswerNeeded,
    Done,
    Limits,
    Loop,
    Started,
    Wait,
    WaitPage,
)
from askback.client.pending import PageNotFinished, Pending, Postponed, Server, TooManyRounds, Unfinished
from askback.client.questions import (
    FormQuestion,
    Question,
    RootsQuestion,
    SamplingQuestion,
    UrlQuestion,
    accept,
    cancel,
    decline,
    parse_question,
    roots,
)
from askback.client.secret_forms import screen
from askback.client.tasks import TASKS_EXTENSION, InputNeeded, Poll, TaskCancelled, TaskFailed, TaskLoop
from askback.types import Capabilities

if TYPE_CHECKING:
    from askback.client.signin import SignIn

logger = logging.getLogger("askback.client")

_CANCEL_TIMEOUT = 5.0  # how long an interrupted call waits to tell the server to cancel its task

Sampler = Callable[[SamplingQuestion], Any | Awaitable[Any]]
M = TypeVar("M", bound=BaseModel)
_RESULTS: dict[str, type[BaseModel]] = {
    "tools/call": types.CallToolResult,
    "prompts/get": types.GetPromptResult,
    "resources/read": types.ReadResourceResult,
}


class CannotPostpone(AnswerError):
    """Questions asked over a handshake-era session cannot be saved: they must be answered while it waits."""


class Client:
    """An MCP client that answers `input_required` for any server, with a pluggable answerer.

    `server` is an MCP URL (streamable HTTP) or a command as a list (`["askback", "serve", "app.py",
    "--stdio"]`). The connection speaks 2026-07-28 when the server does, else the 2025-11-25 handshake
    (`mode="modern"` or `"legacy"` forces one). The client declares exactly what it can answer: the
    answerer's capabilities, sampling if a `sampler` (a model) is given, roots if `roots` are.

    `call_tool`, `get_prompt` and `read_resource` drive the whole exchange and return the final result; on
    2026-07-28 several calls may run at once, each with its own state (a handshake-era server asks over the
    session, so there one call at a time is asked for). A call
    ends early with `TooManyRounds` after `max_rounds` rounds of questions, `DeadlineExceeded` after `timeout`
    seconds, or `Postponed` when the answerer postpones; each carries `pending`, which `resume` continues.

    A URL step (a page to visit) is put to the answerer once. Its `accept` only says the person agreed to go;
    while the server asks the same URL again, the page step is not finished, so the client waits (1 s growing
    to 5 s between retries) and retries without asking again, for at most `url_wait` seconds; then it ends
    with `PageNotFinished` (carrying `pending`). An answerer with a `waiting(asked, seconds)` method is told
    once when the waiting begins.

    With `tasks` (the default) the client declares the MCP tasks extension on 2026-07-28: a server may then
    run a `tools/call` as a task. The client follows it to its end — it polls `tasks/get` at the server's
    `pollIntervalMs`, puts the questions the running task asks to the same answerer and sends them with
    `tasks/update` — and returns the task's result as the call's result. A failed task raises `TaskFailed`,
    a cancelled one `TaskCancelled`. When the call is interrupted (cancelled, Ctrl-C) or its answerer fails,
    the client asks the server to cancel the task; when it stops with `pending` (postponed, out of rounds,
    past its deadline), the task goes on and `resume(pending)` follows it again, without calling the tool a
    second time. An answerer with a `task_status(task_id, status, message)` method is told each change.

    A foreign server's form that asks for a credential (a field or message asking for a password, an API key,
    ...), and an answer that looks like one, go through askback's guard first: the terminal answerer warns and
    asks the person; any other answerer's answer is refused unless `allow_secret_forms` (the caller's explicit
    consent). A refused form is declined toward the server (the round's other questions are cancelled), and
    the call stops with `SecretForm` naming the field.

    With `sign_in` (an `askback.SignIn`), a server that answers HTTP 401 is signed in to with OAuth 2.1 (the
    SDK's client support: discovery, registration, authorization code with PKCE, refresh), the tokens kept in a
    file of askback's data directory (mode 0600) for the next time; without it a 401 is `Unauthorized`.
    """

    def __init__(
        self,
        server: str | Sequence[str] | Server,
        *,
        answerer: Answerer | None = None,
        sampler: Sampler | None = None,
        roots: Sequence[str | Path] | None = None,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        timeout: float | None = DEFAULT_TIMEOUT,
        url_wait: float = DEFAULT_URL_WAIT,
        mode: Mode = "auto",
        env: Mapping[str, str] | None = None,
        client_name: str = "askback",
        client_version: str | None = None,
        tasks: bool = True,
        headers: Mapping[str, str] | None = None,
        allow_secret_forms: bool = False,
        sign_in: SignIn | None = None,
    ) -> None:
        from askback._version import __version__

        self.server = Server.of(server)
        self.answerer = answerer
        self.sampler = _sampling_answerer(sampler) if sampler is not None else None
        self.roots = list(roots) if roots is not None else None
        self.limits = Limits(max_rounds=max_rounds, timeout=timeout, url_wait=url_wait)
        self.allow_secret_forms = allow_secret_forms
        base = answerer.capabilities if answerer is not None else Capabilities()
        self.capabilities = dataclasses.replace(
            base, sampling=base.sampling or sampler is not None, roots=base.roots or roots is not None
        )
        self._connection = Connection(
            self.server,
            capabilities=self.capabilities,
            client_info={"name": client_name, "version": client_version or __version__},
            mode=mode,
            env=env,
            back_channel=self._back_channel,
            extensions={TASKS_EXTENSION: {}} if tasks else None,
            headers=headers,
            sign_in=sign_in,
        )
        self.tasks = tasks
        self._current: tuple[str, str, Mapping[str, Any]] = ("", "", {})
        self._asked_back = 0
        self._back_error: BaseException | None = None
        # On the handshake era the server itself waits for an accepted page step, inside the pending request:
        # this scope bounds that wait to `url_wait` from the acceptance (inf while no page step is under way).
        self._page_scope: anyio.CancelScope | None = None

    async def __aenter__(self) -> Client:
        await self._connection.__aenter__()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._connection.__aexit__(exc_type, exc, tb)

    @property
    def protocol_version(self) -> str:
        """The protocol version in use (`2026-07-28`, or a handshake-era version)."""
        return self._connection.protocol_version or ""

    @property
    def server_name(self) -> str:
        """The name the server gave, else its URL or command."""
        return self._connection.server_name or self.server.describe()

    # -- the MCP methods ----------------------------------------------------------------------------------
    async def list_tools(self) -> list[dict[str, Any]]:
        """The server's tools, as listed (raw `Tool` objects)."""
        return await self._connection.list_tools()

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> types.CallToolResult:
        raw = await self.request("tools/call", {"name": name, "arguments": dict(arguments or {})})
        return _model(types.CallToolResult, raw)

    async def get_prompt(self, name: str, arguments: Mapping[str, str] | None = None) -> types.GetPromptResult:
        raw = await self.request("prompts/get", {"name": name, "arguments": dict(arguments or {})})
        return _model(types.GetPromptResult, raw)

    async def read_resource(self, uri: str) -> types.ReadResourceResult:
        raw = await self.request("resources/read", {"uri": uri})
        return _model(types.ReadResourceResult, raw)

    async def resume(self, pending: Pending) -> BaseModel:
        """Continue a saved call: answer its questions, send them with its state, and finish it.

        Returns the result model of its method (`CallToolResult`, `GetPromptResult`, `ReadResourceResult`).
        """
        return _model(_RESULTS[pending.method], await self.request(pending.method, pending.params, resume=pending))

    async def request(self, method: str, params: Mapping[str, Any], *, resume: Pending | None = None) -> dict[str, Any]:
        """Drive one asking request to its end and return the final result as the server sent it."""
        if resume is not None and not self._connection.modern:
            raise ClientError(
                f"{self.server_name} speaks {self.protocol_version}: a saved call can only be "
                "continued with a server that speaks 2026-07-28"
            )
        loop = Loop(
            method,
            params,
            server=self.server,
            protocol_version=self.protocol_version,
            server_name=self._connection.server_name,
            limits=self.limits,
            resume=None if resume is not None and resume.task_id is not None else resume,
            tasks=self.tasks and self._connection.modern,
        )
        self._current = (method, loop.target, dict(params.get("arguments") or {}))  # for back-channel questions
        self._asked_back, self._back_error = 0, None
        remaining = loop.remaining()
        with anyio.move_on_after(math.inf if remaining is None else remaining):
            if resume is not None and resume.task_id is not None:
                return await self._follow(loop, TaskLoop({"taskId": resume.task_id}, resume, limits=self.limits),
                                          resume if resume.input_requests else None)
            return await self._drive(loop)
        raise loop.expired()

    # -- the loop -------------------------------------------------------------------------------------------
    async def _drive(self, loop: Loop) -> dict[str, Any]:
        step = loop.start()
        while True:
            if step is None:
                raw = await self._send(loop)
                if self._back_error is not None:  # an answer over the session's back-channel failed
                    raise self._back_error
                step = loop.receive(raw)
            if isinstance(step, Done):
                return step.result
            if isinstance(step, Started):
                return await self._follow(loop, TaskLoop(step.created, step.call, limits=self.limits))
            if isinstance(step, Wait):
                await anyio.sleep(step.seconds)
            elif isinstance(step, WaitPage):
                if step.first:
                    self._tell_waiting(self._asked_for(step.pending, ()))
                await anyio.sleep(step.seconds)
            else:
                assert isinstance(step, AnswerNeeded)
                pending = step.pending
                new = tuple(q for q in pending.questions if q.key not in step.again)
                try:
                    responses = await self._answer(self._asked_for(pending, new))
                except Postpone:
                    raise Postponed("The questions were kept for later.", step.pending) from None
                except SecretForm as refused:
                    loop.answered({**{key: accept() for key in step.again}, **refused.responses})
                    # The server hears no to its form; whatever it answers then, the call stops here.
                    await self._tell_declined(refused, self._send(loop))
                    raise refused from None
                if loop.answered({**{key: accept() for key in step.again}, **responses}):
                    self._tell_waiting(self._asked_for(pending, ()))
            step = None

    async def _follow(self, loop: Loop, task: TaskLoop, questions: Pending | None = None) -> dict[str, Any]:
        """Follow the server's task to its result, answering what it asks on the way (`questions`: the ones a
        pending file kept, put to the answerer first)."""
        step: Poll | InputNeeded | Done = InputNeeded(questions) if questions is not None else task.poll()
        finished = False
        self._tell_task(task)  # what the server said when it created the task (or the pending file kept)
        try:
            while True:
                loop.pending = task.pending(step.pending.input_requests if isinstance(step, InputNeeded) else None)
                if isinstance(step, Done):
                    finished = True
                    return step.result
                if isinstance(step, Poll):
                    await anyio.sleep(step.seconds)
                    step = task.receive(await self._connection.request("tasks/get", task.params()))
                    self._tell_task(task)
                    continue
                try:
                    responses = await self._answer(self._asked_for(step.pending, ()))
                except Postpone:
                    raise Postponed("The task's questions were kept for later.", step.pending) from None
                except SecretForm as refused:
                    # The task hears no to its form and goes on as the server decides: not cancelled as well.
                    finished = True
                    await self._tell_declined(
                        refused, self._connection.request("tasks/update", task.update_params(refused.responses))
                    )
                    raise refused from None
                await self._connection.request("tasks/update", task.update_params(responses))
                step = Poll(0.0)
        except (TaskFailed, TaskCancelled):
            finished = True
            raise
        except Unfinished:
            finished = True  # postponed, out of rounds: the task goes on; `resume(pending)` follows it again
            raise
        except BaseException:
            # Interrupted, or its answerer failed: nobody will answer this task, so ask the server to stop it —
            # unless only the call's own deadline ran out, which ends the wait, not the task.
            if not finished and loop.remaining() != 0.0:
                await self._cancel(task)
            raise

    async def _tell_declined(self, refused: SecretForm, sending: Awaitable[Any]) -> None:
        """Send the decline of a refused form; `refused` says it was declined only once the server took it."""
        try:
            await sending
        except Exception as exc:  # the server is gone or failed: the refusal is still what stops the call
            logger.debug("the decline of %s could not be sent: %s", refused.key, exc)
        else:
            refused.declined = True

    async def _cancel(self, task: TaskLoop) -> None:
        with anyio.CancelScope(shield=True), anyio.move_on_after(_CANCEL_TIMEOUT):
            try:
                await self._connection.request("tasks/cancel", task.params())
            except Exception as exc:  # the server may be gone; the interruption itself is what the caller sees
                logger.debug("tasks/cancel for %s failed: %s", task.task_id, exc)

    def _tell_task(self, task: TaskLoop) -> None:
        if task.changed is not None and isinstance(self.answerer, WatchesTasks):
            self.answerer.task_status(task.task_id, task.changed.status, task.changed.message)

    async def _send(self, loop: Loop) -> dict[str, Any]:
        """One request; on the handshake era, bounded by `url_wait` once a page step the server waits for was
        accepted over the session."""
        if self._connection.modern:
            left = loop.page_left()
            if left is None:
                return await self._connection.request(loop.method, loop.request())
            with anyio.move_on_after(left):  # the server may hold a retry until the page is done
                return await self._connection.request(loop.method, loop.request())
            raise loop.page_not_finished()
        with anyio.CancelScope() as scope:
            self._page_scope = scope
            try:
                return await self._connection.request(loop.method, loop.request())
            finally:
                self._page_scope = None
        raise PageNotFinished(
            f"The page step was not finished within {self.limits.url_wait:g} s; the call stops here.", None
        )

    def _asked_for(self, pending: Pending, questions: tuple[Question, ...]) -> Asked:
        return self._asked(
            questions or pending.questions,
            pending.rounds,
            pending.method,
            pending.target,
            pending.params.get("arguments"),
        )

    def _tell_waiting(self, asked: Asked) -> None:
        if isinstance(self.answerer, Waits):
            self.answerer.waiting(asked, self.limits.url_wait)

    def _asked(
        self, questions: tuple[Question, ...], round_number: int, method: str, target: str, arguments: Any
    ) -> Asked:
        return Asked(
            server=self.server_name,
            method=method,
            target=target,
            questions=questions,
            round=round_number,
            arguments=dict(arguments) if isinstance(arguments, Mapping) else {},
            server_url=self.server.url,
            allow_secret_forms=self.allow_secret_forms,
        )

    async def _answer(self, asked: Asked) -> dict[str, dict[str, Any]]:
        """Route each question: roots to `roots`, sampling to the `sampler`, the rest to the answerer."""
        for q in asked.questions:
            if not _declared(self.capabilities, q):
                raise ProtocolError(f"the server asked {q.key!r} as {_kind(q)}, which this client did not declare")
        answers: dict[str, dict[str, Any]] = {}
        own: list[Question] = []
        for q in asked.questions:
            if isinstance(q, RootsQuestion) and self.roots is not None:
                answers[q.key] = roots(self.roots)
            elif isinstance(q, SamplingQuestion) and self.sampler is not None:
                answers.update(await self.sampler.answer(dataclasses.replace(asked, questions=(q,))))
            else:
                own.append(q)
        if own:
            if self.answerer is None:
                raise AnswerError(f"no answerer for {', '.join(q.key for q in own)}")
            mine = dataclasses.replace(asked, questions=tuple(own))
            answered = await self.answerer.answer(mine)
            if not isinstance(self.answerer, ScreensSecrets):  # an answerer of the caller's own: the guard runs here
                screen(mine.questions, answered, allowed=self.allow_secret_forms)
            answers.update(answered)
        return answers

    async def _back_channel(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """A handshake-era server's question, asked over its session while the request waits."""
        if self._back_error is not None:
            return _refusal(method)
        self._asked_back += 1
        request = {"method": method, "params": params}
        try:
            question = parse_question(_back_key(method, params, self._asked_back), request)
            if self._asked_back > self.limits.max_rounds:
                raise TooManyRounds(
                    f"The server asked more than {self.limits.max_rounds} questions; the call stops here.", None
                )
            asked = self._asked((question,), self._asked_back, *self._current)
            if self._page_scope is not None:  # a new question: whatever page step came before is finished
                self._page_scope.deadline = math.inf
            answer = (await self._answer(asked))[question.key]
            if isinstance(question, UrlQuestion) and answer.get("action") == "accept" and self._page_scope:
                # The server now waits for the page step before it answers the request: bound that wait.
                self._page_scope.deadline = anyio.current_time() + self.limits.url_wait
                self._tell_waiting(asked)
            return answer
        except SecretForm as refused:  # the server waits on the session for this answer: it is the decline
            refused.declined = True
            self._back_error = refused
            return refused.responses.get(question.key, decline())
        except Postpone:
            self._back_error = CannotPostpone(
                f"{self.server_name} speaks {self.protocol_version}: it asks over a live connection, so its "
                "questions cannot be saved for later. Answer them now."
            )
        except Exception as exc:
            self._back_error = exc
        return _refusal(method)


def _sampling_answerer(sampler: Sampler) -> CallableAnswerer:
    def sample(question: Question) -> Any:
        assert isinstance(question, SamplingQuestion)
        return sampler(question)

    return CallableAnswerer(sample, form=False, sampling=True)


def _refusal(method: str) -> dict[str, Any]:
    if method == "elicitation/create":
        return cancel()
    return {"error": {"code": types.INVALID_REQUEST, "message": "the client could not answer"}}


def _back_key(method: str, params: Mapping[str, Any], number: int) -> str:
    """A key for a back-channel question: a one-field form's field name, else the kind and its number."""
    schema = params.get("requestedSchema")
    if method == "elicitation/create" and isinstance(schema, Mapping):
        properties = schema.get("properties")
        if isinstance(properties, Mapping) and len(properties) == 1:
            return str(next(iter(properties)))
    return {"elicitation/create": "elicitation", "sampling/createMessage": "sampling"}.get(method, "roots") + (
        f"-{number}" if method != "roots/list" else ""
    )


def _declared(caps: Capabilities, q: Question) -> bool:
    if isinstance(q, FormQuestion):
        return caps.form
    if isinstance(q, UrlQuestion):
        return caps.url
    if isinstance(q, SamplingQuestion):
        return caps.sampling
    return caps.roots


def _kind(q: Question) -> str:
    return {"form": "a form", "url": "a URL step", "sampling": "sampling", "roots": "roots"}[q.kind]


def _model(model: type[M], raw: Mapping[str, Any]) -> M:
    try:
        return model.model_validate(raw, by_name=False)
    except ValidationError as exc:
        raise ProtocolError(f"the server's result is not a valid {model.__name__}: {exc}") from None
