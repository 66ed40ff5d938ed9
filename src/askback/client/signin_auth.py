"""The SDK's OAuth provider as the HTTP client's auth, with a failed sign-in kept for the connection to report.

Its own module because it subclasses `httpx2.Auth`: importing it loads the SDK's HTTP stack, which
`askback.client.signin` (the settings and the token file) does not need until a connection is made.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING

import httpx2

from askback.client.errors import SignInFailed
from askback.client.inert import one_line

if TYPE_CHECKING:
    from mcp.client.auth import OAuthClientProvider

logger = logging.getLogger("askback.client")


class ReportingAuth(httpx2.Auth):
    """The SDK's provider, with its failure kept for the caller instead of lost in the transport.

    A sign-in that fails raises inside the HTTP client's auth flow, where the transport would turn it into a
    stand-in error (or none). Here the failure is kept (`failure`) and the original request is sent once more,
    without a token, so that the transport receives the server's own 401 and the connection can say why the
    sign-in failed.

    `answered` is told the response the request finally got (the one the transport receives): a 401 or 403
    the flow recovered from (it signed in and sent the request again) is never the caller's concern.
    """

    def __init__(self, provider: OAuthClientProvider, server_url: str,
                 answered: Callable[[httpx2.Response], None] | None = None) -> None:
        self.provider = provider
        self.server_url = server_url
        self.answered = answered
        self.failure: SignInFailed | None = None

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        flow = self.provider.async_auth_flow(request)
        failed = False
        try:
            try:
                outgoing = await flow.__anext__()  # it may fail before any request (its storage, say)
            except Exception as exc:
                failed = self._failed(exc, request)
                outgoing = request
            while True:
                response = yield outgoing
                if failed:
                    break  # the server's answer to the request sent after the failure: the one to report
                try:
                    outgoing = await flow.asend(response)
                except StopAsyncIteration:
                    break
                except Exception as exc:  # any failure of the sign-in is reported by the connection, not raised here
                    failed = self._failed(exc, request)
                    outgoing = request
            if self.answered is not None:
                self.answered(response)
        finally:
            await flow.aclose()

    def _failed(self, exc: Exception, request: httpx2.Request) -> bool:
        self.failure = exc if isinstance(exc, SignInFailed) else SignInFailed(self.server_url, _why(exc))
        logger.debug("signing in to %s failed: %s", self.server_url, self.failure.reason)
        request.headers.pop("Authorization", None)
        return True


def _why(exc: BaseException) -> str:
    """What went wrong, in the SDK's words (they name metadata, issuers and HTTP statuses, never a token)."""
    from mcp.client.auth import OAuthFlowError

    if isinstance(exc, OAuthFlowError):
        return one_line(str(exc))
    return one_line(f"{type(exc).__name__}: {exc}")
