"""bench/haproxy.py's balancer for tests: haproxy missing skips (fails under CI); one that cannot start fails."""

from __future__ import annotations

import pytest
from bench import haproxy

from tests.support.redis import IN_CI

__all__ = ["HAProxy"]


class HAProxy(haproxy.HAProxy):
    def start(self) -> HAProxy:
        try:
            haproxy.binary()
        except haproxy.Missing as exc:
            if IN_CI:
                pytest.fail(str(exc))
            pytest.skip(str(exc))
        try:
            super().start()
        except haproxy.Missing as exc:
            pytest.fail(str(exc))
        return self
