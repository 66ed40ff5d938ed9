"""The client under test for the official MCP conformance harness: `python tests/conformance/client.py URL`.

For `sep-2322-client-request-state` it lists the mock server's tools and calls each `test_mrtr_*` tool with
`askback.Client`, answering every form with a callable: booleans yes, other fields their default or a
placeholder. While the first flow waits for its answer, it calls `test_mrtr_unrelated` on the same client,
which must carry none of that flow's `inputResponses` or `requestState`. It exits 0 when every call completed.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio

import askback

UNRELATED = "test_mrtr_unrelated"


def placeholder(field: askback.client.Field) -> Any:
    if field.has_default:
        return field.default
    if field.choices:
        return [field.choices[0].value] if field.multiple else field.choices[0].value
    return {"boolean": True, "integer": 1, "number": 1}.get(field.type, "conformance")


async def main(url: str) -> int:
    finished: list[str] = []
    called_unrelated: list[bool] = []
    client: askback.Client

    async def answer(question: askback.client.Question) -> Any:
        if not called_unrelated:
            called_unrelated.append(True)
            unrelated = await client.call_tool(UNRELATED)  # between the rounds of another flow
            if not unrelated.is_error:
                finished.append(UNRELATED)
        assert isinstance(question, askback.client.FormQuestion)
        return {f.name: placeholder(f) for f in question.fields}

    async with askback.Client(url, answerer=askback.CallableAnswerer(answer), timeout=25) as client:
        names = [t["name"] for t in await client.list_tools()]
        for name in sorted(n for n in names if n.startswith("test_mrtr_") and n != UNRELATED):
            result = await client.call_tool(name)
            print(f"{name}: {'error' if result.is_error else 'complete'}")
            if not result.is_error:
                finished.append(name)
    expected = {n for n in names if n.startswith("test_mrtr_")}
    return 0 if set(finished) == expected else 1


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: client.py SERVER_URL")
    sys.exit(anyio.run(main, sys.argv[-1]))
