"""The gateway's policy file: what the upstream does not know to ask, per tool, in TOML.

    [tools.order]
    confirm = "Order {quantity} x {item}?"      # asked with the final values before the call is forwarded

    [tools.rotate]
    secret = ["api_key"]                        # a credential: never asked in a form

    [tools.deploy.choices]
    env = ["staging", "production"]             # the value must be one of these
    region = [{ value = "eu", title = "Europe" }, { value = "us", title = "United States" }]

    [tools.pay]
    confirm = "Pay {amount} EUR to {to}?"
    out_of_band = { argument = "amount", above = 1000 }   # approved on askback's page above 1000 (or = true)
    once = true                                 # the final call is forwarded once; a replay is refused
    approve_with = "passkey"                    # the page's yes is a passkey (default: the app's approve_with)

It becomes the adopter's own `ToolOptions`, so a policy asks exactly as `askback.adopt(server, tools=...)` does.
Everything is checked at start, the file alone first and then against the tools the upstream lists, and the
first thing wrong is one line (`PolicyError`): a gateway never serves with a policy it half understood.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from askback.adoption.options import Above, ToolOptions, confirm_problem
from askback.core.markers import OneOf, Option
from askback.core.marks import APPROVE_WITH
from askback.core.schemacheck import problems

_TOOL_KEYS = ("confirm", "secret", "choices", "out_of_band", "once", "approve_with")
_SCALARS = (str, int, float, bool)


class PolicyError(ValueError):
    """What is wrong with a policy file, in one line naming the file and the place."""


def load_policy(path: str | Path) -> dict[str, ToolOptions]:
    """The options per tool of the policy file at `path`, or `PolicyError`."""
    where = str(path)
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise PolicyError(f"{where}: cannot be read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{where}: is not valid TOML: {exc}") from None
    return read_policy(data, where)


def read_policy(data: Mapping[str, Any], where: str = "the policy") -> dict[str, ToolOptions]:
    unknown = [k for k in data if k != "tools"]
    if unknown:
        raise PolicyError(f"{where}: unknown key {unknown[0]!r} (a policy has only [tools.NAME] tables)")
    tools = data.get("tools", {})
    if not isinstance(tools, Mapping):
        raise PolicyError(f"{where}: tools must be a table of [tools.NAME] tables")
    return {name: _tool(f"{where}: tools.{name}", table) for name, table in tools.items()}


def _tool(where: str, table: Any) -> ToolOptions:
    if not isinstance(table, Mapping):
        raise PolicyError(f"{where} must be a table")
    unknown = [k for k in table if k not in _TOOL_KEYS]
    if unknown:
        raise PolicyError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(_TOOL_KEYS)})")
    confirm = table.get("confirm")
    if confirm is not None:
        if not isinstance(confirm, str) or not confirm.strip():
            raise PolicyError(f"{where}.confirm must be a text")
        problem = confirm_problem(confirm)
        if problem is not None:
            raise PolicyError(f"{where}.confirm is not a valid template: {problem}")
    secret = table.get("secret", [])
    if not isinstance(secret, list) or not all(isinstance(n, str) and n for n in secret):
        raise PolicyError(f"{where}.secret must be a list of argument names")
    choices = table.get("choices", {})
    if not isinstance(choices, Mapping):
        raise PolicyError(f"{where}.choices must be a table of argument = [options]")
    markers = {name: OneOf(_static(_options(f"{where}.choices.{name}", given))) for name, given in choices.items()}
    once = table.get("once", False)
    if not isinstance(once, bool):
        raise PolicyError(f"{where}.once must be true or false")
    out_of_band = _out_of_band(f"{where}.out_of_band", table.get("out_of_band", False))
    if out_of_band is not False and confirm is None:
        raise PolicyError(f"{where}.out_of_band needs a confirm text: it is what the person approves on the page")
    approve_with = table.get("approve_with")
    if approve_with is not None and approve_with not in APPROVE_WITH:
        raise PolicyError(f"{where}.approve_with must be one of {', '.join(map(repr, APPROVE_WITH))}")
    if approve_with is not None and out_of_band is False:
        raise PolicyError(f"{where}.approve_with needs out_of_band: it says how the approval on the page is given")
    return ToolOptions(confirm=confirm, secret=tuple(secret), choices=markers, out_of_band=out_of_band, once=once,
                       approve_with=approve_with)


def _out_of_band(where: str, given: Any) -> bool | Above:
    if isinstance(given, bool):
        return given
    shape = f"{where} must be true, false or {{ argument = \"NAME\", above = NUMBER }}"
    if not isinstance(given, Mapping) or set(given) != {"argument", "above"}:
        raise PolicyError(shape)
    argument, above = given["argument"], given["above"]
    if not isinstance(argument, str) or not argument or isinstance(above, bool) or not isinstance(above, int | float):
        raise PolicyError(shape)
    return Above(argument, above)


def _options(where: str, given: Any) -> list[Option]:
    if not isinstance(given, list) or not given:
        raise PolicyError(f"{where} must be a non-empty list of options")
    options: list[Option] = []
    for item in given:
        if isinstance(item, _SCALARS):
            options.append(Option(item))
            continue
        if isinstance(item, Mapping) and set(item) <= {"value", "title"} and isinstance(item.get("value"), _SCALARS):
            title = item.get("title")
            if title is not None and not isinstance(title, str):
                raise PolicyError(f"{where}: an option's title must be a text")
            options.append(Option(item["value"], title))
            continue
        raise PolicyError(f"{where}: an option is a value or {{ value = ..., title = \"...\" }}")
    return options


def _static(options: Sequence[Option]) -> Callable[[], list[Option]]:
    def provider() -> list[Option]:
        return list(options)

    return provider


def check_against(policy: Mapping[str, ToolOptions], tools: Sequence[Mapping[str, Any]], where: str) -> None:
    """`PolicyError` for a tool the upstream does not list, an argument its schema does not have, or an option
    its schema would refuse: a rule that can never apply is a mistake in the file, said at start."""
    listed = {t.get("name"): t.get("inputSchema") for t in tools}
    for name, options in policy.items():
        if name not in listed:
            raise PolicyError(f"{where}: tools.{name}: the upstream lists no tool {name!r}")
        schema = listed[name] if isinstance(listed[name], Mapping) else {}
        assert isinstance(schema, Mapping)
        properties = schema.get("properties") or {}
        threshold = [options.out_of_band.argument] if isinstance(options.out_of_band, Above) else []
        for argument in (*options.secret, *options.choices, *threshold):
            if argument not in properties:
                raise PolicyError(f"{where}: tools.{name}: {name} has no argument {argument!r}")
        for argument in threshold:
            node = properties[argument] if isinstance(properties[argument], Mapping) else {}
            kinds = node.get("type")
            kinds = kinds if isinstance(kinds, list) else [kinds]
            if not {"number", "integer"} & set(kinds):
                raise PolicyError(f"{where}: tools.{name}.out_of_band: {argument!r} is not a number in {name}'s "
                                  "schema, so it has no amount to compare")
        for argument, marker in options.choices.items():
            offered = marker.provider()  # a policy's provider is `_static`: a list, at once
            for option in offered if isinstance(offered, list) else []:
                value = option.value if isinstance(option, Option) else option
                if argument in problems(schema, {argument: value}):
                    raise PolicyError(f"{where}: tools.{name}.choices.{argument}: the option {value!r} "
                                      "does not fit the argument's schema")
