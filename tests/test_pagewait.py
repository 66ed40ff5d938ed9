"""`askback.pagewait.PageWait`: the bound, the early end, the client gone, and how many are held at once."""

from __future__ import annotations

import anyio
import pytest

from askback.pagewait import PageWait

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_hold_ends_when_the_step_finishes_and_says_so() -> None:
    looks = 0

    async def finished() -> bool:
        nonlocal looks
        looks += 1
        return looks >= 3

    wait = PageWait(30.0, poll=0.01)
    assert await wait.hold(finished, longest=30.0) is True
    assert looks == 3 and wait.holding == 0


async def test_a_hold_ends_when_the_client_is_gone() -> None:
    async def never() -> bool:
        return False

    async def gone() -> bool:
        return True

    wait = PageWait(30.0, poll=0.01)
    assert await wait.hold(never, longest=30.0, gone=gone) is False
    assert wait.holding == 0


async def test_a_hold_is_bounded_by_the_flows_own_deadline_and_off_at_zero() -> None:
    looked: list[int] = []

    async def finished() -> bool:
        looked.append(1)
        return False

    assert await PageWait(30.0, poll=0.01).hold(finished, longest=0.0) is False
    assert await PageWait(0.0, poll=0.01).hold(finished, longest=30.0) is False
    assert looked == []  # neither held at all


async def test_past_the_limit_a_retry_is_answered_at_once() -> None:
    release = anyio.Event()

    async def until_released() -> bool:
        return release.is_set()

    wait = PageWait(30.0, poll=0.01, limit=2)
    results: list[bool] = []

    async def held() -> None:
        results.append(await wait.hold(until_released, longest=30.0))

    async with anyio.create_task_group() as tg:
        tg.start_soon(held)
        tg.start_soon(held)
        for _ in range(200):  # bounded
            if wait.holding == 2:
                break
            await anyio.sleep(0.01)
        assert wait.holding == 2
        assert await wait.hold(until_released, longest=30.0) is False  # the third: not held
        release.set()
    assert results == [True, True] and wait.holding == 0
