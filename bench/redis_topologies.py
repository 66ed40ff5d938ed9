"""Redis deployments past one server, started by the tests from Debian's `redis-server` on loopback.

`PrivateCluster`: a Redis Cluster of N primaries (`--cluster-enabled yes`, joined by `redis-cli --cluster
create`), with a reshard and a node restarted empty. `PrivateSentinel`: one primary, replicas that follow it, and
sentinels that fail it over when it is killed. Ports are drawn at random in 20000–29999 (a cluster node also
needs port + 10000 for its bus). Every process is stopped by `stop()`, which the fixtures call as finalizers.

Shared by the tests (tests/support/redis_topologies.py: a missing `redis-server` skips there, or fails under CI)
and the benchmarks (bench/claim_wait.py, bench/capacity.py: it raises `Missing`).
"""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from bench.stores import stop


class Missing(RuntimeError):
    """A Redis binary is not installed, or a server did not start."""


def _binary(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise Missing(f"{name} is not installed (Debian: apt-get install redis-server redis-tools)")
    return str(found)


def answers(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a Redis answers PING on host:port."""
    try:
        with socket.create_connection((host, port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            s.settimeout(0.5)
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def private_ports(count: int, *, bus: bool = False) -> list[int]:
    """`count` free loopback ports at random in 20000–29999 (and port + 10000 free too, with `bus`)."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randrange(20000, 30000)
        if port not in ports and _free(port) and (not bus or _free(port + 10000)):
            ports.append(port)
    return ports


def cli(port: int, *args: str, timeout: float = 30) -> str:
    done = subprocess.run([_binary("redis-cli"), "-p", str(port), *args], capture_output=True, text=True,
                          timeout=timeout, check=False)
    if done.returncode != 0:
        raise AssertionError(f"redis-cli -p {port} {' '.join(args)}: {done.stdout}{done.stderr}")
    return done.stdout


class _Servers:
    def __init__(self, prefix: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=prefix))
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    def _spawn(self, port: int, *args: str) -> None:
        log = (self.dir / f"{port}.log").open("ab")
        self.processes[port] = subprocess.Popen([_binary("redis-server"), *args], stdout=log,
                                                stderr=subprocess.STDOUT, cwd=self.dir)
        deadline = time.monotonic() + 15
        while not answers(port):
            if self.processes[port].poll() is not None or time.monotonic() > deadline:
                raise Missing(f"redis-server on {port} did not start: {(self.dir / f'{port}.log').read_text()[-500:]}")
            time.sleep(0.02)

    def kill(self, port: int) -> None:
        """SIGKILL: nothing saved, connections cut."""
        process = self.processes.pop(port)
        process.kill()
        process.wait()

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                stop(process)
        self.processes.clear()
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateCluster(_Servers):
    """N primaries, no replicas, no persistence: 16384 slots split evenly by `redis-cli --cluster create`."""

    def __init__(self, primaries: int = 3) -> None:
        super().__init__("askback-cluster-")
        self.ports = private_ports(primaries, bus=True)

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def _node(self, port: int) -> None:
        self._spawn(port, "--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                    "--cluster-config-file", f"nodes-{port}.conf", "--cluster-node-timeout", "2000",
                    "--save", "", "--appendonly", "no", "--dir", str(self.dir))

    def start(self) -> PrivateCluster:
        for port in self.ports:
            self._node(port)
        cli(self.ports[0], "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
            "--cluster-replicas", "0", "--cluster-yes", timeout=60)
        self.wait_ok()
        return self

    def wait_ok(self) -> None:
        deadline = time.monotonic() + 30
        while not all("cluster_state:ok" in cli(p, "cluster", "info") for p in self.ports):
            if time.monotonic() > deadline:
                raise AssertionError("the cluster did not reach cluster_state:ok")
            time.sleep(0.1)

    def node_id(self, port: int) -> str:
        return cli(port, "cluster", "myid").strip()

    def slots_of(self, port: int) -> set[int]:
        """The slots node `port` serves, from its own CLUSTER SHARDS view."""
        mine = self.node_id(port)
        slots: set[int] = set()
        for line in cli(port, "cluster", "nodes").splitlines():
            fields = line.split()
            if fields and fields[0] == mine:
                for part in fields[8:]:
                    if part.startswith("["):
                        continue  # a slot being migrated
                    low, _, high = part.partition("-")
                    slots.update(range(int(low), int(high or low) + 1))
        return slots

    def reshard(self, source: int, target: int, slots: int) -> subprocess.Popen[str]:
        """Start moving `slots` slots (and their keys) from node `source` to node `target`; returns the process."""
        return subprocess.Popen(
            [_binary("redis-cli"), "--cluster", "reshard", f"127.0.0.1:{self.ports[0]}",
             "--cluster-from", self.node_id(source), "--cluster-to", self.node_id(target),
             "--cluster-slots", str(slots), "--cluster-yes", "--cluster-pipeline", "10"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def restart_empty(self, port: int) -> None:
        """Kill one primary and start it again with no data: it keeps its slots (nodes.conf), not their keys."""
        self.kill(port)
        self._node(port)
        self.wait_ok()


class PrivateSentinel(_Servers):
    """One primary, `replicas` replicas, `sentinels` sentinels (quorum 2) watching it as `mymaster`.

    Every data node runs with `min-replicas-to-write 1`, so a primary cut off from every replica refuses
    writes. A killed primary is failed over to a replica after `down-after-milliseconds` (1 s here).
    """

    NAME = "mymaster"

    def __init__(self, replicas: int = 2, sentinels: int = 3) -> None:
        super().__init__("askback-sentinel-")
        ports = private_ports(1 + replicas + sentinels)
        self.data_ports = ports[: 1 + replicas]
        self.sentinel_ports = ports[1 + replicas:]

    def url(self, app: str, **query: object) -> str:
        extra = "".join(f"&{k}={v}" for k, v in query.items())
        hosts = ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{self.NAME}/0?app={app}{extra}"

    def _data(self, port: int, primary: int | None) -> None:
        args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", str(self.dir), "--dbfilename", f"dump-{port}.rdb",
                "--min-replicas-to-write", "1", "--min-replicas-max-lag", "10", "--repl-diskless-sync", "yes",
                "--repl-diskless-sync-delay", "0"]
        if primary is not None:
            args += ["--replicaof", "127.0.0.1", str(primary)]
        self._spawn(port, *args)

    def start(self) -> PrivateSentinel:
        primary, *replicas = self.data_ports
        self._data(primary, None)
        for port in replicas:
            self._data(port, primary)
        for port in self.sentinel_ports:
            conf = self.dir / f"sentinel-{port}.conf"
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {self.dir}\n"
                f"sentinel monitor {self.NAME} 127.0.0.1 {primary} 2\n"
                f"sentinel down-after-milliseconds {self.NAME} 1000\n"
                f"sentinel failover-timeout {self.NAME} 5000\n"
                f"sentinel parallel-syncs {self.NAME} 2\n")
            self._spawn(port, str(conf), "--sentinel")
        self.wait_synced()
        return self

    def primary(self) -> int:
        reply = cli(self.sentinel_ports[0], "sentinel", "get-master-addr-by-name", self.NAME).split()
        return int(reply[1])

    def wait_synced(self, timeout: float = 30) -> None:
        """Until the primary the sentinels name has every other data node as an online replica."""
        deadline = time.monotonic() + timeout
        while True:
            primary = self.primary()
            info = cli(primary, "info", "replication") if primary in self.processes else ""
            online = info.count("state=online")
            if "role:master" in info and online == len(self.data_ports) - 1:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"replication did not settle: primary {primary}: {info}")
            time.sleep(0.1)

    def kill_primary(self) -> tuple[int, float]:
        """SIGKILL the primary; wait until the sentinels name another. Returns the killed port, seconds taken."""
        old = self.primary()
        began = time.monotonic()
        self.kill(old)
        deadline = began + 30
        while self.primary() == old:
            if time.monotonic() > deadline:
                raise AssertionError("the sentinels did not fail the primary over")
            time.sleep(0.05)
        return old, time.monotonic() - began

    def bring_back(self, port: int) -> None:
        """Start a killed node again (empty); the sentinels turn it into a replica of the new primary."""
        self._data(port, self.primary())
        self.wait_synced()
