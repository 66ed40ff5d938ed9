"""What a round runs against, and one request of a flow as the adapter received it.

Below the flow (`askback.flow`) and the runners that share it (`askback.callwork`, `askback.pagestep`,
`askback.tasks`), so each of them can name these without importing the flow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from askback.core.decide import DEFAULT_MAX_ROUNDS, AnswerGuard, no_answer_guard
from askback.core.guarding import Guard
from askback.core.markers import Context
from askback.core.marks import ApproveWith, Mark, MarkRequest
from askback.core.state import Binding, StateCodec, arguments_digest, binding_prefix
from askback.loopback import by_name
from askback.outofband import NoPublicUrl, OutOfBand
from askback.pagewait import Gone, PageWait
from askback.receipts import Receipts
from askback.stores.base import Clock, Store
from askback.types import Capabilities


@dataclass(frozen=True, slots=True)
class Runtime:
    """What rounds need at call time: who seals (and for whom), where flows are recorded, the clock."""

    audience: str
    codec: StateCodec
    store: Store
    clock: Clock
    max_rounds: int = DEFAULT_MAX_ROUNDS
    answer_guard: AnswerGuard = no_answer_guard
    out_of_band: OutOfBand | None = None
    public_url: str | None = None  # where a person's browser reaches askback's pages
    approve_with: ApproveWith = "page"  # what an approval page takes as a yes unless its Confirm says
    receipts: Receipts | None = None  # where single-use runs and approvals given on a page are recorded
    guard: Guard = field(kw_only=True)  # the secret guard every form is checked with (`askback.guard.GUARD`)
    # How long a retry of an accepted page step that is not done yet is held (`askback.pagewait`).
    page_wait: PageWait = field(default_factory=lambda: PageWait(0.0), kw_only=True, compare=False)
    # (method, target) -> the binding's fixed prefix: the same for every round of a tool, so computed once.
    _prefixes: dict[tuple[str, str], bytes] = field(default_factory=dict, repr=False, compare=False)

    def binding(self, rnd: Round) -> Binding:
        key = (rnd.method, rnd.target)
        prefix = self._prefixes.get(key)
        if prefix is None:
            if len(self._prefixes) >= 4096:  # targets include resource URIs: keep the memo bounded
                self._prefixes.clear()
            prefix = self._prefixes[key] = binding_prefix(self.audience, rnd.method, rnd.target)
        return Binding(self.audience, rnd.method, rnd.target, rnd.arguments_digest, rnd.principal, prefix)

    async def mark(self, *, flow_id: bytes, deadline: float, request: MarkRequest, principal: str | None,
                   tool: str, origin: str | None) -> Mark:
        """Where a page step stands; the first time, its ticket minted (`NoPublicUrl` if no link can be made).

        The one place a step's ticket is minted, for an `askback.App` tool's flow and for adopted and gateway
        calls alike: an approval whose request does not say how it is given takes the app's `approve_with`, and
        a passkey's page is linked by name (a passkey is bound to a name, never an address). `origin`: where the
        request came, for a link on a loopback server without a public URL.
        """
        if self.out_of_band is None:
            raise NoPublicUrl("this runtime has no out-of-band pages")
        base_url = self.public_url or origin
        if request.purpose == "approval":
            request = replace(request, approve_with=request.approve_with or self.approve_with)
            if request.approve_with == "passkey" and base_url:
                base_url = by_name(base_url)
        return await self.out_of_band.mark(flow_id=flow_id, deadline=deadline, request=request,
                                           principal=principal, audience=self.audience, tool=tool,
                                           base_url=base_url)


@dataclass(frozen=True, slots=True)
class Round:
    """One request of a flow, as the adapter received it. `method` names the kind of call in the binding."""

    method: str
    target: str
    arguments: Mapping[str, Any]
    responses: Mapping[str, Any] | None = None
    state: str | None = None
    caps: Capabilities = field(default_factory=Capabilities)
    principal: str | None = None
    origin: str | None = None  # scheme://host the request came to, for page links on a loopback server
    gone: Gone | None = None  # whether the client closed its connection (ends a held retry early)
    # What the function's `askback.Context` sends through (the entry's); None: it sends nothing.
    context: Context | None = field(default=None, compare=False)

    @property
    def arguments_digest(self) -> str:
        """What a state of this round is bound to: the digest of its arguments."""
        return arguments_digest(self.arguments)

    def binding(self, audience: str) -> Binding:
        return Binding(audience, self.method, self.target, self.arguments_digest, self.principal)
