"""Node 22 and the official MCP conformance harness, installed once from the npm registry into a cache.

The harness needs node >= 22 (it uses `fs.globSync`); machines often have an older node, so node itself comes
from the npm registry too, as the platform package `node-<os>-<cpu>` at an exact version. The harness is
installed with `npm ci` from the lockfile in `harness/`, which pins its whole dependency tree by integrity hash.

Each part is installed into a fresh temporary directory inside the cache, checked, marked complete and only
then renamed into place, so an interrupted install never leaves a directory a later run would trust. Later runs
reuse the cache. Only `npm` is needed from the machine (any version); nothing outside the cache is written,
except npm's own download cache.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

NODE_VERSION = "22.23.5"
HARNESS_VERSION = "0.2.0-alpha.12"  # the version harness/package.json and harness/package-lock.json pin
HARNESS_FILES = Path(__file__).resolve().parent / "harness"
CACHE_ENV = "ASKBACK_CONFORMANCE_CACHE"
COMPLETE = ".complete"
INSTALL_TIMEOUT = 600
STALE_PARTIAL_SECONDS = 3600


class SetupError(Exception):
    """The harness cannot run on this machine; the message says why and what to do."""


@dataclass(frozen=True)
class Toolchain:
    node: Path
    cli: Path

    def command(self, *args: str) -> list[str]:
        return [str(self.node), str(self.cli), *args]

    def env(self) -> dict[str, str]:
        """The environment for the harness: this node first on PATH, for anything the harness spawns."""
        return {**os.environ, "PATH": f"{self.node.parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def default_cache() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "askback-conformance"


def node_package() -> str:
    """The npm package that ships node's binary for this machine."""
    system = {"linux": "linux", "darwin": "darwin"}.get(sys.platform)
    cpu = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    if system is None or cpu is None:
        raise SetupError(f"no node {NODE_VERSION} package for {sys.platform}/{platform.machine()} on the npm registry")
    return f"node-{system}-{cpu}"


def harness_digest() -> str:
    """Part of the harness directory's name: a changed lockfile gets a fresh install, never a mixed one."""
    lock = (HARNESS_FILES / "package-lock.json").read_bytes() + (HARNESS_FILES / "package.json").read_bytes()
    return hashlib.sha256(lock).hexdigest()[:12]


def ensure(cache: Path | None = None, *, say: Callable[[str], None] = print) -> Toolchain:
    """The toolchain in `cache`, installed first if it is not there (or only partly there)."""
    cache = (cache or default_cache()).resolve()
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SetupError(f"cannot create the conformance cache {cache}: {exc.strerror}") from None
    _remove_stale_partials(cache)
    package = node_package()
    node_dir = cache / f"node-{NODE_VERSION}-{package.removeprefix('node-')}"
    node = node_dir / "node_modules" / package / "bin" / "node"
    if not _complete(node_dir):
        say(f"conformance: installing node {NODE_VERSION} ({package} from the npm registry) into {node_dir} ...")
        _install(node_dir, lambda tmp: _install_node(tmp, package), node.relative_to(node_dir))
    harness_dir = cache / f"conformance-{HARNESS_VERSION}-{harness_digest()}"
    cli = harness_dir / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    if not _complete(harness_dir):
        say(f"conformance: installing @modelcontextprotocol/conformance {HARNESS_VERSION} into {harness_dir} ...")
        _install(harness_dir, lambda tmp: _install_harness(tmp, node), cli.relative_to(harness_dir))
    return Toolchain(node=node, cli=cli)


def _complete(directory: Path) -> bool:
    return (directory / COMPLETE).is_file()


def _install(target: Path, fill: Callable[[Path], None], probe: Path) -> None:
    """Fill a temporary directory, check it holds `probe`, mark it complete, then rename it to `target`."""
    if target.exists():  # there without its mark: an install from before the mark existed, or tampered with
        shutil.rmtree(target, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".partial-{target.name}-", dir=target.parent))
    try:
        fill(tmp)
        if not (tmp / probe).is_file():
            raise SetupError(f"the install into {target} did not produce {probe}")
        (tmp / COMPLETE).write_text(f"{target.name}\n")
        try:
            tmp.rename(target)
        except OSError:
            if not _complete(target):  # another run finishing the same install first is fine
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _remove_stale_partials(cache: Path) -> None:
    """Left-overs of installs that were killed; a fresh one may still be filling, so only old ones go."""
    for partial in cache.glob(".partial-*"):
        try:
            if time.time() - partial.stat().st_mtime > STALE_PARTIAL_SECONDS:
                shutil.rmtree(partial, ignore_errors=True)
        except OSError:
            pass


def _npm(args: list[str], cwd: Path, what: str, env: dict[str, str] | None = None) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise SetupError(f"npm is not on PATH; it installs {what} from the npm registry (any npm version will do)")
    try:
        run = subprocess.run([npm, *args, "--no-audit", "--no-fund", "--ignore-scripts"], cwd=cwd, env=env,
                             capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise SetupError(f"npm did not install {what} within {INSTALL_TIMEOUT} s") from None
    if run.returncode != 0:
        raise SetupError(f"could not install {what} from the npm registry (npm exit {run.returncode}): "
                         f"{_npm_reason(run.stderr or run.stdout)}")


def _npm_reason(output: str) -> str:
    """npm's one-line reason (`code ...` and the message), without its stack trace and object dump."""
    lines = [line.removeprefix("npm error").strip() for line in output.splitlines()]
    wanted = [line for line in lines if line.startswith("code ")]
    wanted += [line for line in lines if line and not line.startswith(("code ", "syscall ", "errno ", "at ", "{", "}"))
               and ":" in line][:1]
    return "; ".join(wanted) or output.strip()[-500:]


def _install_node(tmp: Path, package: str) -> None:
    (tmp / "package.json").write_text('{"name": "askback-conformance-node", "private": true}\n')
    _npm(["install", "--no-save", "--no-package-lock", f"{package}@{NODE_VERSION}"], tmp, f"node {NODE_VERSION}")
    node = tmp / "node_modules" / package / "bin" / "node"
    try:
        version = subprocess.run([str(node), "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except OSError as exc:
        raise SetupError(f"the node {NODE_VERSION} binary from {package} does not run here: {exc}") from None
    if version != f"v{NODE_VERSION}":
        raise SetupError(f"{package}@{NODE_VERSION} installed a node that reports {version!r}")


def _install_harness(tmp: Path, node: Path) -> None:
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(HARNESS_FILES / name, tmp / name)
    # npm is a node script: put node 22 first so npm itself and anything it starts run on it.
    env = {**os.environ, "PATH": f"{node.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    _npm(["ci"], tmp, f"@modelcontextprotocol/conformance {HARNESS_VERSION}", env)
