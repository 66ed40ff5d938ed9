"""The retry fields' shapes (`requestState`, `inputResponses`), checked before anything else reads them.

Pure and free of the SDK at import: the SDK-path middleware (`askback.mcp.guard`) raises what this finds as a
JSON-RPC error, and the fast route hands any request this finds fault with to the SDK path, which says so.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from askback.errors import INVALID_STATE_MESSAGE

if TYPE_CHECKING:
    from askback.app import App

logger = logging.getLogger("askback.mcp")
MAX_ANSWERS = 64  # the bound on inputResponses entries, raised for an app whose largest target has more params


def max_answers(app: App | None) -> int:
    """The bound on `inputResponses` entries for `app`: no round asks more questions than a target has params."""
    specs = [] if app is None else [*app.tools.values(), *app.prompts.values(), *app.resources.values()]
    return max([MAX_ANSWERS, *(len(spec.params) for spec in specs)])


def header_schemas(app: App) -> dict[str, dict[str, Any]]:
    """The input schemas of `app`'s tools that declare `x-mcp-header` (the only ones with headers to check)."""
    return {name: spec.input_schema for name, spec in app.tools.items()
            if "x-mcp-header" in json.dumps(spec.input_schema)}


@cache
def _answer_adapter() -> Any:
    """The SDK's `InputResponse` validator, built on the first answer that is not a plain form answer."""
    from mcp_types import InputResponse
    from pydantic import TypeAdapter

    return TypeAdapter(InputResponse)


def retry_fields_problem(params: Mapping[str, Any], max_answers: int = MAX_ANSWERS) -> str | None:
    """What is wrong with the retry fields of `params`, in the words the caller is told, or None."""
    state = params.get("requestState")
    if state is not None and not isinstance(state, str):
        logger.warning("rejected requestState: a %s, not a string", type(state).__name__)
        return INVALID_STATE_MESSAGE
    responses = params.get("inputResponses")
    if responses is None:
        return None
    if type(responses) is not dict and not isinstance(responses, Mapping):
        return "inputResponses must be an object mapping each question's key to its answer"
    if len(responses) > max_answers:
        return (
            f"inputResponses has more than {max_answers} entries; send only the answers to the questions "
            "the last result asked"
        )
    for key, answer in responses.items():
        if _plain_elicitation_answer(answer):
            continue  # the common shape, checked without building pydantic models
        if not _is_answer(answer):
            return (
                f"inputResponses[{key!r}] is not an answer: expected an elicitation result (action accept, "
                "decline or cancel), a sampling result or a roots list"
            )
    return None


def _is_answer(answer: Any) -> bool:
    from pydantic import ValidationError

    try:
        _answer_adapter().validate_python(answer, by_name=False)
    except ValidationError:
        return False
    return True


_PRIMITIVES = (str, int, float, bool, type(None))


def _plain_elicitation_answer(answer: Any) -> bool:
    """True for `{"action": "decline"|"cancel"}` or an accept whose content holds only flat form values."""
    if not isinstance(answer, dict) or not answer.keys() <= {"action", "content"}:
        return False
    action = answer.get("action")
    if action in ("decline", "cancel"):
        return "content" not in answer
    if action != "accept":
        return False
    content = answer.get("content")
    if content is None:
        return True
    return isinstance(content, dict) and all(
        isinstance(k, str)
        and (isinstance(v, _PRIMITIVES) or (isinstance(v, list) and all(isinstance(i, str) for i in v)))
        for k, v in content.items()
    )
