"""The options of an adopted tool's choices, looked up from their providers once the values they need are known.

A provider is the app's own code (`askback.OneOf(provider)` in `ToolOptions(choices=...)`), called with the
arguments it names and, for `caller`, who is calling. An option that does not fit the parameter's schema is
left out (and logged): a choice never offers a value the tool would refuse.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Mapping
from typing import Any

from askback.adoption.decide import Tool
from askback.core.markers import Caller, Option
from askback.core.schemacheck import problems
from askback.core.text import one_line

logger = logging.getLogger("askback.adoption")


async def look_up(
    tool: Tool, arguments: Mapping[str, Any], found: Mapping[str, str], principal: str | None
) -> dict[str, list[Option]]:
    """The options of every choice whose provider can be called now (each value it names given and accepted)."""
    looked: dict[str, list[Option]] = {}
    for name, marker in tool.options.choices.items():
        params = inspect.signature(marker.provider).parameters
        needs = [n for n in params if n != "caller"]
        if any(n in found or (n not in arguments and params[n].default is inspect.Parameter.empty) for n in needs):
            continue  # asked once what it depends on is known
        kwargs: dict[str, Any] = {n: arguments[n] for n in needs if n in arguments}
        if "caller" in params:
            kwargs["caller"] = Caller(principal, dict(arguments))
        raw = marker.provider(**kwargs)
        if inspect.isawaitable(raw):
            raw = await raw
        options: list[Option] = []
        for item in raw or ():
            option = item if isinstance(item, Option) else Option(value=item)
            if name in problems(tool.schema, {**arguments, name: option.value}):
                logger.error("option %s from the provider of %s.%s does not fit its schema; left out",
                             one_line(repr(option.value)), tool.name, name)
                continue
            options.append(option)
        looked[name] = options
    return looked
