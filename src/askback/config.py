"""Settings from the environment and the file system: keys, the key file, the store, and what HTTP accepts.

This is where askback touches files for its own settings (the key file in the data directory); the core only
ever receives the resulting `Keyring` (DESIGN section 4).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from askback.core.state import KeyConfigError, Keyring, b64url
from askback.datadir import default_data_dir, shared_mode
from askback.loopback import LOOPBACK_NAMES, is_loopback

KEY_FILE_NAME = "keys"


@dataclass(frozen=True)
class Environment:
    keys: str | None
    store: str
    data_dir: Path

    @classmethod
    def read(cls) -> Environment:
        return cls(
            keys=os.environ.get("ASKBACK_KEYS") or None,
            store=os.environ.get("ASKBACK_STORE", ""),
            data_dir=default_data_dir(),
        )

    def keyring(self) -> Keyring:
        if self.keys:
            return Keyring.from_text(self.keys, source="ASKBACK_KEYS")
        return load_or_create_key_file(self.data_dir)


# -- the key file ---------------------------------------------------------------------------------------
def load_or_create_key_file(data_dir: Path) -> Keyring:
    """The key kept in `data_dir/keys` (mode 0600), generated once if there is none.

    Several workers may start at once: each writes a complete candidate file, and a hard link publishes it
    atomically, so `keys` is never seen half-written. The first link wins; the others read the winner's key.
    A file that group or others can read or write is refused, as ssh refuses such a private key: the key
    decides who can forge a state, so a copy someone else can read is a key someone else holds.
    """
    path = data_dir / KEY_FILE_NAME
    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not path.exists():
            _publish_new_key(data_dir, path)
        info = path.stat()
    except OSError as exc:
        raise KeyConfigError(f"key file {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise KeyConfigError(f"key file {path} is not a regular file")
    mode = shared_mode(info)
    if mode is not None:
        raise KeyConfigError(
            f"key file {path} has mode {mode:04o}: group or others may read or change the key; "
            f"make it private with: chmod 600 {path}"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise KeyConfigError(f"key file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise KeyConfigError(f"key file {path} is not text: it should hold base64url keys") from None
    if not text.strip():
        raise KeyConfigError(f"key file {path} holds no key: delete it to have one generated")
    return Keyring.from_text(text, source=f"key file {path}")


def _publish_new_key(data_dir: Path, path: Path) -> None:
    candidate = data_dir / f".keys.{os.getpid()}.{os.urandom(4).hex()}"
    fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(b64url(os.urandom(32)) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(FileExistsError):  # another worker published first: use theirs
            os.link(candidate, path)
    finally:
        candidate.unlink(missing_ok=True)


# -- which Host and Origin values the HTTP transport accepts ---------------------------------------------
class ExposureError(ValueError):
    """The allowed hosts and origins are malformed, or missing where the server is reachable from elsewhere."""


_HOST_ENTRY = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]@*]+)(:(\d{1,5}|\*))?$")
_ORIGIN_ENTRY = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://(\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]@*?#]+)(:(\d{1,5}|\*))?$")


def host_name(entry: str) -> str:
    """The name an allowed-host entry (`name`, `name:port`, `name:*`, `[v6]:port`) accepts, without its port."""
    match = _HOST_ENTRY.match(entry)
    return match.group(1).strip("[]") if match else entry


def _host_pattern(host: str) -> str:
    return f"[{host}]:*" if ":" in host else f"{host}:*"


@dataclass(frozen=True)
class HostChecks:
    """What every HTTP request must carry: a `Host` in `hosts` and, when it sends one, an `Origin` in `origins`.

    MCP's HTTP transport requires servers to validate `Origin` (a web page must not drive a local server), and
    a `Host` check is what stops DNS rebinding. `None` means not checked, which only an explicit opt-out gives.
    Entries are `name`, `name:port` or `name:*` (any port); origins are `scheme://name[:port|:*]`.
    """

    hosts: tuple[str, ...] | None
    origins: tuple[str, ...] | None

    @classmethod
    def resolve(
        cls,
        bind_host: str,
        allowed_hosts: Sequence[str] | None = None,
        allowed_origins: Sequence[str] | None = None,
        allow_any_origin: bool = False,
    ) -> HostChecks:
        hosts = tuple(_checked_host(h) for h in allowed_hosts or ())
        origins = tuple(_checked_origin(o) for o in allowed_origins or ())
        if allow_any_origin:
            if hosts or origins:
                raise ExposureError(
                    "--allow-any-origin turns the Host and Origin checks off; it cannot be combined with "
                    "allowed hosts or origins (drop one or the other)"
                )
            return cls(None, None)
        if not hosts:
            if not is_loopback(bind_host):
                raise ExposureError(
                    f"--host {bind_host} can be reached from other machines, so name the Host values clients "
                    "will use with --allowed-host (e.g. --allowed-host mcp.example.com, or "
                    "--allowed-host 'localhost:*' behind a port mapping; ASKBACK_ALLOWED_HOSTS; "
                    "allowed_hosts= in http_app) and browser origins with --allowed-origin, or pass "
                    "--allow-any-origin to check neither (a proxy in front checks them)"
                )
            name = bind_host.strip("[]")  # `[::1]` is `::1`
            extra = () if name in LOOPBACK_NAMES else (_host_pattern(name),)
            hosts = (*(_host_pattern(h) for h in LOOPBACK_NAMES), *extra)
        if not origins:
            origins = tuple(f"{scheme}://{h}" for h in hosts for scheme in ("http", "https"))
        return cls(hosts, origins)

    def describe(self) -> str:
        if self.hosts is None:
            return "Host and Origin are not checked (--allow-any-origin): any web page can reach this server"
        return f"accepting Host {', '.join(self.hosts)}; Origin (when sent) {', '.join(self.origins or ())}"


def _checked_host(entry: str) -> str:
    entry = entry.strip()
    if entry == "*" or entry.startswith("*"):
        raise ExposureError(f"allowed host {entry!r}: to accept any Host, pass --allow-any-origin instead")
    if "://" in entry:
        raise ExposureError(
            f"allowed host {entry!r} is not a URL but a Host header value: name, name:port or name:*"
        )
    if not _HOST_ENTRY.match(entry):
        raise ExposureError(f"allowed host {entry!r} is not name, name:port or name:* (IPv6 in brackets)")
    return entry


def _checked_origin(entry: str) -> str:
    entry = entry.strip()
    if "://" not in entry:
        raise ExposureError(f"allowed origin {entry!r} needs a scheme: https://{entry}")
    if entry.endswith("/") or entry.count("/") > 2:
        raise ExposureError(
            f"allowed origin {entry!r}: an origin has no path (browsers send scheme://name[:port]); "
            f"write {entry.split('://', 1)[0]}://{entry.split('://', 1)[1].split('/', 1)[0]}"
        )
    if not _ORIGIN_ENTRY.match(entry):
        raise ExposureError(f"allowed origin {entry!r} is not scheme://name[:port] or scheme://name:*")
    return entry


def env_list(name: str) -> list[str] | None:
    """A comma-separated environment variable as a list; None when unset or empty."""
    value = os.environ.get(name, "").strip()
    return [part.strip() for part in value.split(",") if part.strip()] if value else None


def env_flag(name: str) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ExposureError(f"{name}={value!r}: use 1 or 0")
