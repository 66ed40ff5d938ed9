"""The Redis deployments of bench/redis_topologies.py for tests: a Redis binary missing skips, or fails under CI."""

from __future__ import annotations

from bench import redis_topologies as topologies
from bench.redis_topologies import cli, private_ports

from tests.support.redis import _missing

__all__ = ["PrivateCluster", "PrivateSentinel", "cli", "private_ports"]


class PrivateCluster(topologies.PrivateCluster):
    def start(self) -> PrivateCluster:
        try:
            super().start()
        except topologies.Missing as exc:
            _missing(str(exc))
        return self


class PrivateSentinel(topologies.PrivateSentinel):
    def start(self) -> PrivateSentinel:
        try:
            super().start()
        except topologies.Missing as exc:
            _missing(str(exc))
        return self
