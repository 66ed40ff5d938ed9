"""Which HTTP parser and event loop `askback serve` runs uvicorn with.

The default is uvicorn's own "auto": httptools and uvloop when they are importable (askback depends on both),
h11 and asyncio otherwise. The pure-Python pair stays selectable, for a platform without the C extensions or to
compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.util import find_spec

HTTP_CHOICES = ("auto", "httptools", "h11")
LOOP_CHOICES = ("auto", "uvloop", "asyncio")


class StackError(ValueError):
    """A stack that cannot run here; the message names the flag and what is missing."""


@dataclass(frozen=True)
class HttpStack:
    http: str = "auto"
    loop: str = "auto"

    def __post_init__(self) -> None:
        if self.http not in HTTP_CHOICES:
            raise StackError(f"--http must be one of {', '.join(HTTP_CHOICES)} (got {self.http!r})")
        if self.loop not in LOOP_CHOICES:
            raise StackError(f"--loop must be one of {', '.join(LOOP_CHOICES)} (got {self.loop!r})")

    def checked(self) -> HttpStack:
        """This stack, or a `StackError` when it names a package that is not installed (uvicorn would crash)."""
        for flag, choice in (("--http", self.http), ("--loop", self.loop)):
            if choice in ("httptools", "uvloop") and find_spec(choice) is None:
                raise StackError(f"{flag} {choice}: {choice} is not installed (pip install {choice}, or use auto)")
        return self

    def protocol(self) -> str:
        """uvicorn's protocol for the parser this stack runs, with askback's bound on request heads (431)."""
        if self.resolved()[0] == "httptools":
            return "askback.web.headlimit_httptools:BoundedHttpToolsProtocol"
        return "askback.web.headlimit_h11:BoundedH11Protocol"

    def resolved(self) -> tuple[str, str]:
        """What uvicorn will run: (parser, loop), with "auto" replaced by its choice on this machine."""
        http = self.http if self.http != "auto" else ("httptools" if find_spec("httptools") else "h11")
        loop = self.loop if self.loop != "auto" else ("uvloop" if find_spec("uvloop") else "asyncio")
        return http, loop
