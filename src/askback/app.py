"""`askback.App`: register typed tools, prompts and resource templates that ask for what is missing."""

from __future__ import annotations

import contextlib
import os
import weakref
from collections.abc import Awaitable, Callable, Mapping
from functools import cache, cached_property
from pathlib import Path
from typing import Any, TypeVar, overload

from askback.config import Environment
from askback.core.decide import DEFAULT_MAX_ROUNDS
from askback.core.errors import StoreUnavailable
from askback.core.kinds import ApprovalParam, SecretParam
from askback.core.marks import APPROVE_WITH, ApproveWith
from askback.core.spec import Resume, Spec, SpecError, TaskSupport, build_spec
from askback.core.state import DEFAULT_MAX_STATE_BYTES, KeyConfigError, Keyring, StateCodec, StatePolicy
from askback.flow import Runtime
from askback.guard import GUARD
from askback.incoming import Incoming, PrincipalHook
from askback.outofband import OutOfBand, Ticket
from askback.pagewait import PageWait, seconds_from
from askback.passkeys import Passkeys
from askback.receipts import DEFAULT_TTL as DEFAULT_RECEIPT_TTL
from askback.receipts import Receipt, Receipts
from askback.stores import Store, open_store, sealers

F = TypeVar("F", bound=Callable[..., Any])


# What the principal hook sees of a request, whatever the wire: `askback.Request` is the name app authors use.
Request = Incoming
# A page's Starlette request -> the person signed in there (`askback.web.pages` calls it).
PageAuth = Callable[[Any], "str | Awaitable[str | None] | None"]


class App:
    """A named set of tools, prompts and resource templates.

    `keys` (a `Keyring` or `ASKBACK_KEYS`-style text), `store` (a `Store` or a store URL) and `data_dir`
    default to the environment (`ASKBACK_KEYS`, `ASKBACK_STORE`, `ASKBACK_DATA_DIR`). `principal` maps a
    `Request` to the caller's identity when the server's own authentication names none.

    Secrets and out-of-band approvals are completed on askback's pages: `public_url` (or `ASKBACK_PUBLIC_URL`)
    is where a person's browser reaches this server, and `page_auth` maps a page's HTTP request to the person
    signed in there (the app's own login or an OAuth/OIDC session), compared with the flow's principal.
    `page_wait` (or `ASKBACK_PAGE_WAIT`; default 20 seconds, 0 turns it off) is how long a client's retry of
    a page step it accepted is held while the page is not done, ending the moment the page completes.
    `approve_with` (or `ASKBACK_APPROVE_WITH`) is what every out-of-band approval whose `Confirm` does not say
    takes as a yes: `"page"` (the default; its Approve button) or `"passkey"` (a passkey enrolled for the person,
    docs/passkeys.md).
    Every single-use run and every approval given on a page leaves a receipt in the store, kept `receipt_ttl`
    seconds (default 90 days) after its latest entry: `await app.receipt(id)`, `await app.receipts()`.
    """

    def __init__(
        self,
        name: str,
        *,
        version: str = "0.1.0",
        instructions: str | None = None,
        principal: PrincipalHook | None = None,
        keys: Keyring | str | None = None,
        store: Store | str | None = None,
        data_dir: str | Path | None = None,
        round_ttl: int = 600,
        flow_ttl: int = 1800,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        max_state_bytes: int = DEFAULT_MAX_STATE_BYTES,
        public_url: str | None = None,
        page_auth: PageAuth | None = None,
        task_ttl: int = 3600,
        task_lease: float = 15.0,
        page_wait: float | None = None,
        approve_with: ApproveWith | None = None,
        receipt_ttl: float = DEFAULT_RECEIPT_TTL,
    ) -> None:
        if not name:
            raise ValueError("an App needs a name: it is the audience every requestState is bound to")
        self.name = name
        self.version = version
        self.instructions = instructions
        self.principal_hook = principal
        self.page_auth = page_auth
        self._public_url = public_url
        self._keys = keys
        self._store = store
        self._data_dir = Path(data_dir) if data_dir is not None else None
        self.policy = StatePolicy(round_ttl=round_ttl, flow_ttl=flow_ttl, max_bytes=max_state_bytes)
        self.max_rounds = max_rounds
        self.page_wait = seconds_from(page_wait)
        self.approve_with = approve_with_from(approve_with)
        self.receipt_ttl = receipt_ttl
        # Tasks: how long a task is kept (seconds from creation), and how long a process's claim on running a
        # task lasts without being renewed (after that, another process may settle or resume it).
        self.task_ttl = task_ttl
        self.task_lease = task_lease
        self.tools: dict[str, Spec] = {}
        self.prompts: dict[str, Spec] = {}
        self.resources: dict[str, Spec] = {}
        self._sealer: str | None = None  # this server's entry in the store's record of key rings
        self._on_stop: list[Callable[[], Awaitable[None]]] = []
        # Each server built from this app that lets clients subscribe to resources (`askback.mcp.subscriptions`).
        self._resource_watchers: list[weakref.WeakMethod[Callable[[str], Awaitable[None]]]] = []
        # Whether a server of this app serves askback's pages (`askback.web.serving.pages_for` says so): only
        # then can a secret asked during the work (`work.ask(secret=True)`) be entered on one.
        self.pages_served = False
        # Whether its servers serve askback's pages though no parameter of its own needs them: an adopted
        # server's or a gateway's options ask there (`askback.adoption`).
        self.pages_wanted = False

    # -- registration ------------------------------------------------------------------------------------
    @overload
    def tool(self, fn: F) -> F: ...
    @overload
    def tool(
        self,
        fn: None = None,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        once: bool = False,
        namespace: Mapping[str, Any] | None = None,
        task: TaskSupport | None = None,
        resume: Resume = "rerun",
        input_schema: Mapping[str, Any] | None = None,
    ) -> Callable[[F], F]: ...

    def tool(
        self,
        fn: F | None = None,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        once: bool = False,
        namespace: Mapping[str, Any] | None = None,
        task: TaskSupport | None = None,
        resume: Resume = "rerun",
        input_schema: Mapping[str, Any] | None = None,
    ) -> F | Callable[[F], F]:
        """Register a tool. `once=True` makes the final round of a flow single-use: a replay never re-runs it.

        `task="optional"` runs the tool as a task (MCP tasks extension) when the client declared the extension
        on the request, and within the call otherwise; `task="required"` refuses a client that did not declare
        it. A task's function may take an `askback.Work` to ask during its work. `resume` says what a task
        parked on a question does when it is answered after the server restarted: `"rerun"` runs the function
        again from the start, its earlier questions answered from the record; `"fail"` settles it failed.

        `namespace` (usually `locals()`) resolves annotation names defined inside a function. `input_schema`
        declares the tool's JSON Schema 2020-12 input schema, listed as written instead of the one the signature
        gives; each top-level property is the parameter of that name, asked for when the schema requires it and
        it is missing (docs/context.md).
        """

        def register(f: F) -> F:
            spec = build_spec(
                f, kind="tool", name=name, title=title, description=description, once=once, namespace=namespace,
                task=task, resume=resume, input_schema=input_schema, guard=GUARD,
            )
            self._add(self.tools, spec)
            return f

        return register(fn) if fn is not None else register

    @overload
    def prompt(self, fn: F) -> F: ...
    @overload
    def prompt(
        self,
        fn: None = None,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        namespace: Mapping[str, Any] | None = None,
    ) -> Callable[[F], F]: ...

    def prompt(
        self,
        fn: F | None = None,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        namespace: Mapping[str, Any] | None = None,
    ) -> F | Callable[[F], F]:
        """Register a prompt. It returns a string, a list of messages, or a full `prompts/get` result."""

        def register(f: F) -> F:
            spec = build_spec(
                f, kind="prompt", name=name, title=title, description=description, namespace=namespace, guard=GUARD
            )
            self._add(self.prompts, spec)
            return f

        return register(fn) if fn is not None else register

    def resource(
        self,
        uri_template: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str = "text/plain",
        namespace: Mapping[str, Any] | None = None,
    ) -> Callable[[F], F]:
        """Register a resource (template). `{name}` parts of the URI fill parameters; the rest are asked."""

        def register(f: F) -> F:
            spec = build_spec(
                f,
                kind="resource",
                name=name,
                title=title,
                description=description,
                uri_template=uri_template,
                mime_type=mime_type,
                namespace=namespace,
                guard=GUARD,
            )
            self._add(self.resources, spec)
            return f

        return register

    def takes_task(self, tool: str) -> bool:
        """Whether `tool` can run as a task (`task="optional"` or `"required"`)."""
        spec = self.tools.get(tool)
        return spec is not None and spec.task is not None

    def on_stop(self, callback: Callable[[], Awaitable[None]]) -> None:
        """Run `callback` at shutdown, before the store closes (running tasks record how they stopped)."""
        if callback not in self._on_stop:
            self._on_stop.append(callback)

    async def resource_updated(self, uri: str) -> None:
        """Say that the resource at `uri` changed: every client subscribed to it is told, so it can read it again.

        A 2025-11-25 session that sent `resources/subscribe` for `uri` is sent `notifications/resources/updated`;
        a 2026-07-28 `subscriptions/listen` stream that named it gets the same notification. Subscriptions live
        in the serving process: call this in the process (each replica) whose clients should hear of it.
        """
        for ref in list(self._resource_watchers):
            watcher = ref()
            if watcher is None:  # its server is gone
                self._resource_watchers.remove(ref)
            else:
                await watcher(uri)

    def on_resource_updated(self, watcher: Callable[[str], Awaitable[None]]) -> None:
        """Have `watcher` (a bound method: held weakly, so a server that is gone is dropped) called with each URI
        `resource_updated` names; a server's subscriptions register here."""
        self._resource_watchers.append(weakref.WeakMethod(watcher))

    def _add(self, registry: dict[str, Spec], spec: Spec) -> None:
        if spec.name in registry:
            raise SpecError(f"{spec.kind} {spec.name!r} is registered twice")
        registry[spec.name] = spec

    # -- runtime -----------------------------------------------------------------------------------------
    @cached_property
    def runtime(self) -> Runtime:
        """Keys, store and policy resolved once from the settings and the environment (the store not yet open)."""
        env = Environment.read()
        data_dir = self._data_dir or env.data_dir
        keys = self._keys
        if isinstance(keys, Keyring):
            keyring = keys
        elif isinstance(keys, str):
            keyring = Keyring.from_text(keys)
        else:
            keyring = Environment(keys=env.keys, store=env.store, data_dir=data_dir).keyring()
        store = self._store
        if store is None or isinstance(store, str):
            url = store if isinstance(store, str) else env.store
            store = open_store(url, data_dir=data_dir, clock=self.policy.now, app=self.name)
        if keys is None and not env.keys and getattr(store, "shared", False):
            # Each replica would generate a key of its own: every flow crossing replicas would fail.
            raise KeyConfigError(
                f"the store {getattr(store, 'where', '')} is shared by replicas, so every replica needs the same "
                "key ring: set ASKBACK_KEYS to the same value on each (base64url keys of 32 bytes or more; "
                "docs/security.md shows how to generate one)"
            )
        receipts = Receipts(store, keyring, clock=self.policy.now, ttl=self.receipt_ttl)
        return Runtime(
            audience=self.name,
            codec=StateCodec(keyring, self.policy),
            store=store,
            clock=self.policy.now,
            max_rounds=self.max_rounds,
            out_of_band=OutOfBand(store, keyring, self.policy.now, receipts),
            receipts=receipts,
            answer_guard=_answer_problem,
            guard=GUARD,
            page_wait=PageWait(self.page_wait),
            public_url=self._public_url or os.environ.get("ASKBACK_PUBLIC_URL") or None,
            approve_with=self.approve_with,
        )

    @cached_property
    def passkeys(self) -> Passkeys:
        """The passkeys enrolled for this app's people, in its store (`askback passkeys` and the pages use it)."""
        runtime = self.runtime
        return Passkeys(runtime.store, runtime.codec.keyring, runtime.clock)

    def approvers_of(self, ticket: Ticket) -> Callable[[str], Any] | None:
        """The `approvers` of the Confirm an approval page stands for (None: it takes no second person)."""
        registry = {"tool": self.tools, "prompt": self.prompts, "resource": self.resources}
        for specs in registry.values():
            spec = specs.get(ticket.tool)
            param = next((p for p in spec.params if p.name == ticket.name), None) if spec is not None else None
            if isinstance(param, ApprovalParam) and param.approvers is not None:
                approvers: Callable[[str], Any] = param.approvers
                return approvers
        return None

    async def receipt(self, receipt_id: str) -> Receipt | None:
        """The receipt with this id (the one a result's `_meta["askback/receipt"]` names), or None."""
        assert self.runtime.receipts is not None
        return await self.runtime.receipts.read(receipt_id)

    async def receipts(self, *, days: int = 7) -> list[Receipt]:
        """The receipts started in the last `days` UTC days, newest first."""
        assert self.runtime.receipts is not None
        return await self.runtime.receipts.recent(days)

    @property
    def needs_pages(self) -> bool:
        """Whether some parameter is completed on askback's pages (a secret, an out-of-band approval)."""
        specs = [*self.tools.values(), *self.prompts.values(), *self.resources.values()]
        return self.pages_wanted or any(isinstance(p, SecretParam | ApprovalParam) for s in specs for p in s.params)

    @property
    def asks_during_work(self) -> bool:
        """Whether some function takes an `askback.Work`: it may ask for a secret on a page while it runs."""
        specs = [*self.tools.values(), *self.prompts.values(), *self.resources.values()]
        return any(s.work_param is not None for s in specs)

    async def start(self) -> Runtime:
        """Resolve the runtime and open the store: at start-up, so a bad configuration fails before serving."""
        runtime = self.runtime
        await runtime.store.open()
        self._sealer, _ = await sealers.announce(runtime.store, runtime.codec.keyring, runtime.clock, sealers.TTL)
        return runtime

    async def stop(self) -> None:
        for callback in self._on_stop:
            try:
                await callback()
            except Exception:  # one failing hook must not keep the store open
                import logging

                logging.getLogger("askback").exception("a shutdown hook failed")
        if "runtime" in self.__dict__:
            if self._sealer is not None:
                with contextlib.suppress(StoreUnavailable):  # a store that is down must not block shutdown
                    await sealers.withdraw(self.runtime.store, self._sealer, self.runtime.clock, sealers.TTL)
                self._sealer = None
            await self.runtime.store.close()


APPROVE_WITH_ENV = "ASKBACK_APPROVE_WITH"


def approve_with_from(value: str | None) -> ApproveWith:
    """What out-of-band approvals take as a yes: `value` if given, else `ASKBACK_APPROVE_WITH`, else "page"."""
    chosen = value if value is not None else (os.environ.get(APPROVE_WITH_ENV) or "page")
    for known in APPROVE_WITH:
        if chosen == known:
            return known
    source = f"{APPROVE_WITH_ENV}={chosen!r}" if value is None else f"approve_with={chosen!r}"
    raise ValueError(f"{source}: approvals take {' or '.join(map(repr, APPROVE_WITH))}")


def _answer_problem(value: Any) -> str | None:
    """`askback.guard.answer_problem`, imported on the first answer: its ~100 patterns are not start-up work."""
    return _answer_check()(value)


@cache
def _answer_check() -> Callable[[Any], str | None]:
    from askback.guard import answer_problem

    return answer_problem
