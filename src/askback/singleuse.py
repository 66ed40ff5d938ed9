"""The single-use decision: a flow's final round runs only if this request holds the flow's run and starts it.

One claim for every caller that runs something once (an `askback.App` tool registered `once=True`, an adopted
tool or a gateway's tool with `once`): two steps in the store (`claim_run`, then `start_run`), so that a claim
whose answer this request never got (the store stalled past its timeout, and the caller was told to retry)
does not turn the retry into a "replay": the retry takes over a claim whose run never started. Only the
claimant whose start the store confirms runs.
"""

from __future__ import annotations

import logging
import os

from askback.core.errors import InvalidRequestState, Rejection, StoreInDoubt, StoreUnavailable
from askback.core.state import b64url
from askback.stores.base import Claim, Store

logger = logging.getLogger("askback")


async def claim_run(store: Store, flow_id: bytes, deadline: float, started_under: str | None, what: str) -> None:
    """Hold and start the one run of `flow_id`, or raise: `InvalidRequestState` (a run of it started already,
    or the store is not the one the flow started under), `StoreInDoubt` (the start was not confirmed).

    `started_under`: the store identity the flow recorded when it started (None: this store's); `what` names
    the call in the log (`tools/call transfer`), never its values.
    """
    flow, claimant = b64url(flow_id), b64url(os.urandom(12))
    # The identity the flow started under, checked by the store itself (in the same step as the claim).
    under = started_under if started_under is not None else store.identity
    claim = await store.claim_run(flow, claimant, deadline, under)
    if claim is Claim.STORE_CHANGED:
        logger.error(
            "refused the final round of single-use %s: its flow started against store %s, this store is %s "
            "(lost or replaced, or back from an older copy?); it may already have run, so it does not run again",
            what, under, store.identity,
        )
        raise InvalidRequestState(Rejection.STORE_CHANGED)
    if claim is Claim.STARTED:
        logger.warning("replayed final round of single-use %s refused", what)
        raise InvalidRequestState(Rejection.REPLAYED)
    try:
        started = await store.start_run(flow, claimant, deadline)
    except StoreUnavailable:
        logger.error("the store did not confirm the start of single-use %s: it did not run; a retry runs it, "
                     "unless the store recorded the start", what)
        raise StoreInDoubt("the start of a single-use run was not confirmed") from None
    if not started:  # a concurrent copy of this round took the claim over, and runs it
        logger.warning("replayed final round of single-use %s refused", what)
        raise InvalidRequestState(Rejection.REPLAYED)
