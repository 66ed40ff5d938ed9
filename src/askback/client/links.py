"""What a person should know about a link before following it: where it really goes, and what looks wrong.

A server chooses the URL of a page step, and a look-alike host is the oldest trick for collecting a key:
`xn--bnk-sna.example` (punycode for a name with a non-ASCII letter), `раypal.example` (Cyrillic letters among
Latin ones), `bank.example@evil.example` (everything before `@` is only a user name). `Link` splits the URL
so the host can be set apart exactly where it is in the text, and `warnings` names each of these in words.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from urllib.parse import urlsplit

from askback.client.inert import one_line
from askback.loopback import is_loopback

_COMMON = frozenset({"COMMON", "INHERITED"})  # digits, '-', '.': part of every script


@dataclass(frozen=True)
class Link:
    """A URL as three pieces of its own text: before the host, the host, after it (all made inert)."""

    url: str
    before: str
    host_text: str
    after: str
    host: str  # lowercased, as urlsplit reads it ('' when there is none)
    scheme: str
    user: str  # what precedes '@' in the authority, if anything

    @classmethod
    def of(cls, url: str) -> Link:
        try:
            parts = urlsplit(url)
            host = parts.hostname or ""
        except ValueError:  # an unbalanced '[' and the like: no host can be trusted
            return cls(url, one_line(url), "", "", "", "", "")
        start = url.find("//")
        if not parts.netloc or start < 0:
            return cls(url, one_line(url), "", "", host, parts.scheme, "")
        start += 2
        at = parts.netloc.rfind("@")
        user = parts.netloc[:at] if at >= 0 else ""
        host_start = start + at + 1
        host_port = parts.netloc[at + 1 :]
        host_raw = host_port
        if host_port.startswith("["):
            host_raw = host_port[: host_port.find("]") + 1] if "]" in host_port else host_port
        elif ":" in host_port:
            host_raw = host_port[: host_port.rfind(":")]
        end = host_start + len(host_raw)
        return cls(
            url,
            one_line(url[:host_start]),
            one_line(url[host_start:end]),
            one_line(url[end:]),
            host,
            parts.scheme.lower(),
            user,
        )

    @property
    def web(self) -> bool:
        """An http(s) address with a host: the only kind a browser is opened for."""
        return self.scheme in ("http", "https") and bool(self.host)

    def readable_host(self) -> str | None:
        """The host as its punycode labels read in Unicode, when it has any (`xn--bnk-sna` → `bänk`)."""
        if "xn--" not in self.host:
            return None
        labels = []
        for label in self.host.split("."):
            try:
                labels.append(label.encode("ascii").decode("idna") if label.startswith("xn--") else label)
            except (UnicodeError, ValueError):
                labels.append(label)  # not valid punycode: shown as it is, and warned about all the same
        return ".".join(labels)

    def warnings(self, server_url: str | None = None) -> list[str]:
        """What a careful person would notice about this link, each in one sentence (none: nothing odd)."""
        found: list[str] = []
        if not self.web:
            found.append(f"this is not a web address ({one_line(self.scheme or 'no scheme')}): it is not opened")
            return found
        if self.user:
            found.append(
                f"the part before '@' ({one_line(self.user)}) is only a user name: the site is {self.host_text}"
            )
        readable = self.readable_host()
        if readable is not None:
            found.append(
                f"the host is written in punycode (xn--): it reads as {one_line(readable)!r}; a look-alike "
                "name is a common trick, so check it is the site you expect"
            )
        mixed = _scripts(readable or self.host)
        if len(mixed) > 1:
            found.append(f"the host mixes letters of several scripts ({', '.join(sorted(mixed))})")
        elif mixed and not readable:
            found.append(f"the host has non-ASCII letters ({', '.join(sorted(mixed))})")
        if self.scheme == "http" and not is_loopback(self.host):
            found.append("the page is not encrypted (http://): do not enter a secret there")
        server_host = _host_of(server_url)
        if server_host and server_host != self.host:
            found.append(f"it is not the host of the MCP server you called ({one_line(server_host)})")
        return found


def _host_of(url: str | None) -> str | None:
    if not url:
        return None
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _scripts(host: str) -> set[str]:
    """The scripts of the host's letters beyond ASCII, plus Latin if it also has ASCII letters ('' for none)."""
    if host.isascii():
        return set()
    scripts: set[str] = set()
    for char in host:
        if not char.isalpha():
            continue
        name = unicodedata.name(char, "")
        script = name.split(" ")[0] if name else "UNKNOWN"
        if script not in _COMMON:
            scripts.add(script.capitalize())
    return scripts
